#pragma once

#include "models/core/timerange.h"
#include "widgets/timeline/timelinehighlight.h"
#include "widgets/timeline/timelinelayout.h"
#include "widgets/timeline/timelinepainter.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPointer>
#include <QWidget>

#include <memory>
#include <vector>

class QScrollBar;
class QTimer;

namespace runlens::models::trace {
class TraceLod;
class TraceStore;
} // namespace runlens::models::trace

namespace runlens::widgets::timeline {

/// The trace timeline: a QPainter widget showing every track of a TraceStore grouped by process, with
/// nested slices, instants, counters, steps, marks and the selection (see TimelinePainter). Navigation
/// follows Perfetto: W/S zoom at the mouse (or the centre) and A/D pan continuously while held, speeding up
/// the longer they are held (a ~60 Hz animation; auto-repeat is ignored), wheel zooms at the cursor (Shift+wheel
/// pans, wheel over the track names or Alt+wheel scrolls), drag pans, Shift+drag selects a time range,
/// F fits the selection (or the selected slice, or the whole trace), M marks it, Escape clears the
/// selection and the highlight, Ctrl+Z
/// undoes a zoom, a double-click zooms to a slice and a click on a process header collapses it.
///
/// The visible range, the selection and the selected slice live in a TimeRangeModel that other panels
/// share; the view keeps the store alive through its shared_ptr and builds a TraceLod for painting.
class TimelineView final : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineView(models::TimeRangeModel* range = nullptr, QWidget* parent = nullptr);
    ~TimelineView() override;

    /// Shows a store. The painting index of a big store (over kAsyncEvents) is built on a worker thread;
    /// until it is ready the view says so (isPreparing()).
    void setStore(std::shared_ptr<const models::trace::TraceStore> store);
    const models::trace::TraceStore* store() const { return m_store.get(); }
    bool isPreparing() const { return m_preparing; }
    static constexpr std::uint64_t kAsyncEvents = 300'000;
    /// Uses `range` (not owned) instead of the current model; nullptr falls back to a private one.
    void setTimeRangeModel(models::TimeRangeModel* range);
    models::TimeRangeModel* timeRangeModel() const { return m_range; }

    models::TimeSpan visibleRange() const { return m_range->visibleRange(); }
    models::TimeSpan selection() const { return m_range->selection(); }
    int selectedTrack() const { return m_range->selectedTrack(); }
    std::int64_t selectedIndex() const { return m_range->selectedIndex(); }

    /// Selects a slice; with `reveal` the view scrolls to its track and pans (zooming in if needed) so it
    /// is visible.
    void selectSlice(int track, std::int64_t index, bool reveal = false);
    void zoomToSlice(int track, std::int64_t index);
    /// F: the selection range, else the selected slice, else the whole trace.
    void fit();
    /// M: marks the selection range (or the selected slice).
    void markSelection();
    void clearAll();

    /// Highlights slices (search results, an operator's occurrences): they are drawn outlined in full
    /// colour, everything else fades, and the ruler ticks each one. An empty list clears the highlight.
    void setHighlight(const std::vector<TimelineMatch>& matches);
    void clearHighlight();
    const TimelineHighlight& highlight() const { return m_highlight; }

    /// Flow arrows of the selected slice.
    void setFlowsShown(bool shown);
    bool flowsShown() const { return m_flowsShown; }

    /// The W/S/A/D animation: one step of `ms` milliseconds for the keys currently held (the timer calls
    /// it about every 16 ms; tests call it directly). Returns false when no key is held.
    bool advanceKeyAnimation(double ms);
    bool isKeyAnimating() const;

    void setColorByCategory(bool byCategory);
    bool colorByCategory() const { return m_colorByCategory; }
    void setProcessCollapsed(int process, bool collapsed);
    bool isProcessCollapsed(int process) const { return m_collapsed.contains(process); }

    /// Geometry helpers (also for tests): pixel x of a time, time at pixel x, and the on-screen rect of a
    /// slice (empty when it is not shown).
    double xForTime(std::int64_t t) const;
    std::int64_t timeAt(double x) const;
    QRectF sliceRect(int track, std::int64_t index) const;
    /// The slice at a widget position, as (track, index); (-1, -1) when none.
    std::pair<int, std::int64_t> sliceAt(const QPoint& pos) const;
    const TimelineLayout& layout() const { return m_layout; }
    QSet<int> collapsedProcesses() const { return m_collapsed; }
    int scrollOffset() const;
    void setScrollOffset(int y);
    int labelWidth() const { return m_labelWidth; }

    /// Paints a frame into `painter` at `size` (what paintEvent does); returns its cost.
    TimelinePaintStats paintFrame(QPainter& painter, const QSize& size) const;
    TimelinePaintStats lastPaintStats() const { return m_lastStats; }

signals:
    /// A slice was clicked or otherwise selected (track = -1: cleared).
    void sliceSelected(int track, qint64 index);
    void selectionRangeChanged(qint64 start, qint64 end);
    /// The store is ready to paint (after a worker built its index).
    void prepared();
    /// Escape cleared the highlight (the search that produced it may clear itself).
    void highlightCleared();
    /// A process group was collapsed or expanded (by a click or setProcessCollapsed).
    void collapsedProcessesChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    enum class Drag { None, Pan, Select };
    void connectRange();
    void relayout();
    void updateScrollBar();
    int contentWidth() const;
    TimelinePaintState paintState() const;
    std::int64_t anchorTime() const;
    void setHover(int track, std::int64_t index);
    void revealTrack(int track);
    void stopKeyAnimation();
    /// Zooms (+1 in, -1 out) and pans (+1 later, -1 earlier) by `ms` of key animation.
    void move(int zoom, int pan, double ms);

    std::shared_ptr<const models::trace::TraceStore> m_store;
    void setLod(std::shared_ptr<const models::trace::TraceLod> lod);

    std::shared_ptr<const models::trace::TraceLod> m_lod;
    QFutureWatcher<std::shared_ptr<const models::trace::TraceLod>>* m_lodWatcher = nullptr;
    bool m_preparing = false;
    std::vector<QRgb> m_nameColors;
    TimelineLayout m_layout;
    QSet<int> m_collapsed;
    QPointer<models::TimeRangeModel> m_range;
    models::TimeRangeModel* m_ownRange = nullptr;
    QScrollBar* m_scrollBar = nullptr;
    QMetaObject::Connection m_rangeConnections[4];
    bool m_colorByCategory = false;
    bool m_flowsShown = true;
    TimelineHighlight m_highlight;
    QTimer* m_keyTimer = nullptr;
    QElapsedTimer m_keyClock; ///< time since the last animation step
    int m_zoomKey = 0; ///< held: +1 W (in), -1 S (out), 0 none
    int m_panKey = 0; ///< held: +1 D (later), -1 A (earlier)
    double m_zoomHeld = 0; ///< ms the zoom key has been held, for the acceleration
    double m_panHeld = 0;
    int m_labelWidth = 220;

    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    std::int64_t m_pressTime = 0;
    models::TimeSpan m_pressRange;
    int m_pressScroll = 0;
    bool m_moved = false;
    QPoint m_mousePos;
    bool m_mouseInside = false;
    int m_hoverTrack = -1;
    std::int64_t m_hoverIndex = -1;
    mutable TimelinePaintStats m_lastStats;
};

} // namespace runlens::widgets::timeline
