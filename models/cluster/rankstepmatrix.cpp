#include "models/cluster/rankstepmatrix.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace runlens::cluster {

namespace {

double figureOf(const RankStep& step, StepMetric metric)
{
    if (metric == StepMetric::StepTime)
        return step.stepTime;
    // Either part alone is still a wait; both unknown is unknown.
    if (!isKnown(step.communication) && !isKnown(step.idle))
        return kMissing;
    return (isKnown(step.communication) ? step.communication : 0.0) + (isKnown(step.idle) ? step.idle : 0.0);
}

} // namespace

int RankStepMatrix::rowOfRank(int rank) const
{
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), rank);
    if (it != ranks.end() && *it == rank)
        return int(it - ranks.begin());
    // Ranks are sorted by the cluster; a hand-made matrix may not be.
    const auto found = std::find(ranks.begin(), ranks.end(), rank);
    return found == ranks.end() ? -1 : int(found - ranks.begin());
}

std::vector<int> RankStepMatrix::rowOrder(bool byMean) const
{
    std::vector<int> order(ranks.size());
    std::iota(order.begin(), order.end(), 0);
    if (byMean) {
        std::stable_sort(order.begin(), order.end(), [this](int a, int b) {
            const double ma = rankMeans[std::size_t(a)];
            const double mb = rankMeans[std::size_t(b)];
            if (isKnown(ma) != isKnown(mb))
                return isKnown(ma);
            return isKnown(ma) && ma > mb;
        });
    }
    return order;
}

RankStepMatrix buildRankStepMatrix(const Cluster& cluster, StepMetric metric)
{
    RankStepMatrix m;
    m.metric = metric;
    std::vector<std::int64_t> steps;
    for (const RankFigures& r : cluster.ranks) {
        m.ranks.push_back(r.rank);
        for (const RankStep& s : r.steps)
            steps.push_back(s.step);
    }
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    m.steps = std::move(steps);
    const std::size_t columns = m.steps.size();
    m.values.assign(m.ranks.size() * columns, std::numeric_limits<float>::quiet_NaN());
    m.rankMeans.assign(m.ranks.size(), kMissing);
    double low = std::numeric_limits<double>::max();
    double high = std::numeric_limits<double>::lowest();
    for (std::size_t row = 0; row < cluster.ranks.size(); ++row) {
        double sum = 0;
        int count = 0;
        for (const RankStep& s : cluster.ranks[row].steps) {
            const double v = figureOf(s, metric);
            if (!isKnown(v))
                continue;
            const auto column = std::size_t(std::lower_bound(m.steps.begin(), m.steps.end(), s.step) - m.steps.begin());
            m.values[row * columns + column] = float(v);
            sum += v;
            ++count;
            low = std::min(low, v);
            high = std::max(high, v);
        }
        if (count > 0)
            m.rankMeans[row] = sum / count;
    }
    if (low <= high) {
        m.low = low;
        m.high = high;
    }
    m.stepMedians.assign(columns, std::numeric_limits<float>::quiet_NaN());
    std::vector<float> column;
    column.reserve(m.ranks.size());
    for (std::size_t c = 0; c < columns; ++c) {
        column.clear();
        for (std::size_t row = 0; row < m.ranks.size(); ++row) {
            const float v = m.values[row * columns + c];
            if (std::isfinite(v))
                column.push_back(v);
        }
        if (column.empty())
            continue;
        const std::size_t mid = column.size() / 2;
        std::nth_element(column.begin(), column.begin() + std::ptrdiff_t(mid), column.end());
        float median = column[mid];
        if (column.size() % 2 == 0)
            median = (median + *std::max_element(column.begin(), column.begin() + std::ptrdiff_t(mid))) / 2;
        m.stepMedians[c] = median;
    }
    return m;
}

SlowestRanks slowestRankPerStep(const RankStepMatrix& matrix)
{
    SlowestRanks out;
    std::map<int, SlowestRankCount> counts;
    for (int c = 0; c < matrix.columnCount(); ++c) {
        int best = -1;
        float bestValue = 0;
        for (int row = 0; row < matrix.rowCount(); ++row) {
            const float v = matrix.value(row, c);
            if (!std::isfinite(v))
                continue;
            if (best < 0 || v > bestValue
                || (v == bestValue && matrix.ranks[std::size_t(row)] < matrix.ranks[std::size_t(best)])) {
                best = row;
                bestValue = v;
            }
        }
        if (best < 0)
            continue;
        SlowestRankStep s;
        s.step = matrix.steps[std::size_t(c)];
        s.rank = matrix.ranks[std::size_t(best)];
        s.value = bestValue;
        s.median = matrix.stepMedians[std::size_t(c)];
        out.steps.push_back(s);
        SlowestRankCount& count = counts[s.rank];
        count.rank = s.rank;
        ++count.steps;
        if (isKnown(s.median))
            count.excess += s.value - s.median;
    }
    for (const auto& [rank, count] : counts)
        out.counts.push_back(count);
    std::stable_sort(out.counts.begin(), out.counts.end(),
                     [](const SlowestRankCount& a, const SlowestRankCount& b) { return a.steps > b.steps; });
    return out;
}

} // namespace runlens::cluster
