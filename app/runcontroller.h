#pragma once

#include "models/core/panelchoice.h"
#include "models/core/runmanifest.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QMap>
#include <QObject>
#include <QPointer>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace runlens::importers {
class ImportSession;
}
namespace runlens::models {
class RunBrowserModel;
struct ProfilerBundle;
} // namespace runlens::models
namespace runlens::models::graph {
class DumpIndex;
}
namespace runlens::models::scalars {
class ScalarStore;
}
namespace runlens::models::summary {
class SummaryStore;
}
namespace runlens::models::tensor {
class TensorCatalog;
}

namespace runlens::app {

/// Where an Advisor evidence locator leads: the panel to bring to the front, what to select in it, and what to
/// say in the status bar. A value computed by RunController::routeEvidence(); the window applies it.
struct EvidenceRoute
{
    enum class Target {
        None, ///< nothing to show: only `message`
        Scalars,
        Distributions,
        Tensors,
        Graph,
        Timeline,
        Memory,
        Overview,
        Pipeline,
        Cluster,
        Accuracy,
        System,
    };

    Target target = Target::None;
    QString message; ///< for the status bar once applied; empty for none
    QString tag; ///< Scalars, Distributions: the tag to filter on and to mark or expand
    QString tagFilter; ///< the filter matching `tag` alone
    std::optional<qint64> step; ///< Scalars: the step to mark
    QString tensorLocation; ///< Tensors: the version to show ("path" or "path:member")
    QString failureMessage; ///< Tensors: said when the panel cannot show `tensorLocation`
    QString node; ///< Graph: node or module to reveal
    bool hasTimeRange = false; ///< Timeline: show visibleStart..visibleEnd, select selectionStart..selectionEnd
    qint64 visibleStart = 0;
    qint64 visibleEnd = 0;
    qint64 selectionStart = 0;
    qint64 selectionEnd = 0;
    QString op; ///< Timeline: operator whose calls to highlight
    QString device; ///< Memory: text of the device entry to select; the view then goes to its peak
    QString profilerRun; ///< Overview, Pipeline: the profiler run to show; empty to keep the shown one
    int rankIndex = -1; ///< Overview, Pipeline: index of the rank in the run's profiler data
    std::optional<int> pipelineRank; ///< Overview, Pipeline: the rank to show in the Data Pipeline
    QString compareRow; ///< Accuracy: the row of the comparison to select (CompareRow::name)
    QString systemRun; ///< System: the run (host or rank) to show in detail
    double wallStart = 0.0; ///< System: the wall-time range to show and mark (s since the epoch); none when
    double wallEnd = -1.0; ///< wallEnd < wallStart
};

/// The open run without its window: scans a path on a worker, imports what was found through an
/// ImportSession into the scalar and summary stores and the Run Browser model, builds the tensor catalog and
/// the dump index, scans again now and then for files a running job adds, and counts what arrived for
/// PanelChoice. It owns the stores, the model and the session; the main window connects its panels to the
/// signals below and draws. Tests drive it without a window.
///
/// Opening a path or clearing drops the previous session at once: nothing of a run arrives after another
/// was opened.
class RunController final : public QObject
{
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    models::scalars::ScalarStore* scalars() const { return m_scalars; }
    models::summary::SummaryStore* summaries() const { return m_summaries; }
    models::RunBrowserModel* runModel() const { return m_runModel; }
    /// The import of the open run; null while scanning and when nothing is open.
    importers::ImportSession* session() const { return m_session; }
    /// The absolute path opened last; empty when nothing is open.
    QString path() const { return m_path; }
    bool isScanning() const { return m_scanning; }
    /// Scanning, or the session reading something.
    bool isBusy() const;

    /// Clears what is open and scans `path` (absolute), then imports it.
    void open(const QString& path);
    /// Drops the open run's data: the session, the stores, the catalog; the path stays.
    void clear();
    /// Clears and forgets the path.
    void close();
    /// Stops the scan and the import; what arrived stays.
    void cancel();
    /// Stops the scan and deletes the session, leaving the stores as they are: for a window going away, whose
    /// panels still show them.
    void dropSession();
    /// Keeps `objects` alive until the run is cleared, then drops the last references on a worker: freeing a
    /// gigabyte trace store or a large graph keeps a thread busy for tens of milliseconds. Called by those who
    /// let go of large results while runCleared() is delivered.
    void releaseOnWorker(std::vector<std::shared_ptr<const void>> objects);

    std::shared_ptr<const models::tensor::TensorCatalog> catalog() const { return m_catalog; }
    std::shared_ptr<const models::graph::DumpIndex> dumps() const { return m_dumps; }
    /// What the run has produced so far, as far as the stores, the catalog and the session know it. The
    /// counts only the panels know (trace steps, profiler ranks, pipelines, cluster, memory, findings, notes,
    /// comparable runs) are left at zero for the window to fill in.
    models::ImportedContent importedContent() const;

    /// Every run's MindSpore profiler output read so far, by run.
    const QMap<QString, std::shared_ptr<const models::ProfilerBundle>>& profilers() const { return m_profilers; }
    /// The profiler run the window shows (the first one read until another is picked); empty for none.
    QString shownProfilerRun() const { return m_shownProfilerRun; }
    void setShownProfilerRun(const QString& run) { m_shownProfilerRun = run; }
    /// Whether the window shows a trace in the Timeline; cleared with the run.
    bool isTraceShown() const { return m_traceShown; }
    void setTraceShown(bool shown) { m_traceShown = shown; }

    /// "job/rank_3" -> "job": the part of a run name that the ranks of one job share.
    static QString runWithoutRankFolders(const QString& run);
    /// The name a user sees for the job of the artifact at `artifactIndex`: its run without rank folders, the
    /// opened folder's own run named as runDisplayName() does (`job/profiler` opened alone is "job").
    QString jobDisplayName(int artifactIndex) const;

    /// Where the evidence `locator` (advisor/evidence.h) leads with what is open now.
    EvidenceRoute routeEvidence(const QString& locator) const;

signals:
    /// The session of the scanned run exists and has not started: connect to it now.
    void sessionCreated(runlens::importers::ImportSession* session);
    /// The session started reading.
    void importStarted(const runlens::models::RunManifest& manifest);
    /// The scan found nothing to import (no session starts; the run counts as read).
    void nothingToImport(const runlens::models::RunManifest& manifest);
    /// The session finished what it was started with (live tailing may go on).
    void importFinished();
    /// The tensor catalog and the dump index of the run, read from the tensor files' headers.
    void catalogReady(std::shared_ptr<const runlens::models::tensor::TensorCatalog> catalog,
                      std::shared_ptr<const runlens::models::graph::DumpIndex> dumps);
    /// The session is gone and the stores are about to be cleared: panels let go of the run's data now.
    void runCleared();

private:
    void startScan(QFutureWatcher<models::RunManifest>& watcher);
    void scanFinished();
    void rescan();
    void rescanFinished();
    void startImport(const models::RunManifest& manifest);

    models::scalars::ScalarStore* m_scalars;
    models::summary::SummaryStore* m_summaries;
    models::RunBrowserModel* m_runModel;
    QPointer<importers::ImportSession> m_session;
    QString m_path;
    std::shared_ptr<const models::tensor::TensorCatalog> m_catalog;
    std::shared_ptr<const models::graph::DumpIndex> m_dumps;
    int m_graphs = 0;
    QMap<QString, std::shared_ptr<const models::ProfilerBundle>> m_profilers;
    QString m_shownProfilerRun;
    bool m_traceShown = false;
    int m_generation = 0; ///< counts clears: work started for an earlier run is dropped when it ends
    std::vector<std::shared_ptr<const void>> m_released;

    QFutureWatcher<models::RunManifest> m_scanWatcher;
    QFutureWatcher<models::RunManifest> m_rescanWatcher;
    QTimer* m_rescanTimer = nullptr;
    QElapsedTimer m_scanClock;
    qint64 m_lastScanMs = 0;
    std::shared_ptr<std::atomic_bool> m_scanCancel;
    bool m_scanning = false;
};

} // namespace runlens::app
