#include "models/trace/deviceutilization.h"

#include "models/trace/launchindex.h"

#include <algorithm>

namespace runlens::models::trace {

DeviceUtilizationResult computeDeviceUtilization(const TraceStore& store, int binCount, std::int64_t start,
                                                 std::int64_t end)
{
    DeviceUtilizationResult result;
    if (end <= start) {
        start = store.startTime();
        end = store.endTime();
    }
    binCount = std::max(1, binCount);
    result.start = start;
    result.end = end;
    result.binWidth = end > start ? std::max<std::int64_t>(1, (end - start + binCount - 1) / binCount) : 1;

    const auto& tracks = store.tracks();
    const auto& processes = store.processes();
    for (int p = 0; p < int(processes.size()); ++p) {
        const Process& process = processes[std::size_t(p)];
        std::vector<std::pair<std::int64_t, std::int64_t>> intervals;
        bool hasStreams = false;
        for (int ti : process.tracks) {
            if (ti < 0 || std::size_t(ti) >= tracks.size())
                continue;
            const Track& track = tracks[std::size_t(ti)];
            if (track.type != TrackType::GpuStream)
                continue;
            hasStreams = true;
            for (std::size_t i = 0; i < track.size(); ++i) {
                if (track.flags[i] & (SliceFlag::Instant | SliceFlag::AbsurdDuration))
                    continue;
                if (!LaunchIndex::isDeviceWork(track.kind[i]))
                    continue;
                const std::int64_t s = std::max(start, track.start[i]);
                const std::int64_t e = std::min(end, track.end(i));
                if (e > s)
                    intervals.emplace_back(s, e);
            }
        }
        if (!process.device && !hasStreams)
            continue;

        std::sort(intervals.begin(), intervals.end());
        DeviceUtilization device;
        device.process = p;
        device.source = process.source;
        const QString labels = store.strings().text(process.labels);
        const QString name = store.strings().text(process.name);
        device.name = !labels.isEmpty() ? labels : !name.isEmpty() ? name : QString::number(process.pid);
        device.bins.assign(std::size_t(binCount), 0.0);

        const auto addBusy = [&](std::int64_t s, std::int64_t e) {
            device.busyNs += e - s;
            // Spread [s, e) over the bins it touches.
            std::int64_t t = s;
            while (t < e) {
                const std::int64_t bin = std::min<std::int64_t>(binCount - 1, (t - start) / result.binWidth);
                const std::int64_t binEnd = bin == binCount - 1 ? e : start + (bin + 1) * result.binWidth;
                const std::int64_t next = std::min(e, binEnd);
                device.bins[std::size_t(bin)] += double(next - t);
                t = next;
            }
        };
        std::int64_t curStart = 0;
        std::int64_t curEnd = 0;
        bool open = false;
        for (const auto& [s, e] : intervals) {
            if (open && s <= curEnd) {
                curEnd = std::max(curEnd, e);
                continue;
            }
            if (open)
                addBusy(curStart, curEnd);
            curStart = s;
            curEnd = e;
            open = true;
        }
        if (open)
            addBusy(curStart, curEnd);
        for (int b = 0; b < binCount; ++b) {
            const std::int64_t binStart = start + b * result.binWidth;
            const std::int64_t binEnd = std::min(end, binStart + result.binWidth);
            const std::int64_t width = b == binCount - 1 ? std::max<std::int64_t>(1, end - binStart)
                                                         : std::max<std::int64_t>(1, binEnd - binStart);
            device.bins[std::size_t(b)] = std::clamp(device.bins[std::size_t(b)] / double(width), 0.0, 1.0);
        }
        result.devices.push_back(std::move(device));
    }
    return result;
}

} // namespace runlens::models::trace
