#include "tracestorebuilder.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <numeric>
#include <tuple>
#include <unordered_map>

namespace runlens::trace {

namespace {

std::int64_t saturatingAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t sum = 0;
    if (!__builtin_add_overflow(a, b, &sum))
        return sum;
    return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

struct KeyHash
{
    std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& key) const
    {
        std::uint64_t h = std::uint64_t(key.first) * 0x9e3779b97f4a7c15ull;
        h ^= std::uint64_t(key.second) + 0x7f4a7c159e3779b9ull + (h << 6) + (h >> 2);
        h ^= h >> 31;
        return std::size_t(h * 0xbf58476d1ce4e5b9ull);
    }
};

using KeyMap = std::unordered_map<std::pair<std::int64_t, std::int64_t>, int, KeyHash>;

struct FlowPoint
{
    int track;
    std::int64_t time;
    std::uint64_t id;
    StringId category;
    char phase;
    bool bindEnclosing;
    std::uint32_t sequence;
};

struct Correlation
{
    int track;
    std::int64_t start;
    std::uint64_t correlation;
};

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

template<typename T> void shrink(std::vector<T>& values)
{
    if (values.capacity() != values.size())
        std::vector<T>(values.begin(), values.end()).swap(values);
}

bool isDeviceKind(EventKind kind)
{
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset
        || kind == EventKind::Communication || kind == EventKind::GpuAnnotation;
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

struct TraceStoreBuilder::Private
{
    std::unique_ptr<TraceStore> store = std::make_unique<TraceStore>();
    KeyMap processes; ///< (source, pid) -> process
    KeyMap threads; ///< (process, tid) -> track
    KeyMap counters; ///< (process, name id) -> track
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, KeyMap, KeyHash>
        asyncs; ///< (process, cat) -> id -> track
    std::vector<FlowPoint> flowPoints;
    std::vector<Correlation> correlations;
    std::vector<Correlation> externalIds;
    std::vector<std::uint8_t> explicitSortIndex; ///< per track: sort index came from metadata

    int newTrack(int process, std::int64_t tid, TrackType type)
    {
        TraceStore& s = *store;
        Track track;
        track.type = type;
        track.process = process;
        track.tid = tid;
        track.source = s.m_processes[std::size_t(process)].source;
        track.sortIndex = int(
            std::clamp<std::int64_t>(tid, std::numeric_limits<int>::min() / 2, std::numeric_limits<int>::max() / 2));
        s.m_tracks.push_back(std::move(track));
        explicitSortIndex.push_back(0);
        return int(s.m_tracks.size() - 1);
    }

    void sortTracks();
    void computeDepths(Track& track);
    void orderProcessesAndTracks();
    std::int64_t enclosingSlice(const Track& track, std::int64_t time) const;
    std::int64_t sliceAtOrAfter(const Track& track, std::int64_t time) const;
    std::int64_t sliceStartingAt(const Track& track, std::int64_t time) const;
    void resolveFlows();
    void resolveCorrelations();
    void resolveExternalIds();
    void findSteps();
    void addMarkerSteps();
};

TraceStoreBuilder::TraceStoreBuilder()
    : d(std::make_unique<Private>())
{ }

TraceStoreBuilder::~TraceStoreBuilder() = default;

int TraceStoreBuilder::addSource(const QString& path, std::shared_ptr<const TraceBuffer> input)
{
    TraceSource source;
    source.path = path;
    source.input = std::move(input);
    d->store->m_sources.push_back(std::move(source));
    return int(d->store->m_sources.size() - 1);
}

TraceSource& TraceStoreBuilder::source(int index)
{
    return d->store->m_sources[std::size_t(index)];
}

StringTable& TraceStoreBuilder::strings()
{
    return d->store->m_strings;
}

int TraceStoreBuilder::process(int source, std::int64_t pid)
{
    auto [it, inserted] = d->processes.try_emplace({ source, pid }, 0);
    if (inserted) {
        Process process;
        process.pid = pid;
        process.source = source;
        if (source >= 0 && std::size_t(source) < d->store->m_sources.size())
            process.rank = d->store->m_sources[std::size_t(source)].rank;
        d->store->m_processes.push_back(std::move(process));
        it->second = int(d->store->m_processes.size() - 1);
    }
    return it->second;
}

void TraceStoreBuilder::setProcessName(int process, std::string_view name)
{
    d->store->m_processes[std::size_t(process)].name = d->store->m_strings.intern(name);
}

void TraceStoreBuilder::setProcessIdIsName(int process)
{
    d->store->m_processes[std::size_t(process)].namedId = true;
}

void TraceStoreBuilder::setProcessLabels(int process, std::string_view labels)
{
    d->store->m_processes[std::size_t(process)].labels = d->store->m_strings.intern(labels);
}

void TraceStoreBuilder::setProcessSortIndex(int process, int sortIndex)
{
    d->store->m_processes[std::size_t(process)].sortIndex = sortIndex;
}

int TraceStoreBuilder::threadTrack(int process, std::int64_t tid, TrackType type)
{
    auto [it, inserted] = d->threads.try_emplace({ process, tid }, 0);
    if (inserted) {
        it->second = d->newTrack(process, tid, type);
    } else if (type == TrackType::GpuStream) {
        // Metadata may name a stream before any kernel shows it is one.
        d->store->m_tracks[std::size_t(it->second)].type = TrackType::GpuStream;
    }
    return it->second;
}

void TraceStoreBuilder::setTrackName(int track, std::string_view name)
{
    d->store->m_tracks[std::size_t(track)].name = d->store->m_strings.intern(name);
}

void TraceStoreBuilder::setTrackIdIsName(int track)
{
    d->store->m_tracks[std::size_t(track)].namedId = true;
}

void TraceStoreBuilder::setTrackSortIndex(int track, int sortIndex)
{
    d->store->m_tracks[std::size_t(track)].sortIndex = sortIndex;
    d->explicitSortIndex[std::size_t(track)] = 1;
}

int TraceStoreBuilder::counterTrack(int process, std::string_view name)
{
    const StringId id = d->store->m_strings.intern(name);
    auto [it, inserted] = d->counters.try_emplace({ process, std::int64_t(id) }, 0);
    if (inserted) {
        it->second = d->newTrack(process, 0, TrackType::Counter);
        Track& track = d->store->m_tracks[std::size_t(it->second)];
        track.name = id;
        track.sortIndex = 0;
    }
    return it->second;
}

int TraceStoreBuilder::asyncTrack(int process, std::string_view category, std::uint64_t id)
{
    const StringId cat = d->store->m_strings.intern(category);
    KeyMap& byId = d->asyncs[{ process, std::int64_t(cat) }];
    auto [it, inserted] = byId.try_emplace({ std::int64_t(id), 0 }, 0);
    if (inserted) {
        it->second = d->newTrack(process, std::int64_t(id), TrackType::Async);
        Track& track = d->store->m_tracks[std::size_t(it->second)];
        track.name = cat;
        track.sortIndex = 0;
    }
    return it->second;
}

void TraceStoreBuilder::addSlice(int track, std::int64_t startNs, std::int64_t durationNs, StringId name,
                                 StringId category, EventKind kind, ArgsRef args, std::uint8_t flags)
{
    Track& t = d->store->m_tracks[std::size_t(track)];
    if (durationNs < 0)
        durationNs = 0;
    t.start.push_back(startNs);
    t.duration.push_back(durationNs);
    t.name_.push_back(name);
    t.category.push_back(category);
    t.kind.push_back(kind);
    t.flags.push_back(flags);
    t.args.push_back(args);
}

void TraceStoreBuilder::addCounter(int track, std::int64_t timeNs, double value)
{
    Track& t = d->store->m_tracks[std::size_t(track)];
    t.counterTime.push_back(timeNs);
    t.counterValue.push_back(value);
}

void TraceStoreBuilder::addFlowPoint(int track, std::int64_t timeNs, std::uint64_t id, StringId category, char phase,
                                     bool bindEnclosing)
{
    d->flowPoints.push_back({ track, timeNs, id, category, phase, bindEnclosing, std::uint32_t(d->flowPoints.size()) });
}

void TraceStoreBuilder::setCorrelation(int track, std::int64_t startNs, std::uint64_t correlation)
{
    d->correlations.push_back({ track, startNs, correlation });
}

void TraceStoreBuilder::setExternalId(int track, std::int64_t startNs, std::uint64_t externalId)
{
    d->externalIds.push_back({ track, startNs, externalId });
}

void TraceStoreBuilder::shiftSource(int source, std::int64_t deltaNs)
{
    std::vector<std::uint8_t> shifted(d->store->m_tracks.size(), 0);
    for (std::size_t i = 0; i < d->store->m_tracks.size(); ++i) {
        Track& track = d->store->m_tracks[i];
        if (track.source != source)
            continue;
        shifted[i] = 1;
        for (std::int64_t& t : track.start)
            t = saturatingAdd(t, deltaNs);
        for (std::int64_t& t : track.counterTime)
            t = saturatingAdd(t, deltaNs);
    }
    for (FlowPoint& point : d->flowPoints) {
        if (shifted[std::size_t(point.track)])
            point.time = saturatingAdd(point.time, deltaNs);
    }
    for (auto* list : { &d->correlations, &d->externalIds }) {
        for (Correlation& corr : *list) {
            if (shifted[std::size_t(corr.track)])
                corr.start = saturatingAdd(corr.start, deltaNs);
        }
    }
}

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

std::int64_t TraceStoreBuilder::Private::enclosingSlice(const Track& track, std::int64_t time) const
{
    // Sorted by (start, longer first): walking back from the last slice starting at or before `time`,
    // the first one still open is the innermost.
    auto it = std::upper_bound(track.start.begin(), track.start.end(), time);
    std::int64_t i = std::int64_t(it - track.start.begin()) - 1;
    const std::int64_t limit = time - track.maxDuration;
    std::int64_t instant = -1;
    for (int steps = 0; i >= 0 && track.start[std::size_t(i)] >= limit && steps < 65536; --i, ++steps) {
        const std::size_t k = std::size_t(i);
        if (track.duration[k] == 0) {
            if (track.start[k] == time && instant < 0)
                instant = i;
            continue;
        }
        if (track.start[k] + track.duration[k] > time || track.start[k] == time)
            return i;
    }
    return instant;
}

std::int64_t TraceStoreBuilder::Private::sliceAtOrAfter(const Track& track, std::int64_t time) const
{
    auto it = std::lower_bound(track.start.begin(), track.start.end(), time);
    if (it == track.start.end())
        return -1;
    return std::int64_t(it - track.start.begin());
}

std::int64_t TraceStoreBuilder::Private::sliceStartingAt(const Track& track, std::int64_t time) const
{
    auto it = std::lower_bound(track.start.begin(), track.start.end(), time);
    std::int64_t found = -1;
    for (std::size_t i = std::size_t(it - track.start.begin()); i < track.start.size() && track.start[i] == time; ++i) {
        if (!(track.flags[i] & SliceFlag::Instant))
            return std::int64_t(i);
        if (found < 0)
            found = std::int64_t(i);
    }
    return found;
}

void TraceStoreBuilder::Private::resolveFlows()
{
    TraceStore& s = *store;
    std::sort(flowPoints.begin(), flowPoints.end(), [&s](const FlowPoint& a, const FlowPoint& b) {
        const int sa = s.m_tracks[std::size_t(a.track)].source;
        const int sb = s.m_tracks[std::size_t(b.track)].source;
        if (sa != sb)
            return sa < sb;
        if (a.category != b.category)
            return a.category < b.category;
        if (a.id != b.id)
            return a.id < b.id;
        if (a.time != b.time)
            return a.time < b.time;
        auto rank = [](char phase) { return phase == 's' ? 0 : phase == 't' ? 1 : 2; };
        if (rank(a.phase) != rank(b.phase))
            return rank(a.phase) < rank(b.phase);
        return a.sequence < b.sequence;
    });

    auto bind = [this, &s](const FlowPoint& point) -> std::int64_t {
        const Track& track = s.m_tracks[std::size_t(point.track)];
        if (point.bindEnclosing) {
            const std::int64_t i = enclosingSlice(track, point.time);
            return i >= 0 ? i : sliceAtOrAfter(track, point.time);
        }
        const std::int64_t i = sliceAtOrAfter(track, point.time);
        return i >= 0 ? i : enclosingSlice(track, point.time);
    };

    const FlowPoint* previous = nullptr;
    std::int64_t previousSlice = -1;
    for (std::size_t i = 0; i < flowPoints.size(); ++i) {
        const FlowPoint& point = flowPoints[i];
        if (previous
            && (previous->id != point.id || previous->category != point.category
                || s.m_tracks[std::size_t(previous->track)].source != s.m_tracks[std::size_t(point.track)].source)) {
            previous = nullptr;
        }
        const std::int64_t slice = bind(point);
        if (point.phase == 's') {
            previous = slice >= 0 ? &point : nullptr;
            previousSlice = slice;
            continue;
        }
        if (previous && slice >= 0) {
            Flow flow;
            flow.fromTrack = previous->track;
            flow.fromSlice = std::uint32_t(previousSlice);
            flow.toTrack = point.track;
            flow.toSlice = std::uint32_t(slice);
            flow.category = point.category;
            flow.id = point.id;
            s.m_flows.push_back(flow);
        }
        if (point.phase == 't' && slice >= 0) {
            previous = &point;
            previousSlice = slice;
        } else {
            previous = nullptr;
        }
    }
    flowPoints.clear();
    flowPoints.shrink_to_fit();
}

void TraceStoreBuilder::Private::resolveCorrelations()
{
    TraceStore& s = *store;
    if (correlations.empty())
        return;

    struct Resolved
    {
        int source;
        std::uint64_t correlation;
        bool device;
        int track;
        std::uint32_t slice;
    };
    std::vector<Resolved> resolved;
    resolved.reserve(correlations.size());
    for (const Correlation& corr : correlations) {
        const Track& track = s.m_tracks[std::size_t(corr.track)];
        const std::int64_t slice = sliceStartingAt(track, corr.start);
        if (slice < 0)
            continue;
        const EventKind kind = track.kind[std::size_t(slice)];
        const bool device = track.type == TrackType::GpuStream || isDeviceKind(kind);
        resolved.push_back({ track.source, corr.correlation, device, corr.track, std::uint32_t(slice) });
    }
    correlations.clear();
    correlations.shrink_to_fit();
    std::sort(resolved.begin(), resolved.end(), [](const Resolved& a, const Resolved& b) {
        if (a.source != b.source)
            return a.source < b.source;
        if (a.correlation != b.correlation)
            return a.correlation < b.correlation;
        if (a.device != b.device)
            return !a.device;
        if (a.track != b.track)
            return a.track < b.track;
        return a.slice < b.slice;
    });

    auto pack = [](int track, std::uint32_t slice) { return (std::uint64_t(std::uint32_t(track)) << 32) | slice; };
    std::vector<std::pair<std::uint64_t, std::uint64_t>> existing;
    existing.reserve(s.m_flows.size());
    for (const Flow& flow : s.m_flows)
        existing.emplace_back(pack(flow.fromTrack, flow.fromSlice), pack(flow.toTrack, flow.toSlice));
    std::sort(existing.begin(), existing.end());

    const StringId category = s.m_strings.intern("correlation");
    std::size_t i = 0;
    while (i < resolved.size()) {
        std::size_t j = i;
        while (j < resolved.size() && resolved[j].source == resolved[i].source
               && resolved[j].correlation == resolved[i].correlation)
            ++j;
        std::size_t firstDevice = i;
        while (firstDevice < j && !resolved[firstDevice].device)
            ++firstDevice;
        for (std::size_t host = i; host < firstDevice; ++host) {
            for (std::size_t dev = firstDevice; dev < j; ++dev) {
                const Resolved& a = resolved[host];
                const Resolved& b = resolved[dev];
                const std::pair<std::uint64_t, std::uint64_t> key { pack(a.track, a.slice), pack(b.track, b.slice) };
                if (std::binary_search(existing.begin(), existing.end(), key))
                    continue;
                Flow flow;
                flow.fromTrack = a.track;
                flow.fromSlice = a.slice;
                flow.toTrack = b.track;
                flow.toSlice = b.slice;
                flow.category = category;
                flow.id = a.correlation;
                s.m_flows.push_back(flow);
            }
        }
        i = j;
    }
}

void TraceStoreBuilder::Private::resolveExternalIds()
{
    // Kineto gives each CPU op an "External id" and repeats it on the kernels the op launched. Flows and
    // correlations normally join kernels to their runtime calls already; the external id joins the
    // kernels they leave out (no runtime events, runtime on another source) directly to the op.
    TraceStore& s = *store;
    if (externalIds.empty())
        return;
    auto pack = [](int track, std::uint32_t slice) { return (std::uint64_t(std::uint32_t(track)) << 32) | slice; };
    std::vector<std::uint64_t> launched;
    for (const Flow& flow : s.m_flows) {
        const bool fromDevice = s.m_tracks[std::size_t(flow.fromTrack)].type == TrackType::GpuStream;
        const bool toDevice = s.m_tracks[std::size_t(flow.toTrack)].type == TrackType::GpuStream;
        if (fromDevice != toDevice)
            launched.push_back(toDevice ? pack(flow.toTrack, flow.toSlice) : pack(flow.fromTrack, flow.fromSlice));
    }
    std::sort(launched.begin(), launched.end());

    struct Resolved
    {
        int source;
        std::uint64_t id;
        int track;
        std::uint32_t slice;
    };
    std::vector<Resolved> devices;
    for (const Correlation& entry : externalIds) {
        const Track& track = s.m_tracks[std::size_t(entry.track)];
        if (track.type != TrackType::GpuStream)
            continue;
        const std::int64_t slice = sliceStartingAt(track, entry.start);
        if (slice < 0 || !isDeviceKind(track.kind[std::size_t(slice)])
            || std::binary_search(launched.begin(), launched.end(), pack(entry.track, std::uint32_t(slice))))
            continue;
        devices.push_back({ track.source, entry.correlation, entry.track, std::uint32_t(slice) });
    }
    if (devices.empty()) {
        externalIds = {};
        return;
    }
    std::vector<Resolved> hosts;
    for (const Correlation& entry : externalIds) {
        const Track& track = s.m_tracks[std::size_t(entry.track)];
        if (track.type != TrackType::Thread)
            continue;
        const std::int64_t slice = sliceStartingAt(track, entry.start);
        if (slice >= 0 && track.kind[std::size_t(slice)] == EventKind::CpuOp)
            hosts.push_back({ track.source, entry.correlation, entry.track, std::uint32_t(slice) });
    }
    externalIds = {};
    const auto byKey = [](const Resolved& a, const Resolved& b) {
        return std::tie(a.source, a.id, a.track, a.slice) < std::tie(b.source, b.id, b.track, b.slice);
    };
    std::sort(hosts.begin(), hosts.end(), byKey);
    const StringId category = s.m_strings.intern("External id");
    for (const Resolved& device : devices) {
        const auto host
            = std::lower_bound(hosts.begin(), hosts.end(), device, [](const Resolved& a, const Resolved& b) {
                  return std::tie(a.source, a.id) < std::tie(b.source, b.id);
              });
        if (host == hosts.end() || host->source != device.source || host->id != device.id)
            continue;
        Flow flow;
        flow.fromTrack = host->track;
        flow.fromSlice = host->slice;
        flow.toTrack = device.track;
        flow.toSlice = device.slice;
        flow.category = category;
        flow.id = device.id;
        s.m_flows.push_back(flow);
    }
}

namespace {

Step stepAt(const Track& track, int trackIndex, std::size_t slice, std::int64_t number)
{
    Step step;
    step.number = number;
    step.start = track.start[slice];
    step.end = track.end(slice);
    step.source = track.source;
    step.track = trackIndex;
    step.slice = std::uint32_t(slice);
    return step;
}

bool containsStep(std::string_view text)
{
    // "Steps" (MindInsight timelines), "Step Trace" (CANN msprof), "step_trace" ...
    for (std::size_t i = 0; i + 4 <= text.size(); ++i) {
        if ((text[i] == 's' || text[i] == 'S') && text.substr(i + 1, 3) == "tep")
            return true;
    }
    return false;
}

// The step number of a marker slice: "12", "Iteration 12", "Step 12", "step#12"; -1 otherwise.
std::int64_t markerStepNumber(std::string_view name)
{
    for (const std::string_view prefix : { "Iteration", "iteration", "Step", "step" }) {
        if (name.starts_with(prefix)) {
            name.remove_prefix(prefix.size());
            while (!name.empty() && (name.front() == ' ' || name.front() == '_' || name.front() == '#'))
                name.remove_prefix(1);
            break;
        }
    }
    std::int64_t number = -1;
    const auto result = std::from_chars(name.data(), name.data() + name.size(), number);
    if (result.ec != std::errc() || result.ptr != name.data() + name.size() || name.empty())
        return -1;
    return number;
}

} // namespace

void TraceStoreBuilder::Private::addMarkerSteps()
{
    // Traces without ProfilerStep#N mark steps on a track of their own: MindInsight timelines have a
    // "Steps" thread whose slices are named by the step number, CANN msprof timelines a "Step Trace"
    // process with "Iteration N" slices. Used only for sources that have no ProfilerStep#N.
    TraceStore& s = *store;
    std::vector<bool> hasSteps(s.m_sources.size(), false);
    for (const Step& step : s.m_steps) {
        if (step.source >= 0 && std::size_t(step.source) < hasSteps.size())
            hasSteps[std::size_t(step.source)] = true;
    }
    for (std::size_t t = 0; t < s.m_tracks.size(); ++t) {
        const Track& track = s.m_tracks[t];
        if (track.type == TrackType::Counter || std::size_t(track.source) >= hasSteps.size()
            || hasSteps[std::size_t(track.source)])
            continue;
        const Process* process = track.process >= 0 && std::size_t(track.process) < s.m_processes.size()
            ? &s.m_processes[std::size_t(track.process)]
            : nullptr;
        if (!containsStep(s.m_strings.view(track.name)) && !(process && containsStep(s.m_strings.view(process->name))))
            continue;
        for (std::size_t i = 0; i < track.size(); ++i) {
            if (track.depth[i] != 0 || track.duration[i] <= 0)
                continue;
            const std::int64_t number = markerStepNumber(s.m_strings.view(track.name_[i]));
            if (number >= 0)
                s.m_steps.push_back(stepAt(track, int(t), i, number));
        }
    }
}

void TraceStoreBuilder::Private::findSteps()
{
    TraceStore& s = *store;
    constexpr std::string_view kPrefix = "ProfilerStep#";
    // Per name id: -2 unknown, -1 not a step, else the step number.
    std::vector<std::int64_t> stepOfName(s.m_strings.size(), -2);
    auto stepNumber = [&](StringId id) -> std::int64_t {
        if (id >= stepOfName.size())
            return -1;
        std::int64_t& cached = stepOfName[id];
        if (cached == -2) {
            cached = -1;
            const std::string_view name = s.m_strings.view(id);
            if (name.starts_with(kPrefix)) {
                std::int64_t number = 0;
                const char* first = name.data() + kPrefix.size();
                const auto result = std::from_chars(first, name.data() + name.size(), number);
                if (result.ec == std::errc() && result.ptr != first && number >= 0)
                    cached = number;
            }
        }
        return cached;
    };

    for (std::size_t t = 0; t < s.m_tracks.size(); ++t) {
        const Track& track = s.m_tracks[t];
        if (track.type != TrackType::Thread)
            continue;
        for (std::size_t i = 0; i < track.size(); ++i) {
            if (track.kind[i] == EventKind::Kernel || track.kind[i] == EventKind::GpuAnnotation)
                continue;
            const std::int64_t number = stepNumber(track.name_[i]);
            if (number >= 0)
                s.m_steps.push_back(stepAt(track, int(t), i, number));
        }
    }
    addMarkerSteps();
    std::stable_sort(s.m_steps.begin(), s.m_steps.end(), [](const Step& a, const Step& b) {
        if (a.source != b.source)
            return a.source < b.source;
        if (a.number != b.number)
            return a.number < b.number;
        return a.start < b.start;
    });
    // The same step on several CPU threads counts once per source.
    s.m_steps.erase(
        std::unique(s.m_steps.begin(), s.m_steps.end(),
                    [](const Step& a, const Step& b) { return a.source == b.source && a.number == b.number; }),
        s.m_steps.end());
    std::stable_sort(s.m_steps.begin(), s.m_steps.end(), [](const Step& a, const Step& b) {
        if (a.source != b.source)
            return a.source < b.source;
        return a.start < b.start;
    });
}

std::shared_ptr<const TraceStore> TraceStoreBuilder::finish()
{
    Private& p = *d;
    p.sortTracks();
    p.orderProcessesAndTracks();
    p.resolveFlows();
    p.resolveCorrelations();
    p.resolveExternalIds();
    p.findSteps();

    TraceStore& s = *p.store;
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const Track& track : s.m_tracks) {
        if (!track.start.empty()) {
            first = std::min(first, track.start.front());
            for (std::size_t i = 0; i < track.size(); ++i)
                last = std::max(last, track.end(i));
        }
        if (!track.counterTime.empty()) {
            first = std::min(first, track.counterTime.front());
            last = std::max(last, track.counterTime.back());
        }
    }
    if (first > last) {
        first = 0;
        last = 0;
    }
    s.m_start = first;
    s.m_end = last;
    shrink(s.m_flows);

    std::shared_ptr<const TraceStore> result(p.store.release());
    d = std::make_unique<Private>();
    return result;
}

} // namespace runlens::trace
