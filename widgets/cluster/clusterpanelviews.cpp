#include "widgets/cluster/clusterpanel.h"

#include "widgets/cluster/clusterexport.h"

#include "models/core/workerpool.h"
#include "widgets/cluster/clusterpanelparts.h"
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

namespace runlens::widgets::cluster {

using models::cluster::Cluster;
using models::cluster::ClusterLink;
using models::cluster::isKnown;
using models::cluster::RankFigures;

using namespace clusterparts;

namespace {

constexpr int kSortValueRole = Qt::UserRole + 1;
constexpr int kRankValueRole = Qt::UserRole + 2;
/// What a CSV export writes for a cell instead of its text: the figure itself (ms, a count, a rank).
constexpr int kCsvValueRole = Qt::UserRole + 3;

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
    item->setData(isKnown(ms) ? QVariant(ms) : QVariant(QString()), kCsvValueRole);
    return item;
}

QStandardItem* numberItem(qint64 n)
{
    auto* item = textItem(QLocale().toString(n), n);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setData(n, kCsvValueRole);
    return item;
}

QStandardItem* rankItem(int rank)
{
    auto* item = textItem(QString::number(rank), rank);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setData(rank, kRankValueRole);
    item->setData(rank, kCsvValueRole);
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
    return models::cluster::formatRankRanges(ranks);
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
    m_metricCombo->addItem(tr("Step time"), int(models::cluster::StepMetric::StepTime));
    m_metricCombo->addItem(tr("Wait time (communication not overlapped + idle)"),
                           int(models::cluster::StepMetric::WaitTime));
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
            [this] { setHeatmapMetric(models::cluster::StepMetric(m_metricCombo->currentData().toInt())); });
    connect(m_orderCombo, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_heatmap->setRowsByMean(index == 1); });
    connect(m_heatmap, &RankStepHeatmap::rankClicked, this, [this](int rank) { selectRank(rank); });
    connect(m_heatmap, &RankStepHeatmap::rankActivated, this, &ClusterPanel::rankActivated);
    m_heatmap->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_heatmap, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        addHeatmapExports(&menu);
        menu.exec(m_heatmap->mapToGlobal(pos));
    });
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
    for (QTreeView* view : { m_slowestTable, m_slowestStepTable }) {
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view, &QWidget::customContextMenuRequested, this, [this, view](const QPoint& pos) {
            QMenu menu(this);
            addViewExports(&menu);
            menu.exec(view->viewport()->mapToGlobal(pos));
        });
    }
}

void ClusterPanel::buildGroups()
{
    m_groupModel = new QStandardItemModel(this);
    m_groupTable = makeTable(m_tabs, m_groupModel, QStringLiteral("clusterGroups"));
    m_groupTable->setWordWrap(false);
    m_tabs->addTab(m_groupTable, tr("Communication groups"));
    m_groupTable->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_groupTable, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        addViewExports(&menu);
        menu.exec(m_groupTable->viewport()->mapToGlobal(pos));
    });
}

void ClusterPanel::rebuildViewTables()
{
    // Slowest rank per step: how often each rank was it, and the list of steps.
    m_slowestModel->clear();
    m_slowestModel->setHorizontalHeaderLabels(
        { tr("Rank"), tr("Slowest in steps"), tr("Share of steps"), tr("Total over the step median") });
    const models::cluster::SlowestRanks& slowest = m_views.slowest;
    const int stepCount = int(slowest.steps.size());
    for (const models::cluster::SlowestRankCount& c : slowest.counts) {
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
    for (const models::cluster::SlowestRankStep& s : slowest.steps) {
        QList<QStandardItem*> row { rankItem(s.rank), numberItem(s.step), msItem(s.value), msItem(s.median),
                                    msItem(isKnown(s.median) ? s.value - s.median : models::cluster::kMissing) };
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
    for (const models::cluster::CommGroup& g : m_views.groups) {
        const QString name = g.inferred ? tr("inferred %1").arg(++inferred) : g.name;
        QList<QStandardItem*> row { textItem(name),
                                    textItem(groupRanksText(g.ranks), g.ranks.empty() ? -1 : g.ranks.front()),
                                    numberItem(qint64(g.ranks.size())),
                                    numberItem(g.collectives),
                                    msItem(g.totalTime),
                                    g.slowestRank >= 0 ? numberItem(g.slowestRank) : textItem(QStringLiteral("–"), -1),
                                    msItem(g.slowestRank >= 0 ? g.slowestRankWait : models::cluster::kMissing),
                                    textItem(g.linkWaiter >= 0 ? tr("%1 waits for %2").arg(g.linkWaiter).arg(g.linkLate)
                                                               : QStringLiteral("–")),
                                    msItem(g.linkWaiter >= 0 ? g.linkWait : models::cluster::kMissing) };
        row[0]->setToolTip(g.inferred ? tr("No process group in the traces: these ranks issued the same "
                                           "sequence of collectives")
                                      : tr("Process group %1, declared ranks %2").arg(g.name, g.declaredRanks));
        if (g.slowestRank >= 0)
            row[0]->setData(g.slowestRank, kRankValueRole);
        row[1]->setToolTip(models::cluster::formatRankRanges(g.ranks));
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

void ClusterPanel::showViews(quint64 generation, models::cluster::ClusterViews views)
{
    if (generation != m_generation)
        return;
    m_views = std::move(views);
    const bool wait
        = models::cluster::StepMetric(m_metricCombo->currentData().toInt()) == models::cluster::StepMetric::WaitTime;
    m_heatmap->setMatrix(wait ? m_views.waitTime : m_views.stepTime);
    rebuildViewTables();
    updateSummary();
}

void ClusterPanel::setHeatmapMetric(models::cluster::StepMetric metric)
{
    const int index = m_metricCombo->findData(int(metric));
    if (index != m_metricCombo->currentIndex()) {
        const QSignalBlocker blocker(m_metricCombo);
        m_metricCombo->setCurrentIndex(index);
    }
    m_heatmap->setMatrix(metric == models::cluster::StepMetric::WaitTime ? m_views.waitTime : m_views.stepTime);
}

void ClusterPanel::setHeatmapRowsByMean(bool byMean)
{
    m_orderCombo->setCurrentIndex(byMean ? 1 : 0);
}

bool ClusterPanel::exportHeatmap(ChartExporter::Format format, const QString& fileName, QString* errorMessage)
{
    if (format != ChartExporter::Format::Png && format != ChartExporter::Format::Svg) {
        if (errorMessage)
            *errorMessage = tr("The heatmap exports as PNG or SVG, not %1").arg(ChartExporter::displayName(format));
        return false;
    }
    return clusterexport::saveWidget(m_heatmap, format, fileName, errorMessage);
}

QByteArray ClusterPanel::tableCsv(const QTreeView* table) const
{
    return clusterexport::tableCsv(table, kCsvValueRole);
}

bool ClusterPanel::exportTable(const QTreeView* table, const QString& fileName, QString* errorMessage)
{
    return clusterexport::saveBytes(tableCsv(table), fileName, errorMessage);
}

void ClusterPanel::requestViewExport(ChartExporter::Format format, const QString& baseName,
                                     const std::function<bool(const QString&, QString*)>& write)
{
    const QString fileName
        = clusterexport::chooseFile(m_fileNameProvider, format, m_barExport->defaultDirectory(), baseName);
    if (fileName.isEmpty())
        return; // cancelled
    QString error;
    if (write(fileName, &error))
        emit chartExported(fileName);
    else
        emit chartExportFailed(error);
}

void ClusterPanel::addHeatmapExports(QMenu* menu)
{
    const QString base = QStringLiteral("cluster-rank-step");
    for (const auto format : { ChartExporter::Format::Png, ChartExporter::Format::Svg }) {
        QAction* action = menu->addAction(tr("Export Heatmap as %1…").arg(ChartExporter::displayName(format)));
        action->setEnabled(m_heatmap->image() && !m_heatmap->image()->isEmpty());
        connect(action, &QAction::triggered, this, [this, format, base] {
            requestViewExport(format, base, [this, format](const QString& file, QString* error) {
                return exportHeatmap(format, file, error);
            });
        });
    }
}

void ClusterPanel::addTableExport(QMenu* menu, const QTreeView* table, const QString& text, const QString& baseName)
{
    QAction* action = menu->addAction(text);
    action->setEnabled(table->model()->rowCount() > 0);
    const QString base = QStringLiteral("cluster-") + baseName;
    connect(action, &QAction::triggered, this, [this, table, base] {
        requestViewExport(ChartExporter::Format::Csv, base, [this, table](const QString& file, QString* error) {
            return exportTable(table, file, error);
        });
    });
}

bool ClusterPanel::addViewExports(QMenu* menu)
{
    QWidget* page = m_tabs->currentWidget();
    if (page == m_heatmapPage) {
        addHeatmapExports(menu);
    } else if (page == m_slowestPage) {
        addTableExport(menu, m_slowestTable, tr("Export Slowest Ranks as CSV…"), QStringLiteral("slowest-ranks"));
        addTableExport(menu, m_slowestStepTable, tr("Export Slowest Rank per Step as CSV…"),
                       QStringLiteral("slowest-rank-per-step"));
    } else if (page == m_groupTable) {
        addTableExport(menu, m_groupTable, tr("Export Communication Groups as CSV…"), QStringLiteral("groups"));
    } else {
        return false;
    }
    return true;
}

} // namespace runlens::widgets::cluster
