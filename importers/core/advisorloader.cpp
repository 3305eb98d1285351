#include "importers/core/advisorloader.h"

#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/tensor/tensorcatalogbuilder.h"
#include "models/advisor/inputsnapshot.h"
#include "models/core/profilerbundle.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"
#include "models/tensor/summarytensors.h"

#include <QEventLoop>
#include <QHash>
#include <QMap>
#include <QRegularExpression>
#include <QSet>

namespace runlens::importers {

namespace {

// The same limits as a combined read in the window: beyond them the store would crowd out the rest.
constexpr int kMaxRanks = 32;
constexpr qint64 kMaxTraceBytes = qint64(4) << 30;

/// "job/rank_3/profile" -> "job/profile": the run name the ranks of one job share.
QString jobOf(const QString& run)
{
    static const QRegularExpression rankPart(QStringLiteral("^rank[-_]?[0-9]+$"),
                                             QRegularExpression::CaseInsensitiveOption);
    QStringList kept;
    for (const QString& part : run.split(QLatin1Char('/'))) {
        if (part != QLatin1String(".") && !rankPart.match(part).hasMatch())
            kept << part;
    }
    return kept.isEmpty() ? QStringLiteral(".") : kept.join(QLatin1Char('/'));
}

void collectProblems(const models::Diagnostics& diagnostics, QStringList* problems)
{
    for (const models::Diagnostic& diagnostic : diagnostics) {
        if (diagnostic.severity != models::Severity::Info)
            problems->append(diagnostic.toString());
    }
}

} // namespace

QList<QList<int>> rankTraceGroups(const models::RunManifest& manifest)
{
    QMap<QString, QMap<int, int>> jobs; // job -> rank -> artifact
    for (int i = 0; i < manifest.artifacts.size(); ++i) {
        const models::Artifact& artifact = manifest.artifacts[i];
        if (artifact.kind != models::ArtifactKind::ChromeTrace || !artifact.rank)
            continue;
        QMap<int, int>& ranks = jobs[jobOf(artifact.run)];
        const auto known = ranks.constFind(*artifact.rank);
        if (known == ranks.cend() || artifact.modified > manifest.artifacts[*known].modified)
            ranks.insert(*artifact.rank, i);
    }
    QList<QList<int>> groups;
    for (const QMap<int, int>& ranks : std::as_const(jobs)) {
        if (ranks.size() < 2 || ranks.size() > kMaxRanks)
            continue;
        qint64 bytes = 0;
        for (int index : ranks)
            bytes += manifest.artifacts[index].size;
        if (bytes <= kMaxTraceBytes)
            groups.append(ranks.values());
    }
    return groups;
}

models::advisor::AdvisorInput loadAdvisorInput(const QString& path, QStringList* problems)
{
    models::advisor::AdvisorInput input;
    const models::RunManifest manifest = RunScanner().scan(path);
    input.root = manifest.root;
    const QList<QList<int>> rankGroups = rankTraceGroups(manifest);
    QSet<int> combined;
    for (const QList<int>& group : rankGroups) {
        for (int index : group)
            combined.insert(index);
    }

    ImportSession session(manifest);
    models::scalars::ScalarStore scalars;
    models::summary::SummaryStore summaries;
    models::tensor::SummaryTensorSet summaryTensors;
    QObject::connect(&session, &ImportSession::scalarsArrived, &scalars, &models::scalars::ScalarStore::append);
    QObject::connect(&session, &ImportSession::summariesArrived, &summaries, &models::summary::SummaryStore::update);
    QObject::connect(
        &session, &ImportSession::summariesArrived, &session,
        [&summaryTensors](const QString& run, const QString& source, const models::summary::SummaryBatch& batch) {
            summaryTensors.update(run, source, batch);
        });
    QObject::connect(&session, &ImportSession::graphArrived, &session,
                     [&](int index, std::shared_ptr<const models::graph::Graph> graph) {
                         const models::Artifact& artifact = manifest.artifacts[index];
                         input.graphs.push_back({ artifact.run, artifact.path, std::move(graph) });
                     });
    // The ranks of a job are kept only as the combined store read below; each trace read alone still
    // yields its memory curves.
    QObject::connect(&session, &ImportSession::traceArrived, &session,
                     [&](int index, std::shared_ptr<const models::trace::TraceStore> store) {
                         if (combined.contains(index))
                             return;
                         const models::Artifact& artifact = manifest.artifacts[index];
                         input.traces.push_back({ artifact.run, artifact.path, std::move(store) });
                     });
    QObject::connect(&session, &ImportSession::memoryArrived, &session,
                     [&](int index, std::shared_ptr<const models::memory::MemoryProfile> profile) {
                         const models::Artifact& artifact = manifest.artifacts[index];
                         input.memory.push_back({ artifact.run, artifact.path, std::move(profile) });
                     });
    QObject::connect(&session, &ImportSession::profilerArrived, &session,
                     [&](const QString& run, std::shared_ptr<const models::ProfilerBundle> bundle) {
                         // A later delivery for the same run holds everything read so far.
                         for (models::advisor::ProfilerInput& known : input.profilers) {
                             if (known.run == run) {
                                 known.bundle = std::move(bundle);
                                 return;
                             }
                         }
                         input.profilers.push_back({ run, std::move(bundle) });
                     });
    // Rank digests (`runlens digest`) of one job make its cluster, as a profiler's cluster files would.
    QMap<QString, std::vector<std::shared_ptr<const models::cluster::RankDigest>>> digestsByJob;
    QObject::connect(&session, &ImportSession::rankDigestArrived, &session,
                     [&](int index, std::shared_ptr<const models::cluster::RankDigest> digest) {
                         digestsByJob[jobOf(manifest.artifacts[index].run)].push_back(std::move(digest));
                     });
    session.importBlocking();
    for (auto it = digestsByJob.cbegin(); it != digestsByJob.cend(); ++it) {
        auto bundle = std::make_shared<models::ProfilerBundle>();
        bundle->cluster
            = std::make_shared<const models::cluster::Cluster>(models::cluster::clusterFromDigests(it.value()));
        input.profilers.push_back({ it.key(), std::move(bundle) });
    }

    for (const QList<int>& group : rankGroups) {
        QEventLoop loop;
        std::shared_ptr<const models::trace::TraceStore> store;
        const auto arrived
            = QObject::connect(&session, &ImportSession::tracesArrived, &loop,
                               [&store](const QList<int>&, std::shared_ptr<const models::trace::TraceStore> read) {
                                   store = std::move(read);
                               });
        const auto done = QObject::connect(&session, &ImportSession::finished, &loop, &QEventLoop::quit);
        session.importTraces(group);
        loop.exec();
        QObject::disconnect(arrived);
        QObject::disconnect(done);
        if (store) {
            const models::Artifact& first = manifest.artifacts[group.first()];
            input.traces.push_back({ jobOf(first.run), first.path, std::move(store) });
        }
    }

    input.scalars = models::advisor::scalarTracks(scalars);
    input.histograms = models::advisor::histogramTracks(summaries);
    models::tensor::TensorCatalog catalog = tensor::TensorCatalogBuilder::build(manifest);
    if (!summaryTensors.isEmpty())
        catalog = catalog.withSeries(summaryTensors.series());
    input.tensors = std::make_shared<const models::tensor::TensorCatalog>(std::move(catalog));

    if (problems) {
        collectProblems(manifest.diagnostics, problems);
        for (const models::ArtifactState& state : session.states())
            collectProblems(state.diagnostics, problems);
        collectProblems(input.tensors->diagnostics(), problems);
        problems->removeDuplicates();
    }
    return input;
}

} // namespace runlens::importers
