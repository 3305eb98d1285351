#pragma once

#include "importers/core/importsession.h"
#include "importers/memory/memoryread.h"
#include "models/advisor/advisorinput.h"
#include "models/advisor/rule.h"
#include "models/core/runmanifest.h"
#include "widgets/common/chartexporter.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QMainWindow>

#include <atomic>
#include <functional>
#include <map>
#include <memory>

class QDockWidget;
class QTimer;
class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;

namespace runlens::importers {
class ImportSession;
}
namespace runlens::models {
class RunBrowserModel;
class TimeRangeModel;
struct ImportedContent;
struct ProfilerBundle;
} // namespace runlens::models
namespace runlens::models::cluster {
struct Cluster;
}
namespace runlens::models::scalars {
class ScalarStore;
}
namespace runlens::models::summary {
class SummaryStore;
}
namespace runlens::models::trace {
struct StepBreakdown;
}
namespace runlens::widgets {
class SourceView;
}
namespace runlens::widgets::accuracy {
class AccuracyPanel;
}
namespace runlens::widgets::advisor {
class AdvisorPanel;
}
namespace runlens::widgets::cluster {
class ClusterPanel;
}
namespace runlens::widgets::compare {
class CompareRunsPanel;
}
namespace runlens::widgets::distributions {
class DistributionsPanel;
}
namespace runlens::widgets::graph {
class GraphPanel;
class NodeDetailsWidget;
} // namespace runlens::widgets::graph
namespace runlens::widgets::images {
class ImagesPanel;
class TextPanel;
} // namespace runlens::widgets::images
namespace runlens::widgets::memory {
class MemoryPanel;
}
namespace runlens::widgets::operators {
class OperatorsPanel;
}
namespace runlens::widgets::overview {
class OverviewPanel;
}
namespace runlens::widgets::pipeline {
class DataPipelinePanel;
}
namespace runlens::widgets::prcurves {
class PrCurvesPanel;
}
namespace runlens::widgets::projector {
class ProjectorPanel;
}
namespace runlens::widgets::runbrowser {
class RunBrowserWidget;
}
namespace runlens::widgets::scalars {
class ScalarsPanel;
}
namespace runlens::widgets::steps {
class StepsPanel;
}
namespace runlens::widgets::system {
class SystemPanel;
class SystemTimelineLink;
} // namespace runlens::widgets::system
namespace runlens::widgets::tensor {
class TensorPanel;
}
namespace runlens::widgets::timeline {
class TimelinePanel;
}
namespace runlens::widgets::welcome {
class WelcomePage;
struct RecentEntry;
} // namespace runlens::widgets::welcome

namespace runlens::app {

struct AppSettings;
class JobDigester;
struct RunView;
class NotesPanel;
class RunController;

/// RunLens's main window: opens run folders, runs the scanner and the importers in the background,
/// routes their results into the shared models and shows the panels as docks. The only place with
/// dialogs; it owns user-facing errors.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a folder or a single file: scan, then import in the background.
    void openPath(const QString& path);
    /// Calls `callback` once the current folder has been scanned and imported (at once if idle).
    void whenIdle(std::function<void()> callback);
    bool isBusy() const;
    /// Brings the dock titled `name` (case-insensitive, "Tensors", "Graph" ...) to the front; false when none is.
    bool raisePanel(const QString& name);
    /// The names raisePanel() and `--dock` accept, grouped by area: the docks' titles before anything is open.
    QStringList panelNames() const;
    /// Paths another RunLens process was asked to open: the first is opened here and the window comes to
    /// the front.
    void openForwardedPaths(const QStringList& paths);
    /// Closes what is open and shows the welcome page.
    void closeRun();
    bool isWelcomeVisible() const;

    models::scalars::ScalarStore* scalarStore() const { return m_scalars; }
    models::summary::SummaryStore* summaryStore() const { return m_summaries; }
    widgets::scalars::ScalarsPanel* scalarsPanel() const { return m_scalarsPanel; }
    models::RunBrowserModel* runBrowserModel() const { return m_runModel; }
    importers::ImportSession* importSession() const;
    RunController* runController() const { return m_run; }
    widgets::graph::GraphPanel* graphPanel() const { return m_graphPanel; }
    widgets::tensor::TensorPanel* tensorPanel() const { return m_tensorPanel; }
    widgets::distributions::DistributionsPanel* distributionsPanel() const { return m_distributionsPanel; }
    widgets::images::ImagesPanel* imagesPanel() const { return m_imagesPanel; }
    widgets::images::TextPanel* textPanel() const { return m_textPanel; }
    widgets::prcurves::PrCurvesPanel* prCurvesPanel() const { return m_prCurvesPanel; }
    widgets::compare::CompareRunsPanel* compareRunsPanel() const { return m_comparePanel; }
    widgets::memory::MemoryPanel* memoryPanel() const { return m_memoryPanel; }
    widgets::cluster::ClusterPanel* clusterPanel() const { return m_clusterPanel; }
    widgets::timeline::TimelinePanel* timelinePanel() const { return m_timelinePanel; }
    NotesPanel* notesPanel() const { return m_notesPanel; }
    widgets::accuracy::AccuracyPanel* accuracyPanel() const { return m_accuracyPanel; }
    widgets::projector::ProjectorPanel* projectorPanel() const { return m_projectorPanel; }

    /// Opens `path` in the Source dock at `line` (1-based; 0: none) and brings the dock to the front.
    void showSource(const QString& path, int line);
    /// Compares two dumps (msprobe folders, dump folders, checkpoints) in the Accuracy dock, in the
    /// background; `mapping` is an optional mapping file. Brings the dock to the front.
    void compareDumps(const QString& bench, const QString& target, const QString& mapping = {});

    /// Opens the folders of the last session again with their docks and views; false when there is none
    /// (or none of its folders exists any more).
    bool reopenLastSession();
    /// The view of the open folder as a session keeps it (docks, ranges, expanded groups, tensor).
    RunView currentRunView() const;
    /// Hands the preferences' panel defaults (smoothing, x axis, graph direction) to the panels: all of them,
    /// or only those that differ from `previous`.
    void applyPanelDefaults(const AppSettings& settings, const AppSettings* previous = nullptr);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void createActions();
    void createDocks();
    void createSummaryDocks();
    void createProfilerDocks();
    /// Memory curves read from an artifact: a memory file (shown at once) or a trace (kept for showTraceMemory()).
    void addMemory(int artifactIndex, std::shared_ptr<const models::memory::MemoryProfile> profile);
    /// The memory curves of the trace(s) now in the trace panels, next to those of memory files.
    void showTraceMemory(const QList<int>& artifactIndices, std::shared_ptr<const models::trace::TraceStore> store);
    void updateMemoryPanel();
    void clearMemory();
    /// A run's MindSpore profiler output into the Overview, Data Pipeline and Cluster docks.
    void showProfiler(const QString& run, std::shared_ptr<const models::ProfilerBundle> bundle);
    /// The step breakdown of the trace(s) in view for the Overview; their cluster when several ranks.
    void showTraceOverview(std::shared_ptr<const models::trace::TraceStore> store);
    /// Opens a rank from the Cluster: its timeline, or its MindSpore overview.
    void showRank(int rank);
    /// A rank digest of the open folder: the digests make the Cluster (assembled once they stop arriving).
    void addRankDigest(int artifactIndex, std::shared_ptr<const models::cluster::RankDigest> digest);
    void showDigestCluster();
    /// Reads the trace of `rank` at `path` alone into the trace panels (a rank of a digest folder).
    void openRankTrace(int rank, const QString& path);
    void showRankMessage(const QString& text);
    /// The ranks of a job too large to read together: each rank digested alone on the workers (one store
    /// per worker at a time), and the Cluster shown from the digests.
    void digestJobRanks(const QList<int>& artifactIndices);
    void createJobDigester();
    void selectProfilerRun(const QString& run);
    // The Advisor dock (advisordock.cpp)
    void createAdvisorDock();
    // The Accuracy dock (accuracydock.cpp)
    void createAccuracyDock();
    // The Projector dock (projectordock.cpp)
    void createProjectorDock();
    void chooseDumpsToCompare();
    void loadRuleBooks();
    void saveRuleBook(const models::advisor::RuleBook& book);
    void connectAdvisor(importers::ImportSession* session);
    void scheduleAdvice();
    models::advisor::AdvisorInput advisorInput() const;
    void runAdvisor();
    /// An evaluation is pending or running.
    bool isAdvising() const;
    void clearAdvisor();
    void showEvidence(const QString& locator);
    void clearProfiler();
    /// The cluster with each rank's peak memory from the MindSpore memory files read so far.
    std::shared_ptr<const models::cluster::Cluster>
    clusterWithMemory(const std::shared_ptr<const models::cluster::Cluster>& cluster) const;
    QDockWidget* addPanelDock(QWidget* panel, const QString& title, const QString& objectName, QDockWidget* tabWith);
    void createStatusBar();
    void restoreSettings();
    void saveSettings();
    // Welcome page, default dock layout, Panels menu, menu tips, shortcuts (mainwindowlayout.cpp).
    void finishWindow();
    void arrangeDocks();
    void buildPanelsMenu();
    void addHelpActions();
    void polishMenus();
    void showShortcuts();
    static bool isPanelNamed(const QDockWidget* dock, const QString& name);
    /// Saved next to the window state: states saved by an older default layout are replaced once.
    static int layoutVersion();
    void createWelcomePage();
    void setWelcomeVisible(bool visible);
    void placeWelcomePage();
    void openDemo();
    QList<widgets::welcome::RecentEntry> recentEntries() const;
    void recordRecentTime(const QString& path);
    void removeRecent(const QString& path);
    /// Drops the open folder's data from every panel while the controller clears the run.
    void clearRun();
    // Preferences, sessions and notes (mainwindowsession.cpp).
    void createNotesDock();
    void createSessionActions();
    void showPreferences();
    /// Keeps the open folder's view and notes in the settings.
    void saveRunView();
    /// A folder is being opened: its notes, and the view saved for it (docks and panel settings at once,
    /// ranges and selections once the data is in: finishRunView()).
    void beginRunView();
    void finishRunView();
    void showPendingTensor(int generation, int retries);
    void saveLastSession();

    void chooseFolder();
    void chooseFile();
    void reload();
    void exportChart();
    QString askExportFileName(widgets::ChartExporter::Format format, const QString& suggested);
    void about();
    void rebuildRecentMenu();
    void addRecent(const QString& path);

    /// Connects the panels to the session of the scanned folder before it starts.
    void connectSession(importers::ImportSession* session);
    void importFinished();
    void cancelImport();
    void activateArtifact(int artifactIndex);
    void openTrace(int artifactIndex);
    /// The traces of the other ranks of an artifact's run (itself included, by rank), when they can be
    /// shown together; empty when the artifact has no rank or the ranks are too many or too large.
    QList<int> rankSiblings(int artifactIndex, bool withinLimits = true) const;
    void showTrace(const QList<int>& artifactIndices, std::shared_ptr<const models::trace::TraceStore> store);
    /// Shows and raises a dock the user asked for: it stays in front of its group and is not hidden for
    /// want of content while this folder is open.
    void raiseDock(QDockWidget* dock);
    // Which docks show and which is in front, from what the folder holds (mainwindowpanels.cpp).
    void createPanelChoice();
    /// What the open folder has produced so far, counted for PanelChoice.
    models::ImportedContent importedContent() const;
    /// Applies the choice once the current burst of arrivals is over.
    void schedulePanelChoice();
    void applyPanelChoice();
    void notePanelPicked(QDockWidget* dock);
    void notePanelToggled(QDockWidget* dock, bool shown);
    void watchTabBars();
    /// The docks the user put in front, the latest first: what a saved view keeps.
    QStringList frontDocks() const;
    /// Reveals the graph node or module a tensor belongs to (a node id, a module path or a scope).
    void showNodeInGraph(const QString& key);
    void setBusy(bool busy, const QString& text = {});
    void notifyIdle();

    RunController* m_run;
    // The run controller's, kept at hand.
    models::scalars::ScalarStore* m_scalars;
    models::summary::SummaryStore* m_summaries;
    models::RunBrowserModel* m_runModel;
    widgets::runbrowser::RunBrowserWidget* m_runBrowser = nullptr;
    widgets::scalars::ScalarsPanel* m_scalarsPanel = nullptr;
    QDockWidget* m_runDock = nullptr;
    QDockWidget* m_scalarsDock = nullptr;
    models::TimeRangeModel* m_timeRange = nullptr;
    widgets::timeline::TimelinePanel* m_timelinePanel = nullptr;
    widgets::operators::OperatorsPanel* m_operatorsPanel = nullptr;
    widgets::steps::StepsPanel* m_stepsPanel = nullptr;
    QDockWidget* m_timelineDock = nullptr;
    QDockWidget* m_operatorsDock = nullptr;
    QDockWidget* m_stepsDock = nullptr;
    widgets::graph::GraphPanel* m_graphPanel = nullptr;
    widgets::graph::NodeDetailsWidget* m_nodeDetails = nullptr;
    QDockWidget* m_graphDock = nullptr;
    QDockWidget* m_nodeDetailsDock = nullptr;
    widgets::tensor::TensorPanel* m_tensorPanel = nullptr;
    QDockWidget* m_tensorDock = nullptr;
    widgets::distributions::DistributionsPanel* m_distributionsPanel = nullptr;
    QDockWidget* m_distributionsDock = nullptr;
    widgets::images::ImagesPanel* m_imagesPanel = nullptr;
    QDockWidget* m_imagesDock = nullptr;
    widgets::images::TextPanel* m_textPanel = nullptr;
    QDockWidget* m_textDock = nullptr;
    widgets::prcurves::PrCurvesPanel* m_prCurvesPanel = nullptr;
    QDockWidget* m_prCurvesDock = nullptr;
    widgets::compare::CompareRunsPanel* m_comparePanel = nullptr;
    QDockWidget* m_compareDock = nullptr;
    widgets::memory::MemoryPanel* m_memoryPanel = nullptr;
    QDockWidget* m_memoryDock = nullptr;
    std::shared_ptr<const models::memory::MemoryProfile> m_traceMemory; ///< of the trace(s) in the trace panels
    QMap<int, std::shared_ptr<const models::memory::MemoryProfile>> m_fileMemory; ///< by artifact
    QMap<int, std::shared_ptr<const models::memory::MemoryProfile>> m_traceMemoryByArtifact;
    QFutureWatcher<importers::memory::MemoryReadResult> m_traceMemoryWatcher;
    int m_traceMemoryGeneration = 0;
    widgets::overview::OverviewPanel* m_overviewPanel = nullptr;
    QDockWidget* m_overviewDock = nullptr;
    widgets::pipeline::DataPipelinePanel* m_pipelinePanel = nullptr;
    QDockWidget* m_pipelineDock = nullptr;
    widgets::cluster::ClusterPanel* m_clusterPanel = nullptr;
    QDockWidget* m_clusterDock = nullptr;
    widgets::system::SystemPanel* m_systemPanel = nullptr;
    QDockWidget* m_systemDock = nullptr;
    widgets::system::SystemTimelineLink* m_systemTimelineLink = nullptr;
    std::shared_ptr<const models::ProfilerBundle> m_profiler; ///< the run's profiler output in the docks
    QString m_profilerRun;
    QMap<QString, std::shared_ptr<const models::ProfilerBundle>> m_profilers; ///< every run's profiler output
    std::map<int, std::shared_ptr<const models::cluster::RankDigest>> m_rankDigests; ///< of the open folder, by rank
    bool m_digestClusterPending = false;
    QElapsedTimer m_lastDigestArrival; ///< when the last rank digest arrived
    static constexpr int kDigestQuietMs = 250;
    int m_rankTraceGeneration = 0;
    JobDigester* m_jobDigester = nullptr;
    QToolButton* m_digestCancelButton = nullptr;
    QList<int> m_digestedJob; ///< the trace artifacts the Cluster's digests were made of (digestJobRanks)
    widgets::advisor::AdvisorPanel* m_advisorPanel = nullptr;
    QDockWidget* m_advisorDock = nullptr;
    QTimer* m_advisorTimer = nullptr;
    models::advisor::RuleBook m_builtInRules;
    models::advisor::RuleBook m_rulesBase; ///< built in plus the user's rule files, before the pane's edits
    models::advisor::RuleBook m_rules; ///< in effect
    std::vector<models::advisor::GraphInput> m_advisorGraphs; ///< every graph read, for the rules
    /// The Accuracy panel's last finished comparison, for the rules over it; null when there is none.
    std::shared_ptr<const models::accuracy::CompareResult> m_advisorComparison;
    std::shared_ptr<std::atomic_bool> m_advisorCancel;
    int m_advisorGeneration = 0;
    bool m_advisorRunning = false;
    QFutureWatcher<std::shared_ptr<const models::trace::StepBreakdown>> m_breakdownWatcher;
    int m_breakdownGeneration = 0;
    QDockWidget* m_sourceDock = nullptr;
    widgets::accuracy::AccuracyPanel* m_accuracyPanel = nullptr;
    QDockWidget* m_accuracyDock = nullptr;
    widgets::projector::ProjectorPanel* m_projectorPanel = nullptr;
    QDockWidget* m_projectorDock = nullptr;
    NotesPanel* m_notesPanel = nullptr;
    QDockWidget* m_notesDock = nullptr;
    std::unique_ptr<RunView> m_pendingView; ///< what of the opened folder's saved view is still to restore
    int m_viewGeneration = 0;
    widgets::SourceView* m_sourceView = nullptr;
    QList<int> m_currentTraces; ///< artifacts shown in the trace panels: one, or the ranks of a run
    QAction* m_combineRanksAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_panelsMenu = nullptr;
    widgets::welcome::WelcomePage* m_welcome = nullptr;
    QLabel* m_statusText = nullptr;
    QLabel* m_liveLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancelButton = nullptr;

    std::vector<std::function<void()>> m_idleCallbacks;
    QTimer* m_panelTimer = nullptr;
    QStringList m_pickedDocks; ///< put in front by the user (saved view, then since opening), latest first
    QStringList m_shownByUser; ///< shown by the user for this folder: never hidden for want of content
    QStringList m_closedByUser; ///< closed by the user: never shown for content (kept in the settings)
    QStringList m_onScreen; ///< docks visible now, each the current tab of its group
    bool m_arrangingPanels = false;
};

} // namespace runlens::app
