#include "widgets/cluster/clusterpanel.h"

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
    // In a short dock (another panel above it) the charts' size hints would leave the table a row or two.
    m_table->setMinimumHeight(m_table->fontMetrics().height() * 7);
    splitter->setChildrenCollapsible(false);

    QMenu* menu = m_header->exportMenu();
    // The export button exports the chart on the current tab.
    connect(menu, &QMenu::aboutToShow, this, [this, menu] {
        menu->clear();
        if (m_tabs->currentWidget() == m_barPlot)
            m_barExport->addTo(menu);
        else if (m_tabs->currentWidget() == m_matrixPage)
            m_matrixExport->addTo(menu);
        else if (!addViewExports(menu))
            menu->addAction(tr("Nothing to export on this tab"))->setEnabled(false);
    });
    connect(m_groupByStage, &QCheckBox::toggled, this, &ClusterPanel::setGroupedByStage);
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
    showViews(generation,
              m_cluster ? models::cluster::computeClusterViews(*m_cluster, {}) : models::cluster::ClusterViews {});
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
    for (const models::cluster::RankFigures& rank : cluster->ranks)
        missing = missing || (std::isnan(rank.peakMemoryBytes) && m_peakMemory.count(rank.rank));
    if (!missing)
        return cluster;
    auto filled = std::make_shared<Cluster>(*cluster);
    for (models::cluster::RankFigures& rank : filled->ranks) {
        const auto it = m_peakMemory.find(rank.rank);
        if (std::isnan(rank.peakMemoryBytes) && it != m_peakMemory.end())
            rank.peakMemoryBytes = it->second;
    }
    return filled;
}

void ClusterPanel::setStore(std::shared_ptr<const models::trace::TraceStore> store)
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
        models::cluster::ClusterViews views;
    };
    QtConcurrent::run(models::workerPool(), [store] {
        const models::trace::StepBreakdown breakdown = models::trace::computeStepBreakdown(*store);
        DigestList digests;
        for (int source = 0; source < int(store->sources().size()); ++source)
            digests.push_back(std::make_shared<const models::cluster::RankDigest>(
                models::cluster::computeRankDigest(*store, source, {}, &breakdown)));
        auto cluster = std::make_shared<const Cluster>(models::cluster::clusterFromDigests(digests));
        models::cluster::ClusterViews views = models::cluster::computeClusterViews(*cluster, digests);
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
    using Result = std::pair<std::shared_ptr<const Cluster>, models::cluster::ClusterViews>;
    QtConcurrent::run(models::workerPool(), [digests] {
        auto cluster = std::make_shared<const Cluster>(models::cluster::clusterFromDigests(digests));
        models::cluster::ClusterViews views = models::cluster::computeClusterViews(*cluster, digests);
        return Result(std::move(cluster), std::move(views));
    }).then(this, [this, generation, digests](Result result) {
        showDigests(generation, digests, std::move(result.first), std::move(result.second));
    });
}

void ClusterPanel::showDigests(quint64 generation, DigestList digests, std::shared_ptr<const Cluster> cluster,
                               models::cluster::ClusterViews views)
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

std::shared_ptr<const models::cluster::RankDigest> ClusterPanel::digestOfRank(int rank) const
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
                               .arg(int(models::cluster::kOffMeanThreshold * 100)));
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
        const models::cluster::SlowestRankCount& top = m_views.slowest.counts.front();
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

void ClusterPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_barExport->setFileNameProvider(provider);
    m_matrixExport->setFileNameProvider(provider);
    m_fileNameProvider = std::move(provider);
}

void ClusterPanel::setExportDirectory(const QString& directory)
{
    m_barExport->setDefaultDirectory(directory);
    m_matrixExport->setDefaultDirectory(directory);
}

} // namespace runlens::widgets::cluster
