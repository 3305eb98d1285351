#pragma once

#include "models/memory/memoryprofile.h"

#include <cstdint>
#include <vector>

namespace runlens::models::memory {

/// Most points a curve is drawn with (about one bucket of four per pixel column of a wide screen).
constexpr int kMaxCurvePoints = 4096;

/// The samples of a step curve worth drawing over [x0, x1] with at most `maxPoints` points: the range is
/// cut into (maxPoints - 1) / 4 equal buckets and each keeps its first, lowest, highest and last sample
/// (in x order, without repeats), so every local peak and trough survives and the step shape holds; the
/// sample before x0 is kept too, so the curve starts at its value at x0. Returns ascending indices into
/// `series`. Curves that already fit are returned whole (within the range).
std::vector<std::size_t> downsampleIndices(const MemorySeries& series, std::int64_t x0, std::int64_t x1,
                                           int maxPoints = kMaxCurvePoints);
/// The same as a series (same name) ready for a chart.
MemorySeries downsample(const MemorySeries& series, std::int64_t x0, std::int64_t x1, int maxPoints = kMaxCurvePoints);

} // namespace runlens::models::memory
