#pragma once

#include "models/embeddings/embeddingset.h"
#include "models/summary/summarydata.h"
#include "models/tensor/summarytensors.h"
#include "models/tensor/tensorcatalog.h"
#include "widgets/tensor/slicecontrols.h"

#include <QHash>
#include <QMap>
#include <QString>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QBoxLayout;
class QComboBox;
class QLabel;
class QLineEdit;
class QSlider;
class QSpinBox;
class QStackedWidget;
class QTabWidget;
class QToolButton;
class QTimer;
class QTreeView;

namespace runlens::models::tensor {
class TensorFilterModel;
class TensorListModel;
struct TensorStatistics;
} // namespace runlens::models::tensor

namespace runlens::widgets::tensor {

class HeatmapView;
class TensorCompareWidget;
class TensorStatsCache;
class TensorStatsWidget;
class TensorTableModel;
class TensorTableView;

/// The Tensor inspector: on the left the catalog's tensor series with a filter, on the right the chosen
/// tensor's header, slice controls, a step slider when the series has several steps, the slice as a
/// table, a heatmap or a comparison with another step or tensor of the same shape, its statistics next
/// to the whole tensor's, and a toolbar for precision, notation, colours, scale, zoom and export (CSV,
/// PNG, .npy). Tensors are opened when chosen; sources that are not immediate (deflated archive members)
/// open on a worker. The slice and chosen dimensions are remembered per series while the panel lives.
/// Tensors recorded in summary files join the files' tensors in the list, one series per run and tag whose
/// steps are the summary's steps (addSummaryTensors, fed with what the importers deliver per file).
/// The panel shares the catalog read-only; it shows no dialogs: the application installs a file-name
/// provider for exports.
class TensorPanel final : public QWidget
{
    Q_OBJECT
public:
    enum class ExportFormat { Csv, Png, Npy };
    enum class ViewMode { Table, Heatmap, Compare };
    /// Returns the file to write given a suggested absolute file name and a file-dialog filter such as
    /// "CSV files (*.csv)"; an empty string cancels. Without one, exports go to defaultExportDirectory()
    /// under a name that does not overwrite an existing file.
    using FileNameProvider = std::function<QString(const QString& suggestedFileName, const QString& filter)>;

    explicit TensorPanel(QWidget* parent = nullptr);
    ~TensorPanel() override;

    /// The opened folder, which names the run "." of the catalogs given from now on.
    void setRunFolder(const QString& root);
    /// The tensors of the opened folder's files; summary tensors added before are kept.
    void setCatalog(std::shared_ptr<const models::tensor::TensorCatalog> catalog);
    /// What the list shows: the files' catalog with the summary tensors' series merged in.
    const std::shared_ptr<const models::tensor::TensorCatalog>& catalog() const { return m_catalog; }
    /// The catalog last given to setCatalog().
    const std::shared_ptr<const models::tensor::TensorCatalog>& fileCatalog() const { return m_fileCatalog; }

    /// Takes one poll of a summary file (`source`) of `run`, as ImportSession::summariesArrived delivers
    /// it: its tensors replace what that file gave before for their tags; other kinds are ignored. The
    /// shown tensor, its slice and the filter stay. The list follows at once while rebuilding it is quick;
    /// when it is not (a folder of thousands of dumps), polls arriving close together are gathered and
    /// shown a moment later (hasPendingSummaryTensors() until then).
    void addSummaryTensors(const QString& run, const QString& source,
                           const runlens::models::summary::SummaryBatch& batch);
    /// The located weights of a graph file (importers::graph::graphWeightSeries) join the list; a second call
    /// for the same graph replaces its weights. They are forgotten with the folder (clearGraphWeights).
    void setGraphWeights(const QString& graphPath, const QList<models::tensor::TensorSeries>& series);
    void clearGraphWeights();
    /// Forgets the summary tensors of one run, or of all (when a new folder is opened).
    void removeSummaryRun(const QString& run);
    void clearSummaryTensors();
    const models::tensor::SummaryTensorSet& summaryTensors() const { return m_summaryTensors; }
    bool hasPendingSummaryTensors() const;
    /// Shares a statistics cache (e.g. with `runlens info` or other panels); the panel has its own
    /// otherwise. Not owned.
    void setStatsCache(TensorStatsCache* cache);

    /// Selects and shows the tensor at a location (a file path, or `path:member`); false when the catalog
    /// has none there.
    bool showLocation(const QString& location);
    /// Shows the first series belonging to a graph node (at the shown step when it has one); false when
    /// no series matches.
    bool showNodeKey(const QString& key);
    /// Location of the shown tensor; empty when none is shown.
    QString currentLocation() const;
    int currentSeries() const { return m_series; }
    int currentVersion() const { return m_version; }
    /// The opened tensor and the view of it that is shown, when one is open.
    const std::optional<models::tensor::Tensor>& currentTensor() const { return m_tensor; }
    std::optional<models::tensor::Tensor> currentView() const;

    /// Offers "Show in the graph" for tensors linked to a node (when a graph is open to show them in).
    void setNodeLinksEnabled(bool enabled);

    /// Shows two tensors from elsewhere (two dumps compared) in the compare view, whatever the list shows.
    void compareTensors(const std::shared_ptr<const models::tensor::TensorSource>& a, const QString& labelA,
                        const std::shared_ptr<const models::tensor::TensorSource>& b, const QString& labelB);

    void setViewMode(ViewMode mode);
    ViewMode viewMode() const;
    /// Shows the step at `index` among the current series' versions.
    void setVersion(int index);

    void setFileNameProvider(FileNameProvider provider) { m_fileNameProvider = std::move(provider); }
    void setDefaultExportDirectory(const QString& directory) { m_exportDirectory = directory; }
    /// The user's pictures folder unless set.
    QString defaultExportDirectory() const;
    /// Asks the provider (or takes a fresh default name) and writes the shown slice; returns the written
    /// file, or an empty string when cancelled or failed (the reason goes to statusMessage()).
    QString requestExport(ExportFormat format);
    /// "Project Rows": the shown tensor's rows (dimension 0; the other dimensions flattened) become points,
    /// converted on a worker and announced by rowsProjected(). False (with a statusMessage) when the tensor
    /// has no rows to project.
    bool projectRows();
    /// Writes the shown slice (CSV, .npy) or heatmap (PNG) to `fileName` atomically.
    bool exportTo(ExportFormat format, const QString& fileName, QString* errorMessage = nullptr) const;

    // Parts, for tests and the application's wiring.
    QLineEdit* filterEdit() const { return m_filter; }
    QTreeView* listView() const { return m_list; }
    models::tensor::TensorListModel* listModel() const { return m_listModel; }
    models::tensor::TensorFilterModel* filterModel() const { return m_filterModel; }
    SliceControls* sliceControls() const { return m_slice; }
    QSlider* stepSlider() const { return m_stepSlider; }
    QLabel* stepLabel() const { return m_stepLabel; }
    QLabel* headerLabel() const { return m_header; }
    /// Shows why a tensor could not be opened, naming the file.
    QLabel* messageLabel() const { return m_message; }
    QLabel* emptyLabel() const { return m_empty; }
    TensorTableModel* tableModel() const { return m_tableModel; }
    TensorTableView* tableView() const { return m_table; }
    HeatmapView* heatmap() const { return m_heatmap; }
    TensorStatsWidget* statsWidget() const { return m_stats; }
    TensorCompareWidget* compareWidget() const { return m_compare; }
    /// "Compare with…": other steps of the series, then other tensors of the same shape (data: location).
    QComboBox* compareCombo() const { return m_compareWith; }
    QTabWidget* viewTabs() const { return m_tabs; }
    QSpinBox* precisionSpinBox() const { return m_precision; }
    QAction* scientificAction() const { return m_scientific; }
    QAction* projectRowsAction() const { return m_projectRows; }
    QComboBox* colorMapCombo() const { return m_colorMap; }
    /// Heatmap colour range: per slice or the whole tensor's min/max.
    QComboBox* scaleCombo() const { return m_scale; }

signals:
    void statusMessage(const QString& message);
    void currentLocationChanged(const QString& location);
    /// The user asked to see the graph node or module a tensor belongs to (its series' node key).
    void nodeRequested(const QString& nodeKey);
    /// projectRows() finished: the points for the Projector.
    void rowsProjected(std::shared_ptr<const runlens::models::embeddings::EmbeddingSet> set);

private:
    // Building the panel, in the order the constructor runs the steps.
    void createModels();
    QWidget* buildToolbar();
    QWidget* buildTensorList(QWidget* parent);
    void buildEmptyPage();
    /// The shown tensor's page: header, slice controls, steps, views and statistics, in a scroll area.
    QWidget* buildTensorPage();
    void buildHeader(QWidget* content, QBoxLayout* layout);
    QWidget* buildStepBox(QWidget* parent);
    /// The table, heatmap and comparison tabs above the statistics.
    QWidget* buildViews(QWidget* parent);
    QWidget* buildHeatmapPage(QWidget* parent);
    QWidget* buildComparePage(QWidget* parent);
    void connectSelection();
    void connectViewControls();

    /// Shows `catalog`; with `keepShown` the shown tensor (same run, name and location), the slices and
    /// the comparison stay when the new catalog still has them.
    void applyCatalog(std::shared_ptr<const models::tensor::TensorCatalog> catalog, bool keepShown);
    std::shared_ptr<const models::tensor::TensorCatalog> mergedCatalog() const;
    /// Shows the merged catalog now, or soon when the last rebuild took long.
    void scheduleSummaryRebuild();
    void rebuildWithSummaries();
    void showSeries(int series, int version);
    void openCurrent(bool keepSlice);
    void applyOpened(const models::tensor::TensorResult& result, bool keepSlice);
    void showMessage(const QString& message);
    void updateHeader();
    void updateStepControls();
    void updateView();
    void updateHeatmapRange();
    void updateHeatmapLegend();
    void fillCompareChoices();
    void updateCompare();
    void onListCurrentChanged();
    void onWholeStatistics(const QString& location, const models::tensor::TensorStatistics& statistics);
    QString suggestedExportName(ExportFormat format) const;
    const models::tensor::TensorInfo* currentInfo() const;
    const models::tensor::TensorInfo* infoAt(const QString& location) const;

    std::shared_ptr<const models::tensor::TensorCatalog> m_catalog;
    std::shared_ptr<const models::tensor::TensorCatalog> m_fileCatalog;
    models::tensor::SummaryTensorSet m_summaryTensors;
    QMap<QString, QList<models::tensor::TensorSeries>> m_graphWeights; ///< by graph file
    QTimer* m_summaryTimer = nullptr;
    qint64 m_rebuildMs = 0; ///< what showing the last catalog cost on the GUI thread
    int m_series = -1;
    int m_version = -1;
    std::optional<models::tensor::Tensor> m_tensor;
    quint64 m_openSerial = 0;
    quint64 m_compareSerial = 0;
    QHash<int, SliceControls::State> m_sliceStates; ///< per series
    FileNameProvider m_fileNameProvider;
    QString m_exportDirectory;
    bool m_selecting = false;
    bool m_nodeLinks = false;
    QLabel* m_heatmapLegend = nullptr;
    QLabel* m_heatmapNote = nullptr;
    std::vector<std::int64_t> m_heatmapShape; ///< shape of the view the heatmap was last fitted to
    bool m_heatmapNeedsFit = false;

    models::tensor::TensorListModel* m_listModel = nullptr;
    models::tensor::TensorFilterModel* m_filterModel = nullptr;
    TensorStatsCache* m_ownCache = nullptr;
    TensorStatsCache* m_cache = nullptr;

    QLineEdit* m_filter = nullptr;
    QTreeView* m_list = nullptr;
    QStackedWidget* m_pages = nullptr;
    QLabel* m_empty = nullptr;
    QLabel* m_header = nullptr;
    QLabel* m_message = nullptr;
    SliceControls* m_slice = nullptr;
    QWidget* m_stepBox = nullptr;
    QSlider* m_stepSlider = nullptr;
    QLabel* m_stepLabel = nullptr;
    QTabWidget* m_tabs = nullptr;
    TensorTableModel* m_tableModel = nullptr;
    TensorTableView* m_table = nullptr;
    HeatmapView* m_heatmap = nullptr;
    TensorCompareWidget* m_compare = nullptr;
    QComboBox* m_compareWith = nullptr;
    TensorStatsWidget* m_stats = nullptr;
    QSpinBox* m_precision = nullptr;
    QAction* m_scientific = nullptr;
    QComboBox* m_colorMap = nullptr;
    QComboBox* m_scale = nullptr;
    QAction* m_fitAction = nullptr;
    QAction* m_pixelsAction = nullptr;
    QToolButton* m_exportButton = nullptr;
    QAction* m_projectRows = nullptr;
    std::shared_ptr<std::atomic_bool> m_projectJob; ///< the conversion running, to cancel it on the next
};

} // namespace runlens::widgets::tensor
