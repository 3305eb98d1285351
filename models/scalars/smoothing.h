#pragma once

#include <span>
#include <vector>

namespace runlens::models::scalars {

/// TensorBoard's "classic" smoothing: a debiased exponential moving average in step order.
/// `weight` is clamped to [0, 1] (non-finite counts as 0). A series whose values all equal the first
/// value is returned unchanged. Non-finite values are passed through and do not advance the average.
std::vector<double> smoothDebiasedEma(std::span<const double> values, double weight);

} // namespace runlens::models::scalars
