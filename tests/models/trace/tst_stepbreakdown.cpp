#include "models/trace/stepbreakdown.h"
#include "tests/models/trace/analysistestdata.h"

#include <QRandomGenerator>
#include <QtTest>

using namespace runlens::models::trace;
using runlens::test::AnalysisTraceBuilder;

namespace {

using Times = std::array<std::int64_t, kStepCategoryCount>;

Times times(std::initializer_list<std::pair<StepCategory, std::int64_t>> values)
{
    Times t {};
    for (const auto& [c, ns] : values)
        t[std::size_t(c)] = ns;
    return t;
}

QString describe(const Times& t)
{
    QStringList parts;
    for (int c = 0; c < kStepCategoryCount; ++c)
        parts << QStringLiteral("%1=%2").arg(QLatin1String(stepCategoryId(StepCategory(c)))).arg(t[std::size_t(c)]);
    return parts.join(QLatin1Char(' '));
}

#define COMPARE_TIMES(actual, expected) QCOMPARE(describe(actual), describe(expected))

/// The definition, one nanosecond at a time: the highest-priority category active on any track.
struct ReferenceSlice
{
    std::int64_t start;
    std::int64_t end;
    int category;
};

Times reference(const std::vector<ReferenceSlice>& slices, std::int64_t start, std::int64_t end)
{
    Times t {};
    for (std::int64_t ns = start; ns < end; ++ns) {
        int top = int(StepCategory::Idle);
        for (const auto& s : slices) {
            if (s.category >= 0 && s.start <= ns && ns < s.end)
                top = std::min(top, s.category);
        }
        ++t[std::size_t(top)];
    }
    return t;
}

} // namespace

class TstStepBreakdown : public QObject
{
    Q_OBJECT
private slots:
    void categories();
    void priorityAndIdle();
    void stretchToDevice();
    void noSteps();
    void perSource();
    void randomAgainstDefinition();
    void emptyStore();
};

void TstStepBreakdown::categories()
{
    QCOMPARE(stepCategoryOf(EventKind::Kernel, "volta_sgemm_128x64_nn"), int(StepCategory::Kernel));
    QCOMPARE(stepCategoryOf(EventKind::Kernel, "ncclKernel_AllReduce_RING_LL_Sum_float"),
             int(StepCategory::Communication));
    QCOMPARE(stepCategoryOf(EventKind::CpuOp, "nccl:all_reduce"), int(StepCategory::Communication));
    QCOMPARE(stepCategoryOf(EventKind::UserAnnotation, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"),
             int(StepCategory::DataLoader));
    QCOMPARE(stepCategoryOf(EventKind::CpuOp, "enumerate(DataPipe)#ShufflerIterDataPipe"),
             int(StepCategory::DataLoader));
    QCOMPARE(stepCategoryOf(EventKind::Driver, "cuLaunchKernel"), int(StepCategory::Runtime));
    QCOMPARE(stepCategoryOf(EventKind::Python, "train.py(12): step"), -1);
    QCOMPARE(stepCategoryOf(EventKind::UserAnnotation, "ProfilerStep#3"), -1);
    QVERIFY(!stepCategoryName(StepCategory::DataLoader).isEmpty());
}

void TstStepBreakdown::priorityAndIdle()
{
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 1000);
    t.slice(t.cpu(), 100, 400, "aten::mm", EventKind::CpuOp); // [100, 500)
    t.launch(0, 200, 100, 250, 200, "gemm"); // runtime [200, 300), kernel [250, 450)
    t.slice(t.cpu(), 600, 100, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
            EventKind::UserAnnotation);
    t.slice(t.cpu(), 620, 60, "aten::stack", EventKind::CpuOp); // inside the data loader: lower priority
    t.slice(t.gpu(), 800, 50, "Memcpy HtoD", EventKind::Memcpy);
    t.slice(t.cpu(), 900, 50, "misc", EventKind::Other);
    t.slice(t.cpu(), 960, 0, "instant", EventKind::CpuOp); // instants take no time
    auto store = t.finish();

    const StepBreakdown b = computeStepBreakdown(*store, { .stretchToDevice = false });
    QCOMPARE(b.steps.size(), std::size_t(1));
    const StepTimes& s = b.steps[0];
    QCOMPARE(s.number, std::int64_t(1));
    QCOMPARE(s.start, std::int64_t(0));
    QCOMPARE(s.end, std::int64_t(1000));
    // idle: [0,100) [500,600) [700,800) [850,900) [950,1000)
    COMPARE_TIMES(s.ns,
                  times({ { StepCategory::Kernel, 200 },
                          { StepCategory::Memcpy, 50 },
                          { StepCategory::Runtime, 50 },
                          { StepCategory::DataLoader, 100 },
                          { StepCategory::CpuOp, 150 },
                          { StepCategory::Other, 50 },
                          { StepCategory::Idle, 400 } }));
    QCOMPARE(s.share(StepCategory::Kernel), 0.2);
    QCOMPARE(b.sources.size(), std::size_t(1));
    QVERIFY(!b.sources[0].wholeTrace);
    COMPARE_TIMES(b.sources[0].average.ns, s.ns);
}

void TstStepBreakdown::stretchToDevice()
{
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 1000);
    t.step(0, 2, 1000, 1000);
    t.slice(t.cpu(), 1100, 100, "aten::conv2d", EventKind::CpuOp);
    t.launch(0, 1120, 50, 1900, 400, "implicit_gemm"); // launched in step 2, runs until 2300
    t.launch(0, 100, 50, 200, 100, "elementwise"); // step 1: kernel [200, 300)
    auto store = t.finish();

    const StepBreakdown plain = computeStepBreakdown(*store, { .stretchToDevice = false });
    QCOMPARE(plain.steps.size(), std::size_t(2));
    QCOMPARE(plain.steps[1].end, std::int64_t(2000));

    const StepBreakdown b = computeStepBreakdown(*store);
    QCOMPARE(b.steps.size(), std::size_t(2));
    const StepTimes& s1 = b.steps[0];
    const StepTimes& s2 = b.steps[1];
    QCOMPARE(s1.start, std::int64_t(0));
    QCOMPARE(s1.end, std::int64_t(1000));
    QCOMPARE(s2.start, std::int64_t(1000));
    QCOMPARE(s2.end, std::int64_t(2300));
    QCOMPARE(s2.cpuEnd, std::int64_t(2000));
    // step 1: runtime [100,150), kernel [200,300), the rest idle
    COMPARE_TIMES(s1.ns,
                  times({ { StepCategory::Kernel, 100 }, { StepCategory::Runtime, 50 }, { StepCategory::Idle, 850 } }));
    // step 2: cpu op [1100,1120) + [1170,1200), runtime [1120,1170), kernel [1900,2300)
    COMPARE_TIMES(s2.ns,
                  times({ { StepCategory::Kernel, 400 },
                          { StepCategory::Runtime, 50 },
                          { StepCategory::CpuOp, 50 },
                          { StepCategory::Idle, 800 } }));
    // averages: per category mean of the two steps
    const StepTimes& avg = b.sources[0].average;
    QCOMPARE(avg.time(StepCategory::Kernel), std::int64_t(250));
    QCOMPARE(avg.time(StepCategory::Idle), std::int64_t(825));
    QCOMPARE(avg.duration(), std::int64_t(250 + 50 + 25 + 825));
}

void TstStepBreakdown::noSteps()
{
    AnalysisTraceBuilder t;
    t.slice(t.cpu(), 500, 300, "aten::add", EventKind::CpuOp);
    t.slice(t.cpu(), 1000, 100, "aten::mul", EventKind::CpuOp);
    t.slice(t.gpu(), 1200, 100, "kernel", EventKind::Kernel); // outside the CPU span: not counted
    auto store = t.finish();
    const StepBreakdown b = computeStepBreakdown(*store);
    QCOMPARE(b.steps.size(), std::size_t(1));
    QVERIFY(b.sources[0].wholeTrace);
    QCOMPARE(b.steps[0].start, std::int64_t(500));
    QCOMPARE(b.steps[0].end, std::int64_t(1100));
    COMPARE_TIMES(b.steps[0].ns, times({ { StepCategory::CpuOp, 400 }, { StepCategory::Idle, 200 } }));
}

void TstStepBreakdown::perSource()
{
    AnalysisTraceBuilder t(2);
    for (int s = 0; s < 2; ++s) {
        for (int n = 0; n < 3; ++n)
            t.step(s, n, n * 100, 100);
        t.slice(t.gpu(s), 10, 20 * (s + 1), "k", EventKind::Kernel);
    }
    auto store = t.finish();
    const StepBreakdown b = computeStepBreakdown(*store);
    QCOMPARE(b.steps.size(), std::size_t(6));
    QCOMPARE(b.sources.size(), std::size_t(2));
    const auto* second = b.summaryFor(1);
    QVERIFY(second);
    QCOMPARE(second->stepCount, std::size_t(3));
    QCOMPARE(b.steps[second->firstStep].source, 1);
    QCOMPARE(b.steps[second->firstStep].time(StepCategory::Kernel), std::int64_t(40));
    QCOMPARE(b.steps[0].time(StepCategory::Kernel), std::int64_t(20));
    QCOMPARE(second->average.time(StepCategory::Kernel), std::int64_t(40 / 3));
}

void TstStepBreakdown::randomAgainstDefinition()
{
    QRandomGenerator rng(1234);
    const EventKind kinds[] = { EventKind::CpuOp, EventKind::Runtime, EventKind::Other, EventKind::Python };
    const EventKind deviceKinds[] = { EventKind::Kernel, EventKind::Memcpy, EventKind::Memset };
    for (int round = 0; round < 20; ++round) {
        AnalysisTraceBuilder t;
        std::vector<ReferenceSlice> slices;
        const auto add = [&](int track, std::int64_t s, std::int64_t d, std::string_view name, EventKind kind) {
            t.slice(track, s, d, name, kind);
            slices.push_back({ s, s + d, stepCategoryOf(kind, name) });
        };
        t.step(0, 1, 0, 700);
        t.step(0, 2, 700, 800);
        // CPU: top-level slices with one nested child each; GPU: non-overlapping device work.
        for (std::int64_t pos = int(rng.bounded(50)); pos < 1500;) {
            const std::int64_t d = 10 + rng.bounded(120);
            const bool loader = rng.bounded(6) == 0;
            const EventKind kind = kinds[rng.bounded(4)];
            add(t.cpu(), pos, d, loader ? "enumerate(DataLoader)#x" : "op", kind);
            if (d > 20) {
                const std::int64_t cs = pos + 1 + rng.bounded(int(d / 2));
                add(t.cpu(), cs, 1 + rng.bounded(int(pos + d - cs)), "child", kinds[rng.bounded(4)]);
            }
            pos += d + rng.bounded(60);
        }
        for (std::int64_t pos = int(rng.bounded(80)); pos < 1500;) {
            const std::int64_t d = 5 + rng.bounded(90);
            const EventKind kind = deviceKinds[rng.bounded(3)];
            add(t.gpu(), pos, d, "device", kind);
            pos += d + rng.bounded(100);
        }
        auto store = t.finish();
        const StepBreakdown b = computeStepBreakdown(*store, { .stretchToDevice = false });
        QCOMPARE(b.steps.size(), std::size_t(2));
        COMPARE_TIMES(b.steps[0].ns, reference(slices, 0, 700));
        COMPARE_TIMES(b.steps[1].ns, reference(slices, 700, 1500));
    }
}

void TstStepBreakdown::emptyStore()
{
    AnalysisTraceBuilder t;
    auto store = t.finish();
    const StepBreakdown b = computeStepBreakdown(*store);
    QVERIFY(b.isEmpty());
}

QTEST_GUILESS_MAIN(TstStepBreakdown)
#include "tst_stepbreakdown.moc"
