#pragma once

#include "models/memory/memoryanalysis.h"
#include "models/memory/memoryprofile.h"
#include "widgets/common/chartdata.h"
#include "widgets/common/chartexportmenu.h"

#include <QPointer>
#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace runlens::models {
class TimeRangeModel;
}
namespace runlens::models::memory {
class MemoryOpTableModel;
}
namespace runlens::models::trace {
class TraceStore;
}
namespace runlens::widgets {
class PanelHeader;
}

namespace runlens::widgets::memory {

class MemoryChart;
class MemoryLifetimeView;

/// The Memory panel: the memory curves of every device of the profiles it is given (a trace's
/// `[memory]` events, torch memory timelines, MindSpore memory files), one device at a time or all
/// overlaid; the peak with the operator and step running at that moment and a "Go to peak" that shows it
/// in the timeline; the per-operator allocation table of the shown device (inside the selected range
/// when there is one); and the tensor lifetimes of MindSpore graphs. Time-based curves share the
/// TimeRangeModel with the Timeline (see MemoryChart). Charts export as PNG/SVG/PDF/CSV.
///
/// The panel shares what it is given and never changes it; the op table is computed on a worker.
class MemoryPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit MemoryPanel(QWidget* parent = nullptr);
    ~MemoryPanel() override;

    /// The profiles to show (a trace's profile plus memory files); empty ones are skipped.
    void setProfiles(std::vector<std::shared_ptr<const models::memory::MemoryProfile>> profiles);
    const std::vector<std::shared_ptr<const models::memory::MemoryProfile>>& profiles() const { return m_profiles; }
    /// The trace whose ops and steps explain the curves of Kineto profiles (peak context, op table).
    void setTraceStore(std::shared_ptr<const models::trace::TraceStore> store);
    std::shared_ptr<const models::trace::TraceStore> traceStore() const { return m_store; }
    /// The shared time state of the time-based panels (not owned).
    void setTimeRangeModel(models::TimeRangeModel* model);
    models::TimeRangeModel* timeRangeModel() const { return m_model; }

    /// Entries of the device picker: every device of every profile, then "All devices" when several
    /// devices lie on the same axis.
    int deviceEntryCount() const { return int(m_entries.size()); }
    QString deviceEntryText(int entry) const;
    void setCurrentDeviceEntry(int entry);
    int currentDeviceEntry() const { return m_entry; }

    /// True when there is nothing to show and the panel says what to open instead.
    bool isEmptyStateShown() const;
    QString emptyStateText() const;

    /// The peak of the shown curves (of the highest device when overlaid) and what ran then.
    models::memory::MemoryPeak peak() const { return m_peak; }
    const models::memory::MemoryDevice* peakDevice() const;
    models::memory::MemoryContext peakContext() const { return m_peakContext; }
    QString peakText() const;
    /// Shows the peak: selects its innermost op in the timeline (linked curves) and zooms around it.
    void goToPeak();

    /// Whether the op table shows amounts including children (true) or the op's own (false).
    void setIncludeChildren(bool include);
    bool includeChildren() const { return m_includeChildren; }
    bool isComputingOps() const { return m_computingOps; }

    MemoryChart* chart() const { return m_chart; }
    MemoryLifetimeView* lifetimeView() const { return m_lifetimes; }
    QTableView* opTable() const { return m_table; }
    models::memory::MemoryOpTableModel* opTableModel() const { return m_opModel; }
    ChartExportMenu* exportMenu() const { return m_exportMenu; }
    /// The samples of the shown curves inside the visible range (what CSV export writes).
    ChartData chartData() const;
    void setExportFileNameProvider(ChartExportMenu::FileNameProvider provider);
    void setExportDirectory(const QString& directory);

signals:
    /// A row of the op table was selected: the op's name (the app highlights its calls in the timeline).
    void operatorSelected(const QString& name);
    void opTableReady();
    void chartExported(const QString& fileName);
    void chartExportFailed(const QString& message);

private:
    struct Entry
    {
        int profile = -1; ///< -1: all devices on `axis`
        int device = -1;
        models::memory::MemoryAxis axis = models::memory::MemoryAxis::TimeNs;
    };

    void buildUi();
    void rebuildEntries();
    void showEntry();
    void updatePeak();
    void updateInfo();
    void scheduleOpTable();
    void computeOpTable();
    void updateTableColumns();
    void showChartMenu(const QPoint& pos);
    std::int64_t originFor(const std::vector<int>& devices) const;
    bool hasTraceContext(const models::memory::MemoryProfile& profile) const;

    std::vector<std::shared_ptr<const models::memory::MemoryProfile>> m_profiles;
    std::shared_ptr<const models::trace::TraceStore> m_store;
    QPointer<models::TimeRangeModel> m_model;
    std::vector<Entry> m_entries;
    int m_entry = -1;
    models::memory::MemoryPeak m_peak;
    int m_peakProfile = -1;
    int m_peakDeviceIndex = -1;
    models::memory::MemoryContext m_peakContext;
    bool m_includeChildren = true;
    bool m_computingOps = false;
    quint64 m_opGeneration = 0;
    std::shared_ptr<std::atomic_bool> m_opCancel; ///< set when a newer table is asked for

    QStackedWidget* m_stack = nullptr;
    QLabel* m_empty = nullptr;
    PanelHeader* m_header = nullptr;
    QComboBox* m_deviceCombo = nullptr;
    QLabel* m_info = nullptr;
    QLabel* m_peakLabel = nullptr;
    QToolButton* m_peakButton = nullptr;
    QToolButton* m_exportButton = nullptr;
    QTabWidget* m_tabs = nullptr;
    MemoryChart* m_chart = nullptr;
    MemoryLifetimeView* m_lifetimes = nullptr;
    QWidget* m_tablePane = nullptr;
    QCheckBox* m_childrenCheck = nullptr;
    QLabel* m_tableNote = nullptr;
    QTableView* m_table = nullptr;
    models::memory::MemoryOpTableModel* m_opModel = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTimer* m_opTimer = nullptr;
    ChartExportMenu* m_exportMenu = nullptr;
};

} // namespace runlens::widgets::memory
