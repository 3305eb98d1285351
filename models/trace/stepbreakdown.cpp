#include "models/trace/stepbreakdown.h"

#include "models/trace/launchindex.h"

#include <QCoreApplication>
#include <optional>

#include <algorithm>
#include <limits>
#include <set>

namespace runlens::models::trace {

namespace {

constexpr int kActiveCategories = int(StepCategory::Idle); // every category but Idle comes from slices

struct Interval
{
    std::int64_t start;
    std::int64_t end;
};

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool isCommunicationName(std::string_view name)
{
    return startsWith(name, "nccl") || startsWith(name, "gloo:") || startsWith(name, "hccl")
        || name.find("ncclKernel") != std::string_view::npos || name.find("ncclDevKernel") != std::string_view::npos;
}

/// Sorts and unions intervals in place.
void mergeIntervals(std::vector<Interval>& intervals)
{
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::size_t out = 0;
    for (const Interval& iv : intervals) {
        if (out > 0 && iv.start <= intervals[out - 1].end) {
            intervals[out - 1].end = std::max(intervals[out - 1].end, iv.end);
        } else {
            intervals[out++] = iv;
        }
    }
    intervals.resize(out);
}

/// Piecewise-constant top category over time: from boundaries[i].time until the next boundary, the
/// highest-priority active category is boundaries[i].category. Idle before the first boundary.
struct Boundary
{
    std::int64_t time;
    std::uint8_t category;
};

std::vector<Boundary> sweep(const std::array<std::vector<Interval>, kActiveCategories>& merged)
{
    struct Edge
    {
        std::int64_t time;
        std::int8_t delta;
        std::uint8_t category;
    };
    std::vector<Edge> edges;
    std::size_t total = 0;
    for (const auto& list : merged)
        total += list.size() * 2;
    edges.reserve(total);
    for (int c = 0; c < kActiveCategories; ++c) {
        for (const Interval& iv : merged[std::size_t(c)]) {
            edges.push_back({ iv.start, +1, std::uint8_t(c) });
            edges.push_back({ iv.end, -1, std::uint8_t(c) });
        }
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.time < b.time; });

    std::vector<Boundary> boundaries;
    std::array<int, kActiveCategories> active {};
    std::uint8_t current = std::uint8_t(StepCategory::Idle);
    for (std::size_t i = 0; i < edges.size();) {
        const std::int64_t t = edges[i].time;
        for (; i < edges.size() && edges[i].time == t; ++i)
            active[edges[i].category] += edges[i].delta;
        std::uint8_t top = std::uint8_t(StepCategory::Idle);
        for (int c = 0; c < kActiveCategories; ++c) {
            if (active[std::size_t(c)] > 0) {
                top = std::uint8_t(c);
                break;
            }
        }
        if (top != current) {
            boundaries.push_back({ t, top });
            current = top;
        }
    }
    return boundaries;
}

void attribute(const std::vector<Boundary>& boundaries, StepTimes& step)
{
    step.ns.fill(0);
    if (step.end <= step.start)
        return;
    auto it = std::upper_bound(boundaries.begin(), boundaries.end(), step.start,
                               [](std::int64_t t, const Boundary& b) { return t < b.time; });
    std::uint8_t category = it == boundaries.begin() ? std::uint8_t(StepCategory::Idle) : std::prev(it)->category;
    std::int64_t t = step.start;
    while (t < step.end) {
        const std::int64_t next = it == boundaries.end() ? step.end : std::min(step.end, it->time);
        step.ns[category] += next - t;
        t = next;
        if (it != boundaries.end()) {
            category = it->category;
            ++it;
        }
    }
}

bool countsForStatistics(const Track& track, std::size_t i)
{
    return track.duration[i] > 0 && !(track.flags[i] & (SliceFlag::Instant | SliceFlag::AbsurdDuration));
}

} // namespace

QString stepCategoryName(StepCategory category)
{
    const char* text = "";
    switch (category) {
    case StepCategory::Kernel:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepBreakdown", "Kernel");
        break;
    case StepCategory::Memcpy:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepBreakdown", "Memcpy");
        break;
    case StepCategory::Memset:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepBreakdown", "Memset");
        break;
    case StepCategory::Communication:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepBreakdown", "Communication");
        break;
    case StepCategory::Runtime:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepBreakdown", "Runtime");
        break;
    case StepCategory::DataLoader:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepBreakdown", "Data loader");
        break;
    case StepCategory::CpuOp:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepBreakdown", "CPU op");
        break;
    case StepCategory::Other:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepBreakdown", "Other");
        break;
    case StepCategory::Idle:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepBreakdown", "Idle");
        break;
    }
    return QCoreApplication::translate("runlens::models::trace::StepBreakdown", text);
}

const char* stepCategoryId(StepCategory category)
{
    switch (category) {
    case StepCategory::Kernel:
        return "kernel";
    case StepCategory::Memcpy:
        return "memcpy";
    case StepCategory::Memset:
        return "memset";
    case StepCategory::Communication:
        return "communication";
    case StepCategory::Runtime:
        return "runtime";
    case StepCategory::DataLoader:
        return "data_loader";
    case StepCategory::CpuOp:
        return "cpu_op";
    case StepCategory::Other:
        return "other";
    case StepCategory::Idle:
        return "idle";
    }
    return "";
}

int stepCategoryOf(EventKind kind, std::string_view name)
{
    if (startsWith(name, "enumerate(DataLoader)") || startsWith(name, "enumerate(DataPipe)"))
        return int(StepCategory::DataLoader);
    switch (kind) {
    case EventKind::Kernel:
        return int(isCommunicationName(name) ? StepCategory::Communication : StepCategory::Kernel);
    case EventKind::Memcpy:
        return int(StepCategory::Memcpy);
    case EventKind::Memset:
        return int(StepCategory::Memset);
    case EventKind::Communication:
        return int(StepCategory::Communication);
    case EventKind::Runtime:
    case EventKind::Driver:
        return int(StepCategory::Runtime);
    case EventKind::CpuOp:
        return int(isCommunicationName(name) ? StepCategory::Communication : StepCategory::CpuOp);
    case EventKind::Other:
        return int(StepCategory::Other);
    case EventKind::Python: // frames and annotations wrap the work above; counting them would hide idle time
    case EventKind::UserAnnotation:
    case EventKind::GpuAnnotation:
    case EventKind::Memory:
        return -1;
    }
    return -1;
}

const StepBreakdown::SourceSummary* StepBreakdown::summaryFor(int source) const
{
    for (const auto& s : sources) {
        if (s.source == source)
            return &s;
    }
    return nullptr;
}

StepBreakdown computeStepBreakdown(const TraceStore& store, const StepBreakdownOptions& options)
{
    StepBreakdown result;
    const auto& tracks = store.tracks();
    const StringTable& strings = store.strings();

    int sourceCount = int(store.sources().size());
    for (const Track& t : tracks)
        sourceCount = std::max(sourceCount, t.source + 1);
    for (const Step& s : store.steps())
        sourceCount = std::max(sourceCount, s.source + 1);

    std::set<std::pair<int, std::uint32_t>> stepSlices;
    for (const Step& s : store.steps()) {
        if (s.track >= 0)
            stepSlices.insert({ s.track, s.slice });
    }

    std::optional<LaunchIndex> built;
    const LaunchIndex& launches = options.launches ? *options.launches : built.emplace(store);

    for (int source = 0; source < sourceCount; ++source) {
        // Per category, the union of the source's busy intervals. Each track is merged first (its slices
        // are sorted by start, so that is linear and shrinks nested ops to their outermost span).
        std::array<std::vector<Interval>, kActiveCategories> merged;
        std::int64_t cpuMin = std::numeric_limits<std::int64_t>::max();
        std::int64_t cpuMax = std::numeric_limits<std::int64_t>::min();
        std::int64_t anyMin = cpuMin;
        std::int64_t anyMax = cpuMax;
        for (int ti = 0; ti < int(tracks.size()); ++ti) {
            const Track& track = tracks[std::size_t(ti)];
            if (track.source != source || track.type == TrackType::Counter)
                continue;
            std::array<Interval, kActiveCategories> open;
            std::array<bool, kActiveCategories> isOpen {};
            for (std::size_t i = 0; i < track.size(); ++i) {
                if (!countsForStatistics(track, i))
                    continue;
                const std::int64_t start = track.start[i];
                const std::int64_t end = track.end(i);
                anyMin = std::min(anyMin, start);
                anyMax = std::max(anyMax, end);
                if (track.type == TrackType::Thread) {
                    cpuMin = std::min(cpuMin, start);
                    cpuMax = std::max(cpuMax, end);
                }
                if (!stepSlices.empty() && stepSlices.count({ ti, std::uint32_t(i) }))
                    continue;
                const int c = stepCategoryOf(track.kind[i], strings.view(track.name_[i]));
                if (c < 0)
                    continue;
                auto& o = open[std::size_t(c)];
                if (isOpen[std::size_t(c)] && start <= o.end) {
                    o.end = std::max(o.end, end);
                } else {
                    if (isOpen[std::size_t(c)])
                        merged[std::size_t(c)].push_back(o);
                    o = { start, end };
                    isOpen[std::size_t(c)] = true;
                }
            }
            for (int c = 0; c < kActiveCategories; ++c) {
                if (isOpen[std::size_t(c)])
                    merged[std::size_t(c)].push_back(open[std::size_t(c)]);
            }
        }
        for (auto& list : merged)
            mergeIntervals(list);

        // The steps of this source, by start.
        std::vector<StepTimes> steps;
        for (const Step& s : store.steps()) {
            if (s.source != source || s.end <= s.start)
                continue;
            StepTimes st;
            st.source = source;
            st.number = s.number;
            st.start = st.cpuStart = s.start;
            st.end = st.cpuEnd = s.end;
            steps.push_back(st);
        }
        std::sort(steps.begin(), steps.end(), [](const StepTimes& a, const StepTimes& b) { return a.start < b.start; });

        bool wholeTrace = false;
        if (steps.empty()) {
            const bool haveCpu = cpuMin < cpuMax;
            const std::int64_t s = haveCpu ? cpuMin : anyMin;
            const std::int64_t e = haveCpu ? cpuMax : anyMax;
            if (s >= e)
                continue;
            StepTimes st;
            st.source = source;
            st.start = st.cpuStart = s;
            st.end = st.cpuEnd = e;
            steps.push_back(st);
            wholeTrace = true;
        }

        if (options.stretchToDevice && !wholeTrace) {
            // Device steps: the span of device work launched by runtime calls that lie inside a CPU step.
            std::vector<std::int64_t> devMin(steps.size(), std::numeric_limits<std::int64_t>::max());
            std::vector<std::int64_t> devMax(steps.size(), std::numeric_limits<std::int64_t>::min());
            for (const LaunchIndex::Launch& l : launches.launches()) {
                const Track& host = tracks[std::size_t(l.hostTrack)];
                const Track& device = tracks[std::size_t(l.deviceTrack)];
                if (host.source != source || !countsForStatistics(device, l.deviceSlice))
                    continue;
                const std::int64_t hs = host.start[l.hostSlice];
                const std::int64_t he = host.end(l.hostSlice);
                auto it = std::upper_bound(steps.begin(), steps.end(), hs,
                                           [](std::int64_t t, const StepTimes& st) { return t < st.cpuStart; });
                if (it == steps.begin())
                    continue;
                --it;
                if (he > it->cpuEnd)
                    continue;
                const std::size_t k = std::size_t(it - steps.begin());
                devMin[k] = std::min(devMin[k], device.start[l.deviceSlice]);
                devMax[k] = std::max(devMax[k], device.end(l.deviceSlice));
            }
            std::int64_t previousEnd = std::numeric_limits<std::int64_t>::min();
            for (std::size_t k = 0; k < steps.size(); ++k) {
                StepTimes& st = steps[k];
                st.start = std::max(previousEnd, std::min(st.cpuStart, devMin[k]));
                st.end = std::max(st.cpuEnd, devMax[k]);
                st.end = std::max(st.end, st.start);
                previousEnd = st.end;
            }
        }

        const std::vector<Boundary> boundaries = sweep(merged);
        StepBreakdown::SourceSummary summary;
        summary.source = source;
        summary.wholeTrace = wholeTrace;
        summary.firstStep = result.steps.size();
        summary.stepCount = steps.size();
        std::array<std::int64_t, kStepCategoryCount> sums {};
        for (StepTimes& st : steps) {
            attribute(boundaries, st);
            for (int c = 0; c < kStepCategoryCount; ++c)
                sums[std::size_t(c)] += st.ns[std::size_t(c)];
            result.steps.push_back(st);
        }
        summary.average.source = source;
        summary.average.number = -1;
        std::int64_t total = 0;
        for (int c = 0; c < kStepCategoryCount; ++c) {
            summary.average.ns[std::size_t(c)] = sums[std::size_t(c)] / std::int64_t(steps.size());
            total += summary.average.ns[std::size_t(c)];
        }
        summary.average.end = summary.average.cpuEnd = total;
        result.sources.push_back(summary);
    }
    return result;
}

} // namespace runlens::models::trace
