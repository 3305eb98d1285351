#include "widgets/cluster/clusterpanel.h"

#include "models/core/workerpool.h"
#include "widgets/cluster/clusterrankmodel.h"
#include "widgets/cluster/rankstepheatmap.h"

#include "models/cluster/kinetocluster.h"
#include "widgets/common/chartpalette.h"
#include "widgets/common/chartstyle.h"
#include "widgets/common/panelheader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QToolButton>
#include <QToolTip>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace runlens {

using cluster::Cluster;
using cluster::ClusterLink;
using cluster::isKnown;
using cluster::RankFigures;

namespace {

constexpr double kBarWidth = 0.7;
constexpr int kMaxTickLabels = 32;
/// Rows a table's column widths are measured on.
constexpr int kSizedRows = 100;
constexpr int kMaxColumnWidth = 360;
/// Ranks from which the heatmap starts with its rows by mean.
constexpr int kHeatmapRanksByMean = 256;

void styleAxes(QCustomPlot* plot, const QWidget* owner)
{
    styleChartAxes(plot, owner->font());
    plot->xAxis->grid()->setVisible(false);
}

QString formatPercent(double fraction)
{
    return QStringLiteral("%1%2 %")
        .arg(fraction >= 0 ? QStringLiteral("+") : QString())
        .arg(QLocale().toString(fraction * 100.0, 'f', 1));
}

} // namespace

ClusterPanel::ClusterPanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("clusterPanel"));
    buildUi();
    rebuild();
}

ClusterPanel::~ClusterPanel() = default;

void ClusterPanel::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    m_header = new PanelHeader(this);
    m_summary = m_header->addSummary(QStringLiteral("clusterSummary"), PanelHeader::TextMode::WordWrap);
    m_groupByStage = new QCheckBox(tr("Group by stage"), m_header);
    m_groupByStage->setObjectName(QStringLiteral("clusterGroupByStage"));
    m_groupByStage->setToolTip(tr("Show the ranks under their pipeline stage, with the stage's means"));
    m_header->addWidget(m_groupByStage);
    m_exportButton = m_header->addExportButton(QStringLiteral("clusterExport"));
    layout->addWidget(m_header);

    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack, 1);
    m_emptyLabel = new QLabel(m_stack);
    m_emptyLabel->setObjectName(QStringLiteral("emptyState"));
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->setWordWrap(true);
    m_emptyLabel->setMargin(24);
    m_stack->addWidget(m_emptyLabel);

    auto* splitter = new QSplitter(Qt::Vertical, m_stack);
    m_stack->addWidget(splitter);

    m_model = new ClusterRankModel(this);
    m_proxy = new RankFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    auto* tablePage = new QWidget(splitter);
    auto* tableLayout = new QVBoxLayout(tablePage);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->setSpacing(2);
    m_filterEdit = new QLineEdit(tablePage);
    m_filterEdit->setObjectName(QStringLiteral("clusterRankFilter"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->setPlaceholderText(tr("Filter ranks: 0-7, 16 or >p95"));
    m_filterEdit->setToolTip(tr("Ranks and ranges of ranks (0-7, 16-23), and >pN for the ranks slower than N % "
                                "of the ranks"));
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString& text) { setRankFilter(text); });
    tableLayout->addWidget(m_filterEdit);
    m_table = new QTreeView(tablePage);
    tableLayout->addWidget(m_table, 1);
    m_table->setObjectName(QStringLiteral("clusterTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ClusterRankModel::RankColumn, Qt::AscendingOrder);
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->header()->setStretchLastSection(false);
    m_table->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Sizing the columns to every one of a thousand rows costs more than the rest of the view.
    m_table->header()->setResizeContentsPrecision(kSizedRows);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { m_heatmap->setSelectedRank(selectedRank()); });
    connect(m_table, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        const int rank = index.data(ClusterRankModel::RankRole).toInt();
        if (index.isValid() && rank >= 0)
            emit rankActivated(rank);
    });

    m_tabs = new QTabWidget(splitter);
    m_tabs->setObjectName(QStringLiteral("clusterCharts"));
    m_tabs->setDocumentMode(true);
    buildBarChart();
    buildMatrix();
    buildHeatmap();
    buildSlowest();
    buildGroups();
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    QMenu* menu = m_header->exportMenu();
    // The export button exports the chart on the current tab.
    connect(menu, &QMenu::aboutToShow, this, [this, menu] {
        menu->clear();
        if (m_tabs->currentWidget() == m_barPlot)
            m_barExport->addTo(menu);
        else if (m_tabs->currentWidget() == m_matrixPage)
            m_matrixExport->addTo(menu);
        else
            menu->addAction(tr("Nothing to export on this tab"))->setEnabled(false);
    });
    connect(m_groupByStage, &QCheckBox::toggled, this, &ClusterPanel::setGroupedByStage);
}

void ClusterPanel::buildBarChart()
{
    m_barPlot = new QCustomPlot(m_tabs);
    m_barPlot->setObjectName(QStringLiteral("clusterBars"));
    m_barPlot->setMinimumHeight(120);
    m_barPlot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_barPlot->setMouseTracking(true);
    styleAxes(m_barPlot, this);
    m_barPlot->xAxis->setLabel(tr("Rank"));
    m_barPlot->yAxis->setLabel(tr("Time per step (ms)"));
    m_barPlot->legend->setVisible(true);
    m_barPlot->legend->setBorderPen(Qt::NoPen);
    m_barPlot->legend->setBrush(Qt::NoBrush);
    m_barPlot->legend->setFont(m_barPlot->xAxis->tickLabelFont());
    m_barPlot->legend->setIconSize(12, 10);
    m_barPlot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_barPlot->legend->setWrap(6);
    m_barPlot->axisRect()->insetLayout()->take(m_barPlot->legend);
    m_barPlot->axisRect()->insetLayout()->simplify();
    m_barPlot->plotLayout()->addElement(1, 0, m_barPlot->legend);
    m_barPlot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_barPlot->legend->setMargins(QMargins(8, 0, 8, 6));
    m_tabs->addTab(m_barPlot, tr("Per-rank breakdown"));

    m_barExport = new ChartExportMenu(m_barPlot, this);
    m_barExport->setBaseName(QStringLiteral("cluster-ranks"));
    m_barExport->setDataProvider([this] { return barChartData(); });
    m_barExport->setExportHook(exportTitleHook(m_barPlot, this, [] { return tr("Time per step by rank"); }));
    connect(m_barExport, &ChartExportMenu::exported, this, &ClusterPanel::chartExported);
    connect(m_barExport, &ChartExportMenu::exportFailed, this, &ClusterPanel::chartExportFailed);

    connect(m_barPlot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent* event) {
        const int index = rankIndexAt(event->position().toPoint());
        if (index >= 0)
            emit rankActivated(m_cluster->ranks[std::size_t(index)].rank);
    });
    connect(m_barPlot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const int index = rankIndexAt(event->position().toPoint());
        if (index < 0) {
            QToolTip::hideText();
            return;
        }
        const RankFigures& r = m_cluster->ranks[std::size_t(index)];
        QStringList lines { tr("Rank %1").arg(r.rank) };
        for (const BarPart& part : barParts()) {
            const double v = part.field ? r.*part.field : restOfStep(r);
            if (isKnown(v) && v > 0)
                lines << QStringLiteral("%1: %2").arg(part.name, ClusterRankModel::formatMs(v));
        }
        lines << tr("Double-click to open this rank");
        QToolTip::showText(event->globalPosition().toPoint(), lines.join(QLatin1Char('\n')), m_barPlot);
    });
    connect(m_barPlot, &QWidget::customContextMenuRequested, this, &ClusterPanel::showBarMenu);
}

void ClusterPanel::buildMatrix()
{
    m_matrixPage = new QWidget(m_tabs);
    auto* layout = new QVBoxLayout(m_matrixPage);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(4);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(8, 0, 8, 0);
    row->addWidget(new QLabel(tr("Link type:"), m_matrixPage));
    m_linkTypeCombo = new QComboBox(m_matrixPage);
    m_linkTypeCombo->setObjectName(QStringLiteral("clusterLinkType"));
    m_linkTypeCombo->setToolTip(tr("The link type whose bandwidth the matrix shows"));
    row->addWidget(m_linkTypeCombo);
    row->addStretch(1);
    layout->addLayout(row);
    m_matrixEmpty = new QLabel(tr("No link information (hccl_raw files) in this cluster"), m_matrixPage);
    m_matrixEmpty->setObjectName(QStringLiteral("matrixEmptyState"));
    m_matrixEmpty->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_matrixEmpty);

    m_matrixPlot = new QCustomPlot(m_matrixPage);
    m_matrixPlot->setObjectName(QStringLiteral("clusterLinkMatrix"));
    m_matrixPlot->setMinimumHeight(120);
    m_matrixPlot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_matrixPlot->setMouseTracking(true);
    styleAxes(m_matrixPlot, this);
    m_matrixPlot->xAxis->setLabel(tr("Destination rank"));
    m_matrixPlot->yAxis->setLabel(tr("Source rank"));
    m_matrixPlot->yAxis->setRangeReversed(true);
    m_matrixPlot->yAxis->grid()->setVisible(false);
    m_colorMap = new QCPColorMap(m_matrixPlot->xAxis, m_matrixPlot->yAxis);
    m_colorMap->setInterpolate(false);
    auto* scale = new QCPColorScale(m_matrixPlot);
    m_matrixPlot->plotLayout()->addElement(0, 1, scale);
    scale->setLabel(tr("Bandwidth (GB/s)"));
    scale->axis()->setTickLabelFont(m_matrixPlot->xAxis->tickLabelFont());
    scale->axis()->setLabelFont(m_matrixPlot->xAxis->labelFont());
    m_colorMap->setColorScale(scale);
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    m_colorMap->setGradient(gradient);
    layout->addWidget(m_matrixPlot, 1);
    m_tabs->addTab(m_matrixPage, tr("Link bandwidth"));

    m_matrixExport = new ChartExportMenu(m_matrixPlot, this);
    m_matrixExport->setBaseName(QStringLiteral("cluster-links"));
    m_matrixExport->setDataProvider([this] { return matrixChartData(); });
    m_matrixExport->setExportHook(
        exportTitleHook(m_matrixPlot, this, [this] { return tr("%1 link bandwidth (GB/s)").arg(linkType()); }));
    connect(m_matrixExport, &ChartExportMenu::exported, this, &ClusterPanel::chartExported);
    connect(m_matrixExport, &ChartExportMenu::exportFailed, this, &ClusterPanel::chartExportFailed);

    connect(m_linkTypeCombo, &QComboBox::currentIndexChanged, this, [this] { rebuildMatrix(); });
    connect(m_matrixPlot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (!m_cluster)
            return;
        const std::vector<int> ranks = matrixRanks();
        const int x = int(std::lround(m_matrixPlot->xAxis->pixelToCoord(event->position().x())));
        const int y = int(std::lround(m_matrixPlot->yAxis->pixelToCoord(event->position().y())));
        if (x < 0 || y < 0 || x >= int(ranks.size()) || y >= int(ranks.size())) {
            QToolTip::hideText();
            return;
        }
        const QString type = linkType();
        for (const ClusterLink& l : m_cluster->links) {
            if (l.type != type || l.src != ranks[std::size_t(y)] || l.dst != ranks[std::size_t(x)])
                continue;
            QString text = tr("%1 → %2 (%3)\nBandwidth %4 GB/s\nSize %5 MB\nTime %6")
                               .arg(l.src)
                               .arg(l.dst)
                               .arg(l.type)
                               .arg(QLocale().toString(l.bandwidth, 'f', 2))
                               .arg(QLocale().toString(l.size, 'f', 2))
                               .arg(ClusterRankModel::formatMs(l.time));
            if (isKnown(l.deviation))
                text += QLatin1Char('\n') + tr("%1 against the %2 mean").arg(formatPercent(l.deviation), l.type);
            if (l.slow)
                text += QLatin1Char('\n') + tr("Slow link");
            QToolTip::showText(event->globalPosition().toPoint(), text, m_matrixPlot);
            return;
        }
        QToolTip::hideText();
    });
    connect(m_matrixPlot, &QWidget::customContextMenuRequested, this, &ClusterPanel::showMatrixMenu);
}

namespace {

constexpr int kSortValueRole = Qt::UserRole + 1;
constexpr int kRankValueRole = Qt::UserRole + 2;

QStandardItem* textItem(const QString& text, const QVariant& sortValue = {})
{
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    item->setData(sortValue.isValid() ? sortValue : QVariant(text), kSortValueRole);
    return item;
}

QStandardItem* msItem(double ms)
{
    auto* item = textItem(ClusterRankModel::formatMs(ms), isKnown(ms) ? ms : -1.0);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QStandardItem* numberItem(qint64 n)
{
    auto* item = textItem(QLocale().toString(n), n);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QStandardItem* rankItem(int rank)
{
    auto* item = textItem(QString::number(rank), rank);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setData(rank, kRankValueRole);
    return item;
}

/// The ranks of a group as ranges ("0-7, 16-23"), or, when they are every n-th rank (a data parallel group
/// across nodes), as that progression: a list of 128 strided ranks reads as nothing.
QString groupRanksText(const std::vector<int>& ranks)
{
    if (ranks.size() >= 3) {
        const int stride = ranks[1] - ranks[0];
        bool progression = stride > 1;
        for (std::size_t i = 2; progression && i < ranks.size(); ++i)
            progression = ranks[i] - ranks[i - 1] == stride;
        if (progression)
            return ClusterPanel::tr("%1-%2, every %3 ranks").arg(ranks.front()).arg(ranks.back()).arg(stride);
    }
    return cluster::formatRankRanges(ranks);
}

QTreeView* makeTable(QWidget* parent, QStandardItemModel* model, const QString& name)
{
    model->setSortRole(kSortValueRole);
    auto* view = new QTreeView(parent);
    view->setObjectName(name);
    view->setModel(model);
    view->setRootIsDecorated(false);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->header()->setResizeContentsPrecision(kSizedRows);
    return view;
}

} // namespace

void ClusterPanel::buildHeatmap()
{
    m_heatmapPage = new QWidget(m_tabs);
    m_heatmapPage->setObjectName(QStringLiteral("clusterHeatmapPage"));
    auto* layout = new QVBoxLayout(m_heatmapPage);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(4);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(8, 0, 8, 0);
    row->addWidget(new QLabel(tr("Show:"), m_heatmapPage));
    m_metricCombo = new QComboBox(m_heatmapPage);
    m_metricCombo->setObjectName(QStringLiteral("clusterHeatmapMetric"));
    m_metricCombo->addItem(tr("Step time"), int(cluster::StepMetric::StepTime));
    m_metricCombo->addItem(tr("Wait time (communication not overlapped + idle)"), int(cluster::StepMetric::WaitTime));
    row->addWidget(m_metricCombo);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Rows:"), m_heatmapPage));
    m_orderCombo = new QComboBox(m_heatmapPage);
    m_orderCombo->setObjectName(QStringLiteral("clusterHeatmapOrder"));
    m_orderCombo->addItem(tr("By rank"));
    m_orderCombo->addItem(tr("By mean, slowest first"));
    row->addWidget(m_orderCombo);
    row->addStretch(1);
    layout->addLayout(row);
    m_heatmap = new RankStepHeatmap(m_heatmapPage);
    layout->addWidget(m_heatmap, 1);
    m_tabs->addTab(m_heatmapPage, tr("Rank × step"));

    connect(m_metricCombo, &QComboBox::currentIndexChanged, this,
            [this] { setHeatmapMetric(cluster::StepMetric(m_metricCombo->currentData().toInt())); });
    connect(m_orderCombo, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_heatmap->setRowsByMean(index == 1); });
    connect(m_heatmap, &RankStepHeatmap::rankClicked, this, [this](int rank) { selectRank(rank); });
    connect(m_heatmap, &RankStepHeatmap::rankActivated, this, &ClusterPanel::rankActivated);
}

void ClusterPanel::buildSlowest()
{
    m_slowestPage = new QWidget(m_tabs);
    auto* layout = new QHBoxLayout(m_slowestPage);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* splitter = new QSplitter(Qt::Horizontal, m_slowestPage);
    layout->addWidget(splitter);
    m_slowestModel = new QStandardItemModel(this);
    m_slowestTable = makeTable(splitter, m_slowestModel, QStringLiteral("clusterSlowestRanks"));
    m_slowestStepModel = new QStandardItemModel(this);
    m_slowestStepTable = makeTable(splitter, m_slowestStepModel, QStringLiteral("clusterSlowestSteps"));
    for (QTreeView* view : { m_slowestTable, m_slowestStepTable }) {
        connect(view, &QTreeView::clicked, this, [this](const QModelIndex& index) {
            selectRank(index.siblingAtColumn(0).data(kRankValueRole).toInt());
        });
        connect(view, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
            const QVariant rank = index.siblingAtColumn(0).data(kRankValueRole);
            if (rank.isValid())
                emit rankActivated(rank.toInt());
        });
    }
    m_tabs->addTab(m_slowestPage, tr("Slowest rank per step"));
}

void ClusterPanel::buildGroups()
{
    m_groupModel = new QStandardItemModel(this);
    m_groupTable = makeTable(m_tabs, m_groupModel, QStringLiteral("clusterGroups"));
    m_groupTable->setWordWrap(false);
    m_tabs->addTab(m_groupTable, tr("Communication groups"));
}

void ClusterPanel::rebuildViewTables()
{
    // Slowest rank per step: how often each rank was it, and the list of steps.
    m_slowestModel->clear();
    m_slowestModel->setHorizontalHeaderLabels(
        { tr("Rank"), tr("Slowest in steps"), tr("Share of steps"), tr("Total over the step median") });
    const cluster::SlowestRanks& slowest = m_views.slowest;
    const int stepCount = int(slowest.steps.size());
    for (const cluster::SlowestRankCount& c : slowest.counts) {
        QList<QStandardItem*> row { rankItem(c.rank), numberItem(c.steps),
                                    textItem(tr("%1 %").arg(
                                                 QLocale().toString(100.0 * c.steps / std::max(1, stepCount), 'f', 1)),
                                             double(c.steps) / std::max(1, stepCount)),
                                    msItem(c.excess) };
        row[0]->setData(c.rank, kRankValueRole);
        m_slowestModel->appendRow(row);
    }
    m_slowestStepModel->clear();
    m_slowestStepModel->setHorizontalHeaderLabels(
        { tr("Slowest rank"), tr("Step"), tr("Step time"), tr("Step median"), tr("Over the median") });
    for (const cluster::SlowestRankStep& s : slowest.steps) {
        QList<QStandardItem*> row { rankItem(s.rank), numberItem(s.step), msItem(s.value), msItem(s.median),
                                    msItem(isKnown(s.median) ? s.value - s.median : cluster::kMissing) };
        row[0]->setData(s.rank, kRankValueRole);
        m_slowestStepModel->appendRow(row);
    }
    m_slowestTable->sortByColumn(1, Qt::DescendingOrder);
    m_slowestStepTable->sortByColumn(1, Qt::AscendingOrder);

    m_groupModel->clear();
    m_groupModel->setHorizontalHeaderLabels({ tr("Group"), tr("Ranks"), tr("Size"), tr("Collectives"), tr("Total time"),
                                              tr("Slowest rank"), tr("Waited for it"), tr("Slowest link"),
                                              tr("Link wait") });
    int inferred = 0;
    for (const cluster::CommGroup& g : m_views.groups) {
        const QString name = g.inferred ? tr("inferred %1").arg(++inferred) : g.name;
        QList<QStandardItem*> row { textItem(name),
                                    textItem(groupRanksText(g.ranks), g.ranks.empty() ? -1 : g.ranks.front()),
                                    numberItem(qint64(g.ranks.size())),
                                    numberItem(g.collectives),
                                    msItem(g.totalTime),
                                    g.slowestRank >= 0 ? numberItem(g.slowestRank) : textItem(QStringLiteral("–"), -1),
                                    msItem(g.slowestRank >= 0 ? g.slowestRankWait : cluster::kMissing),
                                    textItem(g.linkWaiter >= 0 ? tr("%1 waits for %2").arg(g.linkWaiter).arg(g.linkLate)
                                                               : QStringLiteral("–")),
                                    msItem(g.linkWaiter >= 0 ? g.linkWait : cluster::kMissing) };
        row[0]->setToolTip(g.inferred ? tr("No process group in the traces: these ranks issued the same "
                                           "sequence of collectives")
                                      : tr("Process group %1, declared ranks %2").arg(g.name, g.declaredRanks));
        if (g.slowestRank >= 0)
            row[0]->setData(g.slowestRank, kRankValueRole);
        row[1]->setToolTip(cluster::formatRankRanges(g.ranks));
        m_groupModel->appendRow(row);
    }
    for (QTreeView* view : { m_slowestTable, m_slowestStepTable, m_groupTable }) {
        for (int c = 0; c < view->model()->columnCount(); ++c) {
            view->resizeColumnToContents(c);
            // A long list of ranks must not push the figures out of sight; the tooltip has it whole.
            view->setColumnWidth(c, std::min(view->columnWidth(c), kMaxColumnWidth));
        }
    }
    const int groupTab = m_tabs->indexOf(m_groupTable);
    m_tabs->setTabEnabled(groupTab, !m_views.groups.empty());
    m_tabs->setTabToolTip(
        groupTab,
        m_views.groups.empty() ? tr("Groups are inferred from the collectives of rank digests or traces") : QString());
}

void ClusterPanel::showViews(quint64 generation, cluster::ClusterViews views)
{
    if (generation != m_generation)
        return;
    m_views = std::move(views);
    const bool wait = cluster::StepMetric(m_metricCombo->currentData().toInt()) == cluster::StepMetric::WaitTime;
    m_heatmap->setMatrix(wait ? m_views.waitTime : m_views.stepTime);
    rebuildViewTables();
    updateSummary();
}

void ClusterPanel::setHeatmapMetric(cluster::StepMetric metric)
{
    const int index = m_metricCombo->findData(int(metric));
    if (index != m_metricCombo->currentIndex()) {
        const QSignalBlocker blocker(m_metricCombo);
        m_metricCombo->setCurrentIndex(index);
    }
    m_heatmap->setMatrix(metric == cluster::StepMetric::WaitTime ? m_views.waitTime : m_views.stepTime);
}

void ClusterPanel::setHeatmapRowsByMean(bool byMean)
{
    m_orderCombo->setCurrentIndex(byMean ? 1 : 0);
}

bool ClusterPanel::setRankFilter(const QString& text)
{
    if (m_filterEdit->text() != text) {
        const QSignalBlocker blocker(m_filterEdit);
        m_filterEdit->setText(text);
    }
    const bool ok = m_proxy->setFilterText(text);
    m_filterEdit->setStyleSheet(ok ? QString() : QStringLiteral("QLineEdit { color: %1; }").arg(alertColor().name()));
    if (!ok)
        m_filterEdit->setToolTip(tr("Not understood: write ranks (3), ranges (0-7) and >pN (>p95)"));
    m_table->expandAll();
    return ok;
}

bool ClusterPanel::selectRank(int rank)
{
    const std::function<QModelIndex(const QModelIndex&)> find = [&](const QModelIndex& parent) -> QModelIndex {
        for (int row = 0; row < m_proxy->rowCount(parent); ++row) {
            const QModelIndex index = m_proxy->index(row, 0, parent);
            if (index.data(ClusterRankModel::RankRole).toInt() == rank)
                return index;
            if (m_proxy->hasChildren(index)) {
                const QModelIndex found = find(index);
                if (found.isValid())
                    return found;
            }
        }
        return {};
    };
    const QModelIndex index = rank >= 0 ? find({}) : QModelIndex();
    m_heatmap->setSelectedRank(rank);
    if (!index.isValid())
        return false;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

int ClusterPanel::selectedRank() const
{
    const QModelIndex index = m_table->currentIndex();
    return index.isValid() ? index.siblingAtColumn(0).data(ClusterRankModel::RankRole).toInt() : -1;
}

void ClusterPanel::setCluster(std::shared_ptr<const Cluster> cluster)
{
    const quint64 generation = ++m_generation;
    m_computing = false;
    m_digests.clear();
    m_cluster = withPeakMemory(std::move(cluster));
    rebuild();
    // A cluster without digests has no collectives: only the step matrices, which cost one pass.
    showViews(generation, m_cluster ? cluster::computeClusterViews(*m_cluster, {}) : cluster::ClusterViews {});
    emit clusterReady();
}

void ClusterPanel::setPeakMemory(std::map<int, double> bytesByRank)
{
    m_peakMemory = std::move(bytesByRank);
    if (!m_cluster)
        return;
    m_cluster = withPeakMemory(m_cluster);
    rebuild();
}

std::shared_ptr<const Cluster> ClusterPanel::withPeakMemory(std::shared_ptr<const Cluster> cluster) const
{
    if (!cluster || m_peakMemory.empty())
        return cluster;
    bool missing = false;
    for (const cluster::RankFigures& rank : cluster->ranks)
        missing = missing || (std::isnan(rank.peakMemoryBytes) && m_peakMemory.count(rank.rank));
    if (!missing)
        return cluster;
    auto filled = std::make_shared<Cluster>(*cluster);
    for (cluster::RankFigures& rank : filled->ranks) {
        const auto it = m_peakMemory.find(rank.rank);
        if (std::isnan(rank.peakMemoryBytes) && it != m_peakMemory.end())
            rank.peakMemoryBytes = it->second;
    }
    return filled;
}

void ClusterPanel::setStore(std::shared_ptr<const trace::TraceStore> store)
{
    const quint64 generation = ++m_generation;
    if (!store) {
        m_computing = false;
        m_cluster.reset();
        m_digests.clear();
        rebuild();
        emit clusterReady();
        return;
    }
    m_computing = true;
    updateSummary();
    // One digest per source, as if each rank had been read alone: the cluster is the same either way.
    struct Result
    {
        DigestList digests;
        std::shared_ptr<const Cluster> cluster;
        cluster::ClusterViews views;
    };
    QtConcurrent::run(workerPool(), [store] {
        const trace::StepBreakdown breakdown = trace::computeStepBreakdown(*store);
        DigestList digests;
        for (int source = 0; source < int(store->sources().size()); ++source)
            digests.push_back(std::make_shared<const cluster::RankDigest>(
                cluster::computeRankDigest(*store, source, {}, &breakdown)));
        auto cluster = std::make_shared<const Cluster>(cluster::clusterFromDigests(digests));
        cluster::ClusterViews views = cluster::computeClusterViews(*cluster, digests);
        return Result { std::move(digests), std::move(cluster), std::move(views) };
    }).then(this, [this, generation](Result result) {
        showDigests(generation, std::move(result.digests), std::move(result.cluster), std::move(result.views));
    });
}

void ClusterPanel::setDigests(DigestList digests)
{
    const quint64 generation = ++m_generation;
    if (digests.empty()) {
        setCluster(nullptr);
        return;
    }
    m_computing = true;
    updateSummary();
    using Result = std::pair<std::shared_ptr<const Cluster>, cluster::ClusterViews>;
    QtConcurrent::run(workerPool(), [digests] {
        auto cluster = std::make_shared<const Cluster>(cluster::clusterFromDigests(digests));
        cluster::ClusterViews views = cluster::computeClusterViews(*cluster, digests);
        return Result(std::move(cluster), std::move(views));
    }).then(this, [this, generation, digests](Result result) {
        showDigests(generation, digests, std::move(result.first), std::move(result.second));
    });
}

void ClusterPanel::showDigests(quint64 generation, DigestList digests, std::shared_ptr<const Cluster> cluster,
                               cluster::ClusterViews views)
{
    if (generation != m_generation)
        return;
    m_computing = false;
    m_digests = std::move(digests);
    m_cluster = withPeakMemory(std::move(cluster));
    rebuild();
    showViews(generation, std::move(views));
    emit clusterReady();
}

std::shared_ptr<const cluster::RankDigest> ClusterPanel::digestOfRank(int rank) const
{
    for (const auto& digest : m_digests) {
        if (digest && digest->rank() == rank)
            return digest;
    }
    return nullptr;
}

void ClusterPanel::setGroupedByStage(bool grouped)
{
    if (m_groupByStage->isChecked() != grouped) {
        const QSignalBlocker blocker(m_groupByStage);
        m_groupByStage->setChecked(grouped);
    }
    m_model->setGroupedByStage(grouped);
    m_table->setRootIsDecorated(grouped && m_cluster && m_cluster->hasStages());
    m_table->expandAll();
}

bool ClusterPanel::isGroupedByStage() const
{
    return m_model->isGroupedByStage();
}

void ClusterPanel::setLinkType(const QString& type)
{
    const int index = m_linkTypeCombo->findText(type);
    if (index >= 0)
        m_linkTypeCombo->setCurrentIndex(index);
}

QString ClusterPanel::linkType() const
{
    return m_linkTypeCombo->currentText();
}

bool ClusterPanel::isShowingEmptyState() const
{
    return m_stack->currentWidget() == m_emptyLabel;
}

QString ClusterPanel::summaryText() const
{
    return m_summary->text();
}

void ClusterPanel::rebuild()
{
    const int previousRanks = m_model->cluster() ? int(m_model->cluster()->ranks.size()) : 0;
    m_model->setCluster(m_cluster);
    m_proxy->refresh();
    const bool empty = !m_cluster || m_cluster->isEmpty();
    m_emptyLabel->setText(tr("No cluster to show. Open a run whose profiler folder holds several ranks' files "
                             "(step_trace_raw, hccl_raw, ascend_cluster_analyse), the traces of several "
                             "ranks together, or a folder of rank digests (runlens digest)."));
    m_stack->setCurrentWidget(empty ? static_cast<QWidget*>(m_emptyLabel) : m_stack->widget(1));
    m_groupByStage->setEnabled(!empty && m_cluster->hasStages());
    m_exportButton->setEnabled(!empty);
    {
        const QSignalBlocker blocker(m_linkTypeCombo);
        const QString previous = m_linkTypeCombo->currentText();
        m_linkTypeCombo->clear();
        if (!empty)
            m_linkTypeCombo->addItems(m_cluster->linkTypes());
        // Start on the type of the worst link: that is where the problem is.
        QString pick = previous;
        if (m_linkTypeCombo->findText(pick) < 0 && !empty && m_cluster->worstLink >= 0)
            pick = m_cluster->links[std::size_t(m_cluster->worstLink)].type;
        m_linkTypeCombo->setCurrentIndex(std::max(0, m_linkTypeCombo->findText(pick)));
    }
    setGroupedByStage(m_groupByStage->isChecked());
    updateColumns();
    // Past a few dozen ranks one bar per rank says little: start on the heatmap.
    const int ranks = empty ? 0 : int(m_cluster->ranks.size());
    if (ranks > kMaxTickLabels && previousRanks <= kMaxTickLabels)
        m_tabs->setCurrentWidget(m_heatmapPage);
    // With more ranks than pixel rows each pixel shows the slowest of several ranks; sorted by mean, the ranks
    // sharing a pixel are alike, so the picture stays true and the slow ranks gather at the top.
    if (ranks > kHeatmapRanksByMean && previousRanks <= kHeatmapRanksByMean)
        setHeatmapRowsByMean(true);
    rebuildBars();
    rebuildMatrix();
    updateSummary();
}

void ClusterPanel::updateColumns()
{
    for (int c = 0; c < ClusterRankModel::ColumnCount; ++c)
        m_table->setColumnHidden(c, m_model->isColumnEmpty(c));
}

void ClusterPanel::updateSummary()
{
    if (m_computing) {
        m_summary->setText(tr("Analysing the ranks…"));
        // The first analysis of a folder: the empty page says what is happening, not that there is nothing.
        if (isShowingEmptyState())
            m_emptyLabel->setText(tr("Analysing the ranks…"));
        return;
    }
    if (!m_cluster || m_cluster->isEmpty()) {
        m_summary->setText(tr("No cluster"));
        return;
    }
    const Cluster& c = *m_cluster;
    QStringList parts;
    parts << tr("%n rank(s)", nullptr, int(c.ranks.size()));
    if (c.worldSize > int(c.ranks.size()))
        parts.back() = tr("%1 of %2 ranks").arg(c.ranks.size()).arg(c.worldSize);
    if (!c.parallelMode.isEmpty())
        parts << c.parallelMode;
    if (c.slowestRank >= 0) {
        const RankFigures& r = c.ranks[std::size_t(c.slowestRank)];
        const QString figure = c.usesStepInterval() ? tr("step interval") : tr("step time");
        parts << (r.slow ? tr("slowest rank %1: %2 %3 (%4 against the mean)")
                               .arg(r.rank)
                               .arg(figure, ClusterRankModel::formatMs(c.slowFigure(r)), formatPercent(r.deviation))
                         : tr("slowest rank %1 (within %2 % of the mean)")
                               .arg(r.rank)
                               .arg(int(cluster::kOffMeanThreshold * 100)));
    }
    if (c.worstLink >= 0) {
        const ClusterLink& l = c.links[std::size_t(c.worstLink)];
        parts << tr("worst link %1 → %2 %3: %4 GB/s (%5)")
                     .arg(l.src)
                     .arg(l.dst)
                     .arg(l.type)
                     .arg(QLocale().toString(l.bandwidth, 'f', 2))
                     .arg(formatPercent(l.deviation));
    }
    if (!m_views.slowest.counts.empty() && m_views.slowest.steps.size() > 1) {
        const cluster::SlowestRankCount& top = m_views.slowest.counts.front();
        parts << tr("slowest step time: rank %1 in %2 of %3 steps")
                     .arg(top.rank)
                     .arg(top.steps)
                     .arg(m_views.slowest.steps.size());
    }
    if (!c.stragglers.empty()) {
        const auto top
            = std::max_element(c.ranks.begin(), c.ranks.end(), [](const RankFigures& a, const RankFigures& b) {
                  return a.stragglerSteps < b.stragglerSteps;
              });
        parts << tr("straggler: rank %1 in %2 of %3 steps")
                     .arg(top->rank)
                     .arg(top->stragglerSteps)
                     .arg(c.stragglers.size());
    }
    m_summary->setText(parts.join(QStringLiteral(" · ")));
}

std::vector<ClusterPanel::BarPart> ClusterPanel::barParts() const
{
    std::vector<BarPart> parts;
    if (!m_cluster)
        return parts;
    const auto any = [this](double RankFigures::*field) {
        return std::any_of(m_cluster->ranks.begin(), m_cluster->ranks.end(),
                           [field](const RankFigures& r) { return isKnown(r.*field); });
    };
    // Parts that add up to the step: the tail holds the gradient communication when nothing else reports it.
    const bool communication = any(&RankFigures::communication);
    if (any(&RankFigures::stepInterval))
        parts.push_back({ tr("Step interval"), QColor(0xee, 0xca, 0x3b), &RankFigures::stepInterval });
    if (any(&RankFigures::computation))
        parts.push_back({ tr("Computation"), QColor(0x4c, 0x78, 0xa8), &RankFigures::computation });
    if (communication)
        parts.push_back({ tr("Communication"), QColor(0x72, 0xb7, 0xb2), &RankFigures::communication });
    if (any(&RankFigures::receive))
        parts.push_back({ tr("Receive"), QColor(0xb2, 0x79, 0xa2), &RankFigures::receive });
    if (!communication && any(&RankFigures::tail))
        parts.push_back({ tr("Tail"), QColor(0xf5, 0x85, 0x18), &RankFigures::tail });
    if (any(&RankFigures::idle))
        parts.push_back({ tr("Idle"), QColor(0xc9, 0xc4, 0xc0), &RankFigures::idle });
    parts.push_back({ tr("Other"), QColor(0x9d, 0x75, 0x5d), nullptr });
    return parts;
}

double ClusterPanel::restOfStep(const RankFigures& rank) const
{
    if (!isKnown(rank.stepTime))
        return 0;
    double sum = 0;
    for (const BarPart& part : barParts()) {
        if (part.field && isKnown(rank.*part.field))
            sum += rank.*part.field;
    }
    // Rounding in the files leaves slivers; only a visible rest is drawn.
    const double rest = rank.stepTime - sum;
    return rest > rank.stepTime * 1e-3 ? rest : 0;
}

void ClusterPanel::rebuildBars()
{
    for (QCPBars* bars : std::as_const(m_bars))
        m_barPlot->removePlottable(bars);
    m_bars.clear();
    m_barPlot->clearItems();
    const std::vector<BarPart> parts = barParts();
    const int n = m_cluster ? int(m_cluster->ranks.size()) : 0;
    QCPBars* below = nullptr;
    std::vector<double> totals(std::size_t(n), 0.0);
    for (const BarPart& part : parts) {
        auto* bars = new QCPBars(m_barPlot->xAxis, m_barPlot->yAxis);
        bars->setName(part.name);
        bars->setWidth(kBarWidth);
        bars->setPen(Qt::NoPen);
        bars->setBrush(part.color);
        bars->setStackingGap(0);
        bars->setAntialiased(false);
        if (below)
            bars->moveAbove(below);
        below = bars;
        QVector<double> keys;
        QVector<double> values;
        for (int i = 0; i < n; ++i) {
            const RankFigures& r = m_cluster->ranks[std::size_t(i)];
            double v = part.field ? r.*part.field : restOfStep(r);
            v = isKnown(v) ? std::max(0.0, v) : 0.0;
            keys << i;
            values << v;
            totals[std::size_t(i)] += v;
        }
        bars->setData(keys, values, true);
        // A part no rank has (an all-zero rest) stays out of the legend.
        if (std::all_of(values.begin(), values.end(), [](double v) { return v == 0; }))
            bars->removeFromLegend();
        m_bars << bars;
    }
    const double top = totals.empty() ? 1.0 : *std::max_element(totals.begin(), totals.end());
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int stride = std::max(1, (n + kMaxTickLabels - 1) / kMaxTickLabels);
    for (int i = 0; i < n; i += stride)
        ticker->addTick(i, QString::number(m_cluster->ranks[std::size_t(i)].rank));
    m_barPlot->xAxis->setTicker(ticker);
    m_barPlot->xAxis->setRange(-0.6, n > 0 ? n - 0.4 : 1.0);
    m_barPlot->yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);

    // The slowest rank: outlined in the alert colour; other slow ranks with a thinner line.
    for (int i = 0; i < n; ++i) {
        const RankFigures& r = m_cluster->ranks[std::size_t(i)];
        const bool slowest = i == m_cluster->slowestRank;
        if (!slowest && !r.slow)
            continue;
        auto* rect = new QCPItemRect(m_barPlot);
        rect->setObjectName(slowest ? QStringLiteral("slowestRankMark") : QStringLiteral("slowRankMark"));
        rect->topLeft->setCoords(i - kBarWidth / 2 - 0.05, totals[std::size_t(i)] * 1.02 + top * 0.01);
        rect->bottomRight->setCoords(i + kBarWidth / 2 + 0.05, 0);
        rect->setPen(QPen(alertColor(), slowest ? 2.5 : 1.2));
        rect->setBrush(Qt::NoBrush);
    }
    m_barPlot->replot();
}

std::vector<int> ClusterPanel::matrixRanks() const
{
    std::vector<int> ranks;
    if (!m_cluster)
        return ranks;
    for (const ClusterLink& l : m_cluster->links) {
        ranks.push_back(l.src);
        ranks.push_back(l.dst);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

void ClusterPanel::rebuildMatrix()
{
    m_matrixPlot->clearItems();
    const std::vector<int> ranks = matrixRanks();
    const int n = int(ranks.size());
    const bool empty = n == 0;
    m_matrixEmpty->setVisible(empty);
    m_matrixPlot->setVisible(!empty);
    m_linkTypeCombo->setEnabled(!empty);
    m_colorMap->data()->setSize(std::max(1, n), std::max(1, n));
    m_colorMap->data()->setRange(QCPRange(0, std::max(1, n) - 1), QCPRange(0, std::max(1, n) - 1));
    m_colorMap->data()->fill(std::nan(""));
    auto position
        = [&ranks](int rank) { return int(std::lower_bound(ranks.begin(), ranks.end(), rank) - ranks.begin()); };
    const QString type = linkType();
    double low = std::numeric_limits<double>::max();
    double high = std::numeric_limits<double>::lowest();
    if (m_cluster) {
        for (int i = 0; i < int(m_cluster->links.size()); ++i) {
            const ClusterLink& l = m_cluster->links[std::size_t(i)];
            if (l.type != type || !isKnown(l.bandwidth))
                continue;
            const int x = position(l.dst);
            const int y = position(l.src);
            m_colorMap->data()->setCell(x, y, l.bandwidth);
            low = std::min(low, l.bandwidth);
            high = std::max(high, l.bandwidth);
            if (l.slow || i == m_cluster->worstLink) {
                auto* rect = new QCPItemRect(m_matrixPlot);
                rect->setObjectName(i == m_cluster->worstLink ? QStringLiteral("worstLinkMark")
                                                              : QStringLiteral("slowLinkMark"));
                rect->topLeft->setCoords(x - 0.45, y - 0.45);
                rect->bottomRight->setCoords(x + 0.45, y + 0.45);
                rect->setPen(QPen(alertColor(), i == m_cluster->worstLink ? 3 : 1.5));
                rect->setBrush(Qt::NoBrush);
            }
        }
    }
    if (low <= high)
        m_colorMap->setDataRange(QCPRange(std::min(0.0, low), high > 0 ? high : 1.0));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int stride = std::max(1, (n + kMaxTickLabels - 1) / kMaxTickLabels);
    for (int i = 0; i < n; i += stride)
        ticker->addTick(i, QString::number(ranks[std::size_t(i)]));
    m_matrixPlot->xAxis->setTicker(ticker);
    m_matrixPlot->yAxis->setTicker(ticker);
    m_matrixPlot->xAxis->setRange(-0.5, std::max(1, n) - 0.5);
    m_matrixPlot->yAxis->setRange(-0.5, std::max(1, n) - 0.5);
    m_matrixPlot->replot();
}

ChartData ClusterPanel::barChartData() const
{
    ChartData data;
    data.title = tr("Time per step by rank");
    data.xLabel = tr("Rank");
    data.yLabel = tr("Time per step (ms)");
    data.seriesColumn = QStringLiteral("rank");
    const std::vector<BarPart> parts = barParts();
    data.columns << QStringLiteral("step_time_ms");
    for (const BarPart& part : parts)
        data.columns << QStringLiteral("%1_ms").arg(part.name.toLower().replace(QLatin1Char(' '), QLatin1Char('_')));
    data.columns << QStringLiteral("off_mean") << QStringLiteral("slow");
    if (!m_cluster)
        return data;
    for (int i = 0; i < int(m_cluster->ranks.size()); ++i) {
        const RankFigures& r = m_cluster->ranks[std::size_t(i)];
        ChartSeriesData series;
        series.name = QString::number(r.rank);
        series.columns.push_back({ r.stepTime });
        for (const BarPart& part : parts)
            series.columns.push_back({ part.field ? r.*part.field : restOfStep(r) });
        series.columns.push_back({ r.deviation });
        series.columns.push_back({ r.slow || i == m_cluster->slowestRank ? 1.0 : 0.0 });
        data.series.push_back(std::move(series));
    }
    return data;
}

ChartData ClusterPanel::matrixChartData() const
{
    ChartData data;
    data.title = tr("%1 link bandwidth").arg(linkType());
    data.xLabel = tr("Destination rank");
    data.yLabel = tr("Source rank");
    data.seriesColumn = QStringLiteral("type");
    data.columns << QStringLiteral("src") << QStringLiteral("dst") << QStringLiteral("bandwidth_gb_s")
                 << QStringLiteral("size_mb") << QStringLiteral("time_ms") << QStringLiteral("off_mean")
                 << QStringLiteral("slow");
    if (!m_cluster)
        return data;
    const QString type = linkType();
    for (const ClusterLink& l : m_cluster->links) {
        if (l.type != type)
            continue;
        ChartSeriesData series;
        series.name = l.type;
        for (double v : { double(l.src), double(l.dst), l.bandwidth, l.size, l.time, l.deviation, l.slow ? 1.0 : 0.0 })
            series.columns.push_back({ v });
        data.series.push_back(std::move(series));
    }
    return data;
}

QPoint ClusterPanel::barCenter(int rankIndex) const
{
    const double x = m_barPlot->xAxis->coordToPixel(rankIndex);
    const double y = m_barPlot->yAxis->coordToPixel(m_barPlot->yAxis->range().lower);
    return QPoint(int(std::lround(x)), int(std::lround(y)) - 4);
}

int ClusterPanel::rankIndexAt(const QPoint& plotPos) const
{
    if (!m_cluster || m_cluster->ranks.empty() || !m_barPlot->axisRect()->rect().contains(plotPos))
        return -1;
    const double x = m_barPlot->xAxis->pixelToCoord(plotPos.x());
    const int nearest = int(std::lround(x));
    if (nearest < 0 || nearest >= int(m_cluster->ranks.size()) || std::abs(x - nearest) > kBarWidth / 2)
        return -1;
    return nearest;
}

QPoint ClusterPanel::matrixCellCenter(int src, int dst) const
{
    const std::vector<int> ranks = matrixRanks();
    const auto x = std::lower_bound(ranks.begin(), ranks.end(), dst) - ranks.begin();
    const auto y = std::lower_bound(ranks.begin(), ranks.end(), src) - ranks.begin();
    return QPoint(int(std::lround(m_matrixPlot->xAxis->coordToPixel(double(x)))),
                  int(std::lround(m_matrixPlot->yAxis->coordToPixel(double(y)))));
}

void ClusterPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_barExport->setFileNameProvider(provider);
    m_matrixExport->setFileNameProvider(std::move(provider));
}

void ClusterPanel::setExportDirectory(const QString& directory)
{
    m_barExport->setDefaultDirectory(directory);
    m_matrixExport->setDefaultDirectory(directory);
}

void ClusterPanel::showBarMenu(const QPoint& pos)
{
    QMenu menu(this);
    const int index = rankIndexAt(pos);
    if (index >= 0) {
        const int rank = m_cluster->ranks[std::size_t(index)].rank;
        menu.addAction(tr("Open rank %1").arg(rank), this, [this, rank] { emit rankActivated(rank); });
        menu.addSeparator();
    }
    m_barExport->addTo(&menu);
    menu.exec(m_barPlot->mapToGlobal(pos));
}

void ClusterPanel::showMatrixMenu(const QPoint& pos)
{
    QMenu menu(this);
    m_matrixExport->addTo(&menu);
    menu.exec(m_matrixPlot->mapToGlobal(pos));
}

} // namespace runlens
