#pragma once

#include "models/graph/dumpindex.h"

#include <QString>

#include <optional>

namespace runlens::models::tensor {

// Which tensor and which step a tensor file is, from its path alone. The one place these rules live: the
// tensor catalog, the dump index and the Run Browser's folder summaries all read names through them.
//
// Layouts: MindSpore offline dumps `{net}/{graph_id}/{iteration}/{op_type}.{op_name}.{task}.{stream}.{ts}.
// {input|output}.{slot}.{format}[.{dtype}].npy`; torch-style module dumps `step_N/{module}.{kind}.npy`;
// checkpoints whose file name carries the step (`model_step_500.npz`, `checkpoint-12.safetensors`); msprobe's
// `dump_tensor_data/{entry}.{category}[.{path}].{npy|pt}`.

/// What a dump file's name says about its tensor (see graph::DumpEntry for the fields).
struct DumpFileName
{
    QString nodeKey;
    QString opType;
    graph::DumpIo io = graph::DumpIo::Other;
    int slot = -1;
    QString kind;
};

/// Splits a file name (with or without the `.npy` suffix) into node key and role.
DumpFileName parseDumpFileName(const QString& fileName);

/// msprobe's data files (`dump_tensor_data/{entry}.{input|output|parameters|kwargs}[.path].{npy|pt}`): named by
/// their row name (the file name without its extension), linked to the entry that dumped them
/// (`Functional.linear.5.backward`, `Module.conv1.Conv2d.forward.0`), the rest of the name as their kind.
/// Empty for any other file.
std::optional<DumpFileName> parseMsprobeDataName(const QString& relativePath);

/// The step of one folder name (`step_30`, `iteration-7`, `iter3`), or -1.
int stepOfFolderName(const QString& folderName);

/// The step or iteration of a tensor file from the folders of its path relative to the run root (the
/// innermost step folder, or MindSpore's `{graph_id}/{iteration}`), or -1.
int stepOfFolders(const QString& relativePath);

/// The step a checkpoint's file name carries (`model_step_500.npz`, `checkpoint-12.safetensors`), or -1.
int stepOfFileName(const QString& fileName);

/// A checkpoint's file name without its step number: "model_step_500" -> "model_step".
QString withoutStepNumber(const QString& base);

/// The folders of a relative path with the one that names the step dropped (for MindSpore dumps the
/// iteration folder), so the same tensor at two steps gets the same key.
QString folderWithoutStep(const QString& relativePath, bool mindsporeLayout);

/// The run a tensor belongs to across steps: a run that is itself a step folder (`dump/step_3`) is the
/// folder above it ("." when there is none).
QString runWithoutStep(const QString& run);

} // namespace runlens::models::tensor
