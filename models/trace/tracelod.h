#pragma once

#include "models/trace/tracestore.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace runlens::models::trace {

/// Painting index of a TraceStore: for every track, the slices of each depth row in start order, and the
/// value range of counter tracks. Slices on one depth row do not overlap, so a row is sorted by start and
/// by end at once; a painter can jump from one pixel column to the next with a search instead of visiting
/// every slice, which bounds a frame at about one rect per pixel column per row whatever the zoom. Built
/// once per store (O(n), 4 bytes per slice), then read-only and safe to share between threads.
class TraceLod
{
public:
    TraceLod() = default;
    explicit TraceLod(const TraceStore& store);

    /// A coverage summary of one depth row at a fixed bucket width: for each bucket of `bucket` ns from
    /// `origin`, the row position of the first slice overlapping it and that slice's name (kEmpty: none).
    /// Painting at a zoom where a pixel spans at least one bucket reads buckets sequentially instead of
    /// touching slices.
    struct Level
    {
        std::int64_t bucket = 0;
        std::vector<std::uint32_t> position;
        std::vector<StringId> name;
    };
    static constexpr std::uint32_t kEmpty = 0xffffffffu;

    struct TrackRows
    {
        std::vector<std::vector<std::uint32_t>> rows; ///< rows[depth] = slice indices sorted by start
        std::vector<std::vector<Level>> levels; ///< levels[depth], finest first; empty for short rows
        double counterMin = 0; ///< counter tracks: value range (0 included)
        double counterMax = 0;
    };

    /// An index made of its parts, as read back from the index cache (TraceStoreCodec checks them against
    /// the store they index before).
    TraceLod(std::int64_t origin, std::vector<TrackRows> tracks)
        : m_tracks(std::move(tracks))
        , m_origin(origin)
    { }

    const TrackRows& track(int track) const { return m_tracks[std::size_t(track)]; }
    std::int64_t origin() const { return m_origin; } ///< time of bucket 0 of every level
    /// The finest level of a row whose buckets are at most `nsPerPixel` wide, or nullptr (paint slices).
    const Level* levelFor(int track, int depth, double nsPerPixel) const;
    std::size_t trackCount() const { return m_tracks.size(); }

    /// The coverage levels of any start-ordered, non-overlapping list of slices of `track` (a depth row or
    /// a subset of one), finest first, from `origin` to `end`; empty when the list is short enough to walk.
    static std::vector<Level> buildLevels(const Track& track, const std::vector<std::uint32_t>& row,
                                          std::int64_t origin, std::int64_t end);
    /// The finest of `levels` whose buckets are at most `nsPerPixel` wide, or nullptr.
    static const Level* finestLevel(const std::vector<Level>& levels, double nsPerPixel);

    /// First position p >= from in `row` with start >= t, galloping from `from` (cheap for nearby targets).
    static std::size_t lowerBound(const Track& track, const std::vector<std::uint32_t>& row, std::size_t from,
                                  std::int64_t t);
    /// First position in `row` whose slice ends after t (or is an instant at t): where painting starts.
    static std::size_t firstVisible(const Track& track, const std::vector<std::uint32_t>& row, std::int64_t t);
    /// The slice of `row` that contains t, or the nearest one within `tolerance` ns; -1 when none.
    static std::int64_t sliceAt(const Track& track, const std::vector<std::uint32_t>& row, std::int64_t t,
                                std::int64_t tolerance);
    /// First position p >= from in a counter track with counterTime[p] >= t (galloping).
    static std::size_t counterLowerBound(const Track& track, std::size_t from, std::int64_t t);

private:
    std::vector<TrackRows> m_tracks;
    std::int64_t m_origin = 0;
};

} // namespace runlens::models::trace
