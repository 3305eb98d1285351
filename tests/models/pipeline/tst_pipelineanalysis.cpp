#include "models/pipeline/datapipeline.h"
#include "models/pipeline/pipelineanalysis.h"

#include <QtTest>

using namespace runlens::models::pipeline;

namespace {

PipelineOp makeOp(int id, const char* type, int parent, std::vector<int> children, double usage)
{
    PipelineOp op;
    op.id = id;
    op.type = QString::fromLatin1(type);
    op.parent = parent;
    op.children = std::move(children);
    op.queueUsage = usage;
    op.workers = 2;
    return op;
}

/// Batch 0 <- Map 1 <- Source 2, with the given usages of Map and Source.
DataPipeline chain(double mapUsage, double sourceUsage)
{
    DataPipeline p;
    p.ops.push_back(makeOp(0, "BatchOp", -1, { 1 }, kUnknown));
    p.ops.push_back(makeOp(1, "MapOp", 0, { 2 }, mapUsage));
    p.ops.push_back(makeOp(2, "ImageFolderOp", 1, {}, sourceUsage));
    return p;
}

std::vector<int> ids(const std::vector<Bottleneck>& list)
{
    std::vector<int> out;
    for (const auto& b : list)
        out.push_back(b.opId);
    return out;
}

} // namespace

class TestPipelineAnalysis : public QObject
{
    Q_OBJECT

private slots:
    void opNames();
    void slowerThanChild();
    void marginIsStrict();
    void slowSource();
    void keepsUp();
    void missingUsageCountsAsEmpty();
    void noQueueDataNoVerdict();
    void orderOfBottlenecks();
    void summaryWarningAddsOp();
    void hostAndDeviceQueues();
    void queueVerdicts();
    void cpuFigures();
    void orderAndDepthSurviveCycles();
};

void TestPipelineAnalysis::opNames()
{
    const PipelineOp map = makeOp(3, "MapOp", 0, {}, 0.5);
    QCOMPARE(map.displayType(), QStringLiteral("Map"));
    QCOMPARE(map.label(), QStringLiteral("Map_3"));
    QCOMPARE(makeOp(1, "Op", 0, {}, 0).displayType(), QStringLiteral("Op"));
    QCOMPARE(makeOp(1, "TFReader", 0, {}, 0).displayType(), QStringLiteral("TFReader"));
}

void TestPipelineAnalysis::slowerThanChild()
{
    // Map's queue at 0.2 while its source's is 0.9 (gap 0.7 > 0.1): the map cannot keep up.
    DataPipeline p = chain(0.2, 0.9);
    bool keepsUp = true;
    const auto found = findBottlenecks(p, {}, &keepsUp);
    QVERIFY(!keepsUp);
    QCOMPARE(ids(found), std::vector<int> { 1 });
    QCOMPARE(found[0].reason, BottleneckReason::SlowerThanChild);
    QCOMPARE(found[0].childId, 2);
    QCOMPARE(found[0].childUsage, 0.9);
    analysePipeline(p);
    QVERIFY(p.isBottleneck(1));
    QVERIFY(bottleneckReasonText(p, *p.primaryBottleneck()).contains(QStringLiteral("Map_1")));
    QVERIFY(bottleneckAdvice(*p.op(1)).contains(QStringLiteral("num_parallel_workers")));
}

void TestPipelineAnalysis::marginIsStrict()
{
    // A gap of exactly 0.1 is not enough (MindInsight compares with >); 0.6 is not below the low threshold.
    DataPipeline p = chain(0.5, 0.6);
    QVERIFY(findBottlenecks(p).empty());
    p = chain(0.49, 0.6);
    QCOMPARE(ids(findBottlenecks(p)), std::vector<int> { 1 });
}

void TestPipelineAnalysis::slowSource()
{
    DataPipeline p = chain(0.5, 0.55);
    const auto found = findBottlenecks(p);
    QCOMPARE(ids(found), std::vector<int> { 2 });
    QCOMPARE(found[0].reason, BottleneckReason::SlowSource);
    QVERIFY(bottleneckAdvice(*p.op(2)).contains(QStringLiteral("dataset")));
}

void TestPipelineAnalysis::keepsUp()
{
    DataPipeline p = chain(0.8, 0.95);
    bool keepsUp = false;
    QVERIFY(findBottlenecks(p, {}, &keepsUp).empty());
    QVERIFY(keepsUp);
    // A stricter high mark: the map at 0.8 no longer counts as full, and its source is 0.15 fuller.
    BottleneckThresholds strict;
    strict.high = 0.9;
    QCOMPARE(ids(findBottlenecks(p, strict, &keepsUp)), std::vector<int> { 1 });
    QVERIFY(!keepsUp);
}

void TestPipelineAnalysis::missingUsageCountsAsEmpty()
{
    // The map has no queue data: read as empty, so its full source makes it the bottleneck.
    DataPipeline p = chain(kUnknown, 0.9);
    const auto found = findBottlenecks(p);
    QCOMPARE(ids(found), std::vector<int> { 1 });
    QCOMPARE(found[0].usage, 0.0);
}

void TestPipelineAnalysis::noQueueDataNoVerdict()
{
    DataPipeline p = chain(kUnknown, kUnknown);
    bool keepsUp = true;
    QVERIFY(findBottlenecks(p, {}, &keepsUp).empty());
    QVERIFY(!keepsUp);
    QVERIFY(findBottlenecks(DataPipeline {}).empty());
}

void TestPipelineAnalysis::orderOfBottlenecks()
{
    // Batch 0 <- Shuffle 1 <- {Map 2 <- Source 4, Map 3 <- Source 5}; both maps behind their sources
    // (gaps 0.3 and 0.5), Shuffle behind Map 2 (gap 0.2), source 5 slow at 0.5 and source 4 at 0.55.
    DataPipeline p;
    p.ops.push_back(makeOp(0, "Batch", -1, { 1 }, kUnknown));
    p.ops.push_back(makeOp(1, "Shuffle", 0, { 2, 3 }, 0.05));
    p.ops.push_back(makeOp(2, "Map", 1, { 4 }, 0.25));
    p.ops.push_back(makeOp(3, "Map", 1, { 5 }, 0.0));
    p.ops.push_back(makeOp(4, "Source", 2, {}, 0.55));
    p.ops.push_back(makeOp(5, "Source", 3, {}, 0.5));
    const auto found = findBottlenecks(p);
    // Largest gap first, then the sources, emptiest first.
    QCOMPARE(ids(found), (std::vector<int> { 3, 2, 1, 5, 4 }));
    QCOMPARE(found[2].childId, 2);
}

void TestPipelineAnalysis::summaryWarningAddsOp()
{
    DataPipeline p = chain(0.85, 0.95);
    p.summaryWarnings << QStringLiteral("Batch(id=0) is the bottleneck") << QStringLiteral("no id here")
                      << QStringLiteral("Gone(id=9) is not an op");
    analysePipeline(p);
    QVERIFY(p.pipelineKeepsUp);
    QCOMPARE(p.bottlenecks.size(), std::size_t(1));
    QCOMPARE(p.bottlenecks[0].opId, 0);
    QCOMPARE(p.bottlenecks[0].reason, BottleneckReason::ReportedBySummary);
    QVERIFY(bottleneckReasonText(p, p.bottlenecks[0]).contains(QStringLiteral("Batch(id=0) is the bottleneck")));
}

void TestPipelineAnalysis::hostAndDeviceQueues()
{
    HostQueue host;
    QVERIFY(std::isnan(host.emptyRatio()));
    host.samples = { { 1, 0, 4 }, { 2, 4, 4 }, { 3, 2, 4 }, { 4, 0, 4 }, { 5, 4, 0 } };
    QCOMPARE(host.emptyCount(), 2);
    QCOMPARE(host.fullCount(), 1); // capacity 0 is unknown, never full
    QCOMPARE(host.emptyRatio(), 0.4);
    QCOMPARE(host.fullRatio(), 0.2);

    DeviceQueue device;
    QVERIFY(std::isnan(device.emptyRatio()));
    device.samples = { { 0, 1000, 0 }, { 2000, 2500, 3 }, { 3000, 3100, -1 } };
    QCOMPARE(device.sizedCount(), 2);
    QCOMPARE(device.emptyCount(), 1);
    QCOMPARE(device.emptyRatio(), 0.5);
    QCOMPARE(device.averageWaitMs(), (1.0 + 0.5 + 0.1) / 3);
}

void TestPipelineAnalysis::queueVerdicts()
{
    DataPipeline p;
    QCOMPARE(queueVerdict(p), QueueVerdict::Unknown);
    QVERIFY(queueVerdictText(p).isEmpty());
    // 3 of 10 empty is not more than 30 %.
    for (int step = 1; step <= 10; ++step)
        p.hostQueue.samples.push_back({ step, step <= 3 ? 0 : 5, 8 });
    QCOMPARE(queueVerdict(p), QueueVerdict::Fine);
    p.deviceQueue.samples.push_back({ 0, 10, 0 });
    QCOMPARE(queueVerdict(p), QueueVerdict::DataTransmission);
    p.hostQueue.samples[3].size = 0;
    QCOMPARE(queueVerdict(p), QueueVerdict::DataProcessing);
    QVERIFY(queueVerdictText(p).contains(QStringLiteral("40.0%")));
}

void TestPipelineAnalysis::cpuFigures()
{
    CpuUtilization cpu;
    QCOMPARE(cpu.deviceBusyPercent(), 0.0); // no idle data counts as all idle
    cpu.device.push_back({ QStringLiteral("idle_utilization"), { 10, 30 } });
    QCOMPARE(cpu.deviceBusyPercent(), 80.0);
    OpCpuUsage op;
    op.opId = 3;
    op.curves.push_back({ QStringLiteral("user_utilization"), { 10, 20, 30 } });
    op.curves.push_back({ QStringLiteral("sys_utilization"), { 1, 2 } });
    cpu.ops.push_back(op);
    QCOMPARE(cpu.op(3)->averagePercent(), (11.0 + 22.0 + 30.0) / 3);
    QVERIFY(!cpu.op(4));
    QVERIFY(std::isnan(CpuCurve {}.average()));
}

void TestPipelineAnalysis::orderAndDepthSurviveCycles()
{
    DataPipeline p;
    p.ops.push_back(makeOp(0, "A", 1, { 1 }, 0.5));
    p.ops.push_back(makeOp(1, "B", 0, { 0 }, 0.5));
    const auto depth = p.depths();
    QCOMPARE(depth.size(), std::size_t(2));
    QCOMPARE(p.pipelineOrder().size(), std::size_t(2));
    QVERIFY(p.root());
    analysePipeline(p); // must terminate
}

QTEST_GUILESS_MAIN(TestPipelineAnalysis)
#include "tst_pipelineanalysis.moc"
