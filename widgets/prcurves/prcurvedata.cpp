#include "widgets/prcurves/prcurvedata.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace runlens::widgets::prcurves {

bool isDefinedEntry(const models::summary::PrCurve& curve, int i)
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

std::vector<int> definedEntries(const models::summary::PrCurve& curve)
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

bool isRocEntry(const models::summary::PrCurve& curve, int i)
{
    if (i < 0)
        return false;
    const auto at = std::size_t(i);
    if (curve.truePositives.size() <= at || curve.falsePositives.size() <= at || curve.trueNegatives.size() <= at
        || curve.falseNegatives.size() <= at)
        return false;
    const double tp = curve.truePositives[at];
    const double fp = curve.falsePositives[at];
    const double tn = curve.trueNegatives[at];
    const double fn = curve.falseNegatives[at];
    if (!std::isfinite(tp) || !std::isfinite(fp) || !std::isfinite(tn) || !std::isfinite(fn))
        return false;
    return tp + fn > 0.0 && fp + tn > 0.0;
}

std::vector<int> rocEntries(const models::summary::PrCurve& curve)
{
    std::vector<int> entries;
    const int n = int(curve.truePositives.size());
    entries.reserve(std::size_t(n));
    for (int i = 0; i < n; ++i) {
        if (isRocEntry(curve, i))
            entries.push_back(i);
    }
    return entries;
}

double truePositiveRate(const models::summary::PrCurve& curve, int i)
{
    if (!isRocEntry(curve, i))
        return models::summary::Histogram::kUnknown;
    const double tp = curve.truePositives[std::size_t(i)];
    return tp / (tp + curve.falseNegatives[std::size_t(i)]);
}

double falsePositiveRate(const models::summary::PrCurve& curve, int i)
{
    if (!isRocEntry(curve, i))
        return models::summary::Histogram::kUnknown;
    const double fp = curve.falsePositives[std::size_t(i)];
    return fp / (fp + curve.trueNegatives[std::size_t(i)]);
}

double rocAuc(const models::summary::PrCurve& curve)
{
    const std::vector<int> entries = rocEntries(curve);
    if (entries.empty())
        return models::summary::Histogram::kUnknown;
    std::vector<std::pair<double, double>> points; // (FPR, TPR)
    points.reserve(entries.size() + 2);
    points.emplace_back(0.0, 0.0);
    for (int i : entries)
        points.emplace_back(falsePositiveRate(curve, i), truePositiveRate(curve, i));
    points.emplace_back(1.0, 1.0);
    std::sort(points.begin(), points.end());
    double area = 0.0;
    for (std::size_t k = 1; k < points.size(); ++k)
        area += (points[k].first - points[k - 1].first) * (points[k].second + points[k - 1].second) / 2.0;
    return area;
}

const models::summary::PrCurve* curveAtStep(const std::vector<models::summary::PrCurve>& items, qint64 step)
{
    const auto after = std::upper_bound(items.begin(), items.end(), step,
                                        [](qint64 s, const models::summary::PrCurve& c) { return s < c.step; });
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

} // namespace runlens::widgets::prcurves
