#pragma once

#include "models/system/systemmetrics.h"
#include "widgets/common/chartexportmenu.h"

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QSplitter;
class QStackedWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace runlens::models::scalars {
class ScalarStore;
}
namespace runlens::widgets {
class PanelHeader;
}

namespace runlens::widgets::system {

class SystemDetailChart;
class SystemOverviewModel;

/// The System panel: the machine under the run, from the Scalars model's `system/*` tags (whatever file they
/// came from). On top an overview of every host or rank (mean and p95 of GPU utilisation, CPU, memory,
/// InfiniBand, power; outliers highlighted; sortable); below, the rank chosen there in detail as stacked charts
/// over one wall-clock axis. Without system metrics it says how to record them.
class SystemPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit SystemPanel(QWidget* parent = nullptr);
    ~SystemPanel() override;

    void setStore(models::scalars::ScalarStore* store);
    /// Machine metrics that do not come from the store (a MindSpore profiler's CPU samples), shown beside its
    /// runs; replaces the previous ones.
    void setProfilerRuns(std::vector<models::system::SystemRun> runs);
    /// Reads the store again now instead of after the coalescing delay.
    void refresh();
    /// Reads the store now when a change is waiting for the coalescing delay.
    void flushPendingRefresh();

    int runCount() const;
    bool isEmptyStateShown() const;
    QString emptyStateText() const;
    /// The run shown in detail; empty when none.
    QString currentRun() const;
    /// Shows `run` in detail; with lower < upper zooms to and marks that wall-time range. False when the run has
    /// no system metrics.
    bool showRun(const QString& run, double lower = 0.0, double upper = -1.0);
    /// Follows another panel's wall-time axis (seconds since the epoch).
    void setTimeRange(double lower, double upper);

    SystemOverviewModel* overviewModel() const { return m_model; }
    QTableView* overviewTable() const { return m_table; }
    SystemDetailChart* detailChart() const { return m_chart; }

    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);

signals:
    /// The detail charts' wall-time range changed by the user (or showRun).
    void timeRangeChanged(double lower, double upper);
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);

private:
    void scheduleRefresh();
    void showRow(int sourceRow);

    QPointer<models::scalars::ScalarStore> m_store;
    std::vector<models::system::SystemRun> m_profilerRuns;
    SystemOverviewModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    PanelHeader* m_header = nullptr;
    QLabel* m_summary = nullptr;
    QComboBox* m_runSelector = nullptr;
    QToolButton* m_exportButton = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QTableView* m_table = nullptr;
    SystemDetailChart* m_chart = nullptr;
    QTimer* m_refreshTimer = nullptr;
    QSplitter* m_splitter = nullptr;
    bool m_following = false;
};

} // namespace runlens::widgets::system
