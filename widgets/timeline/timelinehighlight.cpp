#include "widgets/timeline/timelinehighlight.h"

#include "models/trace/tracestore.h"

#include <algorithm>

namespace runlens::widgets::timeline {

TimelineHighlight::TimelineHighlight(const models::trace::TraceStore& store, const std::vector<TimelineMatch>& matches)
{
    const auto& tracks = store.tracks();
    m_tracks.resize(tracks.size());
    m_starts.reserve(matches.size());
    for (const TimelineMatch& m : matches) {
        if (m.track < 0 || std::size_t(m.track) >= tracks.size())
            continue;
        const models::trace::Track& track = tracks[std::size_t(m.track)];
        if (m.index >= track.size())
            continue;
        Rows& rows = m_tracks[std::size_t(m.track)];
        const std::size_t depth = track.depth[m.index];
        if (rows.size() <= depth)
            rows.resize(depth + 1);
        rows[depth].push_back(m.index);
        m_starts.push_back(track.start[m.index]);
    }
    // Matches usually arrive in time order; sort anyway so any caller's list paints correctly.
    for (std::size_t t = 0; t < m_tracks.size(); ++t) {
        const models::trace::Track& track = tracks[t];
        for (auto& row : m_tracks[t]) {
            std::sort(row.begin(), row.end(), [&](std::uint32_t a, std::uint32_t b) {
                return std::tie(track.start[a], a) < std::tie(track.start[b], b);
            });
            row.erase(std::unique(row.begin(), row.end()), row.end());
        }
    }
    m_count = 0;
    for (const Rows& rows : m_tracks) {
        for (const auto& row : rows)
            m_count += row.size();
    }
    std::sort(m_starts.begin(), m_starts.end());
    m_levels.resize(m_tracks.size());
    for (std::size_t t = 0; t < m_tracks.size(); ++t) {
        m_levels[t].resize(m_tracks[t].size());
        for (std::size_t d = 0; d < m_tracks[t].size(); ++d)
            m_levels[t][d]
                = models::trace::TraceLod::buildLevels(tracks[t], m_tracks[t][d], store.startTime(), store.endTime());
    }
}

const std::vector<models::trace::TraceLod::Level>& TimelineHighlight::levels(int track, int depth) const
{
    static const std::vector<models::trace::TraceLod::Level> kNone;
    if (track < 0 || std::size_t(track) >= m_levels.size() || depth < 0
        || std::size_t(depth) >= m_levels[std::size_t(track)].size())
        return kNone;
    return m_levels[std::size_t(track)][std::size_t(depth)];
}

const TimelineHighlight::Rows& TimelineHighlight::rows(int track) const
{
    static const Rows kNone;
    if (track < 0 || std::size_t(track) >= m_tracks.size())
        return kNone;
    return m_tracks[std::size_t(track)];
}

bool TimelineHighlight::contains(const models::trace::TraceStore& store, int track, std::uint32_t index) const
{
    const Rows& r = rows(track);
    const models::trace::Track& t = store.tracks()[std::size_t(track)];
    if (index >= t.size() || t.depth[index] >= r.size())
        return false;
    const auto& row = r[t.depth[index]];
    auto it = std::lower_bound(row.begin(), row.end(), index, [&](std::uint32_t a, std::uint32_t b) {
        return std::tie(t.start[a], a) < std::tie(t.start[b], b);
    });
    return it != row.end() && *it == index;
}

} // namespace runlens::widgets::timeline
