#pragma once

#include "models/trace/stepbreakdown.h"
#include "models/trace/tracestore.h"

#include <QString>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace runlens::models::trace {

/// The phases of a training step, in the order they run. Other is the step time no phase covers (Python
/// between phases, idle host, unnamed work).
enum class StepPhase : std::uint8_t {
    DataLoading,
    Forward,
    Backward,
    Optimizer,
    Other,
};
constexpr int kStepPhaseCount = int(StepPhase::Other) + 1;

/// Translated display name ("Forward", "Data loading", ...).
QString stepPhaseName(StepPhase phase);
/// Stable id for CSV headers and JSON ("data_loading", "forward", "backward", "optimizer", "other").
const char* stepPhaseId(StepPhase phase);

/// The phase a slice names by itself, or -1 when its name does not say (an `aten::mm` is forward or
/// backward depending on where it runs). Names as PyTorch writes them (Kineto 2020-2024 and the legacy
/// profiler, checked against the shared sample traces):
///   data loading  `enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__`, `enumerate(DataPipe)#…`
///   optimizer     `Optimizer.step#SGD.step`, `Optimizer.zero_grad#SGD.zero_grad` (user_annotation since
///                 2022, `Operator` before)
///   backward      `autograd::engine::evaluate_function: AddmmBackward0` (2022 on, on the autograd thread),
///                 bare `AddmmBackward`/`NllLossBackward` ops (2020-21, no evaluate_function wrapper)
///   forward       `nn.Module: Linear_0` scopes (with_modules)
///   any           `record_function` annotations naming their phase (`## forward ##`, `## backward ##`,
///                 `## optimizer ##` as in the 2024 NCCL and ns-resolution samples), case-insensitive.
/// In the samples the 2021 ResNet-50 trace runs its `*Backward` nodes on a second thread (tid 25772, the
/// steps on 25738); the 2022-2024 ones run `evaluate_function` there too. The research notes on the
/// PyTorch profiler (tensorboard-pytorch.md, "Steps") give the same step, DataLoader and optimizer names.
/// MindSpore's step trace (iteration interval, fp_and_bp, tail) cannot split forward from backward; the
/// Overview panel shows it as it is.
int stepPhaseOfSlice(EventKind kind, std::string_view name);

/// Where the time of one step went, by phase. Host time (`cpuNs`) splits the step's CPU range (its
/// `ProfilerStep#N` span) by the phase active on the host, a higher phase winning where two overlap
/// (optimizer > backward > data loading > forward), so it sums to cpuDuration() with Other taking the
/// rest. Device time (`gpuNs`) is the device busy time inside the step's analysed range (the StepBreakdown
/// range, stretched to the device work the step launched) by the phase of the host slice that launched it
/// (CPU-GPU correlation); Other holds device work whose launcher lies in no phase or is unknown. Device
/// phases never sum past duration(). The host range is not the analysed one: a GPU that lags the host
/// would otherwise push later steps' host work out of their own steps.
struct StepPhaseTimes
{
    int source = 0;
    std::int64_t number = 0;
    std::int64_t start = 0; ///< ns, as StepTimes::start (the analysed range)
    std::int64_t end = 0;
    std::int64_t cpuStart = 0; ///< the step marker on the CPU
    std::int64_t cpuEnd = 0;
    std::array<std::int64_t, kStepPhaseCount> cpuNs {};
    std::array<std::int64_t, kStepPhaseCount> gpuNs {};

    std::int64_t duration() const { return end - start; }
    std::int64_t cpuDuration() const { return cpuEnd - cpuStart; }
    std::int64_t cpu(StepPhase p) const { return cpuNs[std::size_t(p)]; }
    std::int64_t gpu(StepPhase p) const { return gpuNs[std::size_t(p)]; }
    /// Share of the host step time.
    double share(StepPhase p) const { return cpuDuration() > 0 ? double(cpu(p)) / double(cpuDuration()) : 0.0; }
    /// The time the phase holds the slower processor: its host time, or its device time where that is
    /// longer (a GPU step's backward is mostly device time, its forward often host time).
    std::int64_t busy(StepPhase p) const { return std::max(cpu(p), gpu(p)); }
    /// busy(Forward) over busy(Backward); 0 when the step has no backward.
    double forwardBackwardRatio() const
    {
        return busy(StepPhase::Backward) > 0 ? double(busy(StepPhase::Forward)) / double(busy(StepPhase::Backward))
                                             : 0.0;
    }
};

/// Phases of every step of a StepBreakdown: `steps[i]` belongs to `breakdown.steps[i]`, and `sources`
/// follows `breakdown.sources`.
struct StepPhases
{
    struct SourceSummary
    {
        int source = 0;
        std::size_t firstStep = 0;
        std::size_t stepCount = 0;
        bool hasPhases = false; ///< at least one slice named a phase (otherwise everything is Other)
        bool hasDevice = false; ///< device work was found inside the steps
        /// Mean over the steps (ns, rounded down); number = -1, cpuEnd = the sum of the host means.
        StepPhaseTimes average;
    };

    std::vector<StepPhaseTimes> steps;
    std::vector<SourceSummary> sources;

    const SourceSummary* summaryFor(int source) const;
    bool isEmpty() const { return steps.empty(); }
};

/// One pass over the slices of each source, O(n log n). Thread-safe on a const store; meant to run on a
/// worker next to computeStepBreakdown.
StepPhases computeStepPhases(const TraceStore& store, const StepBreakdown& breakdown);

} // namespace runlens::models::trace
