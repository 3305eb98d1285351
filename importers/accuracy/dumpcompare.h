#pragma once

#include "importers/core/importcontrol.h"
#include "models/accuracy/accuracymetrics.h"
#include "models/accuracy/compareresult.h"
#include "models/accuracy/dumpmatching.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace runlens::importers::accuracy {

/// One side read from disk, or why it could not be.
struct DumpSideResult
{
    std::optional<models::accuracy::DumpSide> side;
    QString error;
    QStringList warnings;
};

/// Reads one side of a comparison from `path`: an msprobe dump (a `step*/rank*` folder, its dump.json, or a
/// folder with one below it; a folder with several below it, ranks and steps, is one side whose rows carry
/// their dump's `stepN/rankM` as SideRow::group, paired only with the same dump of the other side), a
/// checkpoint file (`.pt`,
/// `.pth`, `.bin`, `.npz`, `.safetensors`: one row per tensor), or a folder of tensor dumps
/// (`step_N/{module}.{kind}.npy`, MindSpore dumps). Tensor files of msprobe dumps (`.pt` from PyTorch, `.npy`
/// from MindSpore) are opened only when compared.
DumpSideResult readDumpSide(const QString& path, const ImportControl& control = {});

struct CompareOptions
{
    models::accuracy::NameMapping mapping;
    models::accuracy::CompareThresholds thresholds = models::accuracy::CompareThresholds::builtIn();
    models::accuracy::Verdict failLevel
        = models::accuracy::Verdict::Warning; ///< what counts as failing when looking for where the error is born
    /// Threads comparing tensor pairs (0: one per hardware thread). Each holds one pair mapped; the rows still
    /// come in order.
    int threads = 0;
};

/// Matches the sides and compares every pair: element by element when both sides have tensor data
/// (`options.threads` pairs open at a time, each released when compared), else by msprobe's md5 when both dumps carry
/// it, else by msprobe's statistics. `rowReady` is called with each compared row in order (from the calling thread).
/// Progress and cancel through `control`; a cancelled comparison returns nullopt.
std::optional<models::accuracy::CompareResult>
compareDumpSides(const models::accuracy::DumpSide& bench, const models::accuracy::DumpSide& target,
                 const CompareOptions& options = {}, const ImportControl& control = {},
                 const std::function<void(const models::accuracy::CompareRow&)>& rowReady = {});

/// readDumpSide() on both paths, then compareDumpSides(); `error` says which side could not be read.
std::optional<models::accuracy::CompareResult> compareDumps(const QString& bench, const QString& target,
                                                            const CompareOptions& options, QString* error,
                                                            const ImportControl& control = {});

} // namespace runlens::importers::accuracy
