#include "app/mainwindow.h"

#include "app/runcontroller.h"
#include "widgets/projector/projectorpanel.h"

#include "app/notespanel.h"
#include "importers/core/importsession.h"
#include "models/advisor/advisor.h"
#include "models/core/panelchoice.h"
#include "models/core/timerange.h"
#include "models/profiler/profilerdata.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/runcomparison.h"
#include "models/summary/summarystore.h"
#include "models/tensor/tensorcatalog.h"
#include "models/trace/stepbreakdown.h"
#include "widgets/accuracy/accuracypanel.h"
#include "widgets/advisor/advisorpanel.h"
#include "widgets/cluster/clusterpanel.h"
#include "widgets/compare/comparerunspanel.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/memory/memorypanel.h"
#include "widgets/overview/overviewpanel.h"
#include "widgets/pipeline/datapipelinepanel.h"
#include "widgets/system/systempanel.h"
#include "widgets/tensor/tensorpanel.h"

#include <QAction>
#include <QDockWidget>
#include <QSettings>
#include <QTabBar>
#include <QTimer>

// Which docks are shown for the open folder and which of them is in front: the docks with something to
// show, the one the folder was opened for in front (PanelChoice decides), the user's choices first.

namespace runlens::app {

namespace {

const char* const kClosedPanelsKey = "window/closedPanels";
const char* const kWatchedProperty = "runlensWatched";

} // namespace

void MainWindow::createPanelChoice()
{
    m_closedByUser = QSettings().value(QLatin1String(kClosedPanelsKey)).toStringList();
    m_panelTimer = new QTimer(this);
    m_panelTimer->setSingleShot(true);
    m_panelTimer->setInterval(0);
    connect(m_panelTimer, &QTimer::timeout, this, &MainWindow::applyPanelChoice);

    const QStringList managed = models::PanelChoice::managedDocks();
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
            m_onScreen.removeAll(dock->objectName());
            if (visible)
                m_onScreen.prepend(dock->objectName());
        });
        if (!managed.contains(dock->objectName()))
            continue;
        // The View menu's entries and the dock's close button are the user's word; the window's own show and
        // hide are not.
        connect(dock->toggleViewAction(), &QAction::triggered, this,
                [this, dock](bool checked) { notePanelToggled(dock, checked); });
        dock->installEventFilter(this);
    }

    // What arrives changes what has content.
    connect(m_scalars, &models::scalars::ScalarStore::structureChanged, this, &MainWindow::schedulePanelChoice);
    connect(m_summaries, &models::summary::SummaryStore::structureChanged, this, &MainWindow::schedulePanelChoice);
    connect(m_graphPanel, &widgets::graph::GraphPanel::treeChanged, this, &MainWindow::schedulePanelChoice);
    connect(m_clusterPanel, &widgets::cluster::ClusterPanel::clusterReady, this, &MainWindow::schedulePanelChoice);
}

models::ImportedContent MainWindow::importedContent() const
{
    // The run's own counts come from the controller; what only the panels know is added here.
    models::ImportedContent c = m_run->importedContent();
    c.comparableRuns = m_comparePanel->model()->rowCount();
    if (const auto breakdown = m_overviewPanel->traceBreakdown()) {
        for (const models::trace::StepBreakdown::SourceSummary& source : breakdown->sources)
            c.traceSteps += source.wholeTrace ? 0 : int(source.stepCount);
    }
    if (const auto profiler = m_overviewPanel->profilerData())
        c.profilerRanks = int(profiler->ranks.size());
    c.pipelines = m_pipelinePanel->isEmptyStateShown() ? 0 : 1;
    c.clusterRanks = m_clusterPanel->isShowingEmptyState() ? 0 : 2;
    c.memoryProfiles = m_memoryPanel->isEmptyStateShown() ? 0 : 1;
    if (const auto report = m_advisorPanel->report())
        c.findings = int(report->findings.size());
    c.noteCharacters = int(m_notesPanel->text().trimmed().size());
    c.comparisons = m_accuracyPanel->isRunning() || m_accuracyPanel->result() ? 1 : 0;
    m_systemPanel->flushPendingRefresh();
    c.systemRuns = m_systemPanel->runCount();
    c.embeddingSets = m_projectorPanel->setCount();
    return c;
}

void MainWindow::schedulePanelChoice()
{
    if (m_panelTimer && m_run->session())
        m_panelTimer->start();
}

void MainWindow::applyPanelChoice()
{
    if (!m_run->session() || isWelcomeVisible())
        return;
    const models::PanelChoice choice(importedContent(), m_pickedDocks);
    m_arrangingPanels = true;
    for (const QString& name : models::PanelChoice::managedDocks()) {
        QDockWidget* dock = findChild<QDockWidget*>(name);
        if (!dock || dock->isFloating())
            continue;
        const bool show = !m_closedByUser.contains(name) && (choice.hasContent(name) || m_shownByUser.contains(name));
        if (dock->isHidden() == show)
            dock->setVisible(show);
    }
    // The most wanted dock of each tab group goes in front, whatever the user made of the groups: raising
    // one dock per group only, so that no panel is shown and hidden again on the way.
    // Docks the user asked for since the folder opened stay in front even with nothing to show yet.
    QStringList order;
    for (const QString& name : std::as_const(m_pickedDocks)) {
        if (m_shownByUser.contains(name))
            order << name;
    }
    order += choice.frontOrder();
    QList<QDockWidget*> raised;
    for (const QString& name : std::as_const(order)) {
        QDockWidget* dock = findChild<QDockWidget*>(name);
        if (!dock || dock->isHidden())
            continue;
        const QList<QDockWidget*> siblings = tabifiedDockWidgets(dock);
        if (std::any_of(raised.cbegin(), raised.cend(), [&](QDockWidget* d) { return siblings.contains(d); }))
            continue;
        if (!m_onScreen.contains(name))
            dock->raise();
        raised << dock;
    }
    m_arrangingPanels = false;
    watchTabBars();
}

void MainWindow::watchTabBars()
{
    // The docks' tab bars are made by the layout as groups form: a click on a tab is the user's choice.
    for (QTabBar* bar : findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        if (bar->property(kWatchedProperty).toBool())
            continue;
        bar->setProperty(kWatchedProperty, true);
        connect(bar, &QTabBar::tabBarClicked, this, [this, bar](int index) {
            const QString title = bar->tabText(index);
            for (QDockWidget* dock : findChildren<QDockWidget*>()) {
                if (dock->windowTitle() == title) {
                    notePanelPicked(dock);
                    return;
                }
            }
        });
    }
}

void MainWindow::notePanelPicked(QDockWidget* dock)
{
    if (m_arrangingPanels || !dock)
        return;
    m_pickedDocks.removeAll(dock->objectName());
    m_pickedDocks.prepend(dock->objectName());
}

void MainWindow::notePanelToggled(QDockWidget* dock, bool shown)
{
    if (m_arrangingPanels)
        return;
    const QString name = dock->objectName();
    m_shownByUser.removeAll(name);
    m_closedByUser.removeAll(name);
    if (shown) {
        m_shownByUser << name;
        notePanelPicked(dock);
        dock->raise();
    } else {
        m_closedByUser << name;
        m_pickedDocks.removeAll(name);
    }
    QSettings().setValue(QLatin1String(kClosedPanelsKey), m_closedByUser);
}

QStringList MainWindow::frontDocks() const
{
    // Only what the user chose: a front the content picked is picked again from the content next time.
    return m_pickedDocks;
}

void MainWindow::raiseDock(QDockWidget* dock)
{
    if (!m_shownByUser.contains(dock->objectName()))
        m_shownByUser << dock->objectName();
    if (m_closedByUser.removeAll(dock->objectName()) > 0)
        QSettings().setValue(QLatin1String(kClosedPanelsKey), m_closedByUser);
    notePanelPicked(dock);
    dock->show();
    dock->raise();
}

} // namespace runlens::app
