#pragma once

#include "models/profiler/profilerdata.h"
#include "models/trace/stepbreakdown.h"
#include "widgets/common/chartdata.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/common/stackedstepbars.h"

#include <QColor>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace runlens::models::profiler {
class ProfilerOpTableModel;
}
namespace runlens::widgets {
class PanelHeader;
}

namespace runlens::widgets::overview {

/// The Overview panel: one device (rank) at a glance. A stacked step-time chart over the steps (MindSpore:
/// iteration interval / FP+BP / tail; 2.x: computing / communication not overlapped / free; Kineto traces: the
/// trace step breakdown's categories) with an "Average" bar, the averages, the ten operator types that took
/// the most time as a bar chart, the operator table, the device type and versions. A rank picker appears when
/// there are several ranks. Both charts export as PNG/SVG/PDF/CSV from the toolbar or their context menu.
///
/// MindSpore profiler data (setProfilerData) wins over a trace breakdown (setTraceBreakdown) when both are set.
/// The panel shares what it is given and never changes it.
class OverviewPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit OverviewPanel(QWidget* parent = nullptr);
    ~OverviewPanel() override;

    void setProfilerData(std::shared_ptr<const models::profiler::ProfilerRunData> run);
    std::shared_ptr<const models::profiler::ProfilerRunData> profilerData() const { return m_run; }
    void setTraceBreakdown(std::shared_ptr<const models::trace::StepBreakdown> breakdown);
    std::shared_ptr<const models::trace::StepBreakdown> traceBreakdown() const { return m_breakdown; }

    /// Runs with MindSpore profiler output to pick from (the picker shows when there are several);
    /// choosing one emits profilerRunChanged for the application to show that run's data. `names`: the
    /// runs as users see them (runDisplayName), parallel to `runs`; the runs themselves when empty.
    void setProfilerRuns(const QStringList& runs, const QString& current, const QStringList& names = {});
    QString currentProfilerRun() const;

    /// Ranks to pick from: the profiler ranks, or the trace's sources.
    int rankCount() const;
    /// The shown rank's position among rankCount().
    int rankIndex() const { return m_rankIndex; }
    void setRankIndex(int index);
    /// Rank id of the shown rank (-1 when unknown).
    int currentRank() const;

    /// True when there is nothing to show (the empty-state text is visible).
    bool isEmpty() const;

    /// Stacked categories of the step chart (translated names), bottom first.
    QStringList stackNames() const;
    /// Bars of the step chart: the steps, then the average (none without steps).
    int stepBarCount() const;
    /// Step numbers of the bars (the average bar is -1).
    QList<qint64> stepNumbers() const;
    /// Average per stacked category (µs) of the shown rank.
    std::vector<double> averageUs() const;
    /// Names of the bars of the top-operators chart, largest first.
    QStringList topOperatorNames() const;
    /// The device, versions and averages line.
    QString summaryText() const;

    QCustomPlot* stepChart() const { return m_stepPlot; }
    QCustomPlot* operatorChart() const { return m_opPlot; }
    ChartExportMenu* stepExportMenu() const { return m_stepExport; }
    ChartExportMenu* operatorExportMenu() const { return m_opExport; }
    models::profiler::ProfilerOpTableModel* operatorModel() const { return m_opModel; }
    QTableView* operatorTable() const { return m_opTable; }
    /// The numbers behind the step chart: one row per step and the average, a column per category (µs).
    ChartData stepChartData() const;
    /// The numbers behind the operator chart: one row per operator type (µs, share).
    ChartData operatorChartData() const;
    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    void setExportDirectory(const QString& directory);

    static QColor categoryColor(int index, int count);

signals:
    /// The shown rank changed (its rank id, -1 when unknown).
    void rankChanged(int rank);
    void profilerRunChanged(const QString& run);
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The shown rank's steps in one form for both sources of data.
    struct StepView
    {
        QStringList ids;
        QStringList names;
        std::vector<qint64> numbers;
        std::vector<std::vector<double>> valuesUs; ///< per step, per category
        std::vector<double> averageUs;
        double averageTotalUs = 0.0;
    };

    void buildUi();
    QCustomPlot* makePlot(const QString& objectName);
    ChartExportMenu* makeExportMenu(QCustomPlot* plot, const QString& baseName, const QString& title,
                                    std::function<ChartData()> data);
    void rebuild();
    void rebuildRankPicker();
    void rebuildStepChart();
    void rebuildOperatorChart();
    /// Names the operator bars with as many labels as fit their height, each cut to the room beside the axis.
    void fitOperatorLabels();
    void updateSummary();
    StepView stepView() const;
    const models::profiler::ProfilerRankData* currentRankData() const;
    QString toolTipAt(QCustomPlot* plot, const QPoint& pos) const;
    /// The tooltip of a bar standing for several steps: their range, means and slowest step.
    QString columnToolTip(const StackedStepBars::Hit& hit) const;

    std::shared_ptr<const models::profiler::ProfilerRunData> m_run;
    std::shared_ptr<const models::trace::StepBreakdown> m_breakdown;
    int m_rankIndex = 0;
    StepView m_view;

    PanelHeader* m_header = nullptr;
    QComboBox* m_runCombo = nullptr;
    QComboBox* m_rankCombo = nullptr;
    QLabel* m_device = nullptr;
    QLabel* m_summary = nullptr;
    QToolButton* m_exportButton = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_emptyLabel = nullptr;
    QCustomPlot* m_stepPlot = nullptr;
    QCustomPlot* m_opPlot = nullptr;
    StackedStepBars* m_stepBars = nullptr;
    double m_stepUnit = 1.0; ///< µs per step chart axis unit
    QStringList m_opNames; ///< whole names of the operator bars, top down
    QTableView* m_opTable = nullptr;
    models::profiler::ProfilerOpTableModel* m_opModel = nullptr;
    ChartExportMenu* m_stepExport = nullptr;
    ChartExportMenu* m_opExport = nullptr;
};

} // namespace runlens::widgets::overview
