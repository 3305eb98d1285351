#include "widgets/system/systemdetailchart.h"

#include "widgets/common/chartexportmenu.h"
#include "widgets/common/chartpalette.h"

#include <QDateTime>
#include <QLocale>
#include <QMenu>
#include <QRegularExpression>

#include <cmath>

namespace runlens::widgets::system {

namespace {

/// The metric without its unit, which the chart's axis label names: "cpu_busy_percent" -> "cpu_busy".
QString legendName(const QString& metric)
{
    static const QRegularExpression unit(QStringLiteral("_(percent|MiB_per_s|MiB|W|MHz|C)$"));
    QString name = metric;
    return name.remove(unit);
}

} // namespace

SystemDetailChart::SystemDetailChart(QWidget* parent)
    : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("systemDetailChart"));
    setMouseTracking(true);
    setMinimumHeight(200);
    setContextMenuPolicy(Qt::CustomContextMenu);
    m_chrome = styleChartAxes(this, font());
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // Each chart has its own legend.
    setAutoAddPlottableToLegend(false);
    plotLayout()->clear();
    m_margins = new QCPMarginGroup(this);

    m_export = new ChartExportMenu(this, this);
    m_export->setBaseName(QStringLiteral("system"));
    m_export->setDataProvider([this] { return chartData(); });
    m_export->setExportHook(
        exportTitleHook(this, this, [this] { return tr("System metrics of %1").arg(m_run.displayName()); }));
    connect(this, &QCustomPlot::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        m_export->addTo(&menu);
        menu.exec(mapToGlobal(pos));
    });
}

std::vector<SystemDetailChart::Group> SystemDetailChart::groupsOf(const models::system::SystemRun& run) const
{
    const std::vector<Group> candidates = {
        { tr("CPU %"),
          run.metricsMatching(QStringLiteral("cpu_busy_percent|cpu_core_busy_max_percent|process_cpu_percent")) },
        { tr("Memory MiB"), run.metricsMatching(QStringLiteral("mem_used_MiB|process_rss_MiB|swap_used_MiB")) },
        { tr("GPU util %"), run.metricsMatching(QStringLiteral("gpu\\d+_util_percent")) },
        { tr("GPU mem MiB"), run.metricsMatching(QStringLiteral("gpu\\d+_mem_used_MiB")) },
        { tr("GPU power W"), run.metricsMatching(QStringLiteral("gpu\\d+_power_W")) },
        { tr("NPU AI Core %"), run.metricsMatching(QStringLiteral("npu\\d+_util_percent")) },
        { tr("NPU mem MiB"), run.metricsMatching(QStringLiteral("npu\\d+_mem_used_MiB")) },
        { tr("NPU power W"), run.metricsMatching(QStringLiteral("npu\\d+_power_W")) },
        { tr("Disk MiB/s"), run.metricsMatching(QStringLiteral("disk_(read|write)_MiB_per_s")) },
        { tr("Network MiB/s"), run.metricsMatching(QStringLiteral("net_.+_(rx|tx)_MiB_per_s")) },
        { tr("IB MiB/s"), run.metricsMatching(QStringLiteral("ib_.+_(rx|tx)_MiB_per_s")) },
    };
    std::vector<Group> groups;
    for (const Group& g : candidates) {
        if (!g.metrics.isEmpty())
            groups.push_back(g);
    }
    return groups;
}

void SystemDetailChart::styleAxis(QCPAxis* axis) const
{
    axis->setBasePen(QPen(m_chrome.axisLine, 1));
    axis->setTickPen(QPen(m_chrome.axisLine, 1));
    axis->setSubTickPen(Qt::NoPen);
    axis->setTickLengthIn(0);
    axis->setTickLengthOut(4);
    axis->setTickLabelColor(m_chrome.muted);
    axis->setTickLabelFont(m_chrome.tickFont);
    axis->setLabelColor(m_chrome.muted);
    axis->setLabelFont(m_chrome.tickFont);
    axis->grid()->setPen(QPen(m_chrome.gridLine, 1));
    axis->grid()->setSubGridVisible(false);
    axis->grid()->setAntialiased(false);
}

void SystemDetailChart::setRun(const models::system::SystemRun& run)
{
    const bool sameRun = run.run == m_run.run && !m_rects.isEmpty();
    const QCPRange previous = timeRange();
    m_run = run;
    clearItems();
    clearPlottables();
    plotLayout()->clear();
    m_rects.clear();
    m_hoverLines.clear();
    m_marks.clear();
    m_hoverText = nullptr;

    const std::vector<Group> groups = groupsOf(m_run);
    QSharedPointer<QCPAxisTickerDateTime> ticker(new QCPAxisTickerDateTime);
    ticker->setDateTimeFormat(QStringLiteral("hh:mm:ss"));
    ticker->setDateTimeSpec(Qt::LocalTime);
    int colour = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        auto* rect = new QCPAxisRect(this);
        plotLayout()->addElement(int(g), 0, rect);
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, m_margins);
        rect->setRangeDrag(Qt::Horizontal);
        rect->setRangeZoom(Qt::Horizontal);
        rect->setupFullAxesBox(false);
        rect->axis(QCPAxis::atTop)->setVisible(false);
        rect->axis(QCPAxis::atRight)->setVisible(false);
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        styleAxis(x);
        styleAxis(y);
        x->setTicker(ticker);
        x->setTickLabels(g + 1 == groups.size());
        y->setLabel(groups[g].title);
        y->setPadding(4);
        if (g + 1 < groups.size())
            rect->setAutoMargins(QCP::msLeft | QCP::msRight | QCP::msTop);

        auto* legend = new QCPLegend;
        rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
        legend->setLayer(QStringLiteral("legend"));
        legend->setBorderPen(Qt::NoPen);
        legend->setBrush(QColor(255, 255, 255, 170));
        legend->setFont(m_chrome.tickFont);
        legend->setTextColor(m_chrome.muted);
        legend->setIconSize(14, 8);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        legend->setWrap(3);
        legend->setRowSpacing(0);
        legend->setMargins(QMargins(4, 1, 4, 1));

        double yMax = 0.0;
        for (const QString& name : groups[g].metrics) {
            const models::system::MetricSeries* series = m_run.metric(name);
            auto* graph = new QCPGraph(x, y);
            graph->setName(legendName(name));
            graph->setProperty("metric", name);
            graph->setPen(QPen(runColor(colour++), 1.5));
            graph->setData(QVector<double>(series->times.begin(), series->times.end()),
                           QVector<double>(series->values.begin(), series->values.end()), true);
            graph->addToLegend(legend);
            for (double v : series->values)
                yMax = std::isfinite(v) ? std::max(yMax, v) : yMax;
        }
        y->setRange(0.0, yMax > 0 ? yMax * 1.1 : 1.0);
        connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &SystemDetailChart::onRangeChanged);

        auto* line = new QCPItemStraightLine(this);
        line->setClipAxisRect(rect);
        line->point1->setAxes(x, y);
        line->point2->setAxes(x, y);
        line->setPen(QPen(m_chrome.muted, 1, Qt::DashLine));
        line->setVisible(false);
        m_hoverLines << line;
        auto* mark = new QCPItemRect(this);
        mark->setClipAxisRect(rect);
        mark->topLeft->setAxes(x, y);
        mark->bottomRight->setAxes(x, y);
        mark->setPen(Qt::NoPen);
        QColor alert = alertColor();
        alert.setAlpha(40);
        mark->setBrush(alert);
        mark->setVisible(false);
        m_marks << mark;
        m_rects << rect;
    }
    if (!m_rects.isEmpty()) {
        m_hoverText = new QCPItemText(this);
        m_hoverText->setClipToAxisRect(false);
        m_hoverText->position->setType(QCPItemPosition::ptAbsolute);
        m_hoverText->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
        m_hoverText->setTextAlignment(Qt::AlignLeft);
        m_hoverText->setFont(m_chrome.tickFont);
        m_hoverText->setColor(palette().color(QPalette::ToolTipText));
        m_hoverText->setBrush(palette().color(QPalette::ToolTipBase));
        m_hoverText->setPen(QPen(m_chrome.axisLine));
        m_hoverText->setPadding(QMargins(4, 2, 4, 2));
        m_hoverText->setVisible(false);
    }
    const double start = m_run.startTime();
    const double end = m_run.endTime();
    if (sameRun)
        setTimeRange(previous.lower, previous.upper);
    else if (std::isfinite(start) && std::isfinite(end))
        setTimeRange(start, end > start ? end : start + 1.0);
    setMinimumHeight(std::max(200, kMinChartHeight * int(m_rects.size())));
    replot();
}

QStringList SystemDetailChart::chartTitles() const
{
    QStringList titles;
    for (QCPAxisRect* rect : m_rects)
        titles << rect->axis(QCPAxis::atLeft)->label();
    return titles;
}

void SystemDetailChart::setTimeRange(double lower, double upper)
{
    if (m_rects.isEmpty() || !(upper > lower))
        return;
    m_rects.front()->axis(QCPAxis::atBottom)->setRange(lower, upper);
    replot(QCustomPlot::rpQueuedReplot);
}

QCPRange SystemDetailChart::timeRange() const
{
    return m_rects.isEmpty() ? QCPRange() : m_rects.front()->axis(QCPAxis::atBottom)->range();
}

void SystemDetailChart::onRangeChanged(const QCPRange& range)
{
    if (m_syncing)
        return;
    m_syncing = true;
    for (QCPAxisRect* rect : std::as_const(m_rects))
        rect->axis(QCPAxis::atBottom)->setRange(range);
    m_syncing = false;
    emit timeRangeChanged(range.lower, range.upper);
}

void SystemDetailChart::setHoverTime(double time)
{
    if (time == m_hoverTime || (std::isnan(time) && std::isnan(m_hoverTime)))
        return;
    m_hoverTime = time;
    for (QCPItemStraightLine* line : std::as_const(m_hoverLines)) {
        line->setVisible(std::isfinite(time));
        line->point1->setCoords(time, 0);
        line->point2->setCoords(time, 1);
    }
    updateHoverText();
    replot(QCustomPlot::rpQueuedReplot);
    emit hoverTimeChanged(time);
}

void SystemDetailChart::setMarkedRange(double lower, double upper)
{
    for (QCPItemRect* mark : std::as_const(m_marks)) {
        mark->setVisible(upper >= lower);
        const QCPRange y = mark->clipAxisRect()->axis(QCPAxis::atLeft)->range();
        mark->topLeft->setCoords(lower, y.upper * 10);
        mark->bottomRight->setCoords(upper, y.lower - std::abs(y.upper) * 10);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void SystemDetailChart::updateHoverText()
{
    if (!m_hoverText)
        return;
    if (!std::isfinite(m_hoverTime)) {
        m_hoverText->setVisible(false);
        return;
    }
    QStringList lines;
    lines << QDateTime::fromMSecsSinceEpoch(qint64(m_hoverTime * 1000.0)).toString(QStringLiteral("hh:mm:ss.zzz"));
    for (const auto& [name, series] : m_run.metrics) {
        if (series.isEmpty())
            continue;
        // The sample at or before the hovered time, as the line is drawn up to the next one.
        auto it = std::upper_bound(series.times.begin(), series.times.end(), m_hoverTime);
        if (it == series.times.begin())
            continue;
        const double value = series.values[std::size_t(it - series.times.begin()) - 1];
        bool shown = false;
        for (QCPAxisRect* rect : std::as_const(m_rects)) {
            for (QCPGraph* graph : rect->graphs())
                shown = shown || graph->property("metric").toString() == name;
        }
        if (shown)
            lines << QStringLiteral("%1: %2").arg(name, QLocale().toString(value, 'f', 1));
    }
    m_hoverText->setText(lines.join(QLatin1Char('\n')));
    const QCPAxisRect* first = m_rects.front();
    const double x = first->axis(QCPAxis::atBottom)->coordToPixel(m_hoverTime);
    const double room = first->rect().right() - x;
    m_hoverText->setPositionAlignment(Qt::AlignTop | (room > 220 ? Qt::AlignLeft : Qt::AlignRight));
    m_hoverText->position->setCoords(room > 220 ? x + 8 : x - 8, first->rect().top() + 4);
    m_hoverText->setVisible(true);
}

void SystemDetailChart::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QPointF pos = event->position();
    double time = std::numeric_limits<double>::quiet_NaN();
    for (QCPAxisRect* rect : std::as_const(m_rects)) {
        if (rect->rect().contains(pos.toPoint())) {
            time = rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
            break;
        }
    }
    setHoverTime(time);
}

void SystemDetailChart::leaveEvent(QEvent* event)
{
    QCustomPlot::leaveEvent(event);
    setHoverTime(std::numeric_limits<double>::quiet_NaN());
}

ChartData SystemDetailChart::chartData() const
{
    ChartData data;
    data.title = tr("System metrics of %1").arg(m_run.displayName());
    data.xLabel = tr("Wall time (s since the epoch)");
    data.seriesColumn = QStringLiteral("metric");
    data.columns = { QStringLiteral("wall_time"), QStringLiteral("value") };
    for (const auto& [name, series] : m_run.metrics) {
        ChartSeriesData s;
        s.name = name;
        s.columns = { series.times, series.values };
        data.series.push_back(std::move(s));
    }
    return data;
}

} // namespace runlens::widgets::system
