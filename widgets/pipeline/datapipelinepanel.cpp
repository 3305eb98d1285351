#include "widgets/pipeline/datapipelinepanel.h"

#include "models/pipeline/pipelineanalysis.h"
#include "widgets/common/chartcolumn.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/chartstyle.h"
#include "widgets/common/panelheader.h"
#include "widgets/pipeline/pipelinegraphview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::pipeline {

using models::pipeline::CpuCurve;
using models::pipeline::DataPipeline;

namespace {

constexpr int kContentMargin = 8;
constexpr int kMaxBottlenecksListed = 5;
constexpr int kMarkedPointsMax = 60;

QString percent(double ratio)
{
    return DataPipelinePanel::tr("%1%").arg(ratio * 100.0, 0, 'f', 1);
}

/// Readable names of MindSpore's utilisation keys; other keys (counters) are not percentages.
QString utilisationName(const QString& key)
{
    if (key == QLatin1String("user_utilization"))
        return DataPipelinePanel::tr("User");
    if (key == QLatin1String("sys_utilization"))
        return DataPipelinePanel::tr("System");
    if (key == QLatin1String("io_utilization"))
        return DataPipelinePanel::tr("I/O wait");
    if (key == QLatin1String("idle_utilization"))
        return DataPipelinePanel::tr("Idle");
    return {};
}

QLabel* heading(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    QFont font = label->font();
    font.setWeight(QFont::DemiBold);
    label->setFont(font);
    return label;
}

void stylePlot(QCustomPlot* plot, const QFont& baseFont)
{
    const ChartChrome chrome = styleChartAxes(plot, baseFont);
    plot->legend->setVisible(true);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    plot->legend->setFont(chrome.tickFont);
    plot->legend->setTextColor(chrome.muted);
    plot->legend->setIconSize(14, 8);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(6);
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->axisRect()->insetLayout()->simplify();
    plot->plotLayout()->addElement(1, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    plot->legend->setMargins(QMargins(8, 0, 8, 6));
}

QCPGraph* addLine(QCustomPlot* plot, const QString& name, const QColor& color, const QVector<double>& x,
                  const QVector<double>& y, Qt::PenStyle style = Qt::SolidLine)
{
    QCPGraph* graph = plot->addGraph();
    graph->setName(name);
    graph->setPen(QPen(color, 1.6, style));
    // Short series get their points marked, so a single sample still shows.
    if (style == Qt::SolidLine && x.size() <= kMarkedPointsMax)
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 4));
    graph->setData(x, y, true);
    return graph;
}

QCPGraph* addMarks(QCustomPlot* plot, const QString& name, const QColor& color, const QVector<double>& x,
                   const QVector<double>& y)
{
    QCPGraph* graph = plot->addGraph();
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 6));
    graph->setPen(QPen(color));
    graph->setData(x, y, true);
    return graph;
}

} // namespace

DataPipelinePanel::DataPipelinePanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("dataPipelinePanel"));
    buildUi();
    showCurrent();
}

DataPipelinePanel::~DataPipelinePanel() = default;

QCustomPlot* DataPipelinePanel::createPlot(const QString& objectName)
{
    auto* plot = new QCustomPlot(m_content);
    plot->setObjectName(objectName);
    plot->setMinimumHeight(140);
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    stylePlot(plot, font());
    return plot;
}

ChartExportMenu* DataPipelinePanel::createExportMenu(QCustomPlot* plot, const QString& baseName, const QString& title,
                                                     ChartExportMenu::DataProvider provider)
{
    auto* menu = new ChartExportMenu(plot, this);
    menu->setBaseName(baseName);
    menu->setDataProvider(std::move(provider));
    // Exported pictures stand alone, so they carry the title the panel shows as a heading.
    menu->setExportHook(exportTitleHook(plot, this, [title] { return title; }));
    connect(menu, &ChartExportMenu::exported, this, &DataPipelinePanel::chartExported);
    connect(menu, &ChartExportMenu::exportFailed, this, &DataPipelinePanel::chartExportFailed);
    connect(plot, &QWidget::customContextMenuRequested, this,
            [this, plot, menu](const QPoint& pos) { showPlotMenu(plot, menu, pos); });
    return menu;
}

void DataPipelinePanel::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    m_header = new PanelHeader(this);
    m_rankCombo = m_header->addSelector(QStringLiteral("pipelineRank"), tr("The rank whose data pipeline is shown"));
    m_rankCombo->setVisible(false);
    m_summary = m_header->addSummary(QStringLiteral("pipelineSummary"), PanelHeader::TextMode::SingleLine);
    m_exportButton = m_header->addExportButton(QStringLiteral("pipelineExport"));
    layout->addWidget(m_header);

    const ChartColumn column = createChartColumn(this, nullptr, kContentMargin);
    m_content = column.content;
    m_emptyLabel = column.emptyLabel;
    layout->addWidget(column.scroll, 1);

    auto* graphHeading = heading(tr("Pipeline"), m_content);
    m_graph = new PipelineGraphView(m_content);
    m_findings = new QLabel(m_content);
    m_findings->setObjectName(QStringLiteral("pipelineFindings"));
    m_findings->setTextFormat(Qt::RichText);
    m_findings->setWordWrap(true);
    m_findings->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_queueHeading = heading(tr("Host and device queues"), m_content);
    m_queuePlot = createPlot(QStringLiteral("pipelineQueueChart"));
    m_queuePlot->xAxis->setLabel(tr("Step"));
    m_queuePlot->yAxis->setLabel(tr("Queue size (batches)"));

    auto* cpuRow = new QWidget(m_content);
    auto* cpuLayout = new QHBoxLayout(cpuRow);
    cpuLayout->setContentsMargins(0, 0, 0, 0);
    m_cpuHeading = heading(tr("CPU utilisation"), cpuRow);
    cpuLayout->addWidget(m_cpuHeading);
    cpuLayout->addStretch(1);
    m_cpuCombo = new QComboBox(cpuRow);
    m_cpuCombo->setObjectName(QStringLiteral("pipelineCpuView"));
    m_cpuCombo->addItem(tr("Whole machine"), int(CpuView::Device));
    m_cpuCombo->addItem(tr("Training process"), int(CpuView::Process));
    m_cpuCombo->addItem(tr("Per pipeline op"), int(CpuView::Ops));
    cpuLayout->addWidget(m_cpuCombo);
    m_cpuPlot = createPlot(QStringLiteral("pipelineCpuChart"));
    m_cpuPlot->yAxis->setLabel(tr("CPU (%)"));

    for (QWidget* w : std::initializer_list<QWidget*> { graphHeading, m_graph, m_findings, m_queueHeading, m_queuePlot,
                                                        cpuRow, m_cpuPlot }) {
        column.layout->addWidget(w);
        m_sections << w;
    }
    column.layout->addStretch(1);

    m_queueExport = createExportMenu(m_queuePlot, QStringLiteral("pipeline-queues"), tr("Host and device queues"),
                                     [this] { return queueChartData(); });
    m_cpuExport = createExportMenu(m_cpuPlot, QStringLiteral("pipeline-cpu"), tr("CPU utilisation"),
                                   [this] { return cpuChartData(); });
    m_header->addChartExport(m_queueExport, tr("Queue chart"));
    m_header->addChartExport(m_cpuExport, tr("CPU chart"));

    connect(m_rankCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            setCurrentRank(m_rankCombo->itemData(index).toInt());
    });
    connect(m_cpuCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            setCpuView(CpuView(m_cpuCombo->itemData(index).toInt()));
    });
    connect(m_graph, &PipelineGraphView::opSelected, this, [this](int opId) { emit opSelected(currentRank(), opId); });
}

void DataPipelinePanel::setPipelines(std::vector<std::shared_ptr<const DataPipeline>> pipelines)
{
    pipelines.erase(std::remove(pipelines.begin(), pipelines.end(), nullptr), pipelines.end());
    const int previousRank = currentRank();
    m_pipelines = std::move(pipelines);
    m_current = m_pipelines.empty() ? -1 : 0;
    for (std::size_t i = 0; i < m_pipelines.size(); ++i) {
        if (m_pipelines[i]->rank == previousRank)
            m_current = int(i);
    }
    {
        const QSignalBlocker blocker(m_rankCombo);
        m_rankCombo->clear();
        for (const auto& p : m_pipelines)
            m_rankCombo->addItem(p->rank >= 0 ? tr("Rank %1").arg(p->rank) : tr("Rank ?"), p->rank);
        m_rankCombo->setCurrentIndex(m_current);
        m_rankCombo->setVisible(m_rankCombo->count() > 1);
    }
    showCurrent();
}

void DataPipelinePanel::setPipeline(std::shared_ptr<const DataPipeline> pipeline)
{
    std::vector<std::shared_ptr<const DataPipeline>> list;
    if (pipeline)
        list.push_back(std::move(pipeline));
    setPipelines(std::move(list));
}

void DataPipelinePanel::clear()
{
    setPipelines({});
}

std::shared_ptr<const DataPipeline> DataPipelinePanel::pipeline() const
{
    return m_current >= 0 ? m_pipelines[std::size_t(m_current)] : nullptr;
}

QList<int> DataPipelinePanel::ranks() const
{
    QList<int> out;
    for (const auto& p : m_pipelines)
        out << p->rank;
    return out;
}

int DataPipelinePanel::currentRank() const
{
    const auto p = pipeline();
    return p ? p->rank : -1;
}

void DataPipelinePanel::setCurrentRank(int rank)
{
    for (std::size_t i = 0; i < m_pipelines.size(); ++i) {
        if (m_pipelines[i]->rank != rank || int(i) == m_current)
            continue;
        m_current = int(i);
        {
            const QSignalBlocker blocker(m_rankCombo);
            m_rankCombo->setCurrentIndex(m_current);
        }
        showCurrent();
        emit currentRankChanged(rank);
        return;
    }
}

void DataPipelinePanel::setCpuView(CpuView view)
{
    if (view == m_cpuView)
        return;
    m_cpuView = view;
    {
        const QSignalBlocker blocker(m_cpuCombo);
        m_cpuCombo->setCurrentIndex(m_cpuCombo->findData(int(view)));
    }
    rebuildCpuChart();
}

bool DataPipelinePanel::isEmptyStateShown() const
{
    return !m_emptyLabel->isHidden();
}

void DataPipelinePanel::showCurrent()
{
    const auto p = pipeline();
    const bool empty = !p || p->empty();
    m_emptyLabel->setVisible(empty);
    m_emptyLabel->setText(p ? tr("The data pipeline files of this rank hold no data.")
                            : tr("No data pipeline profile. Profile a MindSpore run with the Profiler's data "
                                 "processing analysis on (data_process=True) and open its profiler folder."));
    for (QWidget* w : std::as_const(m_sections))
        w->setVisible(!empty);
    m_exportButton->setEnabled(!empty);
    m_graph->setPipeline(p);
    m_graph->setVisible(!empty && !p->ops.empty());
    rebuildQueueChart();
    rebuildCpuChart();
    updateFindings();

    if (empty) {
        m_summary->setText(p ? tr("Rank %1: no data").arg(p->rank) : QString());
        return;
    }
    QStringList parts;
    parts << tr("%n op(s)", nullptr, int(p->ops.size()));
    if (!p->hostQueue.empty())
        parts << tr("host queue empty in %1 of steps").arg(percent(p->hostQueue.emptyRatio()));
    if (!p->cpu.device.empty())
        parts << tr("CPU busy %1").arg(percent(p->cpu.deviceBusyPercent() / 100.0));
    if (const auto* b = p->primaryBottleneck(); b && p->op(b->opId))
        parts << tr("bottleneck %1").arg(p->op(b->opId)->label());
    m_summary->setText(parts.join(QStringLiteral(" · ")));
}

void DataPipelinePanel::updateFindings()
{
    const auto p = pipeline();
    if (!p || p->empty()) {
        m_findings->clear();
        return;
    }
    QStringList items;
    const QString mark = QStringLiteral("<span style=\"color:%1\">&#9632;</span> ");
    int listed = 0;
    for (const auto& b : p->bottlenecks) {
        if (++listed > kMaxBottlenecksListed)
            break;
        const auto* op = p->op(b.opId);
        QString item = mark.arg(PipelineGraphView::bottleneckColor().name())
            + tr("Possible bottleneck: %1").arg(models::pipeline::bottleneckReasonText(*p, b)).toHtmlEscaped();
        if (op)
            item += QStringLiteral(" <i>%1</i>").arg(models::pipeline::bottleneckAdvice(*op).toHtmlEscaped());
        items << item;
    }
    if (p->pipelineKeepsUp)
        items << tr("Every queue inside the pipeline is at least 80% full: the pipeline keeps up.").toHtmlEscaped();
    else if (!p->ops.empty() && p->bottlenecks.empty()
             && std::none_of(p->ops.begin(), p->ops.end(), [](const auto& op) { return op.hasQueue(); }))
        items << tr("The pipeline files have no queue samples, so bottlenecks cannot be judged.").toHtmlEscaped();
    const QString verdict = models::pipeline::queueVerdictText(*p);
    if (!verdict.isEmpty())
        items << verdict.toHtmlEscaped();
    if (!p->cpu.device.empty() && p->cpu.deviceBusyPercent() > models::pipeline::kCpuBusyWarning)
        items << tr("The machine's CPUs were %1 busy on average (more than %2%), which may slow data processing.")
                     .arg(percent(p->cpu.deviceBusyPercent() / 100.0))
                     .arg(models::pipeline::kCpuBusyWarning)
                     .toHtmlEscaped();
    for (const QString& s : p->summarySuggestions)
        items << tr("MindSpore suggests: %1").arg(s).toHtmlEscaped();
    m_findings->setText(items.join(QStringLiteral("<br>")));
}

QString DataPipelinePanel::findingsText() const
{
    QTextDocument doc;
    doc.setHtml(m_findings->text());
    return doc.toPlainText();
}

void DataPipelinePanel::rebuildQueueChart()
{
    m_queuePlot->clearGraphs();
    const auto p = pipeline();
    QString headingText = tr("Host and device queues");
    double maxSize = 1;
    double maxX = 1;
    if (p && !p->hostQueue.empty()) {
        const auto& host = p->hostQueue;
        QVector<double> steps, sizes, capacity, emptyX, emptyY, fullX, fullY;
        for (const auto& s : host.samples) {
            steps << s.step;
            sizes << s.size;
            capacity << s.capacity;
            if (s.empty()) {
                emptyX << s.step;
                emptyY << 0;
            } else if (s.full()) {
                fullX << s.step;
                fullY << s.size;
            }
            maxSize = std::max(maxSize, double(std::max(s.size, s.capacity)));
            maxX = std::max(maxX, double(s.step));
        }
        addLine(m_queuePlot, host.iterator ? tr("Iterator queue size") : tr("Host queue size"), runColor(0), steps,
                sizes);
        addLine(m_queuePlot, tr("Host queue capacity"),
                blendColors(palette().color(QPalette::Text), palette().color(QPalette::Base), 0.5), steps, capacity,
                Qt::DashLine);
        if (!emptyX.isEmpty())
            addMarks(m_queuePlot, tr("Empty"), PipelineGraphView::usageColor(0), emptyX, emptyY);
        if (!fullX.isEmpty())
            addMarks(m_queuePlot, tr("Full"), PipelineGraphView::usageColor(1), fullX, fullY);
        headingText += QStringLiteral(" — ")
            + tr("host: empty %1, full %2 of %n step(s)", nullptr, int(host.samples.size()))
                  .arg(percent(host.emptyRatio()), percent(host.fullRatio()));
    }
    if (p && p->deviceQueue.sizedCount() > 0) {
        QVector<double> index, sizes;
        for (std::size_t i = 0; i < p->deviceQueue.samples.size(); ++i) {
            const auto& s = p->deviceQueue.samples[i];
            if (s.size < 0)
                continue;
            index << double(i + 1);
            sizes << s.size;
            maxSize = std::max(maxSize, double(s.size));
        }
        maxX = std::max(maxX, double(p->deviceQueue.samples.size()));
        addLine(m_queuePlot, tr("Device queue size"), runColor(1), index, sizes);
        headingText += QStringLiteral(" — ")
            + tr("device: empty in %1 of %2 GetNext").arg(p->deviceQueue.emptyCount()).arg(p->deviceQueue.sizedCount());
    }
    m_queueHeading->setText(headingText);
    const bool show = m_queuePlot->graphCount() > 0 && !isEmptyStateShown();
    m_queuePlot->setVisible(show);
    m_queueHeading->setVisible(show);
    m_queuePlot->xAxis->setRange(0, maxX + 1);
    m_queuePlot->yAxis->setRange(-maxSize * 0.04, maxSize * 1.08);
    m_queuePlot->replot();
}

void DataPipelinePanel::rebuildCpuChart()
{
    m_cpuPlot->clearGraphs();
    const auto p = pipeline();
    const ChartData data = cpuChartData();
    int color = 0;
    for (const auto& series : data.series) {
        // Columns: sample, time, percent.
        QVector<double> x(series.columns[1].begin(), series.columns[1].end());
        QVector<double> y(series.columns[2].begin(), series.columns[2].end());
        addLine(m_cpuPlot, series.name, runColor(color++), x, y);
    }
    const bool seconds = p && p->cpu.samplingIntervalMs > 0;
    m_cpuPlot->xAxis->setLabel(seconds ? tr("Time (s)") : tr("Sample"));
    m_cpuPlot->rescaleAxes();
    const double top = std::max(100.0, m_cpuPlot->yAxis->range().upper);
    m_cpuPlot->yAxis->setRange(0, top * 1.02);
    QString headingText = tr("CPU utilisation");
    if (p && p->cpu.processorCount > 0)
        headingText += QStringLiteral(" — ") + tr("%n processor(s)", nullptr, p->cpu.processorCount);
    m_cpuHeading->setText(headingText);
    const bool show = (m_cpuPlot->graphCount() > 0 || (p && !p->cpu.empty())) && !isEmptyStateShown();
    m_cpuPlot->setVisible(show);
    m_cpuHeading->parentWidget()->setVisible(show);
    m_cpuPlot->replot();
}

ChartData DataPipelinePanel::queueChartData() const
{
    ChartData data;
    data.title = tr("Host and device queues");
    data.xLabel = tr("Step");
    data.yLabel = tr("Queue size (batches)");
    data.seriesColumn = QStringLiteral("queue");
    data.columns << QStringLiteral("step") << QStringLiteral("size") << QStringLiteral("capacity")
                 << QStringLiteral("empty") << QStringLiteral("full") << QStringLiteral("time_ms");
    const auto p = pipeline();
    if (!p)
        return data;
    const double nan = std::nan("");
    if (!p->hostQueue.empty()) {
        ChartSeriesData s;
        s.name = QStringLiteral("host");
        s.columns.resize(6);
        const auto& total = p->hostQueue.totalMs;
        for (const auto& sample : p->hostQueue.samples) {
            const auto it = std::lower_bound(total.begin(), total.end(), sample.step,
                                             [](const auto& entry, int step) { return entry.first < step; });
            s.columns[0].push_back(sample.step);
            s.columns[1].push_back(sample.size);
            s.columns[2].push_back(sample.capacity);
            s.columns[3].push_back(sample.empty() ? 1 : 0);
            s.columns[4].push_back(sample.full() ? 1 : 0);
            s.columns[5].push_back(it != total.end() && it->first == sample.step ? it->second : nan);
        }
        data.series.push_back(std::move(s));
    }
    if (!p->deviceQueue.empty()) {
        ChartSeriesData s;
        s.name = QStringLiteral("device");
        s.columns.resize(6);
        for (std::size_t i = 0; i < p->deviceQueue.samples.size(); ++i) {
            const auto& sample = p->deviceQueue.samples[i];
            s.columns[0].push_back(double(i + 1));
            s.columns[1].push_back(sample.size >= 0 ? double(sample.size) : nan);
            s.columns[2].push_back(nan);
            s.columns[3].push_back(sample.size == 0 ? 1 : 0);
            s.columns[4].push_back(nan);
            s.columns[5].push_back(sample.waitMs());
        }
        data.series.push_back(std::move(s));
    }
    return data;
}

ChartData DataPipelinePanel::cpuChartData() const
{
    ChartData data;
    data.title = tr("CPU utilisation");
    data.yLabel = tr("CPU (%)");
    data.columns << QStringLiteral("sample") << QStringLiteral("time") << QStringLiteral("percent");
    const auto p = pipeline();
    if (!p)
        return data;
    const auto& cpu = p->cpu;
    const double step = cpu.samplingIntervalMs > 0 ? cpu.samplingIntervalMs / 1000.0 : 1.0;
    data.xLabel = cpu.samplingIntervalMs > 0 ? tr("Time (s)") : tr("Sample");
    auto add = [&](const QString& name, const std::vector<double>& values) {
        ChartSeriesData s;
        s.name = name;
        s.columns.resize(3);
        for (std::size_t i = 0; i < values.size(); ++i) {
            s.columns[0].push_back(double(i));
            s.columns[1].push_back(double(i) * step);
            s.columns[2].push_back(values[i]);
        }
        data.series.push_back(std::move(s));
    };
    auto addCurves = [&](const std::vector<CpuCurve>& curves) {
        for (const auto& c : curves) {
            const QString name = utilisationName(c.key);
            if (!name.isEmpty())
                add(name, c.values);
        }
    };
    switch (m_cpuView) {
    case CpuView::Device:
        addCurves(cpu.device);
        break;
    case CpuView::Process:
        addCurves(cpu.process);
        break;
    case CpuView::Ops:
        for (const auto& op : cpu.ops) {
            std::vector<double> total;
            for (const auto& c : op.curves) {
                if (c.key != QLatin1String("user_utilization") && c.key != QLatin1String("sys_utilization"))
                    continue;
                total.resize(std::max(total.size(), c.values.size()), 0.0);
                for (std::size_t i = 0; i < c.values.size(); ++i)
                    total[i] += c.values[i];
            }
            const auto* pipelineOp = p->op(op.opId);
            add(pipelineOp ? pipelineOp->label() : tr("op %1").arg(op.opId), total);
        }
        break;
    }
    return data;
}

void DataPipelinePanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_queueExport->setFileNameProvider(provider);
    m_cpuExport->setFileNameProvider(std::move(provider));
}

void DataPipelinePanel::setExportDirectory(const QString& directory)
{
    m_queueExport->setDefaultDirectory(directory);
    m_cpuExport->setDefaultDirectory(directory);
}

void DataPipelinePanel::showPlotMenu(QCustomPlot* plot, ChartExportMenu* menu, const QPoint& pos)
{
    QMenu context(this);
    menu->addTo(&context);
    context.exec(plot->mapToGlobal(pos));
}

} // namespace runlens::widgets::pipeline
