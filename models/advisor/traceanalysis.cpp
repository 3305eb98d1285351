#include "models/advisor/analysis.h"
#include "models/advisor/analysishelpers.h"
#include "models/advisor/evidence.h"
#include "models/advisor/tracepatterns.h"
#include "models/cluster/kinetocluster.h"
#include "models/trace/deviceutilization.h"
#include "models/trace/launchindex.h"
#include "models/trace/opstatistics.h"
#include "models/trace/stepbreakdown.h"
#include "models/trace/stepphases.h"

#include <QCoreApplication>

#include <algorithm>
#include <vector>

namespace runlens::models::advisor {

namespace {

const QString kDataLoaderShare = QStringLiteral("trace.dataloader_share");
const QString kDeviceUtilization = QStringLiteral("trace.device_utilization");
const QString kShortKernelShare = QStringLiteral("trace.short_kernel_share");
const QString kLaunchDelayShare = QStringLiteral("trace.launch_delay_share");
const QString kCommunicationShare = QStringLiteral("trace.communication_share");
const QString kCommunicationOverlap = QStringLiteral("trace.comm_overlap");
const QString kTopOperatorShare = QStringLiteral("trace.top_op_share");
const QString kForwardBackwardRatio = QStringLiteral("trace.forward_backward_ratio");
const QString kForwardBackwardRule = QStringLiteral("forward-slower-than-backward");

const std::vector<QString>& traceMetrics()
{
    static const std::vector<QString> metrics { kDataLoaderShare,  kDeviceUtilization,   kShortKernelShare,
                                                kLaunchDelayShare, kCommunicationShare,  kCommunicationOverlap,
                                                kTopOperatorShare, kForwardBackwardRatio };
    return metrics;
}

int rankOf(const trace::TraceStore& store, int source)
{
    return store.sources()[std::size_t(source)].rank;
}

/// What the analyses of one trace need from each of its sources (ranks).
struct SourceContext
{
    const TraceInput& input;
    const trace::TraceStore& store;
    int source = 0;

    int rank() const { return rankOf(store, source); }
    QString path() const { return store.sources()[std::size_t(source)].path; }
    Scope scope() const { return runScope(input.run, rank()); }
    QString evidence(std::int64_t start, std::int64_t end, const QString& op = {}) const
    {
        return traceEvidence(path(), start, end, rank(), op);
    }
};

bool hasDeviceWork(const trace::TraceStore& store, int source)
{
    for (const trace::Track& track : store.tracks()) {
        if (track.source == source && track.type == trace::TrackType::GpuStream && track.size() > 0)
            return true;
    }
    return false;
}

/// The step of `steps` with the largest share of `category` (the one a user should look at first).
const trace::StepTimes& worstStep(const std::vector<trace::StepTimes>& steps, std::size_t first, std::size_t count,
                                  trace::StepCategory category)
{
    std::size_t worst = first;
    for (std::size_t i = first; i < first + count; ++i) {
        if (steps[i].share(category) > steps[worst].share(category))
            worst = i;
    }
    return steps[worst];
}

/// Share of the steps' summed time spent in `category`: total over total, so long steps weigh more
/// (tb_plugin's overview divides the average category time by the average step time the same way).
double categoryShare(const std::vector<trace::StepTimes>& steps, std::size_t first, std::size_t count,
                     trace::StepCategory category, std::int64_t* categoryNs = nullptr, std::int64_t* totalNs = nullptr)
{
    std::int64_t part = 0;
    std::int64_t total = 0;
    for (std::size_t i = first; i < first + count; ++i) {
        part += steps[i].time(category);
        total += steps[i].duration();
    }
    if (categoryNs)
        *categoryNs = part;
    if (totalNs)
        *totalNs = total;
    return total > 0 ? double(part) / double(total) : 0.0;
}

void measureStepShares(const SourceContext& ctx, const trace::StepBreakdown& breakdown,
                       const trace::StepBreakdown::SourceSummary& summary, AnalysisContext& context)
{
    const auto& steps = breakdown.steps;
    const std::size_t first = summary.firstStep;
    const std::size_t count = summary.stepCount;
    const auto add = [&](const QString& metric, trace::StepCategory category) {
        std::int64_t part = 0;
        std::int64_t total = 0;
        const double share = categoryShare(steps, first, count, category, &part, &total);
        const trace::StepTimes& worst = worstStep(steps, first, count, category);
        Measurement m;
        m.metric = metric;
        m.value = share * 100.0;
        placeIn(m, ctx.scope());
        m.facts.insert(QStringLiteral("steps"), qint64(count));
        m.facts.insert(QStringLiteral("time_ms"), nsToMs(part / std::int64_t(count)));
        m.facts.insert(QStringLiteral("step_ms"), nsToMs(total / std::int64_t(count)));
        m.facts.insert(QStringLiteral("worst_step"), qint64(worst.number));
        m.facts.insert(QStringLiteral("worst_share"), worst.share(category) * 100.0);
        m.evidence << ctx.evidence(worst.start, worst.end);
        m.order = ctx.source;
        context.add(std::move(m));
    };
    add(kDataLoaderShare, trace::StepCategory::DataLoader);
    // CPU-only runs communicate too (gloo): their collectives are CPU ops the breakdown counts.
    add(kCommunicationShare, trace::StepCategory::Communication);
}

void measureDeviceUtilization(const SourceContext& ctx, const trace::StepBreakdown& breakdown,
                              const trace::StepBreakdown::SourceSummary& summary, AnalysisContext& context)
{
    // Over the steps only, as tb_plugin does: the warm-up before the first step and the tail after the
    // last are not training.
    const std::int64_t start = breakdown.steps[summary.firstStep].start;
    const std::int64_t end = breakdown.steps[summary.firstStep + summary.stepCount - 1].end;
    if (end <= start)
        return;
    const trace::DeviceUtilizationResult result = trace::computeDeviceUtilization(ctx.store, 1, start, end);
    for (const trace::DeviceUtilization& device : result.devices) {
        if (device.source != ctx.source)
            continue;
        Measurement m;
        m.metric = kDeviceUtilization;
        m.value = device.utilization(result.span()) * 100.0;
        placeIn(m, ctx.scope());
        m.scope.device = device.name;
        m.facts.insert(QStringLiteral("busy_ms"), nsToMs(device.busyNs));
        m.facts.insert(QStringLiteral("span_ms"), nsToMs(result.span()));
        m.facts.insert(QStringLiteral("steps"), qint64(summary.stepCount));
        m.evidence << ctx.evidence(start, end);
        m.order = ctx.source;
        context.add(std::move(m));
    }
}

/// Kernels that run shorter than the runtime call that launched them: the GPU finishes each one before
/// the CPU can issue the next, so the device waits on the host (HTA's "CPU-bound" launches). Also the
/// launches whose kernel started long after the call (HTA's launch delay outliers): the host runs ahead
/// with a long queue of launched work, so the device sets the pace (or a synchronisation held a stream).
void measureShortKernels(const TraceInput& input, const trace::TraceStore& store, const trace::StepBreakdown& breakdown,
                         AnalysisContext& context)
{
    const trace::LaunchIndex index(store);
    struct Counts
    {
        std::int64_t kernels = 0;
        std::int64_t shorter = 0;
        std::int64_t kernelNs = 0;
        std::int64_t launchNs = 0;
        std::vector<std::int64_t> shorterPerStep;
        std::int64_t delayed = 0;
        std::int64_t delayNs = 0;
        std::int64_t maxDelay = -1;
        std::int64_t maxDelayFrom = 0; ///< the launch call's start
        std::int64_t maxDelayTo = 0; ///< the kernel's end
        QString maxDelayKernel;
    };
    const std::int64_t delayLimit = std::int64_t(
        1000.0 * context.parameter(QStringLiteral("long-launch-queue"), QStringLiteral("max_delay_us"), 100));
    std::vector<Counts> counts(store.sources().size());
    for (const trace::StepBreakdown::SourceSummary& summary : breakdown.sources) {
        if (std::size_t(summary.source) < counts.size())
            counts[std::size_t(summary.source)].shorterPerStep.assign(summary.stepCount, 0);
    }
    const auto& tracks = store.tracks();
    for (const trace::LaunchIndex::Launch& launch : index.launches()) {
        const trace::Track& host = tracks[std::size_t(launch.hostTrack)];
        const trace::Track& device = tracks[std::size_t(launch.deviceTrack)];
        if (host.kind[launch.hostSlice] != trace::EventKind::Runtime
            && host.kind[launch.hostSlice] != trace::EventKind::Driver)
            continue;
        if (device.kind[launch.deviceSlice] != trace::EventKind::Kernel)
            continue;
        Counts& c = counts[std::size_t(device.source)];
        const std::int64_t kernelNs = device.duration[launch.deviceSlice];
        const std::int64_t launchNs = host.duration[launch.hostSlice];
        ++c.kernels;
        c.kernelNs += kernelNs;
        c.launchNs += launchNs;
        const std::int64_t delay = device.start[launch.deviceSlice] - host.start[launch.hostSlice];
        c.delayNs += delay;
        if (delay > delayLimit)
            ++c.delayed;
        if (delay > c.maxDelay) {
            c.maxDelay = delay;
            c.maxDelayFrom = host.start[launch.hostSlice];
            c.maxDelayTo = device.end(launch.deviceSlice);
            c.maxDelayKernel = store.strings().text(device.name_[launch.deviceSlice]);
        }
        if (kernelNs >= launchNs)
            continue;
        ++c.shorter;
        const trace::StepBreakdown::SourceSummary* summary = breakdown.summaryFor(device.source);
        if (!summary)
            continue;
        const std::int64_t t = device.start[launch.deviceSlice];
        const auto begin = breakdown.steps.begin() + std::ptrdiff_t(summary->firstStep);
        const auto end = begin + std::ptrdiff_t(summary->stepCount);
        const auto it = std::upper_bound(begin, end, t,
                                         [](std::int64_t time, const trace::StepTimes& s) { return time < s.start; });
        if (it != begin && t < std::prev(it)->end)
            ++c.shorterPerStep[std::size_t(std::prev(it) - begin)];
    }
    const double minimum = context.parameter(QStringLiteral("host-bound-launches"), QStringLiteral("min_kernels"), 20);
    for (int source = 0; source < int(counts.size()); ++source) {
        const Counts& c = counts[std::size_t(source)];
        if (c.kernels == 0)
            continue;
        context.markEvaluated(kShortKernelShare);
        context.markEvaluated(kLaunchDelayShare);
        if (double(c.kernels) < minimum)
            continue; // too few launches to call the run host-bound
        const SourceContext ctx { input, store, source };
        Measurement delays;
        delays.metric = kLaunchDelayShare;
        delays.value = 100.0 * double(c.delayed) / double(c.kernels);
        placeIn(delays, ctx.scope());
        delays.facts.insert(QStringLiteral("kernels"), qint64(c.kernels));
        delays.facts.insert(QStringLiteral("delayed"), qint64(c.delayed));
        delays.facts.insert(QStringLiteral("delay_us"), double(c.delayNs) / double(c.kernels) / 1000.0);
        delays.facts.insert(QStringLiteral("max_delay_us"), double(c.maxDelay) / 1000.0);
        delays.facts.insert(QStringLiteral("limit_us"), double(delayLimit) / 1000.0);
        delays.evidence << ctx.evidence(c.maxDelayFrom, c.maxDelayTo, c.maxDelayKernel);
        delays.order = source;
        context.add(std::move(delays));
        Measurement m;
        m.metric = kShortKernelShare;
        m.value = 100.0 * double(c.shorter) / double(c.kernels);
        placeIn(m, ctx.scope());
        m.facts.insert(QStringLiteral("kernels"), qint64(c.kernels));
        m.facts.insert(QStringLiteral("shorter"), qint64(c.shorter));
        m.facts.insert(QStringLiteral("kernel_us"), double(c.kernelNs) / double(c.kernels) / 1000.0);
        m.facts.insert(QStringLiteral("launch_us"), double(c.launchNs) / double(c.kernels) / 1000.0);
        if (const trace::StepBreakdown::SourceSummary* summary = breakdown.summaryFor(source)) {
            const auto worst = std::max_element(c.shorterPerStep.begin(), c.shorterPerStep.end());
            if (worst != c.shorterPerStep.end()) {
                const trace::StepTimes& step
                    = breakdown.steps[summary->firstStep + std::size_t(worst - c.shorterPerStep.begin())];
                m.evidence << ctx.evidence(step.start, step.end);
            }
        }
        m.order = source;
        context.add(std::move(m));
    }
}

void measureOverlap(const TraceInput& input, const trace::TraceStore& store, const trace::StepBreakdown& breakdown,
                    AnalysisContext& context)
{
    const cluster::Cluster figures = cluster::buildKinetoCluster(store, &breakdown);
    for (const cluster::RankFigures& rank : figures.ranks) {
        if (!rank.hasTemporal || !(rank.temporal.communication > 0))
            continue;
        const double ratio = rank.temporal.overlapRatio();
        if (!cluster::isKnown(ratio))
            continue;
        const int source = rank.source >= 0 ? rank.source : 0;
        const SourceContext ctx { input, store, source };
        Measurement m;
        m.metric = kCommunicationOverlap;
        m.value = ratio * 100.0;
        placeIn(m, ctx.scope());
        m.facts.insert(QStringLiteral("communication_ms"), rank.temporal.communication);
        m.facts.insert(QStringLiteral("overlap_ms"), rank.temporal.overlap);
        m.facts.insert(QStringLiteral("exposed_ms"), rank.temporal.communication - rank.temporal.overlap);
        if (const trace::StepBreakdown::SourceSummary* summary = breakdown.summaryFor(source)) {
            const trace::StepTimes& worst = worstStep(breakdown.steps, summary->firstStep, summary->stepCount,
                                                      trace::StepCategory::Communication);
            m.evidence << ctx.evidence(worst.start, worst.end);
        }
        m.order = source;
        context.add(std::move(m));
    }
}

/// The operator with the largest share of device time (host self time on CPU-only traces).
void measureTopOperator(const SourceContext& ctx, AnalysisContext& context)
{
    trace::OperatorStatisticsOptions options;
    options.source = ctx.source;
    const trace::OperatorStatistics stats = trace::computeOperatorStatistics(ctx.store, options);
    if (stats.operators.empty())
        return;
    const bool device = stats.deviceSelfSum > 0;
    const auto top = std::max_element(stats.operators.begin(), stats.operators.end(),
                                      [device](const trace::OperatorStats& a, const trace::OperatorStats& b) {
                                          return device ? a.deviceSelf < b.deviceSelf : a.hostSelf < b.hostSelf;
                                      });
    // A trace of one or two operators is a micro-benchmark: one of them always dominates.
    const double minimum = context.parameter(QStringLiteral("dominant-operator"), QStringLiteral("min_operators"), 3);
    if (double(stats.operators.size()) < minimum)
        return;
    // Nor is a trace with almost no work: a share of a few microseconds says nothing.
    const double minimumMs = context.parameter(QStringLiteral("dominant-operator"), QStringLiteral("min_time_ms"), 1);
    if (nsToMs(device ? stats.deviceSelfSum : stats.hostSelfSum) < minimumMs)
        return;
    const QString name = ctx.store.strings().text(top->name);
    Measurement m;
    m.metric = kTopOperatorShare;
    m.value = (device ? stats.deviceShare(*top) : stats.hostShare(*top)) * 100.0;
    placeIn(m, ctx.scope());
    m.scope.op = name;
    m.facts.insert(QStringLiteral("calls"), qint64(top->calls));
    m.facts.insert(QStringLiteral("time_ms"), nsToMs(device ? top->deviceSelf : top->hostSelf));
    m.facts.insert(QStringLiteral("kind"),
                   device ? QCoreApplication::translate("runlens::advisor", "device")
                          : QCoreApplication::translate("runlens::advisor", "host"));
    if (top->longestTrack >= 0) {
        const trace::Track& track = ctx.store.tracks()[std::size_t(top->longestTrack)];
        m.evidence << ctx.evidence(track.start[top->longestSlice], track.end(top->longestSlice), name);
    }
    m.order = ctx.source;
    context.add(std::move(m));
}

/// Forward against backward, each phase as long as the slower processor holds it: a GPU step's forward
/// is mostly host time (launches run ahead of the device), its backward mostly device time. Comparing host
/// times alone would flag healthy GPU runs (the 2020 ResNet-50 sample's host forward is 1.9x its host
/// backward while its device backward is 1.8x its device forward); comparing device times alone would miss
/// the forward ops that fell back to the CPU. Only sources whose steps have a backward phase are measured.
bool measureForwardBackward(const SourceContext& ctx, const trace::StepPhases& phases,
                            const trace::StepPhases::SourceSummary& summary, AnalysisContext& context)
{
    using trace::StepPhase;
    std::int64_t forward = 0;
    std::int64_t backward = 0;
    for (std::size_t i = summary.firstStep; i < summary.firstStep + summary.stepCount; ++i) {
        forward += phases.steps[i].busy(StepPhase::Forward);
        backward += phases.steps[i].busy(StepPhase::Backward);
    }
    if (backward <= 0 || forward <= 0)
        return false;
    const double threshold = context.threshold(kForwardBackwardRule, 1.5);
    QStringList slow;
    const trace::StepPhaseTimes* worst = nullptr;
    for (std::size_t i = summary.firstStep; i < summary.firstStep + summary.stepCount; ++i) {
        const trace::StepPhaseTimes& st = phases.steps[i];
        if (st.forwardBackwardRatio() > threshold)
            slow << QString::number(st.number);
        if (!worst || st.forwardBackwardRatio() > worst->forwardBackwardRatio())
            worst = &st;
    }
    const auto count = std::int64_t(summary.stepCount);
    Measurement m;
    m.metric = kForwardBackwardRatio;
    m.value = double(forward) / double(backward);
    placeIn(m, ctx.scope());
    m.facts.insert(QStringLiteral("steps"), qint64(count));
    m.facts.insert(QStringLiteral("forward_ms"), nsToMs(forward / count));
    m.facts.insert(QStringLiteral("backward_ms"), nsToMs(backward / count));
    m.facts.insert(QStringLiteral("slow_steps"),
                   slow.isEmpty() ? QStringLiteral("-") : slow.join(QStringLiteral(", ")));
    m.facts.insert(QStringLiteral("worst_step"), qint64(worst->number));
    // The worst step's host range: where its forward ops are.
    m.evidence << ctx.evidence(worst->cpuStart, worst->cpuEnd);
    m.order = ctx.source;
    context.add(std::move(m));
    return true;
}

void analyseTrace(const TraceInput& input, AnalysisContext& context)
{
    const trace::TraceStore& store = *input.store;
    const trace::StepBreakdown breakdown = trace::computeStepBreakdown(store);
    const trace::StepPhases phases = trace::computeStepPhases(store, breakdown);
    bool anyDevice = false;
    for (const trace::StepBreakdown::SourceSummary& summary : breakdown.sources) {
        if (context.isCanceled())
            return;
        if (summary.stepCount == 0)
            continue;
        const SourceContext ctx { input, store, summary.source };
        context.markEvaluated(kDataLoaderShare);
        context.markEvaluated(kCommunicationShare);
        context.markEvaluated(kTopOperatorShare);
        measureStepShares(ctx, breakdown, summary, context);
        measureTopOperator(ctx, context);
        if (const trace::StepPhases::SourceSummary* phaseSummary = phases.summaryFor(summary.source);
            phaseSummary && measureForwardBackward(ctx, phases, *phaseSummary, context))
            context.markEvaluated(kForwardBackwardRatio);
        if (hasDeviceWork(store, summary.source)) {
            anyDevice = true;
            context.markEvaluated(kDeviceUtilization);
            measureDeviceUtilization(ctx, breakdown, summary, context);
        }
    }
    if (!anyDevice) {
        const QString reason = QCoreApplication::translate("runlens::advisor",
                                                           "the trace has no GPU or NPU streams (a CPU-only profile)");
        for (const QString& metric : { kDeviceUtilization, kShortKernelShare, kLaunchDelayShare })
            context.markMissing(metric, reason);
        context.markMissing(kCommunicationOverlap, reason);
    } else {
        measureShortKernels(input, store, breakdown, context);
        const QString unlinked
            = QCoreApplication::translate("runlens::advisor", "the trace links no runtime launch to its kernel");
        context.markMissing(kShortKernelShare, unlinked);
        context.markMissing(kLaunchDelayShare, unlinked);
        measureOverlap(input, store, breakdown, context);
        if (!context.isEvaluated(kCommunicationOverlap))
            context.markMissing(
                kCommunicationOverlap,
                QCoreApplication::translate("runlens::advisor", "the trace has no communication kernels"));
    }
    if (breakdown.sources.empty()) {
        const QString reason
            = QCoreApplication::translate("runlens::advisor", "the trace has no CPU events to split into steps");
        context.markMissing(kDataLoaderShare, reason);
        context.markMissing(kCommunicationShare, reason);
        context.markMissing(kTopOperatorShare, reason);
    }
    context.markMissing(kForwardBackwardRatio,
                        QCoreApplication::translate("runlens::advisor",
                                                    "the trace's steps show no forward and backward phases (no "
                                                    "autograd ops or phase annotations)"));
    analyseTracePatterns(input, context);
}

} // namespace

void analyseTraces(const AdvisorInput& input, AnalysisContext& context)
{
    bool any = false;
    for (const TraceInput& trace : input.traces) {
        if (context.isCanceled())
            return;
        if (!trace.store)
            continue;
        any = true;
        analyseTrace(trace, context);
    }
    if (!any) {
        const QString reason = QCoreApplication::translate("runlens::advisor", "no profiler trace is loaded");
        for (const QString& metric : traceMetrics())
            context.markMissing(metric, reason);
        markTracePatternsMissing(reason, context);
    }
}

} // namespace runlens::models::advisor
