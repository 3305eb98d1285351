#include "models/trace/tracestorebuilder.h"

#include "models/trace/tracestorebuilderprivate.h"

#include <algorithm>
#include <tuple>

namespace runlens::models::trace {

namespace {

bool isDeviceKind(EventKind kind)
{
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset
        || kind == EventKind::Communication || kind == EventKind::GpuAnnotation;
}

} // namespace

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

} // namespace runlens::models::trace
