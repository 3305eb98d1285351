#include "widgets/distributions/distributiondata.h"

#include "widgets/common/chartpalette.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace runlens::widgets::distributions {

namespace {

constexpr int kMaxTooltipRows = 24; // buckets are merged in groups beyond this, so the tooltip fits a screen
constexpr int kBarChars = 24;

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::distributions)
};

QString number(double v)
{
    return scalars::scalarformat::value(v);
}

} // namespace

double DistributionSeries::key(std::size_t i, scalars::XAxisMode mode) const
{
    const models::summary::Histogram& h = histograms[i];
    switch (mode) {
    case scalars::XAxisMode::Step:
        return double(h.step);
    case scalars::XAxisMode::RelativeTime:
        return std::isfinite(h.wallTime) ? h.wallTime - firstWallTime : 0.0;
    case scalars::XAxisMode::WallTime:
        return std::isfinite(h.wallTime) ? h.wallTime : firstWallTime;
    }
    return double(h.step);
}

std::ptrdiff_t DistributionSeries::nearest(double wanted, scalars::XAxisMode mode) const
{
    // Linear: a few hundred kept steps per series, and wall times need not be sorted.
    std::ptrdiff_t best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < size(); ++i) {
        const double d = std::abs(key(i, mode) - wanted);
        if (d <= bestDistance) {
            bestDistance = d;
            best = std::ptrdiff_t(i);
        }
    }
    return best;
}

std::vector<std::size_t> DistributionSeries::nonFiniteIndices() const
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < size(); ++i) {
        const models::summary::Histogram& h = histograms[i];
        if (h.nanCount > 0 || h.posInfCount > 0 || h.negInfCount > 0)
            out.push_back(i);
    }
    return out;
}

DistributionSeries prepareSeries(const QString& run, const models::summary::HistogramSeries& series)
{
    DistributionSeries out;
    out.run = run;
    out.tag = series.tag;
    out.seen = series.seen;
    out.histograms = series.items;
    out.percentiles.resize(out.histograms.size());
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    bool haveWallTime = false;
    for (std::size_t i = 0; i < out.histograms.size(); ++i) {
        const models::summary::Histogram& h = out.histograms[i];
        for (std::size_t p = 0; p < kBasisPoints.size(); ++p)
            out.percentiles[i][p] = h.percentile(kBasisPoints[p]);
        const double left = h.lowestEdge();
        const double right = h.highestEdge();
        if (std::isfinite(left))
            lo = std::min(lo, left);
        if (std::isfinite(right))
            hi = std::max(hi, right);
        if (!haveWallTime && std::isfinite(h.wallTime)) {
            out.firstWallTime = h.wallTime;
            haveWallTime = true;
        }
    }
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
        lo = 0.0;
        hi = 1.0;
    } else if (hi <= lo) {
        // All values equal: give the one spike some room either side.
        const double pad = std::max(0.5, std::abs(lo) * 0.1);
        lo -= pad;
        hi += pad;
    }
    out.lowestEdge = lo;
    out.highestEdge = hi;
    return out;
}

std::vector<double> rebin(const models::summary::Histogram& histogram, double lo, double hi, int bins)
{
    std::vector<double> out(std::size_t(std::max(bins, 0)), 0.0);
    if (bins <= 0 || !(hi > lo))
        return out;
    const double width = (hi - lo) / bins;
    auto binOf = [&](double v) { return std::clamp(int(std::floor((v - lo) / width)), 0, bins - 1); };
    for (const models::summary::HistogramBucket& b : histogram.buckets) {
        if (!(b.count > 0.0) || !std::isfinite(b.left) || !std::isfinite(b.right))
            continue;
        const double left = std::max(b.left, lo);
        const double right = std::min(b.right, hi);
        if (b.right <= b.left || right <= left) {
            out[std::size_t(binOf(std::clamp(b.left, lo, hi)))] += b.count;
            continue;
        }
        // Share of the bucket in each bin it overlaps; a bucket partly outside [lo, hi] keeps its whole count.
        const double span = right - left;
        for (int bin = binOf(left); bin < bins; ++bin) {
            const double binLeft = lo + bin * width;
            const double binRight = binLeft + width;
            if (binLeft >= right)
                break;
            const double overlap = std::min(binRight, right) - std::max(binLeft, left);
            if (overlap > 0.0)
                out[std::size_t(bin)] += b.count * overlap / span;
        }
    }
    return out;
}

QString basisPointLabel(std::size_t index)
{
    if (index >= kBasisPoints.size())
        return {};
    return QString::number(kBasisPoints[index] * 100.0, 'g', 4) + QLatin1Char('%');
}

QString nonFiniteNote(const DistributionSeries& series, int maxSteps)
{
    const std::vector<std::size_t> indices = series.nonFiniteIndices();
    if (indices.empty())
        return {};
    struct Kind
    {
        const char* label;
        qint64 models::summary::Histogram::*count;
    };
    static constexpr Kind kKinds[] = { { "NaN", &models::summary::Histogram::nanCount },
                                       { "+Inf", &models::summary::Histogram::posInfCount },
                                       { "\u2212Inf", &models::summary::Histogram::negInfCount } };
    QStringList parts;
    for (const Kind& kind : kKinds) {
        QStringList steps;
        int total = 0;
        for (std::size_t i : indices) {
            const models::summary::Histogram& h = series.histograms[i];
            if (h.*kind.count <= 0)
                continue;
            if (total++ < maxSteps)
                steps << QString::number(h.step);
        }
        if (total == 0)
            continue;
        QString list = steps.join(QStringLiteral(", "));
        if (total > maxSteps)
            list += Text::tr(" … (%1 steps)").arg(total);
        parts << (total == 1 ? Text::tr("%1 at step %2") : Text::tr("%1 at steps %2"))
                     .arg(QString::fromUtf8(kind.label), list);
    }
    return parts.join(QStringLiteral("; "));
}

QString histogramTooltip(const DistributionSeries& series, std::size_t index, const QColor& color)
{
    if (index >= series.size())
        return {};
    const models::summary::Histogram& h = series.histograms[index];
    const auto& pct = series.percentiles[index];
    QString html;
    const QString run = series.runLabel.isEmpty() ? series.run : series.runLabel;
    html += QStringLiteral("<b>%1</b> &middot; %2<br>").arg(run.toHtmlEscaped(), series.tag.toHtmlEscaped());
    html += Text::tr("Step <b>%1</b>").arg(h.step);
    if (std::isfinite(h.wallTime) && h.wallTime > 0.0)
        html += QStringLiteral(" &middot; %1 &middot; %2")
                    .arg(scalars::scalarformat::wallTime(h.wallTime),
                         scalars::scalarformat::duration(h.wallTime - series.firstWallTime));
    html += QStringLiteral("<br>");

    QStringList stats;
    const double total = h.bucketTotal();
    const double count = std::isfinite(h.count) ? h.count : total;
    stats << Text::tr("count %1").arg(number(count));
    if (std::isfinite(h.min))
        stats << Text::tr("min %1").arg(number(h.min));
    if (std::isfinite(h.max))
        stats << Text::tr("max %1").arg(number(h.max));
    if (std::isfinite(h.sum) && count > 0.0) {
        const double mean = h.sum / count;
        stats << Text::tr("mean %1").arg(number(mean));
        if (std::isfinite(h.sumSquares)) {
            const double variance = std::max(0.0, h.sumSquares / count - mean * mean);
            stats << Text::tr("std %1").arg(number(std::sqrt(variance)));
        }
    }
    html += stats.join(QStringLiteral(" &middot; "));
    if (h.nanCount > 0 || h.posInfCount > 0 || h.negInfCount > 0) {
        QStringList bad;
        if (h.nanCount > 0)
            bad << Text::tr("NaN %1").arg(h.nanCount);
        if (h.posInfCount > 0)
            bad << Text::tr("+Inf %1").arg(h.posInfCount);
        if (h.negInfCount > 0)
            bad << Text::tr("\u2212Inf %1").arg(h.negInfCount);
        html += QStringLiteral("<br><span style=\"color:%1\"><b>%2</b></span>")
                    .arg(alertColor().name(), bad.join(QStringLiteral(" &middot; ")));
    }

    if (std::isfinite(pct[kMedianIndex])) {
        QStringList parts;
        for (std::size_t p = 0; p < kBasisPoints.size(); ++p)
            parts << QStringLiteral("%1&nbsp;%2").arg(basisPointLabel(p), number(pct[p]));
        html += QStringLiteral("<br>") + Text::tr("median <b>%1</b>").arg(number(pct[kMedianIndex]));
        html += QStringLiteral("<br><small>%1</small>").arg(parts.join(QStringLiteral(" &middot; ")));
    }

    // Buckets, merged in equal groups when there are many (MindSpore writes up to 90, TensorBoard ~30).
    struct Row
    {
        double left;
        double right;
        double count;
    };
    std::vector<Row> rows;
    const std::size_t n = h.buckets.size();
    const std::size_t group = std::max<std::size_t>(1, (n + kMaxTooltipRows - 1) / kMaxTooltipRows);
    for (std::size_t i = 0; i < n; i += group) {
        Row row { h.buckets[i].left, h.buckets[i].right, 0.0 };
        for (std::size_t j = i; j < std::min(n, i + group); ++j) {
            row.right = h.buckets[j].right;
            row.count += h.buckets[j].count;
        }
        rows.push_back(row);
    }
    double maxCount = 0.0;
    for (const Row& row : rows)
        maxCount = std::max(maxCount, row.count);
    if (!rows.empty()) {
        html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\" style=\"margin-top:4px\">");
        html += QStringLiteral("<tr><th align=\"left\">%1</th><th align=\"right\">%2</th><th></th></tr>")
                    .arg(Text::tr("bucket"), Text::tr("count"));
        for (const Row& row : rows) {
            const int bar = maxCount > 0.0 ? int(std::lround(kBarChars * row.count / maxCount)) : 0;
            html += QStringLiteral("<tr><td>%1 &ndash; %2&nbsp;&nbsp;</td><td align=\"right\">%3&nbsp;</td>"
                                   "<td><span style=\"background-color:%4\">%5</span></td></tr>")
                        .arg(number(row.left), number(row.right), number(row.count), color.name(),
                             QString(QStringLiteral("&nbsp;")).repeated(bar));
        }
        html += QStringLiteral("</table>");
    }
    return html;
}

ChartData chartData(const DistributionSeries& series, DistributionMode mode)
{
    ChartData data;
    data.title = series.tag + QStringLiteral(" \u2014 ") + series.run;
    data.xLabel = Text::tr("Step");
    data.yLabel = series.tag;
    data.seriesColumn = QStringLiteral("run");
    ChartSeriesData s;
    s.name = series.run;
    const std::size_t n = series.size();
    if (mode == DistributionMode::Bands) {
        data.columns = { QStringLiteral("step"), QStringLiteral("wall_time") };
        for (std::size_t p = 0; p < kBasisPoints.size(); ++p)
            data.columns << QStringLiteral("p") + QString::number(kBasisPoints[p] * 100.0, 'g', 4);
        data.columns << QStringLiteral("nan") << QStringLiteral("posinf") << QStringLiteral("neginf");
        s.columns.assign(std::size_t(data.columns.size()), std::vector<double>(n));
        for (std::size_t i = 0; i < n; ++i) {
            const models::summary::Histogram& h = series.histograms[i];
            s.columns[0][i] = double(h.step);
            s.columns[1][i] = h.wallTime;
            for (std::size_t p = 0; p < kBasisPoints.size(); ++p)
                s.columns[2 + p][i] = series.percentiles[i][p];
            s.columns[11][i] = double(h.nanCount);
            s.columns[12][i] = double(h.posInfCount);
            s.columns[13][i] = double(h.negInfCount);
        }
    } else {
        data.columns = { QStringLiteral("step"),   QStringLiteral("wall_time"), QStringLiteral("left"),
                         QStringLiteral("right"),  QStringLiteral("count"),     QStringLiteral("nan"),
                         QStringLiteral("posinf"), QStringLiteral("neginf") };
        s.columns.assign(std::size_t(data.columns.size()), {});
        for (const models::summary::Histogram& h : series.histograms) {
            for (const models::summary::HistogramBucket& b : h.buckets) {
                const double row[]
                    = { double(h.step),        h.wallTime,           b.left, b.right, b.count, double(h.nanCount),
                        double(h.posInfCount), double(h.negInfCount) };
                for (std::size_t c = 0; c < s.columns.size(); ++c)
                    s.columns[c].push_back(row[c]);
            }
        }
    }
    data.series.push_back(std::move(s));
    return data;
}

} // namespace runlens::widgets::distributions
