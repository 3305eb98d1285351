#include "importers/memory/memorysummary.h"

#include "models/memory/memoryanalysis.h"
#include "models/trace/tracestore.h"

#include <algorithm>
#include <limits>

namespace runlens::importers::memory {

namespace {

std::int64_t firstX(const models::memory::MemoryDevice& device)
{
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    for (const models::memory::MemorySeries* series : { &device.allocated, &device.reserved, &device.active })
        if (!series->empty())
            first = std::min(first, series->x.front());
    for (const models::memory::MemorySeries& series : device.categories)
        if (!series.empty())
            first = std::min(first, series.x.front());
    return first == std::numeric_limits<std::int64_t>::max() ? 0 : first;
}

} // namespace

QList<models::MemoryDeviceSummary> summarizeMemory(const models::memory::MemoryProfile& profile,
                                                   const models::trace::TraceStore* store)
{
    QList<models::MemoryDeviceSummary> out;
    for (const models::memory::MemoryDevice& device : profile.devices) {
        models::MemoryDeviceSummary s;
        s.device = device.label;
        s.rank = device.rank;
        s.timeAxis = profile.axis == models::memory::MemoryAxis::TimeNs;
        s.relative = device.relative;
        s.capacity = device.capacity;
        s.ooms = int(device.ooms.size());
        const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
        if (peak.valid) {
            s.peakBytes = qint64(peak.bytes);
            s.peakAt = peak.x;
            s.origin = store ? store->startTime() : firstX(device);
            if (store && s.timeAxis) {
                const models::memory::MemoryContext context = models::memory::memoryContextAt(*store, device, peak.x);
                s.peakOp = models::memory::contextOpName(*store, context);
                if (context.step >= 0)
                    s.peakStep = store->steps()[std::size_t(context.step)].number;
            }
        } else if (device.reportedPeak > 0) {
            // A MindSpore usage summary states its peak without a curve to take it from.
            s.peakBytes = device.reportedPeak;
            s.peakLocated = false;
        }
        out << s;
    }
    return out;
}

} // namespace runlens::importers::memory
