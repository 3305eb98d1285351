#pragma once

#include "importers/core/importcontrol.h"
#include "models/core/diagnostic.h"
#include "models/trace/tracestore.h"

#include <QStringList>

#include <memory>
#include <string>

namespace runlens::importers::trace {

/// What reading one or more Chrome traces produced: the store (never null, possibly empty) and every
/// problem found. `canceled` is set when the control asked to stop; the store then holds what was read.
struct ChromeTraceResult
{
    std::shared_ptr<const models::trace::TraceStore> store;
    models::Diagnostics diagnostics;
    bool canceled = false;
};

/// Reads Chrome Trace Event Format files (Kineto 2020-2026, Paddle, TensorFlow, MindSpore timelines,
/// hand-made traces), plain or gzip, into one TraceStore: each file is a source (a rank), aligned on
/// absolute time. Events are split by a light scanner and parsed one at a time with simdjson On Demand,
/// so a bad event (invalid UTF-8, bad escape, wrong types) is skipped with a diagnostic and a truncated
/// or broken file keeps everything before the damage. `args` are not parsed: the store keeps their
/// position in the retained input (the memory-mapped file). Large files are split into events on a
/// second thread while the calling thread parses them; no Qt event loop is needed.
class ChromeTraceReader
{
public:
    /// Reads `paths` (each becomes a source, in that order) into one store. When the trace cache is on
    /// (TraceCache), an unchanged set of files is read back from its index cache instead of parsed, and a
    /// parse is written to it unless `writeIndex` is false (a job digested rank by rank would push every
    /// other trace out of the cache with indexes nobody re-opens).
    static ChromeTraceResult read(const QStringList& paths, const ImportControl& control = {}, bool writeIndex = true);
    /// Parses `paths`, never using the index cache.
    static ChromeTraceResult readFiles(const QStringList& paths, const ImportControl& control = {});
    /// Reads a trace held in memory (plain or gzip bytes); `name` labels the source and diagnostics.
    static ChromeTraceResult readBytes(const std::string& bytes, const QString& name,
                                       const ImportControl& control = {});
};

} // namespace runlens::importers::trace
