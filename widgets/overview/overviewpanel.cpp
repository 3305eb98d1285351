#include "widgets/overview/overviewpanel.h"

#include "models/profiler/profileroptablemodel.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/chartstyle.h"
#include "widgets/common/panelheader.h"
#include "widgets/common/replotwhenshown.h"
#include "widgets/common/stackedstepbars.h"

#include <QComboBox>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::overview {

using models::profiler::ProfilerOpTableModel;
using models::profiler::ProfilerRankData;

namespace {

constexpr double kBarWidth = StackedStepBars::kBarWidth;
constexpr int kTopOperators = 10;

QString formatUs(double us)
{
    return ProfilerOpTableModel::formatMicroseconds(us);
}

/// Axis unit for values up to `longestUs`: factor (µs per unit) and name.
std::pair<double, QString> axisUnit(double longestUs)
{
    if (longestUs >= 1.0e7)
        return { 1.0e6, OverviewPanel::tr("s") };
    if (longestUs >= 1.0e4)
        return { 1.0e3, OverviewPanel::tr("ms") };
    return { 1.0, OverviewPanel::tr("µs") };
}

void styleAxes(QCustomPlot* plot, const QFont& font, const QPalette& pal)
{
    const ChartChrome chrome = styleChartAxes(plot, font);
    plot->legend->setFont(chrome.tickFont);
    plot->legend->setTextColor(chrome.muted);
}

} // namespace

OverviewPanel::OverviewPanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("overviewPanel"));
    buildUi();
    rebuild();
}

OverviewPanel::~OverviewPanel() = default;

QColor OverviewPanel::categoryColor(int index, int count)
{
    Q_UNUSED(count);
    return runColor(index);
}

QCustomPlot* OverviewPanel::makePlot(const QString& objectName)
{
    auto* plot = new QCustomPlot(this);
    plot->setObjectName(objectName);
    plot->setMinimumHeight(120);
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    plot->setMouseTracking(true);
    plot->installEventFilter(this);
    styleAxes(plot, font(), palette());
    return plot;
}

ChartExportMenu* OverviewPanel::makeExportMenu(QCustomPlot* plot, const QString& baseName, const QString& title,
                                               std::function<ChartData()> data)
{
    auto* menu = new ChartExportMenu(plot, this);
    menu->setBaseName(baseName);
    menu->setDataProvider(std::move(data));
    // Exported pictures stand alone, so they carry a title the panel itself does not need.
    menu->setExportHook(exportTitleHook(plot, this, [title] { return title; }));
    connect(menu, &ChartExportMenu::exported, this, &OverviewPanel::chartExported);
    connect(menu, &ChartExportMenu::exportFailed, this, &OverviewPanel::chartExportFailed);
    connect(plot, &QWidget::customContextMenuRequested, this, [plot, menu](const QPoint& pos) {
        QMenu context(plot);
        menu->addTo(&context);
        context.exec(plot->mapToGlobal(pos));
    });
    return menu;
}

void OverviewPanel::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    m_header = new PanelHeader(this);
    m_runCombo = m_header->addSelector(QStringLiteral("overviewRun"), tr("The run whose profiler output is shown"));
    m_runCombo->setVisible(false);
    m_rankCombo = m_header->addSelector(QStringLiteral("overviewRank"), tr("The rank (device) shown"));
    m_rankCombo->setVisible(false);
    m_device = m_header->addLabel(QStringLiteral("overviewDevice"));
    m_summary = m_header->addSummary(QStringLiteral("overviewSummary"), PanelHeader::TextMode::WordWrap);
    m_exportButton = m_header->addExportButton(QStringLiteral("overviewExport"));
    layout->addWidget(m_header);

    m_stack = new QStackedWidget(this);
    m_emptyLabel = new QLabel(m_stack);
    m_emptyLabel->setObjectName(QStringLiteral("emptyState"));
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setText(tr("No profiler data. Open a run folder with a MindSpore profiler folder (profiler/ or "
                             "*_ascend_ms/ASCEND_PROFILER_OUTPUT) or a PyTorch profiler trace to see its steps and "
                             "top operators here."));
    m_stack->addWidget(m_emptyLabel);

    auto* splitter = new QSplitter(Qt::Vertical, m_stack);
    splitter->setObjectName(QStringLiteral("overviewSplitter"));
    splitter->setChildrenCollapsible(false);
    m_stepPlot = makePlot(QStringLiteral("overviewStepChart"));
    m_stepPlot->xAxis->setLabel(tr("Step"));
    m_stepPlot->xAxis->grid()->setVisible(false);
    // Legend in a row under the chart so it never hides bars.
    m_stepPlot->legend->setVisible(true);
    m_stepPlot->legend->setBorderPen(Qt::NoPen);
    m_stepPlot->legend->setBrush(Qt::NoBrush);
    m_stepPlot->legend->setIconSize(12, 10);
    m_stepPlot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_stepPlot->legend->setWrap(4);
    m_stepPlot->axisRect()->insetLayout()->take(m_stepPlot->legend);
    m_stepPlot->axisRect()->insetLayout()->simplify();
    m_stepPlot->plotLayout()->addElement(1, 0, m_stepPlot->legend);
    m_stepPlot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_stepPlot->legend->setMargins(QMargins(8, 0, 8, 6));
    m_stepBars = new StackedStepBars(m_stepPlot, this);
    splitter->addWidget(m_stepPlot);

    m_opPlot = makePlot(QStringLiteral("overviewOperatorChart"));
    m_opPlot->yAxis->grid()->setVisible(false);
    m_opPlot->yAxis->setRangeReversed(true); // largest on top
    splitter->addWidget(m_opPlot);

    m_opModel = new ProfilerOpTableModel(this);
    m_opTable = new QTableView(splitter);
    m_opTable->setObjectName(QStringLiteral("overviewOperatorTable"));
    m_opTable->setModel(m_opModel);
    m_opTable->setSortingEnabled(false);
    m_opTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_opTable->verticalHeader()->setVisible(false);
    m_opTable->horizontalHeader()->setStretchLastSection(true);
    splitter->addWidget(m_opTable);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 2);
    m_stack->addWidget(splitter);
    layout->addWidget(m_stack, 1);

    m_stepExport = makeExportMenu(m_stepPlot, QStringLiteral("step-overview"), tr("Step time breakdown"),
                                  [this] { return stepChartData(); });
    m_opExport = makeExportMenu(m_opPlot, QStringLiteral("top-operators"), tr("Top operator types"),
                                [this] { return operatorChartData(); });
    m_header->addChartExport(m_stepExport, tr("Step time breakdown"));
    m_header->addChartExport(m_opExport, tr("Top operator types"));

    connect(m_rankCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            setRankIndex(index);
    });
    connect(m_runCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            emit profilerRunChanged(m_runCombo->itemData(index).toString());
    });
}

void OverviewPanel::setProfilerRuns(const QStringList& runs, const QString& current, const QStringList& names)
{
    const QSignalBlocker blocker(m_runCombo);
    m_runCombo->clear();
    for (qsizetype i = 0; i < runs.size(); ++i)
        m_runCombo->addItem(names.value(i, runs[i]), runs[i]);
    m_runCombo->setCurrentIndex(std::max(0, int(runs.indexOf(current))));
    m_runCombo->setVisible(runs.size() > 1);
}

QString OverviewPanel::currentProfilerRun() const
{
    return m_runCombo->currentData().toString();
}

bool OverviewPanel::eventFilter(QObject* watched, QEvent* event)
{
    auto* plot = qobject_cast<QCustomPlot*>(watched);
    if (plot == m_opPlot && event->type() == QEvent::Resize)
        fitOperatorLabels(); // before the plot lays itself out again for the new size
    if (plot && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(plot, help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, plot);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void OverviewPanel::setProfilerData(std::shared_ptr<const models::profiler::ProfilerRunData> run)
{
    m_run = std::move(run);
    m_rankIndex = 0;
    rebuild();
}

void OverviewPanel::setTraceBreakdown(std::shared_ptr<const models::trace::StepBreakdown> breakdown)
{
    m_breakdown = std::move(breakdown);
    if (!m_run || m_run->isEmpty())
        m_rankIndex = 0;
    rebuild();
}

int OverviewPanel::rankCount() const
{
    if (m_run && !m_run->isEmpty())
        return int(m_run->ranks.size());
    return m_breakdown ? int(m_breakdown->sources.size()) : 0;
}

void OverviewPanel::setRankIndex(int index)
{
    if (index < 0 || index >= rankCount() || index == m_rankIndex)
        return;
    m_rankIndex = index;
    rebuild();
    emit rankChanged(currentRank());
}

int OverviewPanel::currentRank() const
{
    if (const ProfilerRankData* data = currentRankData())
        return data->rank;
    if (m_breakdown && m_rankIndex < int(m_breakdown->sources.size()))
        return m_breakdown->sources[std::size_t(m_rankIndex)].source;
    return -1;
}

const ProfilerRankData* OverviewPanel::currentRankData() const
{
    if (!m_run || m_rankIndex < 0 || m_rankIndex >= int(m_run->ranks.size()))
        return nullptr;
    return &m_run->ranks[std::size_t(m_rankIndex)];
}

bool OverviewPanel::isEmpty() const
{
    return m_stack->currentWidget() == m_emptyLabel;
}

OverviewPanel::StepView OverviewPanel::stepView() const
{
    StepView view;
    if (const ProfilerRankData* data = currentRankData()) {
        const models::profiler::StepSeries& steps = data->steps;
        view.ids = steps.categoryIds;
        view.names = steps.categoryNames;
        for (const auto& step : steps.steps) {
            view.numbers.push_back(step.number);
            view.valuesUs.push_back(step.valuesUs);
        }
        view.averageUs = steps.average.valuesUs;
        view.averageTotalUs = steps.average.totalUs;
        return view;
    }
    if (m_breakdown && m_rankIndex < int(m_breakdown->sources.size())) {
        const auto& summary = m_breakdown->sources[std::size_t(m_rankIndex)];
        for (int c = 0; c < models::trace::kStepCategoryCount; ++c) {
            view.ids << QString::fromLatin1(models::trace::stepCategoryId(models::trace::StepCategory(c)));
            view.names << models::trace::stepCategoryName(models::trace::StepCategory(c));
        }
        for (std::size_t i = 0; i < summary.stepCount; ++i) {
            const models::trace::StepTimes& step = m_breakdown->steps[summary.firstStep + i];
            view.numbers.push_back(step.number);
            std::vector<double> values;
            for (std::int64_t ns : step.ns)
                values.push_back(double(ns) / 1000.0);
            view.valuesUs.push_back(std::move(values));
        }
        for (std::int64_t ns : summary.average.ns) {
            view.averageUs.push_back(double(ns) / 1000.0);
            view.averageTotalUs += double(ns) / 1000.0;
        }
    }
    return view;
}

void OverviewPanel::rebuild()
{
    rebuildRankPicker();
    m_view = stepView();
    const ProfilerRankData* data = currentRankData();
    m_opModel->setData(data ? m_run : nullptr, data ? m_rankIndex : -1);
    m_opTable->resizeColumnsToContents();
    const bool hasOps = data && !data->operators.isEmpty();
    const bool empty = m_view.numbers.empty() && !hasOps;
    m_stack->setCurrentIndex(empty ? 0 : 1);
    m_opPlot->setVisible(hasOps);
    m_opTable->setVisible(hasOps);
    m_stepPlot->setVisible(!m_view.numbers.empty());
    m_exportButton->setEnabled(!empty);
    rebuildStepChart();
    rebuildOperatorChart();
    updateSummary();
}

void OverviewPanel::rebuildRankPicker()
{
    const QSignalBlocker blocker(m_rankCombo);
    m_rankCombo->clear();
    if (m_run && !m_run->isEmpty()) {
        for (const ProfilerRankData& data : m_run->ranks) {
            m_rankCombo->addItem(data.rank >= 0 ? tr("Rank %1").arg(data.rank) : tr("Device"), data.rank);
        }
    } else if (m_breakdown) {
        for (const auto& source : m_breakdown->sources)
            m_rankCombo->addItem(tr("Trace %1").arg(source.source + 1), source.source);
    }
    if (m_rankIndex >= m_rankCombo->count())
        m_rankIndex = 0;
    m_rankCombo->setCurrentIndex(m_rankIndex);
    m_rankCombo->setVisible(m_rankCombo->count() > 1);
}

int OverviewPanel::stepBarCount() const
{
    return m_view.numbers.empty() ? 0 : int(m_view.numbers.size()) + 1;
}

QList<qint64> OverviewPanel::stepNumbers() const
{
    QList<qint64> numbers(m_view.numbers.begin(), m_view.numbers.end());
    if (!numbers.isEmpty())
        numbers << -1;
    return numbers;
}

QStringList OverviewPanel::stackNames() const
{
    return m_view.names;
}

std::vector<double> OverviewPanel::averageUs() const
{
    return m_view.averageUs;
}

void OverviewPanel::rebuildStepChart()
{
    m_stepPlot->clearPlottables();
    const int steps = int(m_view.numbers.size());
    double longest = 0.0;
    for (const auto& values : m_view.valuesUs) {
        double sum = 0.0;
        for (double v : values)
            sum += std::max(0.0, v);
        longest = std::max(longest, sum);
    }
    const auto [unit, unitName] = axisUnit(longest);
    m_stepPlot->yAxis->setLabel(tr("Time (%1)").arg(unitName));
    QCPBars* below = nullptr;
    QList<QCPBars*> stack;
    const int categories = int(m_view.names.size());
    for (int c = 0; c < categories; ++c) {
        auto* barsOfCategory = new QCPBars(m_stepPlot->xAxis, m_stepPlot->yAxis);
        barsOfCategory->setName(m_view.names.at(c));
        barsOfCategory->setWidth(kBarWidth);
        barsOfCategory->setPen(Qt::NoPen);
        barsOfCategory->setBrush(categoryColor(c, categories));
        barsOfCategory->setStackingGap(0);
        barsOfCategory->setAntialiased(false);
        if (below)
            barsOfCategory->moveAbove(below);
        below = barsOfCategory;
        stack << barsOfCategory;
    }
    // A missing, negative or non-finite time draws as nothing.
    auto axisValue = [unit](const std::vector<double>& row, int c) {
        const double v = std::size_t(c) < row.size() ? row[std::size_t(c)] : 0.0;
        return std::isfinite(v) ? std::max(0.0, v) / unit : 0.0;
    };
    std::vector<double> values;
    values.reserve(std::size_t(steps) * std::size_t(categories));
    QStringList labels;
    labels.reserve(steps);
    for (int s = 0; s < steps; ++s) {
        for (int c = 0; c < categories; ++c)
            values.push_back(axisValue(m_view.valuesUs[std::size_t(s)], c));
        labels << QString::number(m_view.numbers[std::size_t(s)]);
    }
    std::vector<double> average;
    if (steps) {
        for (int c = 0; c < categories; ++c)
            average.push_back(axisValue(m_view.averageUs, c));
    }
    m_stepUnit = unit;
    m_stepBars->setBars(stack);
    m_stepBars->setSteps(std::move(values), std::move(average), std::move(labels), tr("Avg"), tr("Step"));
    m_stepPlot->yAxis->setRange(0, longest > 0 ? longest / unit * 1.08 : 1.0);
    replotWhenShown(m_stepPlot);
}

QStringList OverviewPanel::topOperatorNames() const
{
    QStringList names;
    const ProfilerRankData* data = currentRankData();
    if (!data)
        return names;
    // The core only tells types apart when the table mixes cores (AI Core and AI CPU, say).
    const auto& types = data->operators.types;
    const bool mixedCores = std::any_of(types.begin(), types.end(),
                                        [&types](const auto& type) { return type.core != types.front().core; });
    for (const auto& type : types) {
        if (names.size() >= kTopOperators)
            break;
        names << (type.core.isEmpty() || !mixedCores ? type.type : tr("%1 (%2)").arg(type.type, type.core));
    }
    return names;
}

void OverviewPanel::rebuildOperatorChart()
{
    m_opPlot->clearPlottables();
    const ProfilerRankData* data = currentRankData();
    const QStringList names = topOperatorNames();
    double longest = 0.0;
    if (data) {
        for (int i = 0; i < names.size(); ++i)
            longest = std::max(longest, data->operators.types[std::size_t(i)].totalUs);
    }
    const auto [unit, unitName] = axisUnit(longest);
    m_opPlot->xAxis->setLabel(tr("Total time (%1)").arg(unitName));
    auto* bars = new QCPBars(m_opPlot->yAxis, m_opPlot->xAxis);
    bars->setName(tr("Total time"));
    bars->setWidth(kBarWidth);
    bars->setPen(Qt::NoPen);
    bars->setBrush(categoryColor(0, 1));
    bars->setAntialiased(false);
    QVector<double> keys;
    QVector<double> values;
    for (int i = 0; i < names.size(); ++i) {
        keys << double(i);
        values << data->operators.types[std::size_t(i)].totalUs / unit;
    }
    bars->setData(keys, values, true);
    m_opNames = names;
    fitOperatorLabels();
    m_opPlot->yAxis->setRange(-0.6, std::max<qsizetype>(names.size(), 1) - 0.4);
    m_opPlot->xAxis->setRange(0, longest > 0 ? longest / unit * 1.08 : 1.0);
    m_opPlot->replot();
}

void OverviewPanel::fitOperatorLabels()
{
    // Labels that do not fit beside their bar would overprint each other: each name is cut at its end to the
    // room left of the axis, and when the bars are thinner than a line of text only every n-th bar is named.
    // The tooltip of a bar (and of its row beside the axis) has the whole name.
    const QFontMetrics metrics(m_opPlot->yAxis->tickLabelFont());
    const QMargins margins = m_opPlot->axisRect()->margins();
    // Before the first layout the margins are not known: the x axis below takes about three lines.
    const int below = margins.bottom() > 0 ? margins.bottom() + margins.top() : 3 * metrics.height() + 16;
    const int bars = std::max<int>(1, int(m_opNames.size()));
    const double perBar = double(std::max(1, m_opPlot->height() - below)) / bars;
    const int stride = std::max(1, int(std::ceil(metrics.height() / perBar)));
    const int room = std::clamp(m_opPlot->width() / 4, 60, 260);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < m_opNames.size(); i += stride)
        ticker->addTick(double(i), metrics.elidedText(m_opNames.at(i), Qt::ElideRight, room));
    m_opPlot->yAxis->setTicker(ticker);
}

QString OverviewPanel::summaryText() const
{
    return m_device->text() + (m_summary->text().isEmpty() ? QString() : QStringLiteral("  ") + m_summary->text());
}

void OverviewPanel::updateSummary()
{
    QStringList device;
    if (const ProfilerRankData* data = currentRankData()) {
        device << models::profiler::deviceTypeName(data->deviceType);
        if (!data->msVersion.isEmpty())
            device << tr("MindSpore %1").arg(data->msVersion);
        if (!data->cannVersion.isEmpty())
            device << tr("CANN %1").arg(data->cannVersion);
        if (data->rankSize > 0)
            device << tr("%n rank(s)", nullptr, data->rankSize);
    } else if (m_breakdown && !m_breakdown->isEmpty()) {
        device << tr("PyTorch profiler trace");
    }
    m_device->setText(device.join(QStringLiteral(" · ")));

    QStringList parts;
    if (!m_view.numbers.empty()) {
        parts << tr("%n step(s), average %1", nullptr, int(m_view.numbers.size())).arg(formatUs(m_view.averageTotalUs));
        for (int c = 0; c < m_view.names.size() && std::size_t(c) < m_view.averageUs.size(); ++c) {
            const double share
                = m_view.averageTotalUs > 0 ? m_view.averageUs[std::size_t(c)] / m_view.averageTotalUs : 0.0;
            parts << tr("%1 %2 (%3 %)")
                         .arg(m_view.names.at(c), formatUs(m_view.averageUs[std::size_t(c)]))
                         .arg(share * 100.0, 0, 'f', 1);
        }
    }
    if (const ProfilerRankData* data = currentRankData(); data && !data->operators.isEmpty())
        parts << tr("operators %1").arg(formatUs(data->operators.totalUs));
    m_summary->setText(parts.join(QStringLiteral("; ")));
}

ChartData OverviewPanel::stepChartData() const
{
    ChartData data;
    data.title = tr("Step time breakdown");
    data.xLabel = tr("Step");
    data.yLabel = tr("Time (µs)");
    data.seriesColumn = QStringLiteral("rank");
    data.columns << QStringLiteral("step");
    for (const QString& id : m_view.ids)
        data.columns << id + QStringLiteral("_us");
    data.columns << QStringLiteral("total_us");
    if (m_view.numbers.empty())
        return data;
    ChartSeriesData series;
    const int rank = currentRank();
    series.name = rank >= 0 ? tr("rank %1").arg(rank) : tr("device");
    series.columns.resize(std::size_t(data.columns.size()));
    auto addRow = [&series](double number, const std::vector<double>& values, std::size_t categories) {
        series.columns[0].push_back(number);
        double total = 0.0;
        for (std::size_t c = 0; c < categories; ++c) {
            const double v = c < values.size() ? values[c] : 0.0;
            series.columns[c + 1].push_back(v);
            total += v;
        }
        series.columns[categories + 1].push_back(total);
    };
    const std::size_t categories = std::size_t(m_view.ids.size());
    for (std::size_t i = 0; i < m_view.numbers.size(); ++i)
        addRow(double(m_view.numbers[i]), m_view.valuesUs[i], categories);
    addRow(-1.0, m_view.averageUs, categories); // the average row, as MindSpore marks it with step "-"
    data.series.push_back(std::move(series));
    return data;
}

ChartData OverviewPanel::operatorChartData() const
{
    ChartData data;
    data.title = tr("Top operator types");
    data.xLabel = tr("Total time (µs)");
    data.seriesColumn = QStringLiteral("type");
    data.columns = { QStringLiteral("calls"), QStringLiteral("total_us"), QStringLiteral("average_us"),
                     QStringLiteral("share") };
    const ProfilerRankData* rank = currentRankData();
    if (!rank)
        return data;
    const QStringList names = topOperatorNames();
    for (int i = 0; i < names.size(); ++i) {
        const auto& type = rank->operators.types[std::size_t(i)];
        ChartSeriesData series;
        series.name = names.at(i);
        series.columns = { { double(type.calls) }, { type.totalUs }, { type.averageUs() }, { type.share } };
        data.series.push_back(std::move(series));
    }
    return data;
}

QString OverviewPanel::toolTipAt(QCustomPlot* plot, const QPoint& pos) const
{
    if (!plot->axisRect()->rect().contains(pos))
        return {};
    if (plot == m_stepPlot) {
        const int steps = int(m_view.numbers.size());
        if (!steps)
            return {};
        const StackedStepBars::Hit hit = m_stepBars->hitAt(plot->xAxis->pixelToCoord(pos.x()));
        if (hit.isNone())
            return {};
        if (hit.count > 1)
            return columnToolTip(hit);
        const int bar = hit.average ? steps : hit.first;
        const std::vector<double>& values = bar < steps ? m_view.valuesUs[std::size_t(bar)] : m_view.averageUs;
        double total = 0.0;
        for (double v : values)
            total += v;
        const QString title = bar < steps ? tr("Step %1").arg(m_view.numbers[std::size_t(bar)])
                                          : tr("Average of %n step(s)", nullptr, steps);
        QString html = QStringLiteral("<b>%1</b> &nbsp; %2<table cellspacing=\"0\" cellpadding=\"1\">")
                           .arg(title.toHtmlEscaped(), formatUs(total).toHtmlEscaped());
        for (int c = 0; c < m_view.names.size() && std::size_t(c) < values.size(); ++c) {
            html += QStringLiteral("<tr><td><span style=\"color:%1\">&#9632;</span> %2</td>"
                                   "<td align=\"right\">&nbsp;&nbsp;%3</td></tr>")
                        .arg(categoryColor(c, int(m_view.names.size())).name(), m_view.names.at(c).toHtmlEscaped(),
                             formatUs(values[std::size_t(c)]).toHtmlEscaped());
        }
        return html + QStringLiteral("</table>");
    }
    if (plot == m_opPlot) {
        const ProfilerRankData* data = currentRankData();
        const int index = int(std::lround(plot->yAxis->pixelToCoord(pos.y())));
        const QStringList names = topOperatorNames();
        if (!data || index < 0 || index >= names.size())
            return {};
        const auto& type = data->operators.types[std::size_t(index)];
        return tr("<b>%1</b><br>%2 in %3 call(s), %4 per call, %5 % of the operator time")
            .arg(names.at(index).toHtmlEscaped(), formatUs(type.totalUs))
            .arg(type.calls)
            .arg(formatUs(type.averageUs()))
            .arg(type.share * 100.0, 0, 'f', 1);
    }
    return {};
}

QString OverviewPanel::columnToolTip(const StackedStepBars::Hit& hit) const
{
    const models::StepColumns& columns = m_stepBars->columns();
    const models::StepColumn& column = columns.columns[std::size_t(hit.column)];
    const std::size_t slowest = std::size_t(hit.slowest);
    double slowestUs = 0.0;
    for (double v : m_view.valuesUs[slowest])
        slowestUs += std::isfinite(v) ? std::max(0.0, v) : 0.0;
    const QString title = tr("Steps %1–%2")
                              .arg(m_view.numbers[std::size_t(hit.first)])
                              .arg(m_view.numbers[std::size_t(hit.first + hit.count - 1)]);
    QString html
        = QStringLiteral("<b>%1</b> &nbsp; %2<br>%3<table cellspacing=\"0\" cellpadding=\"1\">")
              .arg(title.toHtmlEscaped(), tr("mean %1").arg(formatUs(column.meanTotal * m_stepUnit)).toHtmlEscaped(),
                   tr("Each bar: the mean of %n step(s)", nullptr, hit.count).toHtmlEscaped());
    for (int c = 0; c < m_view.names.size(); ++c) {
        html += QStringLiteral("<tr><td><span style=\"color:%1\">&#9632;</span> %2</td>"
                               "<td align=\"right\">&nbsp;&nbsp;%3</td></tr>")
                    .arg(categoryColor(c, int(m_view.names.size())).name(), m_view.names.at(c).toHtmlEscaped(),
                         formatUs(columns.mean(std::size_t(hit.column), std::size_t(c)) * m_stepUnit).toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    return html + tr("Slowest: step %1, %2").arg(m_view.numbers[slowest]).arg(formatUs(slowestUs)).toHtmlEscaped();
}

void OverviewPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_stepExport->setFileNameProvider(provider);
    m_opExport->setFileNameProvider(std::move(provider));
}

void OverviewPanel::setExportDirectory(const QString& directory)
{
    m_stepExport->setDefaultDirectory(directory);
    m_opExport->setDefaultDirectory(directory);
}

} // namespace runlens::widgets::overview
