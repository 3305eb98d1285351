#include "importers/core/importsession.h"

#include "importers/core/profilerimporter.h"
#include "importers/trace/chrometracereader.h"
#include "importers/trace/tracefileimporter.h"
#include "models/core/profilerbundle.h"
#include "models/core/workerpool.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QFuture>
#include <QLoggingCategory>
#include <QThreadPool>
#include <QtConcurrent>

#include <algorithm>
#include <mutex>

Q_LOGGING_CATEGORY(lcImportSession, "runlens.importers.core", QtWarningMsg)

namespace runlens::importers {

struct ImportSession::Group
{
    std::vector<int> indices;
    std::vector<std::unique_ptr<ArtifactImporter>> importers;
    std::vector<qint64> knownSizes; ///< file size when the last poll began
    std::atomic_int progress { 0 }; ///< 0..1000 over the whole group in the current poll
    bool running = false;
    QFuture<void> future;
};

struct ImportSession::CombinedRead
{
    QList<int> indices;
    std::atomic_int progress { 0 };
};

struct ImportSession::PollResult
{
    int index = -1;
    ImportUpdate update;
};

namespace {

int statusRank(models::ImportStatus status)
{
    switch (status) {
    case models::ImportStatus::Ok:
        return 1;
    case models::ImportStatus::Partial:
        return 2;
    case models::ImportStatus::Failed:
        return 3;
    default:
        return 0;
    }
}

qint64 currentSize(const QString& path)
{
    return QFileInfo(path).size();
}

} // namespace

ImportSession::ImportSession(models::RunManifest manifest, QObject* parent)
    : ImportSession(std::move(manifest), models::summary::SummaryLimits(), parent)
{ }

ImportSession::ImportSession(models::RunManifest manifest, const models::summary::SummaryLimits& limits,
                             QObject* parent)
    : QObject(parent)
    , m_manifest(std::move(manifest))
    , m_summaryLimits(limits)
    , m_states(m_manifest.artifacts.size())
    , m_cancel(std::make_shared<std::atomic_bool>(false))
{
    m_tailTimer.setInterval(1000);
    connect(&m_tailTimer, &QTimer::timeout, this, &ImportSession::checkGrowth);
    m_progressTimer.setInterval(150);
    connect(&m_progressTimer, &QTimer::timeout, this, &ImportSession::updateProgress);
    buildGroups();
}

ImportSession::~ImportSession()
{
    // Workers post their results to this object: none may still run once it is gone.
    m_cancel->store(true);
    for (const auto& group : m_groups) {
        if (group->running)
            group->future.waitForFinished();
    }
    m_combinedFuture.waitForFinished();
}

void ImportSession::buildGroups()
{
    for (int i = 0; i < m_manifest.artifacts.size(); ++i)
        addToGroup(i);
    for (const auto& group : m_groups)
        sortGroup(*group);
}

std::shared_ptr<ImportSession::Group> ImportSession::addToGroup(int index)
{
    // Summary files of one run, in name order, form one group; each other artifact is its own group.
    const models::Artifact& artifact = m_manifest.artifacts[index];
    if (readWithProfilerFolder(artifact)) {
        // A run's MindSpore profiler tables are read together: the first one reads them all.
        auto& slot = m_profilerGroups[artifact.run];
        if (!slot) {
            slot = std::make_shared<Group>();
            m_groups.push_back(slot);
            auto reader = std::make_unique<ProfilerImporter>(m_manifest.root);
            m_profilerReaders.insert(artifact.run, reader.get());
            slot->indices.push_back(index);
            slot->importers.push_back(std::move(reader));
        } else {
            slot->indices.push_back(index);
            slot->importers.push_back(std::make_unique<ProfilerMemberImporter>());
        }
        m_profilerReaders.value(artifact.run)->addPath(artifact.path);
        slot->knownSizes.push_back(-1);
        return slot;
    }
    auto importer = createImporter(artifact, m_summaryLimits);
    if (!importer) {
        m_states[index].status = models::ImportStatus::Unsupported;
        return nullptr;
    }
    std::shared_ptr<Group> group;
    if (models::isSummaryKind(artifact.kind)) {
        auto& slot = m_summaryGroups[artifact.run];
        if (!slot) {
            slot = std::make_shared<Group>();
            m_groups.push_back(slot);
        }
        group = slot;
    } else {
        group = std::make_shared<Group>();
        m_groups.push_back(group);
    }
    group->indices.push_back(index);
    group->importers.push_back(std::move(importer));
    group->knownSizes.push_back(-1);
    return group;
}

void ImportSession::sortGroup(Group& group)
{
    // TensorBoard reads a run's files in lexicographic order of their names (roughly their start time).
    std::vector<size_t> order(group.indices.size());
    for (size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return QFileInfo(m_manifest.artifacts[group.indices[a]].path).fileName()
            < QFileInfo(m_manifest.artifacts[group.indices[b]].path).fileName();
    });
    std::vector<int> indices;
    std::vector<std::unique_ptr<ArtifactImporter>> importers;
    std::vector<qint64> sizes;
    for (size_t k : order) {
        indices.push_back(group.indices[k]);
        importers.push_back(std::move(group.importers[k]));
        sizes.push_back(group.knownSizes[k]);
    }
    group.indices = std::move(indices);
    group.importers = std::move(importers);
    group.knownSizes = std::move(sizes);
}

int ImportSession::addArtifacts(const models::RunManifest& rescanned)
{
    QList<models::Artifact> added;
    for (const models::Artifact& artifact : rescanned.artifacts) {
        if (m_manifest.indexOfPath(artifact.path) < 0)
            added.append(artifact);
    }
    if (added.isEmpty() || m_canceled)
        return 0;
    // A group being read on a worker must not change under it: new files join it once it is idle.
    for (const models::Artifact& artifact : added) {
        const auto existing = m_summaryGroups.constFind(artifact.run);
        if (models::isSummaryKind(artifact.kind) && existing != m_summaryGroups.cend() && (*existing)->running)
            return 0;
    }
    const int first = int(m_manifest.artifacts.size());
    std::vector<std::shared_ptr<Group>> touched;
    for (const models::Artifact& artifact : added) {
        m_manifest.artifacts.append(artifact);
        m_states.emplace_back();
        if (auto group = addToGroup(int(m_manifest.artifacts.size()) - 1)) {
            if (std::find(touched.begin(), touched.end(), group) == touched.end())
                touched.push_back(group);
        }
    }
    for (const auto& group : touched)
        sortGroup(*group);
    emit artifactsAdded(first, int(added.size()));
    for (const auto& group : touched) {
        if (isDeferred(*group)) {
            for (int index : group->indices)
                m_states[index].status = models::ImportStatus::Deferred;
            continue;
        }
        launch(group);
    }
    return int(added.size());
}

void ImportSession::setDeferredKinds(const QList<models::ArtifactKind>& kinds)
{
    m_deferredKinds = kinds;
}

bool ImportSession::isDeferred(const Group& group) const
{
    for (int index : group.indices) {
        if (!m_deferredKinds.contains(m_manifest.artifacts[index].kind))
            return false;
    }
    return !group.indices.empty();
}

void ImportSession::start()
{
    for (const auto& group : m_groups) {
        if (isDeferred(*group)) {
            for (int index : group->indices) {
                m_states[index].status = models::ImportStatus::Deferred;
                emit artifactChanged(index);
            }
            continue;
        }
        launch(group);
    }
    // With nothing to read now, say so once control is back in the event loop: a caller that asks for a
    // deferred artifact right after start() (the first trace of a folder) is then not told "finished" before
    // that read has begun.
    if (m_running == 0)
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (m_running == 0)
                    emit finished();
            },
            Qt::QueuedConnection);
}

void ImportSession::importArtifact(int artifactIndex)
{
    for (const auto& group : m_groups) {
        if (std::find(group->indices.begin(), group->indices.end(), artifactIndex) == group->indices.end())
            continue;
        for (int index : group->indices) {
            if (m_states[index].status == models::ImportStatus::Deferred)
                m_states[index].status = models::ImportStatus::Pending;
        }
        launch(group);
        return;
    }
}

void ImportSession::importTraces(const QList<int>& artifactIndices)
{
    if (m_canceled || artifactIndices.isEmpty())
        return;
    if (m_combined) {
        m_pendingCombined = artifactIndices;
        return;
    }
    QStringList paths;
    for (int index : artifactIndices) {
        paths << m_manifest.artifacts[index].path;
        m_states[index].status = models::ImportStatus::Importing;
        emit artifactChanged(index);
    }
    auto read = std::make_shared<CombinedRead>();
    read->indices = artifactIndices;
    m_combined = read;
    ++m_running;
    m_progressTimer.start();
    updateProgress();

    auto cancel = m_cancel;
    auto sink = snapshotSink(artifactIndices);
    m_combinedFuture = QtConcurrent::run(models::workerPool(), [this, read, paths, cancel, sink]() {
        ImportControl control;
        control.cancel = cancel.get();
        control.progress = [read](int permille) { read->progress = permille; };
        control.traceSnapshot = sink;
        auto result = std::make_shared<trace::ChromeTraceResult>();
        const models::Diagnostics failure
            = runGuarded([&] { *result = trace::ChromeTraceReader::read(paths, control); }, paths);
        if (!failure.isEmpty()) {
            *result = {};
            result->diagnostics = failure;
        }
        QMetaObject::invokeMethod(
            this,
            [this, read, paths, result]() {
                m_combined.reset();
                --m_running;
                const models::trace::TraceStore* store = result->store.get();
                for (qsizetype k = 0; k < read->indices.size(); ++k) {
                    PollResult poll;
                    poll.index = read->indices[k];
                    for (const models::Diagnostic& d : result->diagnostics) {
                        if (d.file == paths[k])
                            poll.update.diagnostics.append(d);
                    }
                    const bool hasSource = store && std::size_t(k) < store->sources().size();
                    const bool empty = !hasSource || store->sources()[std::size_t(k)].events == 0;
                    poll.update.status = result->canceled ? models::ImportStatus::Canceled
                                                          : trace::traceImportStatus(poll.update.diagnostics, empty);
                    poll.update.recordsRead = hasSource ? qint64(store->sources()[std::size_t(k)].events) : 0;
                    deliver(poll);
                }
                if (!result->canceled && result->store)
                    emit tracesArrived(read->indices, result->store);
                if (m_running == 0)
                    m_progressTimer.stop();
                updateProgress();
                if (!m_pendingCombined.isEmpty()) {
                    const QList<int> next = std::exchange(m_pendingCombined, {});
                    importTraces(next);
                } else if (m_running == 0) {
                    emit finished();
                }
            },
            Qt::QueuedConnection);
    });
}

std::function<void(std::shared_ptr<const models::trace::TraceStore>, int)>
ImportSession::snapshotSink(const QList<int>& indices)
{
    // The reader's thread leaves only the latest partial store here; one queued call at a time takes it, so
    // a busy event loop never holds a backlog of them.
    struct Slot
    {
        std::mutex mutex;
        std::shared_ptr<const models::trace::TraceStore> partial;
        int permille = 0;
        bool posted = false;
    };
    auto slot = std::make_shared<Slot>();
    return [this, slot, indices](std::shared_ptr<const models::trace::TraceStore> partial, int permille) {
        const std::lock_guard lock(slot->mutex);
        if (partial) // a progress-only call does not drop a store not yet delivered
            slot->partial = std::move(partial);
        slot->permille = permille;
        if (std::exchange(slot->posted, true))
            return;
        QMetaObject::invokeMethod(
            this,
            [this, slot, indices]() {
                std::shared_ptr<const models::trace::TraceStore> partial;
                int permille = 0;
                {
                    const std::lock_guard lock(slot->mutex);
                    partial = std::move(slot->partial);
                    permille = slot->permille;
                    slot->posted = false;
                }
                if (!m_canceled)
                    emit traceSnapshot(indices, std::move(partial), permille);
            },
            Qt::QueuedConnection);
    };
}

void ImportSession::cancel()
{
    m_canceled = true;
    m_cancel->store(true);
    m_tailTimer.stop();
}

void ImportSession::setLiveTail(bool enabled, int intervalMs)
{
    m_tailTimer.setInterval(intervalMs);
    if (enabled && !m_canceled)
        m_tailTimer.start();
    else
        m_tailTimer.stop();
}

void ImportSession::launch(const std::shared_ptr<Group>& group)
{
    if (group->running || m_canceled)
        return;
    group->running = true;
    group->progress = 0;
    for (size_t k = 0; k < group->indices.size(); ++k) {
        const int index = group->indices[k];
        group->knownSizes[k] = currentSize(m_manifest.artifacts[index].path);
        if (m_states[index].status == models::ImportStatus::Pending) {
            m_states[index].status = models::ImportStatus::Importing;
            emit artifactChanged(index);
        }
    }
    ++m_running;
    m_progressTimer.start();
    updateProgress();

    auto cancel = m_cancel;
    QStringList paths;
    std::vector<std::function<void(std::shared_ptr<const models::trace::TraceStore>, int)>> sinks;
    for (int index : group->indices) {
        paths << m_manifest.artifacts[index].path;
        sinks.push_back(m_manifest.artifacts[index].kind == models::ArtifactKind::ChromeTrace ? snapshotSink({ index })
                                                                                              : nullptr);
    }
    group->future = QtConcurrent::run(models::workerPool(), [this, group, cancel, paths, sinks]() {
        const size_t n = group->indices.size();
        for (size_t k = 0; k < n; ++k) {
            PollResult result;
            result.index = group->indices[k];
            if (cancel->load()) {
                result.update.status = models::ImportStatus::Canceled;
            } else {
                ImportControl control;
                control.cancel = cancel.get();
                control.progress
                    = [group, k, n](int permille) { group->progress = int((qint64(k) * 1000 + permille) / qint64(n)); };
                control.traceSnapshot = sinks[k];
                result.update = pollGuarded(*group->importers[k], control, paths[qsizetype(k)]);
                if (cancel->load() && result.update.status == models::ImportStatus::Ok)
                    result.update.status = models::ImportStatus::Canceled;
            }
            QMetaObject::invokeMethod(
                this, [this, result = std::move(result)]() { deliver(result); }, Qt::QueuedConnection);
        }
        QMetaObject::invokeMethod(
            this,
            [this, group]() {
                group->running = false;
                --m_running;
                if (m_running == 0)
                    m_progressTimer.stop();
                updateProgress();
                if (m_running == 0)
                    emit finished();
            },
            Qt::QueuedConnection);
    });
}

void ImportSession::importBlocking()
{
    for (const auto& group : m_groups) {
        for (size_t k = 0; k < group->indices.size(); ++k) {
            PollResult result;
            result.index = group->indices[k];
            ImportControl control;
            control.cancel = m_cancel.get();
            result.update = pollGuarded(*group->importers[k], control, m_manifest.artifacts[result.index].path);
            deliver(result);
        }
    }
    emit finished();
}

namespace {

template<typename Item>
void recordTags(QMap<QString, models::TagStatistics>& into,
                const std::vector<models::summary::SummarySeries<Item>>& batch)
{
    for (const models::summary::SummarySeries<Item>& series : batch) {
        models::TagStatistics& stats = into[series.tag];
        stats.points = qint64(series.items.size());
        if (!series.items.empty()) {
            stats.firstStep = series.items.front().step;
            stats.lastStep = series.items.back().step;
        }
    }
}

void recordSummaryTags(models::ArtifactState& state, const models::summary::SummaryBatch& batch)
{
    // Each series holds all that is kept of its tag in this file, so counts are replaced, not added.
    if (!batch.histograms.empty())
        recordTags(state.summaryTags[QStringLiteral("histograms")], batch.histograms);
    if (!batch.images.empty())
        recordTags(state.summaryTags[QStringLiteral("images")], batch.images);
    if (!batch.texts.empty())
        recordTags(state.summaryTags[QStringLiteral("texts")], batch.texts);
    if (!batch.audio.empty()) {
        QMap<QString, models::TagStatistics>& tags = state.summaryTags[QStringLiteral("audio")];
        recordTags(tags, batch.audio);
        for (const models::summary::AudioSeries& series : batch.audio) {
            if (!series.items.empty()) {
                tags[series.tag].sampleRate = series.items.back().sampleRate;
                tags[series.tag].channels = series.items.back().channels;
            }
        }
    }
    if (!batch.prCurves.empty())
        recordTags(state.summaryTags[QStringLiteral("pr_curves")], batch.prCurves);
    if (!batch.rocCurves.empty())
        recordTags(state.summaryTags[QStringLiteral("roc_curves")], batch.rocCurves);
    if (!batch.tensors.empty())
        recordTags(state.summaryTags[QStringLiteral("tensors")], batch.tensors);
    if (batch.hparams)
        state.hparams = batch.hparams;
}

} // namespace

void ImportSession::deliver(const PollResult& result)
{
    models::ArtifactState& state = m_states[result.index];
    const ImportUpdate& update = result.update;
    if (update.status == models::ImportStatus::Canceled) {
        if (state.status == models::ImportStatus::Importing || state.status == models::ImportStatus::Pending)
            state.status = models::ImportStatus::Canceled;
    } else if (statusRank(update.status) >= statusRank(state.status) || statusRank(state.status) == 0) {
        state.status = update.status;
    }
    state.diagnostics.append(update.diagnostics);
    // A file never ends as failed without a reason: a reader that gave none still gets one the user can act on.
    if (state.status == models::ImportStatus::Failed
        && std::none_of(state.diagnostics.cbegin(), state.diagnostics.cend(), [](const models::Diagnostic& d) {
               return d.severity != models::Severity::Info && !d.message.isEmpty();
           })) {
        models::Diagnostic d;
        d.severity = models::Severity::Error;
        d.file = m_manifest.artifacts[result.index].path;
        d.message = tr("Nothing could be read from this file (%1). If it is part of a larger output, open the folder "
                       "it came from.")
                        .arg(models::artifactKindName(m_manifest.artifacts[result.index].kind));
        state.diagnostics.append(d);
    }
    state.recordsRead += update.recordsRead;
    state.bytesRead += update.bytesRead;
    state.growing = update.mayGrow;
    for (const models::scalars::TagPoints& tag : update.scalars) {
        if (tag.points.empty())
            continue;
        models::TagStatistics& stats = state.scalarTags[tag.tag];
        if (stats.points == 0)
            stats.firstStep = tag.points.front().step;
        stats.points += qint64(tag.points.size());
        stats.lastStep = tag.points.back().step;
    }
    if (update.traceSummary)
        state.trace = update.traceSummary;
    if (update.graphSummary)
        state.graph = update.graphSummary;
    if (update.memorySummary)
        state.memory = update.memorySummary;
    if (update.profiler)
        state.profiler = update.profiler;
    if (update.tensors) {
        state.tensors = update.tensors;
        state.tensorFileMetadata = update.tensorFileMetadata;
    }
    if (update.lineage)
        state.lineage = update.lineage;
    if (update.embeddingSummaries)
        state.embeddings = update.embeddingSummaries;
    if (update.summaries)
        recordSummaryTags(state, *update.summaries);
    for (const models::Diagnostic& d : update.diagnostics)
        qCDebug(lcImportSession) << d.toString();
    if (!update.scalars.empty())
        emit scalarsArrived(m_manifest.artifacts[result.index].run, update.scalars);
    if (update.summaries && !update.summaries->isEmpty()) {
        const models::Artifact& artifact = m_manifest.artifacts[result.index];
        emit summariesArrived(artifact.run, artifact.path, *update.summaries);
    }
    if (update.lineage)
        emit lineageArrived(m_manifest.artifacts[result.index].run, *update.lineage);
    // A trace's memory curves come first, so that whoever shows the trace finds them.
    if (update.memory && !update.memory->empty())
        emit memoryArrived(result.index, update.memory);
    if (update.trace)
        emit traceArrived(result.index, update.trace);
    if (update.graph)
        emit graphArrived(result.index, update.graph);
    if (update.profiler && !update.profiler->isEmpty())
        emit profilerArrived(m_manifest.artifacts[result.index].run, update.profiler);
    if (update.rankDigest)
        emit rankDigestArrived(result.index, update.rankDigest);
    if (update.embeddings && !update.embeddings->empty())
        emit embeddingsArrived(result.index, update.embeddings);
    emit artifactChanged(result.index);
}

void ImportSession::checkGrowth()
{
    for (const auto& group : m_groups) {
        if (group->running
            || (isDeferred(*group) && m_states[group->indices.front()].status == models::ImportStatus::Deferred))
            continue;
        bool grew = false;
        for (size_t k = 0; k < group->indices.size() && !grew; ++k) {
            const int index = group->indices[k];
            if (m_states[index].status == models::ImportStatus::Failed)
                continue;
            grew = currentSize(m_manifest.artifacts[index].path) > group->knownSizes[k];
        }
        if (grew)
            launch(group);
    }
}

void ImportSession::updateProgress()
{
    // Weighted by the files of each group; a running group reports its own fraction.
    qint64 weighted = 0;
    qint64 files = 0;
    int done = 0;
    for (const auto& group : m_groups) {
        const qint64 n = qint64(group->indices.size());
        files += n;
        const bool combined = !group->running && m_combined && m_combined->indices.contains(group->indices.front());
        const int fraction = group->running ? group->progress.load() : combined ? m_combined->progress.load() : 1000;
        weighted += n * fraction;
        if (!group->running && !combined)
            done += int(n);
    }
    const int permille = files == 0 ? 1000 : int(weighted / files);
    const QString text = m_running == 0
        ? QCoreApplication::translate("runlens::importers::ImportSession", "Imported %n file(s)", nullptr, int(files))
        : QCoreApplication::translate("runlens::importers::ImportSession", "Importing %1 of %2 files…")
              .arg(std::min<qint64>(done + 1, files))
              .arg(files);
    emit progressChanged(permille, text);
}

} // namespace runlens::importers
