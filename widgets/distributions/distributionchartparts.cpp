#include "widgets/distributions/distributionchartparts.h"

#include "widgets/common/chartpalette.h"

#include <algorithm>
#include <cmath>

namespace runlens::widgets::distributions::detail {

namespace {

constexpr double kOldestFade = 0.78; // how far the oldest outline's pen is blended toward the background
constexpr double kFillFade = 0.86;

QRect plotRect(const QCustomPlot* plot)
{
    return plot->axisRect()->rect();
}

} // namespace

Ridges buildRidges(const DistributionSeries& series, int maxOutlines, int bins)
{
    Ridges out;
    out.lo = series.lowestEdge;
    out.hi = series.highestEdge;
    const std::size_t n = series.size();
    if (n == 0)
        return out;
    const std::size_t wanted = std::min<std::size_t>(n, std::size_t(std::max(1, maxOutlines)));
    // Evenly over the series, ending exactly at the latest histogram.
    for (std::size_t k = 0; k < wanted; ++k) {
        const std::size_t i = wanted == 1 ? n - 1 : (k * (n - 1)) / (wanted - 1);
        if (out.indices.empty() || out.indices.back() != i)
            out.indices.push_back(i);
    }
    double maxCount = 0.0;
    out.bins.reserve(out.indices.size());
    for (std::size_t i : out.indices) {
        out.bins.push_back(rebin(series.histograms[i], out.lo, out.hi, bins));
        for (double c : out.bins.back())
            maxCount = std::max(maxCount, c);
    }
    out.maxCount = maxCount > 0.0 ? maxCount : 1.0;
    return out;
}

QPolygonF ridgePolygon(const QCPAxis* keyAxis, const QCPAxis* valueAxis, double key, const std::vector<double>& bins,
                       const Ridges& ridges, double height)
{
    QPolygonF polygon;
    if (bins.empty())
        return polygon;
    const double base = keyAxis->coordToPixel(key);
    const double width = (ridges.hi - ridges.lo) / double(bins.size());
    polygon.reserve(qsizetype(bins.size()) + 2);
    polygon << QPointF(valueAxis->coordToPixel(ridges.lo), base);
    for (std::size_t b = 0; b < bins.size(); ++b) {
        const double x = valueAxis->coordToPixel(ridges.lo + (double(b) + 0.5) * width);
        polygon << QPointF(x, base - height * bins[b] / ridges.maxCount);
    }
    polygon << QPointF(valueAxis->coordToPixel(ridges.hi), base);
    return polygon;
}

// ---------------------------------------------------------------------------------------------------------------

RidgelineLayer::RidgelineLayer(QCustomPlot* plot)
    : QCPLayerable(plot, QStringLiteral("main"))
{ }

void RidgelineLayer::setData(const DistributionSeries* series, scalars::XAxisMode mode, Ridges ridges)
{
    m_series = series;
    m_mode = mode;
    m_ridges = std::move(ridges);
}

void RidgelineLayer::setColors(const QColor& color, const QColor& background)
{
    m_color = color;
    m_background = background;
}

double RidgelineLayer::ridgeHeight() const
{
    return std::max(12.0, plotRect(mParentPlot).height() * kRidgeShare);
}

void RidgelineLayer::applyDefaultAntialiasingHint(QCPPainter* painter) const
{
    applyAntialiasingHint(painter, true, QCP::aeOther);
}

QRect RidgelineLayer::clipRect() const
{
    return plotRect(mParentPlot);
}

void RidgelineLayer::draw(QCPPainter* painter)
{
    if (!m_series || m_ridges.indices.empty())
        return;
    const QCPAxis* keyAxis = mParentPlot->yAxis;
    const QCPAxis* valueAxis = mParentPlot->xAxis;
    const double height = ridgeHeight();
    const std::size_t count = m_ridges.indices.size();
    // Draw in key order so that later steps (lower on the reversed axis) cover earlier ones.
    std::vector<std::size_t> order(count);
    for (std::size_t k = 0; k < count; ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return m_series->key(m_ridges.indices[a], m_mode) < m_series->key(m_ridges.indices[b], m_mode);
    });
    for (std::size_t pos = 0; pos < count; ++pos) {
        const std::size_t k = order[pos];
        const double age = count > 1 ? 1.0 - double(pos) / double(count - 1) : 0.0; // 1 oldest, 0 newest
        const double key = m_series->key(m_ridges.indices[k], m_mode);
        const QPolygonF outline = ridgePolygon(keyAxis, valueAxis, key, m_ridges.bins[k], m_ridges, height);
        painter->setPen(Qt::NoPen);
        painter->setBrush(blendColors(m_color, m_background, kFillFade + (1.0 - kFillFade) * 0.5 * age));
        painter->drawPolygon(outline);
        painter->setPen(QPen(blendColors(m_color, m_background, kOldestFade * age), 1.0));
        painter->setBrush(Qt::NoBrush);
        painter->drawPolyline(outline);
    }
}

// ---------------------------------------------------------------------------------------------------------------

NonFiniteMarks::NonFiniteMarks(QCustomPlot* plot)
    : QCPLayerable(plot, QStringLiteral("main"))
{ }

void NonFiniteMarks::setData(const DistributionSeries* series, DistributionMode mode, scalars::XAxisMode xMode)
{
    m_series = series;
    m_mode = mode;
    m_xMode = xMode;
}

QList<QPointF> NonFiniteMarks::positions() const
{
    QList<QPointF> out;
    if (!m_series)
        return out;
    const QRect rect = plotRect(mParentPlot);
    for (std::size_t i : m_series->nonFiniteIndices()) {
        const double key = m_series->key(i, m_xMode);
        QPointF p;
        if (m_mode == DistributionMode::Bands)
            p = QPointF(mParentPlot->xAxis->coordToPixel(key), rect.top() + kSize);
        else
            p = QPointF(rect.left() + kSize, mParentPlot->yAxis->coordToPixel(key));
        if (QRectF(rect).adjusted(-1, -1, 1, 1).contains(p))
            out << p;
    }
    return out;
}

void NonFiniteMarks::applyDefaultAntialiasingHint(QCPPainter* painter) const
{
    applyAntialiasingHint(painter, true, QCP::aeScatters);
}

QRect NonFiniteMarks::clipRect() const
{
    return plotRect(mParentPlot);
}

void NonFiniteMarks::draw(QCPPainter* painter)
{
    const QColor red = alertColor();
    painter->setPen(QPen(red.darker(130), 1.0));
    painter->setBrush(red);
    const double s = kSize * 0.5;
    for (const QPointF& p : positions()) {
        QPolygonF triangle;
        if (m_mode == DistributionMode::Bands) // pointing down at the step
            triangle << QPointF(p.x() - s, p.y() - s) << QPointF(p.x() + s, p.y() - s) << QPointF(p.x(), p.y() + s);
        else // pointing right at the outline's baseline
            triangle << QPointF(p.x() - s, p.y() - s) << QPointF(p.x() - s, p.y() + s) << QPointF(p.x() + s, p.y());
        painter->drawPolygon(triangle);
    }
}

// ---------------------------------------------------------------------------------------------------------------

DistributionHover::DistributionHover(QCustomPlot* plot, const RidgelineLayer* ridges)
    : QCPLayerable(plot, QStringLiteral("overlay"))
    , m_ridges(ridges)
{ }

void DistributionHover::setHover(const DistributionSeries* series, DistributionMode mode, scalars::XAxisMode xMode,
                                 std::ptrdiff_t index)
{
    m_series = series;
    m_mode = mode;
    m_xMode = xMode;
    m_index = index;
}

void DistributionHover::setColors(const QColor& line, const QColor& accent)
{
    m_line = line;
    m_accent = accent;
}

void DistributionHover::applyDefaultAntialiasingHint(QCPPainter* painter) const
{
    applyAntialiasingHint(painter, true, QCP::aeOther);
}

QRect DistributionHover::clipRect() const
{
    return plotRect(mParentPlot);
}

void DistributionHover::draw(QCPPainter* painter)
{
    if (!m_series || m_index < 0 || std::size_t(m_index) >= m_series->size())
        return;
    const QRect rect = plotRect(mParentPlot);
    const std::size_t i = std::size_t(m_index);
    const double key = m_series->key(i, m_xMode);
    painter->setPen(QPen(m_line, 1.0, Qt::DashLine));
    if (m_mode == DistributionMode::Bands) {
        const double x = mParentPlot->xAxis->coordToPixel(key);
        painter->drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()));
        const double median = m_series->percentiles[i][kMedianIndex];
        if (std::isfinite(median)) {
            painter->setPen(QPen(m_accent.darker(140), 1.5));
            painter->setBrush(m_accent);
            painter->drawEllipse(QPointF(x, mParentPlot->yAxis->coordToPixel(median)), 3.5, 3.5);
        }
        return;
    }
    const double y = mParentPlot->yAxis->coordToPixel(key);
    painter->drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y));
    const Ridges& ridges = m_ridges->ridges();
    const std::vector<double> bins = rebin(m_series->histograms[i], ridges.lo, ridges.hi,
                                           ridges.bins.empty() ? 48 : int(ridges.bins.front().size()));
    const QPolygonF outline
        = ridgePolygon(mParentPlot->yAxis, mParentPlot->xAxis, key, bins, ridges, m_ridges->ridgeHeight());
    painter->setPen(QPen(m_accent, 2.0));
    painter->setBrush(Qt::NoBrush);
    painter->drawPolyline(outline);
}

// ---------------------------------------------------------------------------------------------------------------

ClampedTicker::ClampedTicker(QSharedPointer<QCPAxisTicker> inner, double lower, double upper)
    : m_inner(std::move(inner))
    , m_lower(lower)
    , m_upper(upper)
{
    setTickCount(m_inner->tickCount());
}

void ClampedTicker::generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision,
                             QVector<double>& ticks, QVector<double>* subTicks, QVector<QString>* tickLabels)
{
    m_inner->setTickCount(tickCount());
    QVector<double> all;
    QVector<QString> labels;
    m_inner->generate(range, locale, formatChar, precision, all, subTicks, tickLabels ? &labels : nullptr);
    const double slack = (m_upper - m_lower) * 1e-9;
    ticks.clear();
    if (tickLabels)
        tickLabels->clear();
    for (qsizetype i = 0; i < all.size(); ++i) {
        if (all[i] < m_lower - slack || all[i] > m_upper + slack)
            continue;
        ticks.append(all[i]);
        if (tickLabels && i < labels.size())
            tickLabels->append(labels[i]);
    }
}

int outlineBinCount(const DistributionSeries& series, int maximum)
{
    constexpr int kMinimum = 8;
    std::size_t widest = 0;
    for (const models::summary::Histogram& h : series.histograms) {
        // Buckets between the first and the last counted one: what the writer's resolution shows.
        std::size_t first = h.buckets.size();
        std::size_t last = 0;
        for (std::size_t b = 0; b < h.buckets.size(); ++b) {
            if (h.buckets[b].count > 0.0) {
                first = std::min(first, b);
                last = b;
            }
        }
        if (first <= last)
            widest = std::max(widest, last - first + 1);
    }
    return std::clamp(int(widest), kMinimum, std::max(kMinimum, maximum));
}

} // namespace runlens::widgets::distributions::detail
