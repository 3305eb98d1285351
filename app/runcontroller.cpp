#include "app/runcontroller.h"

#include "app/summarylimitsdialog.h"
#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/tensor/tensorcatalogbuilder.h"
#include "models/advisor/evidence.h"
#include "models/core/profilerbundle.h"
#include "models/core/runbrowsermodel.h"
#include "models/core/workerpool.h"
#include "models/graph/dumpindex.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"
#include "models/tensor/tensorcatalog.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QTimer>
#include <QtConcurrent>

namespace runlens::app {

RunController::RunController(QObject* parent)
    : QObject(parent)
    , m_scalars(new models::scalars::ScalarStore(this))
    , m_summaries(new models::summary::SummaryStore(this))
    , m_runModel(new models::RunBrowserModel(this))
{
    connect(&m_scanWatcher, &QFutureWatcher<models::RunManifest>::finished, this, &RunController::scanFinished);

    // Files a running job creates later (a new event file after a restart, a new run) are picked up
    // by scanning again now and then, less often for folders that take long to scan.
    m_rescanTimer = new QTimer(this);
    m_rescanTimer->setSingleShot(true);
    connect(m_rescanTimer, &QTimer::timeout, this, &RunController::rescan);
    connect(&m_rescanWatcher, &QFutureWatcher<models::RunManifest>::finished, this, &RunController::rescanFinished);
}

RunController::~RunController()
{
    dropSession();
}

void RunController::dropSession()
{
    if (m_scanCancel)
        m_scanCancel->store(true);
    m_scanWatcher.waitForFinished();
    m_rescanWatcher.waitForFinished();
    delete m_session;
}

bool RunController::isBusy() const
{
    return m_scanning || (m_session && m_session->isBusy());
}

void RunController::open(const QString& path)
{
    clear();
    m_path = path;
    m_scanning = true;
    m_scanCancel = std::make_shared<std::atomic_bool>(false);
    m_rescanTimer->stop();
    startScan(m_scanWatcher);
}

void RunController::clear()
{
    cancel();
    ++m_generation;
    delete m_session;
    emit runCleared();
    m_scalars->clear();
    m_summaries->clear();
    m_runModel->clear();
    m_released.push_back(std::exchange(m_catalog, nullptr));
    m_released.push_back(std::exchange(m_dumps, nullptr));
    m_graphs = 0;
    m_profilers.clear();
    m_shownProfilerRun.clear();
    m_traceShown = false;
    models::workerPool()->start([released = std::exchange(m_released, {})]() mutable { released.clear(); });
}

void RunController::close()
{
    clear();
    m_rescanTimer->stop();
    m_path.clear();
    m_scanning = false;
}

void RunController::cancel()
{
    if (m_scanCancel)
        m_scanCancel->store(true);
    if (m_session)
        m_session->cancel();
}

void RunController::releaseOnWorker(std::vector<std::shared_ptr<const void>> objects)
{
    m_released.insert(m_released.end(), std::make_move_iterator(objects.begin()),
                      std::make_move_iterator(objects.end()));
}

models::ImportedContent RunController::importedContent() const
{
    models::ImportedContent c;
    c.scalarTags = int(m_scalars->tags().size());
    c.histogramTags = int(m_summaries->allTags(models::summary::SummaryKind::Histograms).size());
    c.imageTags = int(m_summaries->allTags(models::summary::SummaryKind::Images).size());
    c.audioTags = int(m_summaries->allTags(models::summary::SummaryKind::Audio).size());
    c.textTags = int(m_summaries->allTags(models::summary::SummaryKind::Texts).size());
    // ROC-only tags are shown by the PR curves panel too.
    c.prCurveTags = int(m_summaries->allTags(models::summary::SummaryKind::PrCurves).size())
        + int(m_summaries->allTags(models::summary::SummaryKind::RocCurves).size());
    c.graphs = m_graphs;
    c.tensors = (m_catalog ? int(m_catalog->series().size()) : 0)
        + int(m_summaries->allTags(models::summary::SummaryKind::Tensors).size());
    if (m_session) {
        for (const models::Artifact& artifact : m_session->manifest().artifacts)
            c.traces += artifact.kind == models::ArtifactKind::ChromeTrace ? 1 : 0;
    }
    return c;
}

QString RunController::runWithoutRankFolders(const QString& run)
{
    static const QRegularExpression rankFolder(QStringLiteral("^rank[_-]?\\d+$"),
                                               QRegularExpression::CaseInsensitiveOption);
    QStringList parts = run.split(QLatin1Char('/'));
    parts.removeIf([](const QString& part) { return part == QLatin1String(".") || rankFolder.match(part).hasMatch(); });
    return parts.join(QLatin1Char('/'));
}

QString RunController::jobDisplayName(int artifactIndex) const
{
    if (!m_session || artifactIndex < 0 || artifactIndex >= m_session->manifest().artifacts.size())
        return {};
    const models::RunManifest& manifest = m_session->manifest();
    const QString job = runWithoutRankFolders(manifest.artifacts[artifactIndex].run);
    return manifest.runDisplayName(job.isEmpty() ? QStringLiteral(".") : job);
}

EvidenceRoute RunController::routeEvidence(const QString& locator) const
{
    EvidenceRoute route;
    const std::optional<models::advisor::Evidence> evidence = models::advisor::parseEvidence(locator);
    if (!evidence) {
        route.message = tr("Cannot show this evidence: %1").arg(locator);
        return route;
    }
    const QString& kind = evidence->kind;
    const QString step = evidence->value(QStringLiteral("step"));
    if (kind == QLatin1String("scalar") || kind == QLatin1String("histogram")) {
        const bool scalar = kind == QLatin1String("scalar");
        route.target = scalar ? EvidenceRoute::Target::Scalars : EvidenceRoute::Target::Distributions;
        route.tag = evidence->value(QStringLiteral("tag"));
        route.tagFilter = QStringLiteral("^%1$").arg(QRegularExpression::escape(route.tag));
        bool stepOk = false;
        const qint64 marked = step.toLongLong(&stepOk);
        if (scalar && stepOk)
            route.step = marked;
        route.message
            = step.isEmpty() ? tr("Showing %1").arg(route.tag) : tr("Showing %1 at step %2").arg(route.tag, step);
    } else if (kind == QLatin1String("tensor")) {
        const QString name = evidence->value(QStringLiteral("name"));
        const int series = m_catalog ? m_catalog->indexOf(name, evidence->value(QStringLiteral("run"))) : -1;
        const int wanted = step.isEmpty() ? -1 : step.toInt();
        const models::tensor::TensorInfo* info = nullptr;
        if (series >= 0) {
            const models::tensor::TensorSeries& s = m_catalog->series()[series];
            info = wanted >= 0 ? s.atStep(wanted) : nullptr;
            if (!info && !s.versions.isEmpty())
                info = &s.versions.front();
        }
        const QString missing = tr("The tensor %1 is not in the Tensors panel.").arg(name);
        if (info) {
            route.target = EvidenceRoute::Target::Tensors;
            route.tensorLocation = info->location();
            route.failureMessage = missing;
        } else {
            route.message = missing;
        }
    } else if (kind == QLatin1String("graph")) {
        route.node = evidence->value(QStringLiteral("node"));
        route.target = route.node.isEmpty() ? EvidenceRoute::Target::None : EvidenceRoute::Target::Graph;
    } else if (kind == QLatin1String("trace")) {
        if (!m_traceShown) {
            route.message = tr("Open the trace in the Run Browser to see this evidence.");
            return route;
        }
        route.target = EvidenceRoute::Target::Timeline;
        bool okStart = false;
        bool okEnd = false;
        const qint64 start = evidence->value(QStringLiteral("start_ns")).toLongLong(&okStart);
        const qint64 end = evidence->value(QStringLiteral("end_ns")).toLongLong(&okEnd);
        if (okStart && okEnd && end > start) {
            // A tenth of the range on each side, so the calls are seen next to what surrounds them.
            const qint64 margin = std::max<qint64>((end - start) / 10, 1000);
            route.hasTimeRange = true;
            route.visibleStart = start - margin;
            route.visibleEnd = end + margin;
            route.selectionStart = start;
            route.selectionEnd = end;
        }
        route.op = evidence->value(QStringLiteral("op"));
    } else if (kind == QLatin1String("memory")) {
        route.target = EvidenceRoute::Target::Memory;
        route.device = evidence->value(QStringLiteral("device"));
    } else if (kind == QLatin1String("profiler")) {
        const QString run = evidence->value(QStringLiteral("run"));
        if (!run.isEmpty() && m_profilers.contains(run))
            route.profilerRun = run;
        const std::shared_ptr<const models::ProfilerBundle> bundle
            = m_profilers.value(route.profilerRun.isEmpty() ? m_shownProfilerRun : route.profilerRun);
        bool ok = false;
        const int rank = evidence->value(QStringLiteral("rank")).toInt(&ok);
        if (ok && bundle && bundle->ranks) {
            const auto& ranks = bundle->ranks->ranks;
            for (std::size_t i = 0; i < ranks.size(); ++i) {
                if (ranks[i].rank == rank)
                    route.rankIndex = int(i);
            }
            route.pipelineRank = rank;
        }
        route.target = evidence->value(QStringLiteral("view")) == QLatin1String("pipeline")
            ? EvidenceRoute::Target::Pipeline
            : EvidenceRoute::Target::Overview;
    } else if (kind == QLatin1String("cluster")) {
        route.target = EvidenceRoute::Target::Cluster;
        const QString rank = evidence->value(QStringLiteral("rank"));
        const QString link = evidence->value(QStringLiteral("link"));
        if (!link.isEmpty())
            route.message = tr("Link %1").arg(link);
        else if (!rank.isEmpty())
            route.message = tr("Rank %1: double-click its row to open its timeline").arg(rank);
    } else if (kind == QLatin1String("compare")) {
        // The comparison is the Accuracy panel's, not the open run's: the window finds the row there.
        route.compareRow = evidence->value(QStringLiteral("name"));
        if (route.compareRow.isEmpty())
            route.message = tr("Cannot show this evidence: %1").arg(locator);
        else
            route.target = EvidenceRoute::Target::Accuracy;
    } else if (kind == QLatin1String("system")) {
        route.target = EvidenceRoute::Target::System;
        route.systemRun = evidence->value(QStringLiteral("run"));
        bool okStart = false;
        bool okEnd = false;
        const double start = evidence->value(QStringLiteral("start")).toDouble(&okStart);
        const double end = evidence->value(QStringLiteral("end")).toDouble(&okEnd);
        if (okStart && okEnd && end >= start) {
            route.wallStart = start;
            route.wallEnd = end;
        }
        const QString rank = evidence->value(QStringLiteral("rank"));
        route.message = rank.isEmpty() ? tr("System metrics of %1").arg(route.systemRun)
                                       : tr("System metrics of rank %1").arg(rank);
    } else {
        route.message = tr("Cannot show this evidence: %1").arg(locator);
    }
    return route;
}

void RunController::startScan(QFutureWatcher<models::RunManifest>& watcher)
{
    auto cancel = m_scanCancel;
    const QString target = m_path;
    m_scanClock.start();
    watcher.setFuture(QtConcurrent::run(models::workerPool(), [target, cancel]() {
        importers::ImportControl control;
        control.cancel = cancel.get();
        return importers::RunScanner().scan(target, control);
    }));
}

void RunController::rescan()
{
    if (m_session && !m_rescanWatcher.isRunning() && QFileInfo(m_path).isDir())
        startScan(m_rescanWatcher);
}

void RunController::rescanFinished()
{
    m_lastScanMs = m_scanClock.elapsed();
    const models::RunManifest manifest = m_rescanWatcher.result();
    if (m_session && manifest.root == m_session->manifest().root && !manifest.truncated)
        m_session->addArtifacts(manifest);
    if (m_session)
        m_rescanTimer->start(std::max<qint64>(5000, 20 * m_lastScanMs));
}

void RunController::scanFinished()
{
    m_scanning = false;
    m_lastScanMs = m_scanClock.elapsed();
    if (m_path.isEmpty())
        return; // closed while scanning
    startImport(m_scanWatcher.result());
}

void RunController::startImport(const models::RunManifest& manifest)
{
    m_runModel->setManifest(manifest);
    const models::summary::SummaryLimits limits = SummaryLimitsDialog::load();
    m_scalars->setPointLimit(limits.scalars);
    m_scalars->setRoot(manifest.root);
    m_summaries->setRoot(manifest.root);
    m_session = new importers::ImportSession(manifest, limits, this);
    for (int i = 0; i < m_session->artifactCount(); ++i)
        m_runModel->setArtifactState(i, m_session->state(i));
    connect(m_session, &importers::ImportSession::scalarsArrived, m_scalars, &models::scalars::ScalarStore::append);
    connect(m_session, &importers::ImportSession::summariesArrived, m_summaries,
            &models::summary::SummaryStore::update);
    connect(m_session, &importers::ImportSession::lineageArrived, m_summaries,
            &models::summary::SummaryStore::setLineage);
    connect(m_session, &importers::ImportSession::artifactChanged, this,
            [this](int index) { m_runModel->setArtifactState(index, m_session->state(index)); });
    // Before sessionCreated(): the window's receivers find the bundle here.
    connect(m_session, &importers::ImportSession::profilerArrived, this,
            [this](const QString& run, const std::shared_ptr<const models::ProfilerBundle>& bundle) {
                m_profilers.insert(run, bundle);
            });
    connect(m_session, &importers::ImportSession::graphArrived, this,
            [this](int, const std::shared_ptr<const models::graph::Graph>& graph) { m_graphs += graph ? 1 : 0; });
    connect(m_session, &importers::ImportSession::artifactsAdded, this, [this] {
        m_runModel->setManifest(m_session->manifest());
        for (int i = 0; i < m_session->artifactCount(); ++i)
            m_runModel->setArtifactState(i, m_session->state(i));
    });
    emit sessionCreated(m_session);
    // Launched after sessionCreated(), whose receivers drop the previous catalog: then() delivers at once when
    // the build is already over. One reading of each tensor file's header gives the catalog and the dump index;
    // values are mapped when a tensor is viewed.
    QtConcurrent::run(models::workerPool(),
                      [manifest] {
                          return std::make_shared<importers::tensor::TensorCatalogBuilder::WithDumps>(
                              importers::tensor::TensorCatalogBuilder::buildWithDumps(manifest));
                      })
        .then(this,
              [this,
               generation = m_generation](std::shared_ptr<importers::tensor::TensorCatalogBuilder::WithDumps> built) {
                  if (generation != m_generation || !m_session)
                      return;
                  m_catalog = std::make_shared<const models::tensor::TensorCatalog>(std::move(built->catalog));
                  m_dumps = std::make_shared<const models::graph::DumpIndex>(std::move(built->dumps));
                  emit catalogReady(m_catalog, m_dumps);
              });
    // Connected after sessionCreated(): what its receivers do when the session finishes comes first.
    connect(m_session, &importers::ImportSession::finished, this, &RunController::importFinished);
    m_rescanTimer->start(std::max<qint64>(5000, 20 * m_lastScanMs));
    if (manifest.artifacts.isEmpty()) {
        emit nothingToImport(manifest);
        return;
    }
    // Profiler traces can be gigabytes: they are read when opened. Tensor files are mapped by the Tensor
    // inspector when viewed.
    m_session->setDeferredKinds({ models::ArtifactKind::ChromeTrace, models::ArtifactKind::TensorNpy,
                                  models::ArtifactKind::TensorNpz, models::ArtifactKind::TensorSafetensors,
                                  models::ArtifactKind::TensorPt });
    m_session->setLiveTail(true, 1000);
    m_session->start();
    emit importStarted(manifest);
}

} // namespace runlens::app
