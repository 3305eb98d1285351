#pragma once

#include "models/cluster/cluster.h"
#include "models/cluster/clusterviews.h"
#include "models/cluster/rankdigest.h"
#include "models/trace/tracestore.h"
#include "widgets/cluster/rankfilterproxy.h"
#include "widgets/common/chartdata.h"
#include "widgets/common/chartexportmenu.h"

#include <QWidget>

#include <functional>
#include <map>
#include <memory>

class QCheckBox;
class QComboBox;
class QCPBars;
class QCPColorMap;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QStandardItemModel;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QToolButton;
class QTreeView;

namespace runlens::widgets {
class PanelHeader;
}

namespace runlens::widgets::cluster {

class ClusterRankModel;
class RankStepHeatmap;

/// The Cluster panel: one row per rank (sortable; grouped under pipeline stages on demand) with step
/// time, step interval, computation, communication alone and overlapped, receive, idle, FLOPS and peak
/// memory; the slowest rank and ranks more than 20 % off the mean highlighted; a per-rank stacked bar chart
/// of where a step's time goes; the link bandwidth matrix (source × destination rank, one link type at a
/// time) with the worst link outlined. Double-clicking a rank (row or bar) emits rankActivated so the
/// application can open that rank's timeline. Both charts export as PNG/SVG/PDF/CSV. For clusters of hundreds
/// or thousands of ranks: a filter over the table (`0-7, 16`, `>p95`), a rank × step heatmap of step time or
/// wait time, the slowest rank of each step and how often each rank was it, and the communication groups
/// inferred from the ranks' collectives with their slowest rank and link.
///
/// Give it an analysed cluster (setCluster), rank digests (setDigests: one per rank, from `runlens digest`
/// files or from traces read one rank at a time), or a store with one source per rank (setStore: digested
/// per source). Digests are assembled into the Kineto cluster on a worker and kept, so a thousand ranks cost
/// a thousand digests, not a thousand stores. The panel shares what it is given and never changes it.
class ClusterPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit ClusterPanel(QWidget* parent = nullptr);
    ~ClusterPanel() override;

    void setCluster(std::shared_ptr<const models::cluster::Cluster> cluster);
    std::shared_ptr<const models::cluster::Cluster> cluster() const { return m_cluster; }
    void setStore(std::shared_ptr<const models::trace::TraceStore> store);
    void setDigests(std::vector<std::shared_ptr<const models::cluster::RankDigest>> digests);
    /// The digests the shown cluster was assembled from (empty for a MindSpore cluster or setCluster()).
    const std::vector<std::shared_ptr<const models::cluster::RankDigest>>& digests() const { return m_digests; }
    /// The digest of rank `rank`, or null.
    std::shared_ptr<const models::cluster::RankDigest> digestOfRank(int rank) const;
    /// Peak device memory by rank, from whatever memory model the application has; fills the peak
    /// memory column of ranks whose cluster data does not say, now and for clusters computed later.
    void setPeakMemory(std::map<int, double> bytesByRank);
    bool isComputing() const { return m_computing; }
    /// The heatmap, straggler and group analyses of the shown cluster (empty until computed).
    const models::cluster::ClusterViews& views() const { return m_views; }

    /// Filters the table (see RankFilter); false when the text was not understood.
    bool setRankFilter(const QString& text);
    /// Selects rank `rank`'s row in the table (and in the heatmap); false when it is not shown.
    bool selectRank(int rank);
    /// The rank of the table's current row, or -1.
    int selectedRank() const;
    /// Shows wait time instead of step time in the heatmap.
    void setHeatmapMetric(models::cluster::StepMetric metric);
    void setHeatmapRowsByMean(bool byMean);
    RankStepHeatmap* heatmap() const { return m_heatmap; }
    QTreeView* groupTable() const { return m_groupTable; }
    QTreeView* slowestTable() const { return m_slowestTable; }
    QTreeView* slowestStepTable() const { return m_slowestStepTable; }
    QLineEdit* filterEdit() const { return m_filterEdit; }
    QTabWidget* chartTabs() const { return m_tabs; }

    void setGroupedByStage(bool grouped);
    bool isGroupedByStage() const;
    /// The link type the matrix shows.
    void setLinkType(const QString& type);
    QString linkType() const;

    QTreeView* table() const { return m_table; }
    QSortFilterProxyModel* tableModel() const { return m_proxy; }
    ClusterRankModel* rankModel() const { return m_model; }
    QCustomPlot* barChart() const { return m_barPlot; }
    QCustomPlot* linkMatrix() const { return m_matrixPlot; }
    ChartExportMenu* barExportMenu() const { return m_barExport; }
    ChartExportMenu* matrixExportMenu() const { return m_matrixExport; }
    /// True while the empty-state message is shown instead of the table and charts.
    bool isShowingEmptyState() const;
    QString summaryText() const;

    /// Numbers behind the charts: per rank the stacked parts (ms); per link of the shown type its figures.
    ChartData barChartData() const;
    ChartData matrixChartData() const;
    /// The bar of rank index `rankIndex` (into cluster()->ranks) in bar chart widget coordinates.
    QPoint barCenter(int rankIndex) const;
    /// The rank index under a bar chart position, or -1.
    int rankIndexAt(const QPoint& plotPos) const;
    /// The centre of the matrix cell (src, dst) in matrix widget coordinates.
    QPoint matrixCellCenter(int src, int dst) const;

    /// Writes the rank × step heatmap as painted, PNG or SVG; false with a message naming the file.
    bool exportHeatmap(ChartExporter::Format format, const QString& fileName, QString* errorMessage = nullptr);
    /// The CSV of a table of the tabs (slowestTable(), slowestStepTable(), groupTable()) with its rows as
    /// sorted: figures as plain numbers (ms), a figure not known as an empty field.
    QByteArray tableCsv(const QTreeView* table) const;
    bool exportTable(const QTreeView* table, const QString& fileName, QString* errorMessage = nullptr);

    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    void setExportDirectory(const QString& directory);

signals:
    /// A rank was double-clicked (table row or bar): the application opens its timeline/overview.
    void rankActivated(int rank);
    /// The cluster is shown (after setCluster, or when the worker of setStore finished).
    void clusterReady();
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);

private:
    struct BarPart
    {
        QString name;
        QColor color;
        double models::cluster::RankFigures::*field = nullptr; ///< nullptr: the rest of the step
    };

    void buildUi();
    void buildBarChart();
    void buildMatrix();
    void buildHeatmap();
    void buildGroups();
    void buildSlowest();
    void showViews(quint64 generation, models::cluster::ClusterViews views);
    void rebuildViewTables();
    void rebuild();
    void rebuildBars();
    void rebuildMatrix();
    void updateColumns();
    void updateSummary();
    std::vector<BarPart> barParts() const;
    double restOfStep(const models::cluster::RankFigures& rank) const;
    void showBarMenu(const QPoint& pos);
    void showMatrixMenu(const QPoint& pos);
    /// Adds the exports of the current tab when it is the heatmap's or a table's; false when it is neither.
    bool addViewExports(QMenu* menu);
    void addHeatmapExports(QMenu* menu);
    void addTableExport(QMenu* menu, const QTreeView* table, const QString& text, const QString& baseName);
    void requestViewExport(ChartExporter::Format format, const QString& baseName,
                           const std::function<bool(const QString&, QString*)>& write);
    std::vector<int> matrixRanks() const;

    std::shared_ptr<const models::cluster::Cluster> m_cluster;
    std::vector<std::shared_ptr<const models::cluster::RankDigest>> m_digests;
    using DigestList = std::vector<std::shared_ptr<const models::cluster::RankDigest>>;
    void showDigests(quint64 generation, DigestList digests, std::shared_ptr<const models::cluster::Cluster> cluster,
                     models::cluster::ClusterViews views);
    models::cluster::ClusterViews m_views;
    std::map<int, double> m_peakMemory;
    /// `cluster` with the peaks of m_peakMemory where its ranks have none.
    std::shared_ptr<const models::cluster::Cluster>
    withPeakMemory(std::shared_ptr<const models::cluster::Cluster> cluster) const;
    quint64 m_generation = 0;
    bool m_computing = false;

    PanelHeader* m_header = nullptr;
    QLabel* m_summary = nullptr;
    QCheckBox* m_groupByStage = nullptr;
    QToolButton* m_exportButton = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QTreeView* m_table = nullptr;
    ClusterRankModel* m_model = nullptr;
    RankFilterProxy* m_proxy = nullptr;
    QLineEdit* m_filterEdit = nullptr;
    RankStepHeatmap* m_heatmap = nullptr;
    QWidget* m_heatmapPage = nullptr;
    QComboBox* m_metricCombo = nullptr;
    QComboBox* m_orderCombo = nullptr;
    QTreeView* m_groupTable = nullptr;
    QStandardItemModel* m_groupModel = nullptr;
    QWidget* m_slowestPage = nullptr;
    QTreeView* m_slowestTable = nullptr;
    QStandardItemModel* m_slowestModel = nullptr;
    QTreeView* m_slowestStepTable = nullptr;
    QStandardItemModel* m_slowestStepModel = nullptr;
    QTabWidget* m_tabs = nullptr;
    QCustomPlot* m_barPlot = nullptr;
    QList<QCPBars*> m_bars;
    ChartExportMenu* m_barExport = nullptr;
    QWidget* m_matrixPage = nullptr;
    QComboBox* m_linkTypeCombo = nullptr;
    QLabel* m_matrixEmpty = nullptr;
    QCustomPlot* m_matrixPlot = nullptr;
    QCPColorMap* m_colorMap = nullptr;
    ChartExportMenu* m_matrixExport = nullptr;
    ChartExportMenu::FileNameProvider m_fileNameProvider;
};

} // namespace runlens::widgets::cluster
