#pragma once

#include "models/cluster/rankdigest.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

namespace runlens::app {

/// Digests the ranks of a job too big to combine, one rank per task on the worker pool (each task holds one
/// rank's store while it runs), with progress per rank and cancel. Cancel stops the tasks promptly (the one
/// reading a trace stops within milliseconds, the ones not started do nothing) and keeps the ranks already
/// digested: finished() then says cancelled, with what was done.
class JobDigester final : public QObject
{
    Q_OBJECT
public:
    struct Rank
    {
        QString path; ///< the rank's trace
        int rank = -1; ///< the rank the Run Browser shows (replaces the trace's own when >= 0)
    };
    using DigestList = std::vector<std::shared_ptr<const models::cluster::RankDigest>>;

    explicit JobDigester(QObject* parent = nullptr);
    /// Cancels and waits for the tasks still running (each stops within milliseconds).
    ~JobDigester() override;

    /// Starts digesting `ranks`; a job still running is dropped first (see discard()).
    void start(const QList<Rank>& ranks);
    /// Stops the tasks; finished() follows once every task has returned, with the ranks digested so far.
    void cancel();
    /// Stops the tasks and drops what they make: no more signals of this job.
    void discard();
    bool isRunning() const { return m_running; }
    /// Tasks inside a rank's digest right now (dropped jobs' too); 0 once every task returned.
    int busyTasks() const;
    /// Blocks until no task is busy (tests, and the destructor).
    void waitForTasks() const;

signals:
    /// A rank finished (digested or failed): `done` of `total`.
    void progress(int done, int total);
    /// Every task returned. `digests` in the order of the ranks given (failed and skipped ranks left out);
    /// `cancelled` when cancel() stopped the job before every rank was digested.
    void finished(const runlens::app::JobDigester::DigestList& digests, const QStringList& problems, bool cancelled,
                  int total);

private:
    struct State;
    std::shared_ptr<State> m_state;
    /// Tasks inside a rank's digest, over every job of this digester (a dropped job's until they return).
    std::shared_ptr<std::atomic_int> m_busy;
    bool m_running = false;
};

} // namespace runlens::app
