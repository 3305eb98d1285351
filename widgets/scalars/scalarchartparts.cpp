#include "widgets/scalars/scalarchartparts.h"

#include "models/scalars/smoothing.h"
#include "widgets/common/chartpalette.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace runlens::widgets::scalars::detail {

namespace {

template<typename T> std::vector<T> permuted(const std::vector<T>& data, const std::vector<std::uint32_t>& order)
{
    std::vector<T> out(order.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        out[i] = data[order[i]];
    return out;
}

constexpr double kXPadding = 0.01; // of the x span, each side
constexpr double kYPadding = 0.06; // of the y span, each side
constexpr double kPercentileLow = 0.05;
constexpr double kPercentileHigh = 0.95;
constexpr double kOutlierFence = 0.5; // share of the 5..95 spread beyond which values count as outliers

double percentile(std::vector<double>& values, double q)
{
    const auto k = std::size_t(std::clamp(q, 0.0, 1.0) * double(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(k), values.end());
    return values[k];
}

} // namespace

void ScalarCurve::updateX(XAxisMode mode)
{
    const std::size_t n = size();
    x.resize(n);
    double previous = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        double v = 0.0;
        switch (mode) {
        case XAxisMode::Step:
            v = double(steps[i]);
            break;
        case XAxisMode::RelativeTime:
            v = wallTimes[i] - firstWallTime;
            break;
        case XAxisMode::WallTime:
            v = wallTimes[i];
            break;
        }
        // A damaged wall time must not break sorting and binary search: reuse the previous x.
        if (!std::isfinite(v))
            v = previous;
        x[i] = v;
        previous = v;
    }
    order.clear();
    sortedX.clear();
    sortedValues.clear();
    sortedSmoothed.clear();
    if (std::is_sorted(x.begin(), x.end()))
        return;
    order.resize(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [this](std::uint32_t a, std::uint32_t b) { return x[a] < x[b]; });
    sortedX = permuted(x, order);
    sortedValues = permuted(values, order);
    sortedSmoothed = permuted(smoothed, order);
}

void ScalarCurve::updateSmoothing(double weight)
{
    smoothed = models::scalars::smoothDebiasedEma(values, weight);
    if (!order.empty())
        sortedSmoothed = permuted(smoothed, order);
}

std::ptrdiff_t ScalarCurve::nearest(double key) const
{
    const auto xs = xAscending();
    if (xs.empty())
        return -1;
    const auto it = std::lower_bound(xs.begin(), xs.end(), key);
    if (it == xs.begin())
        return 0;
    if (it == xs.end())
        return std::ptrdiff_t(xs.size()) - 1;
    const auto before = it - 1;
    // On ties prefer the later point: with repeated steps the last written value is the current one.
    return (key - *before < *it - key) ? before - xs.begin() : it - xs.begin();
}

// ---------------------------------------------------------------------------------------------------------------

FitRanges fitRanges(const std::vector<std::unique_ptr<ScalarCurve>>& curves, bool logY, bool ignoreOutliers)
{
    double xMin = std::numeric_limits<double>::infinity();
    double xMax = -xMin;
    std::vector<double> ys;
    std::size_t total = 0;
    for (const auto& c : curves) {
        if (c->visible)
            total += c->size();
    }
    ys.reserve(total);
    for (const auto& c : curves) {
        if (!c->visible || c->size() == 0)
            continue;
        const auto xs = c->xAscending();
        xMin = std::min(xMin, xs.front());
        xMax = std::max(xMax, xs.back());
        for (double y : c->values) {
            if (isDrawable(y, logY))
                ys.push_back(logY ? std::log10(y) : y);
        }
    }

    FitRanges out { QCPRange(0.0, 1.0), QCPRange(0.0, 1.0) };
    if (std::isfinite(xMin)) {
        const double span = xMax - xMin;
        const double pad = span > 0 ? span * kXPadding : std::max(1.0, std::abs(xMin) * 0.05);
        out.x = QCPRange(xMin - pad, xMax + pad);
    }

    double lo = logY ? -1.0 : 0.0;
    double hi = logY ? 0.0 : 1.0;
    if (!ys.empty()) {
        const auto [minIt, maxIt] = std::minmax_element(ys.begin(), ys.end());
        const double minValue = *minIt; // copied: the percentiles below reorder ys
        lo = minValue;
        hi = *maxIt;
        if (ignoreOutliers && ys.size() >= 20) {
            const double p5 = percentile(ys, kPercentileLow);
            const double p95 = percentile(ys, kPercentileHigh);
            const double fence = (p95 - p5) * kOutlierFence;
            lo = std::max(lo, p5 - fence);
            hi = std::min(hi, p95 + fence);
        }
        const double span = hi - lo;
        const double pad = span > 0 ? span * kYPadding : (logY ? 0.5 : std::max(std::abs(lo) * 0.1, 1e-9));
        lo -= pad;
        hi += pad;
        if (!logY && lo < 0 && minValue >= 0 && std::abs(lo) < span * 0.2)
            lo = 0; // keep non-negative data (losses, rates) above a zero baseline
    }
    out.y = logY ? QCPRange(std::pow(10.0, lo), std::pow(10.0, hi)) : QCPRange(lo, hi);
    return out;
}

QString hoverTable(const std::vector<std::unique_ptr<ScalarCurve>>& curves, double key, const QString& tag)
{
    QString rows;
    for (const auto& c : curves) {
        if (!c->visible)
            continue;
        const std::ptrdiff_t pos = c->nearest(key);
        if (pos < 0)
            continue;
        const std::size_t i = c->pointIndex(std::size_t(pos));
        const double value = c->values[i];
        const QString valueStyle
            = std::isfinite(value) ? QString() : QStringLiteral(" style=\"color:%1\"").arg(alertColor().name());
        rows += QStringLiteral("<tr><td><span style=\"color:%1\">&#9679;</span></td><td>%2</td>"
                               "<td align=\"right\">%3</td><td align=\"right\"%4>%5</td><td align=\"right\">%6</td>"
                               "<td>%7</td><td align=\"right\">%8</td></tr>")
                    .arg(c->color.name(), c->label.toHtmlEscaped(), QString::number(c->steps[i]), valueStyle,
                         scalarformat::value(value), scalarformat::value(c->smoothed[i]),
                         scalarformat::wallTime(c->wallTimes[i]),
                         scalarformat::duration(c->wallTimes[i] - c->firstWallTime));
    }
    if (rows.isEmpty())
        return {};
    const QString header = QStringLiteral("<tr><th></th><th align=\"left\">%1</th><th align=\"right\">%2</th>"
                                          "<th align=\"right\">%3</th><th align=\"right\">%4</th>"
                                          "<th align=\"left\">%5</th><th align=\"right\">%6</th></tr>")
                               .arg(QCoreApplication::translate("runlens::widgets::scalars::ScalarChart", "Run"),
                                    QCoreApplication::translate("runlens::widgets::scalars::ScalarChart", "Step"),
                                    QCoreApplication::translate("runlens::widgets::scalars::ScalarChart", "Value"),
                                    QCoreApplication::translate("runlens::widgets::scalars::ScalarChart", "Smoothed"),
                                    QCoreApplication::translate("runlens::widgets::scalars::ScalarChart", "Wall time"),
                                    QCoreApplication::translate("runlens::widgets::scalars::ScalarChart", "Relative"));
    return QStringLiteral("<b>%1</b><table cellspacing=\"0\" cellpadding=\"2\">%2%3</table>")
        .arg(tag.toHtmlEscaped(), header, rows);
}

// ---------------------------------------------------------------------------------------------------------------

NonFiniteMarkers::NonFiniteMarkers(QCustomPlot* plot, const std::vector<std::unique_ptr<ScalarCurve>>* curves)
    : QCPLayerable(plot, QStringLiteral("axes"))
    , m_curves(curves)
{
    setAntialiased(true);
}

std::vector<NonFiniteMarkers::Hit> NonFiniteMarkers::markerPositions() const
{
    std::vector<Hit> hits;
    QCustomPlot* plot = parentPlot();
    if (!plot || !plot->axisRect() || !m_curves)
        return hits;
    const QRect rect = plot->axisRect()->rect();
    QCPAxis* xAxis = plot->xAxis;
    const QCPRange range = xAxis->range();
    const double top = rect.top() + kSize * 0.5 + 1.0;
    const double bottom = rect.bottom() - kSize * 0.5 - 1.0;
    for (const auto& curve : *m_curves) {
        if (!curve->visible || curve->nonFiniteCount == 0)
            continue;
        const auto xs = curve->xAscending();
        const auto ys = curve->valuesAscending();
        const std::size_t from = std::size_t(std::lower_bound(xs.begin(), xs.end(), range.lower) - xs.begin());
        const std::size_t to = std::size_t(std::upper_bound(xs.begin(), xs.end(), range.upper) - xs.begin());
        double lastTop = -std::numeric_limits<double>::infinity();
        double lastBottom = lastTop;
        for (std::size_t i = from; i < to; ++i) {
            const double y = ys[i];
            if (std::isfinite(y))
                continue;
            const double px = xAxis->coordToPixel(xs[i]);
            const bool atBottom = std::isinf(y) && y < 0;
            double& last = atBottom ? lastBottom : lastTop;
            if (px - last < kSpacing)
                continue; // a run of NaNs becomes a dotted row, not a solid bar
            last = px;
            hits.push_back({ QPointF(px, atBottom ? bottom : top), curve.get(), curve->pointIndex(i) });
        }
    }
    return hits;
}

void NonFiniteMarkers::applyDefaultAntialiasingHint(QCPPainter* painter) const
{
    applyAntialiasingHint(painter, mAntialiased, QCP::aeOther);
}

QRect NonFiniteMarkers::clipRect() const
{
    return parentPlot() && parentPlot()->axisRect() ? parentPlot()->axisRect()->rect() : QCPLayerable::clipRect();
}

void NonFiniteMarkers::draw(QCPPainter* painter)
{
    const auto hits = markerPositions();
    if (hits.empty())
        return;
    const double h = kSize * 0.5;
    for (const Hit& hit : hits) {
        const double y = hit.curve->values[hit.pointIndex];
        QPolygonF shape;
        const QPointF c = hit.pos;
        if (std::isnan(y)) // diamond
            shape << QPointF(c.x(), c.y() - h) << QPointF(c.x() + h, c.y()) << QPointF(c.x(), c.y() + h)
                  << QPointF(c.x() - h, c.y());
        else if (y > 0) // pointing up: off the scale above
            shape << QPointF(c.x(), c.y() - h) << QPointF(c.x() + h, c.y() + h) << QPointF(c.x() - h, c.y() + h);
        else // pointing down: off the scale below
            shape << QPointF(c.x(), c.y() + h) << QPointF(c.x() + h, c.y() - h) << QPointF(c.x() - h, c.y() - h);
        painter->setPen(QPen(hit.curve->color, 1.0));
        painter->setBrush(alertColor());
        painter->drawPolygon(shape);
    }
}

// ---------------------------------------------------------------------------------------------------------------

HoverOverlay::HoverOverlay(QCustomPlot* plot)
    : QCPLayerable(plot, QStringLiteral("overlay"))
    , m_lineColor(Qt::gray)
    , m_background(Qt::white)
    , m_textColor(Qt::black)
{
    setAntialiased(true);
}

void HoverOverlay::setHover(double key, std::vector<Dot> dots)
{
    m_active = true;
    m_key = key;
    m_dots = std::move(dots);
}

void HoverOverlay::clearHover()
{
    m_active = false;
    m_dots.clear();
}

void HoverOverlay::setColors(const QColor& line, const QColor& background, const QColor& text)
{
    m_lineColor = line;
    m_background = background;
    m_textColor = text;
}

void HoverOverlay::applyDefaultAntialiasingHint(QCPPainter* painter) const
{
    applyAntialiasingHint(painter, mAntialiased, QCP::aeOther);
}

QRect HoverOverlay::clipRect() const
{
    return parentPlot() && parentPlot()->axisRect() ? parentPlot()->axisRect()->rect() : QCPLayerable::clipRect();
}

void HoverOverlay::draw(QCPPainter* painter)
{
    QCustomPlot* plot = parentPlot();
    if (!plot || !plot->axisRect())
        return;
    const QRect rect = plot->axisRect()->rect();
    if (m_active) {
        const double px = plot->xAxis->coordToPixel(m_key);
        painter->setPen(QPen(m_lineColor, 1.0, Qt::DashLine));
        painter->drawLine(QPointF(px, rect.top()), QPointF(px, rect.bottom()));
        for (const Dot& dot : m_dots) {
            const QPointF p(plot->xAxis->coordToPixel(dot.key), plot->yAxis->coordToPixel(dot.value));
            if (!rect.adjusted(-4, -4, 4, 4).contains(p.toPoint()))
                continue;
            painter->setPen(QPen(m_background, 1.5));
            painter->setBrush(dot.color);
            painter->drawEllipse(p, 4.0, 4.0);
        }
    }
    if (!m_hint.isEmpty()) {
        QFont font = plot->font();
        painter->setFont(font);
        const QFontMetricsF metrics(font);
        const QSizeF textSize(metrics.horizontalAdvance(m_hint), metrics.height());
        QRectF box(QPointF(0, 0), textSize + QSizeF(20, 10));
        box.moveCenter(QRectF(rect).center());
        QColor fill = m_textColor;
        fill.setAlphaF(0.75f);
        painter->setPen(Qt::NoPen);
        painter->setBrush(fill);
        painter->drawRoundedRect(box, 5, 5);
        painter->setPen(m_background);
        painter->drawText(box, Qt::AlignCenter, m_hint);
    }
}

// ---------------------------------------------------------------------------------------------------------------

double CompactNumberTicker::getTickStep(const QCPRange& range)
{
    return std::max(1.0, QCPAxisTicker::getTickStep(range));
}

QString CompactNumberTicker::getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision)
{
    Q_UNUSED(locale)
    Q_UNUSED(formatChar)
    Q_UNUSED(precision)
    return scalarformat::compactNumber(tick);
}

QString DurationTicker::getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision)
{
    Q_UNUSED(locale)
    Q_UNUSED(formatChar)
    Q_UNUSED(precision)
    return scalarformat::duration(tick);
}

} // namespace runlens::widgets::scalars::detail
