// Theme, axes, legend, title, the step marker and the chart's own painting.
#include "widgets/scalars/scalarchart.h"

#include "widgets/common/chartpalette.h"
#include "widgets/common/theme.h"
#include "widgets/scalars/scalarchartparts.h"

#include <QPainter>

#include <algorithm>

namespace runlens::widgets::scalars {

using detail::ScalarCurve;

namespace {

constexpr double kRawAlpha = 0.25;
constexpr double kSmoothedWidth = 1.8;
constexpr double kLineWidth = 1.5;

} // namespace

void ScalarChart::setMarkedStep(std::optional<qint64> step)
{
    m_markedStep = step;
    updateMarker();
    scheduleReplot();
}

std::optional<double> ScalarChart::markerX() const
{
    if (!m_markedStep)
        return std::nullopt;
    // The x of the marked step in the current mode: taken from the first curve that has the step.
    for (const auto& c : m_curves) {
        for (std::size_t i = 0; i < c->steps.size() && i < c->x.size(); ++i) {
            if (c->steps[i] == *m_markedStep)
                return c->x[i];
        }
    }
    if (m_options.xAxisMode == XAxisMode::Step)
        return double(*m_markedStep);
    return std::nullopt;
}

void ScalarChart::updateMarker()
{
    const std::optional<double> x = markerX();
    if (!x) {
        if (m_marker)
            m_marker->setVisible(false);
        return;
    }
    if (!m_marker) {
        m_marker = new QCPItemStraightLine(this);
        m_marker->setLayer(QStringLiteral("overlay"));
        m_marker->setSelectable(false);
        QPen pen(QColor(214, 39, 40), 1.5, Qt::DashLine);
        m_marker->setPen(pen);
    }
    m_marker->point1->setCoords(*x, 0.0);
    m_marker->point2->setCoords(*x, 1.0);
    m_marker->setVisible(true);
}

void ScalarChart::applyXAxisMode()
{
    switch (m_options.xAxisMode) {
    case XAxisMode::Step:
        xAxis->setTicker(QSharedPointer<detail::CompactNumberTicker>::create());
        break;
    case XAxisMode::RelativeTime:
        xAxis->setTicker(QSharedPointer<detail::DurationTicker>::create());
        break;
    case XAxisMode::WallTime: {
        auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
        ticker->setDateTimeSpec(Qt::LocalTime);
        ticker->setDateTimeFormat(QStringLiteral("HH:mm"));
        xAxis->setTicker(ticker);
        break;
    }
    }
    xAxis->ticker()->setTickCount(5);
    xAxis->setLabel(scalarformat::axisTitle(m_options.xAxisMode));
}

void ScalarChart::applyCurveStyle(ScalarCurve& c)
{
    const bool smoothing = m_options.smoothing > 0.0;
    QColor faint = c.color;
    faint.setAlphaF(float(kRawAlpha));
    c.raw->setPen(QPen(faint, 1.0));
    c.smooth->setPen(QPen(c.color, smoothing ? kSmoothedWidth : kLineWidth));
    c.raw->setVisible(c.visible && smoothing);
    c.smooth->setVisible(c.visible);
    // A single point has no line to draw: show it as a dot.
    const bool lone = c.size() == 1;
    c.smooth->setScatterStyle(lone ? QCPScatterStyle(QCPScatterStyle::ssDisc, c.color, 6)
                                   : QCPScatterStyle(QCPScatterStyle::ssNone));
}

void ScalarChart::applyTheme()
{
    const QPalette pal = palette();
    const ChartTheme theme = chartTheme(pal);
    const QColor background = theme.background;
    const QColor text = theme.text;
    const QColor muted = theme.muted;
    const QColor axisLine = theme.axisLine;
    const QColor gridLine = theme.gridLine;

    setBackground(background);
    axisRect()->setBackground(Qt::NoBrush);

    QFont tickFont = font();
    tickFont.setPointSizeF(std::max(7.0, tickFont.pointSizeF() * 0.85));
    QFont labelFont = tickFont;
    QFont titleFont = font();
    titleFont.setWeight(QFont::DemiBold);

    for (QCPAxis* axis : { xAxis, yAxis }) {
        axis->setBasePen(axis == xAxis ? QPen(axisLine, 1) : QPen(Qt::NoPen));
        axis->setTickPen(QPen(axisLine, 1));
        axis->setSubTickPen(Qt::NoPen);
        axis->setTickLengthIn(0);
        axis->setTickLengthOut(axis == xAxis ? 4 : 0);
        axis->setTickLabelColor(muted);
        axis->setTickLabelFont(tickFont);
        axis->setLabelColor(muted);
        axis->setLabelFont(labelFont);
        axis->setLabelPadding(4);
        axis->setTickLabelPadding(4);
        axis->grid()->setPen(QPen(gridLine, 1, Qt::SolidLine));
        axis->grid()->setZeroLinePen(QPen(blendColors(text, background, 0.8), 1));
        axis->grid()->setSubGridVisible(false);
        axis->grid()->setAntialiased(false);
    }
    xAxis->grid()->setZeroLinePen(Qt::NoPen);
    for (QCPAxis* axis : { xAxis2, yAxis2 })
        axis->setVisible(false);

    m_title->setFont(titleFont);
    m_title->setTextColor(text);
    legend->setFont(tickFont);
    legend->setTextColor(muted);
    m_overlay->setColors(muted, background, text);
    updateTitle();
}

void ScalarChart::setLegendVisible(bool visible)
{
    m_legendVisible = visible;
    updateLegend();
}

void ScalarChart::updateLegend()
{
    const bool show = (m_legendVisible || m_exporting) && !m_curves.empty();
    legend->clearItems();
    if (show) {
        for (const auto& c : m_curves) {
            if (c->visible)
                c->smooth->addToLegend(legend);
        }
    }
    const bool inLayout = m_header->hasElement(0, 1);
    if (show && !inLayout) {
        m_header->addElement(0, 1, legend);
        m_header->setColumnStretchFactor(0, 1.0);
        m_header->setColumnStretchFactor(1, 0.001);
    } else if (!show && inLayout) {
        m_header->take(legend);
        m_header->simplify();
    }
    legend->setVisible(show);
    scheduleReplot();
}

void ScalarChart::updateTitle()
{
    const QFontMetrics metrics(m_title->font());
    const int available = std::max(40, width() - 24);
    m_title->setText(metrics.elidedText(m_tag, Qt::ElideMiddle, available));
}

void ScalarChart::setFramed(bool framed)
{
    m_framed = framed;
    update();
}

void ScalarChart::paintEvent(QPaintEvent* event)
{
    if (m_replotPending)
        replot(QCustomPlot::rpQueuedRefresh);
    QCustomPlot::paintEvent(event);
    if (m_framed) {
        QPainter painter(this);
        const QPalette pal = palette();
        painter.setPen(QPen(blendColors(pal.color(QPalette::Text), pal.color(QPalette::Base), 0.82), 1));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
    }
}

void ScalarChart::resizeEvent(QResizeEvent* event)
{
    Q_UNUSED(event)
    // Unlike QCustomPlot's own handler this does not replot at once: charts of a page are resized together
    // and most of them are off screen.
    setViewport(rect());
    updateTitle();
    resample();
    scheduleReplot();
}

void ScalarChart::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange
        || event->type() == QEvent::StyleChange) {
        applyTheme();
        scheduleReplot();
    }
}

} // namespace runlens::widgets::scalars
