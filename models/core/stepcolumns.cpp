#include "models/core/stepcolumns.h"

#include <algorithm>
#include <cmath>

namespace runlens::models {

std::size_t stepsPerColumn(double visibleSteps, double pixels)
{
    if (!(pixels >= 1.0) || !(visibleSteps > pixels) || !std::isfinite(visibleSteps))
        return 1;
    return std::size_t(std::ceil(visibleSteps / pixels));
}

void aggregateStepColumns(std::span<const double> values, std::size_t categories, std::size_t first, std::size_t last,
                          std::size_t stepsPerColumn, StepColumns& out)
{
    out.categories = categories;
    out.stepsPerColumn = std::max<std::size_t>(1, stepsPerColumn);
    out.columns.clear();
    out.means.clear();
    const std::size_t steps = categories ? values.size() / categories : 0;
    last = std::min(last, steps);
    if (first >= last)
        return;
    const std::size_t k = out.stepsPerColumn;
    const std::size_t begin = first / k * k;
    const std::size_t end = std::min(steps, (last + k - 1) / k * k);
    out.columns.reserve((end - begin + k - 1) / k);
    out.means.reserve(out.columns.capacity() * categories);
    for (std::size_t start = begin; start < end; start += k) {
        StepColumn column;
        column.first = start;
        column.count = std::min(k, end - start);
        column.slowest = start;
        const std::size_t row = out.means.size();
        out.means.resize(row + categories, 0.0);
        double sumTotal = 0.0;
        for (std::size_t s = start; s < start + column.count; ++s) {
            double total = 0.0;
            for (std::size_t c = 0; c < categories; ++c) {
                const double v = values[s * categories + c];
                if (std::isfinite(v) && v > 0.0) {
                    out.means[row + c] += v;
                    total += v;
                }
            }
            sumTotal += total;
            if (s == start || total > column.slowestTotal) {
                column.slowest = s;
                column.slowestTotal = total;
            }
        }
        for (std::size_t c = 0; c < categories; ++c)
            out.means[row + c] /= double(column.count);
        column.meanTotal = sumTotal / double(column.count);
        out.columns.push_back(column);
    }
}

} // namespace runlens::models
