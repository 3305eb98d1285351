#include "models/advisor/advisor.h"
#include "models/advisor/analysis.h"
#include "models/advisor/evidence.h"
#include "tests/models/advisor/performancetestutils.h"
#include "tests/testutils.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace runlens;
using namespace runlens::models::advisor;
using models::trace::EventKind;
using runlens::test::AnalysisTraceBuilder;
using runlens::test::measured;

namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kUs = 1'000;

struct Analysed
{
    RuleBook rules;
    AnalysisContext context { rules };
};

std::unique_ptr<Analysed> analyse(std::shared_ptr<const models::trace::TraceStore> store)
{
    auto result = std::make_unique<Analysed>();
    analyseTraces(test::traceInput(std::move(store)), result->context);
    return result;
}

/// Steps of 10 ms whose data loader spans take `loaderMs[i]` at the start of step i + 1.
std::shared_ptr<const models::trace::TraceStore> loaderTrace(const std::vector<double>& loaderMs)
{
    AnalysisTraceBuilder t;
    std::int64_t start = 0;
    for (std::size_t i = 0; i < loaderMs.size(); ++i) {
        t.step(0, std::int64_t(i) + 1, start, 10 * kMs);
        t.slice(t.cpu(), start + 100 * kUs, std::int64_t(loaderMs[i] * double(kMs)),
                "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", EventKind::UserAnnotation);
        start += 10 * kMs;
    }
    return t.finish();
}

/// Steps of a GPU training loop whose forward takes `forwardMs` on the host without launching anything (ops
/// that fell back to the CPU) and whose backward takes 3 ms on the autograd path launching 2 ms of kernels.
std::shared_ptr<const models::trace::TraceStore> phaseTrace(const std::vector<double>& forwardMs)
{
    AnalysisTraceBuilder t;
    std::int64_t start = 0;
    for (std::size_t i = 0; i < forwardMs.size(); ++i) {
        const auto forward = std::int64_t(forwardMs[i] * double(kMs));
        const std::int64_t length = forward + 6 * kMs;
        t.step(0, std::int64_t(i) + 1, start, length);
        t.slice(t.cpu(), start + 100 * kUs, 800 * kUs, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                EventKind::UserAnnotation);
        t.slice(t.cpu(), start + 1 * kMs, forward, "aten::nonzero", EventKind::CpuOp);
        const std::int64_t backward = start + 1 * kMs + forward;
        t.slice(t.cpu(), backward, 3 * kMs, "autograd::engine::evaluate_function: AddmmBackward0", EventKind::CpuOp);
        t.launch(0, backward + 100 * kUs, 20 * kUs, backward + 200 * kUs, 2 * kMs, "volta_sgemm_128x64_nt");
        t.slice(t.cpu(), backward + 3 * kMs, 1 * kMs, "Optimizer.step#SGD.step", EventKind::UserAnnotation);
        start += length + 100 * kUs;
    }
    return t.finish();
}

} // namespace

class TestTraceAnalysis : public QObject
{
    Q_OBJECT

private slots:
    void dataLoaderShare();
    void dataLoaderShareHealthy();
    void deviceUtilization();
    void shortKernels();
    void shortKernelsTooFew();
    void launchDelays();
    void communicationShareAndOverlap();
    void cpuOnlyTraceMarksDeviceMetricsMissing();
    void topOperator();
    void topOperatorOfAlmostNothing();
    void zeroGrad();
    void singleTensorOptimizer();
    void syncDataLoader();
    void convBiasBeforeBatchNorm();
    void halfMatmulAlignment();
    void copyAfterFill();
    void shapesMissing();
    void patternMessages();
    void noTrace();
    void brokenTrace();
    void resnetSampleNumWorkersZero();
    void slowLoaderRecordedWithTorch();
    void healthyBaselineSample();
    void forwardSlowerThanBackward();
    void forwardBackwardHealthySamples_data();
    void forwardBackwardHealthySamples();
};

void TestTraceAnalysis::dataLoaderShare()
{
    // 4 + 6 + 4 ms of loading in 3 steps of 10 ms: 14 / 30 of the time; step 2 is the worst (60 %).
    const auto a = analyse(loaderTrace({ 4, 6, 4 }));
    const auto found = measured(a->context, QStringLiteral("trace.dataloader_share"));
    QCOMPARE(found.size(), std::size_t(1));
    const Measurement& m = found.front();
    QVERIFY(qAbs(m.value - 100.0 * 14.0 / 30.0) < 1e-6);
    QCOMPARE(m.scope.run, QStringLiteral("run"));
    QCOMPARE(m.facts.value(QStringLiteral("worst_step")).toLongLong(), 2);
    QVERIFY(qAbs(m.facts.value(QStringLiteral("worst_share")).toDouble() - 60.0) < 1e-6);
    QVERIFY(qAbs(m.facts.value(QStringLiteral("step_ms")).toDouble() - 10.0) < 1e-9);
    const auto evidence = parseEvidence(m.evidence.value(0));
    QVERIFY(evidence);
    QCOMPARE(evidence->kind, QStringLiteral("trace"));
    QCOMPARE(evidence->value(QStringLiteral("start_ns")).toLongLong(), 10 * kMs);
    QCOMPARE(evidence->value(QStringLiteral("end_ns")).toLongLong(), 20 * kMs);
    QVERIFY(a->context.isEvaluated(QStringLiteral("trace.dataloader_share")));
}

void TestTraceAnalysis::dataLoaderShareHealthy()
{
    const auto a = analyse(loaderTrace({ 0.2, 0.2, 0.2 }));
    const auto found = measured(a->context, QStringLiteral("trace.dataloader_share"));
    QCOMPARE(found.size(), std::size_t(1));
    QVERIFY(qAbs(found.front().value - 2.0) < 1e-6);
    QVERIFY(!holds(Comparator::Greater, found.front().value, 5.0));
}

void TestTraceAnalysis::deviceUtilization()
{
    // Two 10 ms steps; the GPU runs 2 ms in the first and 3 ms in the second: 25 % busy.
    for (const auto& [kernelMs, expected] : { std::pair { std::array { 2, 3 }, 25.0 }, { { 8, 9 }, 85.0 } }) {
        AnalysisTraceBuilder t;
        for (int s = 0; s < 2; ++s) {
            const std::int64_t start = s * 10 * kMs;
            t.step(0, s + 1, start, 10 * kMs);
            t.launch(0, start + 100 * kUs, 20 * kUs, start + 500 * kUs, kernelMs[std::size_t(s)] * kMs, "gemm");
        }
        const auto store = t.finish();
        const auto a = analyse(store);
        const auto found = measured(a->context, QStringLiteral("trace.device_utilization"));
        QCOMPARE(found.size(), std::size_t(1));
        QVERIFY2(qAbs(found.front().value - expected) < 1e-6, qPrintable(QString::number(found.front().value)));
        QVERIFY(!found.front().scope.device.isEmpty());
        QCOMPARE(holds(Comparator::Less, found.front().value, 50.0), expected < 50.0);
        QCOMPARE(test::firedRules(evaluate(test::traceInput(store), RuleBook::builtIn()))
                     .contains(QStringLiteral("low-device-utilization")),
                 expected < 50.0);
    }
}

void TestTraceAnalysis::shortKernels()
{
    // 30 launches of 10 µs; kernels of 4 µs (all shorter) or 40 µs (none shorter).
    for (const auto& [kernelUs, expected] : { std::pair { 4, 100.0 }, { 40, 0.0 } }) {
        AnalysisTraceBuilder t;
        t.step(0, 1, 0, 10 * kMs);
        for (int i = 0; i < 30; ++i)
            t.launch(0, 100 * kUs + i * 200 * kUs, 10 * kUs, 150 * kUs + i * 200 * kUs, kernelUs * kUs, "small");
        const auto store = t.finish();
        const auto a = analyse(store);
        const auto found = measured(a->context, QStringLiteral("trace.short_kernel_share"));
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().value, expected);
        QCOMPARE(found.front().facts.value(QStringLiteral("kernels")).toLongLong(), 30);
        QVERIFY(qAbs(found.front().facts.value(QStringLiteral("launch_us")).toDouble() - 10.0) < 1e-9);
        QCOMPARE(test::firedRules(evaluate(test::traceInput(store), RuleBook::builtIn()))
                     .contains(QStringLiteral("host-bound-launches")),
                 expected > 80.0);
    }
}

void TestTraceAnalysis::launchDelays()
{
    // 30 launches; two in three kernels start 300 µs after their call (over the 100 µs limit), the rest 50 µs.
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 20 * kMs);
    for (int i = 0; i < 30; ++i) {
        const std::int64_t call = 100 * kUs + i * 500 * kUs;
        t.launch(0, call, 10 * kUs, call + (i % 3 ? 300 : 50) * kUs, 20 * kUs, i == 29 ? "late" : "k");
    }
    const auto store = t.finish();
    const auto a = analyse(store);
    const auto found = measured(a->context, QStringLiteral("trace.launch_delay_share"));
    QCOMPARE(found.size(), std::size_t(1));
    QVERIFY(qAbs(found.front().value - 200.0 / 3.0) < 1e-9);
    QCOMPARE(found.front().facts.value(QStringLiteral("delayed")).toLongLong(), 20);
    QVERIFY(qAbs(found.front().facts.value(QStringLiteral("delay_us")).toDouble() - 6500.0 / 30.0) < 1e-9);
    // The longest delay is the first 300 µs one (launch 1): its call start to its kernel end.
    const auto evidence = parseEvidence(found.front().evidence.value(0));
    QCOMPARE(evidence->value(QStringLiteral("start_ns")).toLongLong(), 600 * kUs);
    QCOMPARE(evidence->value(QStringLiteral("end_ns")).toLongLong(), 920 * kUs);
    QVERIFY(test::firedRules(evaluate(test::traceInput(store), RuleBook::builtIn()))
                .contains(QStringLiteral("long-launch-queue")));
}

void TestTraceAnalysis::shortKernelsTooFew()
{
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 10 * kMs);
    for (int i = 0; i < 5; ++i)
        t.launch(0, 100 * kUs + i * 200 * kUs, 10 * kUs, 150 * kUs + i * 200 * kUs, 2 * kUs, "small");
    const auto a = analyse(t.finish());
    QVERIFY(a->context.isEvaluated(QStringLiteral("trace.short_kernel_share")));
    QVERIFY(measured(a->context, QStringLiteral("trace.short_kernel_share")).empty());
}

void TestTraceAnalysis::communicationShareAndOverlap()
{
    // One 10 ms step: a compute kernel from 0.5 to 4 ms, an all-reduce from 3 to 6 ms. Communication alone
    // (nothing of higher priority running) is 4..6 ms = 20 % of the step; 1 ms of its 3 ms overlaps compute.
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 10 * kMs);
    t.launch(0, 100 * kUs, 20 * kUs, 500 * kUs, 3500 * kUs, "volta_sgemm_128x64_nn");
    t.launch(0, 200 * kUs, 20 * kUs, 3 * kMs, 3 * kMs, "ncclKernel_AllReduce_RING_LL_Sum_float",
             EventKind::Communication);
    const auto store = t.finish();
    const auto a = analyse(store);
    const auto share = measured(a->context, QStringLiteral("trace.communication_share"));
    QCOMPARE(share.size(), std::size_t(1));
    QVERIFY2(qAbs(share.front().value - 20.0) < 1e-6, qPrintable(QString::number(share.front().value)));
    const auto overlap = measured(a->context, QStringLiteral("trace.comm_overlap"));
    QCOMPARE(overlap.size(), std::size_t(1));
    QVERIFY2(qAbs(overlap.front().value - 100.0 / 3.0) < 1e-6, qPrintable(QString::number(overlap.front().value)));
    QVERIFY(qAbs(overlap.front().facts.value(QStringLiteral("exposed_ms")).toDouble() - 2.0) < 1e-9);
    // Through the engine: 20 % > 10 % and 33 % < 50 % fire both rules.
    const QStringList fired = test::firedRules(evaluate(test::traceInput(store), RuleBook::builtIn()));
    QVERIFY2(fired.contains(QStringLiteral("communication-share")), qPrintable(fired.join(u' ')));
    QVERIFY2(fired.contains(QStringLiteral("low-communication-overlap")), qPrintable(fired.join(u' ')));

    // The same step without the all-reduce: no communication to overlap, the share is 0.
    AnalysisTraceBuilder quiet;
    quiet.step(0, 1, 0, 10 * kMs);
    quiet.launch(0, 100 * kUs, 20 * kUs, 500 * kUs, 3500 * kUs, "volta_sgemm_128x64_nn");
    const auto b = analyse(quiet.finish());
    QCOMPARE(measured(b->context, QStringLiteral("trace.communication_share")).front().value, 0.0);
    QVERIFY(!b->context.isEvaluated(QStringLiteral("trace.comm_overlap")));
    QVERIFY(!b->context.missingReason(QStringLiteral("trace.comm_overlap")).isEmpty());
}

void TestTraceAnalysis::cpuOnlyTraceMarksDeviceMetricsMissing()
{
    const auto a = analyse(loaderTrace({ 1, 1 }));
    for (const char* metric : { "trace.device_utilization", "trace.short_kernel_share", "trace.launch_delay_share" }) {
        QVERIFY(!a->context.isEvaluated(QLatin1String(metric)));
        QVERIFY(a->context.missingReason(QLatin1String(metric)).contains(QLatin1String("CPU-only")));
    }
    // A CPU-only (gloo) run still communicates: 3 ms of all_reduce ops in a 10 ms step is 30 %.
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 10 * kMs);
    t.slice(t.cpu(), 5 * kMs, 3 * kMs, "gloo:all_reduce", EventKind::CpuOp);
    const auto gloo = analyse(t.finish());
    const auto share = measured(gloo->context, QStringLiteral("trace.communication_share"));
    QCOMPARE(share.size(), std::size_t(1));
    QVERIFY2(qAbs(share.front().value - 30.0) < 1e-9, qPrintable(QString::number(share.front().value)));
}

void TestTraceAnalysis::topOperator()
{
    // Three ops launching 6, 2 and 2 ms of kernels (60 % for aten::mm), then 4, 3, 3 ms (40 %).
    for (const auto& [times, expected] : { std::pair { std::array { 6, 2, 2 }, 60.0 }, { { 4, 3, 3 }, 40.0 } }) {
        AnalysisTraceBuilder t;
        t.step(0, 1, 0, 30 * kMs);
        const char* names[] = { "aten::mm", "aten::add", "aten::relu" };
        std::int64_t at = 100 * kUs;
        std::int64_t gpu = 200 * kUs;
        for (int i = 0; i < 3; ++i) {
            t.slice(t.cpu(), at, 500 * kUs, names[i], EventKind::CpuOp);
            t.launch(0, at + 100 * kUs, 20 * kUs, gpu, times[std::size_t(i)] * kMs, "kernel");
            gpu += times[std::size_t(i)] * kMs + 100 * kUs;
            at += 1 * kMs;
        }
        const auto store = t.finish();
        const auto a = analyse(store);
        const auto found = measured(a->context, QStringLiteral("trace.top_op_share"));
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().scope.op, QStringLiteral("aten::mm"));
        QVERIFY2(qAbs(found.front().value - expected) < 1e-6, qPrintable(QString::number(found.front().value)));
        QCOMPARE(parseEvidence(found.front().evidence.value(0))->value(QStringLiteral("op")),
                 QStringLiteral("aten::mm"));
        QCOMPARE(test::firedRules(evaluate(test::traceInput(store), RuleBook::builtIn()))
                     .contains(QStringLiteral("dominant-operator")),
                 expected > 50.0);
    }
}

void TestTraceAnalysis::topOperatorOfAlmostNothing()
{
    // 0.1 ms of kernels in all: below the rule's min_time_ms, no operator is said to dominate.
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 30 * kMs);
    const char* names[] = { "aten::mm", "aten::add", "aten::relu" };
    for (int i = 0; i < 3; ++i) {
        t.slice(t.cpu(), (1 + i) * kMs, 500 * kUs, names[i], EventKind::CpuOp);
        t.launch(0, (1 + i) * kMs + 100 * kUs, 20 * kUs, (1 + i) * kMs + 200 * kUs, (i == 0 ? 80 : 10) * kUs, "k");
    }
    const auto a = analyse(t.finish());
    QVERIFY(a->context.isEvaluated(QStringLiteral("trace.top_op_share")));
    QVERIFY(measured(a->context, QStringLiteral("trace.top_op_share")).empty());
}

void TestTraceAnalysis::zeroGrad()
{
    for (const bool fills : { true, false }) {
        AnalysisTraceBuilder t;
        t.step(0, 1, 0, 10 * kMs);
        t.slice(t.cpu(), 1 * kMs, 1 * kMs, "Optimizer.zero_grad#SGD.zero_grad", EventKind::UserAnnotation);
        if (fills)
            t.slice(t.cpu(), 1100 * kUs, 200 * kUs, "aten::zero_", EventKind::CpuOp);
        // aten::zero_ inside aten::zeros creates a tensor: never the pattern.
        t.slice(t.cpu(), 3 * kMs, 1 * kMs, "aten::zeros", EventKind::CpuOp);
        t.slice(t.cpu(), 3100 * kUs, 100 * kUs, "aten::zero_", EventKind::CpuOp);
        const auto a = analyse(t.finish());
        const auto found = measured(a->context, QStringLiteral("pattern.zero_grad"));
        QCOMPARE(found.size(), std::size_t(fills ? 1 : 0));
        QVERIFY(a->context.isEvaluated(QStringLiteral("pattern.zero_grad")));
        if (fills) {
            QCOMPARE(found.front().value, 1.0);
            QCOMPARE(parseEvidence(found.front().evidence.value(0))->value(QStringLiteral("start_ns")).toLongLong(),
                     1 * kMs);
        }
    }
}

void TestTraceAnalysis::singleTensorOptimizer()
{
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 10 * kMs);
    for (int i = 0; i < 3; ++i)
        t.slice(t.cpu(), (1 + i) * kMs, 500 * kUs, "torch/optim/adam.py(341): _single_tensor_adam", EventKind::Python);
    t.slice(t.cpu(), 5 * kMs, 500 * kUs, "torch/optim/adam.py(402): _multi_tensor_adam", EventKind::Python);
    const auto a = analyse(t.finish());
    const auto found = measured(a->context, QStringLiteral("pattern.single_tensor_optimizer"));
    QCOMPARE(found.size(), std::size_t(1));
    QCOMPARE(found.front().value, 3.0);
    QVERIFY(found.front().scope.op.endsWith(QLatin1String("_single_tensor_adam")));
}

void TestTraceAnalysis::syncDataLoader()
{
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 10 * kMs);
    t.slice(t.cpu(), 1 * kMs, 1 * kMs, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
            EventKind::UserAnnotation);
    t.step(0, 2, 10 * kMs, 10 * kMs);
    t.slice(t.cpu(), 11 * kMs, 1 * kMs, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
            EventKind::UserAnnotation);
    const auto a = analyse(t.finish());
    const auto found = measured(a->context, QStringLiteral("pattern.sync_dataloader"));
    QCOMPARE(found.size(), std::size_t(1));
    QCOMPARE(found.front().value, 2.0);

    const auto healthy = analyse(loaderTrace({ 1, 1 })); // multi-process loader iterators
    QVERIFY(measured(healthy->context, QStringLiteral("pattern.sync_dataloader")).empty());
    QVERIFY(healthy->context.isEvaluated(QStringLiteral("pattern.sync_dataloader")));
}

void TestTraceAnalysis::convBiasBeforeBatchNorm()
{
    for (const bool bias : { true, false }) {
        AnalysisTraceBuilder t;
        t.step(0, 1, 0, 10 * kMs);
        t.slice(t.cpu(), 1 * kMs, 1 * kMs, "aten::conv2d", EventKind::CpuOp,
                bias ? "{\"Input Dims\": [[8, 3, 32, 32], [16, 3, 3, 3], [16], [], [], [], []]}"
                     : "{\"Input Dims\": [[8, 3, 32, 32], [16, 3, 3, 3], [], [], [], [], []]}");
        t.slice(t.cpu(), 1100 * kUs, 500 * kUs, "aten::convolution", EventKind::CpuOp);
        t.slice(t.cpu(), 2500 * kUs, 1 * kMs, "aten::batch_norm", EventKind::CpuOp);
        // A conv with bias followed by ReLU is fine.
        t.slice(t.cpu(), 4 * kMs, 1 * kMs, "aten::conv2d", EventKind::CpuOp,
                "{\"Input Dims\": [[8, 16, 32, 32], [16, 16, 3, 3], [16], [], [], [], []]}");
        t.slice(t.cpu(), 5500 * kUs, 1 * kMs, "aten::relu", EventKind::CpuOp);
        const auto a = analyse(t.finish());
        const auto found = measured(a->context, QStringLiteral("pattern.conv_bias_bn"));
        QCOMPARE(found.size(), std::size_t(bias ? 1 : 0));
        QVERIFY(a->context.isEvaluated(QStringLiteral("pattern.conv_bias_bn")));
        if (bias) {
            QCOMPARE(found.front().value, 1.0);
            QCOMPARE(found.front().scope.op, QStringLiteral("aten::conv2d"));
        }
    }
}

void TestTraceAnalysis::halfMatmulAlignment()
{
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 10 * kMs);
    t.slice(t.cpu(), 1 * kMs, 100 * kUs, "aten::mm", EventKind::CpuOp,
            "{\"Input Dims\": [[30, 64], [64, 30]], \"Input type\": [\"c10::Half\", \"c10::Half\"]}");
    t.slice(t.cpu(), 2 * kMs, 100 * kUs, "aten::addmm", EventKind::CpuOp,
            "{\"Input Dims\": [[100], [32, 64], [64, 100]], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", "
            "\"c10::BFloat16\"]}");
    // Aligned fp16 and unaligned fp32 products are fine.
    t.slice(t.cpu(), 3 * kMs, 100 * kUs, "aten::mm", EventKind::CpuOp,
            "{\"Input Dims\": [[32, 64], [64, 32]], \"Input type\": [\"c10::Half\", \"c10::Half\"]}");
    t.slice(t.cpu(), 4 * kMs, 100 * kUs, "aten::bmm", EventKind::CpuOp,
            "{\"Input Dims\": [[4, 30, 63], [4, 63, 30]], \"Input type\": [\"float\", \"float\"]}");
    const auto a = analyse(t.finish());
    const auto found = measured(a->context, QStringLiteral("pattern.fp16_matmul_align"));
    QCOMPARE(found.size(), std::size_t(1));
    // aten::mm [30, 64] x [64, 30] and aten::addmm with a bias of 100 (not a multiple of 8).
    QCOMPARE(found.front().value, 2.0);
    QCOMPARE(found.front().scope.op, QStringLiteral("aten::mm"));
    QVERIFY(found.front().facts.value(QStringLiteral("detail")).toString().contains(QLatin1String("[30,64]")));
}

void TestTraceAnalysis::copyAfterFill()
{
    for (const bool filled : { true, false }) {
        AnalysisTraceBuilder t;
        t.step(0, 1, 0, 10 * kMs);
        // torch.zeros(n).to("cuda") or torch.empty(n).to("cuda")
        t.slice(t.cpu(), 1 * kMs, 1 * kMs, filled ? "aten::zeros" : "aten::empty", EventKind::CpuOp);
        if (filled)
            t.slice(t.cpu(), 1500 * kUs, 200 * kUs, "aten::zero_", EventKind::CpuOp);
        t.slice(t.cpu(), 3 * kMs, 2 * kMs, "aten::to", EventKind::CpuOp);
        t.slice(t.cpu(), 3100 * kUs, 1800 * kUs, "aten::_to_copy", EventKind::CpuOp);
        t.slice(t.cpu(), 3200 * kUs, 100 * kUs, "aten::empty_strided", EventKind::CpuOp);
        t.slice(t.cpu(), 3400 * kUs, 1400 * kUs, "aten::copy_", EventKind::CpuOp);
        // A batch moved to the device after zero_grad is no pattern: the annotation zeroed other tensors.
        t.slice(t.cpu(), 6 * kMs, 1 * kMs, "Optimizer.zero_grad#SGD.zero_grad", EventKind::UserAnnotation);
        t.slice(t.cpu(), 6100 * kUs, 100 * kUs, "aten::zero_", EventKind::CpuOp);
        t.slice(t.cpu(), 7500 * kUs, 2 * kMs, "aten::to", EventKind::CpuOp);
        t.slice(t.cpu(), 7600 * kUs, 1800 * kUs, "aten::_to_copy", EventKind::CpuOp);
        t.slice(t.cpu(), 7700 * kUs, 1400 * kUs, "aten::copy_", EventKind::CpuOp);
        const auto a = analyse(t.finish());
        const auto found = measured(a->context, QStringLiteral("pattern.copy_after_fill"));
        QCOMPARE(found.size(), std::size_t(filled ? 1 : 0));
        if (filled) {
            QCOMPARE(found.front().value, 1.0);
            QCOMPARE(found.front().facts.value(QStringLiteral("detail")).toString(), QStringLiteral("aten::zero_"));
            QCOMPARE(parseEvidence(found.front().evidence.value(0))->value(QStringLiteral("start_ns")).toLongLong(),
                     3 * kMs);
        }
    }
}

void TestTraceAnalysis::patternMessages()
{
    // One trace with every pattern once: each built-in pattern rule reports it with a complete message.
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 20 * kMs);
    t.slice(t.cpu(), 1 * kMs, 1 * kMs, "Optimizer.zero_grad#SGD.zero_grad", EventKind::UserAnnotation);
    t.slice(t.cpu(), 1100 * kUs, 200 * kUs, "aten::zero_", EventKind::CpuOp);
    t.slice(t.cpu(), 2500 * kUs, 400 * kUs, "torch/optim/sgd.py(250): _single_tensor_sgd", EventKind::Python);
    t.slice(t.cpu(), 3 * kMs, 1 * kMs, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
            EventKind::UserAnnotation);
    t.slice(t.cpu(), 5 * kMs, 1 * kMs, "aten::conv2d", EventKind::CpuOp,
            "{\"Input Dims\": [[8, 3, 32, 32], [16, 3, 3, 3], [16]]}");
    t.slice(t.cpu(), 6500 * kUs, 1 * kMs, "aten::batch_norm", EventKind::CpuOp);
    t.slice(t.cpu(), 8 * kMs, 100 * kUs, "aten::mm", EventKind::CpuOp,
            "{\"Input Dims\": [[30, 64], [64, 30]], \"Input type\": [\"c10::Half\", \"c10::Half\"]}");
    t.slice(t.cpu(), 9 * kMs, 1 * kMs, "aten::ones", EventKind::CpuOp);
    t.slice(t.cpu(), 9100 * kUs, 100 * kUs, "aten::fill_", EventKind::CpuOp);
    t.slice(t.cpu(), 11 * kMs, 2 * kMs, "aten::to", EventKind::CpuOp);
    t.slice(t.cpu(), 11100 * kUs, 1800 * kUs, "aten::_to_copy", EventKind::CpuOp);
    t.slice(t.cpu(), 11200 * kUs, 1400 * kUs, "aten::copy_", EventKind::CpuOp);
    const AdvisorReport report = evaluate(test::traceInput(t.finish()), RuleBook::builtIn());
    const QStringList fired = test::firedRules(report);
    for (const char* rule : { "zero-grad-not-set-to-none", "single-tensor-optimizer", "synchronous-dataloader",
                              "conv-bias-before-batchnorm", "fp16-matmul-alignment", "copy-after-fill" })
        QVERIFY2(fired.contains(QLatin1String(rule)), rule);
}

void TestTraceAnalysis::shapesMissing()
{
    AnalysisTraceBuilder t;
    t.step(0, 1, 0, 10 * kMs);
    t.slice(t.cpu(), 1 * kMs, 100 * kUs, "aten::mm", EventKind::CpuOp);
    const auto a = analyse(t.finish());
    QVERIFY(!a->context.isEvaluated(QStringLiteral("pattern.fp16_matmul_align")));
    QVERIFY(a->context.missingReason(QStringLiteral("pattern.fp16_matmul_align")).contains(QLatin1String("shapes")));
    QVERIFY(a->context.isEvaluated(QStringLiteral("pattern.zero_grad")));
}

void TestTraceAnalysis::brokenTrace()
{
    // A file that is no trace at all, and one cut off in its first event: no crash, reasons instead.
    for (const std::string bytes :
         { std::string("not a trace"), std::string("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"ProfilerSt") }) {
        const auto store = importers::trace::ChromeTraceReader::readBytes(bytes, QStringLiteral("broken.json")).store;
        QVERIFY(store);
        const auto a = analyse(store);
        QVERIFY(a->context.measurements().empty());
        QVERIFY(!a->context.isEvaluated(QStringLiteral("trace.dataloader_share")));
        QVERIFY(!a->context.missingReason(QStringLiteral("trace.dataloader_share")).isEmpty());
    }
}

void TestTraceAnalysis::noTrace()
{
    RuleBook rules;
    AnalysisContext context(rules);
    analyseTraces(AdvisorInput {}, context);
    QVERIFY(context.measurements().empty());
    for (const char* metric : { "trace.dataloader_share", "trace.device_utilization", "trace.top_op_share",
                                "pattern.zero_grad", "pattern.copy_after_fill" }) {
        QVERIFY(!context.isEvaluated(QLatin1String(metric)));
        QCOMPARE(context.missingReason(QLatin1String(metric)), QStringLiteral("no profiler trace is loaded"));
    }
}

void TestTraceAnalysis::resnetSampleNumWorkersZero()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path
        = samples + QStringLiteral("/traces/kineto/2021_resnet50_v100/worker0.1623143089861.pt.trace.json.gz");
    const auto store = test::readTraces({ path });
    QVERIFY(store && !store->steps().empty());
    const auto a = analyse(store);
    const auto share = measured(a->context, QStringLiteral("trace.dataloader_share"));
    QCOMPARE(share.size(), std::size_t(1));
    // tb_plugin's own overview of this run (num_workers=0) is dominated by data loading.
    const test::PythonRun run = test::runPerformanceOracle(QStringLiteral("dataloader_share.py"), { path });
    RUNLENS_VERIFY_PYTHON(run);
    const QString oracle = run.output;
    QVERIFY2(qAbs(share.front().value - oracle.trimmed().toDouble()) < 0.5,
             qPrintable(QStringLiteral("%1 vs %2").arg(share.front().value).arg(oracle.trimmed())));
    QVERIFY(share.front().value > 5.0);
    const auto sync = measured(a->context, QStringLiteral("pattern.sync_dataloader"));
    QCOMPARE(sync.size(), std::size_t(1));
    QCOMPARE(qint64(sync.front().value), qint64(store->steps().size()));
}

void TestTraceAnalysis::slowLoaderRecordedWithTorch()
{
    // Recorded by tests/data/advisor/make_slow_loader_trace.py: a dataset sleeping in __getitem__, read
    // with num_workers=0. The whole engine with the built-in rules must name the data loader.
    const QString path = QStringLiteral(RUNLENS_TEST_DATA_DIR "/advisor/performance/slow_loader.pt.trace.json.gz");
    const auto store = test::readTraces({ path });
    QVERIFY(store && store->steps().size() == 6);
    const AdvisorReport report = evaluate(test::traceInput(store, QStringLiteral("slow")), RuleBook::builtIn());
    const auto finding = std::find_if(report.findings.begin(), report.findings.end(),
                                      [](const Finding& f) { return f.ruleId == QLatin1String("dataloader-share"); });
    QVERIFY(finding != report.findings.end());
    QVERIFY(finding->category == Category::Data);
    QCOMPARE(finding->scope.run, QStringLiteral("slow"));
    QCOMPARE(finding->threshold, 5.0);
    const test::PythonRun run = test::runPerformanceOracle(QStringLiteral("dataloader_share.py"), { path });
    RUNLENS_VERIFY_PYTHON(run);
    const QString oracle = run.output;
    QVERIFY2(qAbs(finding->value - oracle.trimmed().toDouble()) < 0.5,
             qPrintable(QStringLiteral("%1 vs %2").arg(finding->value).arg(oracle.trimmed())));
    QVERIFY(finding->value > 80.0);
    QVERIFY2(finding->message.startsWith(QLatin1String("Data loading of run slow")), qPrintable(finding->message));
    QVERIFY(finding->message.contains(QLatin1String(" %")));
    QCOMPARE(parseEvidence(finding->evidence.value(0))->kind, QStringLiteral("trace"));
    // num_workers=0 is named too, once per run with the number of batches read in the training process.
    const auto sync = std::find_if(report.findings.begin(), report.findings.end(), [](const Finding& f) {
        return f.ruleId == QLatin1String("synchronous-dataloader");
    });
    QVERIFY(sync != report.findings.end());
    QCOMPARE(sync->value, 6.0);
}

void TestTraceAnalysis::healthyBaselineSample()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString run = samples + QStringLiteral("/runs/pytorch_cnn_baseline");
    QFile factsFile(run + QStringLiteral("/run_facts.json"));
    QVERIFY(factsFile.open(QIODevice::ReadOnly));
    const QJsonObject traces
        = QJsonDocument::fromJson(factsFile.readAll()).object().value(QStringLiteral("traces")).toObject();
    for (const QString name : { QStringLiteral("profiler/worker0.1795321630770.pt.trace.json"),
                                QStringLiteral("profiler/worker0.1795321630770.pt.trace.kinetofmt.json") }) {
        const auto store = test::readTraces({ run + QLatin1Char('/') + name });
        const AdvisorInput input = test::traceInput(store, QStringLiteral("baseline"));
        const auto a = analyse(store);
        const auto share = measured(a->context, QStringLiteral("trace.dataloader_share"));
        QCOMPARE(share.size(), std::size_t(1));
        // The recorder's own figure (a share of the ProfilerStep spans, rounded to 3 decimals).
        const double expected
            = 100.0 * traces.value(name).toObject().value(QStringLiteral("dataloader_share_of_steps")).toDouble();
        QVERIFY2(qAbs(share.front().value - expected) < 0.1,
                 qPrintable(QStringLiteral("%1: %2 vs %3").arg(name).arg(share.front().value).arg(expected)));
        const AdvisorReport report = evaluate(input, RuleBook::builtIn());
        for (const Finding& f : report.findings) {
            QVERIFY2(f.ruleId != QLatin1String("dataloader-share"), qPrintable(f.message));
            QVERIFY2(f.category != Category::Accuracy, qPrintable(f.message));
        }
    }
}

void TestTraceAnalysis::forwardSlowerThanBackward()
{
    // Forward 9 ms against backward 3 ms (host) / 2 ms (device): 3x, named with the steps above 1.5x.
    const auto store = phaseTrace({ 9.0, 9.0, 4.0, 9.0 });
    const auto a = analyse(store);
    const auto ratio = measured(a->context, QStringLiteral("trace.forward_backward_ratio"));
    QCOMPARE(ratio.size(), std::size_t(1));
    QVERIFY2(qAbs(ratio.front().value - 31.0 / 12.0) < 1e-6, qPrintable(QString::number(ratio.front().value)));
    QCOMPARE(ratio.front().facts.value(QStringLiteral("slow_steps")).toString(), QStringLiteral("1, 2, 4"));

    const AdvisorReport report
        = evaluate(test::traceInput(phaseTrace({ 9.0, 9.0, 9.0 }), QStringLiteral("fallback")), RuleBook::builtIn());
    const auto finding = std::find_if(report.findings.begin(), report.findings.end(), [](const Finding& f) {
        return f.ruleId == QLatin1String("forward-slower-than-backward");
    });
    QVERIFY(finding != report.findings.end());
    QVERIFY(finding->category == Category::Performance);
    QCOMPARE(finding->threshold, 1.5);
    QVERIFY2(qAbs(finding->value - 3.0) < 1e-6, qPrintable(QString::number(finding->value)));
    QVERIFY2(finding->message.contains(QLatin1String("steps 1, 2, 3")), qPrintable(finding->message));
    QVERIFY2(test::firedRules(report).contains(QStringLiteral("forward-slower-than-backward")),
             qPrintable(finding->message));
    const auto evidence = parseEvidence(finding->evidence.value(0));
    QVERIFY(evidence);
    QCOMPARE(evidence->kind, QStringLiteral("trace"));
    QVERIFY(evidence->value(QStringLiteral("end_ns")).toLongLong()
            > evidence->value(QStringLiteral("start_ns")).toLongLong());

    // Forward as long as backward: measured, nothing fires.
    const AdvisorReport healthy
        = evaluate(test::traceInput(phaseTrace({ 3.0, 3.0 }), QStringLiteral("ok")), RuleBook::builtIn());
    QVERIFY(!test::firedRules(healthy).contains(QStringLiteral("forward-slower-than-backward")));
}

void TestTraceAnalysis::forwardBackwardHealthySamples_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("measuredHere"); // the sample's steps have a backward phase
    QTest::newRow("2020 array") << QStringLiteral("traces/kineto/2020_toplevel_array/worker0.pt.trace.json.gz") << true;
    QTest::newRow("2021 resnet50") << QStringLiteral(
        "traces/kineto/2021_resnet50_v100/worker0.1623143089861.pt.trace.json.gz")
                                   << true;
    QTest::newRow("2022 memory") << QStringLiteral("traces/kineto/2022_memory_rank1_of_2/df_index_resolver.json.gz")
                                 << true;
    QTest::newRow("2024 nccl") << QStringLiteral("traces/kineto/2024_nccl_rank0_of_2/nccl_data.json.gz") << true;
    QTest::newRow("ns resolution") << QStringLiteral(
        "traces/kineto/ns_resolution/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz")
                                   << true;
    QTest::newRow("amd mi250") << QStringLiteral("traces/kineto/amd_mi250/mi250_minitoy_train_ROCm6_2_kineto.json.gz")
                               << false;
    QTest::newRow("cpu only") << QStringLiteral(
        "traces/kineto/cpu_only_rank34_of_300/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz")
                              << false;
    QTest::newRow("triton") << QStringLiteral("traces/kineto/triton/triton_example.json.gz") << false;
    QTest::newRow("baseline") << QStringLiteral(
        "runs/pytorch_cnn_baseline/profiler/worker0.1795321630770.pt.trace.json")
                              << true;
}

void TestTraceAnalysis::forwardBackwardHealthySamples()
{
    QFETCH(QString, path);
    QFETCH(bool, measuredHere);
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString file = samples + QLatin1Char('/') + path;
    RUNLENS_REQUIRE_SAMPLE_FILE(file);
    const auto store = test::readTraces({ file });
    QVERIFY(store);
    const auto a = analyse(store);
    const auto ratio = measured(a->context, QStringLiteral("trace.forward_backward_ratio"));
    if (measuredHere)
        QVERIFY(!ratio.empty());
    const AdvisorReport report = evaluate(test::traceInput(store, QStringLiteral("sample")), RuleBook::builtIn());
    for (const Finding& f : report.findings)
        QVERIFY2(f.ruleId != QLatin1String("forward-slower-than-backward"), qPrintable(f.message));
}

QTEST_GUILESS_MAIN(TestTraceAnalysis)
#include "tst_traceanalysis.moc"
