#include "models/memory/memorydownsample.h"

#include <algorithm>

namespace runlens::models::memory {

std::vector<std::size_t> downsampleIndices(const MemorySeries& series, std::int64_t x0, std::int64_t x1, int maxPoints)
{
    std::vector<std::size_t> out;
    const std::size_t n = std::min(series.x.size(), series.bytes.size());
    if (n == 0 || x1 < x0)
        return out;
    const auto xBegin = series.x.begin();
    const auto xEnd = series.x.begin() + std::ptrdiff_t(n);
    std::size_t first = std::size_t(std::lower_bound(xBegin, xEnd, x0) - xBegin);
    const std::size_t last = std::size_t(std::upper_bound(xBegin, xEnd, x1) - xBegin); // exclusive
    // The sample in force at x0 starts the curve, so the step before the first visible change holds.
    if (first > 0 && (first == n || series.x[first] > x0))
        out.push_back(first - 1);
    if (first >= last)
        return out;

    const int buckets = std::max(1, (std::max(maxPoints, 5) - 1) / 4);
    if (last - first <= std::size_t(buckets) * 4) {
        for (std::size_t i = first; i < last; ++i)
            out.push_back(i);
        return out;
    }
    out.reserve(out.size() + std::size_t(buckets) * 4);
    // Bucket b covers [x0 + b * width, x0 + (b + 1) * width); computed in double to survive int64 spans.
    const double span = double(x1) - double(x0) + 1.0;
    const double width = span / buckets;
    std::size_t i = first;
    while (i < last) {
        const int bucket = std::min(buckets - 1, int((double(series.x[i]) - double(x0)) / width));
        const double bucketEnd = double(x0) + (bucket + 1) * width;
        std::size_t lo = i;
        std::size_t hi = i;
        std::size_t j = i + 1;
        for (; j < last && (bucket == buckets - 1 || double(series.x[j]) < bucketEnd); ++j) {
            if (series.bytes[j] < series.bytes[lo])
                lo = j;
            if (series.bytes[j] > series.bytes[hi])
                hi = j;
        }
        const std::size_t end = j - 1;
        std::size_t picks[4] = { i, std::min(lo, hi), std::max(lo, hi), end };
        for (std::size_t pick : picks) {
            if (out.empty() || out.back() < pick)
                out.push_back(pick);
        }
        i = j;
    }
    return out;
}

MemorySeries downsample(const MemorySeries& series, std::int64_t x0, std::int64_t x1, int maxPoints)
{
    MemorySeries out;
    out.name = series.name;
    const std::vector<std::size_t> indices = downsampleIndices(series, x0, x1, maxPoints);
    out.x.reserve(indices.size());
    out.bytes.reserve(indices.size());
    for (std::size_t i : indices) {
        out.x.push_back(series.x[i]);
        out.bytes.push_back(series.bytes[i]);
    }
    return out;
}

} // namespace runlens::models::memory
