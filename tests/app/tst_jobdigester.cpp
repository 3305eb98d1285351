#include "app/jobdigester.h"
#include "tests/importers/cluster/kinetorankfixture.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace runlens;
using namespace runlens::app;

Q_DECLARE_METATYPE(runlens::app::JobDigester::DigestList)

namespace {

constexpr int kRanks = 16;

/// `laterSteps`: the steps of every rank but the first, which has 40. Long later ranks keep a cancel made
/// when the first rank is in from racing the workers through the whole job.
QList<JobDigester::Rank> writeJob(const QString& dir, int laterSteps = 40)
{
    QList<JobDigester::Rank> ranks;
    for (int r = 0; r < kRanks; ++r) {
        const QString path = QDir(dir).filePath(QStringLiteral("rank%1.pt.trace.json").arg(r));
        if (!test::writeKinetoRankFixture(path, r, kRanks, r == 0 ? 40 : laterSteps))
            return {};
        ranks.append({ path, r });
    }
    return ranks;
}

} // namespace

class TstJobDigester : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { qRegisterMetaType<JobDigester::DigestList>(); }
    void digestsEveryRank();
    void cancelKeepsTheRanksDigested();
    void discardDropsTheJob();
};

void TstJobDigester::digestsEveryRank()
{
    QTemporaryDir dir;
    const QList<JobDigester::Rank> ranks = writeJob(dir.path());
    QCOMPARE(int(ranks.size()), kRanks);
    JobDigester digester;
    QSignalSpy progress(&digester, &JobDigester::progress);
    QSignalSpy finished(&digester, &JobDigester::finished);
    digester.start(ranks);
    QVERIFY(digester.isRunning());
    QVERIFY(finished.wait(60000));
    QCOMPARE(progress.count(), kRanks);
    QCOMPARE(progress.last().at(0).toInt(), kRanks);
    const auto digests = finished.front().at(0).value<JobDigester::DigestList>();
    QCOMPARE(int(digests.size()), kRanks);
    for (int r = 0; r < kRanks; ++r)
        QCOMPARE(digests[std::size_t(r)]->rank(), r);
    QVERIFY(finished.front().at(1).toStringList().isEmpty());
    QCOMPARE(finished.front().at(2).toBool(), false);
    QVERIFY(!digester.isRunning());
    QCOMPARE(digester.busyTasks(), 0);
}

void TstJobDigester::cancelKeepsTheRanksDigested()
{
    QTemporaryDir dir;
    const QList<JobDigester::Rank> ranks = writeJob(dir.path(), 20000);
    QCOMPARE(int(ranks.size()), kRanks);
    JobDigester digester;
    QSignalSpy finished(&digester, &JobDigester::finished);
    QElapsedTimer sinceCancel;
    // Cancelled as soon as the first rank is in: the ranks being read stop, the ones queued never start.
    connect(&digester, &JobDigester::progress, this, [&](int done) {
        if (done == 1) {
            digester.cancel();
            sinceCancel.start();
        }
    });
    digester.start(ranks);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.count(), 1);
    QVERIFY2(sinceCancel.elapsed() < 10000, qPrintable(QString::number(sinceCancel.elapsed())));
    const auto digests = finished.front().at(0).value<JobDigester::DigestList>();
    QCOMPARE(finished.front().at(2).toBool(), true); // cancelled
    QCOMPARE(finished.front().at(3).toInt(), kRanks);
    QVERIFY(!digests.empty());
    QVERIFY2(int(digests.size()) < kRanks, qPrintable(QString::number(digests.size())));
    // A cancelled rank is no problem to report, and each rank kept is whole and once.
    QVERIFY(finished.front().at(1).toStringList().isEmpty());
    std::set<int> seen;
    for (const auto& digest : digests) {
        QVERIFY(digest);
        QVERIFY(!digest->steps.empty());
        QVERIFY(seen.insert(digest->rank()).second);
    }
    // No worker is left inside a rank once finished() said so.
    QCOMPARE(digester.busyTasks(), 0);
    QVERIFY(!digester.isRunning());
    QTest::qWait(50);
    QCOMPARE(finished.count(), 1);
}

void TstJobDigester::discardDropsTheJob()
{
    QTemporaryDir dir;
    const QList<JobDigester::Rank> ranks = writeJob(dir.path());
    JobDigester digester;
    QSignalSpy progress(&digester, &JobDigester::progress);
    QSignalSpy finished(&digester, &JobDigester::finished);
    digester.start(ranks);
    // A rank done before its continuation is attached reports at once, inside start(): count from here.
    const int reported = int(progress.count());
    QVERIFY(reported < kRanks);
    digester.discard();
    QVERIFY(!digester.isRunning());
    digester.waitForTasks();
    QCOMPARE(digester.busyTasks(), 0);
    QTest::qWait(200);
    QCOMPARE(finished.count(), 0);
    QCOMPARE(int(progress.count()), reported);
}

QTEST_MAIN(TstJobDigester)
#include "tst_jobdigester.moc"
