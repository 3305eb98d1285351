#include "app/mainwindow.h"
#include "app/runcontroller.h"

#include "importers/core/importsession.h"
#include "importers/graph/graphweights.h"
#include "models/graph/dumpindex.h"
#include "models/graph/scopetree.h"
#include "models/tensor/tensorcatalog.h"
#include "widgets/common/chartexporter.h"
#include "widgets/common/sourceview.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/graph/nodedetailswidget.h"
#include "widgets/operators/operatorspanel.h"
#include "widgets/runbrowser/runbrowserwidget.h"
#include "widgets/scalars/scalarchart.h"
#include "widgets/scalars/scalarspanel.h"
#include "widgets/steps/stepspanel.h"
#include "widgets/tensor/tensorpanel.h"
#include "widgets/timeline/timelinepanel.h"
#include "widgets/timeline/timelinesearchbar.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/welcome/welcomepage.h"

#include "models/core/timerange.h"

#include "app/appsettings.h"
#include "app/notespanel.h"
#include "app/session.h"
#include "app/summarylimitsdialog.h"
#include "models/core/runbrowsermodel.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"
#include "widgets/distributions/distributionspanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>

namespace runlens::app {

namespace {
constexpr int kMaxRecent = 10;
const char* const kRecentKey = "recentPaths";
const char* const kCombineRanksKey = "timeline/combineRanks";

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_run(new RunController(this))
    , m_scalars(m_run->scalars())
    , m_summaries(m_run->summaries())
    , m_runModel(m_run->runModel())
{
    setWindowTitle(tr("RunLens"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/runlens.svg")));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks | QMainWindow::AllowTabbedDocks);

    createDocks();
    createAccuracyDock();
    createProjectorDock();
    createNotesDock();
    createPanelChoice();
    createActions();
    createSessionActions();
    createStatusBar();
    restoreSettings();
    applyPanelDefaults(AppSettings::load());
    finishWindow();

    connect(m_run, &RunController::runCleared, this, &MainWindow::clearRun);
    connect(m_run, &RunController::sessionCreated, this, &MainWindow::connectSession);
    connect(m_run, &RunController::importStarted, this, [this](const models::RunManifest& manifest) {
        // Profiler traces are read when opened: the first one right away.
        for (int i = 0; i < manifest.artifacts.size(); ++i) {
            if (manifest.artifacts[i].kind == models::ArtifactKind::ChromeTrace) {
                openTrace(i);
                break;
            }
        }
    });
    connect(m_run, &RunController::nothingToImport, this, [this](const models::RunManifest& manifest) {
        setBusy(false);
        m_statusText->setText(tr("No training artifacts found in %1.").arg(QDir::toNativeSeparators(manifest.root)));
        notifyIdle();
    });
    connect(m_run, &RunController::importFinished, this, &MainWindow::importFinished);
    connect(m_run, &RunController::catalogReady, this,
            [this](std::shared_ptr<const models::tensor::TensorCatalog> catalog,
                   std::shared_ptr<const models::graph::DumpIndex> dumps) {
                m_tensorPanel->setCatalog(std::move(catalog));
                schedulePanelChoice();
                // A damaged dump file is left out of the list; say which (the rest are listed).
                if (!dumps->diagnostics().isEmpty()) {
                    statusBar()->showMessage(
                        dumps->diagnostics().size() == 1
                            ? dumps->diagnostics().first().toString()
                            : tr("%1 (and %n more dump file(s) skipped)", nullptr, int(dumps->diagnostics().size() - 1))
                                  .arg(dumps->diagnostics().first().toString()),
                        10000);
                }
                m_nodeDetails->setDumps(std::move(dumps));
            });
}

importers::ImportSession* MainWindow::importSession() const
{
    return m_run->session();
}

MainWindow::~MainWindow()
{
    // The docks outlive this class's members while QWidget deletes them: nothing of theirs may reach here.
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        dock->removeEventFilter(this);
        disconnect(dock, nullptr, this, nullptr);
    }
    disconnect(m_run, nullptr, this, nullptr);
    m_run->dropSession();
    m_traceMemoryWatcher.waitForFinished();
    m_breakdownWatcher.waitForFinished();
    // Panels go before the models they show, and before this window stops being a MainWindow.
    delete m_scalarsDock;
    delete m_timelineDock;
    delete m_operatorsDock;
    delete m_stepsDock;
    delete m_graphDock;
    delete m_nodeDetailsDock;
    delete m_tensorDock;
    delete m_distributionsDock;
    delete m_imagesDock;
    delete m_textDock;
    delete m_prCurvesDock;
    delete m_compareDock;
    delete m_memoryDock;
    delete m_overviewDock;
    delete m_pipelineDock;
    delete m_clusterDock;
    delete m_systemDock;
    delete m_sourceDock;
    delete m_notesDock;
    delete m_runDock;
}

void MainWindow::createDocks()
{
    // The Scalars panel is the central view; the other panels are docks around it.
    m_scalarsPanel = new widgets::scalars::ScalarsPanel(m_scalars, this);
    m_scalarsPanel->setObjectName(QStringLiteral("ScalarsPanel"));
    m_scalarsDock = new QDockWidget(tr("Scalars"), this);
    m_scalarsDock->setObjectName(QStringLiteral("ScalarsDock"));
    m_scalarsDock->setWidget(m_scalarsPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_scalarsDock);

    // Trace panels share one time range: the timeline, the operators and the steps follow each other.
    m_timeRange = new models::TimeRangeModel(this);
    m_timelinePanel = new widgets::timeline::TimelinePanel(m_timeRange, this);
    m_timelineDock = new QDockWidget(tr("Timeline"), this);
    m_timelineDock->setObjectName(QStringLiteral("TimelineDock"));
    m_timelineDock->setWidget(m_timelinePanel);
    addDockWidget(Qt::RightDockWidgetArea, m_timelineDock);
    tabifyDockWidget(m_scalarsDock, m_timelineDock);

    m_operatorsPanel = new widgets::operators::OperatorsPanel(this);
    m_operatorsDock = new QDockWidget(tr("Operators"), this);
    m_operatorsDock->setObjectName(QStringLiteral("OperatorsDock"));
    m_operatorsDock->setWidget(m_operatorsPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_operatorsDock);
    tabifyDockWidget(m_timelineDock, m_operatorsDock);

    m_stepsPanel = new widgets::steps::StepsPanel(this);
    m_stepsDock = new QDockWidget(tr("Steps"), this);
    m_stepsDock->setObjectName(QStringLiteral("StepsDock"));
    m_stepsDock->setWidget(m_stepsPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_stepsDock);
    tabifyDockWidget(m_operatorsDock, m_stepsDock);

    m_graphPanel = new widgets::graph::GraphPanel(this);
    m_graphDock = new QDockWidget(tr("Graph"), this);
    m_graphDock->setObjectName(QStringLiteral("GraphDock"));
    m_graphDock->setWidget(m_graphPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_graphDock);
    tabifyDockWidget(m_stepsDock, m_graphDock);

    m_tensorPanel = new widgets::tensor::TensorPanel(this);
    m_tensorDock = new QDockWidget(tr("Tensors"), this);
    m_tensorDock->setObjectName(QStringLiteral("TensorDock"));
    m_tensorDock->setWidget(m_tensorPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_tensorDock);
    tabifyDockWidget(m_graphDock, m_tensorDock);
    createSummaryDocks();
    createProfilerDocks();
    connect(m_summaries, &models::summary::SummaryStore::cleared, m_tensorPanel,
            &widgets::tensor::TensorPanel::clearSummaryTensors);
    connect(m_run, &RunController::runCleared, m_tensorPanel, &widgets::tensor::TensorPanel::clearGraphWeights);
    m_scalarsDock->raise();

    connect(m_stepsPanel, &widgets::steps::StepsPanel::stepActivated, this, [this](int, qint64 start, qint64 end) {
        m_timeRange->setVisibleRange(start, end, true);
        raiseDock(m_timelineDock);
    });
    connect(m_operatorsPanel, &widgets::operators::OperatorsPanel::operatorActivated, this,
            [this](const QString& name) {
                // Every occurrence becomes a search result the user can step through with next/previous.
                m_timelinePanel->searchBar()->setPattern(QLatin1Char('^') + QRegularExpression::escape(name)
                                                         + QLatin1Char('$'));
                raiseDock(m_timelineDock);
            });
    connect(m_operatorsPanel, &widgets::operators::OperatorsPanel::operatorSelected, m_timelinePanel,
            &widgets::timeline::TimelinePanel::highlightOperator);
    connect(m_operatorsPanel, &widgets::operators::OperatorsPanel::longestOccurrenceRequested, this,
            [this](int track, quint32 slice) {
                m_timelinePanel->view()->zoomToSlice(track, slice);
                m_timelinePanel->view()->selectSlice(track, slice, true);
                raiseDock(m_timelineDock);
            });

    m_runBrowser = new widgets::runbrowser::RunBrowserWidget(m_runModel, this);
    m_runDock = new QDockWidget(tr("Run Browser"), this);
    m_runDock->setObjectName(QStringLiteral("RunBrowserDock"));
    m_runDock->setWidget(m_runBrowser);
    addDockWidget(Qt::LeftDockWidgetArea, m_runDock);
    resizeDocks({ m_runDock, m_scalarsDock }, { 460, 980 }, Qt::Horizontal);

    // Node details sit under the run browser, so they stay visible next to whichever panel is in front.
    m_nodeDetails = new widgets::graph::NodeDetailsWidget(this);
    m_nodeDetailsDock = new QDockWidget(tr("Node Details"), this);
    m_nodeDetailsDock->setObjectName(QStringLiteral("NodeDetailsDock"));
    m_nodeDetailsDock->setWidget(m_nodeDetails);
    splitDockWidget(m_runDock, m_nodeDetailsDock, Qt::Vertical);
    connect(m_graphPanel, &widgets::graph::GraphPanel::treeChanged, m_nodeDetails,
            &widgets::graph::NodeDetailsWidget::setTree);
    connect(m_graphPanel, &widgets::graph::GraphPanel::currentItemChanged, m_nodeDetails,
            &widgets::graph::NodeDetailsWidget::showItem);
    connect(m_nodeDetails, &widgets::graph::NodeDetailsWidget::itemActivated, m_graphPanel,
            &widgets::graph::GraphPanel::revealItem);

    // Where a node came from: the training script at the line the IR or the exporter recorded.
    m_sourceView = new widgets::SourceView(this);
    m_sourceDock = new QDockWidget(tr("Source"), this);
    m_sourceDock->setObjectName(QStringLiteral("SourceDock"));
    m_sourceDock->setWidget(m_sourceView);
    addDockWidget(Qt::RightDockWidgetArea, m_sourceDock);
    tabifyDockWidget(m_stepsDock, m_sourceDock);
    m_sourceDock->hide();
    connect(m_nodeDetails, &widgets::graph::NodeDetailsWidget::sourceRequested, this, &MainWindow::showSource);
    connect(m_nodeDetails, &widgets::graph::NodeDetailsWidget::tensorRequested, this, [this](const QString& path) {
        if (m_tensorPanel->showLocation(path))
            raiseDock(m_tensorDock);
        else
            statusBar()->showMessage(
                tr("%1 is not among the tensors read from this folder.").arg(QDir::toNativeSeparators(path)), 8000);
    });
    connect(m_tensorPanel, &widgets::tensor::TensorPanel::nodeRequested, this, &MainWindow::showNodeInGraph);
    connect(m_graphPanel, &widgets::graph::GraphPanel::treeChanged, m_tensorPanel,
            [this](const std::shared_ptr<const models::graph::ScopeTree>& tree) {
                m_tensorPanel->setNodeLinksEnabled(bool(tree));
            });
    connect(m_tensorPanel, &widgets::tensor::TensorPanel::statusMessage, this,
            [this](const QString& message) { statusBar()->showMessage(message, 8000); });
    m_tensorPanel->setFileNameProvider([this](const QString& suggested, const QString& filter) {
        QSettings settings;
        const QString dir = settings.value(QStringLiteral("export/directory"), QDir::homePath()).toString();
        const QString fileName = QFileDialog::getSaveFileName(
            this, tr("Export Tensor"), QDir(dir).filePath(QFileInfo(suggested).fileName()), filter);
        if (!fileName.isEmpty())
            settings.setValue(QStringLiteral("export/directory"), QFileInfo(fileName).absolutePath());
        return fileName;
    });
    m_graphPanel->setFileNameProvider([this](const QString& suggested) {
        const auto format
            = widgets::ChartExporter::formatForFileName(suggested).value_or(widgets::ChartExporter::Format::Png);
        return askExportFileName(format, suggested);
    });

    m_scalarsPanel->setExportFileNameProvider([this](widgets::ChartExporter::Format format, const QString& suggested) {
        return askExportFileName(format, suggested);
    });
    m_operatorsPanel->setExportFileNameProvider(
        [this](widgets::ChartExporter::Format format, const QString& suggested) {
            return askExportFileName(format, suggested);
        });
    m_stepsPanel->setExportFileNameProvider([this](widgets::ChartExporter::Format format, const QString& suggested) {
        return askExportFileName(format, suggested);
    });
    connect(m_scalarsPanel, &widgets::scalars::ScalarsPanel::chartExported, this, [this](const QString& fileName) {
        statusBar()->showMessage(tr("Chart written to %1").arg(QDir::toNativeSeparators(fileName)), 8000);
    });
    connect(m_scalarsPanel, &widgets::scalars::ScalarsPanel::chartExportFailed, this,
            [this](const QString& message) { QMessageBox::warning(this, tr("Export Chart"), message); });
    connect(m_runBrowser, &widgets::runbrowser::RunBrowserWidget::artifactActivated, this,
            &MainWindow::activateArtifact);
    connect(m_runBrowser, &widgets::runbrowser::RunBrowserWidget::runActivated, this,
            [this](const QString&) { raiseDock(m_scalarsDock); });
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openFolder = file->addAction(QIcon::fromTheme(QStringLiteral("folder-open")), tr("&Open Run Folder…"),
                                          this, &MainWindow::chooseFolder);
    openFolder->setShortcut(QKeySequence::Open);
    openFolder->setStatusTip(tr("Open a training run folder: every artifact in it is found and read"));
    QAction* openFile = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("Open &File…"), this,
                                        &MainWindow::chooseFile);
    openFile->setStatusTip(tr("Open one file: an event file, a trace, a graph or a tensor"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->menuAction()->setStatusTip(tr("Open a folder or file opened before"));
    QAction* reloadAction
        = file->addAction(QIcon::fromTheme(QStringLiteral("view-refresh")), tr("&Reload"), this, &MainWindow::reload);
    reloadAction->setShortcut(QKeySequence::Refresh);
    reloadAction->setStatusTip(tr("Read the open folder again from the start"));
    QAction* closeAction = file->addAction(QIcon::fromTheme(QStringLiteral("document-close")), tr("&Close"), this,
                                           &MainWindow::closeRun);
    closeAction->setShortcut(QKeySequence::Close);
    closeAction->setStatusTip(tr("Close the open folder or file and show the welcome page"));
    file->addSeparator();
    QAction* compareAction = file->addAction(tr("&Compare Dumps…"), this, &MainWindow::chooseDumpsToCompare);
    compareAction->setStatusTip(tr("Compare two dumps op by op: a bench and a target folder or file"));
    QAction* exportAction = file->addAction(tr("&Export Chart…"), this, &MainWindow::exportChart);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportAction->setStatusTip(tr("Save a scalar chart as PNG, SVG, PDF or CSV"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setStatusTip(tr("Close RunLens; the layout and the open folders are remembered"));

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(m_runDock->toggleViewAction());
    m_viewMenu->addAction(m_scalarsDock->toggleViewAction());
    m_viewMenu->addAction(m_timelineDock->toggleViewAction());
    m_viewMenu->addAction(m_operatorsDock->toggleViewAction());
    m_viewMenu->addAction(m_stepsDock->toggleViewAction());
    m_viewMenu->addAction(m_graphDock->toggleViewAction());
    m_viewMenu->addAction(m_nodeDetailsDock->toggleViewAction());
    m_viewMenu->addAction(m_tensorDock->toggleViewAction());
    m_viewMenu->addAction(m_distributionsDock->toggleViewAction());
    m_viewMenu->addAction(m_imagesDock->toggleViewAction());
    m_viewMenu->addAction(m_textDock->toggleViewAction());
    m_viewMenu->addAction(m_prCurvesDock->toggleViewAction());
    m_viewMenu->addAction(m_compareDock->toggleViewAction());
    m_viewMenu->addAction(m_sourceDock->toggleViewAction());
    m_viewMenu->addSeparator();
    m_combineRanksAction = m_viewMenu->addAction(tr("Show All &Ranks of a Run in One Timeline"));
    m_combineRanksAction->setCheckable(true);
    m_combineRanksAction->setChecked(QSettings().value(QLatin1String(kCombineRanksKey), true).toBool());
    m_combineRanksAction->setToolTip(
        tr("Opening a rank's trace reads the traces of every rank of its run, aligned on absolute time"));
    connect(m_combineRanksAction, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(QLatin1String(kCombineRanksKey), on);
        if (m_run->session() && !m_currentTraces.isEmpty())
            openTrace(m_currentTraces.front());
    });

    QAction* limits = m_viewMenu->addAction(tr("Summary Sample &Limits…"), this, [this] {
        SummaryLimitsDialog dialog(this);
        if (dialog.exec() != QDialog::Accepted)
            return;
        SummaryLimitsDialog::save(dialog.limits());
        statusBar()->showMessage(tr("The new limits apply when the run folder is read again (File > Reload)."), 8000);
    });
    limits->setStatusTip(tr("How many points, histograms, images and texts of each tag are kept in memory"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About RunLens"), this, &MainWindow::about)->setStatusTip(tr("Version and what RunLens is"));
    rebuildRecentMenu();
}

void MainWindow::createStatusBar()
{
    m_statusText = new QLabel(tr("Open a run folder to begin (Ctrl+O), or drop one onto this window."), this);
    m_liveLabel = new QLabel(this);
    m_liveLabel->setToolTip(tr("Files that are still being written are read as they grow"));
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setTextVisible(false);
    m_cancelButton = new QToolButton(this);
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->setToolTip(tr("Stop importing; what was read so far is kept"));
    connect(m_cancelButton, &QToolButton::clicked, this, &MainWindow::cancelImport);
    statusBar()->addWidget(m_statusText, 1);
    statusBar()->addPermanentWidget(m_liveLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
    m_progress->hide();
    m_cancelButton->hide();
    createJobDigester();
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1440, 900);
    if (!restoreState(settings.value(QStringLiteral("window/state")).toByteArray()))
        resizeDocks({ m_runDock }, { 470 }, Qt::Horizontal);
    m_scalarsPanel->restoreState(settings.value(QStringLiteral("scalars/view")).toMap());
    m_distributionsPanel->restoreState(settings.value(QStringLiteral("distributions/view")).toMap());
}

void MainWindow::saveSettings()
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/layoutVersion"), layoutVersion());
    settings.setValue(QStringLiteral("scalars/view"), m_scalarsPanel->saveState());
    settings.setValue(QStringLiteral("distributions/view"), m_distributionsPanel->saveState());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveLastSession();
    saveSettings();
    cancelImport();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    openPath(urls.first().toLocalFile());
}

void MainWindow::chooseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Run Folder"), m_run->path());
    if (!dir.isEmpty())
        openPath(dir);
}

void MainWindow::chooseFile()
{
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Open File"), m_run->path(),
        tr("Training artifacts (*tfevents* *summary* *.json *.gz *.ir *.dot *.pb *.pbtxt *.onnx *.npy *.npz "
           "*.safetensors *.pt *.pth *.bin);;All files (*)"));
    if (!file.isEmpty())
        openPath(file);
}

void MainWindow::reload()
{
    if (!m_run->path().isEmpty())
        openPath(m_run->path());
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    if (m_welcome)
        m_welcome->setRecent(recentEntries());
    const QStringList recent = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(path, this, [this, path]() { openPath(path); });
    if (!recent.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), this, [this]() {
            QSettings().remove(QLatin1String(kRecentKey));
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::addRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QLatin1String(kRecentKey), recent);
    recordRecentTime(path);
    rebuildRecentMenu();
}

void MainWindow::openPath(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        QMessageBox::warning(this, tr("Cannot Open"), tr("%1 does not exist.").arg(QDir::toNativeSeparators(path)));
        return;
    }
    setWelcomeVisible(false);
    saveRunView();
    m_run->open(info.absoluteFilePath());
    addRecent(m_run->path());
    beginRunView();
    setWindowTitle(tr("%1 — RunLens").arg(info.fileName().isEmpty() ? m_run->path() : info.fileName()));
    setBusy(true, tr("Scanning %1…").arg(QDir::toNativeSeparators(m_run->path())));
}

void MainWindow::clearRun()
{
    // The panels let go of the large results below; the controller drops the last references on a worker.
    m_run->releaseOnWorker({ m_operatorsPanel->store(), m_traceMemory, m_graphPanel->tree() });
    m_panelTimer->stop();
    m_pickedDocks.clear();
    m_shownByUser.clear();
    m_currentTraces.clear();
    showTrace({}, nullptr);
    clearMemory();
    clearProfiler();
    clearAdvisor();
    m_graphPanel->clear();
}

void MainWindow::connectSession(importers::ImportSession* session)
{
    const models::RunManifest& manifest = session->manifest();
    for (const models::Diagnostic& d : manifest.diagnostics)
        statusBar()->showMessage(d.toString(), 8000);
    // The Tensor inspector lists every tensor of the folder and the Node Details dock a node's dumped tensors
    // once the catalog is in.
    m_tensorPanel->setRunFolder(manifest.root);
    m_tensorPanel->setCatalog(nullptr);
    // The inspector keeps which summary file each step came from, so it takes the batches themselves.
    connect(session, &importers::ImportSession::summariesArrived, m_tensorPanel,
            &widgets::tensor::TensorPanel::addSummaryTensors);
    connect(session, &importers::ImportSession::artifactChanged, this, [this, session](int index) {
        const models::ArtifactState& state = session->state(index);
        if (!state.diagnostics.isEmpty() && state.worstSeverity() != models::Severity::Info)
            m_statusText->setText(state.diagnostics.constLast().toString());
    });
    connect(session, &importers::ImportSession::progressChanged, this,
            [this, session](int permille, const QString& text) {
                m_progress->setValue(permille);
                const bool busy = session->isBusy();
                m_progress->setVisible(busy);
                m_cancelButton->setVisible(busy);
                if (isBusy())
                    m_statusText->setText(text);
            });
    // Before importFinished(): the Advisor's evaluation is then pending when the window reports idle.
    connectAdvisor(session);
    connect(session, &importers::ImportSession::traceArrived, this,
            [this](int index, std::shared_ptr<const models::trace::TraceStore> store) {
                // Stores are large: only the one the user opened is kept.
                if (m_currentTraces == QList<int> { index })
                    showTrace({ index }, std::move(store));
            });
    connect(session, &importers::ImportSession::tracesArrived, this,
            [this](const QList<int>& indices, std::shared_ptr<const models::trace::TraceStore> store) {
                if (indices == m_currentTraces)
                    showTrace(indices, std::move(store));
            });
    connect(session, &importers::ImportSession::traceSnapshot, this,
            [this](const QList<int>& indices, std::shared_ptr<const models::trace::TraceStore> partial, int permille) {
                // The first frame of a big trace comes from what is already read; the whole store follows.
                if (indices == m_currentTraces)
                    m_timelinePanel->showPartialStore(std::move(partial), permille);
            });
    connect(session, &importers::ImportSession::memoryArrived, this, &MainWindow::addMemory);
    connect(session, &importers::ImportSession::profilerArrived, this, &MainWindow::showProfiler);
    connect(session, &importers::ImportSession::rankDigestArrived, this, &MainWindow::addRankDigest);
    connect(session, &importers::ImportSession::graphArrived, this,
            [this](int, std::shared_ptr<const models::graph::Graph> graph) {
                // Weights whose values the reader located can be opened in the Tensors panel.
                if (graph)
                    m_tensorPanel->setGraphWeights(graph->path, importers::graph::graphWeightSeries(*graph));
                m_graphPanel->addGraph(std::move(graph));
                schedulePanelChoice();
            });
    connect(session, &importers::ImportSession::artifactsAdded, this, [this, session](int first, int count) {
        const models::Artifact& a = session->manifest().artifacts[first];
        m_statusText->setText(tr("New: %1").arg(QDir::toNativeSeparators(a.relativePath))
                              + (count > 1 ? tr(" and %n more file(s)", nullptr, count - 1) : QString()));
    });
}

void MainWindow::importFinished()
{
    setBusy(false);
    int problems = 0;
    int growing = 0;
    for (const models::ArtifactState& state : m_run->session()->states()) {
        problems
            += (state.status == models::ImportStatus::Partial || state.status == models::ImportStatus::Failed) ? 1 : 0;
        growing += state.growing ? 1 : 0;
    }
    const models::RunManifest& manifest = m_run->session()->manifest();
    QString text = tr("%n run(s), ", nullptr, int(manifest.runs().size()))
        + tr("%n scalar tag(s), ", nullptr, int(m_scalars->tags().size()))
        + tr("%n point(s)", nullptr, int(m_scalars->pointCount()));
    if (problems > 0)
        text += QStringLiteral(" — ") + tr("%n file(s) with problems (see the Run Browser)", nullptr, problems);
    m_statusText->setText(text);
    m_liveLabel->setText(growing > 0 ? tr("● live") : QString());
    finishRunView();
    schedulePanelChoice();
    notifyIdle();
}

void MainWindow::cancelImport()
{
    m_run->cancel();
}

void MainWindow::setBusy(bool busy, const QString& text)
{
    m_progress->setVisible(busy);
    m_cancelButton->setVisible(busy);
    if (busy) {
        m_progress->setValue(0);
        m_statusText->setText(text);
    }
}

bool MainWindow::isBusy() const
{
    return m_run->isBusy() || isAdvising();
}

void MainWindow::whenIdle(std::function<void()> callback)
{
    if (!isBusy() && (m_run->session() || m_run->path().isEmpty())) {
        callback();
        return;
    }
    m_idleCallbacks.push_back(std::move(callback));
}

void MainWindow::notifyIdle()
{
    if (isBusy())
        return; // called again when the last piece of work ends
    auto callbacks = std::move(m_idleCallbacks);
    m_idleCallbacks.clear();
    for (auto& callback : callbacks)
        callback();
}

void MainWindow::activateArtifact(int artifactIndex)
{
    if (!m_run->session() || artifactIndex < 0 || artifactIndex >= m_run->session()->artifactCount())
        return;
    const models::Artifact& artifact = m_run->session()->manifest().artifacts[artifactIndex];
    if (models::carriesScalars(artifact.kind)) {
        raiseDock(m_scalarsDock);
        return;
    }
    if (artifact.kind == models::ArtifactKind::ChromeTrace) {
        if (!m_currentTraces.contains(artifactIndex)
            || m_run->session()->state(artifactIndex).status == models::ImportStatus::Deferred)
            openTrace(artifactIndex);
        raiseDock(m_timelineDock);
        return;
    }
    if (m_graphPanel->selectGraph(artifact.path)) {
        raiseDock(m_graphDock);
        return;
    }
    if (artifact.kind == models::ArtifactKind::TensorNpy || artifact.kind == models::ArtifactKind::TensorNpz
        || artifact.kind == models::ArtifactKind::TensorSafetensors
        || artifact.kind == models::ArtifactKind::TensorPt) {
        // An archive shows its first member; the list below the filter holds the others.
        const auto catalog = m_tensorPanel->catalog();
        bool shown = m_tensorPanel->showLocation(artifact.path);
        for (int s = 0; !shown && catalog && s < catalog->series().size(); ++s) {
            for (const models::tensor::TensorInfo& info : catalog->series()[s].versions) {
                if (info.path == artifact.path) {
                    shown = m_tensorPanel->showLocation(info.location());
                    break;
                }
            }
        }
        if (shown) {
            raiseDock(m_tensorDock);
            return;
        }
        statusBar()->showMessage(
            tr("%1: no tensor could be read from this file.").arg(QDir::toNativeSeparators(artifact.path)), 8000);
        return;
    }
    statusBar()->showMessage(tr("%1: %2 files are listed, but this version of RunLens does not open them yet.")
                                 .arg(QDir::toNativeSeparators(artifact.path), models::artifactKindName(artifact.kind)),
                             8000);
}

bool MainWindow::raisePanel(const QString& name)
{
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        if (dock->windowTitle().compare(name, Qt::CaseInsensitive) == 0
            || dock->objectName().compare(name + QLatin1String("Dock"), Qt::CaseInsensitive) == 0
            || isPanelNamed(dock, name)) {
            raiseDock(dock);
            return true;
        }
    }
    return false;
}

void MainWindow::showNodeInGraph(const QString& key)
{
    const std::shared_ptr<const models::graph::ScopeTree> tree = m_graphPanel->tree();
    if (!tree || key.isEmpty())
        return;
    int item = -1;
    // Dump names write a module path with dots ("layer1.0.conv1") where the graph has scopes.
    for (const QString& candidate : { key, models::graph::DumpIndex::normalizedKey(key) }) {
        const int node = tree->graph().find(candidate.toStdString());
        item = node >= 0 ? tree->itemOfNode(node) : tree->findKey("g:" + candidate.toStdString());
        if (item >= 0)
            break;
    }
    if (item >= 0) {
        m_graphPanel->revealItem(item);
        raiseDock(m_graphDock);
        return;
    }
    // MindSpore dumps name an op by the leaf of its full name: let the search find it.
    if (m_graphPanel->search(key) > 0) {
        raiseDock(m_graphDock);
        return;
    }
    statusBar()->showMessage(tr("The open graph has no node or module named %1.").arg(key), 8000);
}

void MainWindow::exportChart()
{
    const QStringList tags = m_scalars->tags();
    if (tags.isEmpty()) {
        QMessageBox::information(this, tr("Export Chart"), tr("There is no chart to export yet."));
        return;
    }
    bool ok = false;
    const QString tag = QInputDialog::getItem(this, tr("Export Chart"), tr("Chart:"), tags, 0, false, &ok);
    if (!ok)
        return;
    const QString fileName = askExportFileName(widgets::ChartExporter::Format::Png,
                                               QString(tag).replace(QLatin1Char('/'), QLatin1Char('_')));
    if (fileName.isEmpty())
        return;
    QString error;
    if (widgets::scalars::exportScalarChart(*m_scalars, tag, fileName, m_scalarsPanel->chartOptions(), QSize(1000, 620),
                                            &error))
        statusBar()->showMessage(tr("Chart written to %1").arg(QDir::toNativeSeparators(fileName)), 8000);
    else
        QMessageBox::warning(this, tr("Export Chart"), error);
}

QString MainWindow::askExportFileName(widgets::ChartExporter::Format format, const QString& suggested)
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("export/directory"), QDir::homePath()).toString();
    QStringList filters;
    for (auto f : { widgets::ChartExporter::Format::Png, widgets::ChartExporter::Format::Svg,
                    widgets::ChartExporter::Format::Pdf, widgets::ChartExporter::Format::Csv })
        filters << widgets::ChartExporter::fileDialogFilter(f);
    QString selected = widgets::ChartExporter::fileDialogFilter(format);
    QString base = suggested;
    if (QFileInfo(base).suffix().isEmpty())
        base += QLatin1Char('.') + widgets::ChartExporter::suffix(format);
    QString fileName = QFileDialog::getSaveFileName(this, tr("Export Chart"), QDir(dir).filePath(base),
                                                    filters.join(QStringLiteral(";;")), &selected);
    if (fileName.isEmpty())
        return {};
    if (!widgets::ChartExporter::formatForFileName(fileName)) {
        for (auto f : { widgets::ChartExporter::Format::Png, widgets::ChartExporter::Format::Svg,
                        widgets::ChartExporter::Format::Pdf, widgets::ChartExporter::Format::Csv }) {
            if (selected == widgets::ChartExporter::fileDialogFilter(f))
                fileName += QLatin1Char('.') + widgets::ChartExporter::suffix(f);
        }
    }
    settings.setValue(QStringLiteral("export/directory"), QFileInfo(fileName).absolutePath());
    return fileName;
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About RunLens"),
                       tr("<h3>RunLens %1</h3><p>A desktop workbench for debugging and tuning deep-learning "
                          "training runs: summaries, graphs, tensors, profiler traces and memory in one place.</p>")
                           .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::showSource(const QString& path, int line)
{
    m_sourceView->openFile(path, line);
    m_sourceDock->setWindowTitle(line > 0 ? tr("Source — %1:%2").arg(QFileInfo(path).fileName()).arg(line)
                                          : tr("Source — %1").arg(QFileInfo(path).fileName()));
    raiseDock(m_sourceDock);
}

} // namespace runlens::app
