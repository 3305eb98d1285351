#include "models/memory/memoryanalysis.h"

#include <algorithm>
#include <limits>

namespace runlens::models::memory {

using trace::EventKind;
using trace::Track;

MemoryPeak seriesPeak(const MemorySeries& series)
{
    MemoryPeak peak;
    const std::size_t n = std::min(series.x.size(), series.bytes.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (!peak.valid || series.bytes[i] > peak.bytes) {
            peak.valid = true;
            peak.bytes = series.bytes[i];
            peak.x = series.x[i];
            peak.index = i;
        }
    }
    return peak;
}

MemoryPeak devicePeak(const MemoryDevice& device)
{
    if (!device.allocated.empty())
        return seriesPeak(device.allocated);
    if (!device.categories.empty()) {
        // The stacked total: every category curve shares the device's sample times.
        MemorySeries sum;
        for (const MemorySeries& category : device.categories) {
            for (std::size_t i = 0; i < category.size(); ++i) {
                sum.x.push_back(category.x[i]);
                sum.bytes.push_back(0);
            }
        }
        std::sort(sum.x.begin(), sum.x.end());
        sum.x.erase(std::unique(sum.x.begin(), sum.x.end()), sum.x.end());
        sum.bytes.assign(sum.x.size(), 0.0);
        for (std::size_t i = 0; i < sum.x.size(); ++i) {
            for (const MemorySeries& category : device.categories)
                sum.bytes[i] += valueAt(category, sum.x[i]);
        }
        return seriesPeak(sum);
    }
    return seriesPeak(device.reserved);
}

std::optional<std::size_t> sampleAt(const MemorySeries& series, std::int64_t x)
{
    const auto it = std::upper_bound(series.x.begin(), series.x.end(), x);
    if (it == series.x.begin())
        return std::nullopt;
    const std::size_t index = std::size_t(it - series.x.begin()) - 1;
    if (index >= series.bytes.size())
        return std::nullopt;
    return index;
}

double valueAt(const MemorySeries& series, std::int64_t x)
{
    const std::optional<std::size_t> index = sampleAt(series, x);
    return index ? series.bytes[*index] : 0.0;
}

std::array<double, kMemoryCategoryCount> categoryTotalsAt(const MemoryDevice& device, std::int64_t x)
{
    std::array<double, kMemoryCategoryCount> totals {};
    const std::size_t count = std::min<std::size_t>(device.categories.size(), kMemoryCategoryCount);
    for (std::size_t i = 0; i < count; ++i)
        totals[i] = valueAt(device.categories[i], x);
    return totals;
}

namespace {

bool isOp(const Track& track, std::size_t slice)
{
    return track.kind[slice] == EventKind::CpuOp && !(track.flags[slice] & trace::Instant) && track.duration[slice] > 0;
}

/// CPU ops of a track containing x (start <= x < end), outermost first.
std::vector<std::uint32_t> opsContaining(const Track& track, std::int64_t x)
{
    std::vector<std::uint32_t> chain;
    if (track.type != trace::TrackType::Thread || track.size() == 0)
        return chain;
    const auto [first, last] = track.overlapping(x, x);
    for (std::size_t i = first; i < last && i < track.size(); ++i) {
        if (isOp(track, i) && track.start[i] <= x && x < track.end(i))
            chain.push_back(std::uint32_t(i));
    }
    // Track order is (start, longer first): enclosing ops come before what they contain.
    return chain;
}

} // namespace

MemoryContext memoryContextAt(const trace::TraceStore& store, const MemoryDevice& device, std::int64_t x)
{
    MemoryContext context;
    const std::vector<Track>& tracks = store.tracks();
    const auto it = std::upper_bound(device.events.begin(), device.events.end(), x,
                                     [](std::int64_t value, const MemoryEvent& event) { return value < event.x; });
    if (it != device.events.begin()) {
        const int track = std::prev(it)->track;
        if (track >= 0 && std::size_t(track) < tracks.size()) {
            context.chain = opsContaining(tracks[std::size_t(track)], x);
            if (!context.chain.empty())
                context.track = track;
        }
    }
    if (context.chain.empty()) {
        for (std::size_t t = 0; t < tracks.size(); ++t) {
            if (tracks[t].source != device.source)
                continue;
            std::vector<std::uint32_t> chain = opsContaining(tracks[t], x);
            if (chain.size() > context.chain.size()) {
                context.chain = std::move(chain);
                context.track = int(t);
            }
        }
    }
    const std::vector<trace::Step>& steps = store.steps();
    for (int pass = 0; pass < 2 && context.step < 0; ++pass) {
        for (std::size_t s = 0; s < steps.size(); ++s) {
            if ((pass == 1 || steps[s].source == device.source) && steps[s].start <= x && x < steps[s].end) {
                context.step = int(s);
                break;
            }
        }
    }
    return context;
}

QString contextOpName(const trace::TraceStore& store, const MemoryContext& context)
{
    if (!context.hasOp() || std::size_t(context.track) >= store.tracks().size())
        return {};
    const Track& track = store.tracks()[std::size_t(context.track)];
    return store.strings().text(track.name_[context.innermost()]);
}

namespace {

void count(MemoryOpAmounts& amounts, std::int64_t bytes)
{
    if (bytes >= 0) {
        ++amounts.allocations;
        amounts.allocatedBytes += bytes;
    } else {
        ++amounts.frees;
        amounts.freedBytes -= bytes;
    }
}

} // namespace

MemoryOpTable memoryOpTable(const trace::TraceStore& store, const MemoryDevice& device, std::int64_t x0,
                            std::int64_t x1, const std::function<bool()>& cancelled)
{
    MemoryOpTable table;
    const std::vector<Track>& tracks = store.tracks();

    struct Ref
    {
        int track;
        std::uint32_t slice;
        std::int64_t bytes;
    };
    std::vector<Ref> refs;
    refs.reserve(device.events.size());
    for (const MemoryEvent& event : device.events) {
        if (event.x < x0 || event.x > x1)
            continue;
        ++table.events;
        if (event.track < 0 || std::size_t(event.track) >= tracks.size()
            || event.slice >= tracks[std::size_t(event.track)].size()) {
            ++table.unattributed;
            continue;
        }
        refs.push_back({ event.track, event.slice, event.bytes });
    }
    std::sort(refs.begin(), refs.end(),
              [](const Ref& a, const Ref& b) { return a.track != b.track ? a.track < b.track : a.slice < b.slice; });

    std::vector<int> rowOf(store.strings().size(), -1);
    std::vector<std::uint64_t> stamp(store.strings().size(), 0);
    std::uint64_t generation = 0;
    auto row = [&](trace::StringId name) -> MemoryOpStats& {
        if (rowOf[name] < 0) {
            rowOf[name] = int(table.rows.size());
            table.rows.push_back({});
            table.rows.back().name = name;
        }
        return table.rows[std::size_t(rowOf[name])];
    };

    struct Open
    {
        std::uint32_t slice;
        std::int64_t end;
        trace::StringId name;
        bool hadEvent;
    };
    std::vector<Open> stack;
    auto close = [&](const Open& open) {
        if (open.hadEvent)
            ++row(open.name).calls;
    };

    std::size_t r = 0;
    while (r < refs.size()) {
        if (cancelled && cancelled())
            break;
        const Track& track = tracks[std::size_t(refs[r].track)];
        const int trackIndex = refs[r].track;
        stack.clear();
        // One pass over the track's slices in their (start, longer first) order, with the open ops on a
        // stack: each event sees exactly the ops that enclose it.
        // Ops that started more than the track's longest slice before the first event cannot contain it:
        // a zoomed range sweeps only its neighbourhood.
        const std::int64_t firstX = track.start[refs[r].slice];
        const std::int64_t from = firstX > std::numeric_limits<std::int64_t>::min() + track.maxDuration
            ? firstX - track.maxDuration
            : std::numeric_limits<std::int64_t>::min();
        const std::size_t firstSlice
            = std::size_t(std::lower_bound(track.start.begin(), track.start.end(), from) - track.start.begin());
        for (std::size_t s = firstSlice; s < track.size() && r < refs.size() && refs[r].track == trackIndex; ++s) {
            const std::int64_t t = track.start[s];
            while (!stack.empty() && stack.back().end <= t) {
                close(stack.back());
                stack.pop_back();
            }
            if (isOp(track, s))
                stack.push_back({ std::uint32_t(s), track.end(s), track.name_[s], false });
            for (; r < refs.size() && refs[r].track == trackIndex && refs[r].slice == s; ++r) {
                if (stack.empty()) {
                    ++table.unattributed;
                    continue;
                }
                count(row(stack.back().name).self, refs[r].bytes);
                ++generation;
                for (Open& open : stack) {
                    open.hadEvent = true;
                    if (stamp[open.name] != generation) {
                        stamp[open.name] = generation;
                        count(row(open.name).total, refs[r].bytes);
                    }
                }
            }
        }
        while (!stack.empty()) {
            close(stack.back());
            stack.pop_back();
        }
        // Events whose slice was passed over (out of order input) are skipped, never looped on.
        while (r < refs.size() && refs[r].track == trackIndex) {
            ++table.unattributed;
            ++r;
        }
    }
    std::stable_sort(table.rows.begin(), table.rows.end(), [](const MemoryOpStats& a, const MemoryOpStats& b) {
        return a.total.allocatedBytes > b.total.allocatedBytes;
    });
    return table;
}

} // namespace runlens::models::memory
