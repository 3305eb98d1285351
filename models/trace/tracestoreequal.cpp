#include "models/trace/tracelod.h"
#include "models/trace/tracestorecodec.h"

#include <cstring>

// Field-by-field comparison of stores and level-of-detail indexes: how the tests and the fuzz target
// tell that a store read back from the index cache is the one that was written.

namespace runlens::models::trace {

namespace {

template<typename T> bool sameBytes(const std::vector<T>& a, const std::vector<T>& b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

} // namespace

bool TraceStoreCodec::equal(const TraceStore& a, const TraceStore& b, QString* difference)
{
    auto differ = [difference](const QString& what) {
        if (difference)
            *difference = what;
        return false;
    };
    if (a.startTime() != b.startTime() || a.endTime() != b.endTime())
        return differ(QStringLiteral("time range"));
    if (a.strings().size() != b.strings().size())
        return differ(QStringLiteral("string count"));
    for (std::size_t i = 0; i < a.strings().size(); ++i) {
        if (a.strings().view(StringId(i)) != b.strings().view(StringId(i)))
            return differ(QStringLiteral("string %1").arg(i));
    }
    if (a.sources().size() != b.sources().size())
        return differ(QStringLiteral("source count"));
    for (std::size_t i = 0; i < a.sources().size(); ++i) {
        const TraceSource& x = a.sources()[i];
        const TraceSource& y = b.sources()[i];
        const std::string_view xin = x.input ? x.input->view() : std::string_view();
        const std::string_view yin = y.input ? y.input->view() : std::string_view();
        if (x.path != y.path || x.metadataJson != y.metadataJson || x.baseTimeNs != y.baseTimeNs || x.rank != y.rank
            || std::memcmp(x.eventsByPhase, y.eventsByPhase, sizeof x.eventsByPhase) != 0 || x.events != y.events
            || x.memoryEvents != y.memoryEvents || x.sentinelEvents != y.sentinelEvents || xin != yin)
            return differ(QStringLiteral("source %1").arg(i));
    }
    if (a.processes().size() != b.processes().size())
        return differ(QStringLiteral("process count"));
    for (std::size_t i = 0; i < a.processes().size(); ++i) {
        const Process& x = a.processes()[i];
        const Process& y = b.processes()[i];
        if (x.pid != y.pid || x.name != y.name || x.labels != y.labels || x.sortIndex != y.sortIndex
            || x.source != y.source || x.rank != y.rank || x.device != y.device || x.namedId != y.namedId
            || x.tracks != y.tracks)
            return differ(QStringLiteral("process %1").arg(i));
    }
    if (a.tracks().size() != b.tracks().size())
        return differ(QStringLiteral("track count"));
    for (std::size_t i = 0; i < a.tracks().size(); ++i) {
        const Track& x = a.tracks()[i];
        const Track& y = b.tracks()[i];
        if (x.type != y.type || x.process != y.process || x.tid != y.tid || x.name != y.name || x.namedId != y.namedId
            || x.sortIndex != y.sortIndex || x.source != y.source || x.maxDuration != y.maxDuration
            || x.maxDepth != y.maxDepth)
            return differ(QStringLiteral("track %1 header").arg(i));
        if (!sameBytes(x.start, y.start) || !sameBytes(x.duration, y.duration) || !sameBytes(x.name_, y.name_)
            || !sameBytes(x.category, y.category) || !sameBytes(x.kind, y.kind) || !sameBytes(x.depth, y.depth)
            || !sameBytes(x.flags, y.flags) || !sameBytes(x.args, y.args) || !sameBytes(x.counterTime, y.counterTime)
            || !sameBytes(x.counterValue, y.counterValue))
            return differ(QStringLiteral("track %1 slices").arg(i));
    }
    if (a.flows().size() != b.flows().size())
        return differ(QStringLiteral("flow count"));
    for (std::size_t i = 0; i < a.flows().size(); ++i) {
        const Flow& x = a.flows()[i];
        const Flow& y = b.flows()[i];
        if (x.fromTrack != y.fromTrack || x.fromSlice != y.fromSlice || x.toTrack != y.toTrack || x.toSlice != y.toSlice
            || x.category != y.category || x.id != y.id)
            return differ(QStringLiteral("flow %1").arg(i));
    }
    if (a.steps().size() != b.steps().size())
        return differ(QStringLiteral("step count"));
    for (std::size_t i = 0; i < a.steps().size(); ++i) {
        const Step& x = a.steps()[i];
        const Step& y = b.steps()[i];
        if (x.number != y.number || x.start != y.start || x.end != y.end || x.source != y.source || x.track != y.track
            || x.slice != y.slice)
            return differ(QStringLiteral("step %1").arg(i));
    }
    return true;
}

bool TraceStoreCodec::equal(const TraceLod& a, const TraceLod& b, QString* difference)
{
    auto differ = [difference](const QString& what) {
        if (difference)
            *difference = what;
        return false;
    };
    if (a.origin() != b.origin() || a.trackCount() != b.trackCount())
        return differ(QStringLiteral("painting index header"));
    for (std::size_t t = 0; t < a.trackCount(); ++t) {
        const TraceLod::TrackRows& x = a.track(int(t));
        const TraceLod::TrackRows& y = b.track(int(t));
        if (x.counterMin != y.counterMin || x.counterMax != y.counterMax || x.rows != y.rows
            || x.levels.size() != y.levels.size())
            return differ(QStringLiteral("painting index track %1").arg(t));
        for (std::size_t d = 0; d < x.levels.size(); ++d) {
            if (x.levels[d].size() != y.levels[d].size())
                return differ(QStringLiteral("painting index track %1 levels").arg(t));
            for (std::size_t l = 0; l < x.levels[d].size(); ++l) {
                const TraceLod::Level& p = x.levels[d][l];
                const TraceLod::Level& q = y.levels[d][l];
                if (p.bucket != q.bucket || p.position != q.position || p.name != q.name)
                    return differ(QStringLiteral("painting index track %1 level %2").arg(t).arg(l));
            }
        }
    }
    return true;
}

} // namespace runlens::models::trace
