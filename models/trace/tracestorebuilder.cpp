#include "models/trace/tracestorebuilder.h"

#include "models/trace/tracestorebuilderprivate.h"

#include <algorithm>
#include <limits>

namespace runlens::models::trace {

namespace {

std::int64_t saturatingAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t sum = 0;
    if (!__builtin_add_overflow(a, b, &sum))
        return sum;
    return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

} // namespace

TraceStoreBuilder::TraceStoreBuilder()
    : d(std::make_unique<Private>())
{ }

TraceStoreBuilder::~TraceStoreBuilder() = default;

int TraceStoreBuilder::addSource(const QString& path, std::shared_ptr<const TraceBuffer> input)
{
    TraceSource source;
    source.path = path;
    source.input = std::move(input);
    d->store->m_sources.push_back(std::move(source));
    return int(d->store->m_sources.size() - 1);
}

TraceSource& TraceStoreBuilder::source(int index)
{
    return d->store->m_sources[std::size_t(index)];
}

StringTable& TraceStoreBuilder::strings()
{
    return d->store->m_strings;
}

int TraceStoreBuilder::process(int source, std::int64_t pid)
{
    auto [it, inserted] = d->processes.try_emplace({ source, pid }, 0);
    if (inserted) {
        Process process;
        process.pid = pid;
        process.source = source;
        if (source >= 0 && std::size_t(source) < d->store->m_sources.size())
            process.rank = d->store->m_sources[std::size_t(source)].rank;
        d->store->m_processes.push_back(std::move(process));
        it->second = int(d->store->m_processes.size() - 1);
    }
    return it->second;
}

void TraceStoreBuilder::setProcessName(int process, std::string_view name)
{
    d->store->m_processes[std::size_t(process)].name = d->store->m_strings.intern(name);
}

void TraceStoreBuilder::setProcessIdIsName(int process)
{
    d->store->m_processes[std::size_t(process)].namedId = true;
}

void TraceStoreBuilder::setProcessLabels(int process, std::string_view labels)
{
    d->store->m_processes[std::size_t(process)].labels = d->store->m_strings.intern(labels);
}

void TraceStoreBuilder::setProcessSortIndex(int process, int sortIndex)
{
    d->store->m_processes[std::size_t(process)].sortIndex = sortIndex;
}

int TraceStoreBuilder::threadTrack(int process, std::int64_t tid, TrackType type)
{
    auto [it, inserted] = d->threads.try_emplace({ process, tid }, 0);
    if (inserted) {
        it->second = d->newTrack(process, tid, type);
    } else if (type == TrackType::GpuStream) {
        // Metadata may name a stream before any kernel shows it is one.
        d->store->m_tracks[std::size_t(it->second)].type = TrackType::GpuStream;
    }
    return it->second;
}

void TraceStoreBuilder::setTrackName(int track, std::string_view name)
{
    d->store->m_tracks[std::size_t(track)].name = d->store->m_strings.intern(name);
}

void TraceStoreBuilder::setTrackIdIsName(int track)
{
    d->store->m_tracks[std::size_t(track)].namedId = true;
}

void TraceStoreBuilder::setTrackSortIndex(int track, int sortIndex)
{
    d->store->m_tracks[std::size_t(track)].sortIndex = sortIndex;
    d->explicitSortIndex[std::size_t(track)] = 1;
}

int TraceStoreBuilder::counterTrack(int process, std::string_view name)
{
    const StringId id = d->store->m_strings.intern(name);
    auto [it, inserted] = d->counters.try_emplace({ process, std::int64_t(id) }, 0);
    if (inserted) {
        it->second = d->newTrack(process, 0, TrackType::Counter);
        Track& track = d->store->m_tracks[std::size_t(it->second)];
        track.name = id;
        track.sortIndex = 0;
    }
    return it->second;
}

int TraceStoreBuilder::asyncTrack(int process, std::string_view category, std::uint64_t id)
{
    const StringId cat = d->store->m_strings.intern(category);
    Private::KeyMap& byId = d->asyncs[{ process, std::int64_t(cat) }];
    auto [it, inserted] = byId.try_emplace({ std::int64_t(id), 0 }, 0);
    if (inserted) {
        it->second = d->newTrack(process, std::int64_t(id), TrackType::Async);
        Track& track = d->store->m_tracks[std::size_t(it->second)];
        track.name = cat;
        track.sortIndex = 0;
    }
    return it->second;
}

void TraceStoreBuilder::addSlice(int track, std::int64_t startNs, std::int64_t durationNs, StringId name,
                                 StringId category, EventKind kind, ArgsRef args, std::uint8_t flags)
{
    Track& t = d->store->m_tracks[std::size_t(track)];
    if (durationNs < 0)
        durationNs = 0;
    t.start.push_back(startNs);
    t.duration.push_back(durationNs);
    t.name_.push_back(name);
    t.category.push_back(category);
    t.kind.push_back(kind);
    t.flags.push_back(flags);
    t.args.push_back(args);
}

void TraceStoreBuilder::addCounter(int track, std::int64_t timeNs, double value)
{
    Track& t = d->store->m_tracks[std::size_t(track)];
    t.counterTime.push_back(timeNs);
    t.counterValue.push_back(value);
}

void TraceStoreBuilder::addFlowPoint(int track, std::int64_t timeNs, std::uint64_t id, StringId category, char phase,
                                     bool bindEnclosing)
{
    d->flowPoints.push_back({ track, timeNs, id, category, phase, bindEnclosing, std::uint32_t(d->flowPoints.size()) });
}

void TraceStoreBuilder::setCorrelation(int track, std::int64_t startNs, std::uint64_t correlation)
{
    d->correlations.push_back({ track, startNs, correlation });
}

void TraceStoreBuilder::setExternalId(int track, std::int64_t startNs, std::uint64_t externalId)
{
    d->externalIds.push_back({ track, startNs, externalId });
}

void TraceStoreBuilder::shiftSource(int source, std::int64_t deltaNs)
{
    std::vector<std::uint8_t> shifted(d->store->m_tracks.size(), 0);
    for (std::size_t i = 0; i < d->store->m_tracks.size(); ++i) {
        Track& track = d->store->m_tracks[i];
        if (track.source != source)
            continue;
        shifted[i] = 1;
        for (std::int64_t& t : track.start)
            t = saturatingAdd(t, deltaNs);
        for (std::int64_t& t : track.counterTime)
            t = saturatingAdd(t, deltaNs);
    }
    for (Private::FlowPoint& point : d->flowPoints) {
        if (shifted[std::size_t(point.track)])
            point.time = saturatingAdd(point.time, deltaNs);
    }
    for (auto* list : { &d->correlations, &d->externalIds }) {
        for (Private::Correlation& corr : *list) {
            if (shifted[std::size_t(corr.track)])
                corr.start = saturatingAdd(corr.start, deltaNs);
        }
    }
}

namespace {

void setTimeRange(const std::vector<Track>& tracks, std::int64_t& start, std::int64_t& end)
{
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const Track& track : tracks) {
        if (!track.start.empty()) {
            first = std::min(first, track.start.front());
            for (std::size_t i = 0; i < track.size(); ++i)
                last = std::max(last, track.end(i));
        }
        if (!track.counterTime.empty()) {
            first = std::min(first, track.counterTime.front());
            last = std::max(last, track.counterTime.back());
        }
    }
    if (first > last) {
        first = 0;
        last = 0;
    }
    start = first;
    end = last;
}

template<typename T> void copyPrefix(std::vector<T>& to, const std::vector<T>& from, std::size_t n)
{
    to.assign(from.begin(), from.begin() + std::ptrdiff_t(std::min(n, from.size())));
}

} // namespace

std::size_t TraceStoreBuilder::eventCount() const
{
    std::size_t total = 0;
    for (const Track& t : d->store->m_tracks)
        total += t.start.size() + t.counterTime.size();
    return total;
}

std::shared_ptr<const TraceStore> TraceStoreBuilder::snapshot(std::size_t maxEvents) const
{
    const TraceStore& from = *d->store;
    const std::size_t total = eventCount();
    // Past the budget every track keeps the same share of what it has: the start of each is painted.
    const double keep = total > maxEvents ? double(maxEvents) / double(total) : 1.0;
    auto prefix = [keep](std::size_t n) { return keep < 1.0 ? std::size_t(double(n) * keep) : n; };
    Private p;
    TraceStore& to = *p.store;
    // A fresh table: the builder's index keeps changing while the snapshot is read on another thread.
    for (std::size_t i = 1; i < from.m_strings.size(); ++i)
        to.m_strings.intern(from.m_strings.view(StringId(i)));
    to.m_processes = from.m_processes;
    to.m_sources = from.m_sources;
    to.m_tracks.reserve(from.m_tracks.size());
    for (const Track& t : from.m_tracks) {
        Track c;
        c.type = t.type;
        c.process = t.process;
        c.tid = t.tid;
        c.name = t.name;
        c.namedId = t.namedId;
        c.sortIndex = t.sortIndex;
        c.source = t.source;
        const std::size_t n = prefix(t.start.size());
        copyPrefix(c.start, t.start, n);
        copyPrefix(c.duration, t.duration, n);
        copyPrefix(c.name_, t.name_, n);
        copyPrefix(c.category, t.category, n);
        copyPrefix(c.kind, t.kind, n);
        copyPrefix(c.flags, t.flags, n);
        copyPrefix(c.args, t.args, n);
        const std::size_t m = prefix(t.counterTime.size());
        copyPrefix(c.counterTime, t.counterTime, m);
        copyPrefix(c.counterValue, t.counterValue, m);
        to.m_tracks.push_back(std::move(c));
    }
    p.explicitSortIndex = d->explicitSortIndex;
    p.sortTracks();
    p.orderProcessesAndTracks();
    setTimeRange(to.m_tracks, to.m_start, to.m_end);
    return std::shared_ptr<const TraceStore>(p.store.release());
}

std::shared_ptr<const TraceStore> TraceStoreBuilder::finish()
{
    Private& p = *d;
    p.sortTracks();
    p.orderProcessesAndTracks();
    p.resolveFlows();
    p.resolveCorrelations();
    p.resolveExternalIds();
    p.findSteps();

    TraceStore& s = *p.store;
    setTimeRange(s.m_tracks, s.m_start, s.m_end);
    Private::shrink(s.m_flows);

    std::shared_ptr<const TraceStore> result(p.store.release());
    d = std::make_unique<Private>();
    return result;
}

} // namespace runlens::models::trace
