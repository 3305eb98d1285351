#pragma once

#include "importers/core/importcontrol.h"

#include "models/core/runmanifest.h"

#include <QString>

namespace runlens::importers {

/// Walks a run folder (or takes a single file) and returns what it holds, classified by content,
/// grouped into runs and ranks. Reads at most a small header of each file, never whole files.
class RunScanner
{
public:
    struct Options
    {
        int maxDepth = 8; ///< directories below the root that are entered
        qint64 maxEntries = 200000; ///< directory entries visited before the walk stops (truncated)
        bool includeUnknown = false; ///< list files of no known kind too
    };

    RunScanner();
    explicit RunScanner(Options options);

    /// `path` may be a folder or a single file. Never throws; problems become manifest diagnostics.
    models::RunManifest scan(const QString& path, const ImportControl& control = {}) const;

    /// Classifies one file from its name and first bytes (exposed for tests and for `Open File`).
    static models::ArtifactKind classify(const QString& fileName, const QByteArray& head, qint64 fileSize);

private:
    Options m_options;
};

} // namespace runlens::importers
