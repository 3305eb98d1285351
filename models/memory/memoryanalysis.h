#pragma once

#include "models/memory/memoryprofile.h"
#include "models/trace/tracestore.h"

#include <QString>

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace runlens::models::memory {

/// The highest sample of a curve (the first one when several are equal).
struct MemoryPeak
{
    bool valid = false; ///< false for an empty curve
    double bytes = 0;
    std::int64_t x = 0;
    std::size_t index = 0;
};
MemoryPeak seriesPeak(const MemorySeries& series);
/// The peak of a device: of `allocated`, else of the category sum, else of `reserved`.
MemoryPeak devicePeak(const MemoryDevice& device);

/// Index of the sample in force at x (the last one at or before x), nullopt before the first sample.
std::optional<std::size_t> sampleAt(const MemorySeries& series, std::int64_t x);
/// Value of the step curve at x (0 before the first sample).
double valueAt(const MemorySeries& series, std::int64_t x);
/// Bytes of each MemoryCategory at x (memory timelines; zeros when the device has no categories).
std::array<double, kMemoryCategoryCount> categoryTotalsAt(const MemoryDevice& device, std::int64_t x);

/// What was running at a moment on a device: the innermost CPU op and its enclosing ops, and the step.
struct MemoryContext
{
    int track = -1; ///< track of the ops, -1 when no op contains the moment
    /// CPU ops containing the moment on that track, outermost first; the last one is the innermost.
    std::vector<std::uint32_t> chain;
    int step = -1; ///< index into TraceStore::steps(), -1 none

    bool hasOp() const { return track >= 0 && !chain.empty(); }
    std::uint32_t innermost() const { return chain.back(); }
};
/// The context at x for a device read from `store`: the ops on the track of the memory event at or
/// before x (when none contains x, or the device has no such event: any CPU thread of the same source,
/// the deepest op wins), and the step of that source containing x (else of any source).
MemoryContext memoryContextAt(const trace::TraceStore& store, const MemoryDevice& device, std::int64_t x);
/// The innermost op's name of a context ("" when none).
QString contextOpName(const trace::TraceStore& store, const MemoryContext& context);

/// Allocations and frees counted for one operator (sizes in bytes, frees positive).
struct MemoryOpAmounts
{
    std::uint64_t allocations = 0;
    std::int64_t allocatedBytes = 0;
    std::uint64_t frees = 0;
    std::int64_t freedBytes = 0;
    std::int64_t net() const { return allocatedBytes - freedBytes; }
};

/// One row of the per-operator memory table (tb_plugin's memory view): `self` counts the events whose
/// innermost op is this one, `total` the events anywhere inside an occurrence (counted once when the op
/// is nested in itself). `calls` counts the occurrences with at least one event inside.
struct MemoryOpStats
{
    trace::StringId name = trace::kNoString;
    std::uint64_t calls = 0;
    MemoryOpAmounts self;
    MemoryOpAmounts total;
};

struct MemoryOpTable
{
    std::vector<MemoryOpStats> rows; ///< by descending total allocated bytes
    std::uint64_t events = 0; ///< events considered
    std::uint64_t unattributed = 0; ///< events inside no CPU op (or without a track)
};
/// The per-operator table of a device's events with x in [x0, x1] (the whole curve by default).
MemoryOpTable memoryOpTable(const trace::TraceStore& store, const MemoryDevice& device,
                            std::int64_t x0 = std::numeric_limits<std::int64_t>::min(),
                            std::int64_t x1 = std::numeric_limits<std::int64_t>::max(),
                            const std::function<bool()>& cancelled = {});

} // namespace runlens::models::memory
