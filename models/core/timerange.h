#pragma once

#include <QList>
#include <QObject>

#include <cstdint>
#include <limits>

namespace runlens::models {

/// A closed time interval in nanoseconds; `valid()` is false for the empty selection.
struct TimeSpan
{
    std::int64_t start = 0;
    std::int64_t end = -1;
    bool valid() const { return end >= start; }
    std::int64_t duration() const { return valid() ? end - start : 0; }
    bool operator==(const TimeSpan&) const = default;
};

/// The shared time state of every time-based panel (timeline, memory, steps): the whole trace span, the
/// visible range, a selected range, the selected slice, marked ranges and a zoom undo stack. One object
/// is created by the application and injected into each panel; panels write to it and follow its signals,
/// so a zoom or a selection in one panel is seen by all. Lives on the GUI thread; owned by its QObject
/// parent.
class TimeRangeModel final : public QObject
{
    Q_OBJECT
public:
    explicit TimeRangeModel(QObject* parent = nullptr);

    /// The span of all data (visible ranges are clamped to it). Resets the visible range to the whole
    /// span and clears the selection, the selected slice, the marks and the undo stack.
    void setTraceRange(std::int64_t start, std::int64_t end);
    TimeSpan traceRange() const { return m_trace; }

    /// Sets what is on screen; clamped to the trace span, at least kMinimumSpan wide. With `recordUndo`
    /// the previous range is pushed on the zoom undo stack (for discrete jumps, not for wheel steps).
    void setVisibleRange(std::int64_t start, std::int64_t end, bool recordUndo = false);
    TimeSpan visibleRange() const { return m_visible; }
    /// Zooms by `factor` (< 1 zooms in) keeping time `anchor` at the same relative screen position.
    void zoom(double factor, std::int64_t anchor);
    /// Moves the visible range by `delta` ns, clamped at the trace edges.
    void pan(std::int64_t delta);
    /// The whole trace (undoable).
    void fitAll();
    bool canUndoZoom() const { return !m_undo.isEmpty(); }
    void undoZoom();

    void setSelection(std::int64_t start, std::int64_t end);
    void clearSelection();
    TimeSpan selection() const { return m_selection; }

    /// The selected slice of a trace track (track = -1: none).
    void setSelectedSlice(int track, std::int64_t index);
    void clearSelectedSlice() { setSelectedSlice(-1, -1); }
    int selectedTrack() const { return m_selectedTrack; }
    std::int64_t selectedIndex() const { return m_selectedIndex; }

    /// The time under the mouse in whichever time-based panel it is over (a cursor line in the others);
    /// kNoHover when the mouse is over none.
    void setHoverTime(std::int64_t time);
    std::int64_t hoverTime() const { return m_hoverTime; }
    static constexpr std::int64_t kNoHover = std::numeric_limits<std::int64_t>::min();

    /// Marked ranges ("M" in the timeline); a mark of zero length is a single time.
    void addMark(TimeSpan span);
    void clearMarks();
    const QList<TimeSpan>& marks() const { return m_marks; }

    static constexpr std::int64_t kMinimumSpan = 100; ///< ns: the deepest zoom

signals:
    void traceRangeChanged(std::int64_t start, std::int64_t end);
    void visibleRangeChanged(std::int64_t start, std::int64_t end);
    void selectionChanged(std::int64_t start, std::int64_t end); ///< end < start: cleared
    void selectedSliceChanged(int track, std::int64_t index);
    void hoverTimeChanged(std::int64_t time); ///< kNoHover: the mouse left
    void marksChanged();
    void undoAvailableChanged(bool available);

private:
    TimeSpan clamped(std::int64_t start, std::int64_t end) const;

    TimeSpan m_trace { 0, 0 };
    TimeSpan m_visible { 0, 0 };
    TimeSpan m_selection;
    int m_selectedTrack = -1;
    std::int64_t m_selectedIndex = -1;
    std::int64_t m_hoverTime = kNoHover;
    QList<TimeSpan> m_marks;
    QList<TimeSpan> m_undo;
};

} // namespace runlens::models
