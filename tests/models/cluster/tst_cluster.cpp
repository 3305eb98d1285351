#include "models/cluster/cluster.h"
#include "models/cluster/clusterreport.h"

#include <QJsonArray>

#include <QtTest>

using namespace runlens::models::cluster;

namespace {

/// Four ranks in two pipeline stages; rank 3 has a 16 ms step interval against 10 ms for the others
/// (mean 11.5: 39 % above) and the lowest FLOPS; the SDMA link 3->2 has 12 GB/s against 20 for the other
/// SDMA links (mean 18: 33 % below).
Cluster fourRanks()
{
    Cluster c;
    c.origin = ClusterOrigin::MindSpore;
    c.parallelMode = QStringLiteral("pipeline-parallel");
    c.stageCount = 2;
    const double intervals[] = { 10, 10, 10, 16 };
    const double flops[] = { 100, 100, 100, 60 };
    const double communication[] = { 2, 2, 2, 4 };
    for (int r = 3; r >= 0; --r) { // out of order: analyse() sorts
        RankFigures f;
        f.rank = r;
        f.stage = r < 2 ? 1 : 2;
        f.stepInterval = intervals[r];
        f.stepTime = intervals[r] + 30;
        f.computation = 8;
        f.communication = communication[r];
        f.flops = flops[r];
        c.ranks.push_back(f);
    }
    auto link = [&c](int src, int dst, const char* type, double bandwidth) {
        ClusterLink l;
        l.src = src;
        l.dst = dst;
        l.type = QString::fromLatin1(type);
        l.bandwidth = bandwidth;
        l.time = 1;
        l.size = bandwidth;
        c.links.push_back(l);
    };
    link(0, 1, "SDMA", 20);
    link(1, 0, "SDMA", 20);
    link(2, 3, "SDMA", 20);
    link(3, 2, "SDMA", 12);
    link(0, 0, "SDMA", 1); // self-link: ignored by the rule
    link(0, 2, "RDMA", 10);
    link(1, 3, "RDMA", 10);
    return c;
}

} // namespace

class TstCluster : public QObject
{
    Q_OBJECT
private slots:
    void meanOfKnownSkipsMissing();
    void slowRankAndLink();
    void stages();
    void stepTimeWhenNoInterval();
    void nothingToCompare();
    void report();
};

void TstCluster::meanOfKnownSkipsMissing()
{
    QCOMPARE(meanOfKnown({ 1.0, kMissing, 3.0 }), 2.0);
    QVERIFY(!isKnown(meanOfKnown({ kMissing })));
    QVERIFY(!isKnown(meanOfKnown({})));
}

void TstCluster::slowRankAndLink()
{
    Cluster c = fourRanks();
    c.analyse();
    QVERIFY(c.usesStepInterval());
    for (int i = 0; i < 4; ++i)
        QCOMPARE(c.ranks[std::size_t(i)].rank, i);
    QCOMPARE(c.slowestRank, 3);
    QVERIFY(c.ranks[3].slow);
    QVERIFY(qAbs(c.ranks[3].deviation - (16.0 / 11.5 - 1.0)) < 1e-12);
    for (int i = 0; i < 3; ++i) {
        QVERIFY(!c.ranks[std::size_t(i)].slow);
        QVERIFY(qAbs(c.ranks[std::size_t(i)].deviation - (10.0 / 11.5 - 1.0)) < 1e-12);
        QVERIFY(!c.ranks[std::size_t(i)].lowFlops);
    }
    QVERIFY(c.ranks[3].lowFlops); // 60 < 0.8 * 90

    QCOMPARE(c.worstLink, 3);
    QVERIFY(c.links[3].slow);
    QVERIFY(qAbs(c.links[3].deviation - (12.0 / 18.0 - 1.0)) < 1e-12);
    for (int i : { 0, 1, 2, 5, 6 })
        QVERIFY(!c.links[std::size_t(i)].slow);
    QVERIFY(!isKnown(c.links[4].deviation)); // self-link
    QCOMPARE(c.linkTypes(), QStringList({ QStringLiteral("SDMA"), QStringLiteral("RDMA") }));

    // MindInsight's communication rate: Σ comm / Σ (comp + comm) = 10 / 42.
    QVERIFY(qAbs(c.communicationRate - 10.0 / 42.0) < 1e-12);
    QCOMPARE(c.indexOfRank(2), 2);
    QCOMPARE(c.indexOfRank(7), -1);
}

void TstCluster::stages()
{
    Cluster c = fourRanks();
    c.analyse();
    QVERIFY(c.hasStages());
    const auto groups = c.stages();
    QCOMPARE(int(groups.size()), 2);
    QCOMPARE(groups[0].stage, 1);
    QCOMPARE(groups[0].rankIndices, (std::vector<int> { 0, 1 }));
    QCOMPARE(groups[1].stage, 2);
    QCOMPARE(groups[1].rankIndices, (std::vector<int> { 2, 3 }));
    QCOMPARE(groups[0].meanStepInterval, 10.0);
    QCOMPARE(groups[1].meanStepInterval, 13.0);
    QCOMPARE(groups[1].meanFlops, 80.0);
    QCOMPARE(groups[1].meanCommunication, 3.0);
}

void TstCluster::stepTimeWhenNoInterval()
{
    Cluster c = fourRanks();
    c.origin = ClusterOrigin::Kineto;
    c.ranks[0].stepTime = 100; // rank 3 before sorting: the longest step time by far
    c.analyse();
    QVERIFY(!c.usesStepInterval());
    QCOMPARE(c.ranks[3].rank, 3);
    QCOMPARE(c.slowestRank, 3);
    QVERIFY(c.ranks[3].slow); // 100 against a mean of (40 + 40 + 40 + 100) / 4 = 55
}

void TstCluster::nothingToCompare()
{
    Cluster empty;
    empty.analyse();
    QCOMPARE(empty.slowestRank, -1);
    QCOMPARE(empty.worstLink, -1);
    QVERIFY(!isKnown(empty.communicationRate));

    Cluster one;
    RankFigures r;
    r.rank = 5;
    r.stepTime = 3;
    one.ranks.push_back(r);
    one.analyse();
    QCOMPARE(one.slowestRank, -1);
    QVERIFY(!one.ranks[0].slow);
    QVERIFY(!one.hasStages());
    QCOMPARE(int(one.stages().size()), 1);
}

void TstCluster::report()
{
    Cluster c = fourRanks();
    c.analyse();
    c.ranks[1].stepTime = kMissing;
    const QJsonObject o = clusterReport(c);
    QCOMPARE(o.value(QLatin1String("origin")).toString(), QStringLiteral("mindspore"));
    QCOMPARE(o.value(QLatin1String("slow_rank_figure")).toString(), QStringLiteral("step_interval"));
    QCOMPARE(o.value(QLatin1String("slowest_rank")).toInt(), 3);
    const QJsonArray ranks = o.value(QLatin1String("ranks")).toArray();
    QCOMPARE(ranks.size(), 4);
    QCOMPARE(ranks[3].toObject().value(QLatin1String("step_interval_ms")).toDouble(), 16.0);
    QVERIFY(ranks[3].toObject().value(QLatin1String("slow")).toBool());
    QVERIFY(ranks[1].toObject().value(QLatin1String("step_time_ms")).isNull());
    QCOMPARE(ranks[0].toObject().value(QLatin1String("stage")).toInt(), 1);
    const QJsonObject worst = o.value(QLatin1String("worst_link")).toObject();
    QCOMPARE(worst.value(QLatin1String("src")).toInt(), 3);
    QCOMPARE(worst.value(QLatin1String("dst")).toInt(), 2);
    QVERIFY(worst.value(QLatin1String("slow")).toBool());
    QCOMPARE(o.value(QLatin1String("links")).toArray().size(), 7);

    const QStringList lines = clusterReportLines(c);
    QVERIFY(lines.size() >= 6);
    QVERIFY2(lines[1].contains(QLatin1String("slowest rank 3: 16.000 ms")), qPrintable(lines[1]));
    QVERIFY2(lines[2].contains(QLatin1String("worst link 3->2 SDMA")), qPrintable(lines[2]));

    const QJsonObject empty = clusterReport(Cluster());
    QVERIFY(empty.value(QLatin1String("slowest_rank")).isNull());
    QVERIFY(empty.value(QLatin1String("worst_link")).isNull());
}

QTEST_GUILESS_MAIN(TstCluster)
#include "tst_cluster.moc"
