#pragma once

#include "importers/core/artifactimporter.h"

#include <QString>

namespace runlens::importers::trace {

/// The status of a trace read with these diagnostics: failed when nothing was read and an error says
/// why, partial when something was wrong, else ok.
models::ImportStatus traceImportStatus(const models::Diagnostics& diagnostics, bool empty);

/// Reads one profiler trace file whole (traces are written once, at the end of profiling) into its own
/// TraceStore, with a summary for reports. Every poll reads the file again: the store is large, so the
/// application keeps only the one it shows and asks again for another.
class TraceFileImporter final : public ArtifactImporter
{
public:
    explicit TraceFileImporter(QString path);
    ImportUpdate poll(const ImportControl& control) override;

private:
    QString m_path;
};

} // namespace runlens::importers::trace
