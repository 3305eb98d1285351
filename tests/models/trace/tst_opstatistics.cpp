#include "models/trace/deviceutilization.h"
#include "models/trace/launchindex.h"
#include "models/trace/opstatistics.h"
#include "tests/models/trace/analysistestdata.h"

#include <QtTest>

using namespace runlens::models::trace;
using runlens::test::AnalysisTraceBuilder;

namespace {

/// Two aten::linear calls with different input shapes; each calls aten::addmm, which launches kernels.
std::shared_ptr<const TraceStore> linearStore()
{
    AnalysisTraceBuilder t;
    const int cpu = t.cpu();
    t.slice(cpu, 0, 1000, "aten::linear", EventKind::CpuOp, R"({"Input Dims": [[32, 64], [128, 64], [128]]})");
    t.slice(cpu, 10, 50, "aten::t", EventKind::CpuOp, R"({"Input Dims": [[128, 64]]})");
    t.slice(cpu, 100, 800, "aten::addmm", EventKind::CpuOp,
            R"({"External id": 3, "Input Dims": [[128], [32, 64], [64, 128]], "Input type": ["float"]})");
    t.launch(0, 200, 50, 300, 400, "sgemm");
    t.launch(0, 300, 20, 700, 50, "bias_add");
    t.slice(cpu, 2000, 600, "aten::linear", EventKind::CpuOp, R"({"Input Dims": [[16, 64], [128, 64], [128]]})");
    t.slice(cpu, 2100, 400, "aten::addmm", EventKind::CpuOp, R"({"Input Dims":[[128],[16,64],[64,128]]})");
    t.launch(0, 2200, 50, 2300, 200, "sgemm");
    // A runtime call outside any op: its kernel has no operator.
    t.launch(0, 2700, 10, 2800, 100, "orphan");
    return t.finish();
}

const OperatorStats* find(const OperatorStatistics& stats, const TraceStore& store, std::string_view name,
                          std::string_view dims = {})
{
    for (const auto& op : stats.operators) {
        if (store.strings().view(op.name) == name && (dims.empty() || op.inputDims == dims))
            return &op;
    }
    return nullptr;
}

const KernelStats* findKernel(const OperatorStatistics& stats, const TraceStore& store, std::string_view name)
{
    for (const auto& k : stats.kernels) {
        if (store.strings().view(k.name) == name)
            return &k;
    }
    return nullptr;
}

} // namespace

class TstOpStatistics : public QObject
{
    Q_OBJECT
private slots:
    void launchIndex();
    void byName();
    void byInputDims();
    void kernels();
    void inputDimsParsing_data();
    void inputDimsParsing();
    void deviceUtilization();
    void cancel();
};

void TstOpStatistics::launchIndex()
{
    auto store = linearStore();
    const LaunchIndex index(*store);
    QCOMPARE(index.launches().size(), std::size_t(4));
    for (const auto& l : index.launches()) {
        QCOMPARE(store->tracks()[std::size_t(l.hostTrack)].kind[l.hostSlice], EventKind::Runtime);
        QCOMPARE(index.launchesOf(l.hostTrack, l.hostSlice).size(), std::size_t(1));
        QCOMPARE(index.launcherOf(l.deviceTrack, l.deviceSlice), &l);
    }
    QCOMPARE(index.launchesOf(0, 0).size(), std::size_t(0)); // aten::linear launched nothing itself
}

void TstOpStatistics::byName()
{
    auto store = linearStore();
    const OperatorStatistics stats = computeOperatorStatistics(*store);
    QVERIFY(!stats.groupedByInputDims);
    QCOMPARE(stats.operators.size(), std::size_t(3));

    const OperatorStats* linear = find(stats, *store, "aten::linear");
    QVERIFY(linear);
    QCOMPARE(linear->calls, std::uint64_t(2));
    QCOMPARE(linear->hostTotal, std::int64_t(1600));
    QCOMPARE(linear->hostSelf, std::int64_t((1000 - 50 - 800) + (600 - 400)));
    QCOMPARE(linear->hostMin, std::int64_t(600));
    QCOMPARE(linear->hostMax, std::int64_t(1000));
    QCOMPARE(linear->hostAverage(), std::int64_t(800));
    QCOMPARE(linear->deviceSelf, std::int64_t(0));
    QCOMPARE(linear->deviceTotal, std::int64_t(400 + 50 + 200));
    QCOMPARE(store->tracks()[std::size_t(linear->longestTrack)].duration[linear->longestSlice], std::int64_t(1000));

    const OperatorStats* addmm = find(stats, *store, "aten::addmm");
    QVERIFY(addmm);
    QCOMPARE(addmm->calls, std::uint64_t(2));
    QCOMPARE(addmm->hostSelf, std::int64_t(1200)); // runtime calls are part of the op's own time
    QCOMPARE(addmm->deviceSelf, std::int64_t(650));
    QCOMPARE(addmm->deviceTotal, std::int64_t(650));
    QCOMPARE(addmm->kernels, std::uint64_t(3));

    // Self times add up to the time spent in top-level ops; shares are against that.
    QCOMPARE(stats.hostSelfSum, std::int64_t(1600));
    QCOMPARE(stats.deviceSelfSum, std::int64_t(650));
    QCOMPARE(stats.hostShare(*addmm), 1200.0 / 1600.0);
    QCOMPARE(stats.deviceShare(*addmm), 1.0);
    QCOMPARE(stats.opCalls, std::uint64_t(5));
    // Sorted by host self time.
    QCOMPARE(store->strings().view(stats.operators.front().name), std::string_view("aten::addmm"));
}

void TstOpStatistics::byInputDims()
{
    auto store = linearStore();
    const OperatorStatistics stats = computeOperatorStatistics(*store, { .groupByInputDims = true });
    QVERIFY(stats.groupedByInputDims);
    QCOMPARE(stats.operators.size(), std::size_t(5));
    const OperatorStats* big = find(stats, *store, "aten::addmm", "[[128],[32,64],[64,128]]");
    const OperatorStats* small = find(stats, *store, "aten::addmm", "[[128],[16,64],[64,128]]");
    QVERIFY(big);
    QVERIFY(small);
    QCOMPARE(big->calls, std::uint64_t(1));
    QCOMPARE(big->hostSelf, std::int64_t(800));
    QCOMPARE(big->deviceSelf, std::int64_t(450));
    QCOMPARE(small->deviceSelf, std::int64_t(200));
    const OperatorStats* linear = find(stats, *store, "aten::linear", "[[32,64],[128,64],[128]]");
    QVERIFY(linear);
    QCOMPARE(linear->hostSelf, std::int64_t(150));
    QCOMPARE(linear->deviceTotal, std::int64_t(450));
    QCOMPARE(stats.hostSelfSum, std::int64_t(1600));
}

void TstOpStatistics::kernels()
{
    auto store = linearStore();
    const OperatorStatistics stats = computeOperatorStatistics(*store);
    QCOMPARE(stats.kernels.size(), std::size_t(3));
    QCOMPARE(stats.kernelSum, std::int64_t(400 + 50 + 200 + 100));
    const KernelStats* sgemm = findKernel(stats, *store, "sgemm");
    QVERIFY(sgemm);
    QCOMPARE(sgemm->calls, std::uint64_t(2));
    QCOMPARE(sgemm->total, std::int64_t(600));
    QCOMPARE(sgemm->min, std::int64_t(200));
    QCOMPARE(sgemm->max, std::int64_t(400));
    QCOMPARE(sgemm->mean(), std::int64_t(300));
    QCOMPARE(stats.kernelShare(*sgemm), 600.0 / 750.0);
    QCOMPARE(store->strings().view(sgemm->topOperator), std::string_view("aten::addmm"));
    QCOMPARE(store->strings().view(stats.kernels.front().name), std::string_view("sgemm"));
    const KernelStats* orphan = findKernel(stats, *store, "orphan");
    QVERIFY(orphan);
    QCOMPARE(orphan->topOperator, kNoString);
}

void TstOpStatistics::inputDimsParsing_data()
{
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("dims");
    QTest::newRow("typical") << R"({"Input Dims": [[1, 2], []], "Input type": ["float", ""]})"
                             << "[[1,2],[]]";
    QTest::newRow("first key") << R"({"Input Dims":[[3]],"x":1})"
                               << "[[3]]";
    QTest::newRow("absent") << R"({"Input type": ["float"]})"
                            << "";
    QTest::newRow("as a value") << R"({"name": "Input Dims", "Input Dims": [[4]]})"
                                << "[[4]]";
    QTest::newRow("nested strings") << R"({"Input Dims": [["a]b", 1]]})"
                                    << R"([["a]b",1]])";
    QTest::newRow("truncated") << R"({"Input Dims": [[1, 2)"
                               << "[[1,2";
    QTest::newRow("empty") << ""
                           << "";
    QTest::newRow("scalar") << R"({"Input Dims": 5, "y": 2})"
                            << "5";
}

void TstOpStatistics::inputDimsParsing()
{
    QFETCH(QString, args);
    QFETCH(QString, dims);
    const QByteArray utf8 = args.toUtf8();
    QCOMPARE(QString::fromStdString(extractInputDims(std::string_view(utf8.constData(), utf8.size()))), dims);
}

void TstOpStatistics::deviceUtilization()
{
    auto store = linearStore();
    const DeviceUtilizationResult u = computeDeviceUtilization(*store, 3, 0, 3000);
    QCOMPARE(u.binWidth, std::int64_t(1000));
    QCOMPARE(u.devices.size(), std::size_t(1));
    const DeviceUtilization& gpu = u.devices[0];
    QCOMPARE(gpu.name, QStringLiteral("GPU 0"));
    // busy: [300, 750) in bin 0; [2300, 2500) and [2800, 2900) in bin 2
    QCOMPARE(gpu.busyNs, std::int64_t(450 + 200 + 100));
    QCOMPARE(gpu.bins.size(), std::size_t(3));
    QCOMPARE(gpu.bins[0], 0.45);
    QCOMPARE(gpu.bins[1], 0.0);
    QCOMPARE(gpu.bins[2], 0.3);
    QCOMPARE(gpu.utilization(u.span()), 750.0 / 3000.0);

    // Overlapping streams count once; a bin boundary splits a kernel.
    AnalysisTraceBuilder t;
    const int second = t.builder().threadTrack(t.builder().process(0, 0), 8, TrackType::GpuStream);
    t.slice(t.gpu(), 50, 100, "a", EventKind::Kernel); // [50, 150)
    t.slice(second, 100, 100, "b", EventKind::Kernel); // [100, 200)
    auto two = t.finish();
    const DeviceUtilizationResult v = computeDeviceUtilization(*two, 2, 0, 200);
    QCOMPARE(v.devices.size(), std::size_t(1));
    QCOMPARE(v.devices[0].busyNs, std::int64_t(150));
    QCOMPARE(v.devices[0].bins[0], 0.5);
    QCOMPARE(v.devices[0].bins[1], 1.0);
}

void TstOpStatistics::cancel()
{
    AnalysisTraceBuilder t;
    for (int i = 0; i < 20000; ++i)
        t.slice(t.cpu(), i * 10, 5, "aten::add", EventKind::CpuOp);
    auto store = t.finish();
    int polls = 0;
    const OperatorStatistics stats = computeOperatorStatistics(*store, { .cancelled = [&] { return ++polls >= 2; } });
    QVERIFY(polls >= 2);
    QVERIFY(stats.opCalls < 20000);
    QCOMPARE(computeOperatorStatistics(*store).opCalls, std::uint64_t(20000));
}

QTEST_GUILESS_MAIN(TstOpStatistics)
#include "tst_opstatistics.moc"
