// The main window's preferences, sessions and run notes: what the user set up and looked at outlives the
// window, kept in the user's settings and data folders (never in a run folder).

#include "app/mainwindow.h"
#include "app/runcontroller.h"

#include "app/appsettings.h"
#include "app/notespanel.h"
#include "app/session.h"
#include "app/settingsdialog.h"
#include "models/core/timerange.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/prcurves/prcurvespanel.h"
#include "widgets/projector/projectorpanel.h"
#include "widgets/scalars/scalarspanel.h"
#include "widgets/tensor/tensorpanel.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTimer>

namespace runlens::app {

namespace {

constexpr int kTensorRetryMs = 500;
constexpr int kTensorRetries = 40; ///< the tensor catalog is built on a worker; wait this long for it

} // namespace

void MainWindow::createNotesDock()
{
    m_notesPanel = new NotesPanel(this);
    m_notesDock = new QDockWidget(tr("Notes"), this);
    m_notesDock->setObjectName(QStringLiteral("NotesDock"));
    m_notesDock->setWidget(m_notesPanel);
    addDockWidget(Qt::LeftDockWidgetArea, m_notesDock);
    tabifyDockWidget(m_nodeDetailsDock, m_notesDock);
    m_nodeDetailsDock->raise();
    connect(m_notesPanel, &NotesPanel::saveFailed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });

    // A trace arrives after its folder opened: its saved zoom is applied once its span is known.
    connect(m_timeRange, &models::TimeRangeModel::traceRangeChanged, this,
            [this](std::int64_t start, std::int64_t end) {
                if (!m_pendingView || !m_pendingView->hasTimelineRange())
                    return;
                const std::int64_t from = m_pendingView->timelineStart;
                const std::int64_t to = m_pendingView->timelineEnd;
                if (from < start || to > end)
                    return; // another trace than the one that was zoomed
                m_pendingView->timelineEnd = m_pendingView->timelineStart - 1;
                // After the panels have reacted to the new trace themselves.
                QTimer::singleShot(0, this, [this, from, to] { m_timeRange->setVisibleRange(from, to); });
            });
    // The graph's hierarchy is built on a worker; its groups are expanded as they were once it is there.
    connect(m_graphPanel, &widgets::graph::GraphPanel::treeChanged, this, [this] {
        if (!m_pendingView || m_pendingView->graphPath.isEmpty()
            || m_graphPanel->currentGraphPath() != m_pendingView->graphPath)
            return;
        m_graphPanel->setExpandedGroups(m_pendingView->expandedGroups);
        m_pendingView->graphPath.clear();
    });
}

void MainWindow::createSessionActions()
{
    // Edit sits between File and View, where desktop applications keep Preferences.
    auto* edit = new QMenu(tr("&Edit"), this);
    menuBar()->insertMenu(m_viewMenu->menuAction(), edit);
    QAction* preferences = edit->addAction(QIcon::fromTheme(QStringLiteral("preferences-system")), tr("&Preferences…"),
                                           this, &MainWindow::showPreferences);
    preferences->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    preferences->setMenuRole(QAction::PreferencesRole);
    preferences->setToolTip(tr("Language, theme, panel defaults, number format, rules folder and sessions"));

    auto* reopen = new QAction(tr("Reopen &Last Session"), this);
    reopen->setToolTip(tr("Open the folders of the last session again with their docks and views"));
    reopen->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    connect(reopen, &QAction::triggered, this, [this] {
        if (!reopenLastSession())
            statusBar()->showMessage(tr("There is no earlier session to reopen."), 8000);
    });
    if (auto* file = qobject_cast<QMenu*>(m_recentMenu->parent())) {
        const QList<QAction*> actions = file->actions();
        const int recent = int(actions.indexOf(m_recentMenu->menuAction()));
        file->insertAction(actions.value(recent + 1), reopen);
    }

    m_viewMenu->insertAction(m_sourceDock->toggleViewAction(), m_notesDock->toggleViewAction());
}

void MainWindow::showPreferences()
{
    const AppSettings before = AppSettings::load();
    SettingsDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const AppSettings after = AppSettings::load();
    applyPanelDefaults(after, &before);
    if (after.language != before.language)
        statusBar()->showMessage(tr("The new language is used the next time RunLens starts."), 10000);
    else if (!(after.limits.scalars == before.limits.scalars && after.limits.histograms == before.limits.histograms
               && after.limits.images == before.limits.images && after.limits.texts == before.limits.texts
               && after.limits.prCurves == before.limits.prCurves && after.limits.tensors == before.limits.tensors))
        statusBar()->showMessage(tr("The new limits apply when the run folder is read again (File > Reload)."), 8000);
}

void MainWindow::applyPanelDefaults(const AppSettings& settings, const AppSettings* previous)
{
    // Only what changed: a default must not undo what the user did in a panel since it was set.
    if (!previous || previous->smoothing != settings.smoothing)
        m_scalarsPanel->setSmoothing(settings.smoothing);
    if (!previous || previous->xAxis != settings.xAxis)
        m_scalarsPanel->setXAxisMode(settings.xAxis);
    if (!previous || previous->graphDirection != settings.graphDirection)
        m_graphPanel->setRankDir(settings.graphDirection);
    if (previous && previous->rulesFolder != settings.rulesFolder) {
        loadRuleBooks();
        scheduleAdvice();
    }
}

RunView MainWindow::currentRunView() const
{
    RunView view;
    view.dockState = saveState();
    view.scalars = m_scalarsPanel->saveState();
    view.scalarRanges = m_scalarsPanel->xRanges();
    const models::TimeSpan visible = m_timeRange->visibleRange();
    const models::TimeSpan whole = m_timeRange->traceRange();
    if (visible.valid() && whole.valid() && !(visible == whole)) {
        view.timelineStart = visible.start;
        view.timelineEnd = visible.end;
    }
    view.graphPath = m_graphPanel->currentGraphPath();
    if (!view.graphPath.isEmpty())
        view.expandedGroups = m_graphPanel->expandedGroups();
    view.tensor = m_tensorPanel->currentLocation();
    view.frontDocks = frontDocks();
    if (const QVariantMap prCurves = m_prCurvesPanel->saveState(); !prCurves.isEmpty())
        view.panels.insert(QStringLiteral("prCurves"), prCurves);
    if (const QVariantMap projector = m_projectorPanel->saveState(); !projector.isEmpty())
        view.panels.insert(QStringLiteral("projector"), projector);
    return view;
}

void MainWindow::saveRunView()
{
    m_notesPanel->save();
    // Until the folder has been read the panels show nothing of it: keep what was saved before.
    if (m_run->path().isEmpty() || !m_run->session() || m_run->isScanning())
        return;
    RunView view = currentRunView();
    // What has not been restored yet (a trace never opened this time) stays as it was.
    if (m_pendingView) {
        if (!view.hasTimelineRange() && m_pendingView->hasTimelineRange()) {
            view.timelineStart = m_pendingView->timelineStart;
            view.timelineEnd = m_pendingView->timelineEnd;
        }
        if (view.tensor.isEmpty())
            view.tensor = m_pendingView->tensor;
    }
    view.save(m_run->path());
}

void MainWindow::beginRunView()
{
    m_notesPanel->setFolder(QFileInfo(m_run->path()).isDir() ? m_run->path() : QFileInfo(m_run->path()).absolutePath());
    const RunView view = RunView::load(m_run->path());
    ++m_viewGeneration;
    if (view.isEmpty()) {
        m_pendingView.reset();
        return;
    }
    m_pendingView = std::make_unique<RunView>(view);
    // The docks the user had in front win over what the folder's content would put there.
    m_pickedDocks = view.frontDocks;
    if (!view.dockState.isEmpty())
        restoreState(view.dockState);
    if (!view.scalars.isEmpty())
        m_scalarsPanel->restoreState(view.scalars);
    m_prCurvesPanel->restoreState(view.panels.value(QStringLiteral("prCurves")).toMap());
    if (const QVariantMap projector = view.panels.value(QStringLiteral("projector")).toMap(); !projector.isEmpty())
        m_projectorPanel->restoreState(projector);
}

void MainWindow::finishRunView()
{
    if (!m_pendingView)
        return;
    if (!m_pendingView->scalarRanges.isEmpty()) {
        m_scalarsPanel->setXRanges(m_pendingView->scalarRanges);
        m_pendingView->scalarRanges.clear();
    }
    if (!m_pendingView->graphPath.isEmpty()) {
        if (m_graphPanel->currentGraphPath() == m_pendingView->graphPath) {
            if (m_graphPanel->setExpandedGroups(m_pendingView->expandedGroups))
                m_pendingView->graphPath.clear();
        } else {
            m_graphPanel->selectGraph(m_pendingView->graphPath); // expanded once its hierarchy is built
        }
    }
    if (!m_pendingView->tensor.isEmpty())
        showPendingTensor(m_viewGeneration, kTensorRetries);
}

void MainWindow::showPendingTensor(int generation, int retries)
{
    if (!m_pendingView || generation != m_viewGeneration || m_pendingView->tensor.isEmpty())
        return;
    if (m_tensorPanel->showLocation(m_pendingView->tensor)) {
        m_pendingView->tensor.clear();
        return;
    }
    if (retries > 0)
        QTimer::singleShot(kTensorRetryMs, this,
                           [this, generation, retries] { showPendingTensor(generation, retries - 1); });
}

void MainWindow::saveLastSession()
{
    saveRunView();
    Session session;
    if (!m_run->path().isEmpty())
        session.folders << m_run->path();
    session.geometry = saveGeometry();
    session.dockState = saveState();
    session.saveAsLast();
}

bool MainWindow::reopenLastSession()
{
    const Session session = Session::loadLast();
    QStringList folders;
    for (const QString& folder : session.folders) {
        if (QFileInfo::exists(folder))
            folders << folder;
    }
    if (folders.isEmpty())
        return false;
    if (!session.geometry.isEmpty() && !isVisible())
        restoreGeometry(session.geometry);
    if (!session.dockState.isEmpty())
        restoreState(session.dockState);
    // One folder is shown at a time: the one that was in front.
    openPath(folders.front());
    return true;
}

} // namespace runlens::app
