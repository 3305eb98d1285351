#pragma once

#include "models/advisor/analysis.h"

namespace runlens::models::advisor {

/// PyTorch anti-patterns read from the op tree of a trace's CPU threads (the patterns PyTorch's own
/// profiler pattern matcher knows): zero_grad without set_to_none, single-tensor optimizers, loading
/// data in the training process, Conv with bias before BatchNorm, fp16/bf16 matrix products with
/// dimensions that are not multiples of 8, and tensors filled on the CPU and then copied. One
/// measurement per pattern and rank: the number of occurrences, with the first one as evidence.
void analyseTracePatterns(const TraceInput& input, AnalysisContext& context);
/// Marks every pattern metric as missing (no trace at all).
void markTracePatternsMissing(const QString& reason, AnalysisContext& context);

} // namespace runlens::models::advisor
