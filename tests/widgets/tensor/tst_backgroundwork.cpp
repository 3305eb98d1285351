#include "widgets/tensor/backgroundwork.h"

#include <QtTest>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <thread>

using namespace runlens::widgets::tensor;

namespace {

int threadNice()
{
    return getpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)));
}

} // namespace

class TestBackgroundWork : public QObject
{
    Q_OBJECT
private slots:
    void runsLoweredAndLeavesTheCallerAsItWas()
    {
        const int before = threadNice();
        int inside = -100;
        int child = -100;
        bool ran = false;
        runAtBackgroundPriority([&] {
            ran = true;
            inside = threadNice();
            // Threads the work starts share its priority.
            std::thread worker([&child] { child = threadNice(); });
            worker.join();
        });
        QVERIFY(ran);
        QCOMPARE(inside, std::max(before, 10));
        QCOMPARE(child, inside);
        QCOMPARE(threadNice(), before);
    }
};

QTEST_GUILESS_MAIN(TestBackgroundWork)
#include "tst_backgroundwork.moc"
