#pragma once

#include "importers/core/importcontrol.h"
#include "models/accuracy/compareresult.h"
#include "models/graph/graph.h"
#include "models/tensor/tensorcatalog.h"

#include <QHash>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QLineEdit;
class QProgressBar;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QToolButton;

namespace runlens::widgets::accuracy {

class AccuracyGraph;
class AccuracyTableModel;

/// What the panel is asked to compare.
struct CompareRequest
{
    QString bench, target;
    QString mapping; ///< a mapping file, or empty
};

/// What a comparison gave: the result, or why there is none (an empty error with no result: cancelled).
struct CompareOutcome
{
    std::optional<models::accuracy::CompareResult> result;
    QString error;
    /// Bench row name -> its op, when the bench is an msprobe dump (its ops are the Graph panel's node ids).
    QHash<QString, QString> benchOps;
    /// Where each row's values are (bench row name, target row name -> source), for showing the two tensors.
    QHash<QString, std::shared_ptr<const models::tensor::TensorSource>> benchTensors, targetTensors;
    /// The bench side as a graph (its dump graph for msprobe, its ops by module path otherwise), or null.
    std::shared_ptr<const models::graph::Graph> benchGraph;
    /// Bench row name -> its node id in benchGraph.
    QHash<QString, QString> benchNodes;
};

/// The Accuracy panel: two dumps compared op by op, as a table in execution order (metrics, verdict, where
/// the error is born), the first divergent op as a headline above it and the counts per verdict in the
/// header. Widgets never read files, so the comparison itself is the application's `Comparer`; the panel
/// runs it on the worker pool, shows its progress with a cancel button, and takes its rows in batches as
/// they are computed. Unmatched rows come last, marked "unmatched".
///
/// Beside the table, the bench's graph coloured by verdict (AccuracyGraph) when the comparer gives one: selecting
/// a row reveals its node there, clicking a node selects its worst row. Selecting a row also emits nodeSelected
/// with the bench op when the bench is an msprobe dump (the Graph panel's node ids are entry names); activating one
/// emits tensorsRequested when both sides have tensor data; a statistics row shows its numbers below the table instead.
class AccuracyPanel final : public QWidget
{
    Q_OBJECT
public:
    using RowCallback = std::function<void(const models::accuracy::CompareRow&)>;
    /// Runs on a worker thread: reads both sides and compares them, calling `rowReady` per row in order.
    using Comparer
        = std::function<CompareOutcome(const CompareRequest&, const importers::ImportControl&, const RowCallback&)>;
    /// Returns the file to write, given a suggested file name and a file dialog filter; empty cancels.
    using FileNameProvider = std::function<QString(const QString& suggested, const QString& filter)>;
    enum class ExportFormat { Csv, Markdown, Json };

    explicit AccuracyPanel(QWidget* parent = nullptr);
    ~AccuracyPanel() override;

    void setComparer(Comparer comparer) { m_comparer = std::move(comparer); }
    void setExportFileNameProvider(FileNameProvider provider) { m_fileNameProvider = std::move(provider); }

    /// Starts comparing (cancelling a comparison still running); rows appear as they are computed.
    void compare(const CompareRequest& request);
    void cancel();
    bool isRunning() const { return m_running; }
    /// The finished comparison; null while running, after a cancel or an error.
    const models::accuracy::CompareResult* result() const { return m_result ? &*m_result : nullptr; }
    QString errorText() const { return m_error; }
    CompareRequest request() const { return m_request; }

    /// The headline ("Error introduced at X: reason"), the counts line.
    QString headline() const;
    /// The headline's colour: the alert red for an error, amber for a warning, the palette's text otherwise.
    QColor headlineColor() const;
    QString summaryText() const;

    /// Selects and shows the row named `name` (CompareRow::name), clearing a filter that hides it; false when
    /// the comparison has no such row.
    bool selectRow(const QString& name);

    void setFilterText(const QString& text);
    QString filterText() const;
    int visibleRowCount() const;

    AccuracyTableModel* model() const { return m_model; }
    QSortFilterProxyModel* proxyModel() const { return m_proxy; }
    QTableView* tableView() const { return m_table; }
    AccuracyGraph* graph() const { return m_graph; }
    /// The row of the table's current index (index into model()->rows()), -1 when none.
    int currentRow() const;
    /// The numbers of the statistics row last activated; hidden otherwise.
    QLabel* detailsLabel() const { return m_details; }

    /// The finished result in `format` (the writers of `runlens compare`); empty while there is none.
    QByteArray exportText(ExportFormat format) const;
    bool exportTo(ExportFormat format, const QString& fileName, QString* errorMessage = nullptr) const;

signals:
    void comparisonStarted();
    /// The comparison ended: finished, failed or cancelled (result() says which).
    void comparisonFinished();
    /// The bench op of the selected row, for the Graph panel.
    void nodeSelected(const QString& nodeId);
    /// A row was activated whose two sides have tensor data: show them side by side.
    void tensorsRequested(const std::shared_ptr<const models::tensor::TensorSource>& bench, const QString& benchLabel,
                          const std::shared_ptr<const models::tensor::TensorSource>& target,
                          const QString& targetLabel);
    /// A row was activated whose bench op has a recorded call stack: the frame to show in the Source view.
    void sourceRequested(const QString& path, int line);
    void exported(const QString& fileName);
    void exportFailed(const QString& message);

private:
    struct Job;

    void buildUi();
    void flushRows(const std::shared_ptr<Job>& job);
    void finish(const std::shared_ptr<Job>& job, CompareOutcome outcome);
    void updateHeader();
    /// The worst verdict among the rows of the op where the numbers part.
    models::accuracy::Verdict divergentOpVerdict() const;
    void onCurrentChanged(const QModelIndex& proxyIndex);
    void onActivated(const QModelIndex& proxyIndex);
    void requestStack(const models::accuracy::CompareRow& row);
    void requestExport(ExportFormat format);

    Comparer m_comparer;
    FileNameProvider m_fileNameProvider;
    CompareRequest m_request;
    std::shared_ptr<Job> m_job;
    std::optional<models::accuracy::CompareResult> m_result;
    QString m_error;
    bool m_running = false;
    bool m_cancelled = false;
    QHash<QString, QString> m_benchOps;
    std::shared_ptr<const models::graph::Graph> m_benchGraph; ///< the bench's graph, whose nodes carry the call stacks
    QHash<QString, QString> m_benchNodes; ///< bench row name -> node id in m_benchGraph
    QHash<QString, std::shared_ptr<const models::tensor::TensorSource>> m_benchTensors, m_targetTensors;

    AccuracyTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QSplitter* m_splitter = nullptr;
    AccuracyGraph* m_graph = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_headline = nullptr;
    QLabel* m_details = nullptr; ///< the numbers of an activated statistics row
    QLineEdit* m_filterEdit = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancelButton = nullptr;
    QToolButton* m_exportButton = nullptr;
};

} // namespace runlens::widgets::accuracy
