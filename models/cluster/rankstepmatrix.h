#pragma once

#include "models/cluster/cluster.h"

#include <cstdint>
#include <vector>

namespace runlens::models::cluster {

/// Which per-step figure a rank × step matrix holds.
enum class StepMetric : std::uint8_t {
    StepTime, ///< the whole step
    WaitTime, ///< communication not overlapped by computation + device idle: time the rank waited
};

/// One figure per (rank, step) of a cluster, the values behind the rank × step heatmap. Rows are the
/// cluster's ranks in its order (by rank), columns the union of their step numbers ascending; a rank
/// without a step (or without the figure) has NaN there. Floats: a thousand ranks by a thousand steps
/// is 4 MB. Per column the median over ranks, per row the mean over steps, so a cell can be told
/// against its step and a row sorted by its mean. A value type, built once on a worker.
struct RankStepMatrix
{
    StepMetric metric = StepMetric::StepTime;
    std::vector<int> ranks; ///< row -> rank number
    std::vector<std::int64_t> steps; ///< column -> step number
    std::vector<float> values; ///< rows × columns, row-major, ms; NaN where unknown
    std::vector<float> stepMedians; ///< per column, NaN where no rank has the step
    std::vector<double> rankMeans; ///< per row, NaN where the rank has no value
    double low = 0; ///< smallest known value (0 when none)
    double high = 0; ///< largest known value (0 when none)

    int rowCount() const { return int(ranks.size()); }
    int columnCount() const { return int(steps.size()); }
    bool isEmpty() const { return ranks.empty() || steps.empty(); }
    float value(int row, int column) const { return values[std::size_t(row) * steps.size() + std::size_t(column)]; }
    /// Row of rank `rank`, or -1.
    int rowOfRank(int rank) const;
    /// Rows by rank (identity) or by mean descending (the slowest on top; ranks without values last).
    std::vector<int> rowOrder(bool byMean) const;
};

/// The matrix of `metric` over the ranks of `cluster` (RankFigures::steps).
RankStepMatrix buildRankStepMatrix(const Cluster& cluster, StepMetric metric);

/// The slowest rank of one step: the largest value of the step's column.
struct SlowestRankStep
{
    std::int64_t step = 0;
    int rank = -1;
    double value = kMissing; ///< ms
    double median = kMissing; ///< ms, of the step over all ranks
};

/// How often one rank was the slowest of a step.
struct SlowestRankCount
{
    int rank = -1;
    int steps = 0;
    double excess = 0; ///< ms over the step's median, summed over those steps
};

struct SlowestRanks
{
    std::vector<SlowestRankStep> steps; ///< one per column that has a value, ascending step
    std::vector<SlowestRankCount> counts; ///< ranks that were slowest at least once, most often first
};

/// The slowest rank of each step of `matrix` (ties go to the lower rank) and how often each was it.
SlowestRanks slowestRankPerStep(const RankStepMatrix& matrix);

} // namespace runlens::models::cluster
