#include "widgets/timeline/timelinesearch.h"

#include "models/trace/tracestore.h"

#include <algorithm>

namespace runlens::widgets::timeline {

std::vector<TimelineMatch> findTimelineMatches(const models::trace::TraceStore& store,
                                               const QRegularExpression& expression, const std::atomic_bool* cancel)
{
    std::vector<TimelineMatch> matches;
    if (!expression.isValid() || expression.pattern().isEmpty())
        return matches;
    const auto& strings = store.strings();
    std::vector<std::uint8_t> nameMatches(strings.size(), 0);
    for (std::size_t id = 1; id < strings.size(); ++id) {
        if ((id & 0xfff) == 0 && cancel && cancel->load(std::memory_order_relaxed))
            return {};
        if (expression.match(strings.text(models::trace::StringId(id))).hasMatch())
            nameMatches[id] = 1;
    }
    const auto& tracks = store.tracks();
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return {};
        const models::trace::Track& track = tracks[t];
        for (std::size_t i = 0; i < track.size(); ++i) {
            const models::trace::StringId id = track.name_[i];
            if (id < nameMatches.size() && nameMatches[id])
                matches.push_back({ track.start[i], int(t), std::uint32_t(i) });
        }
    }
    std::sort(matches.begin(), matches.end(), [](const TimelineMatch& a, const TimelineMatch& b) {
        return std::tie(a.start, a.track, a.index) < std::tie(b.start, b.track, b.index);
    });
    return matches;
}

} // namespace runlens::widgets::timeline
