#include "importers/cluster/rankdigestpassstate.h"

#include "models/trace/stepbreakdown.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <numeric>
#include <tuple>

// The joins the single-pass digest makes after its event pass, by the trace store builder's rules: tracks
// sorted, kernels joined to their launches, the steps found.

namespace runlens::importers::cluster::digestpass {

namespace {

// The bounds the store's lookups take, searched first near `hint` (joins are read next to the slices they
// name, so this is nearly always a few steps), else by bisection.
std::size_t lowerBound(const Track& track, std::int64_t time, std::size_t hint)
{
    const auto& v = track.slices;
    if (track.fileOrder && hint <= v.size()) {
        std::size_t i = hint;
        for (int steps = 0; steps < 8; ++steps) {
            const bool left = i == 0 || v[i - 1].start < time;
            const bool right = i == v.size() || v[i].start >= time;
            if (left && right)
                return i;
            if (!left)
                --i;
            else
                ++i;
        }
    }
    return std::size_t(
        std::lower_bound(v.begin(), v.end(), time, [](const Slice& s, std::int64_t t) { return s.start < t; })
        - v.begin());
}

std::size_t upperBound(const Track& track, std::int64_t time, std::size_t hint)
{
    const auto& v = track.slices;
    if (track.fileOrder && hint <= v.size()) {
        std::size_t i = hint;
        for (int steps = 0; steps < 8; ++steps) {
            const bool left = i == 0 || v[i - 1].start <= time;
            const bool right = i == v.size() || v[i].start > time;
            if (left && right)
                return i;
            if (!left)
                --i;
            else
                ++i;
        }
    }
    return std::size_t(
        std::upper_bound(v.begin(), v.end(), time, [](std::int64_t t, const Slice& s) { return t < s.start; })
        - v.begin());
}

bool isDeviceKind(EventKind kind) // the trace store builder's rule for joins
{
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset
        || kind == EventKind::Communication || kind == EventKind::GpuAnnotation;
}

} // namespace

void SinglePass::sortTracks()
{
    for (Track& track : m_tracks) {
        for (Slice& s : track.slices)
            s.start += m_base;
        bool sorted = true;
        for (std::size_t i = 1; i < track.slices.size() && sorted; ++i) {
            const Slice& a = track.slices[i - 1];
            const Slice& b = track.slices[i];
            sorted = a.start < b.start || (a.start == b.start && a.duration >= b.duration);
        }
        track.fileOrder = sorted;
        if (!sorted) {
            const auto less = [](const Slice& a, const Slice& b) {
                if (a.start != b.start)
                    return a.start < b.start;
                return a.duration > b.duration;
            };
            // Nearly in order, as a trace's instants written a little after their time leave a thread:
            // insertion moves those few slices back. Far out of order, a stable sort takes over; insertion
            // only moved slices past greater ones, so ties kept their order and the result is the same.
            auto& v = track.slices;
            std::size_t budget = v.size() * 4 + 1024;
            std::size_t i = 1;
            for (; i < v.size(); ++i) {
                if (!less(v[i], v[i - 1]))
                    continue;
                const Slice moving = v[i];
                std::size_t j = i;
                for (; j > 0 && less(moving, v[j - 1]) && budget > 0; --j, --budget)
                    v[j] = v[j - 1];
                v[j] = moving;
                if (budget == 0)
                    break;
            }
            if (i < v.size())
                std::stable_sort(v.begin(), v.end(), less);
        }
        track.maxDuration = 0;
        for (const Slice& s : track.slices)
            track.maxDuration = std::max(track.maxDuration, s.duration);
    }
    for (FlowPoint& f : m_flowPoints)
        f.time += m_base;
    for (auto* list : { &m_correlations, &m_externalIds }) {
        for (IdPoint& point : *list)
            point.start += m_base;
    }
}

// The three lookups below are the trace store builder's, on this pass's tracks.
std::int64_t SinglePass::enclosingSlice(const Track& track, std::int64_t time, std::size_t hint)
{
    const auto& slices = track.slices;
    std::int64_t i = std::int64_t(upperBound(track, time, hint)) - 1;
    const std::int64_t limit = time - track.maxDuration;
    std::int64_t instant = -1;
    for (int steps = 0; i >= 0 && slices[std::size_t(i)].start >= limit && steps < 65536; --i, ++steps) {
        const Slice& s = slices[std::size_t(i)];
        if (s.duration == 0) {
            if (s.start == time && instant < 0)
                instant = i;
            continue;
        }
        if (s.start + s.duration > time || s.start == time)
            return i;
    }
    return instant;
}

std::int64_t SinglePass::sliceAtOrAfter(const Track& track, std::int64_t time, std::size_t hint)
{
    const std::size_t i = lowerBound(track, time, hint);
    return i == track.slices.size() ? -1 : std::int64_t(i);
}

std::int64_t SinglePass::sliceStartingAt(const Track& track, std::int64_t time, std::size_t hint)
{
    const auto& slices = track.slices;
    std::int64_t found = -1;
    for (std::size_t i = lowerBound(track, time, hint); i < slices.size() && slices[i].start == time; ++i) {
        if (!(slices[i].flags & models::trace::SliceFlag::Instant))
            return std::int64_t(i);
        if (found < 0)
            found = std::int64_t(i);
    }
    return found;
}

/// The launch index the store path builds: flows, then correlations, then external ids, then host -> device
/// joins of device work, one launcher per device slice.
bool SinglePass::launches(std::vector<Launch>& out)
{
    struct Flow
    {
        int fromTrack;
        std::uint32_t fromSlice;
        int toTrack;
        std::uint32_t toSlice;
    };
    std::vector<Flow> flows;
    sortUnlessSorted(m_flowPoints.begin(), m_flowPoints.end(), [](const FlowPoint& a, const FlowPoint& b) {
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
    auto bind = [this](const FlowPoint& point) -> std::int64_t {
        const Track& track = m_tracks[std::size_t(point.track)];
        if (point.bindEnclosing) {
            const std::int64_t i = enclosingSlice(track, point.time, point.hint);
            return i >= 0 ? i : sliceAtOrAfter(track, point.time, point.hint);
        }
        const std::int64_t i = sliceAtOrAfter(track, point.time, point.hint);
        return i >= 0 ? i : enclosingSlice(track, point.time, point.hint);
    };
    const FlowPoint* previous = nullptr;
    std::int64_t previousSlice = -1;
    for (const FlowPoint& point : m_flowPoints) {
        if (previous && (previous->id != point.id || previous->category != point.category))
            previous = nullptr;
        // Flows between two CPU threads (fwdbwd) or two streams are never launches: not bound at all.
        const std::int64_t slice = bind(point);
        if (point.phase == 's') {
            previous = slice >= 0 ? &point : nullptr;
            previousSlice = slice;
            continue;
        }
        if (previous && slice >= 0)
            flows.push_back({ previous->track, std::uint32_t(previousSlice), point.track, std::uint32_t(slice) });
        if (point.phase == 't' && slice >= 0) {
            previous = &point;
            previousSlice = slice;
        } else {
            previous = nullptr;
        }
    }
    m_flowPoints.clear();

    auto pack = [](int track, std::uint32_t slice) { return (std::uint64_t(std::uint32_t(track)) << 32) | slice; };
    // Correlations.
    {
        struct Resolved
        {
            std::uint64_t correlation;
            bool device;
            int track;
            std::uint32_t slice;
        };
        std::vector<Resolved> resolved;
        resolved.reserve(m_correlations.size());
        for (const IdPoint& corr : m_correlations) {
            const Track& track = m_tracks[std::size_t(corr.track)];
            const std::int64_t slice = sliceStartingAt(track, corr.start, corr.hint);
            if (slice < 0)
                continue;
            const bool device = track.device || isDeviceKind(track.slices[std::size_t(slice)].kind);
            resolved.push_back({ corr.id, device, corr.track, std::uint32_t(slice) });
        }
        m_correlations.clear();
        sortUnlessSorted(resolved.begin(), resolved.end(), [](const Resolved& a, const Resolved& b) {
            if (a.correlation != b.correlation)
                return a.correlation < b.correlation;
            if (a.device != b.device)
                return !a.device;
            if (a.track != b.track)
                return a.track < b.track;
            return a.slice < b.slice;
        });
        std::vector<std::pair<std::uint64_t, std::uint64_t>> existing;
        existing.reserve(flows.size());
        for (const Flow& flow : flows)
            existing.emplace_back(pack(flow.fromTrack, flow.fromSlice), pack(flow.toTrack, flow.toSlice));
        sortUnlessSorted(existing.begin(), existing.end());
        std::size_t i = 0;
        while (i < resolved.size()) {
            std::size_t j = i;
            while (j < resolved.size() && resolved[j].correlation == resolved[i].correlation)
                ++j;
            std::size_t firstDevice = i;
            while (firstDevice < j && !resolved[firstDevice].device)
                ++firstDevice;
            for (std::size_t host = i; host < firstDevice; ++host) {
                for (std::size_t dev = firstDevice; dev < j; ++dev) {
                    const Resolved& a = resolved[host];
                    const Resolved& b = resolved[dev];
                    if (std::binary_search(existing.begin(), existing.end(),
                                           std::make_pair(pack(a.track, a.slice), pack(b.track, b.slice))))
                        continue;
                    flows.push_back({ a.track, a.slice, b.track, b.slice });
                }
            }
            i = j;
        }
    }
    // External ids: the device work no flow or correlation launched, joined to the CPU op of its id.
    if (!m_externalIds.empty()) {
        std::vector<std::uint64_t> launched;
        for (const Flow& flow : flows) {
            const bool fromDevice = m_tracks[std::size_t(flow.fromTrack)].device;
            const bool toDevice = m_tracks[std::size_t(flow.toTrack)].device;
            if (fromDevice != toDevice)
                launched.push_back(toDevice ? pack(flow.toTrack, flow.toSlice) : pack(flow.fromTrack, flow.fromSlice));
        }
        sortUnlessSorted(launched.begin(), launched.end());
        struct Resolved
        {
            std::uint64_t id;
            int track;
            std::uint32_t slice;
        };
        std::vector<Resolved> devices;
        for (const IdPoint& entry : m_externalIds) {
            const Track& track = m_tracks[std::size_t(entry.track)];
            if (!track.device)
                continue;
            const std::int64_t slice = sliceStartingAt(track, entry.start, entry.hint);
            if (slice < 0 || !isDeviceKind(track.slices[std::size_t(slice)].kind)
                || std::binary_search(launched.begin(), launched.end(), pack(entry.track, std::uint32_t(slice))))
                continue;
            devices.push_back({ entry.id, entry.track, std::uint32_t(slice) });
        }
        if (!devices.empty()) {
            std::vector<Resolved> hosts;
            for (const IdPoint& entry : m_externalIds) {
                const Track& track = m_tracks[std::size_t(entry.track)];
                if (track.device)
                    continue;
                const std::int64_t slice = sliceStartingAt(track, entry.start, entry.hint);
                if (slice >= 0 && track.slices[std::size_t(slice)].kind == EventKind::CpuOp)
                    hosts.push_back({ entry.id, entry.track, std::uint32_t(slice) });
            }
            sortUnlessSorted(hosts.begin(), hosts.end(), [](const Resolved& a, const Resolved& b) {
                return std::tie(a.id, a.track, a.slice) < std::tie(b.id, b.track, b.slice);
            });
            for (const Resolved& device : devices) {
                const auto host = std::lower_bound(hosts.begin(), hosts.end(), device.id,
                                                   [](const Resolved& a, std::uint64_t id) { return a.id < id; });
                if (host == hosts.end() || host->id != device.id)
                    continue;
                // The store takes the first op of the id in its track order, which this pass does not know.
                const auto next = std::next(host);
                if (next != hosts.end() && next->id == device.id
                    && (next->track != host->track || next->slice != host->slice))
                    return decline("an external id on several ops");
                flows.push_back({ host->track, host->slice, device.track, device.slice });
            }
        }
    }
    m_externalIds.clear();

    // The launch index: host (CPU thread) -> device work on a stream, one launcher per device slice.
    out.clear();
    out.reserve(flows.size());
    for (const Flow& flow : flows) {
        Launch launch { flow.fromTrack, flow.fromSlice, flow.toTrack, flow.toSlice };
        if (m_tracks[std::size_t(launch.hostTrack)].device) {
            std::swap(launch.hostTrack, launch.deviceTrack);
            std::swap(launch.hostSlice, launch.deviceSlice);
        }
        const Track& host = m_tracks[std::size_t(launch.hostTrack)];
        const Track& device = m_tracks[std::size_t(launch.deviceTrack)];
        if (host.device || !device.device)
            continue;
        if (!models::trace::LaunchIndex::isDeviceWork(device.slices[launch.deviceSlice].kind))
            continue;
        out.push_back(launch);
    }
    sortUnlessSorted(out.begin(), out.end(), [](const Launch& a, const Launch& b) {
        return std::tie(a.deviceTrack, a.deviceSlice, a.hostTrack, a.hostSlice)
            < std::tie(b.deviceTrack, b.deviceSlice, b.hostTrack, b.hostSlice);
    });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (kept > 0 && out[kept - 1].deviceTrack == out[i].deviceTrack
            && out[kept - 1].deviceSlice == out[i].deviceSlice) {
            // Two launchers: the store keeps the first by (track, slice). On one track slices are in the
            // store's order (the first is kept here too); between tracks only the store knows its order.
            if (out[kept - 1].hostTrack != out[i].hostTrack)
                return decline("device work launched from two threads");
            continue;
        }
        out[kept++] = out[i];
    }
    out.resize(kept);
    return true;
}

/// The store's steps (ProfilerStep#N on CPU threads, one per number, the earliest), the step breakdown's
/// CPU ranges; declines when the trace has none (the store then finds marker steps or takes the whole trace).
bool SinglePass::findSteps(std::vector<models::trace::StepTimes>& steps)
{
    constexpr std::string_view kPrefix = "ProfilerStep#";
    std::vector<std::int64_t> numberOf(m_names.size(), -2);
    struct Found
    {
        std::int64_t number;
        std::int64_t start;
        std::int64_t end;
        int track;
        std::uint32_t slice;
    };
    std::vector<Found> found;
    for (std::size_t t = 0; t < m_tracks.size(); ++t) {
        const Track& track = m_tracks[t];
        if (track.device)
            continue;
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            const Slice& s = track.slices[i];
            if (s.kind == EventKind::Kernel || s.kind == EventKind::GpuAnnotation)
                continue;
            std::int64_t& number = numberOf[s.name];
            if (number == -2) {
                number = -1;
                const std::string_view name = m_names.view(s.name);
                if (name.starts_with(kPrefix)) {
                    std::int64_t n = 0;
                    const char* first = name.data() + kPrefix.size();
                    const auto result = std::from_chars(first, name.data() + name.size(), n);
                    if (result.ec == std::errc() && result.ptr != first && n >= 0)
                        number = n;
                }
            }
            if (number >= 0)
                found.push_back({ number, s.start, s.end(), int(t), std::uint32_t(i) });
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
        return a.number != b.number ? a.number < b.number : a.start < b.start;
    });
    std::vector<Found> kept;
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (!kept.empty() && kept.back().number == found[i].number) {
            // The store keeps the first of equal starts in its track order.
            if (found[i].start == kept.back().start && found[i].end != kept.back().end)
                return decline("a step marked twice at the same time");
            continue;
        }
        kept.push_back(found[i]);
    }
    std::stable_sort(kept.begin(), kept.end(), [](const Found& a, const Found& b) { return a.start < b.start; });
    steps.clear();
    for (const Found& f : kept) {
        m_tracks[std::size_t(f.track)].slices[f.slice].stepMarker = true;
        if (f.end <= f.start)
            continue;
        models::trace::StepTimes st;
        st.number = f.number;
        st.start = st.cpuStart = f.start;
        st.end = st.cpuEnd = f.end;
        steps.push_back(st);
    }
    if (steps.empty())
        return decline("no ProfilerStep#N");
    return true;
}

} // namespace runlens::importers::cluster::digestpass
