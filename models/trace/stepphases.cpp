#include "models/trace/stepphases.h"

#include "models/trace/launchindex.h"

#include <QCoreApplication>

#include <algorithm>
#include <cctype>
#include <set>

namespace runlens::models::trace {

namespace {

struct Interval
{
    std::int64_t start;
    std::int64_t end;
};
using IntervalList = std::vector<Interval>;

/// Where two phases overlap in time the more specific one wins: ops inside `Optimizer.step` or inside the
/// DataLoader's `__next__` are on the main thread like forward ops, and the main thread sits in
/// `## backward ##` while the autograd thread works.
constexpr std::array<StepPhase, 4> kHostPriority { StepPhase::Optimizer, StepPhase::Backward, StepPhase::DataLoading,
                                                   StepPhase::Forward };
constexpr std::array<StepPhase, 5> kDevicePriority { StepPhase::Optimizer, StepPhase::Backward, StepPhase::DataLoading,
                                                     StepPhase::Forward, StepPhase::Other };

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool containsNoCase(std::string_view text, std::string_view word)
{
    return std::search(text.begin(), text.end(), word.begin(), word.end(),
                       [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; })
        != text.end();
}

/// `AddmmBackward0`, `NllLossBackward`, `CompiledFunctionBackward`: autograd nodes end in Backward and an
/// optional version number.
bool isBackwardNodeName(std::string_view name)
{
    while (!name.empty() && std::isdigit(static_cast<unsigned char>(name.back())))
        name.remove_suffix(1);
    return name.size() > 8 && name.substr(name.size() - 8) == "Backward";
}

bool countsForStatistics(const Track& track, std::size_t i)
{
    return track.duration[i] > 0 && !(track.flags[i] & (SliceFlag::Instant | SliceFlag::AbsurdDuration));
}

void mergeIntervals(IntervalList& intervals)
{
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::size_t out = 0;
    for (const Interval& iv : intervals) {
        if (out > 0 && iv.start <= intervals[out - 1].end)
            intervals[out - 1].end = std::max(intervals[out - 1].end, iv.end);
        else
            intervals[out++] = iv;
    }
    intervals.resize(out);
}

/// Appends [start, end) to a list whose intervals arrive sorted by start, joining overlaps as it goes.
void appendSorted(IntervalList& list, std::int64_t start, std::int64_t end)
{
    if (!list.empty() && start <= list.back().end)
        list.back().end = std::max(list.back().end, end);
    else
        list.push_back({ start, end });
}

bool covers(const IntervalList& merged, std::int64_t t)
{
    auto it = std::upper_bound(merged.begin(), merged.end(), t,
                               [](std::int64_t time, const Interval& iv) { return time < iv.start; });
    return it != merged.begin() && std::prev(it)->end > t;
}

/// From each boundary's time on, the first active list (by priority index) is `category`; lists.size()
/// when none is active.
struct Boundary
{
    std::int64_t time;
    std::uint8_t category;
};

std::vector<Boundary> sweep(const std::vector<IntervalList>& lists)
{
    struct Edge
    {
        std::int64_t time;
        std::int8_t delta;
        std::uint8_t category;
    };
    std::vector<Edge> edges;
    for (std::size_t c = 0; c < lists.size(); ++c) {
        for (const Interval& iv : lists[c]) {
            edges.push_back({ iv.start, +1, std::uint8_t(c) });
            edges.push_back({ iv.end, -1, std::uint8_t(c) });
        }
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.time < b.time; });
    const auto none = std::uint8_t(lists.size());
    std::vector<int> active(lists.size(), 0);
    std::vector<Boundary> boundaries;
    std::uint8_t current = none;
    for (std::size_t i = 0; i < edges.size();) {
        const std::int64_t t = edges[i].time;
        for (; i < edges.size() && edges[i].time == t; ++i)
            active[edges[i].category] += edges[i].delta;
        std::uint8_t top = none;
        for (std::size_t c = 0; c < active.size(); ++c) {
            if (active[c] > 0) {
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

/// Time of [start, end) per category index; the last entry is the time no list covers.
std::vector<std::int64_t> attribute(const std::vector<Boundary>& boundaries, std::size_t categories, std::int64_t start,
                                    std::int64_t end)
{
    std::vector<std::int64_t> ns(categories + 1, 0);
    if (end <= start)
        return ns;
    auto it = std::upper_bound(boundaries.begin(), boundaries.end(), start,
                               [](std::int64_t t, const Boundary& b) { return t < b.time; });
    std::uint8_t category = it == boundaries.begin() ? std::uint8_t(categories) : std::prev(it)->category;
    for (std::int64_t t = start; t < end;) {
        const std::int64_t next = it == boundaries.end() ? end : std::min(end, it->time);
        ns[category] += next - t;
        t = next;
        if (it != boundaries.end()) {
            category = it->category;
            ++it;
        }
    }
    return ns;
}

} // namespace

QString stepPhaseName(StepPhase phase)
{
    const char* text = "";
    switch (phase) {
    case StepPhase::DataLoading:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepPhases", "Data loading");
        break;
    case StepPhase::Forward:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepPhases", "Forward");
        break;
    case StepPhase::Backward:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepPhases", "Backward");
        break;
    case StepPhase::Optimizer:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepPhases", "Optimizer");
        break;
    case StepPhase::Other:
        text = QT_TRANSLATE_NOOP("runlens::models::trace::StepPhases", "Other");
        break;
    }
    return QCoreApplication::translate("runlens::models::trace::StepPhases", text);
}

const char* stepPhaseId(StepPhase phase)
{
    switch (phase) {
    case StepPhase::DataLoading:
        return "data_loading";
    case StepPhase::Forward:
        return "forward";
    case StepPhase::Backward:
        return "backward";
    case StepPhase::Optimizer:
        return "optimizer";
    case StepPhase::Other:
        return "other";
    }
    return "";
}

int stepPhaseOfSlice(EventKind kind, std::string_view name)
{
    if (startsWith(name, "enumerate(DataLoader)") || startsWith(name, "enumerate(DataPipe)"))
        return int(StepPhase::DataLoading);
    if (startsWith(name, "Optimizer.step#") || startsWith(name, "Optimizer.zero_grad#"))
        return int(StepPhase::Optimizer);
    if (startsWith(name, "autograd::engine::evaluate_function:"))
        return int(StepPhase::Backward);
    if (startsWith(name, "nn.Module:"))
        return int(StepPhase::Forward);
    if ((kind == EventKind::CpuOp || kind == EventKind::UserAnnotation) && isBackwardNodeName(name))
        return int(StepPhase::Backward);
    // record_function scopes users put around their own phases; the legacy profiler recorded them as
    // operators, so the kind alone does not tell them apart.
    if (kind == EventKind::UserAnnotation || startsWith(name, "##")) {
        if (containsNoCase(name, "backward"))
            return int(StepPhase::Backward);
        if (containsNoCase(name, "optimizer") || containsNoCase(name, "zero_grad"))
            return int(StepPhase::Optimizer);
        if (containsNoCase(name, "dataloader") || containsNoCase(name, "data_loading")
            || containsNoCase(name, "data loading"))
            return int(StepPhase::DataLoading);
        if (containsNoCase(name, "forward"))
            return int(StepPhase::Forward);
    }
    return -1;
}

const StepPhases::SourceSummary* StepPhases::summaryFor(int source) const
{
    for (const auto& s : sources) {
        if (s.source == source)
            return &s;
    }
    return nullptr;
}

StepPhases computeStepPhases(const TraceStore& store, const StepBreakdown& breakdown)
{
    StepPhases result;
    const auto& tracks = store.tracks();
    const StringTable& strings = store.strings();

    std::set<std::pair<int, std::uint32_t>> stepSlices;
    std::set<int> stepTracks;
    for (const Step& s : store.steps()) {
        if (s.track >= 0) {
            stepSlices.insert({ s.track, s.slice });
            stepTracks.insert(s.track);
        }
    }
    const LaunchIndex launches(store);

    for (const StepBreakdown::SourceSummary& bs : breakdown.sources) {
        const int source = bs.source;
        bool sourceHasStepTrack = false;
        for (int t : stepTracks)
            sourceHasStepTrack = sourceHasStepTrack || tracks[std::size_t(t)].source == source;

        // Host phases per thread: kept per track to place each launch by its own thread's phase.
        std::vector<std::array<IntervalList, kStepPhaseCount>> perTrack(tracks.size());
        std::vector<IntervalList> hostLists(kHostPriority.size());
        bool hasPhases = false;
        for (int ti = 0; ti < int(tracks.size()); ++ti) {
            const Track& track = tracks[std::size_t(ti)];
            if (track.source != source || track.type != TrackType::Thread)
                continue;
            bool namesBackward = false;
            for (std::size_t i = 0; i < track.size() && !namesBackward; ++i)
                namesBackward
                    = stepPhaseOfSlice(track.kind[i], strings.view(track.name_[i])) == int(StepPhase::Backward)
                    && track.kind[i] != EventKind::UserAnnotation;
            // The thread that runs the steps runs the model's forward; a thread without step markers that
            // runs autograd nodes is the autograd engine's, and all its ops are backward. A trace without step
            // markers has no known main thread: every thread but the autograd ones counts.
            const bool isMain = sourceHasStepTrack ? stepTracks.count(ti) > 0 : !namesBackward;
            const bool isAutograd = !isMain && namesBackward;
            auto& lists = perTrack[std::size_t(ti)];
            for (std::size_t i = 0; i < track.size(); ++i) {
                if (!countsForStatistics(track, i) || stepSlices.count({ ti, std::uint32_t(i) }))
                    continue;
                int phase = stepPhaseOfSlice(track.kind[i], strings.view(track.name_[i]));
                if (phase >= 0) {
                    hasPhases = true;
                } else if (track.kind[i] == EventKind::CpuOp || track.kind[i] == EventKind::UserAnnotation) {
                    if (isAutograd)
                        phase = int(StepPhase::Backward);
                    else if (isMain)
                        phase = int(StepPhase::Forward);
                }
                if (phase >= 0)
                    appendSorted(lists[std::size_t(phase)], track.start[i], track.end(i));
            }
            for (std::size_t p = 0; p < kHostPriority.size(); ++p) {
                const IntervalList& own = lists[std::size_t(kHostPriority[p])];
                hostLists[p].insert(hostLists[p].end(), own.begin(), own.end());
            }
        }
        for (IntervalList& list : hostLists)
            mergeIntervals(list);

        // Device work by the phase of its launcher.
        std::vector<IntervalList> deviceLists(kDevicePriority.size());
        const auto devicePriorityOf = [](StepPhase phase) {
            return std::size_t(std::find(kDevicePriority.begin(), kDevicePriority.end(), phase)
                               - kDevicePriority.begin());
        };
        for (int ti = 0; ti < int(tracks.size()); ++ti) {
            const Track& device = tracks[std::size_t(ti)];
            if (device.source != source || device.type != TrackType::GpuStream)
                continue;
            for (std::size_t i = 0; i < device.size(); ++i) {
                if (!countsForStatistics(device, i) || !LaunchIndex::isDeviceWork(device.kind[i]))
                    continue;
                StepPhase phase = StepPhase::Other;
                if (const LaunchIndex::Launch* launch = launches.launcherOf(ti, std::uint32_t(i))) {
                    const Track& host = tracks[std::size_t(launch->hostTrack)];
                    const std::int64_t t = host.start[launch->hostSlice];
                    for (StepPhase p : kHostPriority) {
                        if (covers(perTrack[std::size_t(launch->hostTrack)][std::size_t(p)], t)) {
                            phase = p;
                            break;
                        }
                    }
                }
                deviceLists[devicePriorityOf(phase)].push_back({ device.start[i], device.end(i) });
            }
        }
        bool hasDevice = false;
        for (IntervalList& list : deviceLists) {
            mergeIntervals(list);
            hasDevice = hasDevice || !list.empty();
        }

        const std::vector<Boundary> hostBoundaries = sweep(hostLists);
        const std::vector<Boundary> deviceBoundaries = sweep(deviceLists);
        StepPhases::SourceSummary summary;
        summary.source = source;
        summary.firstStep = result.steps.size();
        summary.stepCount = bs.stepCount;
        summary.hasPhases = hasPhases;
        std::array<std::int64_t, kStepPhaseCount> cpuSums {};
        std::array<std::int64_t, kStepPhaseCount> gpuSums {};
        bool deviceInSteps = false;
        for (std::size_t k = bs.firstStep; k < bs.firstStep + bs.stepCount; ++k) {
            const StepTimes& st = breakdown.steps[k];
            StepPhaseTimes pt;
            pt.source = source;
            pt.number = st.number;
            pt.start = st.start;
            pt.end = st.end;
            pt.cpuStart = st.cpuStart;
            pt.cpuEnd = st.cpuEnd;
            const auto host = attribute(hostBoundaries, kHostPriority.size(), st.cpuStart, st.cpuEnd);
            for (std::size_t p = 0; p < kHostPriority.size(); ++p)
                pt.cpuNs[std::size_t(kHostPriority[p])] = host[p];
            pt.cpuNs[std::size_t(StepPhase::Other)] = host.back();
            const auto dev = attribute(deviceBoundaries, kDevicePriority.size(), st.start, st.end);
            for (std::size_t p = 0; p < kDevicePriority.size(); ++p) {
                pt.gpuNs[std::size_t(kDevicePriority[p])] = dev[p];
                deviceInSteps = deviceInSteps || (hasDevice && dev[p] > 0);
            }
            for (int p = 0; p < kStepPhaseCount; ++p) {
                cpuSums[std::size_t(p)] += pt.cpuNs[std::size_t(p)];
                gpuSums[std::size_t(p)] += pt.gpuNs[std::size_t(p)];
            }
            result.steps.push_back(pt);
        }
        summary.hasDevice = deviceInSteps;
        summary.average.source = source;
        summary.average.number = -1;
        if (bs.stepCount > 0) {
            std::int64_t total = 0;
            for (int p = 0; p < kStepPhaseCount; ++p) {
                summary.average.cpuNs[std::size_t(p)] = cpuSums[std::size_t(p)] / std::int64_t(bs.stepCount);
                summary.average.gpuNs[std::size_t(p)] = gpuSums[std::size_t(p)] / std::int64_t(bs.stepCount);
                total += summary.average.cpuNs[std::size_t(p)];
            }
            summary.average.cpuEnd = total;
        }
        result.sources.push_back(summary);
    }
    return result;
}

} // namespace runlens::models::trace
