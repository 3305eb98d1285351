#pragma once

#include "models/profiler/profilerdata.h"
#include "models/trace/opstatistics.h"
#include "models/trace/opstatsmodel.h"
#include "models/trace/tracestore.h"
#include "widgets/common/chartexportmenu.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace runlens::models::profiler {
class ProfilerOpTableModel;
}

namespace runlens::widgets::operators {

/// The Operators panel: a sortable, filterable table of operator statistics of a profiler trace (grouped
/// by name or by name + input shapes; host or device times) or of kernel statistics. Statistics are
/// computed on a worker thread when a store is set and again when the grouping changes (the shapes variant
/// parses args, so it is only computed when asked); results are cached per store.
///
/// The panel shares the store it is given and never changes it. Activating a row (double click, Enter)
/// emits operatorActivated with the name and longestOccurrenceRequested with the longest call, for the
/// timeline to highlight and jump. CSV export writes the rows as shown (filtered, sorted), numbers raw in
/// ns; the file name comes from the application's provider (a file dialog), else a default directory.
///
/// A MindSpore profiler folder's operator tables join the same panel as two more views, "Operator types"
/// and "Operators" of one rank (times in µs as the files give them), next to the trace views when a
/// trace is loaded too.
class OperatorsPanel final : public QWidget
{
    Q_OBJECT
public:
    using View = models::trace::OperatorStatsModel::View;

    explicit OperatorsPanel(QWidget* parent = nullptr);
    ~OperatorsPanel() override;

    /// Computes the statistics of `store` on a worker; nullptr clears the panel.
    void setStore(std::shared_ptr<const models::trace::TraceStore> store);
    std::shared_ptr<const models::trace::TraceStore> store() const { return m_store; }
    /// Shows statistics computed elsewhere (e.g. by the import job); no worker is started.
    void setStatistics(std::shared_ptr<const models::trace::OperatorStatistics> statistics,
                       std::shared_ptr<const models::trace::TraceStore> store);

    /// Adds the operator tables of the rank at `rankIndex` of a MindSpore profiler run as views; null
    /// removes them. When no trace is loaded they are shown at once.
    void setProfilerData(std::shared_ptr<const models::profiler::ProfilerRunData> run, int rankIndex);
    /// Whether the table shows a MindSpore profiler view rather than trace statistics.
    bool isShowingProfiler() const { return m_showingProfiler; }
    /// Selects the profiler's type-level (true) or op-level view; false when there is no profiler data.
    bool showProfilerView(bool types);

    void setGroupByInputDims(bool enabled);
    bool groupByInputDims() const { return m_groupByDims; }
    void setView(View view);
    View view() const;
    /// Case-insensitive substring matched against the name (and input dims when shown).
    void setFilterText(const QString& text);
    QString filterText() const;

    /// True while a worker computes statistics for the current settings.
    bool isComputing() const { return m_computing; }
    int visibleRowCount() const;

    models::trace::OperatorStatsModel* model() const { return m_model; }
    QSortFilterProxyModel* proxyModel() const { return m_proxy; }
    QTableView* tableView() const { return m_table; }

    /// The table as CSV: a header of stable column ids, then the visible rows in view order.
    QByteArray toCsv() const;
    bool exportCsv(const QString& fileName, QString* errorMessage = nullptr) const;
    /// Asks the provider (or takes a default name) and writes the CSV; returns the file or empty.
    QString requestCsvExport();
    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    void setExportDirectory(const QString& directory) { m_exportDirectory = directory; }

signals:
    /// A row was activated: the operator (or kernel) name, without input dims.
    void operatorActivated(const QString& name);
    /// The current row changed (for highlighting occurrences); empty when none.
    void operatorSelected(const QString& name);
    /// The longest call of the activated row, for the timeline to jump to.
    void longestOccurrenceRequested(int track, quint32 slice);
    void statisticsReady();
    void exported(const QString& fileName);
    void exportFailed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildUi();
    /// Sizes columns to their contents and gives the name column the rest of the width.
    void fitColumns(bool measure);
    void recompute();
    void applyStatistics(std::shared_ptr<const models::trace::OperatorStatistics> statistics);
    void sortByDefault();
    void updateStatus();
    void onActivated(const QModelIndex& proxyIndex);
    void showContextMenu(const QPoint& pos);
    /// Lists the trace views and, when profiler data is set, the profiler views; keeps the selection.
    void rebuildViewCombo();
    /// Shows the view the combo selects: a trace view through m_proxy, a profiler view through
    /// m_profilerProxy.
    void applyViewSelection();
    void connectSelection();
    /// Share bars, default sort and column widths of the table shown (trace or profiler).
    void layoutTable();
    QSortFilterProxyModel* currentProxy() const;

    std::shared_ptr<const models::trace::TraceStore> m_store;
    std::shared_ptr<const models::trace::OperatorStatistics> m_cache[2]; ///< by name, by name + dims
    std::shared_ptr<std::atomic_bool> m_cancel;
    quint64 m_generation = 0;
    bool m_groupByDims = false;
    bool m_computing = false;
    ChartExportMenu::FileNameProvider m_fileNameProvider;
    QString m_exportDirectory;

    std::shared_ptr<const models::profiler::ProfilerRunData> m_profilerRun;
    int m_profilerRank = -1;
    bool m_showingProfiler = false;
    models::profiler::ProfilerOpTableModel* m_profilerModel = nullptr;
    QSortFilterProxyModel* m_profilerProxy = nullptr;
    QMetaObject::Connection m_selectionConnection;

    models::trace::OperatorStatsModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QComboBox* m_groupCombo = nullptr;
    QComboBox* m_viewCombo = nullptr;
    QLineEdit* m_filterEdit = nullptr;
    QToolButton* m_exportButton = nullptr;
    QLabel* m_status = nullptr;
    int m_nameWidth = 0; ///< the name column's width from its contents, before it takes spare space
};

} // namespace runlens::widgets::operators
