#include "models/trace/tracestore.h"
#include "models/trace/tracestorebuilder.h"

#include <QtTest>

#include <string>

using namespace runlens::models::trace;

class TstTraceStore : public QObject
{
    Q_OBJECT

private slots:
    void stringTable();
    void eventKinds();
    void sortingAndDepth();
    void overlappingLanes();
    void rangeQuery();
    void flows();
    void correlations();
    void steps();
    void ordering();
    void argsJson();
};

void TstTraceStore::stringTable()
{
    StringTable table;
    QCOMPARE(table.intern(""), kNoString);
    const StringId a = table.intern("aten::mm");
    const StringId b = table.intern("aten::add");
    QVERIFY(a != b);
    QCOMPARE(table.intern("aten::mm"), a);
    for (int i = 0; i < 100000; ++i)
        table.intern("name " + std::to_string(i));
    QCOMPARE(table.intern("aten::mm"), a);
    QCOMPARE(table.intern("name 4242"), table.intern(std::string("name 4242")));
    QCOMPARE(table.view(b), std::string_view("aten::add"));
    QCOMPARE(table.text(a), QStringLiteral("aten::mm"));
    QCOMPARE(table.size(), std::size_t(100003));
    QVERIFY(table.memoryBytes() > 100000 * sizeof(std::string));
}

void TstTraceStore::eventKinds()
{
    QCOMPARE(eventKindFrom("Operator", "aten::conv2d"), EventKind::CpuOp);
    QCOMPARE(eventKindFrom("cpu_op", "aten::conv2d"), EventKind::CpuOp);
    QCOMPARE(eventKindFrom("Runtime", "cudaLaunchKernel"), EventKind::Runtime);
    QCOMPARE(eventKindFrom("cuda_runtime", "cudaLaunchKernel"), EventKind::Runtime);
    QCOMPARE(eventKindFrom("CudaRuntime", "cudaMemcpy"), EventKind::Runtime);
    QCOMPARE(eventKindFrom("cuda_driver", "cuLaunchKernel"), EventKind::Driver);
    QCOMPARE(eventKindFrom("Kernel", "volta_sgemm"), EventKind::Kernel);
    QCOMPARE(eventKindFrom("kernel", "ncclKernel_AllReduce_RING_LL_Sum_float"), EventKind::Communication);
    QCOMPARE(eventKindFrom("Memcpy", "Memcpy HtoD"), EventKind::Memcpy);
    QCOMPARE(eventKindFrom("gpu_memcpy", "Memcpy HtoD"), EventKind::Memcpy);
    QCOMPARE(eventKindFrom("gpu_memset", "Memset"), EventKind::Memset);
    QCOMPARE(eventKindFrom("gpu_user_annotation", "ProfilerStep#3"), EventKind::GpuAnnotation);
    QCOMPARE(eventKindFrom("user_annotation", "ProfilerStep#3"), EventKind::UserAnnotation);
    QCOMPARE(eventKindFrom("python_function", "torch/nn/modules/module.py(1501): _call_impl"), EventKind::Python);
    QCOMPARE(eventKindFrom("cpu_instant_event", "[memory]"), EventKind::Memory);
    QCOMPARE(eventKindFrom("", "[memory]"), EventKind::Memory);
    QCOMPARE(eventKindFrom("Allocate", "[memory]"), EventKind::Memory);
    QCOMPARE(eventKindFrom("Trace", "PyTorch Profiler (0)"), EventKind::Other);
    QCOMPARE(eventKindFrom("", "aten::mm"), EventKind::CpuOp);
    QCOMPARE(eventKindFrom("KERNEL", "x"), EventKind::Kernel);
    QCOMPARE(QString::fromLatin1(eventKindId(EventKind::GpuAnnotation)), QStringLiteral("gpu_annotation"));
}

void TstTraceStore::sortingAndDepth()
{
    TraceStoreBuilder builder;
    const int source = builder.addSource(QStringLiteral("a.json"), nullptr);
    const int p = builder.process(source, 100);
    const int t = builder.threadTrack(p, 1);
    const StringId n = builder.strings().intern("op");
    // Added out of order: parent [0,100), child [10,50), grandchild [20,30), sibling [60,90), later [200,210)
    builder.addSlice(t, 200, 10, n, 0, EventKind::CpuOp);
    builder.addSlice(t, 20, 10, n, 0, EventKind::CpuOp);
    builder.addSlice(t, 60, 30, n, 0, EventKind::CpuOp);
    builder.addSlice(t, 0, 100, n, 0, EventKind::CpuOp);
    builder.addSlice(t, 10, 40, n, 0, EventKind::CpuOp);
    // Same start as the parent but shorter: nests inside it.
    builder.addSlice(t, 0, 5, n, 0, EventKind::CpuOp);
    // An instant inside the grandchild.
    builder.addSlice(t, 25, 0, n, 0, EventKind::CpuOp, {}, SliceFlag::Instant);
    auto store = builder.finish();
    QCOMPARE(store->tracks().size(), std::size_t(1));
    const Track& track = store->tracks()[0];
    const std::vector<std::int64_t> starts { 0, 0, 10, 20, 25, 60, 200 };
    const std::vector<std::int64_t> durations { 100, 5, 40, 10, 0, 30, 10 };
    const std::vector<std::uint16_t> depths { 0, 1, 1, 2, 3, 1, 0 };
    QCOMPARE(track.start, starts);
    QCOMPARE(track.duration, durations);
    QCOMPARE(track.depth, depths);
    QCOMPARE(track.maxDuration, std::int64_t(100));
    QCOMPARE(track.maxDepth, 3);
    QCOMPARE(store->startTime(), std::int64_t(0));
    QCOMPARE(store->endTime(), std::int64_t(210));
    QCOMPARE(store->eventCount(), std::uint64_t(7));
    QVERIFY(store->memoryBytes() > 0);
}

void TstTraceStore::overlappingLanes()
{
    TraceStoreBuilder builder;
    const int p = builder.process(builder.addSource({}, nullptr), 0);
    const int t = builder.threadTrack(p, 7, TrackType::GpuStream);
    // [0,100) and [50,150) overlap without nesting: the second goes to the next free row;
    // [120,130) nests in the second; [160,170) is back on row 0.
    builder.addSlice(t, 0, 100, 0, 0, EventKind::Kernel);
    builder.addSlice(t, 50, 100, 0, 0, EventKind::Kernel);
    builder.addSlice(t, 120, 10, 0, 0, EventKind::Kernel);
    builder.addSlice(t, 160, 10, 0, 0, EventKind::Kernel);
    auto store = builder.finish();
    const Track& track = store->tracks()[0];
    QCOMPARE(track.type, TrackType::GpuStream);
    const std::vector<std::uint16_t> depths { 0, 1, 2, 0 };
    QCOMPARE(track.depth, depths);
    QVERIFY(store->processes()[0].device);
}

void TstTraceStore::rangeQuery()
{
    TraceStoreBuilder builder;
    const int p = builder.process(builder.addSource({}, nullptr), 0);
    const int t = builder.threadTrack(p, 1);
    builder.addSlice(t, 0, 1000, 0, 0, EventKind::CpuOp); // long parent
    for (int i = 0; i < 100; ++i)
        builder.addSlice(t, i * 10, 5, 0, 0, EventKind::CpuOp);
    auto store = builder.finish();
    const Track& track = store->tracks()[0];
    auto [first, last] = track.overlapping(503, 521);
    // Every overlapping slice lies in [first, last): brute-force check.
    for (std::size_t i = 0; i < track.size(); ++i) {
        const bool overlaps = track.start[i] <= 521 && track.end(i) >= 503;
        if (overlaps)
            QVERIFY(i >= first && i < last);
    }
    QCOMPARE(last, std::size_t(54));
    auto [f2, l2] = track.overlapping(5000, 6000);
    QCOMPARE(f2, l2);
}

void TstTraceStore::flows()
{
    TraceStoreBuilder builder;
    const int p = builder.process(builder.addSource({}, nullptr), 10);
    const int cpu = builder.threadTrack(p, 1);
    const int gp = builder.process(0, 0);
    const int gpu = builder.threadTrack(gp, 7, TrackType::GpuStream);
    const StringId ac2g = builder.strings().intern("ac2g");
    builder.addSlice(cpu, 0, 100, 0, 0, EventKind::CpuOp);
    builder.addSlice(cpu, 10, 20, 0, 0, EventKind::Runtime);
    builder.addSlice(gpu, 50, 30, 0, 0, EventKind::Kernel);
    builder.addSlice(gpu, 90, 5, 0, 0, EventKind::Kernel);
    // s binds to the enclosing slice (the runtime call, not the op), f with bp:e to the kernel at that time.
    builder.addFlowPoint(cpu, 15, 42, ac2g, 's', true);
    builder.addFlowPoint(gpu, 50, 42, ac2g, 'f', true);
    // f without bp:e binds to the next slice starting at/after its time.
    builder.addFlowPoint(cpu, 12, 43, ac2g, 's', true);
    builder.addFlowPoint(gpu, 85, 43, ac2g, 'f', false);
    // An unmatched f is dropped.
    builder.addFlowPoint(gpu, 85, 44, ac2g, 'f', false);
    auto store = builder.finish();
    QCOMPARE(store->flows().size(), std::size_t(2));
    // Process 0 (GPU) sorts before pid 10.
    QCOMPARE(store->processes()[0].pid, std::int64_t(0));
    const int cpuTrack = store->processes()[1].tracks[0];
    const int gpuTrack = store->processes()[0].tracks[0];
    const Flow& a = store->flows()[0];
    QCOMPARE(a.id, std::uint64_t(42));
    QCOMPARE(a.fromTrack, cpuTrack);
    QCOMPARE(a.fromSlice, 1u);
    QCOMPARE(a.toTrack, gpuTrack);
    QCOMPARE(a.toSlice, 0u);
    QCOMPARE(store->strings().view(a.category), std::string_view("ac2g"));
    const Flow& b = store->flows()[1];
    QCOMPARE(b.id, std::uint64_t(43));
    QCOMPARE(b.toSlice, 1u);
}

void TstTraceStore::correlations()
{
    TraceStoreBuilder builder;
    const int p = builder.process(builder.addSource({}, nullptr), 10);
    const int cpu = builder.threadTrack(p, 1);
    const int gpu = builder.threadTrack(builder.process(0, 0), 7, TrackType::GpuStream);
    const StringId ac2g = builder.strings().intern("ac2g");
    builder.addSlice(cpu, 10, 5, 0, 0, EventKind::Runtime);
    builder.addSlice(cpu, 20, 5, 0, 0, EventKind::Runtime);
    builder.addSlice(gpu, 50, 30, 0, 0, EventKind::Kernel);
    builder.addSlice(gpu, 90, 5, 0, 0, EventKind::Memcpy);
    builder.setCorrelation(cpu, 10, 1);
    builder.setCorrelation(gpu, 50, 1);
    builder.setCorrelation(cpu, 20, 2);
    builder.setCorrelation(gpu, 90, 2);
    // Correlation 1 already has an explicit flow: not duplicated.
    builder.addFlowPoint(cpu, 10, 1, ac2g, 's', true);
    builder.addFlowPoint(gpu, 50, 1, ac2g, 'f', true);
    auto store = builder.finish();
    QCOMPARE(store->flows().size(), std::size_t(2));
    const Flow& c = store->flows()[1];
    QCOMPARE(store->strings().view(c.category), std::string_view("correlation"));
    QCOMPARE(c.id, std::uint64_t(2));
    QCOMPARE(store->tracks()[std::size_t(c.fromTrack)].type, TrackType::Thread);
    QCOMPARE(c.fromSlice, 1u);
    QCOMPARE(store->tracks()[std::size_t(c.toTrack)].type, TrackType::GpuStream);
    QCOMPARE(c.toSlice, 1u);
}

void TstTraceStore::steps()
{
    TraceStoreBuilder builder;
    for (int source = 0; source < 2; ++source) {
        builder.addSource({}, nullptr);
        const int cpu = builder.threadTrack(builder.process(source, 10), 1);
        const int gpu = builder.threadTrack(builder.process(source, 0), 7, TrackType::GpuStream);
        for (int n = 0; n < 3; ++n) {
            const StringId name = builder.strings().intern("ProfilerStep#" + std::to_string(n + 5));
            builder.addSlice(cpu, n * 100, 90, name, 0, EventKind::UserAnnotation);
            builder.addSlice(gpu, n * 100 + 5, 90, name, 0, EventKind::GpuAnnotation);
        }
        builder.addSlice(cpu, 500, 10, builder.strings().intern("ProfilerStep#x"), 0, EventKind::UserAnnotation);
    }
    auto store = builder.finish();
    QCOMPARE(store->steps().size(), std::size_t(6));
    const Step& s = store->steps()[1];
    QCOMPARE(s.number, std::int64_t(6));
    QCOMPARE(s.start, std::int64_t(100));
    QCOMPARE(s.end, std::int64_t(190));
    QCOMPARE(s.source, 0);
    QCOMPARE(store->tracks()[std::size_t(s.track)].type, TrackType::Thread);
    QCOMPARE(store->steps()[3].source, 1);
}

void TstTraceStore::ordering()
{
    TraceStoreBuilder builder;
    const int source = builder.addSource({}, nullptr);
    const int a = builder.process(source, 300);
    const int b = builder.process(source, 200);
    const int c = builder.process(source, 100);
    builder.setProcessSortIndex(a, -1);
    builder.setProcessName(a, "python");
    builder.setProcessLabels(a, "CPU");
    const int t2 = builder.threadTrack(a, 2);
    const int t1 = builder.threadTrack(a, 1);
    builder.setTrackName(t2, "main");
    builder.threadTrack(b, 5);
    builder.threadTrack(c, 5);
    const int counter = builder.counterTrack(a, "GPU Utilization");
    builder.addCounter(counter, 30, 0.5);
    builder.addCounter(counter, 10, 0.25);
    Q_UNUSED(t1);
    auto store = builder.finish();
    QCOMPARE(store->processes().size(), std::size_t(3));
    QCOMPARE(store->processes()[0].pid, std::int64_t(300));
    QCOMPARE(store->processes()[1].pid, std::int64_t(100));
    QCOMPARE(store->processes()[2].pid, std::int64_t(200));
    QCOMPARE(store->strings().view(store->processes()[0].name), std::string_view("python"));
    QCOMPARE(store->strings().view(store->processes()[0].labels), std::string_view("CPU"));
    const auto& tracks = store->processes()[0].tracks;
    QCOMPARE(tracks.size(), std::size_t(3));
    QCOMPARE(store->tracks()[std::size_t(tracks[0])].tid, std::int64_t(1));
    QCOMPARE(store->tracks()[std::size_t(tracks[1])].tid, std::int64_t(2));
    QCOMPARE(store->strings().view(store->tracks()[std::size_t(tracks[1])].name), std::string_view("main"));
    const Track& ct = store->tracks()[std::size_t(tracks[2])];
    QCOMPARE(ct.type, TrackType::Counter);
    QCOMPARE(ct.counterTime.front(), std::int64_t(10));
    QCOMPARE(ct.counterValue.front(), 0.25);
    for (std::size_t i = 0; i < store->tracks().size(); ++i) {
        const Track& t = store->tracks()[i];
        const auto& owner = store->processes()[std::size_t(t.process)].tracks;
        QVERIFY(std::find(owner.begin(), owner.end(), int(i)) != owner.end());
    }
    QCOMPARE(store->startTime(), std::int64_t(10));
    QCOMPARE(store->endTime(), std::int64_t(30));
}

void TstTraceStore::argsJson()
{
    auto input = std::make_shared<TraceBuffer>();
    QVERIFY(input->append(R"({"args":{"correlation":5}})"));
    input->seal();
    TraceStoreBuilder builder;
    const int t = builder.threadTrack(builder.process(builder.addSource({}, input), 1), 1);
    builder.addSlice(t, 0, 1, 0, 0, EventKind::Runtime, { 8, 17 });
    builder.addSlice(t, 5, 1, 0, 0, EventKind::Runtime, { 1000, 17 }); // out of range
    auto store = builder.finish();
    QCOMPARE(store->argsJson(0, 0), std::string_view(R"({"correlation":5})"));
    QVERIFY(store->argsJson(0, 1).empty());
    QVERIFY(store->argsJson(3, 0).empty());
}

QTEST_GUILESS_MAIN(TstTraceStore)
#include "tst_tracestore.moc"
