#pragma once

#include <QCoreApplication>
#include <QSet>
#include <QString>

#include <vector>

namespace runlens::models::trace {
class TraceLod;
class TraceStore;
} // namespace runlens::models::trace

namespace runlens::widgets::timeline {

/// One vertical band of the timeline: a process header, a track of nested slices, a counter track, or the
/// "Async" sub-header above the async tracks of a process.
struct TimelineRow
{
    enum Kind { ProcessHeader, Slices, Counter, AsyncHeader };
    Kind kind = Slices;
    int process = -1; ///< index into TraceStore::processes()
    int track = -1; ///< index into TraceStore::tracks(); -1 for headers
    int y = 0; ///< top, in content coordinates (0 = first row)
    int height = 0;
    int depthRows = 0; ///< slice rows of a Slices track
    bool async = false; ///< a Slices row of an async (b/e/n) track
    QString label;
};

/// The vertical arrangement of a store's tracks: processes sorted by source, sort index and pid (CPU
/// before devices), each a collapsible header followed by its thread, stream and counter tracks, then its
/// async tracks under an "Async" sub-header. Rebuilt when the store or the
/// collapsed set changes; cheap (one entry per track).
class TimelineLayout
{
    Q_DECLARE_TR_FUNCTIONS(runlens::widgets::timeline::TimelineLayout)
public:
    static constexpr int kHeaderHeight = 24;
    static constexpr int kSliceRowHeight = 18;
    static constexpr int kTrackPadding = 3; ///< above and below the slice rows of a track
    static constexpr int kCounterHeight = 40;
    static constexpr int kAsyncHeaderHeight = 18;

    void build(const models::trace::TraceStore* store, const models::trace::TraceLod* lod,
               const QSet<int>& collapsedProcesses);

    const std::vector<TimelineRow>& rows() const { return m_rows; }
    int totalHeight() const { return m_totalHeight; }
    /// Index of the row at content y, or -1.
    int rowAt(int y) const;
    /// Index of the row showing `track`, or -1 (absent or collapsed).
    int rowOfTrack(int track) const;
    /// Top y of slice depth `depth` inside a Slices row.
    static int depthY(const TimelineRow& row, int depth) { return row.y + kTrackPadding + depth * kSliceRowHeight; }

    static QString processLabel(const models::trace::TraceStore& store, int process);
    static QString trackLabel(const models::trace::TraceStore& store, int track);

private:
    std::vector<TimelineRow> m_rows;
    std::vector<int> m_rowOfTrack;
    int m_totalHeight = 0;
};

} // namespace runlens::widgets::timeline
