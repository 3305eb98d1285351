#include "scalarseries.h"

#include <algorithm>

namespace runlens {

void ScalarSeries::append(const ScalarPoint& point)
{
    if (!points.empty() && point.step < points.back().step) {
        // Steps are non-decreasing in what we keep, so the points to drop form a suffix.
        const auto firstDropped = std::lower_bound(points.begin(), points.end(), point.step,
                                                   [](const ScalarPoint& p, qint64 step) { return p.step < step; });
        preempted += std::distance(firstDropped, points.end());
        points.erase(firstDropped, points.end());
    }
    points.push_back(point);
}

} // namespace runlens
