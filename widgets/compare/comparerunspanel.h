#pragma once

#include "widgets/common/chartexportmenu.h"

#include <QHash>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QSplitter;
class QStackedWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace runlens::models::scalars {
class ScalarStore;
}
namespace runlens::models::summary {
class RunComparison;
class SummaryStore;
} // namespace runlens::models::summary

namespace runlens::widgets::compare {

class ParallelCoordinatesChart;

/// The Compare runs panel: a table of runs with their hyper-parameters (TensorBoard hparams, MindSpore
/// lineage) and final/best metrics, sortable by any column, filtered by a text box over names and values,
/// with a "Columns…" chooser; and below it a parallel-coordinates chart of the shown hyper-parameters
/// against a chosen metric. Selecting rows emits visibleRunsChanged with the selected runs (empty when
/// nothing is selected: every run), which the application forwards to the other panels' setVisibleRuns.
/// Right-clicking a metric header sets whether its best value is the lowest or the highest.
///
/// Reads both stores (never owns them). File names for "Export as…" come from setExportFileNameProvider.
class CompareRunsPanel final : public QWidget
{
    Q_OBJECT
public:
    CompareRunsPanel(models::scalars::ScalarStore* scalars, models::summary::SummaryStore* summaries,
                     QWidget* parent = nullptr);
    ~CompareRunsPanel() override;

    models::summary::RunComparison* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    ParallelCoordinatesChart* chart() const { return m_chart; }
    QLineEdit* filterEdit() const { return m_filterEdit; }
    QComboBox* metricBox() const { return m_metricBox; }
    QToolButton* columnsButton() const { return m_columnsButton; }

    /// Case-insensitive text matched in any column of a run.
    void setFilterText(const QString& text);
    /// Runs passing the filter, in table order.
    QStringList shownRuns() const;
    /// Runs selected in the table, in name order.
    QStringList selectedRuns() const;
    /// Selects exactly these runs in the table (an empty list clears the selection).
    void selectRuns(const QStringList& runs);

    /// Shows or hides a column by its RunComparison key; the user's choice outlives store updates.
    void setColumnVisible(const QString& key, bool visible);
    bool isColumnVisible(const QString& key) const;
    /// The checkable action of a column in the "Columns…" menu, or nullptr.
    QAction* columnAction(const QString& key) const;
    QMenu* columnsMenu() const { return m_columnsMenu; }

    /// The column key of the metric the chart's last axis shows and the lines are coloured by.
    QString chartMetric() const { return m_metricKey; }
    void setChartMetric(const QString& key);
    /// The keys of the hyper-parameter columns the chart draws as axes, in table order.
    QStringList chartParameterKeys() const;

    /// Applies pending updates of the chart now (tests; exports right after a change).
    void flushPendingUpdates();

    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    /// Where exports go without a FileNameProvider (tests; scripted use).
    void setExportDirectory(const QString& directory);

    static constexpr int kMaxChartAxes = 12;

signals:
    /// The runs the other panels should show; empty means every run.
    void visibleRunsChanged(const QStringList& runs);
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);

private:
    void buildUi();
    void onModelReset();
    void rebuildColumnsMenu();
    void rebuildMetricBox();
    void applyColumnVisibility();
    void scheduleChart();
    void updateChart();
    void updateEmptyState();
    void onSelectionChanged();
    void showHeaderMenu(const QPoint& pos);
    void fitColumns();
    bool eventFilter(QObject* watched, QEvent* event) override;

    models::summary::RunComparison* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QHash<QString, bool> m_columnChoices; ///< the user's show/hide choices by column key
    QString m_metricKey;
    bool m_metricChosen = false; ///< the user picked the metric (else it follows the defaults)
    QStringList m_lastVisibleRuns;
    QStringList m_keptSelection; ///< selected runs across a model reset
    bool m_resetting = false;

    QLineEdit* m_filterEdit = nullptr;
    QToolButton* m_columnsButton = nullptr;
    QMenu* m_columnsMenu = nullptr;
    QHash<QString, QAction*> m_columnActions;
    QComboBox* m_metricBox = nullptr;
    QToolButton* m_exportButton = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QSplitter* m_splitter = nullptr;
    QTableView* m_table = nullptr;
    ParallelCoordinatesChart* m_chart = nullptr;
    QTimer* m_chartTimer = nullptr;
};

} // namespace runlens::widgets::compare
