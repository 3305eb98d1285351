#include "app/jobdigester.h"

#include "importers/cluster/rankdigestfile.h"
#include "models/core/workerpool.h"

#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>

namespace runlens::app {

/// One job's: shared with its tasks, so a dropped job's tasks still find their cancel flag.
struct JobDigester::State
{
    std::atomic_bool cancel { false };
    std::vector<std::shared_ptr<const models::cluster::RankDigest>> digests;
    QStringList problems;
    int returned = 0;
    int digested = 0;
    int total = 0;
};

namespace {

struct TaskResult
{
    importers::cluster::RankDigestResult read;
    bool skipped = false; ///< cancelled before or while reading
};

} // namespace

JobDigester::JobDigester(QObject* parent)
    : QObject(parent)
    , m_busy(std::make_shared<std::atomic_int>(0))
{ }

JobDigester::~JobDigester()
{
    discard();
    waitForTasks();
}

int JobDigester::busyTasks() const
{
    return m_busy->load();
}

void JobDigester::waitForTasks() const
{
    // The tasks never wait for this thread, so polling cannot deadlock; each returns within milliseconds
    // of its cancel flag.
    while (m_busy->load() > 0)
        QThread::msleep(2);
}

void JobDigester::start(const QList<Rank>& ranks)
{
    discard();
    auto state = std::make_shared<State>();
    m_state = state;
    state->total = int(ranks.size());
    state->digests.resize(std::size_t(ranks.size()));
    m_running = true;
    if (ranks.isEmpty()) {
        m_running = false;
        emit finished({}, {}, false, 0);
        return;
    }
    // The pool's workers take the ranks in order: the one a worker takes after rank k is about k + workers.
    const int workers = std::max(1, models::workerPool()->maxThreadCount());
    for (int k = 0; k < int(ranks.size()); ++k) {
        const Rank rank = ranks[k];
        const QString readNext = k + workers < int(ranks.size()) ? ranks[k + workers].path : QString();
        QtConcurrent::run(models::workerPool(), [state, rank, readNext, busy = m_busy] {
            TaskResult result;
            if (state->cancel.load()) {
                result.skipped = true;
                return result;
            }
            ++*busy;
            importers::ImportControl control;
            control.cancel = &state->cancel;
            result.read = importers::cluster::digestTraceFile(rank.path, {}, control, readNext);
            // The scanner's rank (the file, else its name or folder) is the one the Run Browser shows.
            if (result.read.digest && rank.rank >= 0 && result.read.digest->rank() != rank.rank) {
                auto renumbered = std::make_shared<models::cluster::RankDigest>(*result.read.digest);
                renumbered->figures.rank = rank.rank;
                result.read.digest = std::move(renumbered);
            }
            result.skipped = !result.read.digest && state->cancel.load();
            --*busy;
            return result;
        }).then(this, [this, state, k](TaskResult result) {
            if (state != m_state)
                return; // a dropped job
            ++state->returned;
            if (result.read.digest) {
                state->digests[std::size_t(k)] = std::move(result.read.digest);
                ++state->digested;
            } else if (!result.skipped) {
                state->problems << result.read.error;
            }
            emit progress(state->returned, state->total);
            if (state->returned < state->total)
                return;
            DigestList digests;
            for (auto& digest : state->digests) {
                if (digest)
                    digests.push_back(std::move(digest));
            }
            m_running = false;
            const bool cancelled = state->cancel.load() && state->digested < state->total;
            emit finished(digests, state->problems, cancelled, state->total);
        });
    }
}

void JobDigester::cancel()
{
    if (m_state)
        m_state->cancel.store(true);
}

void JobDigester::discard()
{
    if (m_state)
        m_state->cancel.store(true);
    m_state.reset();
    m_running = false;
}

} // namespace runlens::app
