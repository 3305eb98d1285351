#pragma once

#include "models/core/timerange.h"
#include "models/memory/memoryprofile.h"
#include "widgets/common/chartdata.h"

#include <QList>
#include <QPointer>

#include <qcustomplot.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace runlens::widgets::memory {

/// One device of a profile as drawn by a MemoryChart; the chart keeps the profile alive.
struct MemoryChartDevice
{
    std::shared_ptr<const models::memory::MemoryProfile> profile;
    int device = 0;
    QString label; ///< names the device's curves when several devices are overlaid ("cuda:0")

    const models::memory::MemoryDevice& data() const { return profile->devices[std::size_t(device)]; }
};

/// The memory curves of one or more devices as step lines over time (ms from the trace start) or over the
/// node index of a MindSpore graph: allocated, reserved and active bytes, the category stack of a torch
/// memory timeline, the capacity as a dashed line, OOM marks and each device's peak. Curves are
/// downsampled to the visible range on every range change (memory::downsampleIndices keeps every local
/// peak), on a worker when a curve is long, so painting stays cheap.
///
/// With a TimeRangeModel and a time axis inside its trace span the chart is linked: its x range is the
/// model's visible range, a drag writes the model's selection (drawn as a band), the wheel zooms the
/// model, and a cursor line follows the model's hover time, which hovering the chart sets. Otherwise
/// (node axis, a file on another clock, no model) the same gestures act on the chart alone.
class MemoryChart final : public QCustomPlot
{
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    ~MemoryChart() override;

    /// Shows `devices`, all on `axis`. `origin` is the ns drawn as 0 on a time axis (the trace start).
    void setDevices(std::vector<MemoryChartDevice> devices, models::memory::MemoryAxis axis, std::int64_t origin);
    const std::vector<MemoryChartDevice>& devices() const { return m_devices; }
    models::memory::MemoryAxis axis() const { return m_axis; }
    std::int64_t origin() const { return m_origin; }
    /// The x span of the data (ns or node index); invalid without data.
    models::TimeSpan dataRange() const { return m_dataRange; }

    void setTimeRangeModel(models::TimeRangeModel* model);
    models::TimeRangeModel* timeRangeModel() const { return m_model; }
    /// Whether the chart follows and writes the shared time range.
    bool isLinked() const;

    /// Data x (ns or node index) to the axis key (ms from origin, or node index) and back.
    double keyOf(std::int64_t x) const;
    std::int64_t xOf(double key) const;

    /// The x range shown (ns or node index). Linked charts read and write the model's visible range.
    models::TimeSpan visibleRange() const;
    void setVisibleRange(std::int64_t start, std::int64_t end, bool recordUndo = false);
    void fitAll();
    /// The selected range (linked: the model's); end < start when none.
    models::TimeSpan selection() const;
    void setSelection(std::int64_t start, std::int64_t end);
    void clearSelection();

    /// True while a worker downsamples the curves for the current range.
    bool isResampling() const { return m_pending > 0; }
    /// The curve graphs (lines and stack layers), in drawing order.
    QList<QCPGraph*> curveGraphs() const;
    /// One point per device at its peak (memory::devicePeak).
    QCPGraph* peakGraph() const { return m_peakGraph; }
    /// One point per out-of-memory report.
    QCPGraph* oomGraph() const { return m_oomGraph; }
    QCPItemRect* selectionBand() const { return m_band; }
    QCPItemStraightLine* cursorLine() const { return m_cursor; }
    const QList<QCPItemStraightLine*>& capacityLines() const { return m_capacityLines; }
    /// The "relative (unknown baseline)" note, visible when a curve is relative.
    QCPItemText* relativeNote() const { return m_relativeNote; }
    /// The most points any curve is drawn with now.
    int maxDrawnPoints() const;

    /// The values of every curve at x, as HTML for the tooltip.
    QString hoverText(std::int64_t x) const;
    /// The samples of the shown curves inside the visible range (all of them, not the drawn subset).
    ChartData chartData() const;
    /// Draws the chart into `painter` at `size` after the pending resampling (benchmarks, screenshots).
    void renderTo(QCPPainter* painter, QSize size);

signals:
    void resampled();
    void selectionChanged(qint64 start, qint64 end); ///< end < start: cleared
    void visibleRangeChanged(qint64 start, qint64 end);
    /// A click (no drag) on a node-axis chart: the node under the mouse.
    void nodeClicked(qint64 node);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct LineCurve
    {
        const models::memory::MemorySeries* series = nullptr;
        QCPGraph* graph = nullptr;
    };
    struct StackCurve
    {
        std::vector<const models::memory::MemorySeries*> layers;
        std::vector<QCPGraph*> graphs;
    };

    void applyTheme();
    void clearCurves();
    void buildCurves();
    void buildMarkers();
    void fitValueAxis();
    void connectModel();
    void applyVisibleRange(std::int64_t start, std::int64_t end);
    void resample();
    void updateBand();
    void setCursorX(std::int64_t x);
    std::int64_t xAtPixel(double px) const;
    bool insidePlot(const QPointF& pos) const;

    std::vector<MemoryChartDevice> m_devices;
    models::memory::MemoryAxis m_axis = models::memory::MemoryAxis::TimeNs;
    std::int64_t m_origin = 0;
    models::TimeSpan m_dataRange;
    models::TimeSpan m_localVisible;
    models::TimeSpan m_localSelection;
    QPointer<models::TimeRangeModel> m_model;
    QList<QMetaObject::Connection> m_modelConnections;

    std::vector<LineCurve> m_lines;
    std::vector<StackCurve> m_stacks;
    QCPGraph* m_peakGraph = nullptr;
    QCPGraph* m_oomGraph = nullptr;
    QCPItemRect* m_band = nullptr;
    QCPItemStraightLine* m_cursor = nullptr;
    QList<QCPItemStraightLine*> m_capacityLines;
    QCPItemText* m_relativeNote = nullptr;
    quint64 m_generation = 0;
    int m_pending = 0;

    enum class Drag { None, Select, Pan };
    Drag m_drag = Drag::None;
    QPointF m_pressPos;
    std::int64_t m_pressX = 0;
    models::TimeSpan m_pressRange;
    bool m_moved = false;
};

} // namespace runlens::widgets::memory
