#include "app/mainwindow.h"
#include "app/runcontroller.h"
#include "widgets/accuracy/accuracypanel.h"

#include "app/shortcutsdialog.h"
#include "importers/demo/demorun.h"
#include "models/core/runbrowsermodel.h"
#include "models/core/workerpool.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/graph/nodedetailswidget.h"
#include "widgets/tensor/tensorpanel.h"
#include "widgets/welcome/welcomepage.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent>

// The main window's shape: the welcome page, where the docks go by default, the Panels menu, menu tips
// and Help > Keyboard Shortcuts.

namespace runlens::app {

namespace {

const char* const kRecentKey = "recentPaths";
const char* const kRecentTimesKey = "recentOpened";
const char* const kLayoutVersionKey = "window/layoutVersion";
/// Raised whenever arrangeDocks() changes, so that a layout saved by an older version is replaced once.
constexpr int kLayoutVersion = 3;
const char* const kPanelNameProperty = "runlensPanelName";

struct PanelGroup
{
    const char* title;
    QStringList docks; ///< object names, in tab order
};

/// Docks by area: the run on the left; training charts, findings and the model in one tab group on the
/// right, the profiler in a second group below it. A dock not listed (a newer panel) joins the first group.
QList<PanelGroup> panelGroups()
{
    return {
        { QT_TRANSLATE_NOOP("runlens::app::MainWindow", "Run"),
          { QStringLiteral("RunBrowserDock"), QStringLiteral("NodeDetailsDock"), QStringLiteral("NotesDock") } },
        { QT_TRANSLATE_NOOP("runlens::app::MainWindow", "Training"),
          { QStringLiteral("ScalarsDock"), QStringLiteral("DistributionsDock"), QStringLiteral("ImagesDock"),
            QStringLiteral("TextDock"), QStringLiteral("AudioDock"), QStringLiteral("PrCurvesDock"),
            QStringLiteral("ProjectorDock"), QStringLiteral("CompareRunsDock"), QStringLiteral("AdvisorDock") } },
        { QT_TRANSLATE_NOOP("runlens::app::MainWindow", "Model"),
          { QStringLiteral("GraphDock"), QStringLiteral("TensorDock"), QStringLiteral("SourceDock") } },
        { QT_TRANSLATE_NOOP("runlens::app::MainWindow", "Profiler"),
          { QStringLiteral("TimelineDock"), QStringLiteral("OperatorsDock"), QStringLiteral("StepsDock"),
            QStringLiteral("MemoryDock"), QStringLiteral("OverviewDock"), QStringLiteral("DataPipelineDock"),
            QStringLiteral("ClusterDock"), QStringLiteral("AccuracyDock"), QStringLiteral("SystemDock") } },
    };
}

QString dockIcon(const QString& objectName)
{
    static const QHash<QString, QString> icons = {
        { QStringLiteral("RunBrowserDock"), QStringLiteral("kind-run") },
        { QStringLiteral("NodeDetailsDock"), QStringLiteral("kind-graph") },
        { QStringLiteral("ScalarsDock"), QStringLiteral("kind-summary") },
        { QStringLiteral("DistributionsDock"), QStringLiteral("kind-summary") },
        { QStringLiteral("PrCurvesDock"), QStringLiteral("kind-summary") },
        { QStringLiteral("AudioDock"), QStringLiteral("kind-summary") },
        { QStringLiteral("ProjectorDock"), QStringLiteral("kind-summary") },
        { QStringLiteral("CompareRunsDock"), QStringLiteral("kind-run") },
        { QStringLiteral("GraphDock"), QStringLiteral("kind-graph") },
        { QStringLiteral("TensorDock"), QStringLiteral("kind-tensor") },
        { QStringLiteral("TimelineDock"), QStringLiteral("kind-trace") },
        { QStringLiteral("OperatorsDock"), QStringLiteral("kind-table") },
        { QStringLiteral("StepsDock"), QStringLiteral("kind-table") },
        { QStringLiteral("MemoryDock"), QStringLiteral("kind-trace") },
        { QStringLiteral("OverviewDock"), QStringLiteral("kind-table") },
        { QStringLiteral("DataPipelineDock"), QStringLiteral("kind-table") },
        { QStringLiteral("ClusterDock"), QStringLiteral("kind-rank") },
        { QStringLiteral("AccuracyDock"), QStringLiteral("kind-table") },
        { QStringLiteral("SystemDock"), QStringLiteral("kind-trace") },
    };
    const QString name = icons.value(objectName, QStringLiteral("kind-other"));
    return QStringLiteral(":/icons/%1.svg").arg(name);
}

QString plainMenuText(QString text)
{
    return text.remove(QLatin1Char('&'));
}

} // namespace

void MainWindow::finishWindow()
{
    // Names as raisePanel() and --dock know them: the titles before a file renames a dock ("Timeline — x").
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        dock->setProperty(kPanelNameProperty, dock->windowTitle());
        if (!dock->testAttribute(Qt::WA_SetWindowIcon))
            dock->setWindowIcon(QIcon(dockIcon(dock->objectName())));
        QAction* toggle = dock->toggleViewAction();
        toggle->setStatusTip(tr("Show or hide the %1 panel").arg(dock->windowTitle()));
        // Asking for a panel while the welcome page is up means: show the panels.
        connect(toggle, &QAction::triggered, this, [this](bool checked) {
            if (checked)
                setWelcomeVisible(false);
        });
    }
    setTabPosition(Qt::AllDockWidgetAreas, QTabWidget::North);

    buildPanelsMenu();
    addHelpActions();
    polishMenus();

    // The version is saved with the window state (saveSettings()), so a state from an older layout is
    // replaced once, and a window that never saved its state starts from the default layout again.
    if (QSettings().value(QLatin1String(kLayoutVersionKey)).toInt() < kLayoutVersion)
        arrangeDocks();
    createWelcomePage();
}

int MainWindow::layoutVersion()
{
    return kLayoutVersion;
}

QStringList MainWindow::panelNames() const
{
    QStringList names;
    QStringList seen;
    for (const PanelGroup& group : panelGroups()) {
        for (const QString& objectName : group.docks) {
            if (const auto* dock = findChild<QDockWidget*>(objectName)) {
                names << dock->property(kPanelNameProperty).toString();
                seen << objectName;
            }
        }
    }
    for (const QDockWidget* dock : findChildren<QDockWidget*>()) {
        if (!seen.contains(dock->objectName()))
            names << dock->property(kPanelNameProperty).toString();
    }
    return names;
}

bool MainWindow::isPanelNamed(const QDockWidget* dock, const QString& name)
{
    return dock->property(kPanelNameProperty).toString().compare(name, Qt::CaseInsensitive) == 0;
}

void MainWindow::arrangeDocks()
{
    const QList<PanelGroup> groups = panelGroups();
    QList<QDockWidget*> docks = findChildren<QDockWidget*>();
    // Tabbed docks cannot be split: take every dock out first, then place the groups.
    for (QDockWidget* dock : docks) {
        dock->setFloating(false);
        removeDockWidget(dock);
    }
    auto dock = [this](const QString& objectName) { return findChild<QDockWidget*>(objectName); };
    QList<QDockWidget*> placed;
    auto place = [&](const PanelGroup& group, QDockWidget* first) {
        for (const QString& name : group.docks) {
            QDockWidget* d = dock(name);
            if (!d || placed.contains(d))
                continue;
            tabifyDockWidget(first, d);
            placed << d;
        }
    };
    QDockWidget* run = m_runDock;
    QDockWidget* details = m_nodeDetailsDock;
    QDockWidget* training = m_scalarsDock;
    QDockWidget* model = m_graphDock;
    QDockWidget* profiler = m_timelineDock;
    addDockWidget(Qt::LeftDockWidgetArea, run);
    splitDockWidget(run, details, Qt::Vertical);
    addDockWidget(Qt::RightDockWidgetArea, training);
    splitDockWidget(training, profiler, Qt::Vertical);
    placed << run << details << training << profiler;
    // Two tab groups on the right, training and model above, profiler below: with every panel in one
    // group the tab labels shrink to a letter or two. The panels keep their minimum heights low enough
    // for both groups to fit a 900-pixel screen.
    place(groups[0], details);
    place(groups[1], training);
    tabifyDockWidget(training, model);
    placed << model;
    place(groups[2], training);
    place(groups[3], profiler);
    for (QDockWidget* d : docks) {
        if (!placed.contains(d)) {
            tabifyDockWidget(training, d);
            placed << d;
        }
    }
    for (QDockWidget* d : docks)
        d->setVisible(d != m_sourceDock
                      && (d != m_accuracyDock || m_accuracyPanel->result() || m_accuracyPanel->isRunning()));
    run->raise();
    details->raise();
    training->raise();
    profiler->raise();
    const int side = 440;
    resizeDocks({ run, training }, { side, std::max(600, width() - side) }, Qt::Horizontal);
    const int content = std::max(400, height() - 120);
    resizeDocks({ run, details }, { content / 2, content / 2 }, Qt::Vertical);
    // The charts above get the larger share.
    resizeDocks({ training, profiler }, { content * 11 / 20, content * 9 / 20 }, Qt::Vertical);
}

void MainWindow::buildPanelsMenu()
{
    // Every dock's show/hide action, grouped by area, in one submenu (docks added later included).
    m_panelsMenu = new QMenu(tr("&Panels"), this);
    QList<QDockWidget*> listed;
    auto add = [this, &listed](QDockWidget* dock) {
        m_viewMenu->removeAction(dock->toggleViewAction());
        m_panelsMenu->addAction(dock->toggleViewAction());
        listed << dock;
    };
    for (const PanelGroup& group : panelGroups()) {
        m_panelsMenu->addSection(QCoreApplication::translate("runlens::app::MainWindow", group.title));
        for (const QString& name : group.docks) {
            if (auto* dock = findChild<QDockWidget*>(name))
                add(dock);
        }
    }
    bool other = false;
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        if (listed.contains(dock))
            continue;
        if (!other)
            m_panelsMenu->addSection(tr("Other"));
        other = true;
        add(dock);
    }
    const QList<QAction*> viewActions = m_viewMenu->actions();
    QAction* before = viewActions.isEmpty() ? nullptr : viewActions.first();
    QAction* panels = m_viewMenu->insertMenu(before, m_panelsMenu);
    panels->setStatusTip(tr("Show or hide each panel"));
    auto* reset = new QAction(tr("Reset Panel &Layout"), this);
    reset->setStatusTip(tr("Put every panel back where it starts: the run on the left, training and model panels "
                           "on the right, profiler panels below them"));
    connect(reset, &QAction::triggered, this, [this]() {
        setWelcomeVisible(false);
        arrangeDocks();
        // Panels the user closed come back; those with nothing to show for the open folder give way again.
        m_closedByUser.clear();
        m_shownByUser.clear();
        QSettings().remove(QStringLiteral("window/closedPanels"));
        applyPanelChoice();
    });
    m_viewMenu->insertAction(before, reset);
    m_viewMenu->insertSeparator(before);
}

void MainWindow::addHelpActions()
{
    QMenu* help = nullptr;
    for (QAction* action : menuBar()->actions()) {
        if (action->menu() && plainMenuText(action->menu()->title()) == plainMenuText(tr("&Help")))
            help = action->menu();
    }
    if (!help)
        help = menuBar()->addMenu(tr("&Help"));
    auto* shortcuts = new QAction(tr("&Keyboard Shortcuts"), this);
    shortcuts->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    shortcuts->setStatusTip(tr("List the keys of every command and panel"));
    connect(shortcuts, &QAction::triggered, this, &MainWindow::showShortcuts);
    const QList<QAction*> helpActions = help->actions();
    help->insertAction(helpActions.isEmpty() ? nullptr : helpActions.first(), shortcuts);
}

void MainWindow::polishMenus()
{
    // Status tips show in the status bar while the pointer is on an entry; tooltips when it rests there.
    std::function<void(QMenu*)> polish = [&polish](QMenu* menu) {
        menu->setToolTipsVisible(true);
        for (QAction* action : menu->actions()) {
            if (action->isSeparator())
                continue;
            const QString defaultTip = plainMenuText(action->text());
            const bool ownToolTip = !action->toolTip().isEmpty() && plainMenuText(action->toolTip()) != defaultTip;
            if (action->statusTip().isEmpty() && ownToolTip)
                action->setStatusTip(action->toolTip());
            if (!ownToolTip && !action->statusTip().isEmpty())
                action->setToolTip(action->statusTip());
            if (QMenu* sub = action->menu())
                polish(sub);
        }
    };
    for (QAction* action : menuBar()->actions()) {
        if (QMenu* menu = action->menu())
            polish(menu);
    }
}

void MainWindow::showShortcuts()
{
    ShortcutsDialog dialog(menuBar(), this);
    dialog.exec();
}

void MainWindow::createWelcomePage()
{
    m_welcome = new widgets::welcome::WelcomePage(this);
    connect(m_welcome, &widgets::welcome::WelcomePage::openFolderRequested, this, &MainWindow::chooseFolder);
    connect(m_welcome, &widgets::welcome::WelcomePage::openFileRequested, this, &MainWindow::chooseFile);
    connect(m_welcome, &widgets::welcome::WelcomePage::demoRequested, this, &MainWindow::openDemo);
    connect(m_welcome, &widgets::welcome::WelcomePage::recentActivated, this, &MainWindow::openPath);
    connect(m_welcome, &widgets::welcome::WelcomePage::recentRemoved, this, &MainWindow::removeRecent);
    m_welcome->setRecent(recentEntries());
    // The page lies over the dock area rather than replacing it, so the docks keep their layout (and
    // what saveState() records) while it is up.
    menuBar()->installEventFilter(this);
    statusBar()->installEventFilter(this);
    setWelcomeVisible(m_run->path().isEmpty());
}

void MainWindow::setWelcomeVisible(bool visible)
{
    if (!m_welcome)
        return;
    m_welcome->setVisible(visible);
    if (visible) {
        m_welcome->setRecent(recentEntries());
        placeWelcomePage();
        m_welcome->setFocus();
    }
}

bool MainWindow::isWelcomeVisible() const
{
    return m_welcome && !m_welcome->isHidden();
}

void MainWindow::placeWelcomePage()
{
    if (!isWelcomeVisible())
        return;
    const int top = menuBar()->isVisible() ? menuBar()->geometry().bottom() + 1 : 0;
    const int bottom = statusBar()->isVisible() ? statusBar()->geometry().top() : height();
    m_welcome->setGeometry(0, top, width(), std::max(0, bottom - top));
    m_welcome->raise();
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if ((watched == statusBar() || watched == menuBar())
        && (event->type() == QEvent::Move || event->type() == QEvent::Resize || event->type() == QEvent::Show))
        placeWelcomePage();
    // A dock's own close button.
    if (event->type() == QEvent::Close) {
        if (auto* dock = qobject_cast<QDockWidget*>(watched))
            notePanelToggled(dock, false);
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeRun()
{
    if (m_run->path().isEmpty() && !m_run->session())
        return;
    saveRunView();
    m_run->close();
    m_tensorPanel->setCatalog(nullptr);
    m_nodeDetails->setDumps(nullptr);
    setBusy(false);
    m_liveLabel->clear();
    m_statusText->setText(tr("Open a run folder to begin (Ctrl+O), or drop one onto this window."));
    setWindowTitle(tr("RunLens"));
    setWelcomeVisible(true);
    notifyIdle();
}

void MainWindow::openForwardedPaths(const QStringList& paths)
{
    // One folder at a time is open: the first path is opened (unless it is the one already open); the
    // window comes to the front either way.
    const QString path = paths.value(0);
    if (!path.isEmpty() && QFileInfo(path).absoluteFilePath() != m_run->path())
        openPath(path);
    if (paths.size() > 1)
        statusBar()->showMessage(tr("Opened %1; RunLens opens one folder per window (run `runlens --new-window "
                                    "PATH` for another).")
                                     .arg(QDir::toNativeSeparators(path)),
                                 10000);
    if (isMinimized())
        showNormal();
    show();
    raise();
    activateWindow();
}

void MainWindow::openDemo()
{
    const QString dir
        = QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).filePath(QStringLiteral("demo-run"));
    setBusy(true, tr("Writing the demo run to %1…").arg(QDir::toNativeSeparators(dir)));
    QtConcurrent::run(models::workerPool(), [dir]() {
        QString error;
        if (importers::demo::DemoRun::write(dir, &error))
            return QString();
        return error.isEmpty() ? tr("unknown error") : error;
    }).then(this, [this, dir](const QString& error) {
        setBusy(false);
        if (!error.isEmpty()) {
            QMessageBox::warning(this, tr("Demo Run"),
                                 tr("Cannot write the demo run to %1: %2\nCheck that the cache folder is writable.")
                                     .arg(QDir::toNativeSeparators(dir), error));
            return;
        }
        openPath(dir);
    });
}

QList<widgets::welcome::RecentEntry> MainWindow::recentEntries() const
{
    QSettings settings;
    const QStringList paths = settings.value(QLatin1String(kRecentKey)).toStringList();
    const QVariantMap times = settings.value(QLatin1String(kRecentTimesKey)).toMap();
    QList<widgets::welcome::RecentEntry> entries;
    for (const QString& path : paths)
        entries.append({ path, times.value(path).toDateTime() });
    return entries;
}

void MainWindow::recordRecentTime(const QString& path)
{
    QSettings settings;
    const QStringList paths = settings.value(QLatin1String(kRecentKey)).toStringList();
    QVariantMap times = settings.value(QLatin1String(kRecentTimesKey)).toMap();
    times.insert(path, QDateTime::currentDateTime());
    // Times of paths that fell off the list go with them.
    for (auto it = times.begin(); it != times.end();)
        it = paths.contains(it.key()) || it.key() == path ? std::next(it) : times.erase(it);
    settings.setValue(QLatin1String(kRecentTimesKey), times);
}

void MainWindow::removeRecent(const QString& path)
{
    QSettings settings;
    QStringList paths = settings.value(QLatin1String(kRecentKey)).toStringList();
    paths.removeAll(path);
    settings.setValue(QLatin1String(kRecentKey), paths);
    QVariantMap times = settings.value(QLatin1String(kRecentTimesKey)).toMap();
    times.remove(path);
    settings.setValue(QLatin1String(kRecentTimesKey), times);
    rebuildRecentMenu();
}

} // namespace runlens::app
