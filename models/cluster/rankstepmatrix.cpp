#include "models/cluster/rankstepmatrix.h"

#include "models/cluster/stepunion.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace runlens::models::cluster {

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
    for (const RankFigures& r : cluster.ranks)
        m.ranks.push_back(r.rank);
    const StepColumns stepColumns(cluster.ranks, [](const RankStep&) { return true; });
    m.steps = stepColumns.steps();
    const std::size_t columns = m.steps.size();
    const std::size_t rows = m.ranks.size();
    m.values.assign(rows * columns, std::numeric_limits<float>::quiet_NaN());
    m.rankMeans.assign(rows, kMissing);
    const auto columnOf = [&stepColumns](std::int64_t step) { return stepColumns.columnOf(step); };
    double low = std::numeric_limits<double>::max();
    double high = std::numeric_limits<double>::lowest();
    for (std::size_t row = 0; row < rows; ++row) {
        double sum = 0;
        int count = 0;
        for (const RankStep& s : cluster.ranks[row].steps) {
            const double v = figureOf(s, metric);
            if (!isKnown(v))
                continue;
            float& cell = m.values[row * columns + columnOf(s.step)];
            if (!std::isnan(cell))
                continue; // a step twice in one rank: the first counts
            cell = float(v);
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
    // The medians want each column contiguous. Gathered a block of columns at a time, so that every row is
    // read in one short run: a column at a time (or a scatter into a transposed copy) strides a whole row
    // per value, and a thousand ranks then cost more than the rest of the matrix.
    m.stepMedians.assign(columns, std::numeric_limits<float>::quiet_NaN());
    constexpr std::size_t kBlock = 64;
    std::vector<float> gathered(kBlock * rows);
    std::size_t filled[kBlock];
    for (std::size_t c0 = 0; c0 < columns; c0 += kBlock) {
        const std::size_t width = std::min(kBlock, columns - c0);
        std::fill(filled, filled + width, 0);
        for (std::size_t row = 0; row < rows; ++row) {
            const float* cells = m.values.data() + row * columns + c0;
            for (std::size_t k = 0; k < width; ++k) {
                if (!std::isnan(cells[k]))
                    gathered[k * rows + filled[k]++] = cells[k];
            }
        }
        for (std::size_t k = 0; k < width; ++k) {
            if (filled[k] == 0)
                continue;
            const auto first = gathered.begin() + std::ptrdiff_t(k * rows);
            const auto end = first + std::ptrdiff_t(filled[k]);
            const std::size_t mid = filled[k] / 2;
            std::nth_element(first, first + std::ptrdiff_t(mid), end);
            float median = first[std::ptrdiff_t(mid)];
            if (filled[k] % 2 == 0)
                median = (median + *std::max_element(first, first + std::ptrdiff_t(mid))) / 2;
            m.stepMedians[c0 + k] = median;
        }
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

} // namespace runlens::models::cluster
