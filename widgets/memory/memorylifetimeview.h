#pragma once

#include "models/memory/memoryprofile.h"
#include "widgets/common/chartdata.h"

#include <QWidget>

#include <memory>
#include <vector>

class QCheckBox;
class QCPBars;
class QCustomPlot;
class QLabel;
class QSpinBox;

namespace runlens::widgets {
class ChartExportMenu;
}

namespace runlens::widgets::memory {

/// The tensor lifetimes of a MindSpore graph (memory_usage_details) or of a snapshot's blocks: one
/// horizontal bar per tensor from its first to its last node, the largest on top, for the tensors alive
/// at a chosen node or for all of them. Hovering a bar shows the tensor's name, shape, size, type and
/// format. The view keeps the profile alive while it shows it.
class MemoryLifetimeView final : public QWidget
{
    Q_OBJECT
public:
    explicit MemoryLifetimeView(QWidget* parent = nullptr);
    ~MemoryLifetimeView() override;

    void setDevice(std::shared_ptr<const models::memory::MemoryProfile> profile, int device);
    bool hasLifetimes() const;

    /// Shows the tensors alive at node `node` (its x on the device's axis), or all of them for -1.
    void setNode(qint64 node);
    qint64 node() const { return m_node; }

    /// Indices into MemoryDevice::lifetimes of the bars, top (largest) first.
    const std::vector<int>& shownLifetimes() const { return m_shown; }
    /// How many tensors match the node (more than are drawn when over kMaxBars).
    int matchingCount() const { return m_matching; }
    /// The bar at a position of the plot widget, -1 for none.
    int barAt(const QPoint& plotPos) const;
    /// The centre of a bar in plot widget coordinates.
    QPoint barCenter(int bar) const;
    QString toolTipForBar(int bar) const;

    QCustomPlot* plot() const { return m_plot; }
    ChartExportMenu* exportMenu() const { return m_exportMenu; }
    ChartData chartData() const;

    static constexpr int kMaxBars = 2000;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    const models::memory::MemoryDevice* device() const;

    std::shared_ptr<const models::memory::MemoryProfile> m_profile;
    int m_device = -1;
    qint64 m_node = -1;
    std::vector<int> m_shown;
    int m_matching = 0;

    QCheckBox* m_all = nullptr;
    QSpinBox* m_nodeSpin = nullptr;
    QLabel* m_summary = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPBars* m_offset = nullptr;
    QCPBars* m_life = nullptr;
    ChartExportMenu* m_exportMenu = nullptr;
};

} // namespace runlens::widgets::memory
