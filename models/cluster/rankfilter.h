#pragma once

#include <QString>

#include <utility>
#include <vector>

namespace runlens::models::cluster {

/// The rank table's filter text: comma- or space-separated terms, each a rank (`12`), a range of ranks
/// (`0-7`) or a percentile of the step time (`>p95`: ranks slower than 95 % of the ranks). A rank passes
/// when it is in any of the ranks and ranges named (or none is named) and above every percentile named.
struct RankFilter
{
    std::vector<std::pair<int, int>> ranges; ///< inclusive
    double abovePercentile = -1; ///< 0..100, -1 when none
    bool valid = true; ///< false when a term is not understood (the filter then keeps every rank)

    bool isEmpty() const { return ranges.empty() && abovePercentile < 0; }
    /// `value` is the rank's figure; `threshold` the percentile of every rank's figure (see percentileOf).
    bool accepts(int rank, double value, double threshold) const;
};

RankFilter parseRankFilter(const QString& text);

/// The `percent` percentile of `values` (NaNs skipped; linear between neighbours), NaN when none.
double percentileOf(std::vector<double> values, double percent);

} // namespace runlens::models::cluster
