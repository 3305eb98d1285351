#pragma once

#include "importers/profiler/profilerfolder.h"
#include "models/profiler/profilerdata.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace runlens::importers::profiler {

/// Everything of one rank: operators, steps, device and versions. Problems are in the result's diagnostics.
models::profiler::ProfilerRankData readProfilerRank(const ProfilerRank& rank);

/// Reads every rank of the profiler folders among `paths` (files, e.g. a run's ProfilerCsv/ProfilerJson artifacts)
/// or below `directory`. `cancelled` is polled between ranks; a cancelled read returns the ranks read so far.
/// Meant to run on a worker; the result is immutable once returned.
std::shared_ptr<const models::profiler::ProfilerRunData>
readProfilerFiles(const QString& root, const QStringList& paths, const std::function<bool()>& cancelled = {});
std::shared_ptr<const models::profiler::ProfilerRunData>
readProfilerDirectory(const QString& directory, const std::function<bool()>& cancelled = {});

/// The figures of one rank for `runlens info --json`: {"rank", "device", "ms_version", "layout",
/// "steps": {"count", "average_us", "file_average_us", "categories": {id: average µs}},
/// "operators": {"types", "ops", "total_us", "top": [{"type", "core", "calls", "total_us", "share"}] (five)}}.
QJsonObject rankInfoJson(const models::profiler::ProfilerRankData& rank);

} // namespace runlens::importers::profiler
