// Construction, the curves' data and smoothing, the options, fitting and resampling.
#include "widgets/scalars/scalarchart.h"

#include "models/scalars/downsample.h"
#include "models/scalars/scalarstore.h"
#include "widgets/common/chartpalette.h"
#include "widgets/scalars/scalarchartparts.h"

#include <QTimer>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::scalars {

using detail::isDrawable;
using detail::ScalarCurve;

namespace {

constexpr double kMaxSmoothing = 0.999;
constexpr int kHintMs = 1400;
const QString kRawLayer = QStringLiteral("raw");

} // namespace

ScalarChart::ScalarChart(const models::scalars::ScalarStore* store, const QString& tag, QWidget* parent)
    : ScalarChart(store, tag, ScalarChartOptions {}, parent)
{ }

ScalarChart::ScalarChart(const models::scalars::ScalarStore* store, const QString& tag,
                         const ScalarChartOptions& options, QWidget* parent)
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

void ScalarChart::setStore(const models::scalars::ScalarStore* store)
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
            const models::scalars::ScalarSeries* series = m_store->series(run, m_tag);
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
                const models::scalars::ScalarPoint& p = series->points[i];
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
        const auto indices = models::scalars::downsampleMinMax(xs, ys, range.lower, range.upper, buckets);
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

} // namespace runlens::widgets::scalars
