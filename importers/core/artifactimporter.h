#pragma once

#include "importers/core/importcontrol.h"

#include "models/accuracy/msprobedump.h"
#include "models/cluster/rankdigest.h"
#include "models/core/diagnostic.h"
#include "models/core/importstate.h"
#include "models/core/runmanifest.h"
#include "models/embeddings/embeddingset.h"
#include "models/graph/graph.h"
#include "models/memory/memoryprofile.h"
#include "models/scalars/scalarseries.h"
#include "models/summary/lineage.h"
#include "models/summary/summarydata.h"
#include "models/tensor/tensorsummary.h"
#include "models/trace/tracestore.h"
#include "models/trace/tracesummary.h"

#include <QMap>
#include <QStringList>

#include <functional>
#include <memory>

namespace runlens::importers {

/// What one poll of an artifact produced: new data for the shared models, new diagnostics, and the
/// state of the artifact afterwards.
struct ImportUpdate
{
    models::scalars::ScalarBatch scalars;
    models::Diagnostics diagnostics;
    models::ImportStatus status = models::ImportStatus::Ok;
    bool mayGrow = false; ///< ended at an incomplete tail: poll again when the file grows
    qint64 recordsRead = 0;
    qint64 bytesRead = 0;
    std::shared_ptr<const models::trace::TraceStore> trace; ///< a profiler trace, read whole
    std::optional<models::trace::TraceSummary> traceSummary;
    std::shared_ptr<const models::graph::Graph> graph; ///< a computation graph, read whole
    std::optional<models::graph::GraphSummary> graphSummary;
    std::optional<QList<models::tensor::TensorSummary>> tensors; ///< a tensor file's tensors with their statistics
    QMap<QString, QString> tensorFileMetadata; ///< a tensor file's free-form metadata (safetensors `__metadata__`)
    std::optional<models::summary::RunLineage> lineage; ///< a lineage file's latest records of each kind
    /// Histograms, images, texts, PR curves, tensors and hparams of a summary file (replacing per tag).
    std::shared_ptr<const models::summary::SummaryBatch> summaries;
    /// Memory curves: of a trace with memory events, or of a memory file (memory timeline, MindSpore
    /// memory files, CUDA snapshot); with the per-device figures for reports.
    std::shared_ptr<const models::memory::MemoryProfile> memory;
    std::optional<QList<models::MemoryDeviceSummary>> memorySummary;
    /// A run's MindSpore profiler output: operators, steps, data pipelines and cluster per rank.
    std::shared_ptr<const models::ProfilerBundle> profiler;
    /// An msprobe dump folder: entries with their statistics, module tree, stacks and tensor files.
    std::shared_ptr<const models::accuracy::MsprobeDump> msprobeDump;
    /// One rank's digest (`runlens digest`): the desktop shows the digests of a folder as a cluster.
    std::shared_ptr<const models::cluster::RankDigest> rankDigest;
    /// The embedding sets of a projector folder, read whole, with what `runlens info` says of them.
    std::shared_ptr<const std::vector<models::embeddings::EmbeddingSetPtr>> embeddings;
    std::optional<QList<models::embeddings::EmbeddingSummary>> embeddingSummaries;
};

/// Reads one artifact, possibly in several polls as the file grows (live tail). Not thread-safe:
/// one poll at a time, from any thread.
class ArtifactImporter
{
public:
    virtual ~ArtifactImporter() = default;
    virtual ImportUpdate poll(const ImportControl& control) = 0;
};

/// The importer for an artifact's kind, or nullptr when this build does not read that kind. Summary
/// readers keep at most `limits` values per series beyond scalars.
std::unique_ptr<ArtifactImporter> createImporter(const models::Artifact& artifact,
                                                 const models::summary::SummaryLimits& limits = {});

/// The import boundary: `importer.poll(control)` with every exception it lets escape (a library's
/// `std::bad_alloc`, a parser's `type_error`, anything else) turned into a failed update with an error
/// diagnostic on `path`, so one bad file never takes the program or the other files down with it.
ImportUpdate pollGuarded(ArtifactImporter& importer, const ImportControl& control, const QString& path);

/// Runs `work`; whatever it lets escape becomes one error per path in the result (empty when it returned).
models::Diagnostics runGuarded(const std::function<void()>& work, const QStringList& paths);

/// The message for an exception caught at the import boundary; `what` may be null (not a std::exception).
models::Diagnostic importFailureDiagnostic(const QString& path, const char* what, bool outOfMemory);

} // namespace runlens::importers
