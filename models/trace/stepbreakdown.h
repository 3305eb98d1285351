#pragma once

#include "models/trace/tracestore.h"

#include <QString>

#include <array>
#include <cstdint>
#include <vector>

namespace runlens::models::trace {

class LaunchIndex;

/// Roles an instant of a step is attributed to, in tb_plugin's priority order (highest first); Idle is
/// the time no event of the source is active.
enum class StepCategory : std::uint8_t {
    Kernel,
    Memcpy,
    Memset,
    Communication,
    Runtime,
    DataLoader,
    CpuOp,
    Other,
    Idle,
};
constexpr int kStepCategoryCount = int(StepCategory::Idle) + 1;

/// Translated display name ("Kernel", "Data loader", ...).
QString stepCategoryName(StepCategory category);
/// Stable id for CSV headers and JSON ("kernel", "data_loader", ...).
const char* stepCategoryId(StepCategory category);

/// The category a slice contributes to, or nothing (-1) for slices that only group others (Python frames,
/// annotations, memory instants). Exposed for the timeline's "colour by role".
int stepCategoryOf(EventKind kind, std::string_view name);

/// The time of one step split by category. `start`/`end` are the analysed range: the CPU step stretched to
/// cover the device work launched inside it (tb_plugin's device steps), clipped so steps never overlap.
struct StepTimes
{
    int source = 0;
    std::int64_t number = 0; ///< N of ProfilerStep#N; 0 for a whole-trace step
    std::int64_t start = 0; ///< ns
    std::int64_t end = 0; ///< ns
    std::int64_t cpuStart = 0; ///< the step marker on the CPU
    std::int64_t cpuEnd = 0;
    std::array<std::int64_t, kStepCategoryCount> ns {}; ///< sums to end - start

    std::int64_t duration() const { return end - start; }
    std::int64_t time(StepCategory c) const { return ns[std::size_t(c)]; }
    double share(StepCategory c) const { return duration() > 0 ? double(time(c)) / double(duration()) : 0.0; }
};

/// Per-step breakdowns of every source (rank) of a store, in (source, start) order, and the mean per
/// source. A source without step markers gets one step over its whole CPU span (`wholeTrace`).
struct StepBreakdown
{
    struct SourceSummary
    {
        int source = 0;
        bool wholeTrace = false; ///< no step markers: one step covering the CPU span
        std::size_t firstStep = 0; ///< index into steps
        std::size_t stepCount = 0;
        /// Mean over the source's steps per category (ns, rounded down); number = -1.
        StepTimes average;
    };

    std::vector<StepTimes> steps;
    std::vector<SourceSummary> sources;

    const SourceSummary* summaryFor(int source) const;
    bool isEmpty() const { return steps.empty(); }
};

struct StepBreakdownOptions
{
    /// Extend each step to the device work launched by runtime calls inside its CPU range.
    bool stretchToDevice = true;
    /// The store's launch index when the caller already has one (it is built otherwise): callers that also
    /// compute operator statistics build it once.
    const LaunchIndex* launches = nullptr;
};

/// Sweeps every slice of each source once: O(n log n) in the number of slices. Thread-safe on a const
/// store; meant to run on a worker.
StepBreakdown computeStepBreakdown(const TraceStore& store, const StepBreakdownOptions& options = {});

} // namespace runlens::models::trace
