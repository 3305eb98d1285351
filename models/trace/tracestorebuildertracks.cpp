#include "models/trace/tracestorebuilder.h"

#include "models/trace/tracestorebuilderprivate.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

namespace runlens::models::trace {

namespace {

template<typename T> void permute(std::vector<T>& values, const std::vector<std::uint32_t>& order)
{
    if (values.size() != order.size())
        return;
    std::vector<T> sorted;
    sorted.reserve(order.size());
    for (std::uint32_t i : order)
        sorted.push_back(values[i]);
    values.swap(sorted);
}

int typeRank(TrackType type)
{
    switch (type) {
    case TrackType::Thread:
    case TrackType::GpuStream:
        return 0;
    case TrackType::Async:
        return 1;
    case TrackType::Counter:
        return 2;
    }
    return 3;
}

} // namespace

void TraceStoreBuilder::Private::sortTracks()
{
    for (Track& track : store->m_tracks) {
        const std::size_t n = track.start.size();
        bool sorted = true;
        for (std::size_t i = 1; i < n && sorted; ++i) {
            sorted = track.start[i - 1] < track.start[i]
                || (track.start[i - 1] == track.start[i] && track.duration[i - 1] >= track.duration[i]);
        }
        if (!sorted) {
            std::vector<std::uint32_t> order(n);
            std::iota(order.begin(), order.end(), 0u);
            std::stable_sort(order.begin(), order.end(), [&track](std::uint32_t a, std::uint32_t b) {
                if (track.start[a] != track.start[b])
                    return track.start[a] < track.start[b];
                return track.duration[a] > track.duration[b];
            });
            permute(track.start, order);
            permute(track.duration, order);
            permute(track.name_, order);
            permute(track.category, order);
            permute(track.kind, order);
            permute(track.flags, order);
            permute(track.args, order);
        } else {
            shrink(track.start);
            shrink(track.duration);
            shrink(track.name_);
            shrink(track.category);
            shrink(track.kind);
            shrink(track.flags);
            shrink(track.args);
        }

        const std::size_t m = track.counterTime.size();
        if (!std::is_sorted(track.counterTime.begin(), track.counterTime.end())) {
            std::vector<std::uint32_t> order(m);
            std::iota(order.begin(), order.end(), 0u);
            std::stable_sort(order.begin(), order.end(), [&track](std::uint32_t a, std::uint32_t b) {
                return track.counterTime[a] < track.counterTime[b];
            });
            permute(track.counterTime, order);
            permute(track.counterValue, order);
        } else {
            shrink(track.counterTime);
            shrink(track.counterValue);
        }
        computeDepths(track);
    }
}

void TraceStoreBuilder::Private::computeDepths(Track& track)
{
    // A stack of open slices gives the nesting; `busyUntil` per depth moves a slice that overlaps
    // another without nesting in it (GPU streams, async groups) down to the next free row.
    struct Open
    {
        std::int64_t end;
        int depth;
    };
    std::vector<Open> stack;
    std::vector<std::int64_t> busyUntil;
    const std::size_t n = track.start.size();
    track.depth.assign(n, 0);
    track.maxDuration = 0;
    track.maxDepth = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t start = track.start[i];
        const std::int64_t end = start + track.duration[i];
        track.maxDuration = std::max(track.maxDuration, track.duration[i]);
        while (!stack.empty() && stack.back().end <= start && !(stack.back().end == start && end == start))
            stack.pop_back();
        int depth = stack.empty() ? 0 : stack.back().depth + 1;
        while (std::size_t(depth) < busyUntil.size() && busyUntil[std::size_t(depth)] > start)
            ++depth;
        depth = std::min(depth, int(std::numeric_limits<std::uint16_t>::max()));
        if (std::size_t(depth) >= busyUntil.size())
            busyUntil.resize(std::size_t(depth) + 1, std::numeric_limits<std::int64_t>::min());
        busyUntil[std::size_t(depth)] = std::max(busyUntil[std::size_t(depth)], end);
        track.depth[i] = std::uint16_t(depth);
        track.maxDepth = std::max(track.maxDepth, depth);
        if (end > start)
            stack.push_back({ end, depth });
    }
}

void TraceStoreBuilder::Private::orderProcessesAndTracks()
{
    TraceStore& s = *store;
    for (Track& track : s.m_tracks) {
        if (track.type == TrackType::GpuStream && track.process >= 0)
            s.m_processes[std::size_t(track.process)].device = true;
    }

    std::vector<int> processOrder(s.m_processes.size());
    std::iota(processOrder.begin(), processOrder.end(), 0);
    std::stable_sort(processOrder.begin(), processOrder.end(), [&s](int a, int b) {
        const Process& x = s.m_processes[std::size_t(a)];
        const Process& y = s.m_processes[std::size_t(b)];
        if (x.source != y.source)
            return x.source < y.source;
        if (x.sortIndex != y.sortIndex)
            return x.sortIndex < y.sortIndex;
        return x.pid < y.pid;
    });
    std::vector<int> processIndex(s.m_processes.size());
    for (std::size_t i = 0; i < processOrder.size(); ++i)
        processIndex[std::size_t(processOrder[i])] = int(i);

    std::vector<int> trackOrder(s.m_tracks.size());
    std::iota(trackOrder.begin(), trackOrder.end(), 0);
    std::stable_sort(trackOrder.begin(), trackOrder.end(), [&](int a, int b) {
        const Track& x = s.m_tracks[std::size_t(a)];
        const Track& y = s.m_tracks[std::size_t(b)];
        const int px = processIndex[std::size_t(x.process)];
        const int py = processIndex[std::size_t(y.process)];
        if (px != py)
            return px < py;
        if (typeRank(x.type) != typeRank(y.type))
            return typeRank(x.type) < typeRank(y.type);
        if (x.sortIndex != y.sortIndex)
            return x.sortIndex < y.sortIndex;
        if (x.tid != y.tid)
            return x.tid < y.tid;
        return s.m_strings.view(x.name) < s.m_strings.view(y.name);
    });
    std::vector<int> trackIndex(s.m_tracks.size());
    for (std::size_t i = 0; i < trackOrder.size(); ++i)
        trackIndex[std::size_t(trackOrder[i])] = int(i);

    std::vector<Process> processes;
    processes.reserve(s.m_processes.size());
    for (int old : processOrder) {
        processes.push_back(std::move(s.m_processes[std::size_t(old)]));
        processes.back().tracks.clear();
    }
    std::vector<Track> tracks;
    tracks.reserve(s.m_tracks.size());
    for (int old : trackOrder) {
        tracks.push_back(std::move(s.m_tracks[std::size_t(old)]));
        Track& track = tracks.back();
        track.process = processIndex[std::size_t(track.process)];
        processes[std::size_t(track.process)].tracks.push_back(int(tracks.size() - 1));
    }
    s.m_processes = std::move(processes);
    s.m_tracks = std::move(tracks);

    for (FlowPoint& point : flowPoints)
        point.track = trackIndex[std::size_t(point.track)];
    for (auto* list : { &correlations, &externalIds }) {
        for (Correlation& corr : *list)
            corr.track = trackIndex[std::size_t(corr.track)];
    }
}

} // namespace runlens::models::trace
