#include "widgets/common/stackedstepbars.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace runlens::widgets {

namespace {

constexpr int kMaxTickLabels = 24;
constexpr double kMinVisibleSteps = 5.0; ///< zooming in stops here

} // namespace

StackedStepBars::StackedStepBars(QCustomPlot* plot, QObject* parent)
    : QObject(parent)
    , m_plot(plot)
{
    m_plot->setInteraction(QCP::iRangeZoom, true);
    m_plot->setInteraction(QCP::iRangeDrag, true);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { clampRange(); });
    // After the layout the axis width is known, and before the drawing the bars can still change.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        m_laidOut = true;
        refresh();
    });
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] {
        showAll();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
}

void StackedStepBars::setBars(QList<QCPBars*> bars)
{
    m_bars = std::move(bars);
    m_dirty = true;
    if (!m_slowest) {
        m_slowest = new QCPGraph(m_plot->xAxis, m_plot->yAxis);
        m_slowest->setName(tr("Slowest step in a bar"));
        m_slowest->setLineStyle(QCPGraph::lsStepCenter);
        // The text colour: dark on a light theme, light on a dark one, and apart from every category colour.
        QColor pen = m_plot->palette().color(QPalette::WindowText);
        pen.setAlphaF(0.75);
        m_slowest->setPen(QPen(pen, 1.0));
        m_slowest->setAntialiased(false);
        m_slowest->setVisible(false);
        m_slowest->removeFromLegend();
    }
}

void StackedStepBars::setSteps(std::vector<double> values, std::vector<double> average, QStringList labels,
                               const QString& averageLabel, const QString& axisLabel)
{
    m_values = std::move(values);
    m_average = std::move(average);
    m_labels = std::move(labels);
    m_averageLabel = averageLabel;
    m_axisLabel = axisLabel;
    m_dirty = true;
    showAll();
    refresh();
}

double StackedStepBars::value(int step, std::size_t category) const
{
    const std::size_t i = std::size_t(step) * categoryCount() + category;
    return step >= 0 && i < m_values.size() ? m_values[i] : 0.0;
}

QCPGraph* StackedStepBars::slowestLine() const
{
    return m_slowest;
}

double StackedStepBars::fullUpper() const
{
    if (!stepCount())
        return 1.0;
    return (m_average.empty() ? double(stepCount() - 1) : averageX()) + 0.6;
}

void StackedStepBars::showAll()
{
    m_plot->xAxis->setRange(fullLower(), fullUpper());
}

void StackedStepBars::clampRange()
{
    // Zoom and pan stay within the steps: no empty chart to get lost in.
    const QCPRange range = m_plot->xAxis->range();
    const double lower = fullLower();
    const double upper = fullUpper();
    const double size = std::clamp(range.size(), std::min(kMinVisibleSteps, upper - lower), upper - lower);
    double from = std::clamp(range.lower, lower, upper - size);
    if (from != range.lower || size != range.size())
        m_plot->xAxis->setRange(from, from + size);
}

StackedStepBars::Hit StackedStepBars::hitAt(double x) const
{
    Hit hit;
    const int steps = stepCount();
    if (!steps || !std::isfinite(x))
        return hit;
    if (!m_average.empty() && std::abs(x - averageX()) <= kBarWidth / 2) {
        hit.average = true;
        return hit;
    }
    if (m_columns.stepsPerColumn > 1) {
        // Columns fill their whole slot, so the step under the pointer names the column.
        const long step = std::lround(x);
        if (step < 0 || step >= steps)
            return hit;
        const auto& columns = m_columns.columns;
        const auto it = std::upper_bound(columns.begin(), columns.end(), std::size_t(step),
                                         [](std::size_t s, const models::StepColumn& c) { return s < c.first; });
        if (it == columns.begin())
            return hit;
        const models::StepColumn& column = *(it - 1);
        if (std::size_t(step) >= column.first + column.count)
            return hit;
        hit.column = int(it - 1 - columns.begin());
        hit.first = int(column.first);
        hit.count = int(column.count);
        hit.slowest = int(column.slowest);
        return hit;
    }
    const long nearest = std::lround(x);
    if (nearest < 0 || nearest >= steps || std::abs(x - double(nearest)) > kBarWidth / 2)
        return hit;
    hit.first = int(nearest);
    hit.count = 1;
    hit.slowest = int(nearest);
    return hit;
}

void StackedStepBars::refresh()
{
    const int steps = stepCount();
    const QCPRange range = m_plot->xAxis->range();
    // Step i fills the slot [i - 0.5, i + 0.5); the steps whose slot the axis shows are drawn.
    const int first = int(std::clamp(std::floor(range.lower - 0.5) + 1.0, 0.0, double(steps)));
    const int last = std::max(first, int(std::clamp(std::ceil(range.upper + 0.5), 0.0, double(steps))));
    // Before the first layout the axis width is not known: every step is given its bar then, and the first
    // replot groups them before it draws.
    const double pixels = m_laidOut ? m_plot->axisRect()->width() : 0.0;
    const std::size_t perColumn = runlens::models::stepsPerColumn(double(last - first), pixels);
    const bool average = !m_average.empty() && perColumn == 1 && averageX() - kBarWidth / 2 < range.upper
        && averageX() + kBarWidth / 2 > range.lower;
    const int visible = std::max(1, int(std::ceil(range.size())));
    const int tickStride = std::max(1, (visible + kMaxTickLabels - 1) / kMaxTickLabels);
    if (!m_dirty && first == m_drawnFirst && last == m_drawnLast && perColumn == m_drawnStepsPerColumn
        && average == m_drawnAverage && tickStride == m_drawnTickStride)
        return;
    m_dirty = false;
    m_drawnFirst = first;
    m_drawnLast = last;
    m_drawnStepsPerColumn = perColumn;
    m_drawnAverage = average;
    m_drawnTickStride = tickStride;

    const std::size_t categories = categoryCount();
    models::aggregateStepColumns(m_values, categories, std::size_t(first), std::size_t(last), perColumn, m_columns);
    const double width = perColumn > 1 ? double(perColumn) : kBarWidth;
    for (std::size_t c = 0; c < categories; ++c) {
        m_scratch.clear();
        for (std::size_t col = 0; col < m_columns.columns.size(); ++col) {
            const models::StepColumn& column = m_columns.columns[col];
            m_scratch.append(
                QCPBarsData(double(column.first) + double(column.count - 1) / 2.0, m_columns.mean(col, c)));
        }
        if (average)
            m_scratch.append(QCPBarsData(averageX(), c < m_average.size() ? std::max(0.0, m_average[c]) : 0.0));
        m_bars[int(c)]->setWidth(width);
        m_bars[int(c)]->data()->set(m_scratch, true);
    }

    if (m_slowest) {
        m_scratchGraph.clear();
        if (perColumn > 1) {
            for (const models::StepColumn& column : m_columns.columns)
                m_scratchGraph.append(
                    QCPGraphData(double(column.first) + double(column.count - 1) / 2.0, column.slowestTotal));
        }
        m_slowest->data()->set(m_scratchGraph, true);
        if (m_slowest->visible() != (perColumn > 1)) {
            m_slowest->setVisible(perColumn > 1);
            if (perColumn > 1)
                m_slowest->addToLegend();
            else
                m_slowest->removeFromLegend();
        }
    }

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int s = first / tickStride * tickStride; s < last; s += tickStride) {
        if (s >= first)
            ticker->addTick(double(s), m_labels.at(s));
    }
    if (average)
        ticker->addTick(averageX(), m_averageLabel);
    m_plot->xAxis->setTicker(ticker);
    // Within a replot the axis has already placed its ticks: place them again for the new ticker.
    m_plot->axisRect()->update(QCPLayoutElement::upPreparation);
    m_plot->xAxis->setLabel(perColumn > 1
                                ? tr("%1 (each bar: mean of %n step(s))", nullptr, int(perColumn)).arg(m_axisLabel)
                                : m_axisLabel);
}

} // namespace runlens::widgets
