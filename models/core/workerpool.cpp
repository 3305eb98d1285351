#include "models/core/workerpool.h"

#include <QCoreApplication>
#include <QSemaphore>
#include <QThreadPool>

#include <algorithm>
#include <cerrno>
#include <memory>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace runlens::models {

namespace {

/// How much nicer than the thread that made the pool (the GUI thread) the workers run.
constexpr int kWorkerNice = 5;

/// Background work yields the CPU to the GUI thread: with every core busy importing, a 1 ms timer on the
/// GUI thread otherwise waits behind our own workers. On Linux the nice value belongs to each thread, and
/// raising it needs no privilege. QThread's priorities do nothing under the default scheduling policy.
void lowerThisThreadsPriority()
{
#ifdef __linux__
    const auto tid = id_t(syscall(SYS_gettid));
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, tid);
    if (errno == 0)
        setpriority(PRIO_PROCESS, tid, std::min(current + kWorkerNice, 19));
#endif
}

QThreadPool* createPool()
{
    auto* pool = new QThreadPool;
    // Every thread is started here, lowers its own priority and never expires, so no job ever runs on a
    // thread of normal priority. Each start-up job waits for the others, which makes them distinct threads.
    pool->setExpiryTimeout(-1);
    const int threads = std::max(1, pool->maxThreadCount());
    auto started = std::make_shared<QSemaphore>();
    auto proceed = std::make_shared<QSemaphore>();
    for (int i = 0; i < threads; ++i) {
        pool->start([started, proceed] {
            lowerThisThreadsPriority();
            started->release();
            proceed->acquire();
        });
    }
    started->acquire(threads);
    proceed->release(threads);
    // As Qt does for its global pool: jobs end while the application object still exists.
    qAddPostRoutine([] { workerPool()->waitForDone(); });
    return pool;
}

} // namespace

QThreadPool* workerPool()
{
    // Never deleted: a job may still be queued when static objects are torn down.
    static QThreadPool* const pool = createPool();
    return pool;
}

} // namespace runlens::models
