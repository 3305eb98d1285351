#pragma once

#include "models/trace/tracestore.h"

#include <cstdint>
#include <span>
#include <vector>

namespace runlens::models::trace {

/// Which device slices (kernels, copies, sets on GPU streams) each host slice launched, from the store's
/// flows (`correlation`, `ac2g` and friends). A device slice is listed once even when several flows join
/// the same pair. Built in O(f log f) for f flows; read-only afterwards, safe to share between threads.
class LaunchIndex
{
public:
    struct Launch
    {
        int hostTrack = -1;
        std::uint32_t hostSlice = 0;
        int deviceTrack = -1;
        std::uint32_t deviceSlice = 0;
    };

    explicit LaunchIndex(const TraceStore& store);

    /// Every launch, sorted by (hostTrack, hostSlice).
    const std::vector<Launch>& launches() const { return m_launches; }
    /// The launches of one host slice (empty when it launched nothing).
    std::span<const Launch> launchesOf(int hostTrack, std::uint32_t hostSlice) const;
    /// The host slice that launched a device slice, or nullptr.
    const Launch* launcherOf(int deviceTrack, std::uint32_t deviceSlice) const;

    static bool isDeviceWork(EventKind kind)
    {
        return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset
            || kind == EventKind::Communication;
    }

private:
    std::vector<Launch> m_launches;
    std::vector<std::uint32_t> m_byDevice; ///< indices into m_launches sorted by (deviceTrack, deviceSlice)
};

} // namespace runlens::models::trace
