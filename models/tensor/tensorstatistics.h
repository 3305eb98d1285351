#pragma once

#include "models/tensor/dtype.h"
#include "models/tensor/tensor.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace runlens::models::tensor {

/// Whole-range statistics of a tensor. NaN is left out of min/max/mean/std/meanAbs/l2 as numpy's nan*
/// functions do; infinities take part (a mean over +Inf is +Inf, a std over any Inf is NaN). With no
/// non-NaN element min/max/mean/std are NaN.
struct TensorStatistics
{
    std::int64_t count = 0; ///< all elements
    std::int64_t finite = 0; ///< neither NaN nor infinite
    std::int64_t nan = 0;
    std::int64_t posInf = 0;
    std::int64_t negInf = 0;
    std::int64_t zeros = 0;
    double min = 0;
    double max = 0;
    double mean = 0;
    double std = 0; ///< population standard deviation (numpy's ddof=0)
    double meanAbs = 0;
    double l2 = 0;
    /// Extremes of the finite elements only (min/max become infinite with any infinity); NaN when none is
    /// finite. Histograms of tensors with infinities take their range from these.
    double finiteMin = 0;
    double finiteMax = 0;
    bool cancelled = false; ///< the cancel callback stopped the computation; the other fields are not valid
};

struct StatisticsOptions
{
    int threads = 0; ///< 0: one per hardware thread
    /// Polled on the calling thread between chunks; returning true stops the computation.
    std::function<bool()> cancel;
    /// Called on the calling thread with the fraction done in [0, 1].
    std::function<void(double)> progress;
};

/// Statistics of `count` contiguous elements of `type` at `data`; `swap` when their byte order differs from
/// this machine's. Complex values count by their real part. Runs in parallel chunks merged with Chan's
/// formula, so the result does not depend on the thread count beyond rounding.
TensorStatistics computeStatistics(const std::byte* data, std::int64_t count, DType type, bool swap,
                                   const StatisticsOptions& options = {});

/// Counts per bin of `bins` equal bins over [min, max] (the last bin includes max, as numpy.histogram);
/// NaN and values outside the range are not counted. With `log` the bin edges are spaced geometrically
/// (numpy.geomspace) and need 0 < min < max; values <= 0 are not counted.
std::vector<std::int64_t> histogram(const std::byte* data, std::int64_t count, DType type, bool swap, int bins,
                                    double min, double max, bool log);

/// Statistics of the elements of a view in any layout: strided, reversed (negative strides), transposed or
/// broadcast (zero strides). Contiguous runs go to the fast path above as they are; scattered elements are
/// gathered into blocks first. Elements do not depend on their order here, so the result is the one of the
/// same values laid out contiguously, up to rounding. A view reaching outside its data (or without data)
/// counts every element as NaN.
TensorStatistics computeStatistics(const Tensor& view, const StatisticsOptions& options = {});

/// histogram() over the elements of a view in any layout, in parallel; an empty vector when cancelled.
std::vector<std::int64_t> histogram(const Tensor& view, int bins, double min, double max, bool log,
                                    const StatisticsOptions& options = {});

} // namespace runlens::models::tensor
