#include "models/core/workerpool.h"

#include <QDeadlineTimer>
#include <QMutex>
#include <QSemaphore>
#include <QSet>
#include <QThread>
#include <QThreadPool>
#include <QtTest>

#include <algorithm>
#include <cerrno>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace runlens;
using namespace runlens::models;

namespace {

int niceOfThisThread()
{
    errno = 0;
    const int value = getpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)));
    return errno == 0 ? value : -100;
}

} // namespace

class TestWorkerPool : public QObject
{
    Q_OBJECT
private slots:
    void everyWorkerYieldsToTheGuiThread()
    {
        // Twice as many jobs as threads, each holding its thread until all threads are busy: every thread
        // the pool has runs one, and every one of them runs nicer than this (the GUI) thread.
        const int gui = niceOfThisThread();
        QVERIFY(gui > -100);
        QThreadPool* pool = workerPool();
        const int threads = pool->maxThreadCount();
        QVERIFY(threads >= 1);
        QMutex mutex;
        QSet<qint64> threadIds;
        QList<int> nices;
        QSemaphore busy;
        for (int i = 0; i < 2 * threads; ++i) {
            pool->start([&] {
                {
                    QMutexLocker lock(&mutex);
                    threadIds.insert(qint64(syscall(SYS_gettid)));
                    nices.append(niceOfThisThread());
                }
                busy.release();
                // Hold the thread until one job per thread has started, so each thread takes one.
                const QDeadlineTimer deadline(10000);
                while (busy.available() < threads && !deadline.hasExpired())
                    QThread::msleep(1);
            });
        }
        QVERIFY(pool->waitForDone(30000));
        QCOMPARE(nices.size(), 2 * threads);
        QCOMPARE(threadIds.size(), threads);
        const int expected = std::min(gui + 5, 19);
        for (int nice : std::as_const(nices))
            QCOMPARE(nice, expected);
        QCOMPARE(niceOfThisThread(), gui);
    }
};

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "tst_workerpool.moc"
