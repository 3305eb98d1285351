#include "models/cluster/clusterviews.h"
#include "models/cluster/rankfilter.h"
#include "tests/models/cluster/syntheticdigests.h"

#include <QtTest>

#include <cmath>

using namespace runlens;
using namespace runlens::models::cluster;

namespace {

RankFigures rankWithSteps(int rank, std::vector<std::pair<std::int64_t, double>> steps)
{
    RankFigures f;
    f.rank = rank;
    for (const auto& [step, time] : steps) {
        RankStep s;
        s.step = step;
        s.stepTime = time;
        s.communication = time / 10;
        s.idle = 1;
        f.steps.push_back(s);
    }
    return f;
}

std::vector<std::shared_ptr<const RankDigest>> digestsOf(const models::cluster::synthetic::JobShape& job)
{
    std::vector<std::shared_ptr<const RankDigest>> digests;
    for (int r = 0; r < job.worldSize; ++r)
        digests.push_back(std::make_shared<const RankDigest>(models::cluster::synthetic::makeDigest(job, r)));
    return digests;
}

} // namespace

class TestClusterViews : public QObject
{
    Q_OBJECT
private slots:
    void matrixHasOneValuePerCell()
    {
        Cluster c;
        c.ranks.push_back(rankWithSteps(0, { { 1, 10 }, { 2, 12 }, { 3, 11 } }));
        c.ranks.push_back(rankWithSteps(1, { { 2, 30 }, { 3, 9 } })); // no step 1
        c.ranks.push_back(rankWithSteps(4, { { 1, 14 }, { 2, 13 }, { 3, 10 } }));
        const RankStepMatrix m = buildRankStepMatrix(c, StepMetric::StepTime);
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.columnCount(), 3);
        QCOMPARE(m.ranks, (std::vector<int> { 0, 1, 4 }));
        QCOMPARE(m.steps, (std::vector<std::int64_t> { 1, 2, 3 }));
        QCOMPARE(m.value(0, 1), 12.0f);
        QVERIFY(std::isnan(m.value(1, 0)));
        QCOMPARE(m.value(1, 1), 30.0f);
        QCOMPARE(m.value(2, 0), 14.0f);
        QCOMPARE(m.low, 9.0);
        QCOMPARE(m.high, 30.0);
        // Medians per step over the ranks that have it: step 1 of two ranks is their mean.
        QCOMPARE(m.stepMedians[0], 12.0f);
        QCOMPARE(m.stepMedians[1], 13.0f);
        QCOMPARE(m.stepMedians[2], 10.0f);
        QCOMPARE(m.rankMeans[1], 19.5);
        QCOMPARE(m.rowOrder(true), (std::vector<int> { 1, 2, 0 }));
        QCOMPARE(m.rowOrder(false), (std::vector<int> { 0, 1, 2 }));
        QCOMPARE(m.rowOfRank(4), 2);
        QCOMPARE(m.rowOfRank(3), -1);

        const RankStepMatrix wait = buildRankStepMatrix(c, StepMetric::WaitTime);
        QCOMPARE(wait.value(1, 1), 4.0f); // 30 / 10 + 1
    }

    void matrixOfRanksWithDifferentSteps()
    {
        // Steps out of order, missing, twice, and with gaps (not consecutive): each cell is the first value
        // of its rank and step, the medians span every block of columns.
        Cluster c;
        std::vector<std::pair<std::int64_t, double>> many;
        for (int s = 0; s < 150; ++s)
            many.push_back({ s * 2, 100.0 + s });
        c.ranks.push_back(rankWithSteps(0, many));
        c.ranks.push_back(rankWithSteps(1, { { 298, 7 }, { 4, 5 }, { 4, 99 }, { 301, 6 } }));
        c.ranks.push_back(rankWithSteps(2, { { 4, 3 }, { 0, 1 } }));
        const RankStepMatrix m = buildRankStepMatrix(c, StepMetric::StepTime);
        QCOMPARE(m.columnCount(), 151);
        QCOMPARE(m.steps.back(), std::int64_t(301));
        QCOMPARE(m.value(1, 2), 5.0f); // step 4, the first of two
        QCOMPARE(m.value(1, 149), 7.0f);
        QCOMPARE(m.value(1, 150), 6.0f);
        QVERIFY(std::isnan(m.value(0, 150)));
        QCOMPARE(m.value(2, 0), 1.0f);
        QCOMPARE(m.stepMedians[2], 5.0f); // 102, 5, 3
        QCOMPARE(m.stepMedians[0], 50.5f); // 100, 1
        QCOMPARE(m.stepMedians[149], 128.0f); // 249, 7: in the third block of columns
        QCOMPARE(m.stepMedians[150], 6.0f);
    }

    void slowestRankPerStep()
    {
        Cluster c;
        c.ranks.push_back(rankWithSteps(0, { { 1, 10 }, { 2, 20 }, { 3, 11 } }));
        c.ranks.push_back(rankWithSteps(1, { { 1, 15 }, { 2, 12 }, { 3, 16 } }));
        c.ranks.push_back(rankWithSteps(2, { { 1, 11 }, { 2, 13 }, { 3, 16 } }));
        const SlowestRanks s = models::cluster::slowestRankPerStep(buildRankStepMatrix(c, StepMetric::StepTime));
        QCOMPARE(s.steps.size(), std::size_t(3));
        QCOMPARE(s.steps[0].rank, 1);
        QCOMPARE(s.steps[0].value, 15.0);
        QCOMPARE(s.steps[0].median, 11.0);
        QCOMPARE(s.steps[1].rank, 0);
        QCOMPARE(s.steps[2].rank, 1); // a tie goes to the lower rank
        QCOMPARE(s.counts.size(), std::size_t(2));
        QCOMPARE(s.counts[0].rank, 1);
        QCOMPARE(s.counts[0].steps, 2);
        QCOMPARE(s.counts[0].excess, 4.0 + 0.0);
        QCOMPARE(s.counts[1].rank, 0);
        QCOMPARE(s.counts[1].excess, 7.0);
    }

    void syntheticSlowRankIsTheStraggler()
    {
        models::cluster::synthetic::JobShape job;
        job.worldSize = 32;
        job.steps = 30;
        job.slowRanks = { 21 };
        const auto digests = digestsOf(job);
        const Cluster c = clusterFromDigests(digests);
        const ClusterViews views = computeClusterViews(c, digests);
        QCOMPARE(views.stepTime->rowCount(), 32);
        QCOMPARE(views.stepTime->columnCount(), 30);
        // Everyone waits for rank 21, so step times are nearly equal, but rank 21 waits least.
        const RankStepMatrix& wait = *views.waitTime;
        const int row = wait.rowOfRank(21);
        QCOMPARE(wait.rowOrder(true).back(), row);
        QVERIFY(!views.slowest.counts.empty());
    }

    void groupsFromTwoProcessGroups()
    {
        models::cluster::synthetic::JobShape job;
        job.worldSize = 16;
        job.steps = 10;
        job.slowRanks = { 5 };
        const std::vector<CommGroup> groups = inferCommGroups(digestsOf(job));
        // Two tensor parallel groups (one per node of 8) and eight data parallel groups (one per local rank).
        QCOMPARE(groups.size(), std::size_t(10));
        int tp = 0;
        for (const CommGroup& g : groups) {
            QVERIFY(!g.inferred);
            QCOMPARE(g.collectives, 10);
            if (g.ranks.size() == 8) {
                ++tp;
                const bool first = g.ranks.front() == 0;
                QCOMPARE(formatRankRanges(g.ranks), first ? QStringLiteral("0-7") : QStringLiteral("8-15"));
                QCOMPARE(g.declaredRanks,
                         first ? QStringLiteral("[0, 1, 2, 3, 4, 5, 6, 7]")
                               : QStringLiteral("[8, 9, 10, 11, 12, 13, 14, 15]"));
                if (first) {
                    // Rank 5 computes 25 % longer: the others wait for it in the tensor parallel all-reduce.
                    QCOMPARE(g.slowestRank, 5);
                    QVERIFY(g.linkLate == 5);
                    QVERIFY(g.linkWaiter != 5);
                    QVERIFY(g.linkWait > 40.0); // at least one step of about 45 ms
                }
            } else {
                QCOMPARE(g.ranks.size(), std::size_t(2));
                QVERIFY(g.totalTime > 0);
            }
        }
        QCOMPARE(tp, 2);
        // The data parallel group of local rank 5 waits for rank 5 too.
        const auto dp5 = std::find_if(groups.begin(), groups.end(), [](const CommGroup& g) {
            return g.ranks == std::vector<int> { 5, 13 };
        });
        QVERIFY(dp5 != groups.end());
        QCOMPARE(dp5->slowestRank, 5);
        QCOMPARE(dp5->linkWaiter, 13);
        QCOMPARE(dp5->linkLate, 5);
    }

    void groupsInferredFromSequences()
    {
        models::cluster::synthetic::JobShape job;
        job.worldSize = 16;
        job.steps = 4;
        job.namedGroups = false;
        const std::vector<CommGroup> groups = inferCommGroups(digestsOf(job));
        // Without names the ranks with the same sequence (here: same local rank, by the sizes) group together.
        QCOMPARE(groups.size(), std::size_t(8));
        for (const CommGroup& g : groups) {
            QVERIFY(g.inferred);
            QVERIFY(g.name.isEmpty());
            QCOMPARE(g.ranks.size(), std::size_t(2));
            QCOMPARE(g.ranks[1] - g.ranks[0], 8);
            QCOMPARE(g.collectives, 8);
        }
    }

    void rankRanges()
    {
        QCOMPARE(formatRankRanges({}), QString());
        QCOMPARE(formatRankRanges({ 3 }), QStringLiteral("3"));
        QCOMPARE(formatRankRanges({ 17, 0, 1, 2, 3, 4, 5, 6, 7, 16, 18, 19, 20, 21, 22, 23, 40, 3 }),
                 QStringLiteral("0-7, 16-23, 40"));
        QCOMPARE(formatRankRanges({ 1, 3, 4 }), QStringLiteral("1, 3-4"));
    }

    void rankFilter()
    {
        RankFilter f = parseRankFilter(QStringLiteral("0-7, 16 , 20 - 22"));
        QVERIFY(f.valid);
        QCOMPARE(f.ranges.size(), std::size_t(3));
        QVERIFY(f.accepts(0, 1, 0));
        QVERIFY(f.accepts(7, 1, 0));
        QVERIFY(!f.accepts(8, 1, 0));
        QVERIFY(f.accepts(16, 1, 0));
        QVERIFY(f.accepts(21, 1, 0));
        QVERIFY(!f.accepts(23, 1, 0));

        f = parseRankFilter(QStringLiteral(">p95"));
        QVERIFY(f.valid);
        QCOMPARE(f.abovePercentile, 95.0);
        QVERIFY(f.accepts(3, 12, 10));
        QVERIFY(!f.accepts(3, 9, 10));
        QVERIFY(!f.accepts(3, kMissing, 10));

        f = parseRankFilter(QStringLiteral("0-511 >P90"));
        QVERIFY(f.valid);
        QVERIFY(!f.accepts(600, 20, 10));
        QVERIFY(f.accepts(100, 20, 10));

        f = parseRankFilter(QStringLiteral("slow"));
        QVERIFY(!f.valid);
        QVERIFY(f.accepts(5, 1, 100)); // not understood: keeps everything
        QVERIFY(parseRankFilter(QString()).isEmpty());

        std::vector<double> values;
        for (int i = 1; i <= 100; ++i)
            values.push_back(i);
        values.push_back(kMissing);
        QCOMPARE(percentileOf(values, 50), 50.5);
        QCOMPARE(percentileOf(values, 100), 100.0);
        QVERIFY(std::isnan(percentileOf({}, 50)));
    }
};

QTEST_GUILESS_MAIN(TestClusterViews)
#include "tst_clusterviews.moc"
