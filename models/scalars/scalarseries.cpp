#include "models/scalars/scalarseries.h"

#include "models/summary/reservoir.h"

#include <algorithm>
#include <cmath>

namespace runlens::models::scalars {

void ScalarSeries::append(const ScalarPoint& point)
{
    if (!points.empty() && point.step < points.back().step) {
        // Steps are non-decreasing in what we keep, so the points to drop form a suffix.
        const auto firstDropped = std::lower_bound(points.begin(), points.end(), point.step,
                                                   [](const ScalarPoint& p, qint64 step) { return p.step < step; });
        const std::size_t before = points.size();
        preempted += std::distance(firstDropped, points.end());
        points.erase(firstDropped, points.end());
        seen = qint64(std::llround(double(seen) * double(points.size()) / double(before)));
    }
    summary::sampleInto(points, capacity, ++seen, sampling, point);
}

} // namespace runlens::models::scalars
