#pragma once

#include "core/importcontrol.h"
#include "core/runmanifest.h"
#include "graph/dumpindex.h"

#include <QString>

namespace runlens::tensor {

/// What a dump file's name says about its tensor (see DumpEntry for the fields).
struct DumpFileName
{
    QString nodeKey;
    QString opType;
    graph::DumpIo io = graph::DumpIo::Other;
    int slot = -1;
    QString kind;
};

/// Builds the DumpIndex of a run folder from the `.npy` artifacts of its manifest, reading only their
/// headers. Recognises MindSpore offline dumps (`{op_type}.{op_name}.{task}.{stream}.{ts}.{input|output}.
/// {slot}.{format}[.{dtype}].npy` under `{net}/{graph_id}/{iteration}/`) and torch-style module dumps
/// (`step_N/{module}.{kind}.npy`). Runs on any thread; bad files become diagnostics and are left out.
class DumpIndexer
{
public:
    /// Splits a file name (with or without the `.npy` suffix) into node key and role.
    static DumpFileName parseFileName(const QString& fileName);
    /// The step or iteration of a dump file from its path relative to the run root, or -1.
    static int stepOfPath(const QString& relativePath);
    /// Indexes the TensorNpy artifacts of `manifest`; cancellation is checked between files.
    static graph::DumpIndex index(const RunManifest& manifest, const ImportControl& control = {});
};

} // namespace runlens::tensor
