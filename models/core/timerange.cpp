#include "models/core/timerange.h"

#include <algorithm>
#include <cmath>

namespace runlens::models {

namespace {
constexpr int kUndoLimit = 100;
}

TimeRangeModel::TimeRangeModel(QObject* parent)
    : QObject(parent)
{ }

void TimeRangeModel::setTraceRange(std::int64_t start, std::int64_t end)
{
    if (end < start)
        std::swap(start, end);
    m_trace = { start, end };
    const bool hadUndo = canUndoZoom();
    m_undo.clear();
    m_marks.clear();
    emit traceRangeChanged(start, end);
    m_visible = clamped(start, end);
    emit visibleRangeChanged(m_visible.start, m_visible.end);
    clearSelection();
    clearSelectedSlice();
    emit marksChanged();
    if (hadUndo)
        emit undoAvailableChanged(false);
}

TimeSpan TimeRangeModel::clamped(std::int64_t start, std::int64_t end) const
{
    if (end < start)
        std::swap(start, end);
    const std::int64_t traceSpan = std::max<std::int64_t>(m_trace.end - m_trace.start, kMinimumSpan);
    std::int64_t span = std::clamp<std::int64_t>(end - start, kMinimumSpan, traceSpan);
    if (end - start < kMinimumSpan) {
        const std::int64_t mid = start + (end - start) / 2;
        start = mid - span / 2;
    }
    // Keep the range inside the trace, shifting rather than shrinking it.
    const std::int64_t traceEnd = m_trace.start + traceSpan;
    start = std::clamp(start, m_trace.start, traceEnd - span);
    return { start, start + span };
}

void TimeRangeModel::setVisibleRange(std::int64_t start, std::int64_t end, bool recordUndo)
{
    const TimeSpan next = clamped(start, end);
    if (next == m_visible)
        return;
    if (recordUndo) {
        m_undo.append(m_visible);
        if (m_undo.size() > kUndoLimit)
            m_undo.removeFirst();
        if (m_undo.size() == 1)
            emit undoAvailableChanged(true);
    }
    m_visible = next;
    emit visibleRangeChanged(m_visible.start, m_visible.end);
}

void TimeRangeModel::zoom(double factor, std::int64_t anchor)
{
    if (!(factor > 0))
        return;
    const double span = double(m_visible.duration());
    const double newSpan = std::max(span * factor, double(kMinimumSpan));
    const double rel = span > 0 ? std::clamp(double(anchor - m_visible.start) / span, 0.0, 1.0) : 0.5;
    const auto start = std::int64_t(std::llround(double(anchor) - rel * newSpan));
    setVisibleRange(start, start + std::int64_t(std::llround(newSpan)));
}

void TimeRangeModel::pan(std::int64_t delta)
{
    setVisibleRange(m_visible.start + delta, m_visible.end + delta);
}

void TimeRangeModel::fitAll()
{
    setVisibleRange(m_trace.start, m_trace.end, true);
}

void TimeRangeModel::undoZoom()
{
    if (m_undo.isEmpty())
        return;
    const TimeSpan previous = m_undo.takeLast();
    m_visible = clamped(previous.start, previous.end);
    emit visibleRangeChanged(m_visible.start, m_visible.end);
    if (m_undo.isEmpty())
        emit undoAvailableChanged(false);
}

void TimeRangeModel::setSelection(std::int64_t start, std::int64_t end)
{
    if (end < start)
        std::swap(start, end);
    const TimeSpan next { start, end };
    if (next == m_selection)
        return;
    m_selection = next;
    emit selectionChanged(start, end);
}

void TimeRangeModel::clearSelection()
{
    if (!m_selection.valid())
        return;
    m_selection = {};
    emit selectionChanged(m_selection.start, m_selection.end);
}

void TimeRangeModel::setSelectedSlice(int track, std::int64_t index)
{
    if (track < 0 || index < 0) {
        track = -1;
        index = -1;
    }
    if (track == m_selectedTrack && index == m_selectedIndex)
        return;
    m_selectedTrack = track;
    m_selectedIndex = index;
    emit selectedSliceChanged(track, index);
}

void TimeRangeModel::setHoverTime(std::int64_t time)
{
    if (time == m_hoverTime)
        return;
    m_hoverTime = time;
    emit hoverTimeChanged(time);
}

void TimeRangeModel::addMark(TimeSpan span)
{
    if (!span.valid())
        return;
    m_marks.append(span);
    emit marksChanged();
}

void TimeRangeModel::clearMarks()
{
    if (m_marks.isEmpty())
        return;
    m_marks.clear();
    emit marksChanged();
}

} // namespace runlens::models
