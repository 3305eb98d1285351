#pragma once

#include "models/core/diagnostic.h"
#include "models/profiler/profilerdata.h"

#include <QString>

namespace runlens::importers::profiler {

struct ProfilerRank;

/// Microseconds per tick of MindInsight's step_trace_raw files on Ascend (the system counter runs at 100 MHz).
constexpr double kAscendTickUs = 0.01;

/// Reads `step_trace_raw_{id}_detail_time.csv`: iteration interval, FP+BP and tail (inference: FP) per step as the
/// stack, the per-stream reduce durations as extras, and the file's average row (step "-"). The average row is
/// compared with the mean of the steps (first step left out, as MindSpore does); a mismatch beyond rounding is
/// reported as a warning.
models::profiler::StepSeries readStepTraceRaw(const QString& path, models::Diagnostics& diagnostics,
                                              double tickUs = kAscendTickUs);

/// Reads the 2.x `ASCEND_PROFILER_OUTPUT/step_trace_time.csv` (microseconds): computing, communication not
/// overlapped and free as the stack; overlapped, communication, stage, bubble, preparing as extras.
models::profiler::StepSeries readStepTraceTime(const QString& path, models::Diagnostics& diagnostics);

/// Adds the FP start and BP end op names of `step_trace_point_info*.json` to `steps`.
void readStepTracePoints(const QString& path, models::profiler::StepSeries& steps, models::Diagnostics& diagnostics);

/// The step series of a rank from whichever step files it has (2.x preferred).
models::profiler::StepSeries readRankSteps(const ProfilerRank& rank, models::Diagnostics& diagnostics);

} // namespace runlens::importers::profiler
