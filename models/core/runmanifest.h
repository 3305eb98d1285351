#pragma once

#include "artifactkind.h"
#include "diagnostic.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace runlens {

/// One file found in a run folder, classified by content.
struct Artifact
{
    QString path; ///< absolute path
    QString relativePath; ///< relative to the opened root, '/' separated ("." never appears)
    ArtifactKind kind = ArtifactKind::Unknown;
    QString run; ///< run name: directory relative to the root ("." for the root itself)
    std::optional<int> rank; ///< from rank_N / rank-N / rankN path parts or distributedInfo
    qint64 size = 0;
    QDateTime modified;
};

/// What RunScanner found under a root: artifacts grouped into runs, plus problems met while walking.
/// A plain value: produced on a worker thread, then shared read-only.
struct RunManifest
{
    QString root; ///< absolute path of the opened folder (or of the opened file)
    QList<Artifact> artifacts; ///< sorted by run, then relative path
    Diagnostics diagnostics; ///< unreadable entries, symlink loops, limits reached
    bool truncated = false; ///< the entry limit was reached before the walk finished
    qint64 entriesVisited = 0;

    /// Distinct run names in artifact order.
    QStringList runs() const;
    /// Indices into `artifacts` of the artifacts of one run.
    QList<int> artifactsOfRun(const QString& run) const;
    /// Index of the artifact with this absolute path, or -1.
    int indexOfPath(const QString& path) const;
};

} // namespace runlens
