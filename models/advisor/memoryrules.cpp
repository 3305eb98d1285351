#include "models/advisor/analysis.h"
#include "models/advisor/analysishelpers.h"
#include "models/advisor/evidence.h"
#include "models/memory/memoryanalysis.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>
#include <vector>

namespace runlens::models::advisor {

namespace {

const QString kPeakShare = QStringLiteral("memory.peak_share");
const QString kOutOfMemory = QStringLiteral("memory.oom");
const QString kGrowth = QStringLiteral("memory.growth");

QString pathOf(const MemoryInput& input)
{
    if (!input.path.isEmpty())
        return input.path;
    return input.profile->paths.isEmpty() ? QString() : input.profile->paths.first();
}

Scope deviceScope(const MemoryInput& input, const memory::MemoryDevice& device)
{
    Scope scope = runScope(input.run, device.rank);
    scope.device = device.label;
    return scope;
}

/// Whether two paths name the same file: run manifests give paths relative to the opened folder, stores
/// absolute ones.
bool samePath(const QString& a, const QString& b)
{
    if (a.isEmpty() || b.isEmpty())
        return false;
    return a == b || a.endsWith(QLatin1Char('/') + b) || b.endsWith(QLatin1Char('/') + a);
}

bool profileFrom(const MemoryInput& memory, const QString& path)
{
    if (samePath(memory.path, path))
        return true;
    return std::any_of(memory.profile->paths.begin(), memory.profile->paths.end(),
                       [&path](const QString& p) { return samePath(p, path); });
}

/// The trace a memory profile was read from (its curves share the trace's clock), and which of its
/// sources the profile's devices belong to.
struct TraceMatch
{
    const TraceInput* trace = nullptr;
    /// The store's source holding the profile's rank when the profile was read from one rank file of a
    /// store that combines several; -1 when the profile's own source numbers apply (same file or files).
    int source = -1;

    int sourceOf(const memory::MemoryDevice& device) const { return source >= 0 ? source : device.source; }
};

/// Same file, else one of the store's rank files, else the only trace of the same run.
TraceMatch traceOf(const AdvisorInput& input, const MemoryInput& memory)
{
    const TraceInput* sameRun = nullptr;
    int sameRunCount = 0;
    for (const TraceInput& trace : input.traces) {
        if (!trace.store)
            continue;
        const auto& sources = trace.store->sources();
        if (profileFrom(memory, trace.path))
            return { &trace, sources.size() > 1 && memory.profile->paths.size() <= 1 ? 0 : -1 };
        for (std::size_t s = 0; s < sources.size(); ++s) {
            if (profileFrom(memory, sources[s].path))
                return { &trace, sources.size() > 1 ? int(s) : -1 };
        }
        if (trace.run == memory.run) {
            sameRun = &trace;
            ++sameRunCount;
        }
    }
    return { sameRunCount == 1 ? sameRun : nullptr, -1 };
}

void measurePeak(const AdvisorInput& all, const MemoryInput& input, const memory::MemoryDevice& device,
                 AnalysisContext& context)
{
    if (device.capacity <= 0 || device.relative)
        return;
    const memory::MemoryPeak peak = memory::devicePeak(device);
    const double bytes = peak.valid ? peak.bytes : double(device.reportedPeak);
    if (bytes <= 0)
        return;
    context.markEvaluated(kPeakShare);
    Measurement m;
    m.metric = kPeakShare;
    m.value = 100.0 * bytes / double(device.capacity);
    placeIn(m, deviceScope(input, device));
    m.facts.insert(QStringLiteral("peak"), formatByteSize(bytes));
    m.facts.insert(QStringLiteral("capacity"), formatByteSize(double(device.capacity)));
    if (peak.valid && input.profile->axis == memory::MemoryAxis::TimeNs) {
        // The op at the peak needs the device's own source numbering in the store.
        const TraceMatch match = traceOf(all, input);
        if (match.trace && match.sourceOf(device) == device.source) {
            const memory::MemoryContext at = memory::memoryContextAt(*match.trace->store, device, peak.x);
            const QString op = memory::contextOpName(*match.trace->store, at);
            if (!op.isEmpty()) {
                m.scope.op = op;
                m.facts.insert(QStringLiteral("op"), op);
            }
        }
    }
    m.evidence << memoryEvidence(pathOf(input), device.label, peak.valid ? peak.x : 0);
    context.add(std::move(m));
}

void measureOutOfMemory(const MemoryInput& input, const memory::MemoryDevice& device, AnalysisContext& context)
{
    if (device.ooms.empty())
        return;
    const auto first
        = std::min_element(device.ooms.begin(), device.ooms.end(),
                           [](const memory::OomMarker& a, const memory::OomMarker& b) { return a.x < b.x; });
    Measurement m;
    m.metric = kOutOfMemory;
    m.value = double(device.ooms.size());
    placeIn(m, deviceScope(input, device));
    m.facts.insert(QStringLiteral("count"), qint64(device.ooms.size()));
    m.facts.insert(QStringLiteral("requested"),
                   first->bytes > 0 ? formatByteSize(double(first->bytes))
                                    : QCoreApplication::translate("runlens::advisor", "unknown"));
    m.facts.insert(QStringLiteral("free"),
                   first->deviceFree >= 0 ? formatByteSize(double(first->deviceFree))
                                          : QCoreApplication::translate("runlens::advisor", "unknown"));
    m.evidence << memoryEvidence(pathOf(input), device.label, first->x);
    m.order = double(first->x);
    context.add(std::move(m));
}

/// The lowest allocated memory of each step: what stays allocated between iterations. A healthy loop
/// returns to the same floor every step; a leak (tensors kept in a list, a graph kept alive by a loss
/// summed without .item()) raises it step after step.
struct StepFloor
{
    std::int64_t step = 0;
    double bytes = 0;
    std::int64_t x = 0;
};

std::vector<StepFloor> stepFloors(const memory::MemorySeries& series, const std::vector<trace::Step>& steps)
{
    std::vector<StepFloor> floors;
    for (const trace::Step& step : steps) {
        if (step.end <= step.start || series.empty() || step.end < series.x.front())
            continue;
        // The value in force when the step starts counts only when a sample precedes it: before the first
        // sample the curve is unknown, not empty.
        const bool known = memory::sampleAt(series, step.start).has_value();
        StepFloor floor { step.number, known ? memory::valueAt(series, step.start) : 0.0, step.start };
        bool any = known;
        const auto begin = std::upper_bound(series.x.begin(), series.x.end(), step.start);
        for (auto it = begin; it != series.x.end() && *it < step.end; ++it) {
            const double value = series.bytes[std::size_t(it - series.x.begin())];
            if (!any || value < floor.bytes)
                floor = { step.number, value, *it };
            any = true;
        }
        if (!any)
            continue;
        floors.push_back(floor);
    }
    return floors;
}

void measureGrowth(const AdvisorInput& all, const MemoryInput& input, const memory::MemoryDevice& device,
                   AnalysisContext& context)
{
    if (input.profile->axis != memory::MemoryAxis::TimeNs || device.allocated.empty())
        return;
    const TraceMatch match = traceOf(all, input);
    if (!match.trace)
        return;
    std::vector<trace::Step> steps;
    for (const trace::Step& step : match.trace->store->steps()) {
        if (step.source == match.sourceOf(device))
            steps.push_back(step);
    }
    std::sort(steps.begin(), steps.end(), [](const trace::Step& a, const trace::Step& b) { return a.start < b.start; });
    if (steps.size() < 2)
        return;
    context.markEvaluated(kGrowth);
    const double minimumRise = context.parameter(QStringLiteral("memory-growth"), QStringLiteral("min_rise_bytes"), 1);
    const std::vector<StepFloor> floors = stepFloors(device.allocated, steps);
    // The longest run of steps whose floor rose over the step before it.
    std::size_t bestBegin = 0;
    std::size_t bestLength = 0;
    std::size_t runBegin = 0;
    for (std::size_t i = 1; i < floors.size(); ++i) {
        if (floors[i].bytes - floors[i - 1].bytes < minimumRise)
            runBegin = i;
        else if (i - runBegin > bestLength) {
            bestLength = i - runBegin;
            bestBegin = runBegin;
        }
    }
    if (bestLength == 0)
        return;
    const StepFloor& first = floors[bestBegin];
    const StepFloor& last = floors[bestBegin + bestLength];
    const double growth = last.bytes - first.bytes;
    Measurement m;
    m.metric = kGrowth;
    m.value = double(bestLength);
    placeIn(m, deviceScope(input, device));
    m.scope.step = first.step;
    m.facts.insert(QStringLiteral("first_step"), qint64(first.step));
    m.facts.insert(QStringLiteral("last_step"), qint64(last.step));
    m.facts.insert(QStringLiteral("growth"), formatByteSize(growth));
    m.facts.insert(QStringLiteral("per_step"), formatByteSize(growth / double(bestLength)));
    m.evidence << memoryEvidence(pathOf(input), device.label, last.x);
    m.order = double(first.step);
    context.add(std::move(m));
}

} // namespace

void analyseMemory(const AdvisorInput& input, AnalysisContext& context)
{
    bool any = false;
    for (const MemoryInput& memory : input.memory) {
        if (context.isCanceled())
            return;
        if (!memory.profile || memory.profile->empty())
            continue;
        any = true;
        context.markEvaluated(kOutOfMemory);
        for (const memory::MemoryDevice& device : memory.profile->devices) {
            measurePeak(input, memory, device, context);
            measureOutOfMemory(memory, device, context);
            measureGrowth(input, memory, device, context);
        }
    }
    if (!any) {
        const QString reason = QCoreApplication::translate("runlens::advisor", "no memory profile is loaded");
        for (const QString& metric : { kPeakShare, kOutOfMemory, kGrowth })
            context.markMissing(metric, reason);
        return;
    }
    context.markMissing(
        kPeakShare,
        QCoreApplication::translate("runlens::advisor", "the memory profile does not give the device's capacity"));
    context.markMissing(
        kGrowth,
        QCoreApplication::translate("runlens::advisor",
                                    "no profiler steps on the memory's clock to compare memory across steps"));
}

} // namespace runlens::models::advisor
