#pragma once

#include "models/tensor/tensor.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

namespace runlens::models::tensor {

enum class CompareMode {
    Difference, ///< a - b
    AbsoluteDifference, ///< |a - b|
    RelativeDifference, ///< |a - b| / max(|a|, |b|), 0 when both are 0
};

/// One element of the comparison; `index` in the shape of the compared tensors.
struct CompareEntry
{
    std::vector<std::int64_t> index;
    double a = 0;
    double b = 0;
    double diff = 0; ///< in the requested mode
};

/// Element-wise comparison of two tensors of the same shape.
///
/// NaN handling: where exactly one side is NaN the element counts in `nanMismatch` and `differing`, its
/// diff is NaN and it is left out of maxAbs/meanAbs/rmse and of `largest`. Where both are NaN the elements
/// agree (diff 0). Equal infinities agree (diff 0); other pairs with an infinity give an infinite diff
/// (NaN for the relative mode's Inf/Inf, which then counts as differing but not in the statistics).
struct CompareResult
{
    Tensor difference; ///< float64 in memory, C order, the shape of the inputs; the diff of every element
    double maxAbs = 0; ///< largest |diff| over elements whose diff is not NaN
    double meanAbs = 0; ///< mean |diff| over the same elements
    double rmse = 0; ///< sqrt(mean diff^2) over the same elements
    std::int64_t differing = 0; ///< elements whose values are not equal (NaN vs number included)
    std::int64_t nanMismatch = 0; ///< elements NaN on exactly one side
    std::vector<CompareEntry> largest; ///< up to topK elements by |diff|, largest first, ties in C order
    QString error; ///< why nothing was compared (shape mismatch, cancelled); empty on success
    bool ok() const { return error.isEmpty(); }
};

/// Whether every element of `view` lies inside its data (false without data), so that a loop over the view
/// can read without checking each element.
bool viewInsideData(const Tensor& view);

/// Walks two tensors of the same shape together in C order, handing `visit` runs of up to 65,536 elements of
/// each as doubles (`first` is the C-order index of the run's first element), without holding more than one
/// run in memory. `cancelled` is polled between runs; returns false when it stopped the walk. The caller
/// checks shapes and viewInsideData() first.
bool forEachElementRun(
    const Tensor& a, const Tensor& b,
    const std::function<void(const double* a, const double* b, std::int64_t n, std::int64_t first)>& visit,
    const std::function<bool()>& cancelled = {});

/// Compares `a` and `b` element by element in C order. `cancelled` is polled between chunks; when it
/// returns true the result carries an error and no difference tensor.
CompareResult compareTensors(const Tensor& a, const Tensor& b, CompareMode mode, int topK = 20,
                             const std::function<bool()>& cancelled = {});

} // namespace runlens::models::tensor
