#include "widgets/steps/stepspanel.h"

#include "models/core/workerpool.h"
#include "models/trace/opstatsmodel.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/chartstyle.h"
#include "widgets/common/panelheader.h"
#include "widgets/common/replotwhenshown.h"
#include "widgets/common/stackedstepbars.h"
#include "widgets/steps/stepphasetablemodel.h"

#include <QComboBox>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::steps {

using models::trace::StepCategory;
using models::trace::StepPhase;
using models::trace::StepPhaseTimes;
using models::trace::StepTimes;

namespace {

constexpr int kClickSlop = 4; ///< pixels the pointer may move between press and release of a click

QString shareText(double share)
{
    return StepsPanel::tr("%1 %").arg(share * 100.0, 0, 'f', 1);
}

} // namespace

StepsPanel::StepsPanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("stepsPanel"));
    buildUi();
    rebuildChart();
}

StepsPanel::~StepsPanel() = default;

QColor StepsPanel::categoryColor(StepCategory category)
{
    switch (category) {
    case StepCategory::Kernel:
        return QColor(0x4c, 0x78, 0xa8);
    case StepCategory::Memcpy:
        return QColor(0xf5, 0x85, 0x18);
    case StepCategory::Memset:
        return QColor(0xe4, 0x57, 0x56);
    case StepCategory::Communication:
        return QColor(0x72, 0xb7, 0xb2);
    case StepCategory::Runtime:
        return QColor(0x54, 0xa2, 0x4b);
    case StepCategory::DataLoader:
        return QColor(0xee, 0xca, 0x3b);
    case StepCategory::CpuOp:
        return QColor(0xb2, 0x79, 0xa2);
    case StepCategory::Other:
        return QColor(0x9d, 0x75, 0x5d);
    case StepCategory::Idle:
        return QColor(0xc9, 0xc4, 0xc0);
    }
    return Qt::gray;
}

QColor StepsPanel::phaseColor(StepPhase phase)
{
    switch (phase) {
    case StepPhase::DataLoading:
        return categoryColor(StepCategory::DataLoader);
    case StepPhase::Forward:
        return QColor(0x4c, 0x78, 0xa8);
    case StepPhase::Backward:
        return QColor(0xf5, 0x85, 0x18);
    case StepPhase::Optimizer:
        return QColor(0x54, 0xa2, 0x4b);
    case StepPhase::Other:
        return categoryColor(StepCategory::Idle);
    }
    return Qt::gray;
}

void StepsPanel::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    m_header = new PanelHeader(this);
    m_sourceCombo = m_header->addSelector(QStringLiteral("stepsSource"), tr("The rank whose steps are shown"));
    m_sourceCombo->setVisible(false);
    m_summary = m_header->addSummary(QStringLiteral("stepsSummary"), PanelHeader::TextMode::SingleLine);
    m_exportButton = m_header->addExportButton(QStringLiteral("stepsExport"));
    layout->addWidget(m_header);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("stepsSplitter"));
    splitter->setChildrenCollapsible(false);
    layout->addWidget(splitter, 1);
    m_plot = new QCustomPlot(splitter);
    m_plot->setObjectName(QStringLiteral("stepsChart"));
    m_plot->setMinimumHeight(120);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    splitter->addWidget(m_plot);

    const ChartChrome chrome = styleChartAxes(m_plot, font(), true);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->xAxis->setLabel(tr("Step"));

    // Legend in a row under the chart so it never hides bars.
    m_plot->legend->setVisible(true);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
    m_plot->legend->setFont(chrome.tickFont);
    m_plot->legend->setTextColor(chrome.muted);
    m_plot->legend->setIconSize(12, 10);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setWrap(5);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->axisRect()->insetLayout()->simplify();
    m_plot->plotLayout()->addElement(1, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_plot->legend->setMargins(QMargins(8, 0, 8, 6));

    QCPBars* below = nullptr;
    for (int c = 0; c < models::trace::kStepCategoryCount; ++c) {
        auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        const StepCategory category = StepCategory(c);
        bars->setName(models::trace::stepCategoryName(category));
        bars->setWidth(StackedStepBars::kBarWidth);
        bars->setPen(Qt::NoPen);
        bars->setBrush(categoryColor(category));
        bars->setStackingGap(0);
        bars->setAntialiased(false);
        if (below)
            bars->moveAbove(below);
        below = bars;
        m_bars << bars;
    }
    m_stepBars = new StackedStepBars(m_plot, this);
    m_stepBars->setBars(m_bars);

    m_exportMenu = new ChartExportMenu(m_plot, this);
    m_exportMenu->setBaseName(QStringLiteral("step-breakdown"));
    m_exportMenu->setDataProvider([this] { return chartData(); });
    // Exported pictures stand alone, so they carry a title the panel itself does not need.
    m_exportMenu->setExportHook(exportTitleHook(m_plot, this, [this] { return tr("Step time breakdown"); }));
    connect(m_exportMenu, &ChartExportMenu::exported, this, &StepsPanel::chartExported);
    connect(m_exportMenu, &ChartExportMenu::exportFailed, this, &StepsPanel::chartExportFailed);
    m_header->addChartExport(m_exportMenu);

    connect(m_sourceCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (m_sourceCombo->currentIndex() >= 0)
            setSource(m_sourceCombo->currentData().toInt());
    });
    // A click shows its step; a press that moves on pans the chart instead.
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        m_pressPos = event->button() == Qt::LeftButton ? event->position().toPoint() : QPoint(-1000, -1000);
    });
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton || !m_breakdown
            || (event->position().toPoint() - m_pressPos).manhattanLength() > kClickSlop)
            return;
        const int index = stepIndexAt(event->position().toPoint());
        if (index >= 0) {
            const StepTimes& step = m_breakdown->steps[std::size_t(index)];
            emit stepActivated(index, step.start, step.end);
        }
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (event->buttons() != Qt::NoButton)
            return; // panning
        const QPoint pos = event->position().toPoint();
        m_plot->setCursor(stepIndexAt(pos) >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
        const int hover = hoverKey(pos);
        if (hover != m_hoverBar) {
            m_hoverBar = hover;
            const QString text = toolTipAt(pos);
            if (text.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
        }
    });
    connect(m_plot, &QWidget::customContextMenuRequested, this, &StepsPanel::showContextMenu);
    buildPhaseUi(splitter);
}

void StepsPanel::buildPhaseUi(QSplitter* splitter)
{
    m_phasePlot = new QCustomPlot(splitter);
    m_phasePlot->setObjectName(QStringLiteral("stepsPhaseChart"));
    m_phasePlot->setMinimumHeight(120);
    m_phasePlot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_phasePlot->setMouseTracking(true);
    m_phasePlot->installEventFilter(this);
    splitter->addWidget(m_phasePlot);

    const ChartChrome chrome = styleChartAxes(m_phasePlot, font(), true);
    m_phasePlot->xAxis->grid()->setVisible(false);
    m_phasePlot->xAxis->setLabel(tr("Step"));
    m_phasePlot->legend->setVisible(true);
    m_phasePlot->legend->setBorderPen(Qt::NoPen);
    m_phasePlot->legend->setBrush(Qt::NoBrush);
    m_phasePlot->legend->setFont(chrome.tickFont);
    m_phasePlot->legend->setTextColor(chrome.muted);
    m_phasePlot->legend->setIconSize(12, 10);
    m_phasePlot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_phasePlot->legend->setWrap(5);
    m_phasePlot->axisRect()->insetLayout()->take(m_phasePlot->legend);
    m_phasePlot->axisRect()->insetLayout()->simplify();
    m_phasePlot->plotLayout()->addElement(1, 0, m_phasePlot->legend);
    m_phasePlot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_phasePlot->legend->setMargins(QMargins(8, 0, 8, 6));

    QCPBars* below = nullptr;
    for (int p = 0; p < models::trace::kStepPhaseCount; ++p) {
        auto* bars = new QCPBars(m_phasePlot->xAxis, m_phasePlot->yAxis);
        bars->setName(models::trace::stepPhaseName(StepPhase(p)));
        bars->setWidth(StackedStepBars::kBarWidth);
        bars->setPen(Qt::NoPen);
        bars->setBrush(phaseColor(StepPhase(p)));
        bars->setStackingGap(0);
        bars->setAntialiased(false);
        if (below)
            bars->moveAbove(below);
        below = bars;
        m_phaseBars << bars;
    }
    m_phaseStepBars = new StackedStepBars(m_phasePlot, this);
    m_phaseStepBars->setBars(m_phaseBars);

    m_phaseExportMenu = new ChartExportMenu(m_phasePlot, this);
    m_phaseExportMenu->setBaseName(QStringLiteral("step-phases"));
    m_phaseExportMenu->setDataProvider([this] { return phaseChartData(); });
    m_phaseExportMenu->setExportHook(exportTitleHook(m_phasePlot, this, [this] { return tr("Step phases"); }));
    connect(m_phaseExportMenu, &ChartExportMenu::exported, this, &StepsPanel::chartExported);
    connect(m_phaseExportMenu, &ChartExportMenu::exportFailed, this, &StepsPanel::chartExportFailed);
    m_header->addChartExport(m_phaseExportMenu, tr("Step phases"));

    connect(m_phasePlot, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        m_pressPos = event->button() == Qt::LeftButton ? event->position().toPoint() : QPoint(-1000, -1000);
    });
    connect(m_phasePlot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        if (event->button() != Qt::LeftButton
            || (event->position().toPoint() - m_pressPos).manhattanLength() > kClickSlop)
            return;
        const int bar = phaseBarAt(event->position().toPoint());
        const auto* summary = m_phases ? m_phases->summaryFor(m_source) : nullptr;
        if (summary && bar >= 0 && bar < int(summary->stepCount)) {
            const std::size_t index = summary->firstStep + std::size_t(bar);
            const StepPhaseTimes& step = m_phases->steps[index];
            emit stepActivated(int(index), step.start, step.end);
        }
    });
    connect(m_phasePlot, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        m_phaseExportMenu->addTo(&menu);
        menu.exec(m_phasePlot->mapToGlobal(pos));
    });

    m_phaseModel = new StepPhaseTableModel(this);
    m_phaseTable = new QTableView(splitter);
    m_phaseTable->setObjectName(QStringLiteral("stepsPhaseTable"));
    m_phaseTable->setModel(m_phaseModel);
    m_phaseTable->verticalHeader()->hide();
    m_phaseTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_phaseTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_phaseTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_phaseTable->verticalHeader()->setDefaultSectionSize(m_phaseTable->fontMetrics().height() + 6);
    m_phaseTable->setMinimumHeight(60);
    splitter->addWidget(m_phaseTable);
    connect(m_phaseTable, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        const auto* summary = m_phases ? m_phases->summaryFor(m_source) : nullptr;
        if (const StepPhaseTimes* step = m_phaseModel->stepAt(index.row()); step && summary)
            emit stepActivated(int(summary->firstStep) + index.row(), step->start, step->end);
    });
    // The charts are what the panel is for; the table is for reading exact numbers.
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 4);
    splitter->setStretchFactor(2, 1);
}

bool StepsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (!text.isEmpty())
            QToolTip::showText(help->globalPos(), text, m_plot);
        else
            QToolTip::hideText();
        return true;
    }
    if (watched == m_plot && event->type() == QEvent::Leave)
        m_hoverBar = -1;
    if (watched == m_phasePlot && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = phaseToolTipForBar(phaseBarAt(help->pos()));
        if (!text.isEmpty())
            QToolTip::showText(help->globalPos(), text, m_phasePlot);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void StepsPanel::setStore(std::shared_ptr<const models::trace::TraceStore> store)
{
    if (store == m_store)
        return;
    m_store = std::move(store);
    const quint64 generation = ++m_generation;
    if (!m_store) {
        m_computing = false;
        m_breakdown.reset();
        m_phases.reset();
        rebuildChart();
        emit breakdownReady();
        return;
    }
    m_computing = true;
    updateSummary();
    using Result = std::pair<std::shared_ptr<const models::trace::StepBreakdown>,
                             std::shared_ptr<const models::trace::StepPhases>>;
    QtConcurrent::run(models::workerPool(), [store = m_store] {
        auto breakdown
            = std::make_shared<const models::trace::StepBreakdown>(models::trace::computeStepBreakdown(*store));
        auto phases
            = std::make_shared<const models::trace::StepPhases>(models::trace::computeStepPhases(*store, *breakdown));
        return Result(std::move(breakdown), std::move(phases));
    }).then(this, [this, generation](Result result) {
        if (generation != m_generation)
            return;
        m_computing = false;
        m_breakdown = std::move(result.first);
        m_phases = std::move(result.second);
        rebuildChart();
        emit breakdownReady();
    });
}

void StepsPanel::setBreakdown(std::shared_ptr<const models::trace::StepBreakdown> breakdown)
{
    ++m_generation;
    m_computing = false;
    m_breakdown = std::move(breakdown);
    m_phases.reset();
    rebuildChart();
    emit breakdownReady();
}

void StepsPanel::setSource(int source)
{
    if (source == m_source)
        return;
    m_source = source;
    const int index = m_sourceCombo->findData(source);
    if (index >= 0 && index != m_sourceCombo->currentIndex()) {
        const QSignalBlocker blocker(m_sourceCombo);
        m_sourceCombo->setCurrentIndex(index);
    }
    rebuildChart();
}

int StepsPanel::barCount() const
{
    const auto* summary = m_breakdown ? m_breakdown->summaryFor(m_source) : nullptr;
    return summary && summary->stepCount ? int(summary->stepCount) + 1 : 0;
}

double StepsPanel::barX(int bar) const
{
    const int steps = std::max(0, barCount() - 1);
    return bar < steps ? double(bar) : double(steps) + StackedStepBars::kAverageGap;
}

const StepTimes* StepsPanel::stepOfBar(int bar) const
{
    const auto* summary = m_breakdown ? m_breakdown->summaryFor(m_source) : nullptr;
    if (!summary || bar < 0 || bar >= int(summary->stepCount))
        return nullptr;
    return &m_breakdown->steps[summary->firstStep + std::size_t(bar)];
}

StackedStepBars::Hit StepsPanel::hitAt(const QPoint& plotPos) const
{
    if (!barCount() || !m_plot->axisRect()->rect().contains(plotPos))
        return {};
    if (m_plot->yAxis->pixelToCoord(plotPos.y()) < m_plot->yAxis->range().lower)
        return {};
    return m_stepBars->hitAt(m_plot->xAxis->pixelToCoord(plotPos.x()));
}

int StepsPanel::hoverKey(const QPoint& plotPos) const
{
    const StackedStepBars::Hit hit = hitAt(plotPos);
    if (hit.average)
        return barCount() - 1;
    // A column is known by its first step, the same whether it holds one step or several.
    return hit.first;
}

int StepsPanel::stepIndexAt(const QPoint& plotPos) const
{
    const StackedStepBars::Hit hit = hitAt(plotPos);
    if (hit.average)
        return -2;
    if (hit.slowest < 0)
        return -1;
    // A column of several steps stands for its slowest: the one worth a look in the timeline.
    return int(m_breakdown->summaryFor(m_source)->firstStep) + hit.slowest;
}

QString StepsPanel::toolTipAt(const QPoint& plotPos) const
{
    const StackedStepBars::Hit hit = hitAt(plotPos);
    if (hit.average)
        return toolTipForBar(barCount() - 1);
    if (hit.count == 1)
        return toolTipForBar(hit.first);
    if (hit.count < 1)
        return {};
    const StepTimes* firstStep = stepOfBar(hit.first);
    const StepTimes* lastStep = stepOfBar(hit.first + hit.count - 1);
    const StepTimes* slowest = stepOfBar(hit.slowest);
    if (!firstStep || !lastStep || !slowest)
        return {};
    const models::StepColumn& column = m_stepBars->columns().columns[std::size_t(hit.column)];
    const QString title = tr("Steps %1–%2").arg(firstStep->number).arg(lastStep->number);
    QString html = QStringLiteral("<b>%1</b> &nbsp; %2<br>%3<table cellspacing=\"0\" cellpadding=\"1\">")
                       .arg(title.toHtmlEscaped(),
                            tr("mean %1")
                                .arg(models::trace::formatDuration(std::int64_t(column.meanTotal * m_unit)))
                                .toHtmlEscaped(),
                            tr("Each bar: the mean of %n step(s)", nullptr, hit.count).toHtmlEscaped());
    for (int c = 0; c < models::trace::kStepCategoryCount; ++c) {
        const double mean = m_stepBars->columns().mean(std::size_t(hit.column), std::size_t(c)) * m_unit;
        if (mean <= 0)
            continue;
        const StepCategory category = StepCategory(c);
        html += QStringLiteral("<tr><td><span style=\"color:%1\">&#9632;</span> %2</td>"
                               "<td align=\"right\">&nbsp;&nbsp;%3</td><td align=\"right\">&nbsp;&nbsp;%4</td></tr>")
                    .arg(categoryColor(category).name(), models::trace::stepCategoryName(category).toHtmlEscaped(),
                         models::trace::formatDuration(std::int64_t(std::llround(mean))).toHtmlEscaped(),
                         shareText(column.meanTotal > 0 ? mean / (column.meanTotal * m_unit) : 0.0).toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    html += tr("Slowest: step %1, %2")
                .arg(slowest->number)
                .arg(models::trace::formatDuration(slowest->duration()))
                .toHtmlEscaped();
    html += QStringLiteral("<br><i>%1</i>").arg(tr("Click to show the slowest step in the timeline").toHtmlEscaped());
    return html;
}

QPoint StepsPanel::barCenter(int bar) const
{
    const double x = m_plot->xAxis->coordToPixel(barX(bar));
    const double y = m_plot->yAxis->coordToPixel(m_plot->yAxis->range().lower);
    return QPoint(int(std::lround(x)), int(std::lround(y)) - 5);
}

QString StepsPanel::toolTipForBar(int bar) const
{
    const auto* summary = m_breakdown ? m_breakdown->summaryFor(m_source) : nullptr;
    if (!summary || bar < 0 || bar >= barCount())
        return {};
    const StepTimes* step = stepOfBar(bar);
    const StepTimes& times = step ? *step : summary->average;
    QString title;
    if (!step)
        title = tr("Average of %n step(s)", nullptr, int(summary->stepCount));
    else if (summary->wholeTrace)
        title = tr("Whole trace (no step markers)");
    else
        title = tr("Step %1").arg(step->number);
    QString html = QStringLiteral("<b>%1</b> &nbsp; %2<table cellspacing=\"0\" cellpadding=\"1\">")
                       .arg(title.toHtmlEscaped(), models::trace::formatDuration(times.duration()).toHtmlEscaped());
    for (int c = 0; c < models::trace::kStepCategoryCount; ++c) {
        const StepCategory category = StepCategory(c);
        if (times.time(category) == 0)
            continue;
        html += QStringLiteral("<tr><td><span style=\"color:%1\">&#9632;</span> %2</td>"
                               "<td align=\"right\">&nbsp;&nbsp;%3</td><td align=\"right\">&nbsp;&nbsp;%4</td></tr>")
                    .arg(categoryColor(category).name(), models::trace::stepCategoryName(category).toHtmlEscaped(),
                         models::trace::formatDuration(times.time(category)).toHtmlEscaped(),
                         shareText(times.share(category)).toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    if (step)
        html += QStringLiteral("<i>%1</i>").arg(tr("Click to show this step in the timeline").toHtmlEscaped());
    return html;
}

void StepsPanel::rebuildChart()
{
    // Rank selector: only when the breakdown covers several sources.
    {
        const QSignalBlocker blocker(m_sourceCombo);
        m_sourceCombo->clear();
        if (m_breakdown) {
            for (const auto& s : m_breakdown->sources) {
                int rank = -1;
                if (m_store && s.source < int(m_store->sources().size()))
                    rank = m_store->sources()[std::size_t(s.source)].rank;
                m_sourceCombo->addItem(rank >= 0 ? tr("Rank %1").arg(rank) : tr("Trace %1").arg(s.source + 1),
                                       s.source);
            }
            if (!m_breakdown->summaryFor(m_source) && !m_breakdown->sources.empty())
                m_source = m_breakdown->sources.front().source;
        }
        m_sourceCombo->setCurrentIndex(m_sourceCombo->findData(m_source));
        m_sourceCombo->setVisible(m_sourceCombo->count() > 1);
    }

    const auto* summary = m_breakdown ? m_breakdown->summaryFor(m_source) : nullptr;
    const int bars = barCount();
    std::int64_t longest = 0;
    for (int b = 0; b < bars; ++b) {
        const StepTimes* step = stepOfBar(b);
        longest = std::max(longest, step ? step->duration() : summary->average.duration());
    }
    QString unitName;
    if (longest >= 10'000'000'000) {
        m_unit = 1e9;
        unitName = tr("s");
    } else if (longest >= 10'000'000) {
        m_unit = 1e6;
        unitName = tr("ms");
    } else if (longest >= 10'000) {
        m_unit = 1e3;
        unitName = tr("µs");
    } else {
        m_unit = 1;
        unitName = tr("ns");
    }
    m_plot->yAxis->setLabel(tr("Time (%1)").arg(unitName));

    const int steps = std::max(0, bars - 1);
    std::vector<double> values;
    values.reserve(std::size_t(steps) * models::trace::kStepCategoryCount);
    QStringList labels;
    labels.reserve(steps);
    for (int b = 0; b < steps; ++b) {
        const StepTimes* step = stepOfBar(b);
        for (std::int64_t ns : step->ns)
            values.push_back(double(ns) / m_unit);
        labels << (summary->wholeTrace ? tr("All") : QString::number(step->number));
    }
    std::vector<double> average;
    if (steps) {
        for (std::int64_t ns : summary->average.ns)
            average.push_back(double(ns) / m_unit);
    }
    m_stepBars->setSteps(std::move(values), std::move(average), std::move(labels), tr("Avg"), tr("Step"));
    m_plot->yAxis->setRange(0, longest > 0 ? double(longest) / m_unit * 1.08 : 1.0);
    m_hoverBar = -1;
    replotWhenShown(m_plot);
    rebuildPhaseChart();
    updateSummary();
}

int StepsPanel::phaseBarCount() const
{
    const auto* summary = m_phases ? m_phases->summaryFor(m_source) : nullptr;
    return summary && summary->stepCount ? int(summary->stepCount) + 1 : 0;
}

const StepPhaseTimes* StepsPanel::phaseStepOfBar(int bar) const
{
    const auto* summary = m_phases ? m_phases->summaryFor(m_source) : nullptr;
    if (!summary || bar < 0 || bar >= int(summary->stepCount))
        return nullptr;
    return &m_phases->steps[summary->firstStep + std::size_t(bar)];
}

int StepsPanel::phaseBarAt(const QPoint& plotPos) const
{
    if (!phaseBarCount() || !m_phasePlot->axisRect()->rect().contains(plotPos))
        return -1;
    const StackedStepBars::Hit hit = m_phaseStepBars->hitAt(m_phasePlot->xAxis->pixelToCoord(plotPos.x()));
    if (hit.average)
        return phaseBarCount() - 1;
    return hit.count >= 1 ? hit.slowest : -1;
}

QPoint StepsPanel::phaseBarCenter(int bar) const
{
    const int steps = std::max(0, phaseBarCount() - 1);
    const double x = bar < steps ? double(bar) : double(steps) + StackedStepBars::kAverageGap;
    return QPoint(int(std::lround(m_phasePlot->xAxis->coordToPixel(x))),
                  int(std::lround(m_phasePlot->yAxis->coordToPixel(m_phasePlot->yAxis->range().lower))) - 5);
}

QString StepsPanel::phaseToolTipForBar(int bar) const
{
    const auto* summary = m_phases ? m_phases->summaryFor(m_source) : nullptr;
    if (!summary || bar < 0 || bar >= phaseBarCount())
        return {};
    const StepPhaseTimes* step = phaseStepOfBar(bar);
    const StepPhaseTimes& times = step ? *step : summary->average;
    const QString title
        = step ? tr("Step %1").arg(step->number) : tr("Mean of %n step(s)", nullptr, int(summary->stepCount));
    QString html = QStringLiteral("<b>%1</b> &nbsp; %2<table cellspacing=\"0\" cellpadding=\"1\"><tr><td></td>"
                                  "<td align=\"right\">&nbsp;&nbsp;%3</td><td align=\"right\">&nbsp;&nbsp;%4</td></tr>")
                       .arg(title.toHtmlEscaped(), models::trace::formatDuration(times.cpuDuration()).toHtmlEscaped(),
                            tr("Host").toHtmlEscaped(), summary->hasDevice ? tr("GPU").toHtmlEscaped() : QString());
    for (int p = 0; p < models::trace::kStepPhaseCount; ++p) {
        const auto phase = StepPhase(p);
        html += QStringLiteral(
                    "<tr><td><span style=\"color:%1\">&#9632;</span> %2</td>"
                    "<td align=\"right\">&nbsp;&nbsp;%3 (%4)</td><td align=\"right\">&nbsp;&nbsp;%5</td></tr>")
                    .arg(phaseColor(phase).name(), models::trace::stepPhaseName(phase).toHtmlEscaped(),
                         models::trace::formatDuration(times.cpu(phase)).toHtmlEscaped(),
                         shareText(times.share(phase)).toHtmlEscaped(),
                         summary->hasDevice ? models::trace::formatDuration(times.gpu(phase)).toHtmlEscaped()
                                            : QString());
    }
    html += QStringLiteral("</table>");
    if (step && step->forwardBackwardRatio() > 0)
        html += tr("Forward / backward: %1").arg(step->forwardBackwardRatio(), 0, 'f', 2).toHtmlEscaped();
    return html;
}

void StepsPanel::rebuildPhaseChart()
{
    const auto* summary = m_phases ? m_phases->summaryFor(m_source) : nullptr;
    m_phaseModel->setPhases(m_phases, m_source);
    const int bars = phaseBarCount();
    std::int64_t longest = 0;
    for (int b = 0; b < bars; ++b) {
        const StepPhaseTimes* step = phaseStepOfBar(b);
        longest = std::max(longest, step ? step->cpuDuration() : summary->average.cpuDuration());
    }
    QString unitName;
    if (longest >= 10'000'000'000) {
        m_phaseUnit = 1e9;
        unitName = tr("s");
    } else if (longest >= 10'000'000) {
        m_phaseUnit = 1e6;
        unitName = tr("ms");
    } else if (longest >= 10'000) {
        m_phaseUnit = 1e3;
        unitName = tr("µs");
    } else {
        m_phaseUnit = 1;
        unitName = tr("ns");
    }
    m_phasePlot->yAxis->setLabel(tr("Host time (%1)").arg(unitName));
    const int steps = std::max(0, bars - 1);
    std::vector<double> values;
    values.reserve(std::size_t(steps) * models::trace::kStepPhaseCount);
    QStringList labels;
    for (int b = 0; b < steps; ++b) {
        const StepPhaseTimes* step = phaseStepOfBar(b);
        for (std::int64_t ns : step->cpuNs)
            values.push_back(double(ns) / m_phaseUnit);
        labels << QString::number(step->number);
    }
    std::vector<double> average;
    if (steps) {
        for (std::int64_t ns : summary->average.cpuNs)
            average.push_back(double(ns) / m_phaseUnit);
    }
    m_phaseStepBars->setSteps(std::move(values), std::move(average), std::move(labels), tr("Avg"), tr("Step"));
    m_phasePlot->yAxis->setRange(0, longest > 0 ? double(longest) / m_phaseUnit * 1.08 : 1.0);
    replotWhenShown(m_phasePlot);
}

ChartData StepsPanel::phaseChartData() const
{
    ChartData data;
    data.title = tr("Step phases");
    data.xLabel = tr("Step");
    data.yLabel = tr("Time (ns)");
    data.seriesColumn = QStringLiteral("step");
    data.columns << QStringLiteral("cpu_start_ns") << QStringLiteral("cpu_end_ns") << QStringLiteral("cpu_duration_ns");
    for (int p = 0; p < models::trace::kStepPhaseCount; ++p)
        data.columns << QStringLiteral("%1_ns").arg(QLatin1String(models::trace::stepPhaseId(StepPhase(p))));
    for (int p = 0; p < models::trace::kStepPhaseCount; ++p)
        data.columns << QStringLiteral("gpu_%1_ns").arg(QLatin1String(models::trace::stepPhaseId(StepPhase(p))));
    const std::int64_t origin = m_store ? m_store->startTime() : 0;
    const auto* summary = m_phases ? m_phases->summaryFor(m_source) : nullptr;
    for (int b = 0; b < phaseBarCount(); ++b) {
        const StepPhaseTimes* step = phaseStepOfBar(b);
        const StepPhaseTimes& times = step ? *step : summary->average;
        ChartSeriesData series;
        series.name = step ? QString::number(step->number) : QStringLiteral("average");
        series.columns.push_back({ step ? double(step->cpuStart - origin) : std::nan("") });
        series.columns.push_back({ step ? double(step->cpuEnd - origin) : std::nan("") });
        series.columns.push_back({ double(times.cpuDuration()) });
        for (std::int64_t ns : times.cpuNs)
            series.columns.push_back({ double(ns) });
        for (std::int64_t ns : times.gpuNs)
            series.columns.push_back({ double(ns) });
        data.series.push_back(std::move(series));
    }
    return data;
}

void StepsPanel::updateSummary()
{
    if (m_computing) {
        m_summary->setText(tr("Computing the step breakdown…"));
        return;
    }
    const auto* summary = m_breakdown ? m_breakdown->summaryFor(m_source) : nullptr;
    if (!summary || !summary->stepCount) {
        m_summary->setText(m_store || m_breakdown ? tr("No steps in this trace") : tr("No profiler trace"));
        return;
    }
    const StepTimes& avg = summary->average;
    const QString steps = summary->wholeTrace ? tr("No step markers: the whole trace as one step")
                                              : tr("%n step(s)", nullptr, int(summary->stepCount));
    m_summary->setText(tr("%1 · average %2 · kernel %3 · idle %4")
                           .arg(steps, models::trace::formatDuration(avg.duration()),
                                shareText(avg.share(StepCategory::Kernel)), shareText(avg.share(StepCategory::Idle))));
}

ChartData StepsPanel::chartData() const
{
    ChartData data;
    data.title = tr("Step time breakdown");
    data.xLabel = tr("Step");
    data.yLabel = tr("Time (ns)");
    data.seriesColumn = QStringLiteral("step");
    // Times from the start of the trace, as the timeline ruler shows them: absolute nanoseconds since
    // the epoch do not fit a double exactly.
    data.columns << QStringLiteral("start_ns") << QStringLiteral("end_ns") << QStringLiteral("duration_ns");
    const std::int64_t origin = m_store ? m_store->startTime() : 0;
    for (int c = 0; c < models::trace::kStepCategoryCount; ++c)
        data.columns << QStringLiteral("%1_ns").arg(QLatin1String(models::trace::stepCategoryId(StepCategory(c))));
    const auto* summary = m_breakdown ? m_breakdown->summaryFor(m_source) : nullptr;
    const int bars = barCount();
    for (int b = 0; b < bars; ++b) {
        const StepTimes* step = stepOfBar(b);
        const StepTimes& times = step ? *step : summary->average;
        ChartSeriesData series;
        series.name = step ? QString::number(step->number) : QStringLiteral("average");
        series.columns.push_back({ step ? double(step->start - origin) : std::nan("") });
        series.columns.push_back({ step ? double(step->end - origin) : std::nan("") });
        series.columns.push_back({ double(times.duration()) });
        for (int c = 0; c < models::trace::kStepCategoryCount; ++c)
            series.columns.push_back({ double(times.ns[std::size_t(c)]) });
        data.series.push_back(std::move(series));
    }
    return data;
}

void StepsPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_exportMenu->setFileNameProvider(std::move(provider));
}

void StepsPanel::setExportDirectory(const QString& directory)
{
    m_exportMenu->setDefaultDirectory(directory);
}

void StepsPanel::showContextMenu(const QPoint& pos)
{
    QMenu menu(this);
    const int index = stepIndexAt(pos);
    if (index >= 0) {
        const StepTimes& step = m_breakdown->steps[std::size_t(index)];
        menu.addAction(tr("Show step %1 in the timeline").arg(step.number), this,
                       [this, index, start = step.start, end = step.end] { emit stepActivated(index, start, end); });
        menu.addSeparator();
    }
    m_exportMenu->addTo(&menu);
    menu.exec(m_plot->mapToGlobal(pos));
}

} // namespace runlens::widgets::steps
