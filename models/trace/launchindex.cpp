#include "models/trace/launchindex.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace runlens::models::trace {

LaunchIndex::LaunchIndex(const TraceStore& store)
{
    const auto& tracks = store.tracks();
    const auto validSlice = [&](int track, std::uint32_t slice) {
        return track >= 0 && std::size_t(track) < tracks.size() && slice < tracks[std::size_t(track)].size();
    };
    m_launches.reserve(store.flows().size());
    for (const Flow& flow : store.flows()) {
        if (!validSlice(flow.fromTrack, flow.fromSlice) || !validSlice(flow.toTrack, flow.toSlice))
            continue;
        Launch launch { flow.fromTrack, flow.fromSlice, flow.toTrack, flow.toSlice };
        // Correlations carry no direction of their own; take the host end as the launcher either way.
        if (tracks[std::size_t(launch.hostTrack)].type == TrackType::GpuStream) {
            std::swap(launch.hostTrack, launch.deviceTrack);
            std::swap(launch.hostSlice, launch.deviceSlice);
        }
        const Track& host = tracks[std::size_t(launch.hostTrack)];
        const Track& device = tracks[std::size_t(launch.deviceTrack)];
        // Only host -> device joins; fwd/bwd and async flows between CPU slices are not launches.
        if (host.type == TrackType::GpuStream || device.type != TrackType::GpuStream)
            continue;
        if (!isDeviceWork(device.kind[launch.deviceSlice]))
            continue;
        m_launches.push_back(launch);
    }

    // One launcher per device slice: several flows can name the same pair (ac2g and correlation).
    std::sort(m_launches.begin(), m_launches.end(), [](const Launch& a, const Launch& b) {
        return std::tie(a.deviceTrack, a.deviceSlice, a.hostTrack, a.hostSlice)
            < std::tie(b.deviceTrack, b.deviceSlice, b.hostTrack, b.hostSlice);
    });
    m_launches.erase(std::unique(m_launches.begin(), m_launches.end(),
                                 [](const Launch& a, const Launch& b) {
                                     return a.deviceTrack == b.deviceTrack && a.deviceSlice == b.deviceSlice;
                                 }),
                     m_launches.end());

    std::sort(m_launches.begin(), m_launches.end(), [](const Launch& a, const Launch& b) {
        return std::tie(a.hostTrack, a.hostSlice, a.deviceTrack, a.deviceSlice)
            < std::tie(b.hostTrack, b.hostSlice, b.deviceTrack, b.deviceSlice);
    });
    m_byDevice.resize(m_launches.size());
    for (std::uint32_t i = 0; i < m_byDevice.size(); ++i)
        m_byDevice[i] = i;
    std::sort(m_byDevice.begin(), m_byDevice.end(), [this](std::uint32_t a, std::uint32_t b) {
        return std::tie(m_launches[a].deviceTrack, m_launches[a].deviceSlice)
            < std::tie(m_launches[b].deviceTrack, m_launches[b].deviceSlice);
    });
}

std::span<const LaunchIndex::Launch> LaunchIndex::launchesOf(int hostTrack, std::uint32_t hostSlice) const
{
    const auto key = std::make_pair(hostTrack, hostSlice);
    const auto lower = std::lower_bound(m_launches.begin(), m_launches.end(), key, [](const Launch& l, const auto& k) {
        return std::make_pair(l.hostTrack, l.hostSlice) < k;
    });
    auto upper = lower;
    while (upper != m_launches.end() && upper->hostTrack == hostTrack && upper->hostSlice == hostSlice)
        ++upper;
    return { lower, upper };
}

const LaunchIndex::Launch* LaunchIndex::launcherOf(int deviceTrack, std::uint32_t deviceSlice) const
{
    const auto key = std::make_pair(deviceTrack, deviceSlice);
    const auto it = std::lower_bound(m_byDevice.begin(), m_byDevice.end(), key, [this](std::uint32_t i, const auto& k) {
        return std::make_pair(m_launches[i].deviceTrack, m_launches[i].deviceSlice) < k;
    });
    if (it == m_byDevice.end() || m_launches[*it].deviceTrack != deviceTrack
        || m_launches[*it].deviceSlice != deviceSlice)
        return nullptr;
    return &m_launches[*it];
}

} // namespace runlens::models::trace
