#include "models/advisor/analysis.h"
#include "models/advisor/analysishelpers.h"
#include "models/advisor/evidence.h"
#include "models/pipeline/pipelineanalysis.h"
#include "models/profiler/profilerdata.h"

#include <QCoreApplication>

#include <cmath>

namespace runlens::models::advisor {

namespace {

const QString kStepInterval = QStringLiteral("profiler.step_interval");
const QString kHostQueueEmpty = QStringLiteral("profiler.host_queue_empty");
const QString kCpuBusy = QStringLiteral("profiler.cpu_busy");
const QString kPipelineBottleneck = QStringLiteral("pipeline.bottleneck");

const QString kOverview = QStringLiteral("overview");
const QString kPipelineView = QStringLiteral("pipeline");

/// MindSpore's iteration interval: the time between the end of one step and the first op of the next,
/// which is the device waiting for data (MindInsight flags it above 0.5 ms).
void measureStepInterval(const ProfilerInput& input, const profiler::ProfilerRankData& rank, AnalysisContext& context)
{
    const profiler::StepSeries& steps = rank.steps;
    const qsizetype index = steps.categoryIds.indexOf(QStringLiteral("iteration_interval"));
    if (index < 0 || steps.isEmpty() || std::size_t(index) >= steps.average.valuesUs.size())
        return;
    context.markEvaluated(kStepInterval);
    const profiler::StepSeries::Step* worst = nullptr;
    for (const profiler::StepSeries::Step& step : steps.steps) {
        if (std::size_t(index) < step.valuesUs.size()
            && (!worst || step.valuesUs[std::size_t(index)] > worst->valuesUs[std::size_t(index)]))
            worst = &step;
    }
    Measurement m;
    m.metric = kStepInterval;
    m.value = steps.average.valuesUs[std::size_t(index)] / 1000.0;
    placeIn(m, runScope(input.run, rank.rank));
    m.facts.insert(QStringLiteral("steps"), qint64(steps.steps.size()));
    m.facts.insert(QStringLiteral("step_ms"), steps.average.totalUs / 1000.0);
    m.facts.insert(
        QStringLiteral("share"),
        steps.average.totalUs > 0 ? 100.0 * steps.average.valuesUs[std::size_t(index)] / steps.average.totalUs : 0.0);
    if (worst) {
        m.facts.insert(QStringLiteral("worst_step"), worst->number);
        m.facts.insert(QStringLiteral("worst_ms"), worst->valuesUs[std::size_t(index)] / 1000.0);
    }
    m.evidence << profilerEvidence(input.run, rank.rank, kOverview, worst ? worst->number : -1);
    m.order = rank.rank;
    context.add(std::move(m));
}

void measurePipeline(const ProfilerInput& input, const pipeline::DataPipeline& data, AnalysisContext& context)
{
    const Scope scope = runScope(input.run, data.rank);
    const QString evidence = profilerEvidence(input.run, data.rank, kPipelineView);
    if (!data.hostQueue.empty()) {
        context.markEvaluated(kHostQueueEmpty);
        Measurement m;
        m.metric = kHostQueueEmpty;
        m.value = 100.0 * data.hostQueue.emptyRatio();
        placeIn(m, scope);
        m.facts.insert(QStringLiteral("empty"), qint64(data.hostQueue.emptyCount()));
        m.facts.insert(QStringLiteral("steps"), qint64(data.hostQueue.samples.size()));
        m.evidence << evidence;
        m.order = data.rank;
        context.add(std::move(m));
    }
    // Without an idle curve MindSpore's busy figure would read 0 %: no figure rather than a wrong one.
    const pipeline::CpuCurve* idle = data.cpu.deviceCurve(QStringLiteral("idle_utilization"));
    if (idle && !idle->values.empty()) {
        context.markEvaluated(kCpuBusy);
        Measurement m;
        m.metric = kCpuBusy;
        m.value = data.cpu.deviceBusyPercent();
        placeIn(m, scope);
        m.facts.insert(QStringLiteral("processors"), qint64(data.cpu.processorCount));
        m.evidence << evidence;
        m.order = data.rank;
        context.add(std::move(m));
    }
    if (data.ops.empty())
        return;
    context.markEvaluated(kPipelineBottleneck);
    // The reader already ran MindInsight's queue analysis; a pipeline built elsewhere may not have.
    std::vector<pipeline::Bottleneck> bottlenecks = data.bottlenecks;
    if (bottlenecks.empty() && !data.pipelineKeepsUp)
        bottlenecks = pipeline::findBottlenecks(data);
    for (std::size_t i = 0; i < bottlenecks.size(); ++i) {
        const pipeline::Bottleneck& bottleneck = bottlenecks[i];
        const pipeline::PipelineOp* op = data.op(bottleneck.opId);
        Measurement m;
        m.metric = kPipelineBottleneck;
        m.value = 1.0;
        placeIn(m, scope);
        m.scope.op = op ? op->label() : QString::number(bottleneck.opId);
        m.facts.insert(QStringLiteral("reason"), pipeline::bottleneckReasonText(data, bottleneck));
        if (op) {
            m.facts.insert(QStringLiteral("op_advice"), pipeline::bottleneckAdvice(*op));
            if (op->workers > 0)
                m.facts.insert(QStringLiteral("workers"), op->workers);
        }
        if (std::isfinite(bottleneck.usage))
            m.facts.insert(QStringLiteral("usage"), 100.0 * bottleneck.usage);
        m.evidence << evidence;
        m.order = double(i);
        context.add(std::move(m));
    }
}

} // namespace

void analyseProfiler(const AdvisorInput& input, AnalysisContext& context)
{
    bool anyRank = false;
    bool anyPipeline = false;
    for (const ProfilerInput& profiler : input.profilers) {
        if (context.isCanceled())
            return;
        if (!profiler.bundle)
            continue;
        if (profiler.bundle->ranks) {
            for (const profiler::ProfilerRankData& rank : profiler.bundle->ranks->ranks) {
                anyRank = true;
                measureStepInterval(profiler, rank, context);
            }
        }
        for (const auto& data : profiler.bundle->pipelines) {
            if (!data || data->empty())
                continue;
            anyPipeline = true;
            measurePipeline(profiler, *data, context);
        }
    }
    const QString noProfiler
        = QCoreApplication::translate("runlens::advisor", "no MindSpore profiler output is loaded");
    context.markMissing(
        kStepInterval,
        anyRank ? QCoreApplication::translate("runlens::advisor", "the MindSpore step trace has no iteration interval")
                : noProfiler);
    if (!anyPipeline) {
        const QString reason = input.profilers.empty()
            ? noProfiler
            : QCoreApplication::translate("runlens::advisor", "the profiler output has no data pipeline files");
        for (const QString& metric : { kHostQueueEmpty, kCpuBusy, kPipelineBottleneck })
            context.markMissing(metric, reason);
        return;
    }
    context.markMissing(kHostQueueEmpty,
                        QCoreApplication::translate("runlens::advisor",
                                                    "no host queue file (device_queue_profiling or "
                                                    "dataset_iterator_profiling) was found"));
    context.markMissing(kCpuBusy,
                        QCoreApplication::translate("runlens::advisor", "no minddata_cpu_utilization file was found"));
    context.markMissing(
        kPipelineBottleneck,
        QCoreApplication::translate("runlens::advisor", "the profiler output has no minddata pipeline ops"));
}

} // namespace runlens::models::advisor
