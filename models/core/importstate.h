#pragma once

#include "models/core/diagnostic.h"
#include "models/embeddings/embeddingset.h"
#include "models/graph/graph.h"
#include "models/summary/lineage.h"
#include "models/summary/summarydata.h"
#include "models/tensor/tensorsummary.h"
#include "models/trace/tracesummary.h"

#include <QMap>
#include <QString>

#include <optional>

namespace runlens::models {

/// How far the import of one artifact got.
enum class ImportStatus {
    Pending, ///< found, not read yet
    Importing,
    Ok, ///< everything read
    Partial, ///< read with problems; what could be read is kept
    Failed, ///< nothing usable
    Unsupported, ///< a kind this build lists but does not read yet
    Canceled,
    Deferred, ///< read when the user opens it (large inputs such as profiler traces)
};
/// "ok", "partial", "failed" ... as in the JSON contract.
QString importStatusId(ImportStatus status);
QString importStatusName(ImportStatus status);

/// Per-tag counts of what an artifact delivered (for `runlens info` and the Run Browser).
struct TagStatistics
{
    qint64 points = 0;
    qint64 firstStep = 0;
    qint64 lastStep = 0;
    double sampleRate = 0.0; ///< audio tags: of the newest clip (0 when unknown)
    int channels = 0; ///< audio tags: of the newest clip
};

struct ProfilerBundle;

/// What `runlens info` says of one device of a memory profile.
struct MemoryDeviceSummary
{
    QString device; ///< "cuda:0", "cpu", "graph 3" ...
    int rank = -1;
    bool timeAxis = true; ///< peakAt is in ns; false: a node index of a MindSpore graph
    bool relative = false; ///< a running sum from an unknown baseline
    qint64 peakBytes = 0;
    qint64 peakAt = 0;
    qint64 origin = 0; ///< where the time axis starts (trace start or first sample): the text report counts from it
    bool peakLocated = true; ///< false: the file states the peak but not when it happened
    QString peakOp; ///< the operator running at the peak, when known
    qint64 peakStep = -1; ///< the profiler step holding the peak, -1 unknown
    qint64 capacity = 0; ///< 0 unknown
    int ooms = 0;
};

/// Everything known about the import of one artifact so far.
struct ArtifactState
{
    ImportStatus status = ImportStatus::Pending;
    Diagnostics diagnostics;
    QMap<QString, TagStatistics> scalarTags;
    qint64 recordsRead = 0;
    qint64 bytesRead = 0;
    bool growing = false; ///< ended at an incomplete tail; tailed while the folder is open
    std::optional<trace::TraceSummary> trace; ///< for profiler traces that were read
    std::optional<graph::GraphSummary> graph; ///< for graphs that were read
    std::optional<QList<tensor::TensorSummary>> tensors; ///< for tensor files that were read
    QMap<QString, QString> tensorFileMetadata; ///< safetensors `__metadata__`
    std::optional<summary::RunLineage> lineage; ///< for MindSpore lineage files that were read
    /// Summary data beyond scalars, per kind ("histograms", "images", "texts", "audio", "pr_curves", "roc_curves",
    /// "tensors") and tag: values kept (after reservoir sampling) and the step range of what was kept.
    QMap<QString, QMap<QString, TagStatistics>> summaryTags;
    std::optional<summary::HParams> hparams; ///< for summary files with hyper-parameters plugin data
    std::optional<QList<MemoryDeviceSummary>> memory;
    std::optional<QList<embeddings::EmbeddingSummary>> embeddings; ///< for projector folders that were read
    /// For the first profiler artifact of a run: what the run's MindSpore profiler output holds.
    std::shared_ptr<const ProfilerBundle> profiler; ///< for traces with memory events and memory files

    qint64 scalarPoints() const;
    /// The most severe diagnostic severity, or Info when there is none.
    Severity worstSeverity() const;
};

} // namespace runlens::models
