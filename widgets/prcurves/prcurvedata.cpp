#include "widgets/prcurves/prcurvedata.h"

#include <algorithm>
#include <cmath>

namespace runlens::prcurves {

bool isDefinedEntry(const summary::PrCurve& curve, int i)
{
    const double precision = entryValue(curve.precision, i);
    const double recall = entryValue(curve.recall, i);
    if (!std::isfinite(precision) || !std::isfinite(recall))
        return false;
    // Without both count rows (a writer that stores only the ratios) the ratios are all there is.
    if (curve.truePositives.size() <= std::size_t(i) || curve.falsePositives.size() <= std::size_t(i))
        return true;
    const double predictedPositive = curve.truePositives[std::size_t(i)] + curve.falsePositives[std::size_t(i)];
    return predictedPositive > 0.0;
}

std::vector<int> definedEntries(const summary::PrCurve& curve)
{
    std::vector<int> entries;
    const int n = curve.thresholdCount();
    entries.reserve(std::size_t(std::max(n, 0)));
    for (int i = 0; i < n; ++i) {
        if (isDefinedEntry(curve, i))
            entries.push_back(i);
    }
    return entries;
}

const summary::PrCurve* curveAtStep(const std::vector<summary::PrCurve>& items, qint64 step)
{
    const auto after = std::upper_bound(items.begin(), items.end(), step,
                                        [](qint64 s, const summary::PrCurve& c) { return s < c.step; });
    return after == items.begin() ? nullptr : &*std::prev(after);
}

QString formatCount(double value)
{
    if (!std::isfinite(value))
        return QString::number(value);
    if (value == std::round(value) && std::abs(value) < 1e15)
        return QString::number(qint64(value));
    return QString::number(value, 'g', 6);
}

QString formatRatio(double value)
{
    return QString::number(value, 'f', 4);
}

} // namespace runlens::prcurves
