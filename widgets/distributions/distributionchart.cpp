#include "widgets/distributions/distributionchart.h"

#include "models/summary/summarystore.h"
#include "widgets/common/chartexporter.h"
#include "widgets/common/charticons.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/theme.h"
#include "widgets/distributions/distributionchartparts.h"
#include "widgets/scalars/scalarchartparts.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QMenu>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

namespace runlens::widgets::distributions {

namespace {

constexpr double kBandAlpha = 0.2; // per band; nested bands add up, so the middle is darkest
constexpr double kMedianWidth = 1.6;
constexpr double kKeyPadding = 0.01;
constexpr double kValuePadding = 0.06;
const QString kOverlayLayer = QStringLiteral("overlay");

} // namespace

DistributionChart::DistributionChart(const models::summary::SummaryStore* store, const QString& run, const QString& tag,
                                     const DistributionChartOptions& options, QWidget* parent)
    : QCustomPlot(parent)
    , m_store(store)
    , m_run(run)
    , m_tag(tag)
    , m_options(options)
    , m_color(runColor(0))
{
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);
    setPlottingHint(QCP::phImmediateRefresh, false);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeZoomFactor(0.85);
    layer(kOverlayLayer)->setMode(QCPLayer::lmBuffered);

    plotLayout()->insertRow(0);
    plotLayout()->setRowSpacing(0);
    m_title = new QCPTextElement(this, run);
    m_title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    m_title->setMargins(QMargins(12, 8, 12, 2));
    plotLayout()->addElement(0, 0, m_title);
    m_note = new QCPTextElement(this, QString());
    m_note->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    m_note->setMargins(QMargins(12, 0, 12, 2));
    m_note->setVisible(false);
    axisRect()->setMinimumMargins(QMargins(8, 6, 14, 6));

    for (std::size_t p = 0; p < m_graphs.size(); ++p) {
        m_graphs[p] = addGraph();
        m_graphs[p]->setName(basisPointLabel(p));
        m_graphs[p]->setAntialiased(true);
        m_graphs[p]->setAntialiasedFill(true);
    }
    for (std::size_t p = 0; p < kMedianIndex; ++p)
        m_graphs[p]->setChannelFillGraph(m_graphs[kBasisPoints.size() - 1 - p]);

    m_ridges = new detail::RidgelineLayer(this);
    m_marks = new detail::NonFiniteMarks(this);
    m_hover = new detail::DistributionHover(this, m_ridges);
    m_marks->setLayer(kOverlayLayer);
    m_hover->setLayer(kOverlayLayer);

    m_exportMenu = new ChartExportMenu(this, this);
    m_exportMenu->setBaseName(tag + QLatin1Char('_') + run);
    m_exportMenu->setDataProvider([this] { return chartData(); });
    m_exportMenu->setExportHook([this](bool exporting) {
        m_exporting = exporting;
        if (exporting) {
            ensureData();
            clearHover();
        }
        updateTitle();
        scheduleReplot();
    });

    connect(this, &QCustomPlot::beforeReplot, this, [this] { m_replotPending = false; });

    applyTheme();
    applyMode();
    refreshData();
}

DistributionChart::~DistributionChart() = default;

QCPAxis* DistributionChart::keyAxis() const
{
    return m_options.mode == DistributionMode::Bands ? xAxis : yAxis;
}

QCPAxis* DistributionChart::valueAxis() const
{
    return m_options.mode == DistributionMode::Bands ? yAxis : xAxis;
}

void DistributionChart::refreshData()
{
    m_stale = true;
    // Off screen (scrolled away, hidden dock) the work waits for the next paint.
    if (isVisible() && !visibleRegion().isEmpty())
        ensureData();
    else
        update();
}

void DistributionChart::ensureData()
{
    if (m_stale)
        buildData();
}

void DistributionChart::buildData()
{
    m_stale = false;
    models::summary::HistogramSeries series;
    if (m_store)
        series = m_store->histograms(m_run, m_tag);
    m_series = prepareSeries(m_run, series);
    if (m_store)
        m_series.runLabel = m_store->runDisplayName(m_run);
    if (m_series.tag.isEmpty())
        m_series.tag = m_tag;
    m_nonFiniteNote = distributions::nonFiniteNote(m_series);
    m_note->setText(m_nonFiniteNote);
    const bool showNote = !m_nonFiniteNote.isEmpty();
    const bool inLayout = plotLayout()->hasElement(1, 0) && plotLayout()->element(1, 0) == m_note;
    if (showNote && !inLayout) {
        plotLayout()->insertRow(1);
        plotLayout()->addElement(1, 0, m_note);
    } else if (!showNote && inLayout) {
        plotLayout()->take(m_note);
        plotLayout()->simplify();
    }
    m_note->setVisible(showNote);
    if (m_hoverIndex >= std::ptrdiff_t(m_series.size()))
        clearHover();
    updateBands();
    updateOutlines();
    m_marks->setData(&m_series, m_options.mode, m_options.xAxisMode);
    updateTitle();
    fitToData();
}

void DistributionChart::updateBands()
{
    const bool bands = m_options.mode == DistributionMode::Bands;
    const std::size_t n = m_series.size();
    for (std::size_t p = 0; p < m_graphs.size(); ++p) {
        QVector<QCPGraphData> data;
        if (bands) {
            data.reserve(qsizetype(n));
            for (std::size_t i = 0; i < n; ++i)
                data.append(QCPGraphData(m_series.key(i, m_options.xAxisMode), m_series.percentiles[i][p]));
        }
        m_graphs[p]->data()->set(data, false);
        m_graphs[p]->setVisible(bands);
        // A single step has no band to fill: the median shows as a dot.
        m_graphs[p]->setScatterStyle(p == kMedianIndex && n == 1 ? QCPScatterStyle(QCPScatterStyle::ssDisc, m_color, 6)
                                                                 : QCPScatterStyle(QCPScatterStyle::ssNone));
    }
}

void DistributionChart::updateOutlines()
{
    const bool offset = m_options.mode == DistributionMode::Offset;
    m_ridges->setVisible(offset);
    m_ridges->setData(&m_series, m_options.xAxisMode,
                      offset
                          ? detail::buildRidges(m_series, kMaxOutlines, detail::outlineBinCount(m_series, kOutlineBins))
                          : detail::Ridges {});
}

int DistributionChart::outlineCount() const
{
    return m_options.mode == DistributionMode::Offset ? int(m_ridges->ridges().indices.size()) : 0;
}

QCPGraph* DistributionChart::percentileGraph(std::size_t index) const
{
    return index < m_graphs.size() ? m_graphs[index] : nullptr;
}

void DistributionChart::setOptions(const DistributionChartOptions& options)
{
    const bool changed = options.mode != m_options.mode || options.xAxisMode != m_options.xAxisMode;
    m_options = options;
    if (!changed)
        return;
    clearHover();
    applyMode();
    m_stale = true;
    refreshData();
}

void DistributionChart::setMode(DistributionMode mode)
{
    setOptions({ mode, m_options.xAxisMode });
}

void DistributionChart::setXAxisMode(scalars::XAxisMode mode)
{
    setOptions({ m_options.mode, mode });
}

void DistributionChart::setColor(const QColor& color)
{
    if (color == m_color)
        return;
    m_color = color;
    applyTheme();
    updateBands();
    scheduleReplot();
}

void DistributionChart::applyMode()
{
    const bool bands = m_options.mode == DistributionMode::Bands;
    yAxis->setRangeReversed(!bands);
    axisRect()->setRangeDrag(bands ? Qt::Horizontal : Qt::Vertical);
    axisRect()->setRangeZoom(bands ? Qt::Horizontal : Qt::Vertical);
    applyAxisTickers();
}

void DistributionChart::applyAxisTickers()
{
    QCPAxis* keys = keyAxis();
    QCPAxis* values = valueAxis();
    switch (m_options.xAxisMode) {
    case scalars::XAxisMode::Step:
        keys->setTicker(QSharedPointer<runlens::widgets::scalars::detail::CompactNumberTicker>::create());
        break;
    case scalars::XAxisMode::RelativeTime:
        keys->setTicker(QSharedPointer<runlens::widgets::scalars::detail::DurationTicker>::create());
        break;
    case scalars::XAxisMode::WallTime: {
        auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
        ticker->setDateTimeSpec(Qt::LocalTime);
        ticker->setDateTimeFormat(QStringLiteral("HH:mm"));
        keys->setTicker(ticker);
        break;
    }
    }
    keys->ticker()->setTickCount(m_options.mode == DistributionMode::Bands ? 5 : 4);
    keys->setLabel(scalars::scalarformat::axisTitle(m_options.xAxisMode));
    keys->setNumberFormat(QStringLiteral("g"));
    auto valueTicker = QSharedPointer<QCPAxisTicker>::create();
    valueTicker->setTickCount(5);
    values->setTicker(valueTicker);
    values->setNumberFormat(QStringLiteral("g"));
    values->setNumberPrecision(4);
    values->setLabel(QString());
}

void DistributionChart::applyTheme()
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
    QFont titleFont = font();
    titleFont.setWeight(QFont::DemiBold);
    for (QCPAxis* axis : { xAxis, yAxis }) {
        axis->setBasePen(QPen(axisLine, 1));
        axis->setTickPen(QPen(axisLine, 1));
        axis->setSubTickPen(Qt::NoPen);
        axis->setTickLengthIn(0);
        axis->setTickLengthOut(4);
        axis->setTickLabelColor(muted);
        axis->setTickLabelFont(tickFont);
        axis->setLabelColor(muted);
        axis->setLabelFont(tickFont);
        axis->setLabelPadding(4);
        axis->setTickLabelPadding(4);
        axis->grid()->setPen(QPen(gridLine, 1));
        axis->grid()->setZeroLinePen(QPen(blendColors(text, background, 0.8), 1));
        axis->grid()->setSubGridVisible(false);
        axis->grid()->setAntialiased(false);
    }
    for (QCPAxis* axis : { xAxis2, yAxis2 })
        axis->setVisible(false);

    m_title->setFont(titleFont);
    m_title->setTextColor(m_color.isValid() ? m_color.darker(115) : text);
    m_note->setFont(tickFont);
    m_note->setTextColor(alertColor());

    QColor band = m_color;
    band.setAlphaF(float(kBandAlpha));
    QColor edge = m_color;
    edge.setAlphaF(0.45f);
    for (std::size_t p = 0; p < m_graphs.size(); ++p) {
        QCPGraph* g = m_graphs[p];
        if (p == kMedianIndex)
            g->setPen(QPen(m_color, kMedianWidth));
        else if (p == 0 || p == kBasisPoints.size() - 1)
            g->setPen(QPen(edge, 0.8));
        else
            g->setPen(Qt::NoPen);
        g->setBrush(p < kMedianIndex ? QBrush(band) : QBrush(Qt::NoBrush));
    }
    m_ridges->setColors(m_color, background);
    m_hover->setColors(muted, m_color.darker(150));
}

void DistributionChart::updateTitle()
{
    const QString run = m_store ? m_store->runDisplayName(m_run) : m_run;
    const QString full = m_exporting ? m_tag + QStringLiteral(" \u2014 ") + run : run;
    const QFontMetrics metrics(m_title->font());
    m_title->setText(m_exporting ? full : metrics.elidedText(full, Qt::ElideMiddle, std::max(40, width() - 24)));
}

void DistributionChart::fitToData()
{
    const std::size_t n = m_series.size();
    double keyLo = std::numeric_limits<double>::infinity();
    double keyHi = -keyLo;
    double valueLo = keyLo;
    double valueHi = -keyLo;
    for (std::size_t i = 0; i < n; ++i) {
        const double k = m_series.key(i, m_options.xAxisMode);
        keyLo = std::min(keyLo, k);
        keyHi = std::max(keyHi, k);
        for (double v : m_series.percentiles[i]) {
            if (std::isfinite(v)) {
                valueLo = std::min(valueLo, v);
                valueHi = std::max(valueHi, v);
            }
        }
    }
    if (!std::isfinite(keyLo)) {
        keyLo = 0.0;
        keyHi = 1.0;
    }
    double keySpan = keyHi - keyLo;
    if (!(keySpan > 0.0)) {
        keySpan = 1.0;
        keyLo -= 0.5;
        keyHi += 0.5;
    }
    if (m_options.mode == DistributionMode::Bands) {
        if (!std::isfinite(valueLo)) {
            valueLo = 0.0;
            valueHi = 1.0;
        }
        double valueSpan = valueHi - valueLo;
        if (!(valueSpan > 0.0))
            valueSpan = std::max(1.0, std::abs(valueLo) * 0.1);
        xAxis->setRange(keyLo - keySpan * kKeyPadding, keyHi + keySpan * kKeyPadding);
        yAxis->setRange(valueLo - valueSpan * kValuePadding, valueHi + valueSpan * kValuePadding);
    } else {
        // The oldest outline rises kRidgeShare of the plot above its baseline: leave that much room on top.
        const double top = keySpan * detail::kRidgeShare / (1.0 - detail::kRidgeShare);
        yAxis->setRange(keyLo - top, keyHi + keySpan * 0.02);
        applyAxisTickers();
        if (!m_series.isEmpty())
            yAxis->setTicker(QSharedPointer<detail::ClampedTicker>::create(yAxis->ticker(), keyLo, keyHi));
        const double pad = (m_series.highestEdge - m_series.lowestEdge) * 0.02;
        xAxis->setRange(m_series.lowestEdge - pad, m_series.highestEdge + pad);
    }
    scheduleReplot();
}

std::ptrdiff_t DistributionChart::indexAt(const QPointF& pos) const
{
    if (m_series.isEmpty() || !axisRect()->rect().contains(pos.toPoint()))
        return -1;
    const double key = keyAxis()->pixelToCoord(m_options.mode == DistributionMode::Bands ? pos.x() : pos.y());
    return m_series.nearest(key, m_options.xAxisMode);
}

QPointF DistributionChart::positionOfIndex(std::size_t index) const
{
    if (index >= m_series.size())
        return {};
    const double key = m_series.key(index, m_options.xAxisMode);
    const QRect rect = axisRect()->rect();
    if (m_options.mode == DistributionMode::Bands)
        return { xAxis->coordToPixel(key), rect.center().y() + 0.0 };
    return { rect.center().x() + 0.0, yAxis->coordToPixel(key) };
}

std::ptrdiff_t DistributionChart::indexOfStep(qint64 step) const
{
    for (std::size_t i = 0; i < m_series.size(); ++i) {
        if (m_series.histograms[i].step == step)
            return std::ptrdiff_t(i);
    }
    return -1;
}

qint64 DistributionChart::hoveredStep() const
{
    return m_hoverIndex >= 0 && std::size_t(m_hoverIndex) < m_series.size() ? m_series.histograms[m_hoverIndex].step
                                                                            : -1;
}

QList<qint64> DistributionChart::nonFiniteSteps() const
{
    QList<qint64> out;
    for (std::size_t i : m_series.nonFiniteIndices())
        out << m_series.histograms[i].step;
    return out;
}

QList<QPointF> DistributionChart::nonFiniteMarkerPositions() const
{
    return m_marks->positions();
}

ChartData DistributionChart::chartData()
{
    ensureData();
    return distributions::chartData(m_series, m_options.mode);
}

QMenu* DistributionChart::createContextMenu(QWidget* parent)
{
    auto* menu = new QMenu(parent);
    QAction* fit = menu->addAction(chartIcon(QStringLiteral("chart-fit")), tr("Fit to Data"));
    fit->setToolTip(tr("Show all steps (double-click the chart to do the same)"));
    connect(fit, &QAction::triggered, this, &DistributionChart::fitToData);
    QAction* copy = menu->addAction(chartIcon(QStringLiteral("chart-copy")), tr("Copy Image"));
    connect(copy, &QAction::triggered, this,
            [this] { QApplication::clipboard()->setPixmap(toPixmap(0, 0, ChartExporter::kPngScale)); });
    menu->addSeparator();
    m_exportMenu->addTo(menu);
    return menu;
}

void DistributionChart::scheduleReplot()
{
    m_replotPending = true;
    update();
}

void DistributionChart::replotIfNeeded()
{
    ensureData();
    if (m_replotPending)
        replot(QCustomPlot::rpQueuedRefresh);
}

void DistributionChart::setFramed(bool framed)
{
    m_framed = framed;
    update();
}

void DistributionChart::paintEvent(QPaintEvent* event)
{
    ensureData();
    if (m_replotPending)
        replot(QCustomPlot::rpQueuedRefresh);
    QCustomPlot::paintEvent(event);
    if (m_framed) {
        QPainter painter(this);
        const QPalette pal = palette();
        painter.setPen(QPen(blendColors(pal.color(QPalette::Text), pal.color(QPalette::Base), 0.82), 1));
        painter.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
    }
}

void DistributionChart::resizeEvent(QResizeEvent* event)
{
    Q_UNUSED(event)
    // Not QCustomPlot's handler: it replots at once, and most charts of a page are off screen.
    setViewport(rect());
    updateTitle();
    scheduleReplot();
}

void DistributionChart::showEvent(QShowEvent* event)
{
    QCustomPlot::showEvent(event);
    scheduleReplot();
}

void DistributionChart::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() & Qt::LeftButton) {
        clearHover();
        return;
    }
    ensureData();
    if (m_replotPending)
        replot(QCustomPlot::rpQueuedRefresh); // the axes must be laid out to map the position
    setHoverIndex(indexAt(event->position()), event->position());
}

void DistributionChart::setHoverIndex(std::ptrdiff_t index, const QPointF& pos)
{
    if (index < 0) {
        clearHover();
        return;
    }
    if (index != m_hoverIndex) {
        m_hoverIndex = index;
        m_hoverText = histogramTooltip(m_series, std::size_t(index), m_color);
        m_hover->setHover(&m_series, m_options.mode, m_options.xAxisMode, index);
        layer(kOverlayLayer)->replot();
        emit hoveredStepChanged(hoveredStep());
    }
    QToolTip::showText(mapToGlobal(pos.toPoint()) + QPoint(18, 18), m_hoverText, this);
}

void DistributionChart::clearHover()
{
    if (m_hoverIndex < 0)
        return;
    m_hoverIndex = -1;
    m_hoverText.clear();
    m_hover->clear();
    layer(kOverlayLayer)->replot();
    QToolTip::hideText();
    emit hoveredStepChanged(-1);
}

void DistributionChart::mouseDoubleClickEvent(QMouseEvent* event)
{
    QCustomPlot::mouseDoubleClickEvent(event);
    fitToData();
}

void DistributionChart::wheelEvent(QWheelEvent* event)
{
    // Inside a scrolling page the plain wheel scrolls; Ctrl+wheel zooms along the step axis.
    if (!(event->modifiers() & Qt::ControlModifier)) {
        event->ignore();
        return;
    }
    clearHover();
    QCustomPlot::wheelEvent(event);
}

void DistributionChart::leaveEvent(QEvent* event)
{
    clearHover();
    QCustomPlot::leaveEvent(event);
}

void DistributionChart::contextMenuEvent(QContextMenuEvent* event)
{
    clearHover();
    const std::unique_ptr<QMenu> menu(createContextMenu(this));
    menu->exec(event->globalPos());
}

void DistributionChart::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange
        || event->type() == QEvent::StyleChange) {
        applyTheme();
        scheduleReplot();
    }
}

std::unique_ptr<DistributionChart> createDistributionChart(const models::summary::SummaryStore& store,
                                                           const QString& run, const QString& tag,
                                                           const DistributionChartOptions& options, QSize size)
{
    if (size.isEmpty())
        size = ChartExporter::kDefaultSize;
    auto chart = std::make_unique<DistributionChart>(&store, run, tag, options);
    chart->resize(size);
    chart->setViewport(QRect(QPoint(0, 0), size));
    chart->ensureData();
    chart->replot(QCustomPlot::rpQueuedRefresh);
    return chart;
}

bool exportDistributionChart(const models::summary::SummaryStore& store, const QString& run, const QString& tag,
                             const QString& fileName, const DistributionChartOptions& options, QSize size,
                             QString* errorMessage)
{
    const QStringList tags = store.tags(models::summary::SummaryKind::Histograms, run);
    if (!tags.contains(tag)) {
        if (errorMessage) {
            *errorMessage = tags.isEmpty()
                ? DistributionChart::tr("The run \"%1\" has no histograms.").arg(run)
                : DistributionChart::tr("The run \"%1\" has no histogram tag \"%2\". Its histogram tags: %3.")
                      .arg(run, tag, tags.join(QStringLiteral(", ")));
        }
        return false;
    }
    const auto chart = createDistributionChart(store, run, tag, options, size);
    chart->setColor(runColor(int(std::max<qsizetype>(0, store.runs().indexOf(run)))));
    const auto format = ChartExporter::formatForFileName(fileName);
    if (!format) {
        if (errorMessage)
            *errorMessage
                = DistributionChart::tr("Cannot export to %1: use a .png, .svg, .pdf or .csv file name.").arg(fileName);
        return false;
    }
    // Through the chart's export menu, so the picture gets its export title (tag and run).
    return chart->exportMenu()->exportTo(*format, fileName, errorMessage);
}

} // namespace runlens::widgets::distributions
