#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace runlens::models::scalars {

/// Chooses the indices of points to draw so that a line through them looks like the line through all
/// points at a width of `buckets` columns: for each column of the x range [xMin, xMax] the first, last,
/// minimum and maximum points are kept (in x order), plus the points just outside the range so the
/// line enters and leaves the view correctly. Non-finite y values are always kept. `x` must be sorted
/// ascending. Returns all indices when there are fewer than 4 * buckets points in range.
std::vector<std::size_t> downsampleMinMax(std::span<const double> x, std::span<const double> y, double xMin,
                                          double xMax, int buckets);

} // namespace runlens::models::scalars
