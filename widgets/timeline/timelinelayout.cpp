#include "widgets/timeline/timelinelayout.h"

#include "models/trace/tracelod.h"
#include "models/trace/tracestore.h"

#include <algorithm>
#include <numeric>

namespace runlens::widgets::timeline {

using models::trace::TrackType;

QString TimelineLayout::processLabel(const models::trace::TraceStore& store, int process)
{
    const models::trace::Process& p = store.processes()[std::size_t(process)];
    QString label = store.strings().text(p.name);
    if (p.namedId) {
        // A string pid ("CPU functions", "Spans") is the name; its number is an internal key.
        if (label.isEmpty())
            label = tr("Unnamed process");
    } else if (label.isEmpty()) {
        label = p.device ? tr("Device %1").arg(p.pid) : tr("Process %1").arg(p.pid);
    } else if (!label.contains(QString::number(p.pid))) {
        label = tr("%1 (%2)").arg(label).arg(p.pid);
    }
    const QString labels = store.strings().text(p.labels);
    if (!labels.isEmpty())
        label = tr("%1 · %2").arg(label, labels);
    if (store.sources().size() > 1) {
        const int rank = p.rank >= 0 ? p.rank : p.source;
        label = tr("Rank %1 · %2").arg(rank).arg(label);
    }
    return label;
}

QString TimelineLayout::trackLabel(const models::trace::TraceStore& store, int track)
{
    const models::trace::Track& t = store.tracks()[std::size_t(track)];
    const QString name = store.strings().text(t.name);
    if (!name.isEmpty())
        return name;
    if (t.namedId)
        return tr("Unnamed thread");
    switch (t.type) {
    case TrackType::GpuStream:
        return tr("Stream %1").arg(t.tid);
    case TrackType::Counter:
        return tr("Counter");
    case TrackType::Async:
        return tr("Async %1").arg(t.tid);
    case TrackType::Thread:
        break;
    }
    return tr("Thread %1").arg(t.tid);
}

void TimelineLayout::build(const models::trace::TraceStore* store, const models::trace::TraceLod* lod,
                           const QSet<int>& collapsedProcesses)
{
    m_rows.clear();
    m_rowOfTrack.clear();
    m_totalHeight = 0;
    if (!store)
        return;
    const auto& processes = store->processes();
    const auto& tracks = store->tracks();
    m_rowOfTrack.assign(tracks.size(), -1);

    std::vector<int> order(processes.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const models::trace::Process& pa = processes[std::size_t(a)];
        const models::trace::Process& pb = processes[std::size_t(b)];
        return std::tie(pa.source, pa.sortIndex, pa.device, pa.pid)
            < std::tie(pb.source, pb.sortIndex, pb.device, pb.pid);
    });

    int y = 0;
    for (int p : order) {
        const models::trace::Process& process = processes[std::size_t(p)];
        std::vector<int> shown;
        for (int t : process.tracks) {
            if (t < 0 || std::size_t(t) >= tracks.size())
                continue;
            const models::trace::Track& track = tracks[std::size_t(t)];
            if (track.size() > 0 || !track.counterTime.empty())
                shown.push_back(t);
        }
        if (shown.empty())
            continue;
        m_rows.push_back({ TimelineRow::ProcessHeader, p, -1, y, kHeaderHeight, 0, false, processLabel(*store, p) });
        y += kHeaderHeight;
        if (collapsedProcesses.contains(p))
            continue;
        // Async tracks after the threads of their process, under their own sub-header.
        std::stable_partition(shown.begin(), shown.end(),
                              [&](int t) { return tracks[std::size_t(t)].type != TrackType::Async; });
        bool asyncHeader = false;
        for (int t : shown) {
            const models::trace::Track& track = tracks[std::size_t(t)];
            if (track.type == TrackType::Async && !asyncHeader) {
                m_rows.push_back({ TimelineRow::AsyncHeader, p, -1, y, kAsyncHeaderHeight, 0, false, tr("Async") });
                y += kAsyncHeaderHeight;
                asyncHeader = true;
            }
            TimelineRow row;
            row.process = p;
            row.track = t;
            row.y = y;
            row.label = trackLabel(*store, t);
            if (track.type == TrackType::Counter || (track.size() == 0 && !track.counterTime.empty())) {
                row.kind = TimelineRow::Counter;
                row.height = kCounterHeight;
            } else {
                row.kind = TimelineRow::Slices;
                row.async = track.type == TrackType::Async;
                int depthRows = track.maxDepth + 1;
                if (lod && std::size_t(t) < lod->trackCount())
                    depthRows = std::max<int>(1, int(lod->track(t).rows.size()));
                row.depthRows = depthRows;
                row.height = 2 * kTrackPadding + depthRows * kSliceRowHeight;
            }
            m_rowOfTrack[std::size_t(t)] = int(m_rows.size());
            m_rows.push_back(row);
            y += row.height;
        }
    }
    m_totalHeight = y;
}

int TimelineLayout::rowAt(int y) const
{
    if (y < 0 || y >= m_totalHeight)
        return -1;
    auto it = std::upper_bound(m_rows.begin(), m_rows.end(), y,
                               [](int value, const TimelineRow& row) { return value < row.y; });
    if (it == m_rows.begin())
        return -1;
    return int(std::prev(it) - m_rows.begin());
}

int TimelineLayout::rowOfTrack(int track) const
{
    if (track < 0 || std::size_t(track) >= m_rowOfTrack.size())
        return -1;
    return m_rowOfTrack[std::size_t(track)];
}

} // namespace runlens::widgets::timeline
