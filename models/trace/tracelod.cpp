#include "models/trace/tracelod.h"

#include <algorithm>

namespace runlens::models::trace {

TraceLod::TraceLod(const TraceStore& store)
    : m_origin(store.startTime())
{
    const auto& tracks = store.tracks();
    m_tracks.resize(tracks.size());
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        const Track& track = tracks[t];
        TrackRows& out = m_tracks[t];
        if (!track.counterValue.empty()) {
            const auto [lo, hi] = std::minmax_element(track.counterValue.begin(), track.counterValue.end());
            out.counterMin = std::min(0.0, *lo);
            out.counterMax = std::max(0.0, *hi);
        }
        const std::size_t n = track.size();
        if (n == 0)
            continue;
        int maxDepth = 0;
        for (std::uint16_t d : track.depth)
            maxDepth = std::max<int>(maxDepth, d);
        std::vector<std::size_t> counts(std::size_t(maxDepth) + 1, 0);
        for (std::uint16_t d : track.depth)
            ++counts[d];
        out.rows.resize(counts.size());
        for (std::size_t d = 0; d < counts.size(); ++d)
            out.rows[d].reserve(counts[d]);
        for (std::size_t i = 0; i < n; ++i)
            out.rows[track.depth[i]].push_back(std::uint32_t(i));
        out.levels.resize(out.rows.size());
        for (std::size_t d = 0; d < out.rows.size(); ++d)
            out.levels[d] = buildLevels(track, out.rows[d], m_origin, store.endTime());
    }
}

std::vector<TraceLod::Level> TraceLod::buildLevels(const Track& track, const std::vector<std::uint32_t>& row,
                                                   std::int64_t origin, std::int64_t end)
{
    constexpr std::size_t kMinimumSlices = 4096; // shorter rows are cheap to walk slice by slice
    constexpr std::size_t kCoarsest = 64; // buckets of the coarsest level
    constexpr int kFactor = 4;
    std::vector<Level> levels;
    const std::int64_t span = end - origin;
    if (row.size() < kMinimumSlices || span <= 0)
        return levels;
    // Level 0: about one bucket per two slices, a power of two wide.
    std::int64_t bucket = 1;
    while (bucket < 2 * (span / std::int64_t(row.size())))
        bucket *= 2;
    Level level0;
    level0.bucket = bucket;
    const std::size_t count = std::size_t(span / bucket) + 1;
    level0.position.assign(count, kEmpty);
    level0.name.assign(count, kNoString);
    for (std::size_t p = 0; p < row.size(); ++p) {
        const std::uint32_t i = row[p];
        const std::int64_t first = std::max<std::int64_t>(0, (track.start[i] - origin) / bucket);
        const std::int64_t last = std::min<std::int64_t>(std::int64_t(count) - 1, (track.end(i) - origin) / bucket);
        for (std::int64_t b = first; b <= last; ++b) {
            if (level0.position[std::size_t(b)] == kEmpty) {
                level0.position[std::size_t(b)] = std::uint32_t(p);
                level0.name[std::size_t(b)] = track.name_[i];
            }
        }
    }
    levels.push_back(std::move(level0));
    while (levels.back().position.size() > kCoarsest) {
        const Level& fine = levels.back();
        Level coarse;
        coarse.bucket = fine.bucket * kFactor;
        const std::size_t n = (fine.position.size() + kFactor - 1) / kFactor;
        coarse.position.assign(n, kEmpty);
        coarse.name.assign(n, kNoString);
        for (std::size_t b = 0; b < fine.position.size(); ++b) {
            const std::size_t c = b / kFactor;
            if (coarse.position[c] == kEmpty && fine.position[b] != kEmpty) {
                coarse.position[c] = fine.position[b];
                coarse.name[c] = fine.name[b];
            }
        }
        levels.push_back(std::move(coarse));
    }
    return levels;
}

const TraceLod::Level* TraceLod::levelFor(int track, int depth, double nsPerPixel) const
{
    const auto& levels = m_tracks[std::size_t(track)].levels;
    if (std::size_t(depth) >= levels.size())
        return nullptr;
    return finestLevel(levels[std::size_t(depth)], nsPerPixel);
}

const TraceLod::Level* TraceLod::finestLevel(const std::vector<Level>& levels, double nsPerPixel)
{
    const Level* best = nullptr;
    for (const Level& level : levels) {
        if (double(level.bucket) > nsPerPixel)
            break;
        best = &level;
    }
    return best;
}

std::size_t TraceLod::lowerBound(const Track& track, const std::vector<std::uint32_t>& row, std::size_t from,
                                 std::int64_t t)
{
    const std::size_t n = row.size();
    if (from >= n || track.start[row[from]] >= t)
        return from;
    // Gallop: double the step until we pass t, then binary search the last interval.
    std::size_t lo = from;
    std::size_t step = 1;
    std::size_t hi = from + 1;
    while (hi < n && track.start[row[hi]] < t) {
        lo = hi;
        step *= 2;
        hi = from + step;
    }
    hi = std::min(hi, n);
    auto first = row.begin() + std::ptrdiff_t(lo + 1);
    auto last = row.begin() + std::ptrdiff_t(hi);
    return std::size_t(std::partition_point(first, last, [&](std::uint32_t i) { return track.start[i] < t; })
                       - row.begin());
}

std::size_t TraceLod::firstVisible(const Track& track, const std::vector<std::uint32_t>& row, std::int64_t t)
{
    const std::size_t p = lowerBound(track, row, 0, t);
    if (p > 0 && track.end(row[p - 1]) >= t)
        return p - 1;
    return p;
}

std::int64_t TraceLod::sliceAt(const Track& track, const std::vector<std::uint32_t>& row, std::int64_t t,
                               std::int64_t tolerance)
{
    if (row.empty())
        return -1;
    const std::size_t p = lowerBound(track, row, 0, t + 1); // first start > t
    std::int64_t best = -1;
    std::int64_t bestDistance = tolerance + 1;
    auto consider = [&](std::size_t pos) {
        const std::uint32_t i = row[pos];
        const std::int64_t s = track.start[i];
        const std::int64_t e = track.end(i);
        const std::int64_t distance = t < s ? s - t : (t > e ? t - e : 0);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = i;
        }
    };
    if (p > 0)
        consider(p - 1);
    if (p < row.size())
        consider(p);
    return best;
}

std::size_t TraceLod::counterLowerBound(const Track& track, std::size_t from, std::int64_t t)
{
    const auto& time = track.counterTime;
    const std::size_t n = time.size();
    if (from >= n || time[from] >= t)
        return from;
    std::size_t lo = from;
    std::size_t step = 1;
    std::size_t hi = from + 1;
    while (hi < n && time[hi] < t) {
        lo = hi;
        step *= 2;
        hi = from + step;
    }
    hi = std::min(hi, n);
    return std::size_t(std::lower_bound(time.begin() + std::ptrdiff_t(lo + 1), time.begin() + std::ptrdiff_t(hi), t)
                       - time.begin());
}

} // namespace runlens::models::trace
