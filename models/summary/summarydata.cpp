#include "models/summary/summarydata.h"

#include <algorithm>

namespace runlens::models::summary {

double Histogram::bucketTotal() const
{
    double total = 0.0;
    for (const HistogramBucket& bucket : buckets)
        total += bucket.count;
    return total;
}

double Histogram::percentile(double fraction) const
{
    const double total = bucketTotal();
    if (!(total > 0.0))
        return kUnknown;
    const double target = std::clamp(fraction, 0.0, 1.0) * total;
    double below = 0.0;
    for (const HistogramBucket& bucket : buckets) {
        if (bucket.count <= 0.0)
            continue;
        if (below + bucket.count >= target) {
            const double within = (target - below) / bucket.count;
            return bucket.left + (bucket.right - bucket.left) * std::clamp(within, 0.0, 1.0);
        }
        below += bucket.count;
    }
    return highestEdge();
}

double Histogram::lowestEdge() const
{
    for (const HistogramBucket& bucket : buckets) {
        if (bucket.count > 0.0)
            return bucket.left;
    }
    return kUnknown;
}

double Histogram::highestEdge() const
{
    for (auto it = buckets.rbegin(); it != buckets.rend(); ++it) {
        if (it->count > 0.0)
            return it->right;
    }
    return kUnknown;
}

} // namespace runlens::models::summary
