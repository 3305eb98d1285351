#include "widgets/prcurves/prcurvechart.h"

#include "models/summary/summarystore.h"
#include "widgets/common/chartexporter.h"
#include "widgets/common/charticons.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/theme.h"
#include "widgets/prcurves/prcurvedata.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QSlider>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace runlens::widgets::prcurves {

namespace {

constexpr double kLineWidth = 1.8;
constexpr double kAxisPad = 0.02; ///< beyond 0..1, so points on the edges are not cut in half
constexpr double kHoverMarkSize = 9.0;

} // namespace

struct PrCurveChart::RunCurve
{
    QString run;
    QColor color;
    std::vector<models::summary::PrCurve> items; ///< step order
    const models::summary::PrCurve* shown = nullptr; ///< into items
    std::vector<int> entries; ///< defined entries of `shown`
    QCPCurve* curve = nullptr;
};

PrCurveChart::PrCurveChart(const models::summary::SummaryStore* store, const QString& tag, QWidget* parent)
    : PrCurveChart(store, tag, models::summary::SummaryKind::PrCurves, parent)
{ }

PrCurveChart::PrCurveChart(const models::summary::SummaryStore* store, const QString& tag,
                           models::summary::SummaryKind source, QWidget* parent)
    : QWidget(parent)
    , m_store(store)
    , m_tag(tag)
    , m_source(source == models::summary::SummaryKind::RocCurves ? source : models::summary::SummaryKind::PrCurves)
    , m_mode(source == models::summary::SummaryKind::RocCurves ? CurveMode::Roc : CurveMode::PrecisionRecall)
{
    setObjectName(QStringLiteral("prCurveChart"));
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("prCurvePlot"));
    m_plot->setMouseTracking(true);
    m_plot->setPlottingHint(QCP::phImmediateRefresh, false);
    m_plot->setContextMenuPolicy(Qt::DefaultContextMenu);
    m_plot->installEventFilter(this);
    m_plot->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);

    m_plot->plotLayout()->insertRow(0);
    m_header = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 0, m_header);
    m_plot->plotLayout()->setRowSpacing(0);
    m_title = new QCPTextElement(m_plot, tag);
    m_title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    m_title->setMargins(QMargins(12, 8, 12, 2));
    m_header->addElement(0, 0, m_title);
    m_header->setColumnSpacing(0);

    // Run names sit next to the title, never over the curves; they are part of every exported picture.
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_header->addElement(0, 1, m_plot->legend);
    m_plot->legend->setVisible(true);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setWrap(3);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
    m_plot->legend->setIconSize(16, 8);
    m_plot->legend->setMargins(QMargins(4, 8, 12, 2));
    m_plot->legend->setRowSpacing(0);
    m_plot->legend->setColumnSpacing(10);
    // The title takes the spare width, so the run names sit at the right end instead of mid-way.
    m_header->setColumnStretchFactors({ 1.0, 0.001 });
    m_plot->axisRect()->setMinimumMargins(QMargins(8, 6, 14, 6));

    for (QCPAxis* axis : { m_plot->xAxis, m_plot->yAxis }) {
        auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
        ticker->setTickStep(0.2);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("f"));
        axis->setNumberPrecision(1);
        axis->setRange(-kAxisPad, 1.0 + kAxisPad);
    }

    m_diagonal = m_plot->addGraph();
    m_diagonal->removeFromLegend();
    m_diagonal->setData(QVector<double> { 0.0, 1.0 }, QVector<double> { 0.0, 1.0 });

    m_hoverMark = m_plot->addGraph();
    m_hoverMark->setLayer(QStringLiteral("overlay"));
    m_hoverMark->setLineStyle(QCPGraph::lsNone);
    m_hoverMark->removeFromLegend();
    m_plot->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmBuffered);

    m_exportMenu = new ChartExportMenu(m_plot, this);
    m_exportMenu->setBaseName(tag);
    m_exportMenu->setDataProvider([this] { return chartData(); });

    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("stepSlider"));
    m_slider->setToolTip(tr("The step whose curves are shown; the latest step follows new data"));
    m_slider->setPageStep(1);
    m_slider->setTracking(true);
    connect(m_slider, &QSlider::valueChanged, this, &PrCurveChart::onSliderMoved);
    m_stepLabel = new QLabel(this);
    m_stepLabel->setObjectName(QStringLiteral("stepLabel"));
    m_stepLabel->setForegroundRole(QPalette::PlaceholderText);
    m_stepLabel->setMinimumWidth(m_stepLabel->fontMetrics().horizontalAdvance(QStringLiteral("step 00000000 (00/00)")));
    auto* stepRow = new QHBoxLayout;
    stepRow->setContentsMargins(12, 0, 12, 6);
    stepRow->setSpacing(8);
    stepRow->addWidget(m_slider, 1);
    stepRow->addWidget(m_stepLabel);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(1, 1, 1, 1);
    layout->setSpacing(0);
    layout->addWidget(m_plot, 1);
    layout->addLayout(stepRow);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);

    applyTheme();
    applyMode();
    refreshData();
}

void PrCurveChart::setMode(CurveMode mode)
{
    if (isRocOnly())
        mode = CurveMode::Roc;
    if (mode == m_mode)
        return;
    m_mode = mode;
    clearHover();
    applyMode();
    applyStep();
}

void PrCurveChart::applyMode()
{
    const bool roc = m_mode == CurveMode::Roc;
    m_plot->xAxis->setLabel(roc ? tr("False positive rate") : tr("Recall"));
    m_plot->yAxis->setLabel(roc ? tr("True positive rate") : tr("Precision"));
    m_diagonal->setVisible(roc);
    // A PR tag exported as ROC must not overwrite its PR export of the same name.
    m_exportMenu->setBaseName(roc && !isRocOnly() ? m_tag + QStringLiteral(" ROC") : m_tag);
}

double PrCurveChart::shownAuc(const QString& run) const
{
    const RunCurve* c = runCurve(run);
    if (!c || !c->shown || m_mode != CurveMode::Roc)
        return models::summary::Histogram::kUnknown;
    return rocAuc(*c->shown);
}

PrCurveChart::~PrCurveChart() = default;

PrCurveChart::RunCurve* PrCurveChart::runCurve(const QString& run) const
{
    for (const auto& c : m_curves) {
        if (c->run == run)
            return c.get();
    }
    return nullptr;
}

QColor PrCurveChart::colorOf(const QString& run) const
{
    if (m_colorProvider) {
        const QColor color = m_colorProvider(run);
        if (color.isValid())
            return color;
    }
    const int index = m_store ? int(m_store->runs().indexOf(run)) : -1;
    return runColor(std::max(index, 0));
}

void PrCurveChart::setRunColorProvider(RunColorProvider provider)
{
    m_colorProvider = std::move(provider);
    for (auto& c : m_curves) {
        c->color = colorOf(c->run);
        c->curve->setPen(QPen(c->color, kLineWidth));
    }
    applyStep();
}

void PrCurveChart::refreshData()
{
    std::vector<std::unique_ptr<RunCurve>> next;
    if (m_store) {
        const QStringList runs = m_store->runs(m_source);
        for (const QString& run : runs) {
            models::summary::PrCurveSeries series
                = isRocOnly() ? m_store->rocCurves(run, m_tag) : m_store->prCurves(run, m_tag);
            if (series.items.empty())
                continue;
            std::unique_ptr<RunCurve> c;
            for (auto& existing : m_curves) {
                if (existing && existing->run == run) {
                    c = std::move(existing);
                    break;
                }
            }
            if (!c) {
                c = std::make_unique<RunCurve>();
                c->run = run;
                c->curve = new QCPCurve(m_plot->xAxis, m_plot->yAxis);
                c->curve->setAntialiased(true);
                c->curve->setLineStyle(QCPCurve::lsLine);
            }
            c->items = std::move(series.items);
            c->shown = nullptr;
            c->entries.clear();
            c->color = colorOf(run);
            c->curve->setPen(QPen(c->color, kLineWidth));
            next.push_back(std::move(c));
        }
    }
    for (auto& old : m_curves) {
        if (old)
            m_plot->removePlottable(old->curve);
    }
    m_curves = std::move(next);
    rebuildSteps();
}

void PrCurveChart::setVisibleRuns(const QStringList& runs)
{
    const QSet<QString> visible(runs.begin(), runs.end());
    if (visible == m_visibleRuns)
        return;
    m_visibleRuns = visible;
    clearHover();
    rebuildSteps();
}

bool PrCurveChart::isRunVisible(const QString& run) const
{
    return m_visibleRuns.isEmpty() || m_visibleRuns.contains(run);
}

QStringList PrCurveChart::runs() const
{
    QStringList names;
    for (const auto& c : m_curves)
        names << c->run;
    return names;
}

QStringList PrCurveChart::shownRuns() const
{
    QStringList names;
    for (const auto& c : m_curves) {
        if (isRunVisible(c->run) && c->shown)
            names << c->run;
    }
    return names;
}

qint64 PrCurveChart::currentStep() const
{
    return m_steps.empty() ? 0 : m_step;
}

void PrCurveChart::rebuildSteps()
{
    std::vector<qint64> steps;
    for (const auto& c : m_curves) {
        if (!isRunVisible(c->run))
            continue;
        for (const models::summary::PrCurve& curve : c->items)
            steps.push_back(curve.step);
    }
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    m_steps = std::move(steps);

    if (!m_steps.empty() && !m_followLatest) {
        // Keep the user's step, or the nearest one that still exists.
        const auto it = std::lower_bound(m_steps.begin(), m_steps.end(), m_step);
        if (it == m_steps.end())
            m_step = m_steps.back();
        else if (*it != m_step && it != m_steps.begin() && m_step - *std::prev(it) <= *it - m_step)
            m_step = *std::prev(it);
        else
            m_step = *it;
    } else if (!m_steps.empty()) {
        m_step = m_steps.back();
    }
    {
        const QSignalBlocker block(m_slider);
        m_slider->setRange(0, std::max(0, int(m_steps.size()) - 1));
        const auto it = std::lower_bound(m_steps.begin(), m_steps.end(), m_step);
        m_slider->setValue(int(it - m_steps.begin()));
    }
    m_slider->setEnabled(m_steps.size() > 1);
    applyStep();
}

void PrCurveChart::setCurrentStep(qint64 step)
{
    if (m_steps.empty())
        return;
    auto it = std::lower_bound(m_steps.begin(), m_steps.end(), step);
    if (it == m_steps.end() || (it != m_steps.begin() && step - *std::prev(it) < *it - step))
        it = it == m_steps.begin() ? it : std::prev(it);
    m_slider->setValue(int(it - m_steps.begin())); // onSliderMoved applies it
    if (*it != m_step)
        onSliderMoved(int(it - m_steps.begin()));
}

void PrCurveChart::onSliderMoved(int value)
{
    if (value < 0 || std::size_t(value) >= m_steps.size())
        return;
    const qint64 step = m_steps[std::size_t(value)];
    m_followLatest = std::size_t(value) + 1 == m_steps.size();
    if (step == m_step) {
        updateStepLabel();
        return;
    }
    m_step = step;
    clearHover();
    applyStep();
    emit currentStepChanged(step);
}

void PrCurveChart::applyStep()
{
    for (auto& c : m_curves) {
        c->shown = isRunVisible(c->run) && !m_steps.empty() ? curveAtStep(c->items, m_step) : nullptr;
        const bool roc = m_mode == CurveMode::Roc;
        if (!c->shown)
            c->entries.clear();
        else
            c->entries = roc ? rocEntries(*c->shown) : definedEntries(*c->shown);
        QVector<double> t;
        QVector<double> keys;
        QVector<double> values;
        t.reserve(qsizetype(c->entries.size()) + 2);
        keys.reserve(qsizetype(c->entries.size()) + 2);
        values.reserve(qsizetype(c->entries.size()) + 2);
        // The ROC curve runs from (1, 1) at the lowest threshold to (0, 0) above every score; the ends are
        // drawn so the area under the line is the AUC the legend gives.
        if (roc && !c->entries.empty()) {
            t << -1.0;
            keys << 1.0;
            values << 1.0;
        }
        for (int i : c->entries) {
            t << double(i);
            keys << (roc ? falsePositiveRate(*c->shown, i) : c->shown->recall[std::size_t(i)]);
            values << (roc ? truePositiveRate(*c->shown, i) : c->shown->precision[std::size_t(i)]);
        }
        if (roc && !c->entries.empty()) {
            t << double(c->shown->thresholdCount());
            keys << 0.0;
            values << 0.0;
        }
        c->curve->setData(t, keys, values, true);
        c->curve->setVisible(c->shown != nullptr);
        // A lone point has no line to show it.
        c->curve->setScatterStyle(c->entries.size() == 1
                                      ? QCPScatterStyle(QCPScatterStyle::ssDisc, c->color, c->color, 5)
                                      : QCPScatterStyle());
        if (c->shown) {
            const QString run = m_store ? m_store->runDisplayName(c->run) : c->run;
            const double auc = roc ? rocAuc(*c->shown) : models::summary::Histogram::kUnknown;
            if (roc && std::isfinite(auc))
                c->curve->setName(tr("%1 (step %2) · AUC %3").arg(run).arg(c->shown->step).arg(formatRatio(auc)));
            else
                c->curve->setName(tr("%1 (step %2)").arg(run).arg(c->shown->step));
        }
    }
    updateLegend();
    updateStepLabel();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PrCurveChart::updateLegend()
{
    QCPLegend* legend = m_plot->legend;
    legend->clearItems();
    for (const auto& c : m_curves) {
        if (c->shown)
            c->curve->addToLegend(legend);
    }
}

void PrCurveChart::updateStepLabel()
{
    if (m_steps.empty()) {
        m_stepLabel->setText(tr("no step"));
        return;
    }
    const int position = m_slider->value() + 1;
    m_stepLabel->setText(tr("step %1 (%2/%3)").arg(m_step).arg(position).arg(m_steps.size()));
}

std::optional<qint64> PrCurveChart::shownStep(const QString& run) const
{
    const RunCurve* c = runCurve(run);
    if (!c || !c->shown)
        return std::nullopt;
    return c->shown->step;
}

std::vector<PrPoint> PrCurveChart::shownPoints(const QString& run) const
{
    std::vector<PrPoint> points;
    const RunCurve* c = runCurve(run);
    if (!c || !c->shown)
        return points;
    const models::summary::PrCurve& curve = *c->shown;
    points.reserve(c->entries.size());
    for (int i : c->entries) {
        PrPoint p;
        p.run = run;
        p.runLabel = m_store ? m_store->runDisplayName(run) : run;
        p.step = curve.step;
        p.index = i;
        p.threshold = curve.threshold(i);
        p.precision = entryValue(curve.precision, i);
        p.recall = entryValue(curve.recall, i);
        p.truePositives = entryValue(curve.truePositives, i);
        p.falsePositives = entryValue(curve.falsePositives, i);
        p.trueNegatives = entryValue(curve.trueNegatives, i);
        p.falseNegatives = entryValue(curve.falseNegatives, i);
        p.truePositiveRate = truePositiveRate(curve, i);
        p.falsePositiveRate = falsePositiveRate(curve, i);
        points.push_back(p);
    }
    return points;
}

QCPCurve* PrCurveChart::curveForRun(const QString& run) const
{
    const RunCurve* c = runCurve(run);
    return c ? c->curve : nullptr;
}

QPointF PrCurveChart::pixelPosition(const PrPoint& point) const
{
    if (m_mode == CurveMode::Roc)
        return { m_plot->xAxis->coordToPixel(point.falsePositiveRate),
                 m_plot->yAxis->coordToPixel(point.truePositiveRate) };
    return { m_plot->xAxis->coordToPixel(point.recall), m_plot->yAxis->coordToPixel(point.precision) };
}

std::optional<PrPoint> PrCurveChart::pointNear(const QPointF& pos) const
{
    if (!m_plot->axisRect()->rect().contains(pos.toPoint()))
        return std::nullopt;
    std::optional<PrPoint> best;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (const auto& c : m_curves) {
        if (!c->shown)
            continue;
        for (const PrPoint& p : shownPoints(c->run)) {
            const QPointF d = pixelPosition(p) - pos;
            const double distance = d.x() * d.x() + d.y() * d.y();
            if (distance < bestDistance) {
                bestDistance = distance;
                best = p;
            }
        }
    }
    return best;
}

QString PrCurveChart::pointText(const PrPoint& point, CurveMode mode)
{
    const QString row = QStringLiteral("<tr><td>%1</td><td align=right>%2</td></tr>");
    QString text = QStringLiteral("<b>%1</b> · %2<table cellspacing=0 cellpadding=1>")
                       .arg((point.runLabel.isEmpty() ? point.run : point.runLabel).toHtmlEscaped(),
                            tr("step %1").arg(point.step));
    text += row.arg(tr("Threshold"), formatRatio(point.threshold));
    if (mode == CurveMode::Roc) {
        text += row.arg(tr("True positive rate"), formatRatio(point.truePositiveRate));
        text += row.arg(tr("False positive rate"), formatRatio(point.falsePositiveRate));
    } else {
        text += row.arg(tr("Precision"), formatRatio(point.precision));
        text += row.arg(tr("Recall"), formatRatio(point.recall));
    }
    text += row.arg(tr("TP"), formatCount(point.truePositives));
    text += row.arg(tr("FP"), formatCount(point.falsePositives));
    text += row.arg(tr("TN"), formatCount(point.trueNegatives));
    text += row.arg(tr("FN"), formatCount(point.falseNegatives));
    text += QStringLiteral("</table>");
    return text;
}

void PrCurveChart::setHoverPosition(const QPointF& pos)
{
    const std::optional<PrPoint> point = pointNear(pos);
    if (!point) {
        clearHover();
        return;
    }
    const RunCurve* c = runCurve(point->run);
    const QColor color = c ? c->color : palette().color(QPalette::Text);
    m_hoverMark->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 2.0), palette().color(QPalette::Base), kHoverMarkSize));
    const bool roc = m_mode == CurveMode::Roc;
    m_hoverMark->setData(QVector<double> { roc ? point->falsePositiveRate : point->recall },
                         QVector<double> { roc ? point->truePositiveRate : point->precision });
    m_hoverMark->setVisible(true);
    replotOverlay();
    m_hoverText = pointText(*point, m_mode);
    QToolTip::showText(m_plot->mapToGlobal(pos.toPoint()) + QPoint(18, 18), m_hoverText, m_plot);
}

void PrCurveChart::replotOverlay()
{
    // Only the hover layer changes; a chart that was never shown has no layer buffers yet.
    if (m_plot->isVisible())
        m_plot->layer(QStringLiteral("overlay"))->replot();
    else
        m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PrCurveChart::clearHover()
{
    m_hoverText.clear();
    if (m_hoverMark && m_hoverMark->visible()) {
        m_hoverMark->setVisible(false);
        m_hoverMark->data()->clear();
        replotOverlay();
    }
    QToolTip::hideText();
}

ChartData PrCurveChart::chartData() const
{
    ChartData data;
    const bool roc = m_mode == CurveMode::Roc;
    data.title = m_tag;
    data.xLabel = roc ? tr("False positive rate") : tr("Recall");
    data.yLabel = roc ? tr("True positive rate") : tr("Precision");
    data.seriesColumn = QStringLiteral("run");
    data.columns = { QStringLiteral("step"),
                     QStringLiteral("threshold"),
                     roc ? QStringLiteral("tpr") : QStringLiteral("precision"),
                     roc ? QStringLiteral("fpr") : QStringLiteral("recall"),
                     QStringLiteral("tp"),
                     QStringLiteral("fp"),
                     QStringLiteral("tn"),
                     QStringLiteral("fn") };
    for (const auto& c : m_curves) {
        if (!c->shown)
            continue;
        ChartSeriesData series;
        series.name = c->run;
        series.columns.resize(std::size_t(data.columns.size()));
        for (const PrPoint& p : shownPoints(c->run)) {
            const double row[] = { double(p.step),
                                   p.threshold,
                                   roc ? p.truePositiveRate : p.precision,
                                   roc ? p.falsePositiveRate : p.recall,
                                   p.truePositives,
                                   p.falsePositives,
                                   p.trueNegatives,
                                   p.falseNegatives };
            for (std::size_t k = 0; k < series.columns.size(); ++k)
                series.columns[k].push_back(row[k]);
        }
        data.series.push_back(std::move(series));
    }
    return data;
}

QMenu* PrCurveChart::createContextMenu(QWidget* parent)
{
    auto* menu = new QMenu(parent);
    QAction* copy = menu->addAction(chartIcon(QStringLiteral("chart-copy")), tr("Copy Image"));
    connect(copy, &QAction::triggered, this,
            [this] { QApplication::clipboard()->setPixmap(m_plot->toPixmap(0, 0, ChartExporter::kPngScale)); });
    menu->addSeparator();
    m_exportMenu->addTo(menu);
    return menu;
}

bool PrCurveChart::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot) {
        switch (event->type()) {
        case QEvent::MouseMove:
            setHoverPosition(static_cast<QMouseEvent*>(event)->position());
            break;
        case QEvent::Leave:
            clearHover();
            break;
        case QEvent::ToolTip:
            return true; // the tooltip follows the mouse (setHoverPosition)
        case QEvent::ContextMenu: {
            clearHover();
            const std::unique_ptr<QMenu> menu(createContextMenu(this));
            menu->exec(static_cast<QContextMenuEvent*>(event)->globalPos());
            return true;
        }
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PrCurveChart::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        applyTheme();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void PrCurveChart::applyTheme()
{
    const QPalette pal = palette();
    const ChartTheme theme = chartTheme(pal);
    const QColor background = theme.background;
    const QColor text = theme.text;
    const QColor muted = theme.muted;
    const QColor axisLine = theme.axisLine;
    const QColor gridLine = theme.gridLine;

    m_plot->setBackground(background);
    m_plot->axisRect()->setBackground(Qt::NoBrush);
    QFont tickFont = font();
    tickFont.setPointSizeF(std::max(7.0, tickFont.pointSizeF() * 0.85));
    QFont titleFont = font();
    titleFont.setWeight(QFont::DemiBold);
    for (QCPAxis* axis : { m_plot->xAxis, m_plot->yAxis }) {
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
        axis->grid()->setPen(QPen(gridLine, 1, Qt::SolidLine));
        axis->grid()->setZeroLinePen(Qt::NoPen);
        axis->grid()->setSubGridVisible(false);
        axis->grid()->setAntialiased(false);
    }
    for (QCPAxis* axis : { m_plot->xAxis2, m_plot->yAxis2 })
        axis->setVisible(false);
    m_title->setFont(titleFont);
    m_title->setTextColor(text);
    m_plot->legend->setFont(tickFont);
    m_plot->legend->setTextColor(muted);
    m_diagonal->setPen(QPen(muted, 1, Qt::DashLine));
}

} // namespace runlens::widgets::prcurves
