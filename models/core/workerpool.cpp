#include "models/core/workerpool.h"

#include <QCoreApplication>
#include <QThreadPool>

namespace runlens {

namespace {

QThreadPool* createPool()
{
    auto* pool = new QThreadPool;
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

} // namespace runlens
