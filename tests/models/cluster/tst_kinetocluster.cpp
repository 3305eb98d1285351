#include "importers/trace/chrometracereader.h"
#include "models/cluster/kinetocluster.h"
#include "tests/models/trace/analysistestdata.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace runlens::models::cluster;
using runlens::models::trace::EventKind;
using runlens::test::AnalysisTraceBuilder;

namespace {

constexpr std::int64_t kMs = 1'000'000;

/// Three ranks, two steps of 10 ms each. Every step: a compute kernel over [1, 5) ms and a collective
/// that ends at 8 ms; ranks 0 and 1 start it at 4 ms (1 ms hidden under compute), rank 2 at 6 ms.
std::shared_ptr<const runlens::models::trace::TraceStore> threeRanks(bool lateRank = true)
{
    AnalysisTraceBuilder t(3);
    for (int source = 0; source < 3; ++source) {
        t.builder().source(source).rank = source;
        for (int step = 0; step < 2; ++step) {
            const std::int64_t s = step * 10 * kMs;
            t.step(source, step + 1, s, 10 * kMs);
            t.launch(source, s + kMs / 4, kMs / 10, s + 1 * kMs, 4 * kMs, "volta_sgemm_128x64_nn");
            const std::int64_t commStart = source == 2 && lateRank ? 6 * kMs : 4 * kMs;
            t.launch(source, s + kMs / 2, kMs / 10, s + commStart, 8 * kMs - commStart,
                     "ncclKernel_AllReduce_RING_LL_Sum_float");
        }
    }
    return t.finish();
}

/// Runs the Python oracle on `paths` (its figures as JSON on standard output).
runlens::test::PythonRun oracle(const QStringList& paths)
{
    return runlens::test::runPython(QStringList { QStringLiteral(RUNLENS_CLUSTER_ORACLE) } + paths);
}

} // namespace

class TstKinetoCluster : public QObject
{
    Q_OBJECT
private slots:
    void communicationKernels();
    void synthetic();
    void samplesAgainstOracle();
    void cpuOnlyRank();
    void emptyStore();
};

void TstKinetoCluster::communicationKernels()
{
    QVERIFY(isCommunicationKernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"));
    QVERIFY(isCommunicationKernel("ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"));
    QVERIFY(isCommunicationKernel("void ncclKernel<...>"));
    QVERIFY(isCommunicationKernel("hcclAllReduce"));
    QVERIFY(!isCommunicationKernel("volta_sgemm_128x64_nn"));
    QVERIFY(!isCommunicationKernel("Memcpy DtoD"));
}

void TstKinetoCluster::synthetic()
{
    const auto store = threeRanks();
    const Cluster cluster = buildKinetoCluster(*store);
    QCOMPARE(cluster.origin, ClusterOrigin::Kineto);
    QCOMPARE(int(cluster.ranks.size()), 3);
    QCOMPARE(cluster.worldSize, 3);

    for (const RankFigures& r : cluster.ranks) {
        QCOMPARE(int(r.steps.size()), 2);
        const bool late = r.rank == 2;
        for (const RankStep& s : r.steps) {
            QCOMPARE(s.stepTime, 10.0);
            QCOMPARE(s.computation, 4.0);
            QCOMPARE(s.communication, late ? 2.0 : 3.0);
            QCOMPARE(s.overlapped, late ? 0.0 : 1.0);
            QCOMPARE(s.idle, late ? 4.0 : 3.0);
            QCOMPARE(s.communicationShare, late ? 0.2 : 0.4);
            QCOMPARE(s.lastCommunicationOffset, late ? 6.0 : 4.0);
        }
        QVERIFY(r.hasTemporal);
        // Device work from 1 ms (step 1) to 18 ms (end of step 2's collective).
        QCOMPARE(r.temporal.span, 17.0);
        QCOMPARE(r.temporal.compute, 8.0);
        QCOMPARE(r.temporal.nonCompute, late ? 4.0 : 6.0);
        QCOMPARE(r.temporal.idle, late ? 5.0 : 3.0);
        QCOMPARE(r.temporal.communication, late ? 4.0 : 8.0);
        QCOMPARE(r.temporal.overlap, late ? 0.0 : 2.0);
        QCOMPARE(r.temporal.overlapRatio(), late ? 0.0 : 0.25);
        QCOMPARE(r.stepTime, 10.0);
        QCOMPARE(r.stragglerSteps, late ? 2 : 0);
    }
    QCOMPARE(int(cluster.stragglers.size()), 2);
    for (const StragglerStep& s : cluster.stragglers) {
        QCOMPARE(s.rank, 2);
        QCOMPARE(s.lateness, 2.0);
    }
    // Equal step times: nobody is slow.
    QCOMPARE(cluster.slowestRank, -1);
    for (const RankFigures& r : cluster.ranks)
        QVERIFY(!r.slow);

    // Every rank starts the collective at the same offset: no straggler at all.
    const Cluster together = buildKinetoCluster(*threeRanks(false));
    QVERIFY(together.stragglers.empty());
    for (const RankFigures& r : together.ranks)
        QCOMPARE(r.stragglerSteps, 0);
}

void TstKinetoCluster::samplesAgainstOracle()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QStringList paths {
        samples + QStringLiteral("/traces/kineto/2022_memory_rank1_of_2/df_index_resolver.json.gz"),
        samples + QStringLiteral("/traces/kineto/2024_nccl_rank0_of_2/nccl_data.json.gz"),
    };
    const auto result = runlens::importers::trace::ChromeTraceReader::read(paths);
    QVERIFY(result.store);
    QCOMPARE(int(result.store->sources().size()), 2);
    const Cluster cluster = buildKinetoCluster(*result.store);
    QCOMPARE(int(cluster.ranks.size()), 2);
    QCOMPARE(cluster.worldSize, 2);
    // Sorted by rank: the 2024 trace (rank 0, read second) comes first.
    QCOMPARE(cluster.ranks[0].rank, 0);
    QCOMPARE(cluster.ranks[0].source, 1);
    QCOMPARE(cluster.ranks[1].rank, 1);
    QVERIFY2(cluster.ranks[0].device.contains(QLatin1String("A100")), qPrintable(cluster.ranks[0].device));
    QVERIFY2(cluster.ranks[1].device.contains(QLatin1String("V100")), qPrintable(cluster.ranks[1].device));

    const runlens::test::PythonRun run = oracle(paths);
    RUNLENS_VERIFY_PYTHON(run);
    const QJsonObject expected = QJsonDocument::fromJson(run.output.toUtf8()).object();
    QVERIFY2(!expected.isEmpty(), qPrintable(run.output.left(1000)));
    constexpr double kTolerance = 1e-4; // ms: the oracle rounds microseconds to nanoseconds on its own
    const QJsonArray ranks = expected.value(QLatin1String("ranks")).toArray();
    QCOMPARE(ranks.size(), 2);
    for (const QJsonValue& value : ranks) {
        const QJsonObject rank = value.toObject();
        const int index = cluster.indexOfRank(rank.value(QLatin1String("rank")).toInt());
        QVERIFY(index >= 0);
        const RankFigures& r = cluster.ranks[std::size_t(index)];
        const QJsonObject temporal = rank.value(QLatin1String("temporal")).toObject();
        QVERIFY(r.hasTemporal);
        QVERIFY(qAbs(r.temporal.span - temporal.value(QLatin1String("span")).toDouble()) < kTolerance);
        QVERIFY(qAbs(r.temporal.compute - temporal.value(QLatin1String("compute")).toDouble()) < kTolerance);
        QVERIFY(qAbs(r.temporal.nonCompute - temporal.value(QLatin1String("non_compute")).toDouble()) < kTolerance);
        QVERIFY(qAbs(r.temporal.idle - temporal.value(QLatin1String("idle")).toDouble()) < kTolerance);
        QVERIFY(qAbs(r.temporal.communication - temporal.value(QLatin1String("communication")).toDouble())
                < kTolerance);
        QVERIFY(qAbs(r.temporal.overlap - temporal.value(QLatin1String("overlap")).toDouble()) < kTolerance);

        const QJsonArray steps = rank.value(QLatin1String("steps")).toArray();
        QCOMPARE(int(r.steps.size()), int(steps.size()));
        for (int k = 0; k < steps.size(); ++k) {
            const QJsonObject e = steps[k].toObject();
            const RankStep& s = r.steps[std::size_t(k)];
            QCOMPARE(s.step, e.value(QLatin1String("step")).toInteger());
            QVERIFY(qAbs(s.stepTime - e.value(QLatin1String("step_time")).toDouble()) < kTolerance);
            QVERIFY(qAbs(s.computation - e.value(QLatin1String("computation")).toDouble()) < kTolerance);
            QVERIFY(qAbs(s.communication - e.value(QLatin1String("communication")).toDouble()) < kTolerance);
            QVERIFY(qAbs(s.overlapped - e.value(QLatin1String("overlapped")).toDouble()) < kTolerance);
            QVERIFY(qAbs(s.idle - e.value(QLatin1String("idle")).toDouble()) < kTolerance);
            QVERIFY(qAbs(s.communicationShare - e.value(QLatin1String("share")).toDouble()) < 1e-6);
            QVERIFY(qAbs(s.lastCommunicationOffset - e.value(QLatin1String("last_offset")).toDouble()) < kTolerance);
        }
    }
    // Rank 0 overlaps some of its NCCL kernels with compute; rank 1 (one stream of each) does not.
    QVERIFY(cluster.ranks[0].temporal.overlapRatio() > 0.1);
    QCOMPARE(cluster.ranks[1].temporal.overlap, 0.0);

    const QJsonArray stragglers = expected.value(QLatin1String("stragglers")).toArray();
    QCOMPARE(int(cluster.stragglers.size()), int(stragglers.size()));
    for (int k = 0; k < stragglers.size(); ++k) {
        const QJsonObject e = stragglers[k].toObject();
        QCOMPARE(cluster.stragglers[std::size_t(k)].step, e.value(QLatin1String("step")).toInteger());
        QCOMPARE(cluster.stragglers[std::size_t(k)].rank, e.value(QLatin1String("rank")).toInt());
        QVERIFY(qAbs(cluster.stragglers[std::size_t(k)].lateness - e.value(QLatin1String("lateness")).toDouble())
                < kTolerance);
    }
    // Steps 4-6 are on both ranks; rank 1's step time is the longer: it is the slowest, by more than 20 %.
    QCOMPARE(int(cluster.stragglers.size()), 3);
    QCOMPARE(cluster.slowestRank, 1);
    QVERIFY(cluster.ranks[1].slow);
    QVERIFY(!cluster.ranks[0].slow);
}

void TstKinetoCluster::cpuOnlyRank()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const auto result = runlens::importers::trace::ChromeTraceReader::read(
        { samples
          + QStringLiteral("/traces/kineto/cpu_only_rank34_of_300/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz") });
    const Cluster cluster = buildKinetoCluster(*result.store);
    QCOMPARE(int(cluster.ranks.size()), 1);
    QCOMPARE(cluster.ranks[0].rank, 34);
    QCOMPARE(cluster.worldSize, 300);
    QVERIFY(!cluster.ranks[0].hasTemporal);
    QCOMPARE(int(cluster.ranks[0].steps.size()), 1);
    QVERIFY(!isKnown(cluster.ranks[0].computation));
    QVERIFY(cluster.stragglers.empty());
    QCOMPARE(cluster.slowestRank, -1);
}

void TstKinetoCluster::emptyStore()
{
    const auto result
        = runlens::importers::trace::ChromeTraceReader::readBytes(std::string(), QStringLiteral("empty.json"));
    const Cluster cluster = buildKinetoCluster(*result.store);
    QVERIFY(cluster.stragglers.empty());
    QCOMPARE(cluster.slowestRank, -1);
    for (const RankFigures& r : cluster.ranks)
        QVERIFY(!r.hasTemporal);
}

QTEST_GUILESS_MAIN(TstKinetoCluster)
#include "tst_kinetocluster.moc"
