#pragma once

#include "models/core/artifactkind.h"
#include "models/core/diagnostic.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <string_view>

namespace runlens::models {

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
    /// The name a user sees for one of this manifest's runs (see runlens::runDisplayName).
    QString runDisplayName(const QString& run) const;
};

/// True for a folder name that tools give to what a training job writes (`tb`, `logs`, `profiler`, `dump`,
/// `graph`, `checkpoints`, `step_3`, `rank_0`, `PROF_000001_...`, `*_ascend_pt` ...), not to the job itself.
/// Such a folder belongs to the run of the folder above it. ASCII letters compare case-insensitively.
bool isArtifactFolderName(std::string_view name);

/// The name a user sees for a run of the folder `root`: the run itself ("exp1", "runs/exp1"), except the
/// opened folder's own run ".", which is named after the folder. When that folder is itself an artifact
/// folder (`job/tb` opened alone), the job folder above it gives the name. Every place that shows a run
/// name (GUI, `runlens scan`/`info`/`advise`, the Advisor's messages) uses this.
QString runDisplayName(const QString& root, const QString& run);

} // namespace runlens::models
