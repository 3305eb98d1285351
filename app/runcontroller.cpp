#include "runcontroller.h"

#include "core/importsession.h"
#include "core/runbrowsermodel.h"
#include "core/runscanner.h"
#include "core/workerpool.h"
#include "graph/dumpindex.h"
#include "scalars/scalarstore.h"
#include "summary/summarystore.h"
#include "summarylimitsdialog.h"
#include "tensor/tensorcatalog.h"
#include "tensor/tensorcatalogbuilder.h"

#include <QFileInfo>
#include <QTimer>
#include <QtConcurrent>

namespace runlens {

RunController::RunController(QObject* parent)
    : QObject(parent)
    , m_scalars(new ScalarStore(this))
    , m_summaries(new summary::SummaryStore(this))
    , m_runModel(new RunBrowserModel(this))
{
    connect(&m_scanWatcher, &QFutureWatcher<RunManifest>::finished, this, &RunController::scanFinished);

    // Files a running job creates later (a new event file after a restart, a new run) are picked up
    // by scanning again now and then, less often for folders that take long to scan.
    m_rescanTimer = new QTimer(this);
    m_rescanTimer->setSingleShot(true);
    connect(m_rescanTimer, &QTimer::timeout, this, &RunController::rescan);
    connect(&m_rescanWatcher, &QFutureWatcher<RunManifest>::finished, this, &RunController::rescanFinished);
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
    workerPool()->start([released = std::exchange(m_released, {})]() mutable { released.clear(); });
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

ImportedContent RunController::importedContent() const
{
    ImportedContent c;
    c.scalarTags = int(m_scalars->tags().size());
    c.histogramTags = int(m_summaries->allTags(summary::SummaryKind::Histograms).size());
    c.imageTags = int(m_summaries->allTags(summary::SummaryKind::Images).size());
    c.textTags = int(m_summaries->allTags(summary::SummaryKind::Texts).size());
    c.prCurveTags = int(m_summaries->allTags(summary::SummaryKind::PrCurves).size());
    c.graphs = m_graphs;
    c.tensors = (m_catalog ? int(m_catalog->series().size()) : 0)
        + int(m_summaries->allTags(summary::SummaryKind::Tensors).size());
    if (m_session) {
        for (const Artifact& artifact : m_session->manifest().artifacts)
            c.traces += artifact.kind == ArtifactKind::ChromeTrace ? 1 : 0;
    }
    return c;
}

void RunController::startScan(QFutureWatcher<RunManifest>& watcher)
{
    auto cancel = m_scanCancel;
    const QString target = m_path;
    m_scanClock.start();
    watcher.setFuture(QtConcurrent::run(workerPool(), [target, cancel]() {
        ImportControl control;
        control.cancel = cancel.get();
        return RunScanner().scan(target, control);
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
    const RunManifest manifest = m_rescanWatcher.result();
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

void RunController::startImport(const RunManifest& manifest)
{
    m_runModel->setManifest(manifest);
    const summary::SummaryLimits limits = SummaryLimitsDialog::load();
    m_scalars->setPointLimit(limits.scalars);
    m_scalars->setRoot(manifest.root);
    m_summaries->setRoot(manifest.root);
    m_session = new ImportSession(manifest, limits, this);
    for (int i = 0; i < m_session->artifactCount(); ++i)
        m_runModel->setArtifactState(i, m_session->state(i));
    connect(m_session, &ImportSession::scalarsArrived, m_scalars, &ScalarStore::append);
    connect(m_session, &ImportSession::summariesArrived, m_summaries, &summary::SummaryStore::update);
    connect(m_session, &ImportSession::lineageArrived, m_summaries, &summary::SummaryStore::setLineage);
    connect(m_session, &ImportSession::artifactChanged, this,
            [this](int index) { m_runModel->setArtifactState(index, m_session->state(index)); });
    connect(m_session, &ImportSession::graphArrived, this,
            [this](int, const std::shared_ptr<const graph::Graph>& graph) { m_graphs += graph ? 1 : 0; });
    connect(m_session, &ImportSession::artifactsAdded, this, [this] {
        m_runModel->setManifest(m_session->manifest());
        for (int i = 0; i < m_session->artifactCount(); ++i)
            m_runModel->setArtifactState(i, m_session->state(i));
    });
    emit sessionCreated(m_session);
    // Launched after sessionCreated(), whose receivers drop the previous catalog: then() delivers at once when
    // the build is already over. One reading of each tensor file's header gives the catalog and the dump index;
    // values are mapped when a tensor is viewed.
    QtConcurrent::run(workerPool(), [manifest] {
        return std::make_shared<tensor::TensorCatalogBuilder::WithDumps>(
            tensor::TensorCatalogBuilder::buildWithDumps(manifest));
    }).then(this, [this, generation = m_generation](std::shared_ptr<tensor::TensorCatalogBuilder::WithDumps> built) {
        if (generation != m_generation || !m_session)
            return;
        m_catalog = std::make_shared<const tensor::TensorCatalog>(std::move(built->catalog));
        m_dumps = std::make_shared<const graph::DumpIndex>(std::move(built->dumps));
        emit catalogReady(m_catalog, m_dumps);
    });
    // Connected after sessionCreated(): what its receivers do when the session finishes comes first.
    connect(m_session, &ImportSession::finished, this, &RunController::importFinished);
    m_rescanTimer->start(std::max<qint64>(5000, 20 * m_lastScanMs));
    if (manifest.artifacts.isEmpty()) {
        emit nothingToImport(manifest);
        return;
    }
    // Profiler traces can be gigabytes: they are read when opened. Tensor files are mapped by the Tensor
    // inspector when viewed.
    m_session->setDeferredKinds({ ArtifactKind::ChromeTrace, ArtifactKind::TensorNpy, ArtifactKind::TensorNpz,
                                  ArtifactKind::TensorSafetensors, ArtifactKind::TensorPt });
    m_session->setLiveTail(true, 1000);
    m_session->start();
    emit importStarted(manifest);
}

} // namespace runlens
