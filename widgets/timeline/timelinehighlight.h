#pragma once

#include "models/trace/tracelod.h"
#include "widgets/timeline/timelinesearch.h"

#include <cstdint>
#include <vector>

namespace runlens::models::trace {
class TraceStore;
}

namespace runlens::widgets::timeline {

/// The slices a search or an operator selection highlights, arranged for painting: per track and depth
/// row, the highlighted slices in start order (the shape of a TraceLod row, so the painter walks them with
/// the same per-pixel-column jumps, or through coverage levels of their own when a row holds thousands of
/// them, so a frame stays bounded however many slices match), and the start
/// times of all of them in order for the tick marks on the ruler. Built once per search, then read-only.
class TimelineHighlight
{
public:
    using Rows = std::vector<std::vector<std::uint32_t>>;

    TimelineHighlight() = default;
    TimelineHighlight(const models::trace::TraceStore& store, const std::vector<TimelineMatch>& matches);

    bool isEmpty() const { return m_count == 0; }
    std::size_t count() const { return m_count; }
    /// rows(track)[depth]: highlighted slices of that row in start order; empty when the track has none.
    const Rows& rows(int track) const;
    bool hasTrack(int track) const { return !rows(track).empty(); }
    /// Coverage levels of rows(track)[depth] (positions index that list), finest first; empty for short rows.
    const std::vector<models::trace::TraceLod::Level>& levels(int track, int depth) const;
    /// Start times of every highlighted slice, ascending.
    const std::vector<std::int64_t>& starts() const { return m_starts; }
    /// Whether slice `index` of `track` is highlighted (binary search in its row).
    bool contains(const models::trace::TraceStore& store, int track, std::uint32_t index) const;

private:
    std::vector<Rows> m_tracks;
    std::vector<std::vector<std::vector<models::trace::TraceLod::Level>>> m_levels; ///< [track][depth]
    std::vector<std::int64_t> m_starts;
    std::size_t m_count = 0;
};

} // namespace runlens::widgets::timeline
