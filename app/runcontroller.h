#pragma once

#include "core/panelchoice.h"
#include "core/runmanifest.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>

#include <atomic>
#include <memory>
#include <vector>

class QTimer;

namespace runlens {

class ImportSession;
class RunBrowserModel;
class ScalarStore;
namespace summary {
class SummaryStore;
}
namespace tensor {
class TensorCatalog;
}
namespace graph {
class DumpIndex;
}

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

    ScalarStore* scalars() const { return m_scalars; }
    summary::SummaryStore* summaries() const { return m_summaries; }
    RunBrowserModel* runModel() const { return m_runModel; }
    /// The import of the open run; null while scanning and when nothing is open.
    ImportSession* session() const { return m_session; }
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

    std::shared_ptr<const tensor::TensorCatalog> catalog() const { return m_catalog; }
    std::shared_ptr<const graph::DumpIndex> dumps() const { return m_dumps; }
    /// What the run has produced so far, as far as the stores, the catalog and the session know it. The
    /// counts only the panels know (trace steps, profiler ranks, pipelines, cluster, memory, findings, notes,
    /// comparable runs) are left at zero for the window to fill in.
    ImportedContent importedContent() const;

signals:
    /// The session of the scanned run exists and has not started: connect to it now.
    void sessionCreated(runlens::ImportSession* session);
    /// The session started reading.
    void importStarted(const runlens::RunManifest& manifest);
    /// The scan found nothing to import (no session starts; the run counts as read).
    void nothingToImport(const runlens::RunManifest& manifest);
    /// The session finished what it was started with (live tailing may go on).
    void importFinished();
    /// The tensor catalog and the dump index of the run, read from the tensor files' headers.
    void catalogReady(std::shared_ptr<const runlens::tensor::TensorCatalog> catalog,
                      std::shared_ptr<const runlens::graph::DumpIndex> dumps);
    /// The session is gone and the stores are about to be cleared: panels let go of the run's data now.
    void runCleared();

private:
    void startScan(QFutureWatcher<RunManifest>& watcher);
    void scanFinished();
    void rescan();
    void rescanFinished();
    void startImport(const RunManifest& manifest);

    ScalarStore* m_scalars;
    summary::SummaryStore* m_summaries;
    RunBrowserModel* m_runModel;
    QPointer<ImportSession> m_session;
    QString m_path;
    std::shared_ptr<const tensor::TensorCatalog> m_catalog;
    std::shared_ptr<const graph::DumpIndex> m_dumps;
    int m_graphs = 0;
    int m_generation = 0; ///< counts clears: work started for an earlier run is dropped when it ends
    std::vector<std::shared_ptr<const void>> m_released;

    QFutureWatcher<RunManifest> m_scanWatcher;
    QFutureWatcher<RunManifest> m_rescanWatcher;
    QTimer* m_rescanTimer = nullptr;
    QElapsedTimer m_scanClock;
    qint64 m_lastScanMs = 0;
    std::shared_ptr<std::atomic_bool> m_scanCancel;
    bool m_scanning = false;
};

} // namespace runlens
