#include "widgets/memory/memorychart.h"

#include "models/core/workerpool.h"
#include "models/memory/memoryanalysis.h"
#include "models/memory/memorydownsample.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/chartstyle.h"
#include "widgets/memory/memoryaxis.h"

#include <QHelpEvent>
#include <QToolTip>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::memory {

using models::memory::MemoryAxis;
using models::memory::MemoryDevice;
using models::memory::MemorySeries;

namespace {

/// Curves longer than this are downsampled on a worker: a pass over them takes several milliseconds.
constexpr std::size_t kAsyncPoints = 200'000;
constexpr int kDragThreshold = 4;
constexpr double kWheelStep = 0.8;
constexpr double kNsPerMs = 1e6;
constexpr int kDenseCurve = 1000; ///< drawn points above which a curve is drawn without antialiasing

QColor categoryColor(int category)
{
    return runColor(category);
}

/// What a worker needs to downsample the curves for one range; keeps the profiles alive.
struct ResampleJob
{
    std::vector<std::shared_ptr<const models::memory::MemoryProfile>> profiles;
    std::vector<const MemorySeries*> lines;
    std::vector<std::vector<const MemorySeries*>> stacks;
    std::int64_t x0 = 0;
    std::int64_t x1 = 0;
    std::int64_t dataEnd = 0; ///< the last x of all shown curves
    std::int64_t origin = 0;
    double scale = 1.0;
};

struct ResampleResult
{
    std::vector<QVector<QCPGraphData>> lines;
    std::vector<std::vector<QVector<QCPGraphData>>> stacks; ///< cumulative values, bottom layer first
};

ResampleResult runResample(const ResampleJob& job)
{
    ResampleResult result;
    const auto key = [&](std::int64_t x) { return double(x - job.origin) / job.scale; };
    result.lines.reserve(job.lines.size());
    for (const MemorySeries* series : job.lines) {
        QVector<QCPGraphData> data;
        const auto indices = models::memory::downsampleIndices(*series, job.x0, job.x1);
        data.reserve(qsizetype(indices.size()));
        for (std::size_t i : indices)
            data.append(QCPGraphData(key(series->x[i]), series->bytes[i]));
        // A curve holds its last value to the end of the data (a reserved pool that stopped growing).
        const std::int64_t end = std::min(job.x1, job.dataEnd);
        if (!indices.empty() && series->x[indices.back()] < end && indices.back() + 1 == series->size())
            data.append(QCPGraphData(key(end), series->bytes.back()));
        result.lines.push_back(std::move(data));
    }
    for (const auto& layers : job.stacks) {
        // The layers share no x: stack them on the union of their drawn samples, each layer's value taken
        // from its full curve, so the total is exact at every drawn x.
        int nonEmpty = 0;
        for (const MemorySeries* layer : layers)
            nonEmpty += layer->empty() ? 0 : 1;
        const int perLayer = std::max(16, models::memory::kMaxCurvePoints / std::max(1, nonEmpty));
        std::vector<std::int64_t> xs;
        for (const MemorySeries* layer : layers) {
            for (std::size_t i : models::memory::downsampleIndices(*layer, job.x0, job.x1, perLayer))
                xs.push_back(layer->x[i]);
        }
        std::sort(xs.begin(), xs.end());
        xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
        std::vector<double> total(xs.size(), 0.0);
        std::vector<QVector<QCPGraphData>> graphs;
        for (const MemorySeries* layer : layers) {
            QVector<QCPGraphData> data;
            data.reserve(qsizetype(xs.size()));
            for (std::size_t i = 0; i < xs.size(); ++i) {
                total[i] += models::memory::valueAt(*layer, xs[i]);
                data.append(QCPGraphData(key(xs[i]), total[i]));
            }
            graphs.push_back(std::move(data));
        }
        result.stacks.push_back(std::move(graphs));
    }
    return result;
}

QPen curvePen(const QColor& color, Qt::PenStyle style, double width = 1.5)
{
    QPen pen(color, width);
    pen.setStyle(style);
    pen.setCosmetic(true);
    return pen;
}

} // namespace

MemoryChart::MemoryChart(QWidget* parent)
    : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("memoryChart"));
    setMinimumHeight(120);
    setMouseTracking(true);
    setNoAntialiasingOnDrag(true);
    setPlottingHint(QCP::phCacheLabels, true);
    applyTheme();

    m_band = new QCPItemRect(this);
    m_band->setLayer(QStringLiteral("grid"));
    m_band->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_band->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_band->topLeft->setCoords(0, 0);
    m_band->bottomRight->setCoords(0, 1);
    QColor bandColor = palette().color(QPalette::Highlight);
    bandColor.setAlpha(50);
    m_band->setBrush(bandColor);
    m_band->setPen(QPen(palette().color(QPalette::Highlight), 1));
    m_band->setVisible(false);
    m_band->setSelectable(false);

    m_cursor = new QCPItemStraightLine(this);
    m_cursor->setLayer(QStringLiteral("overlay"));
    m_cursor->setPen(
        QPen(blendColors(palette().color(QPalette::Text), palette().color(QPalette::Base), 0.3), 1, Qt::DashLine));
    m_cursor->point1->setCoords(0, 0);
    m_cursor->point2->setCoords(0, 1);
    m_cursor->setVisible(false);
    m_cursor->setSelectable(false);

    m_relativeNote = new QCPItemText(this);
    m_relativeNote->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_relativeNote->position->setCoords(0.01, 0.02);
    m_relativeNote->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_relativeNote->setText(tr("relative (unknown baseline)"));
    m_relativeNote->setColor(blendColors(palette().color(QPalette::Text), palette().color(QPalette::Base), 0.3));
    m_relativeNote->setVisible(false);
    m_relativeNote->setSelectable(false);
}

MemoryChart::~MemoryChart() = default;

void MemoryChart::applyTheme()
{
    const ChartChrome chrome = styleChartAxes(this, font(), true);
    xAxis->grid()->setVisible(false);
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new MemoryByteTicker));

    // Legend in a row under the chart so it never hides the curves.
    legend->setVisible(true);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setFont(chrome.tickFont);
    legend->setTextColor(chrome.muted);
    legend->setIconSize(12, 10);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(5);
    axisRect()->insetLayout()->take(legend);
    axisRect()->insetLayout()->simplify();
    plotLayout()->addElement(1, 0, legend);
    plotLayout()->setRowStretchFactor(1, 0.001);
    legend->setMargins(QMargins(8, 0, 8, 6));
}

void MemoryChart::clearCurves()
{
    ++m_generation;
    m_pending = 0;
    m_lines.clear();
    m_stacks.clear();
    clearGraphs();
    m_peakGraph = nullptr;
    m_oomGraph = nullptr;
    for (QCPItemStraightLine* line : std::as_const(m_capacityLines))
        removeItem(line);
    m_capacityLines.clear();
}

void MemoryChart::setDevices(std::vector<MemoryChartDevice> devices, MemoryAxis axis, std::int64_t origin)
{
    clearCurves();
    m_devices = std::move(devices);
    m_axis = axis;
    m_origin = axis == MemoryAxis::TimeNs ? origin : 0;
    m_localSelection = {};
    m_dataRange = {};
    for (const MemoryChartDevice& d : m_devices) {
        const MemoryDevice& device = d.data();
        auto extend = [this](const MemorySeries& s) {
            if (s.empty())
                return;
            m_dataRange = m_dataRange.valid()
                ? models::TimeSpan { std::min(m_dataRange.start, s.x.front()), std::max(m_dataRange.end, s.x.back()) }
                : models::TimeSpan { s.x.front(), s.x.back() };
        };
        extend(device.allocated);
        extend(device.reserved);
        extend(device.active);
        for (const MemorySeries& c : device.categories)
            extend(c);
    }
    if (m_dataRange.valid() && m_dataRange.end == m_dataRange.start)
        m_dataRange.end = m_dataRange.start + 1;
    xAxis->setLabel(axis == MemoryAxis::NodeIndex ? tr("Node (execution order)") : tr("Time (ms)"));
    buildCurves();
    buildMarkers();
    fitValueAxis();
    connectModel();
    if (isLinked()) {
        const models::TimeSpan v = m_model->visibleRange();
        applyVisibleRange(v.start, v.end);
    } else {
        m_localVisible = m_dataRange;
        applyVisibleRange(m_dataRange.start, m_dataRange.end);
    }
    updateBand();
    setCursorX(isLinked() ? m_model->hoverTime() : models::TimeRangeModel::kNoHover);
}

void MemoryChart::buildCurves()
{
    const bool overlay = m_devices.size() > 1;
    for (std::size_t d = 0; d < m_devices.size(); ++d) {
        const MemoryDevice& device = m_devices[d].data();
        const QString prefix = overlay ? m_devices[d].label + QLatin1Char(' ') : QString();
        const bool stacked = !overlay && !device.categories.empty();
        if (stacked) {
            StackCurve stack;
            QCPGraph* below = nullptr;
            for (std::size_t c = 0; c < device.categories.size(); ++c) {
                auto* graph = addGraph();
                graph->setName(c < std::size_t(models::memory::kMemoryCategoryCount)
                                   ? models::memory::memoryCategoryName(models::memory::MemoryCategory(c))
                                   : device.categories[c].name);
                graph->setLineStyle(QCPGraph::lsStepLeft);
                QColor color = categoryColor(int(c));
                graph->setPen(curvePen(color, Qt::SolidLine, 1.0));
                color.setAlpha(150);
                graph->setBrush(color);
                if (below)
                    graph->setChannelFillGraph(below);
                below = graph;
                stack.layers.push_back(&device.categories[c]);
                stack.graphs.push_back(graph);
            }
            m_stacks.push_back(std::move(stack));
        }
        const QColor base = runColor(int(d));
        struct Kind
        {
            const MemorySeries* series;
            QString name;
            Qt::PenStyle style;
            int colorOffset;
        };
        const Kind kinds[] = {
            { &device.allocated, tr("Allocated"), Qt::SolidLine, 0 },
            { &device.reserved, tr("Reserved"), Qt::DashLine, 1 },
            { &device.active, tr("Active"), Qt::DotLine, 2 },
        };
        for (const Kind& kind : kinds) {
            // A memory timeline's allocated curve is the top of its stack.
            if (kind.series->empty() || (stacked && kind.series == &device.allocated))
                continue;
            auto* graph = addGraph();
            graph->setName(prefix + kind.name);
            graph->setLineStyle(QCPGraph::lsStepLeft);
            graph->setPen(curvePen(overlay ? base : runColor(kind.colorOffset), overlay ? kind.style : Qt::SolidLine));
            m_lines.push_back({ kind.series, graph });
        }
    }
}

void MemoryChart::buildMarkers()
{
    bool relative = false;
    m_peakGraph = addGraph();
    m_peakGraph->setName(tr("Peak"));
    m_peakGraph->setLineStyle(QCPGraph::lsNone);
    m_peakGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, palette().color(QPalette::Text),
                                                 palette().color(QPalette::Base), 8));
    m_peakGraph->removeFromLegend();
    m_oomGraph = addGraph();
    m_oomGraph->setName(tr("Out of memory"));
    m_oomGraph->setLineStyle(QCPGraph::lsNone);
    m_oomGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangleInverted, alertColor(), alertColor(), 10));
    const QPen capacityPen = curvePen(alertColor(), Qt::DashLine, 1.0);
    for (const MemoryChartDevice& d : m_devices) {
        const MemoryDevice& device = d.data();
        relative = relative || device.relative;
        const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
        if (peak.valid)
            m_peakGraph->addData(keyOf(peak.x), peak.bytes);
        const MemorySeries& level = device.allocated.empty() ? device.reserved : device.allocated;
        for (const models::memory::OomMarker& oom : device.ooms) {
            // At the level the allocation failed from; at the capacity when the curve is unknown.
            const double y = level.empty() ? double(device.capacity) : models::memory::valueAt(level, oom.x);
            m_oomGraph->addData(keyOf(oom.x), y);
        }
        if (device.capacity > 0) {
            auto* line = new QCPItemStraightLine(this);
            line->setPen(capacityPen);
            line->point1->setCoords(0, double(device.capacity));
            line->point2->setCoords(1, double(device.capacity));
            line->setSelectable(false);
            m_capacityLines << line;
        }
    }
    if (m_oomGraph->dataCount() == 0)
        m_oomGraph->removeFromLegend();
    m_relativeNote->setVisible(relative);
}

void MemoryChart::fitValueAxis()
{
    double low = 0;
    double high = 0;
    for (const LineCurve& line : m_lines) {
        const auto [mn, mx] = std::minmax_element(line.series->bytes.begin(), line.series->bytes.end());
        if (mn != line.series->bytes.end()) {
            low = std::min(low, *mn);
            high = std::max(high, *mx);
        }
    }
    double capacity = 0;
    for (const MemoryChartDevice& d : m_devices) {
        const models::memory::MemoryPeak peak = models::memory::devicePeak(d.data());
        if (peak.valid)
            high = std::max(high, peak.bytes);
        capacity = std::max(capacity, double(d.data().capacity));
    }
    // The capacity joins the range only when it is near the curves: a 80 GB line would flatten 2 GB of use.
    if (capacity > 0 && capacity <= high * 2)
        high = std::max(high, capacity);
    if (high <= low)
        high = low + 1024;
    const double pad = (high - low) * 0.06;
    yAxis->setRange(low < 0 ? low - pad : 0, high + pad);
}

void MemoryChart::setTimeRangeModel(models::TimeRangeModel* model)
{
    if (model == m_model)
        return;
    m_model = model;
    connectModel();
    if (isLinked()) {
        const models::TimeSpan v = m_model->visibleRange();
        applyVisibleRange(v.start, v.end);
        updateBand();
    }
}

void MemoryChart::connectModel()
{
    for (const auto& c : std::as_const(m_modelConnections))
        disconnect(c);
    m_modelConnections.clear();
    if (!m_model)
        return;
    m_modelConnections << connect(m_model, &models::TimeRangeModel::visibleRangeChanged, this,
                                  [this](qint64 s, qint64 e) {
                                      if (isLinked())
                                          applyVisibleRange(s, e);
                                  });
    m_modelConnections << connect(m_model, &models::TimeRangeModel::traceRangeChanged, this, [this] {
        if (isLinked()) {
            const models::TimeSpan v = m_model->visibleRange();
            applyVisibleRange(v.start, v.end);
        }
        updateBand();
    });
    m_modelConnections << connect(m_model, &models::TimeRangeModel::selectionChanged, this, [this](qint64 s, qint64 e) {
        if (!isLinked())
            return;
        updateBand();
        emit selectionChanged(s, e);
    });
    m_modelConnections << connect(m_model, &models::TimeRangeModel::hoverTimeChanged, this, [this](qint64 t) {
        if (isLinked())
            setCursorX(t);
    });
    m_modelConnections << connect(m_model, &QObject::destroyed, this, [this] {
        m_modelConnections.clear();
        m_localVisible = m_dataRange;
    });
}

bool MemoryChart::isLinked() const
{
    if (!m_model || m_axis != MemoryAxis::TimeNs || !m_dataRange.valid())
        return false;
    const models::TimeSpan trace = m_model->traceRange();
    return trace.duration() > 0 && m_dataRange.start <= trace.end && m_dataRange.end >= trace.start;
}

double MemoryChart::keyOf(std::int64_t x) const
{
    return m_axis == MemoryAxis::TimeNs ? double(x - m_origin) / kNsPerMs : double(x);
}

std::int64_t MemoryChart::xOf(double key) const
{
    return m_axis == MemoryAxis::TimeNs ? m_origin + std::llround(key * kNsPerMs) : std::llround(key);
}

models::TimeSpan MemoryChart::visibleRange() const
{
    return isLinked() ? m_model->visibleRange() : m_localVisible;
}

void MemoryChart::setVisibleRange(std::int64_t start, std::int64_t end, bool recordUndo)
{
    if (isLinked()) {
        m_model->setVisibleRange(start, end, recordUndo);
        return;
    }
    if (!m_dataRange.valid())
        return;
    // Keep at least a few units in view and stay within the data.
    const std::int64_t minimum = m_axis == MemoryAxis::TimeNs ? models::TimeRangeModel::kMinimumSpan : 4;
    if (end - start < minimum) {
        const std::int64_t mid = start + (end - start) / 2;
        start = mid - minimum / 2;
        end = start + minimum;
    }
    const std::int64_t span = std::min(end - start, m_dataRange.duration());
    start = std::clamp(start, m_dataRange.start, m_dataRange.end - span);
    m_localVisible = { start, start + span };
    applyVisibleRange(m_localVisible.start, m_localVisible.end);
}

void MemoryChart::fitAll()
{
    if (isLinked())
        m_model->fitAll();
    else
        setVisibleRange(m_dataRange.start, m_dataRange.end);
}

void MemoryChart::applyVisibleRange(std::int64_t start, std::int64_t end)
{
    if (end <= start)
        end = start + 1;
    xAxis->setRange(keyOf(start), keyOf(end));
    resample();
    emit visibleRangeChanged(start, end);
}

models::TimeSpan MemoryChart::selection() const
{
    return isLinked() ? m_model->selection() : m_localSelection;
}

void MemoryChart::setSelection(std::int64_t start, std::int64_t end)
{
    if (isLinked()) {
        m_model->setSelection(start, end);
        return;
    }
    const models::TimeSpan span { std::min(start, end), std::max(start, end) };
    if (span == m_localSelection)
        return;
    m_localSelection = span;
    updateBand();
    emit selectionChanged(span.start, span.end);
}

void MemoryChart::clearSelection()
{
    if (isLinked()) {
        m_model->clearSelection();
        return;
    }
    if (!m_localSelection.valid())
        return;
    m_localSelection = {};
    updateBand();
    emit selectionChanged(0, -1);
}

void MemoryChart::updateBand()
{
    const models::TimeSpan s = selection();
    m_band->setVisible(s.valid() && !m_devices.empty());
    if (s.valid()) {
        m_band->topLeft->setCoords(keyOf(s.start), 0);
        m_band->bottomRight->setCoords(keyOf(s.end), 1);
    }
    replot(rpQueuedReplot);
}

void MemoryChart::setCursorX(std::int64_t x)
{
    const bool visible = x != models::TimeRangeModel::kNoHover && !m_devices.empty();
    if (!visible && !m_cursor->visible())
        return;
    m_cursor->setVisible(visible);
    if (visible) {
        m_cursor->point1->setCoords(keyOf(x), 0);
        m_cursor->point2->setCoords(keyOf(x), 1);
    }
    // The cursor has a layer of its own: moving it repaints only that layer.
    layer(QStringLiteral("overlay"))->replot();
}

void MemoryChart::resample()
{
    ResampleJob job;
    const models::TimeSpan v = visibleRange();
    job.x0 = v.start;
    job.x1 = std::max(v.end, v.start + 1);
    job.dataEnd = m_dataRange.end;
    job.origin = m_axis == MemoryAxis::TimeNs ? m_origin : 0;
    job.scale = m_axis == MemoryAxis::TimeNs ? kNsPerMs : 1.0;
    std::size_t longest = 0;
    for (const MemoryChartDevice& d : m_devices)
        job.profiles.push_back(d.profile);
    for (const LineCurve& line : m_lines) {
        job.lines.push_back(line.series);
        longest = std::max(longest, line.series->size());
    }
    for (const StackCurve& stack : m_stacks) {
        job.stacks.push_back(stack.layers);
        for (const MemorySeries* layer : stack.layers)
            longest = std::max(longest, layer->size());
    }
    const quint64 generation = ++m_generation;
    auto apply = [this, generation](const ResampleResult& result) {
        if (generation != m_generation)
            return;
        for (std::size_t i = 0; i < m_lines.size() && i < result.lines.size(); ++i) {
            QCPGraph* graph = m_lines[i].graph;
            graph->data()->set(result.lines[i], true);
            // Dense curves are a wall of steps: thin aliased lines draw them several times faster and
            // look the same; sparse ones keep the smooth look.
            const bool dense = graph->dataCount() > kDenseCurve;
            QPen pen = graph->pen();
            pen.setWidthF(dense ? 1.0 : 1.5);
            graph->setPen(pen);
            graph->setAntialiased(!dense);
        }
        for (std::size_t s = 0; s < m_stacks.size() && s < result.stacks.size(); ++s) {
            for (std::size_t g = 0; g < m_stacks[s].graphs.size() && g < result.stacks[s].size(); ++g)
                m_stacks[s].graphs[g]->data()->set(result.stacks[s][g], true);
        }
        replot(rpQueuedReplot);
        emit resampled();
    };
    if (longest <= kAsyncPoints) {
        m_pending = 0;
        apply(runResample(job));
        return;
    }
    // Until the worker is done the previous points are drawn, stretched to the new range.
    ++m_pending;
    replot(rpQueuedReplot);
    QtConcurrent::run(models::workerPool(), [job = std::move(job)] {
        return runResample(job);
    }).then(this, [this, generation, apply](const ResampleResult& result) {
        if (generation != m_generation)
            return;
        m_pending = 0;
        apply(result);
    });
}

QList<QCPGraph*> MemoryChart::curveGraphs() const
{
    QList<QCPGraph*> graphs;
    for (const StackCurve& stack : m_stacks)
        graphs += QList<QCPGraph*>(stack.graphs.begin(), stack.graphs.end());
    for (const LineCurve& line : m_lines)
        graphs << line.graph;
    return graphs;
}

int MemoryChart::maxDrawnPoints() const
{
    int most = 0;
    for (QCPGraph* graph : curveGraphs())
        most = std::max(most, graph->dataCount());
    return most;
}

QString MemoryChart::hoverText(std::int64_t x) const
{
    if (m_devices.empty())
        return {};
    const QString where = m_axis == MemoryAxis::NodeIndex ? tr("Node %1").arg(x)
                                                          : tr("%1 ms").arg(double(x - m_origin) / kNsPerMs, 0, 'f', 3);
    QString html = QStringLiteral("<b>%1</b><table cellspacing=\"0\" cellpadding=\"1\">").arg(where.toHtmlEscaped());
    auto row = [&html](const QColor& color, const QString& name, double bytes) {
        html += QStringLiteral("<tr><td><span style=\"color:%1\">&#9632;</span> %2</td>"
                               "<td align=\"right\">&nbsp;&nbsp;%3</td></tr>")
                    .arg(color.name(), name.toHtmlEscaped(), MemoryByteTicker::text(bytes).toHtmlEscaped());
    };
    for (const StackCurve& stack : m_stacks) {
        for (std::size_t g = stack.graphs.size(); g-- > 0;)
            row(stack.graphs[g]->pen().color(), stack.graphs[g]->name(), models::memory::valueAt(*stack.layers[g], x));
    }
    for (const LineCurve& line : m_lines)
        row(line.graph->pen().color(), line.graph->name(), models::memory::valueAt(*line.series, x));
    html += QStringLiteral("</table>");
    return html;
}

ChartData MemoryChart::chartData() const
{
    ChartData data;
    data.title = tr("Memory");
    data.xLabel = xAxis->label();
    data.yLabel = tr("Bytes");
    data.columns << (m_axis == MemoryAxis::NodeIndex ? QStringLiteral("node") : QStringLiteral("time_ms"))
                 << QStringLiteral("bytes");
    const models::TimeSpan v = visibleRange();
    auto add = [&](const QString& name, const MemorySeries& series) {
        ChartSeriesData out;
        out.name = name;
        out.columns.resize(2);
        // From the sample in force at the left edge to the last one inside the range.
        auto first = std::upper_bound(series.x.begin(), series.x.end(), v.start);
        if (first != series.x.begin())
            --first;
        const auto last = std::upper_bound(series.x.begin(), series.x.end(), v.end);
        for (auto it = first; it < last; ++it) {
            const auto i = std::size_t(it - series.x.begin());
            out.columns[0].push_back(keyOf(series.x[i]));
            out.columns[1].push_back(series.bytes[i]);
        }
        data.series.push_back(std::move(out));
    };
    for (const StackCurve& stack : m_stacks) {
        for (std::size_t g = 0; g < stack.graphs.size(); ++g)
            add(stack.graphs[g]->name(), *stack.layers[g]);
    }
    for (const LineCurve& line : m_lines)
        add(line.graph->name(), *line.series);
    return data;
}

void MemoryChart::renderTo(QCPPainter* painter, QSize size)
{
    toPainter(painter, size.width(), size.height());
}

std::int64_t MemoryChart::xAtPixel(double px) const
{
    return xOf(xAxis->pixelToCoord(px));
}

bool MemoryChart::insidePlot(const QPointF& pos) const
{
    return axisRect()->rect().contains(pos.toPoint());
}

void MemoryChart::mousePressEvent(QMouseEvent* event)
{
    QCustomPlot::mousePressEvent(event);
    const QPointF pos = event->position();
    if (m_devices.empty() || !insidePlot(pos)) {
        m_drag = Drag::None;
        return;
    }
    m_pressPos = pos;
    m_pressX = xAtPixel(pos.x());
    m_pressRange = visibleRange();
    m_moved = false;
    const bool pan = event->button() == Qt::MiddleButton
        || (event->button() == Qt::LeftButton && (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier)));
    m_drag = pan ? Drag::Pan : event->button() == Qt::LeftButton ? Drag::Select : Drag::None;
    if (m_drag == Drag::Pan)
        setCursor(Qt::ClosedHandCursor);
}

void MemoryChart::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QPointF pos = event->position();
    const bool inside = !m_devices.empty() && insidePlot(pos);
    const std::int64_t x = xAtPixel(pos.x());
    if (isLinked())
        m_model->setHoverTime(inside ? x : models::TimeRangeModel::kNoHover);
    else
        setCursorX(inside ? x : models::TimeRangeModel::kNoHover);
    if (m_drag == Drag::None)
        return;
    if (!m_moved && (pos - m_pressPos).manhattanLength() < kDragThreshold)
        return;
    m_moved = true;
    if (m_drag == Drag::Pan) {
        const double perPixel = double(m_pressRange.duration()) / std::max(1, axisRect()->width());
        const auto dx = std::int64_t(std::llround((pos.x() - m_pressPos.x()) * perPixel));
        setVisibleRange(m_pressRange.start - dx, m_pressRange.end - dx);
        return;
    }
    const double left = axisRect()->left();
    const double right = axisRect()->right();
    const std::int64_t t = xAtPixel(std::clamp(pos.x(), left, right));
    setSelection(std::min(m_pressX, t), std::max(m_pressX, t));
}

void MemoryChart::mouseReleaseEvent(QMouseEvent* event)
{
    QCustomPlot::mouseReleaseEvent(event);
    const Drag drag = m_drag;
    m_drag = Drag::None;
    unsetCursor();
    if (drag != Drag::Select || m_moved)
        return;
    // A click: clears the selection; on a graph's nodes it also picks the node.
    clearSelection();
    if (m_axis == MemoryAxis::NodeIndex)
        emit nodeClicked(qint64(std::clamp(m_pressX, m_dataRange.start, m_dataRange.end)));
}

void MemoryChart::mouseDoubleClickEvent(QMouseEvent* event)
{
    QCustomPlot::mouseDoubleClickEvent(event);
    if (!m_devices.empty() && insidePlot(event->position()))
        fitAll();
}

void MemoryChart::wheelEvent(QWheelEvent* event)
{
    if (m_devices.empty() || !insidePlot(event->position())) {
        QCustomPlot::wheelEvent(event);
        return;
    }
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    const double factor = std::pow(kWheelStep, steps);
    const std::int64_t anchor = xAtPixel(event->position().x());
    if (isLinked()) {
        m_model->zoom(factor, anchor);
    } else {
        const models::TimeSpan v = m_localVisible;
        const auto start = anchor - std::int64_t(std::llround(double(anchor - v.start) * factor));
        const auto end = anchor + std::int64_t(std::llround(double(v.end - anchor) * factor));
        setVisibleRange(start, end);
    }
    event->accept();
}

void MemoryChart::leaveEvent(QEvent* event)
{
    QCustomPlot::leaveEvent(event);
    if (isLinked())
        m_model->setHoverTime(models::TimeRangeModel::kNoHover);
    else
        setCursorX(models::TimeRangeModel::kNoHover);
}

bool MemoryChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (!m_devices.empty() && insidePlot(help->pos()))
            QToolTip::showText(help->globalPos(), hoverText(xAtPixel(help->pos().x())), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QCustomPlot::event(event);
}

} // namespace runlens::widgets::memory
