#include "scalarchart.h"

#include "common/chartexporter.h"
#include "common/charticons.h"
#include "common/chartpalette.h"
#include "common/theme.h"
#include "scalarchartparts.h"
#include "scalars/downsample.h"
#include "scalars/scalarstore.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QPainter>
#include <QTimer>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace runlens {

using detail::isDrawable;
using detail::ScalarCurve;

namespace {

constexpr double kMaxSmoothing = 0.999;
constexpr double kRawAlpha = 0.25;
constexpr double kSmoothedWidth = 1.8;
constexpr double kLineWidth = 1.5;
constexpr int kHintMs = 1400;
const QString kRawLayer = QStringLiteral("raw");

QString modifierText(Qt::KeyboardModifiers modifiers)
{
    QStringList parts;
    if (modifiers & Qt::ControlModifier)
        parts << ScalarChart::tr("Ctrl");
    if (modifiers & Qt::AltModifier)
        parts << ScalarChart::tr("Alt");
    if (modifiers & Qt::ShiftModifier)
        parts << ScalarChart::tr("Shift");
    if (modifiers & Qt::MetaModifier)
        parts << ScalarChart::tr("Meta");
    return parts.join(QLatin1Char('+'));
}

} // namespace

ScalarChart::ScalarChart(const ScalarStore* store, const QString& tag, QWidget* parent)
    : ScalarChart(store, tag, ScalarChartOptions {}, parent)
{ }

ScalarChart::ScalarChart(const ScalarStore* store, const QString& tag, const ScalarChartOptions& options,
                         QWidget* parent)
    : QCustomPlot(parent)
    , m_store(store)
    , m_tag(tag)
{
    m_options = options;
    m_options.smoothing = std::isfinite(options.smoothing) ? std::clamp(options.smoothing, 0.0, kMaxSmoothing) : 0.0;

    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);
    setNoAntialiasingOnDrag(true);
    setPlottingHint(QCP::phFastPolylines, true);
    setPlottingHint(QCP::phImmediateRefresh, false);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    axisRect()->setRangeZoomFactor(0.85);

    addLayer(kRawLayer, layer(QStringLiteral("main")), QCustomPlot::limBelow);
    layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmBuffered);

    plotLayout()->insertRow(0);
    m_header = new QCPLayoutGrid;
    plotLayout()->addElement(0, 0, m_header);
    plotLayout()->setRowSpacing(0);
    m_title = new QCPTextElement(this, tag);
    m_title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    m_title->setMargins(QMargins(12, 8, 12, 2));
    m_header->addElement(0, 0, m_title);
    m_header->setColumnSpacing(0);

    // The legend sits next to the title (never over the curves) and is only there when asked for.
    setAutoAddPlottableToLegend(false);
    axisRect()->insetLayout()->take(legend);
    legend->setVisible(false);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(4);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setIconSize(16, 8);
    legend->setMargins(QMargins(4, 8, 12, 2));
    legend->setRowSpacing(0);
    legend->setColumnSpacing(10);
    axisRect()->setMinimumMargins(QMargins(8, 6, 14, 6));

    m_markers = new detail::NonFiniteMarkers(this, &m_curves);
    m_overlay = new detail::HoverOverlay(this);

    m_exportMenu = new ChartExportMenu(this, this);
    m_exportMenu->setBaseName(tag);
    m_exportMenu->setDataProvider([this] { return chartData(); });
    m_exportMenu->setExportHook([this](bool exporting) {
        m_exporting = exporting;
        updateLegend();
    });

    m_hintTimer = new QTimer(this);
    m_hintTimer->setSingleShot(true);
    m_hintTimer->setInterval(kHintMs);
    connect(m_hintTimer, &QTimer::timeout, this, [this] {
        m_overlay->setHint({});
        layer(QStringLiteral("overlay"))->replot();
    });

    connect(this, &QCustomPlot::beforeReplot, this, [this] { m_replotPending = false; });
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &ScalarChart::onXRangeChanged);

    applyTheme();
    applyXAxisMode();
    m_options.logY = !options.logY; // force setLogY to apply the axis settings
    m_autoFit = true;
    setLogY(options.logY);
    refreshData();
}

ScalarChart::~ScalarChart()
{
    // A legend outside every layout would otherwise outlive the plot's own teardown.
    if (legend && !m_header->hasElement(0, 1)) {
        legend->clearItems();
        delete legend;
    }
}

void ScalarChart::setStore(const ScalarStore* store)
{
    m_store = store;
    refreshData();
}

ScalarCurve* ScalarChart::curve(const QString& run) const
{
    for (const auto& c : m_curves) {
        if (c->run == run)
            return c.get();
    }
    return nullptr;
}

void ScalarChart::refreshData()
{
    std::vector<std::unique_ptr<ScalarCurve>> next;
    QString displayName;
    QString description;
    if (m_store) {
        const QStringList runs = m_store->runs();
        for (const QString& run : runs) {
            const ScalarSeries* series = m_store->series(run, m_tag);
            if (!series || series->isEmpty())
                continue;
            std::unique_ptr<ScalarCurve> c;
            for (auto& existing : m_curves) {
                if (existing && existing->run == run) {
                    c = std::move(existing);
                    break;
                }
            }
            if (!c) {
                c = std::make_unique<ScalarCurve>();
                c->run = run;
                c->label = m_store->runDisplayName(run);
                c->raw = addGraph();
                c->raw->setLayer(kRawLayer);
                c->smooth = addGraph();
                for (QCPGraph* g : { c->raw, c->smooth }) {
                    g->setName(c->label);
                    g->setAntialiased(true);
                    g->setAntialiasedFill(false);
                    g->setLineStyle(QCPGraph::lsLine);
                }
            }
            const std::size_t n = series->points.size();
            c->steps.resize(n);
            c->wallTimes.resize(n);
            c->values.resize(n);
            c->nonFiniteCount = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const ScalarPoint& p = series->points[i];
                c->steps[i] = p.step;
                c->wallTimes[i] = p.wallTime;
                c->values[i] = p.value;
                if (!std::isfinite(p.value))
                    ++c->nonFiniteCount;
            }
            c->firstWallTime = series->points.front().wallTime;
            c->color = runColor(m_store->runIndex(run));
            c->visible = !m_options.hiddenRuns.contains(run);
            c->updateX(m_options.xAxisMode);
            c->updateSmoothing(m_options.smoothing);
            if (displayName.isEmpty() && !series->metadata.displayName.isEmpty())
                displayName = series->metadata.displayName;
            if (description.isEmpty() && !series->metadata.description.isEmpty())
                description = series->metadata.description;
            next.push_back(std::move(c));
        }
    }
    for (auto& old : m_curves) {
        if (!old)
            continue;
        removeGraph(old->raw);
        removeGraph(old->smooth);
    }
    m_curves = std::move(next);
    m_displayName = displayName;
    m_description = description;
    for (auto& c : m_curves)
        applyCurveStyle(*c);
    updateTitle();
    updateLegend();
    if (m_autoFit)
        fitToData();
    else
        resample();
    updateMarker();
    scheduleReplot();
}

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

void ScalarChart::setOptions(const ScalarChartOptions& options)
{
    m_options = options;
    m_options.smoothing = std::isfinite(options.smoothing) ? std::clamp(options.smoothing, 0.0, kMaxSmoothing) : 0.0;
    m_options.logY = !options.logY; // force setLogY to apply the axis settings
    setLogY(options.logY);
    applyXAxisMode();
    m_autoFit = true;
    refreshData();
}

void ScalarChart::setSmoothing(double weight)
{
    weight = std::isfinite(weight) ? std::clamp(weight, 0.0, kMaxSmoothing) : 0.0;
    if (weight == m_options.smoothing)
        return;
    m_options.smoothing = weight;
    for (auto& c : m_curves) {
        c->updateSmoothing(weight);
        applyCurveStyle(*c);
    }
    resample();
    scheduleReplot();
}

void ScalarChart::setXAxisMode(XAxisMode mode)
{
    if (mode == m_options.xAxisMode)
        return;
    m_options.xAxisMode = mode;
    applyXAxisMode();
    for (auto& c : m_curves)
        c->updateX(mode);
    clearHover();
    fitToData(); // the old range is in other units
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

void ScalarChart::setLogY(bool enabled)
{
    const bool changed = enabled != m_options.logY;
    m_options.logY = enabled;
    yAxis->setScaleType(enabled ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (enabled) {
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        ticker->setLogBase(10);
        ticker->setSubTickCount(8);
        yAxis->setTicker(ticker);
        yAxis->setNumberFormat(QStringLiteral("eb"));
        yAxis->setNumberPrecision(0);
    } else {
        auto ticker = QSharedPointer<QCPAxisTicker>::create();
        ticker->setTickCount(5);
        yAxis->setTicker(ticker);
        yAxis->setNumberFormat(QStringLiteral("g"));
        yAxis->setNumberPrecision(4);
    }
    if (changed)
        fitToData();
}

void ScalarChart::setIgnoreOutliers(bool enabled)
{
    if (enabled == m_options.ignoreOutliers)
        return;
    m_options.ignoreOutliers = enabled;
    fitToData();
}

void ScalarChart::setRunVisible(const QString& run, bool visible)
{
    if (visible == isRunVisible(run))
        return;
    if (visible)
        m_options.hiddenRuns.remove(run);
    else
        m_options.hiddenRuns.insert(run);
    if (ScalarCurve* c = curve(run)) {
        c->visible = visible;
        applyCurveStyle(*c);
        updateLegend();
        if (m_autoFit)
            fitToData();
        else
            resample();
        scheduleReplot();
    }
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

void ScalarChart::fitToData()
{
    m_autoFit = true;
    const detail::FitRanges fit = detail::fitRanges(m_curves, m_options.logY, m_options.ignoreOutliers);
    yAxis->setRange(fit.y);
    const bool unchanged = xAxis->range() == fit.x;
    xAxis->setRange(fit.x); // resamples through onXRangeChanged when the range changes
    if (unchanged)
        resample();
    clearHover();
    scheduleReplot();
}

void ScalarChart::setXRange(double lower, double upper)
{
    if (!std::isfinite(lower) || !std::isfinite(upper) || !(upper > lower))
        return;
    fitToData();
    m_autoFit = false;
    xAxis->setRange(lower, upper);
    scheduleReplot();
}

void ScalarChart::onXRangeChanged(const QCPRange& range)
{
    if (m_options.xAxisMode == XAxisMode::WallTime) {
        if (auto ticker = xAxis->ticker().dynamicCast<QCPAxisTickerDateTime>()) {
            const double span = range.size();
            ticker->setDateTimeFormat(span < 86400.0 * 1.5     ? QStringLiteral("HH:mm")
                                          : span < 86400.0 * 4 ? QStringLiteral("MMM d\nHH:mm")
                                                               : QStringLiteral("MMM d"));
        }
    }
    resample();
}

void ScalarChart::resample()
{
    if (m_resampling)
        return;
    m_resampling = true;
    int buckets = axisRect()->width();
    if (buckets < 50)
        buckets = std::max(width(), 400);
    const QCPRange range = xAxis->range();
    for (auto& c : m_curves)
        resampleCurve(*c, range, buckets);
    m_resampling = false;
}

void ScalarChart::resampleCurve(ScalarCurve& c, const QCPRange& range, int buckets)
{
    if (!c.visible) {
        c.raw->data()->clear();
        c.smooth->data()->clear();
        return;
    }
    const bool logY = m_options.logY;
    const auto xs = c.xAscending();
    auto build = [&](std::span<const double> ys) {
        const auto indices = downsampleMinMax(xs, ys, range.lower, range.upper, buckets);
        QVector<QCPGraphData> data;
        data.reserve(qsizetype(indices.size()));
        for (std::size_t i : indices) {
            if (isDrawable(ys[i], logY)) // NaN/Inf are marked at the edges, never drawn as line points
                data.append(QCPGraphData(xs[i], ys[i]));
        }
        return data;
    };
    // Antialiasing a dense zigzag (several points per pixel column) costs a lot and changes little on screen;
    // sparse lines and the smoothed curve keep it.
    const auto dense = [buckets](const QVector<QCPGraphData>& data) { return data.size() > buckets * 3 / 2; };
    const auto smoothedData = build(c.smoothedAscending());
    c.smooth->setAntialiased(m_options.smoothing > 0.0 || !dense(smoothedData));
    c.smooth->data()->set(smoothedData, true);
    if (m_options.smoothing > 0.0) {
        const auto rawData = build(c.valuesAscending());
        c.raw->setAntialiased(!dense(rawData));
        c.raw->data()->set(rawData, true);
    } else {
        c.raw->data()->clear();
    }
}

void ScalarChart::scheduleReplot()
{
    m_replotPending = true;
    update();
}

void ScalarChart::replotIfNeeded()
{
    if (m_replotPending)
        replot(QCustomPlot::rpQueuedRefresh);
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

QStringList ScalarChart::runs() const
{
    QStringList out;
    for (const auto& c : m_curves)
        out << c->run;
    return out;
}

QCPGraph* ScalarChart::rawGraph(const QString& run) const
{
    const ScalarCurve* c = curve(run);
    return c ? c->raw : nullptr;
}

QCPGraph* ScalarChart::smoothedGraph(const QString& run) const
{
    const ScalarCurve* c = curve(run);
    return c ? c->smooth : nullptr;
}

int ScalarChart::pointCount(const QString& run) const
{
    const ScalarCurve* c = curve(run);
    return c ? int(c->size()) : 0;
}

int ScalarChart::nonFiniteCount(const QString& run) const
{
    const ScalarCurve* c = curve(run);
    return c ? int(c->nonFiniteCount) : 0;
}

QList<QPointF> ScalarChart::nonFiniteMarkerPositions() const
{
    QList<QPointF> out;
    for (const auto& hit : m_markers->markerPositions())
        out << hit.pos;
    return out;
}

QString ScalarChart::hoverTextAt(const QPointF& pos) const
{
    if (!axisRect()->rect().contains(pos.toPoint()))
        return {};
    return hoverTextForKey(xAxis->pixelToCoord(pos.x()));
}

QString ScalarChart::hoverTextForKey(double key) const
{
    return detail::hoverTable(m_curves, key, m_tag);
}

ChartData ScalarChart::chartData() const
{
    ChartData data;
    data.title = m_tag;
    data.xLabel = scalarformat::axisTitle(m_options.xAxisMode);
    data.yLabel = m_displayName.isEmpty() ? m_tag : m_displayName;
    data.seriesColumn = QStringLiteral("run");
    data.columns = { QStringLiteral("step"), QStringLiteral("wall_time"), QStringLiteral("relative_time"),
                     QStringLiteral("value"), QStringLiteral("smoothed") };
    for (const auto& c : m_curves) {
        if (!c->visible)
            continue;
        ChartSeriesData s;
        s.name = c->label;
        std::vector<double> steps(c->size());
        std::vector<double> relative(c->size());
        for (std::size_t i = 0; i < c->size(); ++i) {
            steps[i] = double(c->steps[i]);
            relative[i] = c->wallTimes[i] - c->firstWallTime;
        }
        s.columns = { std::move(steps), c->wallTimes, std::move(relative), c->values, c->smoothed };
        data.series.push_back(std::move(s));
    }
    return data;
}

QMenu* ScalarChart::createContextMenu(QWidget* parent)
{
    auto* menu = new QMenu(parent);
    QAction* fit = menu->addAction(chartIcon(QStringLiteral("chart-fit")), tr("Fit to Data"));
    fit->setToolTip(tr("Show all data (double-click the chart to do the same)"));
    connect(fit, &QAction::triggered, this, [this] {
        fitToData();
        emit viewChanged();
    });
    QAction* log = menu->addAction(chartIcon(QStringLiteral("chart-log-scale")), tr("Logarithmic Y Axis"));
    log->setCheckable(true);
    log->setChecked(m_options.logY);
    connect(log, &QAction::toggled, this, [this](bool on) {
        setLogY(on);
        emit logYToggled(on);
    });
    QAction* copy = menu->addAction(chartIcon(QStringLiteral("chart-copy")), tr("Copy Image"));
    connect(copy, &QAction::triggered, this,
            [this] { QApplication::clipboard()->setPixmap(toPixmap(0, 0, ChartExporter::kPngScale)); });
    menu->addSeparator();
    m_exportMenu->addTo(menu);
    return menu;
}

void ScalarChart::contextMenuEvent(QContextMenuEvent* event)
{
    clearHover();
    const std::unique_ptr<QMenu> menu(createContextMenu(this));
    menu->exec(event->globalPos());
}

void ScalarChart::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        m_dragging = true;
        clearHover();
    }
    QCustomPlot::mousePressEvent(event);
}

void ScalarChart::mouseMoveEvent(QMouseEvent* event)
{
    if (m_dragging && (event->buttons() & Qt::LeftButton)) {
        m_autoFit = false;
        QCustomPlot::mouseMoveEvent(event);
        return;
    }
    m_dragging = false;
    QCustomPlot::mouseMoveEvent(event);
    setHoverPosition(event->position());
}

void ScalarChart::mouseDoubleClickEvent(QMouseEvent* event)
{
    QCustomPlot::mouseDoubleClickEvent(event);
    m_dragging = false;
    fitToData();
    emit viewChanged();
}

void ScalarChart::wheelEvent(QWheelEvent* event)
{
    if (m_wheelZoomModifiers != Qt::NoModifier && (event->modifiers() & m_wheelZoomModifiers) != m_wheelZoomModifiers) {
        showHint(tr("Hold %1 and scroll to zoom").arg(modifierText(m_wheelZoomModifiers)));
        event->ignore(); // let the page scroll
        return;
    }
    m_autoFit = false;
    clearHover();
    QCustomPlot::wheelEvent(event);
    emit viewChanged();
}

void ScalarChart::leaveEvent(QEvent* event)
{
    clearHover();
    QCustomPlot::leaveEvent(event);
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

bool ScalarChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (m_title->outerRect().contains(help->pos())) {
            QString tip = QStringLiteral("<b>%1</b>").arg(m_tag.toHtmlEscaped());
            if (!m_displayName.isEmpty() && m_displayName != m_tag)
                tip += QStringLiteral("<br>") + m_displayName.toHtmlEscaped();
            if (!m_description.isEmpty())
                tip += QStringLiteral("<br>") + m_description.toHtmlEscaped();
            QToolTip::showText(help->globalPos(), tip, this);
            return true;
        }
        // The plot area shows its tooltip while the mouse moves (see setHoverPosition).
        return true;
    }
    return QCustomPlot::event(event);
}

void ScalarChart::setHoverPosition(const QPointF& pos)
{
    if (!axisRect()->rect().contains(pos.toPoint()) || m_curves.empty()) {
        clearHover();
        return;
    }
    const double key = xAxis->pixelToCoord(pos.x());
    std::vector<detail::HoverOverlay::Dot> dots;
    for (const auto& c : m_curves) {
        if (!c->visible)
            continue;
        const std::ptrdiff_t p = c->nearest(key);
        if (p < 0)
            continue;
        const std::size_t i = c->pointIndex(std::size_t(p));
        const double y = c->smoothed[i];
        if (isDrawable(y, m_options.logY))
            dots.push_back({ c->x[i], y, c->color });
    }
    m_overlay->setHover(key, std::move(dots));
    layer(QStringLiteral("overlay"))->replot();
    const QString text = hoverTextForKey(key);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(mapToGlobal(pos.toPoint()) + QPoint(18, 18), text, this);
}

void ScalarChart::clearHover()
{
    if (!m_overlay || !m_overlay->hasHover())
        return;
    m_overlay->clearHover();
    layer(QStringLiteral("overlay"))->replot();
    QToolTip::hideText();
}

void ScalarChart::showHint(const QString& text)
{
    m_overlay->setHint(text);
    layer(QStringLiteral("overlay"))->replot();
    m_hintTimer->start();
}

// -------------------------------------------------------------------------------------------------------------

std::unique_ptr<ScalarChart> createScalarChart(const ScalarStore& store, const QString& tag,
                                               const ScalarChartOptions& options, QSize size)
{
    if (size.isEmpty())
        size = ChartExporter::kDefaultSize;
    auto chart = std::make_unique<ScalarChart>(&store, tag, options);
    chart->setLegendVisible(true);
    chart->resize(size);
    chart->setViewport(QRect(QPoint(0, 0), size));
    chart->replot(QCustomPlot::rpQueuedRefresh); // lays out the axes, so the next fit knows the plot width
    chart->fitToData();
    chart->replot(QCustomPlot::rpQueuedRefresh);
    return chart;
}

bool exportScalarChart(const ScalarStore& store, const QString& tag, const QString& fileName,
                       const ScalarChartOptions& options, QSize size, QString* errorMessage)
{
    if (!store.tags().contains(tag)) {
        if (errorMessage)
            *errorMessage = ScalarChart::tr("There is no scalar tag \"%1\". Available tags: %2.")
                                .arg(tag, store.tags().join(QStringLiteral(", ")));
        return false;
    }
    const auto chart = createScalarChart(store, tag, options, size);
    return ChartExporter::exportChart(chart.get(), chart->chartData(), fileName, size, errorMessage);
}

} // namespace runlens
