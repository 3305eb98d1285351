#pragma once

#include "models/trace/tracestore.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::models::trace {

class LaunchIndex;

/// Aggregate of one operator name (or name + input dims) over every CPU op slice of a store.
/// Host times are the ops' own durations; device times are the kernels (and copies/sets) launched by
/// runtime calls whose innermost enclosing CPU op is the op (self) or the op or any op below it (total).
struct OperatorStats
{
    StringId name = kNoString;
    std::string inputDims; ///< compact JSON of "Input Dims" (e.g. [[32,3,224,224],[]]); empty when not grouped
    std::uint64_t calls = 0;
    std::int64_t hostTotal = 0; ///< ns, sum of durations
    std::int64_t hostSelf = 0; ///< ns, durations minus the nearest CPU ops below
    std::int64_t hostMin = std::numeric_limits<std::int64_t>::max();
    std::int64_t hostMax = 0;
    std::int64_t deviceTotal = 0; ///< ns
    std::int64_t deviceSelf = 0; ///< ns
    std::uint64_t kernels = 0; ///< device slices attributed as self
    /// The longest call, for "jump to the longest occurrence".
    int longestTrack = -1;
    std::uint32_t longestSlice = 0;

    std::int64_t hostAverage() const { return calls ? hostTotal / std::int64_t(calls) : 0; }
    std::int64_t deviceAverage() const { return calls ? deviceTotal / std::int64_t(calls) : 0; }
};

/// Aggregate of one kernel name over the device streams of a store.
struct KernelStats
{
    StringId name = kNoString;
    EventKind kind = EventKind::Kernel;
    std::uint64_t calls = 0;
    std::int64_t total = 0; ///< ns
    std::int64_t min = std::numeric_limits<std::int64_t>::max();
    std::int64_t max = 0;
    /// The CPU op that launched most of this kernel's time, or kNoString.
    StringId topOperator = kNoString;
    int longestTrack = -1;
    std::uint32_t longestSlice = 0;

    std::int64_t mean() const { return calls ? total / std::int64_t(calls) : 0; }
};

/// Operator and kernel tables of a store, plus the sums that shares are taken against.
struct OperatorStatistics
{
    bool groupedByInputDims = false;
    std::vector<OperatorStats> operators; ///< sorted by hostSelf, descending
    std::vector<KernelStats> kernels; ///< sorted by total, descending
    std::int64_t hostSelfSum = 0; ///< sum of every op's self time (no double counting of nested ops)
    std::int64_t deviceSelfSum = 0;
    std::int64_t kernelSum = 0;
    std::uint64_t opCalls = 0;

    double hostShare(const OperatorStats& op) const
    {
        return hostSelfSum ? double(op.hostSelf) / double(hostSelfSum) : 0;
    }
    double deviceShare(const OperatorStats& op) const
    {
        return deviceSelfSum ? double(op.deviceSelf) / double(deviceSelfSum) : 0;
    }
    double kernelShare(const KernelStats& k) const { return kernelSum ? double(k.total) / double(kernelSum) : 0; }
};

struct OperatorStatisticsOptions
{
    /// Also split by the "Input Dims" arg; parses the args of every CPU op, so only when asked.
    bool groupByInputDims = false;
    /// Only events of this source (rank); -1 for all.
    int source = -1;
    /// Polled every few thousand slices; returning true stops with a partial result.
    std::function<bool()> cancelled = {};
    /// The store's launch index when the caller already has one (it is built otherwise).
    const LaunchIndex* launches = nullptr;
};

/// One pass over the CPU tracks with a nesting stack and one over the device streams: O(n log n).
/// Thread-safe on a const store; meant to run on a worker.
OperatorStatistics computeOperatorStatistics(const TraceStore& store, const OperatorStatisticsOptions& options = {});

/// The value of the "Input Dims" key of an args object, compacted (whitespace outside strings removed);
/// empty when absent. Tolerates broken JSON by returning what it could read.
std::string extractInputDims(std::string_view argsJson);

} // namespace runlens::models::trace
