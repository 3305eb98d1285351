#pragma once

#include "models/trace/tracestore.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace runlens::models::trace {

/// How busy one device (a process holding GPU/NPU streams) was over time: the fraction of each bin during
/// which at least one of its streams ran a kernel, copy or set (tb_plugin's "GPU utilization").
struct DeviceUtilization
{
    int process = -1; ///< index into TraceStore::processes()
    int source = 0;
    QString name; ///< process name or labels, e.g. "GPU 0"
    std::int64_t busyNs = 0; ///< union of the device's work within [start, end)
    std::vector<double> bins; ///< busy fraction 0..1 per bin

    double utilization(std::int64_t span) const { return span > 0 ? double(busyNs) / double(span) : 0.0; }
};

struct DeviceUtilizationResult
{
    std::int64_t start = 0; ///< ns
    std::int64_t end = 0;
    std::int64_t binWidth = 0; ///< ns; the last bin may extend past end
    std::vector<DeviceUtilization> devices;

    std::int64_t span() const { return end - start; }
};

/// Bins [start, end) into `binCount` equal bins (an empty range uses the store's whole span). O(n log n).
DeviceUtilizationResult computeDeviceUtilization(const TraceStore& store, int binCount, std::int64_t start = 0,
                                                 std::int64_t end = 0);

} // namespace runlens::models::trace
