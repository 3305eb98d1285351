#pragma once

#include "models/trace/stepbreakdown.h"
#include "models/trace/stepphases.h"
#include "models/trace/tracestore.h"
#include "widgets/common/chartdata.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/common/stackedstepbars.h"

#include <QColor>
#include <QWidget>

#include <memory>

class QComboBox;
class QCPBars;
class QCustomPlot;
class QLabel;
class QSplitter;
class QTableView;
class QToolButton;

namespace runlens::widgets {
class PanelHeader;
}

namespace runlens::widgets::steps {

class StepPhaseTableModel;

/// The Steps panel: one stacked bar per profiler step showing where its time went (kernel, memcpy,
/// memset, communication, runtime, data loader, CPU op, other, idle; tb_plugin's priority), and an
/// "Average" bar. Hovering a bar shows every category's time and share; clicking a step emits
/// stepActivated so the timeline can zoom to it. Export as PNG/SVG/PDF/CSV from the toolbar or the context
/// menu. A trace with several ranks gets a rank selector.
///
/// The breakdown is computed on a worker when a store is set (setStore), or given ready (setBreakdown).
/// The panel shares what it is given and never changes it.
class StepsPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit StepsPanel(QWidget* parent = nullptr);
    ~StepsPanel() override;

    void setStore(std::shared_ptr<const models::trace::TraceStore> store);
    std::shared_ptr<const models::trace::TraceStore> store() const { return m_store; }
    void setBreakdown(std::shared_ptr<const models::trace::StepBreakdown> breakdown);
    std::shared_ptr<const models::trace::StepBreakdown> breakdown() const { return m_breakdown; }
    bool isComputing() const { return m_computing; }
    std::shared_ptr<const models::trace::StepPhases> phases() const { return m_phases; }

    /// The source (rank) whose steps are shown.
    void setSource(int source);
    int source() const { return m_source; }

    /// Bars drawn: the source's steps, then the average (when there is at least one step).
    int barCount() const;
    /// Index into breakdown()->steps of the bar at widget position `pos` (in plot coordinates), -2 for the
    /// average bar, -1 for none. A bar standing for several steps (a long run drawn one bar per pixel column)
    /// gives its slowest step.
    int stepIndexAt(const QPoint& plotPos) const;
    /// The tooltip text (rich text) at `plotPos`: a step's, the average's, or a column of steps' (its range,
    /// mean and slowest step); empty for none.
    QString toolTipAt(const QPoint& plotPos) const;
    /// The centre of a bar in plot widget coordinates (for tests and tooltips); bar = position among barCount().
    QPoint barCenter(int bar) const;
    /// The tooltip text (rich text) of a bar (a step or the average).
    QString toolTipForBar(int bar) const;

    QCustomPlot* plot() const { return m_plot; }
    ChartExportMenu* exportMenu() const { return m_exportMenu; }
    /// The numbers behind the chart: one row per step and the average, a column per category (ns).
    ChartData chartData() const;
    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    void setExportDirectory(const QString& directory);

    static QColor categoryColor(models::trace::StepCategory category);
    static QColor phaseColor(models::trace::StepPhase phase);

    QCustomPlot* phasePlot() const { return m_phasePlot; }
    ChartExportMenu* phaseExportMenu() const { return m_phaseExportMenu; }
    QTableView* phaseTable() const { return m_phaseTable; }
    StepPhaseTableModel* phaseTableModel() const { return m_phaseModel; }
    /// Bars of the phase chart: the source's steps, then the mean (0 without phases).
    int phaseBarCount() const;
    /// The centre of a phase bar in phase plot coordinates.
    QPoint phaseBarCenter(int bar) const;
    /// Rich-text tooltip of a phase bar (a step or the mean): host and device time per phase.
    QString phaseToolTipForBar(int bar) const;
    /// The numbers behind the phase chart: one row per step and the mean, host and device ns per phase.
    ChartData phaseChartData() const;
signals:
    /// A step bar was clicked: its index in breakdown()->steps and the analysed range in ns.
    void stepActivated(int stepIndex, qint64 startNs, qint64 endNs);
    void breakdownReady();
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildUi();
    void buildPhaseUi(QSplitter* splitter);
    void rebuildChart();
    void rebuildPhaseChart();
    void updateSummary();
    const models::trace::StepPhaseTimes* phaseStepOfBar(int bar) const;
    int phaseBarAt(const QPoint& plotPos) const;
    /// The step of a bar (index into breakdown()->steps), or nullptr for the average.
    const models::trace::StepTimes* stepOfBar(int bar) const;
    StackedStepBars::Hit hitAt(const QPoint& plotPos) const;
    /// What the pointer is over, to show a new tooltip only when that changes.
    int hoverKey(const QPoint& plotPos) const;
    double barX(int bar) const;
    void showContextMenu(const QPoint& pos);

    std::shared_ptr<const models::trace::TraceStore> m_store;
    std::shared_ptr<const models::trace::StepBreakdown> m_breakdown;
    std::shared_ptr<const models::trace::StepPhases> m_phases;
    quint64 m_generation = 0;
    bool m_computing = false;
    int m_source = 0;
    double m_unit = 1e6; ///< ns per axis unit
    int m_hoverBar = -1;
    QPoint m_pressPos;

    PanelHeader* m_header = nullptr;
    QComboBox* m_sourceCombo = nullptr;
    QLabel* m_summary = nullptr;
    QToolButton* m_exportButton = nullptr;
    QCustomPlot* m_plot = nullptr;
    QList<QCPBars*> m_bars; ///< one per category, bottom to top in priority order
    StackedStepBars* m_stepBars = nullptr;
    ChartExportMenu* m_exportMenu = nullptr;

    QCustomPlot* m_phasePlot = nullptr;
    QList<QCPBars*> m_phaseBars; ///< one per phase, in trace::StepPhase order, bottom to top
    StackedStepBars* m_phaseStepBars = nullptr;
    ChartExportMenu* m_phaseExportMenu = nullptr;
    double m_phaseUnit = 1e6;
    QTableView* m_phaseTable = nullptr;
    StepPhaseTableModel* m_phaseModel = nullptr;
};

} // namespace runlens::widgets::steps
