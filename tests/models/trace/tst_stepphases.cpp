#include "importers/trace/chrometracereader.h"
#include "models/trace/stepphases.h"
#include "tests/models/trace/analysistestdata.h"
#include "tests/testutils.h"

#include <QtTest>

using namespace runlens::importers::trace;
using namespace runlens::models::trace;
using runlens::test::AnalysisTraceBuilder;

namespace {

QString describe(const StepPhaseTimes& t)
{
    QStringList parts;
    for (int p = 0; p < kStepPhaseCount; ++p)
        parts << QStringLiteral("%1=%2/%3")
                     .arg(QLatin1String(stepPhaseId(StepPhase(p))))
                     .arg(t.cpuNs[std::size_t(p)])
                     .arg(t.gpuNs[std::size_t(p)]);
    return QStringLiteral("step %1 [host %2 ns, analysed %3 ns]: ").arg(t.number).arg(t.cpuDuration()).arg(t.duration())
        + parts.join(QLatin1Char(' '));
}

StepPhases phasesOf(const TraceStore& store)
{
    return computeStepPhases(store, computeStepBreakdown(store));
}

/// Every step's host phases sum to its host step time (the ProfilerStep span) and its device phases to no
/// more than its analysed range.
void checkSums(const StepPhases& phases)
{
    for (const StepPhaseTimes& st : phases.steps) {
        std::int64_t cpu = 0;
        std::int64_t gpu = 0;
        for (int p = 0; p < kStepPhaseCount; ++p) {
            QVERIFY2(st.cpuNs[std::size_t(p)] >= 0 && st.gpuNs[std::size_t(p)] >= 0, qPrintable(describe(st)));
            cpu += st.cpuNs[std::size_t(p)];
            gpu += st.gpuNs[std::size_t(p)];
        }
        QVERIFY2(cpu == st.cpuDuration(), qPrintable(describe(st)));
        QVERIFY2(gpu <= st.duration(), qPrintable(describe(st)));
    }
}

} // namespace

class TstStepPhases : public QObject
{
    Q_OBJECT
private slots:
    void names_data();
    void names();
    void handBuiltStep();
    void autogradThread();
    void deviceTimeFollowsLauncher();
    void syntheticTrainingTrace();
    void realSamples_data();
    void realSamples();
    void emptyStore();
};

void TstStepPhases::names_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("phase");
    const auto row = [](const char* tag, EventKind kind, const char* name, int phase) {
        QTest::newRow(tag) << int(kind) << QString::fromLatin1(name) << phase;
    };
    // Names as the shared sample traces spell them (2020-2024 Kineto, legacy `Operator` category).
    row("loader", EventKind::CpuOp, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
        int(StepPhase::DataLoading));
    row("datapipe", EventKind::UserAnnotation, "enumerate(DataPipe)#ShufflerIterDataPipe", int(StepPhase::DataLoading));
    row("step", EventKind::UserAnnotation, "Optimizer.step#SGD.step", int(StepPhase::Optimizer));
    row("zero_grad", EventKind::CpuOp, "Optimizer.zero_grad#SGD.zero_grad", int(StepPhase::Optimizer));
    row("evaluate", EventKind::CpuOp, "autograd::engine::evaluate_function: AddmmBackward0", int(StepPhase::Backward));
    row("legacy node", EventKind::CpuOp, "NllLossBackward", int(StepPhase::Backward));
    row("compiled", EventKind::CpuOp, "CompiledFunctionBackward", int(StepPhase::Backward));
    row("module", EventKind::Python, "nn.Module: Linear_0", int(StepPhase::Forward));
    row("## forward ##", EventKind::UserAnnotation, "## forward ##0", int(StepPhase::Forward));
    row("## backward ##", EventKind::UserAnnotation, "## backward ##3", int(StepPhase::Backward));
    row("## optimizer ##", EventKind::UserAnnotation, "## optimizer ##1", int(StepPhase::Optimizer));
    row("aten op", EventKind::CpuOp, "aten::mm", -1);
    row("aten backward op", EventKind::CpuOp, "aten::convolution_backward", -1);
    row("python frame", EventKind::Python, "train.py(42): forward", -1);
    row("kernel", EventKind::Kernel, "volta_sgemm_128x64_nn", -1);
}

void TstStepPhases::names()
{
    QFETCH(int, kind);
    QFETCH(QString, name);
    QFETCH(int, phase);
    QCOMPARE(stepPhaseOfSlice(EventKind(kind), name.toStdString()), phase);
}

void TstStepPhases::handBuiltStep()
{
    AnalysisTraceBuilder t;
    const int cpu = t.cpu();
    // 0-100 loader, 100-400 forward ops, 400-600 backward, 600-700 optimizer (with an op inside), 700-1000 idle.
    t.step(0, 1, 0, 1000);
    t.slice(cpu, 0, 100, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", EventKind::UserAnnotation);
    t.slice(cpu, 10, 50, "aten::stack", EventKind::CpuOp);
    t.slice(cpu, 100, 150, "aten::conv2d", EventKind::CpuOp);
    t.slice(cpu, 250, 150, "aten::relu", EventKind::CpuOp);
    t.slice(cpu, 400, 200, "autograd::engine::evaluate_function: ConvolutionBackward0", EventKind::CpuOp);
    t.slice(cpu, 600, 100, "Optimizer.step#SGD.step", EventKind::UserAnnotation);
    t.slice(cpu, 610, 80, "aten::add_", EventKind::CpuOp);
    const auto store = t.finish();
    const StepPhases phases = phasesOf(*store);
    QCOMPARE(phases.steps.size(), std::size_t(1));
    const StepPhaseTimes& st = phases.steps.front();
    QCOMPARE(st.cpu(StepPhase::DataLoading), 100);
    QCOMPARE(st.cpu(StepPhase::Forward), 300);
    QCOMPARE(st.cpu(StepPhase::Backward), 200);
    QCOMPARE(st.cpu(StepPhase::Optimizer), 100);
    QCOMPARE(st.cpu(StepPhase::Other), 300);
    QCOMPARE(st.forwardBackwardRatio(), 1.5);
    QVERIFY(phases.sources.front().hasPhases);
    QVERIFY(!phases.sources.front().hasDevice);
    checkSums(phases);
}

void TstStepPhases::autogradThread()
{
    // PyTorch runs CUDA backward on its own thread: every op there is backward, also the ones without an
    // autograd name (AccumulateGrad, copies); the main thread waits inside `## backward ##`.
    AnalysisTraceBuilder t;
    const int cpu = t.cpu();
    const int process = t.builder().process(0, 100);
    const int autograd = t.builder().threadTrack(process, 2, TrackType::Thread);
    t.step(0, 1, 0, 1000);
    t.slice(cpu, 0, 300, "## forward ##", EventKind::UserAnnotation);
    t.slice(cpu, 20, 200, "aten::linear", EventKind::CpuOp);
    t.slice(cpu, 300, 500, "## backward ##", EventKind::UserAnnotation);
    t.slice(autograd, 320, 200, "autograd::engine::evaluate_function: AddmmBackward0", EventKind::CpuOp);
    t.slice(autograd, 520, 200, "torch::autograd::AccumulateGrad", EventKind::CpuOp);
    t.slice(cpu, 850, 100, "Optimizer.step#Adam.step", EventKind::UserAnnotation);
    const auto store = t.finish();
    const StepPhases phases = phasesOf(*store);
    const StepPhaseTimes& st = phases.steps.front();
    QCOMPARE(st.cpu(StepPhase::Forward), 300);
    QCOMPARE(st.cpu(StepPhase::Backward), 500);
    QCOMPARE(st.cpu(StepPhase::Optimizer), 100);
    QCOMPARE(st.cpu(StepPhase::Other), 100);
    checkSums(phases);

    // Without the main thread's annotation the autograd thread alone still makes the backward phase.
    AnalysisTraceBuilder u;
    const int process2 = u.builder().process(0, 100);
    const int autograd2 = u.builder().threadTrack(process2, 2, TrackType::Thread);
    u.step(0, 1, 0, 1000);
    u.slice(u.cpu(), 0, 300, "aten::linear", EventKind::CpuOp);
    u.slice(autograd2, 300, 400, "torch::autograd::AccumulateGrad", EventKind::CpuOp);
    u.slice(autograd2, 700, 100, "AddmmBackward", EventKind::CpuOp);
    const auto store2 = u.finish();
    const StepPhaseTimes st2 = phasesOf(*store2).steps.front();
    QCOMPARE(st2.cpu(StepPhase::Forward), 300);
    QCOMPARE(st2.cpu(StepPhase::Backward), 500);
}

void TstStepPhases::deviceTimeFollowsLauncher()
{
    AnalysisTraceBuilder t;
    const int cpu = t.cpu();
    t.step(0, 1, 0, 2000);
    t.slice(cpu, 0, 400, "aten::mm", EventKind::CpuOp);
    t.launch(0, 100, 10, 150, 300, "volta_sgemm"); // forward, 300 ns
    t.slice(cpu, 500, 400, "autograd::engine::evaluate_function: MmBackward0", EventKind::CpuOp);
    t.launch(0, 600, 10, 600, 700, "volta_sgemm_nt"); // backward, 700 ns
    t.slice(cpu, 1000, 300, "Optimizer.step#SGD.step", EventKind::UserAnnotation);
    t.launch(0, 1100, 10, 1400, 200, "multi_tensor_apply_kernel"); // optimizer, 200 ns after the CPU scope
    t.launch(0, 1500, 10, 1600, 100, "stray_kernel"); // launched outside every phase: other
    const auto store = t.finish();
    const StepPhases phases = phasesOf(*store);
    const StepPhaseTimes& st = phases.steps.front();
    QVERIFY(phases.sources.front().hasDevice);
    QCOMPARE(st.gpu(StepPhase::Forward), 300);
    QCOMPARE(st.gpu(StepPhase::Backward), 700);
    QCOMPARE(st.gpu(StepPhase::Optimizer), 200);
    QCOMPARE(st.gpu(StepPhase::Other), 100);
    QCOMPARE(st.gpu(StepPhase::DataLoading), 0);
    checkSums(phases);
}

void TstStepPhases::syntheticTrainingTrace()
{
    const auto store = runlens::test::syntheticTrainingTrace(6);
    const StepBreakdown breakdown = computeStepBreakdown(*store);
    const StepPhases phases = computeStepPhases(*store, breakdown);
    QCOMPARE(phases.steps.size(), breakdown.steps.size());
    for (std::size_t i = 0; i < phases.steps.size(); ++i) {
        QCOMPARE(phases.steps[i].start, breakdown.steps[i].start);
        QCOMPARE(phases.steps[i].end, breakdown.steps[i].end);
        for (StepPhase p : { StepPhase::DataLoading, StepPhase::Forward, StepPhase::Backward, StepPhase::Optimizer })
            QVERIFY2(phases.steps[i].cpu(p) > 0 && phases.steps[i].gpu(p) >= 0, qPrintable(describe(phases.steps[i])));
        QVERIFY(phases.steps[i].gpu(StepPhase::Forward) > 0);
        QVERIFY(phases.steps[i].gpu(StepPhase::Backward) > 0);
    }
    checkSums(phases);
    const auto* summary = phases.summaryFor(0);
    QVERIFY(summary && summary->stepCount == 6);
    QVERIFY(summary->average.cpu(StepPhase::Forward) > 0);
}

void TstStepPhases::realSamples_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("present"); // phases the sample's names show
    QTest::addColumn<bool>("gpu");
    const QStringList all { QStringLiteral("data_loading"), QStringLiteral("forward"), QStringLiteral("backward"),
                            QStringLiteral("optimizer") };
    const QStringList noLoader { QStringLiteral("forward"), QStringLiteral("backward"), QStringLiteral("optimizer") };
    // 2021: legacy `Operator` names, backward nodes without evaluate_function on their own thread.
    QTest::newRow("2021 resnet50") << QStringLiteral(
        "traces/kineto/2021_resnet50_v100/worker0.1623143089861.pt.trace.json.gz")
                                   << all << true;
    QTest::newRow("2020 array") << QStringLiteral("traces/kineto/2020_toplevel_array/worker0.pt.trace.json.gz") << all
                                << true;
    // 2024: `## forward ##` annotations and the autograd thread's evaluate_function ops.
    QTest::newRow("2024 nccl") << QStringLiteral("traces/kineto/2024_nccl_rank0_of_2/nccl_data.json.gz") << noLoader
                               << true;
    QTest::newRow("ns resolution") << QStringLiteral(
        "traces/kineto/ns_resolution/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz")
                                   << noLoader << true;
    QTest::newRow("baseline") << QStringLiteral(
        "runs/pytorch_cnn_baseline/profiler/worker0.1795321630770.pt.trace.json")
                              << all << false;
}

void TstStepPhases::realSamples()
{
    QFETCH(QString, path);
    QFETCH(QStringList, present);
    QFETCH(bool, gpu);
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString file = samples + QLatin1Char('/') + path;
    RUNLENS_REQUIRE_SAMPLE_FILE(file);
    const auto store = ChromeTraceReader::read({ file }).store;
    QVERIFY(store && !store->steps().empty());
    const StepBreakdown breakdown = computeStepBreakdown(*store);
    const StepPhases phases = computeStepPhases(*store, breakdown);
    QCOMPARE(phases.steps.size(), breakdown.steps.size());
    checkSums(phases);
    for (const StepPhaseTimes& st : phases.steps) {
        for (int p = 0; p < kStepPhaseCount - 1; ++p) {
            const auto phase = StepPhase(p);
            if (present.contains(QLatin1String(stepPhaseId(phase))))
                QVERIFY2(st.cpu(phase) > 0,
                         qPrintable(QStringLiteral("%1 missing in %2").arg(stepPhaseId(phase), describe(st))));
        }
        if (gpu)
            QVERIFY2(st.gpu(StepPhase::Forward) > 0 && st.gpu(StepPhase::Backward) > 0, qPrintable(describe(st)));
    }
}

void TstStepPhases::emptyStore()
{
    AnalysisTraceBuilder t;
    const auto store = t.finish();
    const StepPhases phases = phasesOf(*store);
    QVERIFY(phases.isEmpty());
    QVERIFY(phases.sources.empty());
}

QTEST_GUILESS_MAIN(TstStepPhases)
#include "tst_stepphases.moc"
