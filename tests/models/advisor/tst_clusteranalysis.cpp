#include "models/advisor/advisor.h"
#include "models/advisor/analysis.h"
#include "models/advisor/evidence.h"
#include "tests/models/advisor/performancetestutils.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::models;
using namespace runlens::models::advisor;
using models::trace::EventKind;
using runlens::test::measured;

namespace {

constexpr std::int64_t kMs = 1'000'000;

/// A MindSpore cluster of ranks with the given step times (ms), 80 ms of computation and `communication`
/// ms of communication each, and RDMA links with the given bandwidths (GB/s) from rank 0.
AdvisorInput mindsporeCluster(const std::vector<double>& stepTimes, double communication,
                              const std::vector<double>& bandwidths)
{
    auto c = std::make_shared<models::cluster::Cluster>();
    c->origin = models::cluster::ClusterOrigin::MindSpore;
    for (std::size_t i = 0; i < stepTimes.size(); ++i) {
        models::cluster::RankFigures rank;
        rank.rank = int(i);
        rank.stepTime = stepTimes[i];
        rank.computation = 80.0;
        rank.communication = communication;
        c->ranks.push_back(rank);
    }
    for (std::size_t i = 0; i < bandwidths.size(); ++i) {
        models::cluster::ClusterLink link;
        link.src = 0;
        link.dst = int(i) + 1;
        link.type = QStringLiteral("RDMA");
        link.bandwidth = bandwidths[i];
        c->links.push_back(link);
    }
    c->analyse();
    auto bundle = std::make_shared<ProfilerBundle>();
    bundle->cluster = c;
    AdvisorInput input;
    input.profilers.push_back({ QStringLiteral("ms_run"), bundle });
    return input;
}

/// Two ranks, three 10 ms steps each, one compute kernel then one all-reduce per step; the all-reduce of
/// rank 1 starts `lateMs` later within its step than rank 0's.
std::shared_ptr<const models::trace::TraceStore> kinetoRanks(double lateMs, std::int64_t slowStepMs = 10)
{
    test::AnalysisTraceBuilder t(2);
    for (int source = 0; source < 2; ++source) {
        for (int s = 0; s < 3; ++s) {
            const std::int64_t length = (source == 1 ? slowStepMs : 10) * kMs;
            const std::int64_t start = s * 20 * kMs;
            t.step(source, s + 1, start, length);
            t.launch(source, start + 100'000, 20'000, start + 200'000, 3 * kMs, "volta_sgemm_128x64_nn");
            const std::int64_t comm = start + 4 * kMs + (source == 1 ? std::int64_t(lateMs * double(kMs)) : 0);
            t.launch(source, start + 3 * kMs, 20'000, comm, 1 * kMs, "ncclKernel_AllReduce_RING_LL_Sum_float",
                     EventKind::Communication);
        }
    }
    return t.finish();
}

} // namespace

class TestClusterAnalysis : public QObject
{
    Q_OBJECT

private slots:
    void slowRank();
    void slowRankHealthy();
    void slowLink();
    void communicationRate();
    void kinetoStraggler();
    void kinetoNoStraggler();
    void kinetoSlowRankEndToEnd();
    void mindsporeMessages();
    void noCluster();
    void unknownFigures();
};

void TestClusterAnalysis::slowRank()
{
    RuleBook rules;
    AnalysisContext context(rules);
    analyseCluster(mindsporeCluster({ 100, 100, 100, 140 }, 20, {}), context);
    const auto found = measured(context, QStringLiteral("cluster.rank_slowdown"));
    QCOMPARE(found.size(), std::size_t(4));
    // Mean 110 ms; rank 3 is 140 / 110 - 1 = 27.3 % above it, the others 9.1 % below.
    QVERIFY(qAbs(found[3].value - 100.0 * (140.0 / 110.0 - 1.0)) < 1e-9);
    QCOMPARE(found[3].scope.rank, std::optional<int>(3));
    QVERIFY(qAbs(found[3].facts.value(QStringLiteral("mean_ms")).toDouble() - 110.0) < 1e-9);
    QVERIFY(holds(Comparator::Greater, found[3].value, 20.0));
    QVERIFY(!holds(Comparator::Greater, found[0].value, 20.0));
    const auto evidence = parseEvidence(found[3].evidence.value(0));
    QCOMPARE(evidence->kind, QStringLiteral("cluster"));
    QCOMPARE(evidence->value(QStringLiteral("rank")), QStringLiteral("3"));
}

void TestClusterAnalysis::slowRankHealthy()
{
    RuleBook rules;
    AnalysisContext context(rules);
    analyseCluster(mindsporeCluster({ 100, 100, 105, 95 }, 5, {}), context);
    for (const Measurement& m : measured(context, QStringLiteral("cluster.rank_slowdown")))
        QVERIFY(m.value <= 5.0 + 1e-9);
    QVERIFY(!context.isEvaluated(QStringLiteral("cluster.link_bandwidth_deficit")));
    QVERIFY(!context.missingReason(QStringLiteral("cluster.link_bandwidth_deficit")).isEmpty());
    QVERIFY(!context.isEvaluated(QStringLiteral("cluster.straggler_share")));
}

void TestClusterAnalysis::slowLink()
{
    RuleBook rules;
    AnalysisContext context(rules);
    analyseCluster(mindsporeCluster({ 100, 100, 100, 100 }, 20, { 10, 10, 6.5 }), context);
    const auto found = measured(context, QStringLiteral("cluster.link_bandwidth_deficit"));
    QCOMPARE(found.size(), std::size_t(3));
    // Mean of the RDMA links 8.833 GB/s; 6.5 is 26.4 % below it, the two fast ones 13.2 % above (-13.2).
    const double mean = (10 + 10 + 6.5) / 3.0;
    QVERIFY(qAbs(found[2].value - 100.0 * (1.0 - 6.5 / mean)) < 1e-9);
    QCOMPARE(found[2].scope.link, QStringLiteral("RDMA 0->3"));
    QVERIFY(qAbs(found[2].facts.value(QStringLiteral("type_mean")).toDouble() - mean) < 1e-9);
    QVERIFY(holds(Comparator::Greater, found[2].value, 20.0));
    QVERIFY(!holds(Comparator::Greater, found[0].value, 20.0));
}

void TestClusterAnalysis::communicationRate()
{
    for (const auto& [communication, expected] : { std::pair { 20.0, 20.0 }, { 4.0, 100.0 * 4.0 / 84.0 } }) {
        RuleBook rules;
        AnalysisContext context(rules);
        analyseCluster(mindsporeCluster({ 100, 100 }, communication, {}), context);
        const auto found = measured(context, QStringLiteral("cluster.communication_rate"));
        QCOMPARE(found.size(), std::size_t(1));
        QVERIFY(qAbs(found.front().value - expected) < 1e-9);
        QCOMPARE(holds(Comparator::Greater, found.front().value, 10.0), expected > 10.0);
    }
}

void TestClusterAnalysis::kinetoStraggler()
{
    RuleBook rules;
    AnalysisContext context(rules);
    analyseCluster(test::traceInput(kinetoRanks(2.0)), context);
    const auto found = measured(context, QStringLiteral("cluster.straggler_share"));
    QCOMPARE(found.size(), std::size_t(1));
    QCOMPARE(found.front().scope.rank, std::optional<int>(1));
    QCOMPARE(found.front().value, 100.0);
    QCOMPARE(found.front().facts.value(QStringLiteral("steps")).toLongLong(), 3);
    QVERIFY(qAbs(found.front().facts.value(QStringLiteral("lateness_ms")).toDouble() - 2.0) < 1e-6);
    QVERIFY(context.isEvaluated(QStringLiteral("cluster.rank_slowdown")));
}

void TestClusterAnalysis::kinetoNoStraggler()
{
    RuleBook rules;
    AnalysisContext context(rules);
    analyseCluster(test::traceInput(kinetoRanks(0.0)), context);
    QVERIFY(context.isEvaluated(QStringLiteral("cluster.straggler_share")));
    QVERIFY(measured(context, QStringLiteral("cluster.straggler_share")).empty());
    // Rank 1 later by 0.2 ms every step: below the rule's min_lateness_ms, no straggler.
    AnalysisContext slight(rules);
    analyseCluster(test::traceInput(kinetoRanks(0.2)), slight);
    QVERIFY(measured(slight, QStringLiteral("cluster.straggler_share")).empty());
}

void TestClusterAnalysis::kinetoSlowRankEndToEnd()
{
    // Rank 1's steps take 16 ms, rank 0's 10 ms: mean 13 ms, rank 1 is 23.1 % above it.
    const AdvisorReport report = evaluate(test::traceInput(kinetoRanks(0.0, 16)), RuleBook::builtIn());
    const auto slow = std::find_if(report.findings.begin(), report.findings.end(),
                                   [](const Finding& f) { return f.ruleId == QLatin1String("slow-rank"); });
    QVERIFY(slow != report.findings.end());
    QCOMPARE(slow->scope.rank, std::optional<int>(1));
    QVERIFY2(qAbs(slow->value - 100.0 * (16.0 / 13.0 - 1.0)) < 1e-6, qPrintable(QString::number(slow->value)));
    QVERIFY2(slow->message.startsWith(QLatin1String("Rank 1 of run run has a step time of 16 ms")),
             qPrintable(slow->message));
    for (const Finding& f : report.findings)
        QVERIFY2(!f.message.contains(QLatin1Char('{')), qPrintable(f.message));
}

void TestClusterAnalysis::mindsporeMessages()
{
    const AdvisorReport report
        = evaluate(mindsporeCluster({ 100, 100, 100, 140 }, 20, { 10, 10, 6.5 }), RuleBook::builtIn());
    const QStringList fired = test::firedRules(report);
    QCOMPARE(fired.count(QStringLiteral("slow-rank")), 1);
    QCOMPARE(fired.count(QStringLiteral("slow-link")), 1);
    QCOMPARE(fired.count(QStringLiteral("communication-rate")), 1);
    const QStringList straggler = test::firedRules(evaluate(test::traceInput(kinetoRanks(2.0)), RuleBook::builtIn()));
    QVERIFY(straggler.contains(QStringLiteral("straggler-rank")));
}

void TestClusterAnalysis::noCluster()
{
    RuleBook rules;
    AnalysisContext context(rules);
    // One rank is no cluster.
    analyseCluster(mindsporeCluster({ 100 }, 10, {}), context);
    for (const char* metric : { "cluster.rank_slowdown", "cluster.link_bandwidth_deficit", "cluster.straggler_share",
                                "cluster.communication_rate" }) {
        QVERIFY(!context.isEvaluated(QLatin1String(metric)));
        QVERIFY(context.missingReason(QLatin1String(metric)).startsWith(QLatin1String("no distributed run")));
    }
}

void TestClusterAnalysis::unknownFigures()
{
    // Ranks whose files gave no times (kMissing everywhere): nothing measured, each metric says why.
    RuleBook rules;
    AnalysisContext context(rules);
    analyseCluster(
        mindsporeCluster({ models::cluster::kMissing, models::cluster::kMissing }, models::cluster::kMissing, {}),
        context);
    QVERIFY(measured(context, QStringLiteral("cluster.rank_slowdown")).empty());
    QCOMPARE(context.missingReason(QStringLiteral("cluster.rank_slowdown")), QStringLiteral("no rank has step times"));
    QVERIFY(!context.missingReason(QStringLiteral("cluster.link_bandwidth_deficit")).isEmpty());
}

QTEST_GUILESS_MAIN(TestClusterAnalysis)
#include "tst_clusteranalysis.moc"
