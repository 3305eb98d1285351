#pragma once

#include "importers/core/artifactimporter.h"

#include "models/core/importstate.h"
#include "models/core/runmanifest.h"

#include <QFuture>
#include <QHash>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>
#include <vector>

namespace runlens::importers {

/// Imports every readable artifact of a RunManifest and keeps tailing the ones that grow.
///
/// Artifacts are read in groups on the global thread pool: the summary files of one run form one
/// group read in file-name order (so TensorBoard's preemption rule sees them in the order they were
/// written); every other artifact is a group of its own. Results are delivered on the thread that owns
/// the session, as signals. The session owns the importers; a group is never polled twice at once.
class ProfilerImporter;

class ImportSession final : public QObject
{
    Q_OBJECT
public:
    explicit ImportSession(models::RunManifest manifest, QObject* parent = nullptr);
    /// Summary readers keep at most `limits` values per series beyond scalars.
    ImportSession(models::RunManifest manifest, const models::summary::SummaryLimits& limits,
                  QObject* parent = nullptr);
    ~ImportSession() override;

    const models::RunManifest& manifest() const { return m_manifest; }
    const models::ArtifactState& state(int artifactIndex) const { return m_states.at(artifactIndex); }
    int artifactCount() const { return int(m_manifest.artifacts.size()); }
    const std::vector<models::ArtifactState>& states() const { return m_states; }

    /// Artifacts of these kinds are not read by start() but when importArtifact() asks (large inputs the
    /// user opens one at a time). Set before start().
    void setDeferredKinds(const QList<models::ArtifactKind>& kinds);
    /// How many values per series beyond scalars the summary readers keep.
    const models::summary::SummaryLimits& summaryLimits() const { return m_summaryLimits; }
    /// Starts reading in the background. Call once.
    void start();
    /// Reads a deferred artifact (or reads an artifact again if it changed) in the background.
    void importArtifact(int artifactIndex);
    /// Reads several profiler traces (the ranks of one run) into one store, aligned on absolute time,
    /// each file a source of its own. Each artifact's state takes the status and diagnostics of its file.
    /// Delivered by tracesArrived(); a second call while one runs replaces the request.
    void importTraces(const QList<int>& artifactIndices);
    /// Asks running groups to stop; what was read so far is kept (status Canceled for unfinished ones).
    void cancel();
    bool isBusy() const { return m_running > 0; }
    /// While on, files that ended at an incomplete tail or that grew are polled again every `intervalMs`.
    void setLiveTail(bool enabled, int intervalMs = 1000);

    /// Reads everything on the calling thread (command line). Signals are emitted as in start().
    void importBlocking();

    /// Takes the artifacts of a newer scan of the same folder that this session does not know yet (a
    /// file a still-running job has just created) and imports them. Returns how many were added; 0 also
    /// when a run they belong to is being read right now (call again later).
    int addArtifacts(const models::RunManifest& rescanned);

signals:
    /// New scalar points of one run; apply them to a ScalarStore in emission order.
    void scalarsArrived(const QString& run, const runlens::models::scalars::ScalarBatch& batch);
    void artifactChanged(int artifactIndex);
    /// Summary data beyond scalars of the file `source` of `run` (see SummaryStore::update()).
    void summariesArrived(const QString& run, const QString& source,
                          const runlens::models::summary::SummaryBatch& batch);
    /// A MindSpore lineage file of `run` was read.
    void lineageArrived(const QString& run, const runlens::models::summary::RunLineage& lineage);
    /// A profiler trace was read; the store is shared and immutable.
    void traceArrived(int artifactIndex, std::shared_ptr<const runlens::models::trace::TraceStore> store);
    /// Memory curves were read (a memory file, or the memory events of a trace read alone).
    void memoryArrived(int artifactIndex, std::shared_ptr<const runlens::models::memory::MemoryProfile> profile);
    /// The MindSpore profiler output of `run` was read (operators, steps, data pipelines, cluster).
    void profilerArrived(const QString& run, std::shared_ptr<const runlens::models::ProfilerBundle> bundle);
    /// A computation graph was read; the graph is shared and immutable.
    void graphArrived(int artifactIndex, std::shared_ptr<const runlens::models::graph::Graph> graph);
    /// A rank digest (`runlens digest`) was read; the digests of one folder make a cluster.
    void rankDigestArrived(int artifactIndex, std::shared_ptr<const runlens::models::cluster::RankDigest> digest);
    /// The embedding sets of a projector folder were read; shared and immutable.
    void embeddingsArrived(int artifactIndex,
                           std::shared_ptr<const std::vector<runlens::models::embeddings::EmbeddingSetPtr>> sets);
    /// Traces read together by importTraces(); the store holds one source per artifact, in that order.
    void tracesArrived(const QList<int>& artifactIndices,
                       std::shared_ptr<const runlens::models::trace::TraceStore> store);
    /// What a trace being read (alone, or together by importTraces()) has indexed so far: an immutable
    /// partial store, replaced by traceArrived()/tracesArrived() at the end; null when only the progress
    /// moved. Only the latest one is delivered when several were made while the event loop was busy.
    void traceSnapshot(const QList<int>& artifactIndices,
                       std::shared_ptr<const runlens::models::trace::TraceStore> partial, int permille);
    /// Artifacts [first, first + count) were appended to the manifest by addArtifacts().
    void artifactsAdded(int first, int count);
    /// Overall progress of the current import, 0..1000, with a line of text for the status bar.
    void progressChanged(int permille, const QString& text);
    /// Every group finished (or was canceled) in the current round.
    void finished();

private:
    struct Group;
    struct PollResult;
    struct CombinedRead;

    void buildGroups();
    std::shared_ptr<Group> addToGroup(int artifactIndex);
    bool isDeferred(const Group& group) const;
    void sortGroup(Group& group);
    void launch(const std::shared_ptr<Group>& group);
    void deliver(const PollResult& result);
    void checkGrowth();
    void updateProgress();
    /// An ImportControl::traceSnapshot that emits traceSnapshot() for `indices` on this object's thread.
    std::function<void(std::shared_ptr<const models::trace::TraceStore>, int)> snapshotSink(const QList<int>& indices);

    models::RunManifest m_manifest;
    models::summary::SummaryLimits m_summaryLimits;
    std::vector<models::ArtifactState> m_states;
    std::vector<std::shared_ptr<Group>> m_groups;
    QHash<QString, std::shared_ptr<Group>> m_summaryGroups; ///< run -> the group of its summary files
    QHash<QString, std::shared_ptr<Group>> m_profilerGroups; ///< run -> the group of its profiler tables
    QHash<QString, ProfilerImporter*> m_profilerReaders; ///< run -> the importer (owned by its group) reading them
    std::shared_ptr<std::atomic_bool> m_cancel;
    QTimer m_tailTimer;
    QTimer m_progressTimer;
    int m_running = 0;
    bool m_canceled = false;
    QList<models::ArtifactKind> m_deferredKinds;
    std::shared_ptr<CombinedRead> m_combined; ///< the running importTraces() read, if any
    QFuture<void> m_combinedFuture; ///< its worker, waited for on destruction
    QList<int> m_pendingCombined; ///< asked for while another combined read ran
};

} // namespace runlens::importers
