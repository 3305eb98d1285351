#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace runlens::models {

/// Consecutive steps drawn as one stacked bar of a step chart.
struct StepColumn
{
    std::size_t first = 0; ///< index of the first step
    std::size_t count = 0; ///< steps in the column (the last column of a chart may hold fewer)
    std::size_t slowest = 0; ///< index of the step with the largest total (the straggler)
    double slowestTotal = 0.0;
    double meanTotal = 0.0; ///< the mean step total, the height of the stacked bar
};

/// The columns of a stacked step chart with more steps than pixel columns.
struct StepColumns
{
    std::size_t categories = 0;
    std::size_t stepsPerColumn = 1;
    std::vector<StepColumn> columns;
    /// Per column, per category (row-major): the mean over the column's steps, so the stacked categories of a
    /// column add up to its mean step total.
    std::vector<double> means;

    double mean(std::size_t column, std::size_t category) const { return means[column * categories + category]; }
};

/// Steps per column so that `visibleSteps` steps across `pixels` pixel columns draw at most one bar per pixel
/// column; 1 (every step its own bar) when they fit or the width is not known yet.
std::size_t stepsPerColumn(double visibleSteps, double pixels);

/// Groups the steps [first, last) of `values` (steps × `categories`, row-major) into columns of `stepsPerColumn`
/// steps. Columns start at multiples of stepsPerColumn counted from step 0, so panning never regroups the steps
/// and the picture stays still; a range that starts or ends inside a column takes the whole column (clipped to
/// the steps there are). A non-finite or negative time counts as 0, as the chart draws it. `out` is cleared and
/// refilled, keeping its capacity, so re-aggregating for every zoom step does not allocate.
void aggregateStepColumns(std::span<const double> values, std::size_t categories, std::size_t first, std::size_t last,
                          std::size_t stepsPerColumn, StepColumns& out);

} // namespace runlens::models
