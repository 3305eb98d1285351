#include "models/cluster/rankfilter.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

namespace runlens::models::cluster {

bool RankFilter::accepts(int rank, double value, double threshold) const
{
    if (!valid)
        return true;
    if (!ranges.empty() && std::none_of(ranges.begin(), ranges.end(), [rank](const std::pair<int, int>& r) {
            return rank >= r.first && rank <= r.second;
        }))
        return false;
    if (abovePercentile >= 0 && !(std::isfinite(value) && std::isfinite(threshold) && value > threshold))
        return false;
    return true;
}

RankFilter parseRankFilter(const QString& text)
{
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    static const QRegularExpression range(QStringLiteral("^(\\d+)(?:\\s*-\\s*(\\d+))?$"));
    static const QRegularExpression percentile(QStringLiteral("^>\\s*p(\\d+(?:\\.\\d+)?)$"),
                                               QRegularExpression::CaseInsensitiveOption);
    RankFilter filter;
    // "0 - 7" is one range: spaces around a dash belong to it.
    QString normalised = text.trimmed();
    normalised.replace(QRegularExpression(QStringLiteral("\\s*-\\s*")), QStringLiteral("-"));
    normalised.replace(QRegularExpression(QStringLiteral(">\\s*")), QStringLiteral(">"));
    for (const QString& term : normalised.split(separators, Qt::SkipEmptyParts)) {
        if (const auto m = range.match(term); m.hasMatch()) {
            bool okA = false;
            bool okB = true;
            const int a = m.captured(1).toInt(&okA);
            const int b = m.captured(2).isEmpty() ? a : m.captured(2).toInt(&okB);
            if (!okA || !okB) {
                filter.valid = false;
                continue;
            }
            filter.ranges.emplace_back(std::min(a, b), std::max(a, b));
        } else if (const auto p = percentile.match(term); p.hasMatch() && p.captured(1).toDouble() <= 100) {
            filter.abovePercentile = std::max(filter.abovePercentile, p.captured(1).toDouble());
        } else {
            filter.valid = false;
        }
    }
    return filter;
}

double percentileOf(std::vector<double> values, double percent)
{
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
                 values.end());
    if (values.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(values.begin(), values.end());
    const double position = std::clamp(percent, 0.0, 100.0) / 100.0 * double(values.size() - 1);
    const auto below = std::size_t(std::floor(position));
    const std::size_t above = std::min(values.size() - 1, below + 1);
    return values[below] + (values[above] - values[below]) * (position - double(below));
}

} // namespace runlens::models::cluster
