#pragma once

#include <QRegularExpression>

#include <atomic>
#include <cstdint>
#include <vector>

namespace runlens::models::trace {
class TraceStore;
}

namespace runlens::widgets::timeline {

/// One search hit: a slice, ordered by start time.
struct TimelineMatch
{
    std::int64_t start = 0;
    int track = -1;
    std::uint32_t index = 0;
};

/// Finds slices whose name matches a regular expression, in time order. The expression is matched once
/// per distinct name (names are interned), then the slices are scanned for matching name ids, so a
/// search over millions of slices costs one pass over integers. Thread-safe on an immutable store;
/// `cancel` is polled between tracks.
std::vector<TimelineMatch> findTimelineMatches(const models::trace::TraceStore& store,
                                               const QRegularExpression& expression,
                                               const std::atomic_bool* cancel = nullptr);

} // namespace runlens::widgets::timeline
