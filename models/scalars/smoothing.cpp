#include "models/scalars/smoothing.h"

#include <algorithm>
#include <cmath>

namespace runlens::models::scalars {

std::vector<double> smoothDebiasedEma(std::span<const double> values, double weight)
{
    std::vector<double> out(values.begin(), values.end());
    if (values.empty())
        return out;

    const double w = std::isfinite(weight) ? std::clamp(weight, 0.0, 1.0) : 0.0;

    // Matches TensorBoard: an exactly constant series is shown as is (the debiased EMA would be equal anyway,
    // up to rounding that would otherwise make a flat line look noisy at high zoom).
    const double first = values.front();
    if (std::all_of(values.begin(), values.end(), [first](double v) { return v == first; }))
        return out;

    double last = 0.0;
    int n = 0;
    double wPowN = 1.0; // w^n, updated incrementally: cheaper than pow() and exact for w in {0, 1}
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double y = values[i];
        if (!std::isfinite(y))
            continue; // passed through unchanged, the average does not move
        last = last * w + (1.0 - w) * y;
        ++n;
        wPowN *= w;
        const double debias = (w == 1.0) ? 1.0 : 1.0 - wPowN;
        out[i] = last / debias;
    }
    return out;
}

} // namespace runlens::models::scalars
