#pragma once

#include "models/pipeline/datapipeline.h"
#include "widgets/common/chartdata.h"
#include "widgets/common/chartexportmenu.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QToolButton;

namespace runlens::widgets {
class PanelHeader;
}

namespace runlens::widgets::pipeline {

class PipelineGraphView;

/// The Data pipeline panel: for one rank of a MindSpore profiler folder, the dataset pipeline as a graph
/// of ops (worker counts, queue usage coloured, bottlenecks outlined) with the reasons and advice under
/// it, the host and device queues over steps (empty and full steps marked, ratios in the heading), and
/// CPU utilisation over time (device, process or per op). Both charts export as PNG/SVG/PDF/CSV from the
/// Export button or their context menus. A rank picker shows when several ranks are given.
///
/// The panel shares the pipelines it is given and never changes them.
class DataPipelinePanel final : public QWidget
{
    Q_OBJECT
public:
    /// Which CPU utilisation the CPU chart shows.
    enum class CpuView { Device, Process, Ops };
    Q_ENUM(CpuView)

    explicit DataPipelinePanel(QWidget* parent = nullptr);
    ~DataPipelinePanel() override;

    /// One pipeline per rank (nullptr entries are skipped); replaces what was shown.
    void setPipelines(std::vector<std::shared_ptr<const models::pipeline::DataPipeline>> pipelines);
    void setPipeline(std::shared_ptr<const models::pipeline::DataPipeline> pipeline);
    void clear();
    /// The pipeline shown (of the current rank), or nullptr.
    std::shared_ptr<const models::pipeline::DataPipeline> pipeline() const;
    /// Ranks that can be picked, in the order given.
    QList<int> ranks() const;
    int currentRank() const;
    void setCurrentRank(int rank);

    CpuView cpuView() const { return m_cpuView; }
    void setCpuView(CpuView view);

    PipelineGraphView* graphView() const { return m_graph; }
    QCustomPlot* queuePlot() const { return m_queuePlot; }
    QCustomPlot* cpuPlot() const { return m_cpuPlot; }
    ChartExportMenu* queueExportMenu() const { return m_queueExport; }
    ChartExportMenu* cpuExportMenu() const { return m_cpuExport; }
    /// The numbers behind the queue chart: per step, host queue size and capacity (and the step's batch
    /// time), then per GetNext the device queue size and wait.
    ChartData queueChartData() const;
    /// The numbers behind the CPU chart: one series per curve shown, a row per sample.
    ChartData cpuChartData() const;
    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    void setExportDirectory(const QString& directory);

    /// The text of the findings under the graph (plain text, for tests and copying).
    QString findingsText() const;
    bool isEmptyStateShown() const;

signals:
    void currentRankChanged(int rank);
    /// An op was clicked in the graph.
    void opSelected(int rank, int opId);
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);

private:
    void buildUi();
    QCustomPlot* createPlot(const QString& objectName);
    ChartExportMenu* createExportMenu(QCustomPlot* plot, const QString& baseName, const QString& title,
                                      ChartExportMenu::DataProvider provider);
    void showCurrent();
    void rebuildQueueChart();
    void rebuildCpuChart();
    void updateFindings();
    void showPlotMenu(QCustomPlot* plot, ChartExportMenu* menu, const QPoint& pos);

    std::vector<std::shared_ptr<const models::pipeline::DataPipeline>> m_pipelines;
    int m_current = -1; ///< index into m_pipelines
    CpuView m_cpuView = CpuView::Device;

    QWidget* m_content = nullptr;
    QLabel* m_emptyLabel = nullptr;
    PanelHeader* m_header = nullptr;
    QComboBox* m_rankCombo = nullptr;
    QLabel* m_summary = nullptr;
    QToolButton* m_exportButton = nullptr;
    PipelineGraphView* m_graph = nullptr;
    QLabel* m_findings = nullptr;
    QLabel* m_queueHeading = nullptr;
    QCustomPlot* m_queuePlot = nullptr;
    QLabel* m_cpuHeading = nullptr;
    QComboBox* m_cpuCombo = nullptr;
    QCustomPlot* m_cpuPlot = nullptr;
    ChartExportMenu* m_queueExport = nullptr;
    ChartExportMenu* m_cpuExport = nullptr;
    QList<QWidget*> m_sections; ///< hidden in the empty state
};

} // namespace runlens::widgets::pipeline
