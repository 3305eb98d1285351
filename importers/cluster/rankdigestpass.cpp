#include "importers/cluster/rankdigestpass.h"

#include "importers/core/filemapping.h"
#include "importers/memory/tracememory.h"
#include "importers/trace/jsonscan.h"
#include "importers/trace/traceinput.h"
#include "importers/trace/tracevalues.h"
#include "models/cluster/kinetocluster.h"
#include "models/memory/memoryanalysis.h"
#include "models/trace/launchindex.h"
#include "models/trace/stepbreakdown.h"
#include "models/trace/tracestorebuilder.h"

#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <deque>
#include <limits>
#include <numeric>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

// Why a second reader: the store path parses every event into a trace store (names, args references,
// depths, flows, a painting index) that the digest mostly ignores, and a job of many large ranks spends
// most of its time there. This pass keeps, per slice, only its span, name, kind and args text, and runs the
// same rules on them as the store and its analyses do (the step breakdown, the launch index, the operator
// statistics, kinetoRankFigures). Where those rules would depend on what the store alone knows (the order
// of its tracks, its string ids of names interned elsewhere), the pass declines rather than guess.

namespace runlens::importers::cluster {

namespace {

namespace od = simdjson::ondemand;
using models::trace::EventKind;

std::atomic<std::uint64_t> g_taken { 0 };
std::atomic<std::uint64_t> g_declined { 0 };

constexpr std::int64_t kAbsurdNs = std::int64_t(7) * 24 * 3600 * 1000'000'000; // as the trace reader
constexpr std::int64_t kTimeBound = std::int64_t(1) << 61; // ts and base each: their sum stays in range
constexpr std::int64_t kDurationLimitNs = std::int64_t(1) << 60;
constexpr double kNsPerMs = 1e6;
constexpr std::size_t kReservedTracks = 4;
constexpr std::size_t kReserveBytesPerSlice = 256;

double toMs(std::int64_t ns)
{
    return double(ns) / kNsPerMs;
}

struct Slice
{
    std::int64_t start;
    std::int64_t duration;
    const char* args; ///< the args object's text, or null
    std::uint32_t argsLength;
    std::uint32_t name; ///< index into Names, in first-seen order (the store's string id order)
    EventKind kind;
    std::uint8_t flags;
    bool stepMarker; ///< a kept ProfilerStep#N slice (left out of the step breakdown's categories)

    std::int64_t end() const { return start + duration; }
    std::string_view argsText() const { return args ? std::string_view(args, argsLength) : std::string_view(); }
};

bool countsForStatistics(const Slice& s)
{
    return s.duration > 0
        && !(s.flags & (models::trace::SliceFlag::Instant | models::trace::SliceFlag::AbsurdDuration));
}

bool usable(const Slice& s)
{
    return !(s.flags & (models::trace::SliceFlag::Instant | models::trace::SliceFlag::AbsurdDuration));
}

struct Track
{
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    bool device = false; ///< a GPU stream: some device event lies on it
    bool named = false; ///< a name was interned for it (its string tid, its thread_name)
    std::vector<Slice> slices;
    std::int64_t maxDuration = 0;
    bool fileOrder = true; ///< the slices needed no sorting: indices read in file order still hold
};

// The bounds the store's lookups take, searched first near `hint` (joins are read next to the slices they
// name, so this is nearly always a few steps), else by bisection.
std::size_t lowerBound(const Track& track, std::int64_t time, std::size_t hint)
{
    const auto& v = track.slices;
    if (track.fileOrder && hint <= v.size()) {
        std::size_t i = hint;
        for (int steps = 0; steps < 8; ++steps) {
            const bool left = i == 0 || v[i - 1].start < time;
            const bool right = i == v.size() || v[i].start >= time;
            if (left && right)
                return i;
            if (!left)
                --i;
            else
                ++i;
        }
    }
    return std::size_t(
        std::lower_bound(v.begin(), v.end(), time, [](const Slice& s, std::int64_t t) { return s.start < t; })
        - v.begin());
}

std::size_t upperBound(const Track& track, std::int64_t time, std::size_t hint)
{
    const auto& v = track.slices;
    if (track.fileOrder && hint <= v.size()) {
        std::size_t i = hint;
        for (int steps = 0; steps < 8; ++steps) {
            const bool left = i == 0 || v[i - 1].start <= time;
            const bool right = i == v.size() || v[i].start > time;
            if (left && right)
                return i;
            if (!left)
                --i;
            else
                ++i;
        }
    }
    return std::size_t(
        std::upper_bound(v.begin(), v.end(), time, [](std::int64_t t, const Slice& s) { return t < s.start; })
        - v.begin());
}

/// Names in the order the store would intern them, so ties broken by string id break the same way.
/// Views into the trace (or the pass's parser, which lives as long) are kept as they are; text from a
/// parser that is reused for the next document is copied first.
class Names
{
public:
    std::uint32_t intern(std::string_view text)
    {
        auto [it, inserted] = m_index.try_emplace(text, std::uint32_t(m_texts.size()));
        if (inserted)
            m_texts.push_back(text);
        return it->second;
    }
    std::uint32_t internCopy(std::string_view text)
    {
        if (const auto it = m_index.find(text); it != m_index.end())
            return it->second;
        return intern(m_owned.emplace_back(text));
    }
    std::string_view view(std::uint32_t id) const { return m_texts[id]; }
    std::size_t size() const { return m_texts.size(); }

private:
    std::unordered_map<std::string_view, std::uint32_t> m_index;
    std::vector<std::string_view> m_texts;
    std::deque<std::string> m_owned; ///< a deque: its strings never move
};

struct FlowPoint
{
    int track;
    std::int64_t time;
    std::uint64_t id;
    std::uint32_t category;
    char phase;
    bool bindEnclosing;
    std::uint32_t sequence;
    std::uint32_t hint; ///< the track's slice count when the point was read: where its slice likely is
};

struct IdPoint
{
    int track;
    std::int64_t start;
    std::uint64_t id;
    std::uint32_t hint; ///< the index of the slice that carried it, in file order
};

struct Launch
{
    int hostTrack;
    std::uint32_t hostSlice;
    int deviceTrack;
    std::uint32_t deviceSlice;
};

struct Interval
{
    std::int64_t start;
    std::int64_t end;
};

void mergeIntervals(std::vector<Interval>& intervals)
{
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::size_t out = 0;
    for (const Interval& iv : intervals) {
        if (out > 0 && iv.start <= intervals[out - 1].end)
            intervals[out - 1].end = std::max(intervals[out - 1].end, iv.end);
        else
            intervals[out++] = iv;
    }
    intervals.resize(out);
}

/// Length of a merged list within [t0, t1).
std::int64_t lengthWithin(const std::vector<Interval>& merged, std::int64_t t0, std::int64_t t1)
{
    auto it = std::upper_bound(merged.begin(), merged.end(), t0,
                               [](std::int64_t t, const Interval& iv) { return t < iv.end; });
    std::int64_t sum = 0;
    for (; it != merged.end() && it->start < t1; ++it)
        sum += std::min(it->end, t1) - std::max(it->start, t0);
    return sum;
}

/// `a` minus `b`, both merged.
std::vector<Interval> subtract(const std::vector<Interval>& a, const std::vector<Interval>& b)
{
    std::vector<Interval> out;
    std::size_t j = 0;
    for (const Interval& iv : a) {
        std::int64_t from = iv.start;
        while (j < b.size() && b[j].end <= from)
            ++j;
        std::size_t k = j;
        for (; k < b.size() && b[k].start < iv.end; ++k) {
            if (b[k].start > from)
                out.push_back({ from, b[k].start });
            from = std::max(from, b[k].end);
            if (from >= iv.end)
                break;
        }
        if (from < iv.end)
            out.push_back({ from, iv.end });
    }
    return out;
}

/// The large arrays of a pass, kept by each worker thread for its next trace: a job's ranks are alike, so
/// the next pass finds its memory allocated and faulted in instead of mapping it afresh.
struct Scratch
{
    std::vector<std::vector<Slice>> slices;
    std::vector<FlowPoint> flowPoints;
    std::vector<IdPoint> correlations;
    std::vector<IdPoint> externalIds;
};
thread_local Scratch t_scratch;

bool isDeviceKind(EventKind kind) // the trace store builder's rule for joins
{
    return kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset
        || kind == EventKind::Communication || kind == EventKind::GpuAnnotation;
}

/// The fields of one event the pass reads, as the trace reader reads them.
struct EventFields
{
    std::string_view ph, name, cat, bp, args;
    trace::Ident pid, tid;
    std::int64_t ts = 0, dur = 0;
    bool hasTs = false, hasDur = false, hasId = false;
    std::uint64_t id = 0;
    int fields = 0;
};

class SinglePass
{
public:
    SinglePass(const char* data, std::size_t size, std::size_t capacity)
        : m_data(data)
        , m_size(size)
        , m_bufferEnd(data + capacity)
    {
        m_flowPoints.swap(t_scratch.flowPoints);
        m_correlations.swap(t_scratch.correlations);
        m_externalIds.swap(t_scratch.externalIds);
    }
    ~SinglePass()
    {
        m_flowPoints.clear();
        m_correlations.clear();
        m_externalIds.clear();
        m_flowPoints.swap(t_scratch.flowPoints);
        m_correlations.swap(t_scratch.correlations);
        m_externalIds.swap(t_scratch.externalIds);
        for (Track& track : m_tracks) {
            if (track.slices.capacity() > 0 && t_scratch.slices.size() < kReservedTracks) {
                track.slices.clear();
                t_scratch.slices.push_back(std::move(track.slices));
            }
        }
    }
    SinglePass(const SinglePass&) = delete;
    SinglePass& operator=(const SinglePass&) = delete;

    bool run(const models::cluster::RankDigestOptions& options, const trace::TraceInput& input, const QString& path,
             models::cluster::RankDigest& digest);
    QString why;

private:
    bool decline(const char* reason)
    {
        if (why.isEmpty())
            why = QString::fromLatin1(reason);
        return false;
    }
    bool parse();
    bool readEvent(od::object& object, EventFields& e);
    bool handleEvent(const EventFields& e);
    bool handleMeta(std::string_view key, std::string_view value);
    bool applyMetadata(const EventFields& e);
    int trackFor(const trace::Ident& pid, const trace::Ident& tid);
    void processFor(const trace::Ident& pid);

    // After the pass, on the slices kept.
    void sortTracks();
    static std::int64_t enclosingSlice(const Track& track, std::int64_t time, std::size_t hint);
    static std::int64_t sliceAtOrAfter(const Track& track, std::int64_t time, std::size_t hint);
    static std::int64_t sliceStartingAt(const Track& track, std::int64_t time, std::size_t hint);
    bool launches(std::vector<Launch>& out);
    bool findSteps(std::vector<models::trace::StepTimes>& steps);

    const char* m_data;
    std::size_t m_size;
    const char* m_bufferEnd;
    od::parser m_argsParser;

    Names m_names;
    struct KindCache
    {
        std::uint32_t category = 0;
        EventKind kind = EventKind::Other;
        bool device = false;
        bool valid = false;
    };
    std::vector<KindCache> m_kinds;
    std::vector<Track> m_tracks;
    std::unordered_map<std::int64_t, std::unordered_map<std::int64_t, int>> m_trackIndex;
    std::unordered_map<std::int64_t, bool> m_processNamed; ///< per pid: a name was interned for it
    trace::NamedIds m_namedIds;
    int m_lastTrack = -1;
    std::vector<FlowPoint> m_flowPoints;
    std::vector<IdPoint> m_correlations;
    std::vector<IdPoint> m_externalIds;
    std::string m_metadata;
    std::int64_t m_base = 0;
    bool m_baseSeen = false;
    int m_rank = -1;
};

// String pids and tids become names when the trace reader first meets their process or thread (unless
// metadata named it before): they take string ids then, as the names interned below do.
void SinglePass::processFor(const trace::Ident& pid)
{
    bool& named = m_processNamed.try_emplace(pid.value, false).first->second;
    if (!named && !pid.name.empty()) {
        m_names.intern(pid.name);
        named = true;
    }
}

int SinglePass::trackFor(const trace::Ident& pid, const trace::Ident& tid)
{
    if (m_lastTrack >= 0 && m_tracks[std::size_t(m_lastTrack)].pid == pid.value
        && m_tracks[std::size_t(m_lastTrack)].tid == tid.value)
        return m_lastTrack;
    auto [it, inserted] = m_trackIndex[pid.value].try_emplace(tid.value, int(m_tracks.size()));
    if (inserted) {
        processFor(pid);
        m_tracks.emplace_back();
        m_tracks.back().pid = pid.value;
        m_tracks.back().tid = tid.value;
        // Kineto's events are a few hundred bytes: room for the first tracks' slices up front saves regrowing
        // (and copying) vectors of millions of slices. Untouched room costs address space only.
        if (!t_scratch.slices.empty()) {
            m_tracks.back().slices = std::move(t_scratch.slices.back());
            t_scratch.slices.pop_back();
        } else if (m_tracks.size() <= kReservedTracks) {
            m_tracks.back().slices.reserve(m_size / kReserveBytesPerSlice);
        }
    }
    m_lastTrack = it->second;
    Track& track = m_tracks[std::size_t(m_lastTrack)];
    if (!track.named && !tid.name.empty()) {
        m_names.intern(tid.name);
        track.named = true;
    }
    return m_lastTrack;
}

bool SinglePass::handleMeta(std::string_view key, std::string_view value)
{
    // As the trace reader's handleMeta: the key as written, the value's text.
    m_metadata += m_metadata.empty() ? "{" : ",";
    m_metadata += '"';
    m_metadata += key;
    m_metadata += "\":";
    m_metadata += value;
    if (key == "baseTimeNanoseconds") {
        if (m_baseSeen)
            return decline("baseTimeNanoseconds given twice");
        std::int64_t base = 0;
        if ((trace::jsonscan::parseInt64(value, base) || trace::jsonscan::parseMicrosToNanos(value, base))
            && base >= -(std::int64_t(1) << 62) && base <= (std::int64_t(1) << 62)) {
            if (base < -kTimeBound || base > kTimeBound)
                return decline("baseTimeNanoseconds out of range");
            m_base = base;
            m_baseSeen = true;
        }
    } else if (key == "distributedInfo" && !value.empty() && value.front() == '{') {
        od::document doc;
        od::object info;
        std::int64_t rank = -1;
        if (!m_argsParser.iterate(value.data(), value.size(), std::size_t(m_bufferEnd - value.data())).get(doc)
            && !doc.get_object().get(info) && !info.find_field_unordered("rank").get_int64().get(rank)) {
            m_rank = int(rank);
        }
    }
    return true;
}

bool SinglePass::applyMetadata(const EventFields& e)
{
    // Only the strings the trace reader interns matter here: they take string ids before later names. They
    // are read by the args parser, whose buffers the next event's args overwrite, so they are copied.
    if (e.args.empty())
        return true;
    od::document doc;
    od::object obj;
    if (m_argsParser.iterate(e.args.data(), e.args.size(), std::size_t(m_bufferEnd - e.args.data())).get(doc)
        || doc.get_object().get(obj))
        return true;
    processFor(e.pid);
    const std::string_view name = e.name;
    for (auto field : obj) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) || field.value().get(value))
            return true;
        std::string_view text;
        if (name == "process_name" && key == "name") {
            if (!value.get_string().get(text)) {
                m_names.internCopy(text);
                m_processNamed[e.pid.value] = true;
            }
        } else if (name == "process_labels" && key == "labels") {
            if (!value.get_string().get(text))
                m_names.internCopy(text);
        } else if (name == "thread_sort_index" && key == "sort_index") {
            od::json_type type;
            if (!value.type().get(type) && type == od::json_type::number)
                trackFor(e.pid, e.tid);
        } else if (name == "thread_name" && key == "name") {
            if (!value.get_string().get(text)) {
                Track& track = m_tracks[std::size_t(trackFor(e.pid, e.tid))];
                m_names.internCopy(text);
                track.named = true;
            }
        }
    }
    return true;
}

/// A string value: a view into the input when it has no escapes (most names), so nothing is copied, else
/// unescaped by the parser. False when the value is not a string.
bool readString(od::value& value, std::string_view& out)
{
    std::string_view token = value.raw_json_token();
    while (!token.empty()
           && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
    if (token.size() >= 2 && token.front() == '"' && token.back() == '"') {
        const std::string_view inner = token.substr(1, token.size() - 2);
        if (inner.find('\\') == std::string_view::npos) {
            out = inner;
            return true;
        }
    }
    return !value.get_string().get(out);
}

bool SinglePass::readEvent(od::object& obj, EventFields& e)
{
    for (auto field : obj) {
        od::raw_json_string rawKey;
        od::value value;
        if (field.key().get(rawKey) || field.value().get(value))
            return decline("an event is not valid JSON");
        ++e.fields;
        const char* k = rawKey.raw();
        const char* q = k;
        while (*q != '"')
            ++q;
        const std::string_view key(k, std::size_t(q - k));
        bool ok = true;
        switch (key.size()) {
        case 2:
            if (key == "ph")
                ok = readString(value, e.ph);
            else if (key == "ts")
                ok = e.hasTs = trace::readTime(value, e.ts);
            else if (key == "id")
                ok = e.hasId = trace::readUnsigned(value, e.id);
            else if (key == "bp")
                ok = readString(value, e.bp);
            break;
        case 3:
            if (key == "cat")
                ok = readString(value, e.cat);
            else if (key == "pid")
                ok = trace::readIdent(value, e.pid);
            else if (key == "tid")
                ok = trace::readIdent(value, e.tid);
            else if (key == "dur")
                ok = e.hasDur = trace::readTime(value, e.dur);
            break;
        case 4:
            if (key == "name") {
                ok = readString(value, e.name);
            } else if (key == "args") {
                od::json_type type;
                if (!value.type().get(type) && type == od::json_type::object) {
                    std::string_view raw;
                    od::object argsObject;
                    ok = !value.get_object().get(argsObject) && !argsObject.raw_json().get(raw);
                    while (!raw.empty() && raw.back() != '}')
                        raw.remove_suffix(1);
                    e.args = raw;
                }
            }
            break;
        default:
            break;
        }
        if (!ok)
            return decline("a field of the wrong type");
    }
    return true;
}

bool SinglePass::handleEvent(const EventFields& e)
{
    if (e.fields == 0)
        return true; // an empty sentinel
    const char phase = e.ph.size() == 1 ? e.ph[0] : 0;
    if (phase == 'M')
        return applyMetadata(e);
    if (!e.hasTs)
        return decline("an event without ts");
    if (e.ts < -kTimeBound || e.ts > kTimeBound)
        return decline("ts out of range");
    switch (phase) {
    case 'X':
    case 'i':
    case 'I':
    case 'R': {
        const std::uint32_t name = m_names.intern(e.name);
        const std::uint32_t category = m_names.intern(e.cat);
        if (name >= m_kinds.size())
            m_kinds.resize(std::max<std::size_t>(name + 1, m_kinds.size() * 2));
        KindCache& cache = m_kinds[name];
        if (!cache.valid || cache.category != category) {
            cache.category = category;
            cache.kind = models::trace::eventKindFrom(e.cat, e.name);
            cache.device = trace::isDeviceCategory(cache.kind, e.cat);
            cache.valid = true;
        }
        const EventKind kind = cache.kind;
        const int ti = trackFor(e.pid, e.tid);
        Track& track = m_tracks[std::size_t(ti)];
        track.device = track.device || cache.device;
        std::uint8_t flags = 0;
        std::int64_t duration = 0;
        if (phase == 'X') {
            duration = e.hasDur ? std::clamp<std::int64_t>(e.dur, 0, kDurationLimitNs) : 0;
            if (duration > kAbsurdNs)
                return decline("an absurd duration");
        } else {
            flags |= models::trace::SliceFlag::Instant;
        }
        if (e.args.size() > std::numeric_limits<std::uint32_t>::max())
            return decline("huge args");
        const auto hint = std::uint32_t(track.slices.size());
        track.slices.push_back({ e.ts, duration, e.args.empty() ? nullptr : e.args.data(), std::uint32_t(e.args.size()),
                                 name, kind, flags, false });
        if (!e.args.empty() && trace::needsCorrelation(kind)) {
            std::uint64_t correlation = 0;
            if (trace::findUnsignedArg(e.args, "\"correlation\"", correlation) && correlation != 0)
                m_correlations.push_back({ ti, e.ts, correlation, hint });
        }
        if (!e.args.empty()
            && (kind == EventKind::CpuOp || (cache.device && models::trace::LaunchIndex::isDeviceWork(kind)))) {
            std::uint64_t external = 0;
            if (trace::findUnsignedArg(e.args, "\"External id\"", external) && external != 0)
                m_externalIds.push_back({ ti, e.ts, external, hint });
        }
        return true;
    }
    case 's':
    case 't':
    case 'f': {
        if (!e.hasId)
            return decline("a flow without id");
        const int ti = trackFor(e.pid, e.tid);
        const bool enclosing = phase != 'f' || e.bp == "e";
        m_flowPoints.push_back({ ti, e.ts, e.id, m_names.intern(e.cat), phase, enclosing,
                                 std::uint32_t(m_flowPoints.size()),
                                 std::uint32_t(m_tracks[std::size_t(ti)].slices.size()) });
        return true;
    }
    case 'B':
    case 'E':
    case 'C':
    case 'b':
    case 'e':
    case 'n':
        return decline("begin/end, counter or async events");
    default:
        return true; // phases the store only counts
    }
}

bool SinglePass::parse()
{
    const char* p = m_data;
    const char* end = m_data + m_size;
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        ++p;
    if (p >= end || *p != '{')
        return decline("not a JSON object");
    if (m_size > std::size_t(0xFFFFFFFF) - 1024)
        return decline("larger than one simdjson document");
    // One parser per thread, kept between traces: its buffers (about the size of the largest trace read) are
    // allocated and faulted in once per worker, not once per rank.
    thread_local od::parser parser;
    if (parser.capacity() < m_size) {
        // With room for slightly larger ranks, so the next trace of the job does not reallocate.
        const std::size_t room = std::min<std::size_t>(m_size + m_size / 4, parser.max_capacity());
        if (parser.allocate(room, parser.max_depth()))
            return decline("no memory for the parser");
    }
    od::document doc;
    od::object top;
    if (parser.iterate(m_data, m_size, std::size_t(m_bufferEnd - m_data)).get(doc) || doc.get_object().get(top))
        return decline("not a JSON object");
    bool sawEvents = false;
    for (auto field : top) {
        od::raw_json_string rawKey;
        od::value value;
        if (field.key().get(rawKey) || field.value().get(value))
            return decline("damaged JSON");
        const char* k = rawKey.raw();
        const char* q = k;
        while (*q != '"') {
            if (*q == '\\')
                ++q;
            ++q;
        }
        const std::string_view key(k, std::size_t(q - k));
        od::json_type type;
        if (value.type().get(type))
            return decline("damaged JSON");
        if (key == "traceEvents") {
            od::array events;
            if (type != od::json_type::array || value.get_array().get(events))
                return decline("traceEvents is not an array");
            sawEvents = true;
            for (auto element : events) {
                od::object object;
                if (element.get_object().get(object))
                    return decline("an event is not an object");
                EventFields e;
                if (!readEvent(object, e))
                    return false;
                m_namedIds.resolve(e.pid);
                m_namedIds.resolve(e.tid);
                if (!handleEvent(e))
                    return false;
            }
            continue;
        }
        std::string_view raw;
        simdjson::error_code error = simdjson::SUCCESS;
        if (type == od::json_type::object) {
            od::object o;
            error = value.get_object().get(o);
            if (!error)
                error = o.raw_json().get(raw);
        } else if (type == od::json_type::array) {
            od::array a;
            error = value.get_array().get(a);
            if (!error)
                error = a.raw_json().get(raw);
        } else {
            raw = value.raw_json_token();
        }
        if (error)
            return decline("damaged JSON");
        while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t'))
            raw.remove_suffix(1);
        if (!handleMeta(key, raw))
            return false;
    }
    if (!sawEvents)
        return decline("no traceEvents");
    return true;
}

void SinglePass::sortTracks()
{
    for (Track& track : m_tracks) {
        for (Slice& s : track.slices)
            s.start += m_base;
        bool sorted = true;
        for (std::size_t i = 1; i < track.slices.size() && sorted; ++i) {
            const Slice& a = track.slices[i - 1];
            const Slice& b = track.slices[i];
            sorted = a.start < b.start || (a.start == b.start && a.duration >= b.duration);
        }
        track.fileOrder = sorted;
        if (!sorted) {
            std::stable_sort(track.slices.begin(), track.slices.end(), [](const Slice& a, const Slice& b) {
                if (a.start != b.start)
                    return a.start < b.start;
                return a.duration > b.duration;
            });
        }
        track.maxDuration = 0;
        for (const Slice& s : track.slices)
            track.maxDuration = std::max(track.maxDuration, s.duration);
    }
    for (FlowPoint& f : m_flowPoints)
        f.time += m_base;
    for (auto* list : { &m_correlations, &m_externalIds }) {
        for (IdPoint& point : *list)
            point.start += m_base;
    }
}

// The three lookups below are the trace store builder's, on this pass's tracks.
std::int64_t SinglePass::enclosingSlice(const Track& track, std::int64_t time, std::size_t hint)
{
    const auto& slices = track.slices;
    std::int64_t i = std::int64_t(upperBound(track, time, hint)) - 1;
    const std::int64_t limit = time - track.maxDuration;
    std::int64_t instant = -1;
    for (int steps = 0; i >= 0 && slices[std::size_t(i)].start >= limit && steps < 65536; --i, ++steps) {
        const Slice& s = slices[std::size_t(i)];
        if (s.duration == 0) {
            if (s.start == time && instant < 0)
                instant = i;
            continue;
        }
        if (s.start + s.duration > time || s.start == time)
            return i;
    }
    return instant;
}

std::int64_t SinglePass::sliceAtOrAfter(const Track& track, std::int64_t time, std::size_t hint)
{
    const std::size_t i = lowerBound(track, time, hint);
    return i == track.slices.size() ? -1 : std::int64_t(i);
}

std::int64_t SinglePass::sliceStartingAt(const Track& track, std::int64_t time, std::size_t hint)
{
    const auto& slices = track.slices;
    std::int64_t found = -1;
    for (std::size_t i = lowerBound(track, time, hint); i < slices.size() && slices[i].start == time; ++i) {
        if (!(slices[i].flags & models::trace::SliceFlag::Instant))
            return std::int64_t(i);
        if (found < 0)
            found = std::int64_t(i);
    }
    return found;
}

/// The launch index the store path builds: flows, then correlations, then external ids, then host -> device
/// joins of device work, one launcher per device slice.
bool SinglePass::launches(std::vector<Launch>& out)
{
    struct Flow
    {
        int fromTrack;
        std::uint32_t fromSlice;
        int toTrack;
        std::uint32_t toSlice;
    };
    std::vector<Flow> flows;
    std::sort(m_flowPoints.begin(), m_flowPoints.end(), [](const FlowPoint& a, const FlowPoint& b) {
        if (a.category != b.category)
            return a.category < b.category;
        if (a.id != b.id)
            return a.id < b.id;
        if (a.time != b.time)
            return a.time < b.time;
        auto rank = [](char phase) { return phase == 's' ? 0 : phase == 't' ? 1 : 2; };
        if (rank(a.phase) != rank(b.phase))
            return rank(a.phase) < rank(b.phase);
        return a.sequence < b.sequence;
    });
    auto bind = [this](const FlowPoint& point) -> std::int64_t {
        const Track& track = m_tracks[std::size_t(point.track)];
        if (point.bindEnclosing) {
            const std::int64_t i = enclosingSlice(track, point.time, point.hint);
            return i >= 0 ? i : sliceAtOrAfter(track, point.time, point.hint);
        }
        const std::int64_t i = sliceAtOrAfter(track, point.time, point.hint);
        return i >= 0 ? i : enclosingSlice(track, point.time, point.hint);
    };
    const FlowPoint* previous = nullptr;
    std::int64_t previousSlice = -1;
    for (const FlowPoint& point : m_flowPoints) {
        if (previous && (previous->id != point.id || previous->category != point.category))
            previous = nullptr;
        // Flows between two CPU threads (fwdbwd) or two streams are never launches: not bound at all.
        const std::int64_t slice = bind(point);
        if (point.phase == 's') {
            previous = slice >= 0 ? &point : nullptr;
            previousSlice = slice;
            continue;
        }
        if (previous && slice >= 0)
            flows.push_back({ previous->track, std::uint32_t(previousSlice), point.track, std::uint32_t(slice) });
        if (point.phase == 't' && slice >= 0) {
            previous = &point;
            previousSlice = slice;
        } else {
            previous = nullptr;
        }
    }
    m_flowPoints.clear();

    auto pack = [](int track, std::uint32_t slice) { return (std::uint64_t(std::uint32_t(track)) << 32) | slice; };
    // Correlations.
    {
        struct Resolved
        {
            std::uint64_t correlation;
            bool device;
            int track;
            std::uint32_t slice;
        };
        std::vector<Resolved> resolved;
        resolved.reserve(m_correlations.size());
        for (const IdPoint& corr : m_correlations) {
            const Track& track = m_tracks[std::size_t(corr.track)];
            const std::int64_t slice = sliceStartingAt(track, corr.start, corr.hint);
            if (slice < 0)
                continue;
            const bool device = track.device || isDeviceKind(track.slices[std::size_t(slice)].kind);
            resolved.push_back({ corr.id, device, corr.track, std::uint32_t(slice) });
        }
        m_correlations.clear();
        std::sort(resolved.begin(), resolved.end(), [](const Resolved& a, const Resolved& b) {
            if (a.correlation != b.correlation)
                return a.correlation < b.correlation;
            if (a.device != b.device)
                return !a.device;
            if (a.track != b.track)
                return a.track < b.track;
            return a.slice < b.slice;
        });
        std::vector<std::pair<std::uint64_t, std::uint64_t>> existing;
        existing.reserve(flows.size());
        for (const Flow& flow : flows)
            existing.emplace_back(pack(flow.fromTrack, flow.fromSlice), pack(flow.toTrack, flow.toSlice));
        std::sort(existing.begin(), existing.end());
        std::size_t i = 0;
        while (i < resolved.size()) {
            std::size_t j = i;
            while (j < resolved.size() && resolved[j].correlation == resolved[i].correlation)
                ++j;
            std::size_t firstDevice = i;
            while (firstDevice < j && !resolved[firstDevice].device)
                ++firstDevice;
            for (std::size_t host = i; host < firstDevice; ++host) {
                for (std::size_t dev = firstDevice; dev < j; ++dev) {
                    const Resolved& a = resolved[host];
                    const Resolved& b = resolved[dev];
                    if (std::binary_search(existing.begin(), existing.end(),
                                           std::make_pair(pack(a.track, a.slice), pack(b.track, b.slice))))
                        continue;
                    flows.push_back({ a.track, a.slice, b.track, b.slice });
                }
            }
            i = j;
        }
    }
    // External ids: the device work no flow or correlation launched, joined to the CPU op of its id.
    if (!m_externalIds.empty()) {
        std::vector<std::uint64_t> launched;
        for (const Flow& flow : flows) {
            const bool fromDevice = m_tracks[std::size_t(flow.fromTrack)].device;
            const bool toDevice = m_tracks[std::size_t(flow.toTrack)].device;
            if (fromDevice != toDevice)
                launched.push_back(toDevice ? pack(flow.toTrack, flow.toSlice) : pack(flow.fromTrack, flow.fromSlice));
        }
        std::sort(launched.begin(), launched.end());
        struct Resolved
        {
            std::uint64_t id;
            int track;
            std::uint32_t slice;
        };
        std::vector<Resolved> devices;
        for (const IdPoint& entry : m_externalIds) {
            const Track& track = m_tracks[std::size_t(entry.track)];
            if (!track.device)
                continue;
            const std::int64_t slice = sliceStartingAt(track, entry.start, entry.hint);
            if (slice < 0 || !isDeviceKind(track.slices[std::size_t(slice)].kind)
                || std::binary_search(launched.begin(), launched.end(), pack(entry.track, std::uint32_t(slice))))
                continue;
            devices.push_back({ entry.id, entry.track, std::uint32_t(slice) });
        }
        if (!devices.empty()) {
            std::vector<Resolved> hosts;
            for (const IdPoint& entry : m_externalIds) {
                const Track& track = m_tracks[std::size_t(entry.track)];
                if (track.device)
                    continue;
                const std::int64_t slice = sliceStartingAt(track, entry.start, entry.hint);
                if (slice >= 0 && track.slices[std::size_t(slice)].kind == EventKind::CpuOp)
                    hosts.push_back({ entry.id, entry.track, std::uint32_t(slice) });
            }
            std::sort(hosts.begin(), hosts.end(), [](const Resolved& a, const Resolved& b) {
                return std::tie(a.id, a.track, a.slice) < std::tie(b.id, b.track, b.slice);
            });
            for (const Resolved& device : devices) {
                const auto host = std::lower_bound(hosts.begin(), hosts.end(), device.id,
                                                   [](const Resolved& a, std::uint64_t id) { return a.id < id; });
                if (host == hosts.end() || host->id != device.id)
                    continue;
                // The store takes the first op of the id in its track order, which this pass does not know.
                const auto next = std::next(host);
                if (next != hosts.end() && next->id == device.id
                    && (next->track != host->track || next->slice != host->slice))
                    return decline("an external id on several ops");
                flows.push_back({ host->track, host->slice, device.track, device.slice });
            }
        }
    }
    m_externalIds.clear();

    // The launch index: host (CPU thread) -> device work on a stream, one launcher per device slice.
    out.clear();
    out.reserve(flows.size());
    for (const Flow& flow : flows) {
        Launch launch { flow.fromTrack, flow.fromSlice, flow.toTrack, flow.toSlice };
        if (m_tracks[std::size_t(launch.hostTrack)].device) {
            std::swap(launch.hostTrack, launch.deviceTrack);
            std::swap(launch.hostSlice, launch.deviceSlice);
        }
        const Track& host = m_tracks[std::size_t(launch.hostTrack)];
        const Track& device = m_tracks[std::size_t(launch.deviceTrack)];
        if (host.device || !device.device)
            continue;
        if (!models::trace::LaunchIndex::isDeviceWork(device.slices[launch.deviceSlice].kind))
            continue;
        out.push_back(launch);
    }
    std::sort(out.begin(), out.end(), [](const Launch& a, const Launch& b) {
        return std::tie(a.deviceTrack, a.deviceSlice, a.hostTrack, a.hostSlice)
            < std::tie(b.deviceTrack, b.deviceSlice, b.hostTrack, b.hostSlice);
    });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (kept > 0 && out[kept - 1].deviceTrack == out[i].deviceTrack
            && out[kept - 1].deviceSlice == out[i].deviceSlice) {
            // Two launchers: the store keeps the first by (track, slice). On one track slices are in the
            // store's order (the first is kept here too); between tracks only the store knows its order.
            if (out[kept - 1].hostTrack != out[i].hostTrack)
                return decline("device work launched from two threads");
            continue;
        }
        out[kept++] = out[i];
    }
    out.resize(kept);
    return true;
}

/// The store's steps (ProfilerStep#N on CPU threads, one per number, the earliest), the step breakdown's
/// CPU ranges; declines when the trace has none (the store then finds marker steps or takes the whole trace).
bool SinglePass::findSteps(std::vector<models::trace::StepTimes>& steps)
{
    constexpr std::string_view kPrefix = "ProfilerStep#";
    std::vector<std::int64_t> numberOf(m_names.size(), -2);
    struct Found
    {
        std::int64_t number;
        std::int64_t start;
        std::int64_t end;
        int track;
        std::uint32_t slice;
    };
    std::vector<Found> found;
    for (std::size_t t = 0; t < m_tracks.size(); ++t) {
        const Track& track = m_tracks[t];
        if (track.device)
            continue;
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            const Slice& s = track.slices[i];
            if (s.kind == EventKind::Kernel || s.kind == EventKind::GpuAnnotation)
                continue;
            std::int64_t& number = numberOf[s.name];
            if (number == -2) {
                number = -1;
                const std::string_view name = m_names.view(s.name);
                if (name.starts_with(kPrefix)) {
                    std::int64_t n = 0;
                    const char* first = name.data() + kPrefix.size();
                    const auto result = std::from_chars(first, name.data() + name.size(), n);
                    if (result.ec == std::errc() && result.ptr != first && n >= 0)
                        number = n;
                }
            }
            if (number >= 0)
                found.push_back({ number, s.start, s.end(), int(t), std::uint32_t(i) });
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
        return a.number != b.number ? a.number < b.number : a.start < b.start;
    });
    std::vector<Found> kept;
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (!kept.empty() && kept.back().number == found[i].number) {
            // The store keeps the first of equal starts in its track order.
            if (found[i].start == kept.back().start && found[i].end != kept.back().end)
                return decline("a step marked twice at the same time");
            continue;
        }
        kept.push_back(found[i]);
    }
    std::stable_sort(kept.begin(), kept.end(), [](const Found& a, const Found& b) { return a.start < b.start; });
    steps.clear();
    for (const Found& f : kept) {
        m_tracks[std::size_t(f.track)].slices[f.slice].stepMarker = true;
        if (f.end <= f.start)
            continue;
        models::trace::StepTimes st;
        st.number = f.number;
        st.start = st.cpuStart = f.start;
        st.end = st.cpuEnd = f.end;
        steps.push_back(st);
    }
    if (steps.empty())
        return decline("no ProfilerStep#N");
    return true;
}

bool SinglePass::run(const models::cluster::RankDigestOptions& options, const trace::TraceInput& input,
                     const QString& path, models::cluster::RankDigest& digest)
{
    if (!parse())
        return false;
    sortTracks();

    std::vector<models::trace::StepTimes> steps;
    if (!findSteps(steps))
        return false;
    std::vector<Launch> launched;
    if (!launches(launched))
        return false;

    // Device steps: stretched to the device work launched inside each CPU step (the step breakdown's rule).
    {
        std::vector<std::int64_t> devMin(steps.size(), std::numeric_limits<std::int64_t>::max());
        std::vector<std::int64_t> devMax(steps.size(), std::numeric_limits<std::int64_t>::min());
        for (const Launch& l : launched) {
            const Slice& host = m_tracks[std::size_t(l.hostTrack)].slices[l.hostSlice];
            const Slice& device = m_tracks[std::size_t(l.deviceTrack)].slices[l.deviceSlice];
            if (!countsForStatistics(device))
                continue;
            auto it
                = std::upper_bound(steps.begin(), steps.end(), host.start,
                                   [](std::int64_t t, const models::trace::StepTimes& st) { return t < st.cpuStart; });
            if (it == steps.begin())
                continue;
            --it;
            if (host.end() > it->cpuEnd)
                continue;
            const std::size_t k = std::size_t(it - steps.begin());
            devMin[k] = std::min(devMin[k], device.start);
            devMax[k] = std::max(devMax[k], device.end());
        }
        std::int64_t previousEnd = std::numeric_limits<std::int64_t>::min();
        for (std::size_t k = 0; k < steps.size(); ++k) {
            models::trace::StepTimes& st = steps[k];
            st.start = std::max(previousEnd, std::min(st.cpuStart, devMin[k]));
            st.end = std::max(st.cpuEnd, devMax[k]);
            st.end = std::max(st.end, st.start);
            previousEnd = st.end;
        }
    }

    // Data loading per step: the data loader's time where nothing of a higher category (kernels, copies,
    // sets, communication, runtime) is active, as the step breakdown's sweep attributes it.
    std::vector<Interval> loader;
    std::vector<Interval> higher;
    models::cluster::KinetoDeviceWork work;
    std::vector<std::int64_t> devicePids;
    std::vector<std::pair<int, std::uint32_t>> collectives;
    for (std::size_t t = 0; t < m_tracks.size(); ++t) {
        const Track& track = m_tracks[t];
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            const Slice& s = track.slices[i];
            if (!countsForStatistics(s))
                continue;
            const std::string_view name = m_names.view(s.name);
            if (!s.stepMarker) {
                const int c = models::trace::stepCategoryOf(s.kind, name);
                if (c == int(models::trace::StepCategory::DataLoader))
                    loader.push_back({ s.start, s.end() });
                else if (c >= 0 && c < int(models::trace::StepCategory::DataLoader))
                    higher.push_back({ s.start, s.end() });
            }
            if (!track.device)
                continue;
            const bool communication = s.kind == EventKind::Communication
                || (s.kind == EventKind::Kernel && models::cluster::isCommunicationKernel(name));
            const bool compute = s.kind == EventKind::Kernel && !communication;
            if (!communication && !compute && s.kind != EventKind::Memcpy && s.kind != EventKind::Memset)
                continue;
            const models::cluster::KinetoDeviceWork::Interval iv { s.start, s.end() };
            work.all.push_back(iv);
            if (compute)
                work.compute.push_back(iv);
            if (communication) {
                work.communication.push_back(iv);
                work.communicationStarts.push_back(iv.start);
                collectives.push_back({ int(t), std::uint32_t(i) });
            }
            if (std::find(devicePids.begin(), devicePids.end(), track.pid) == devicePids.end())
                devicePids.push_back(track.pid);
        }
    }
    if (devicePids.size() > 1)
        return decline("device work in several processes");
    work.devicePid = devicePids.empty() ? -1 : devicePids.front();
    work.finish();
    mergeIntervals(loader);
    mergeIntervals(higher);
    const std::vector<Interval> loading = subtract(loader, higher);

    std::vector<models::cluster::KinetoStepWindow> windows;
    for (const models::trace::StepTimes& st : steps) {
        if (st.end <= st.start)
            continue;
        windows.push_back({ st.number, st.start, st.end });
        digest.steps.push_back({ st.number, st.start, st.end, toMs(lengthWithin(loading, st.start, st.end)) });
    }
    models::cluster::KinetoEnvelope envelope;
    envelope.source = 0;
    envelope.rank = m_rank;
    envelope.path = path;
    if (!m_metadata.empty())
        envelope.metadataJson = QByteArray(m_metadata.data(), qsizetype(m_metadata.size())) + '}';
    digest.figures = models::cluster::kinetoRankFiguresFrom(work, windows, envelope, &digest.worldSize);
    digest.file = digest.figures.path;

    // Collectives in start order; equal starts would keep the store's track order.
    std::sort(collectives.begin(), collectives.end(), [this](const auto& a, const auto& b) {
        const Slice& x = m_tracks[std::size_t(a.first)].slices[a.second];
        const Slice& y = m_tracks[std::size_t(b.first)].slices[b.second];
        return x.start < y.start;
    });
    for (std::size_t k = 1; k < collectives.size(); ++k) {
        if (m_tracks[std::size_t(collectives[k].first)].slices[collectives[k].second].start
            == m_tracks[std::size_t(collectives[k - 1].first)].slices[collectives[k - 1].second].start)
            return decline("two collectives start together");
    }
    digest.collectives.reserve(collectives.size());
    for (const auto& [t, i] : collectives) {
        const Slice& s = m_tracks[std::size_t(t)].slices[i];
        digest.collectives.push_back(
            models::cluster::digestCollective(m_names.view(s.name), s.start, s.end(), s.argsText()));
    }

    const std::size_t top = std::size_t(std::max(0, options.topCount));
    // Kernels by name: the operator statistics' kernel table (device work on streams, instants left out).
    {
        struct KernelRow
        {
            std::uint32_t name;
            std::uint64_t calls = 0;
            std::int64_t total = 0;
            std::int64_t max = 0;
        };
        std::vector<std::int32_t> rowOf(m_names.size(), -1);
        std::vector<KernelRow> rows;
        for (const Track& track : m_tracks) {
            if (!track.device)
                continue;
            for (const Slice& s : track.slices) {
                if (!usable(s) || !models::trace::LaunchIndex::isDeviceWork(s.kind))
                    continue;
                std::int32_t& row = rowOf[s.name];
                if (row < 0) {
                    row = std::int32_t(rows.size());
                    rows.push_back({ s.name });
                }
                KernelRow& k = rows[std::size_t(row)];
                ++k.calls;
                k.total += s.duration;
                k.max = std::max(k.max, s.duration);
            }
        }
        std::sort(rows.begin(), rows.end(), [](const KernelRow& a, const KernelRow& b) {
            return a.total != b.total ? a.total > b.total : a.name < b.name;
        });
        for (std::size_t k = 0; k < rows.size() && k < top; ++k) {
            const std::string_view name = m_names.view(rows[k].name);
            digest.kernels.push_back({ QString::fromUtf8(name.data(), qsizetype(name.size())), rows[k].calls,
                                       toMs(rows[k].total), toMs(rows[k].max) });
        }
    }
    // Operators: CPU ops on CPU threads with the nesting stack of the operator statistics (self time orders
    // the table before the digest re-sorts it by total).
    {
        struct OpRow
        {
            std::uint32_t name;
            std::uint64_t calls = 0;
            std::int64_t hostTotal = 0;
            std::int64_t hostSelf = 0;
            std::int64_t hostMax = 0;
        };
        struct Frame
        {
            std::int64_t end;
            std::uint32_t slice;
            bool isOp;
            int parentOp;
            std::int64_t childOpTime;
        };
        std::vector<std::int32_t> rowOf(m_names.size(), -1);
        std::vector<OpRow> rows;
        std::vector<Frame> stack;
        for (const Track& track : m_tracks) {
            if (track.device)
                continue;
            stack.clear();
            const auto finish = [&](const Frame& f) {
                if (!f.isOp)
                    return;
                const Slice& s = track.slices[f.slice];
                std::int32_t& row = rowOf[s.name];
                if (row < 0) {
                    row = std::int32_t(rows.size());
                    rows.push_back({ s.name });
                }
                OpRow& op = rows[std::size_t(row)];
                ++op.calls;
                op.hostTotal += s.duration;
                op.hostSelf += std::max<std::int64_t>(0, s.duration - f.childOpTime);
                op.hostMax = std::max(op.hostMax, s.duration);
                if (f.parentOp >= 0)
                    stack[std::size_t(f.parentOp)].childOpTime += s.duration;
            };
            for (std::size_t i = 0; i < track.slices.size(); ++i) {
                const Slice& s = track.slices[i];
                if (!usable(s))
                    continue;
                while (!stack.empty() && stack.back().end <= s.start) {
                    const Frame f = stack.back();
                    stack.pop_back();
                    finish(f);
                }
                Frame frame { s.end(), std::uint32_t(i), s.kind == EventKind::CpuOp, -1, 0 };
                if (!stack.empty())
                    frame.parentOp = stack.back().isOp ? int(stack.size()) - 1 : stack.back().parentOp;
                stack.push_back(frame);
            }
            while (!stack.empty()) {
                const Frame f = stack.back();
                stack.pop_back();
                finish(f);
            }
        }
        std::sort(rows.begin(), rows.end(), [](const OpRow& a, const OpRow& b) {
            return a.hostSelf != b.hostSelf ? a.hostSelf > b.hostSelf : a.name < b.name;
        });
        std::stable_sort(rows.begin(), rows.end(),
                         [](const OpRow& a, const OpRow& b) { return a.hostTotal > b.hostTotal; });
        for (std::size_t k = 0; k < rows.size() && k < top; ++k) {
            const std::string_view name = m_names.view(rows[k].name);
            digest.operators.push_back({ QString::fromUtf8(name.data(), qsizetype(name.size())), rows[k].calls,
                                         toMs(rows[k].hostTotal), toMs(rows[k].hostMax) });
        }
    }

    // The memory peak: the memory model of the store path, run on a store of the memory instants alone.
    {
        models::trace::TraceStoreBuilder builder;
        const int source = builder.addSource(path, input.buffer);
        builder.source(source).rank = m_rank;
        bool any = false;
        for (const Track& track : m_tracks) {
            int target = -1;
            for (const Slice& s : track.slices) {
                if (s.kind != EventKind::Memory || !(s.flags & models::trace::SliceFlag::Instant))
                    continue;
                const std::string_view name = m_names.view(s.name);
                if (name != "[memory]" && name != "[OutOfMemory]")
                    continue;
                // Without "Ev Idx" the model orders equal times by the store's track and slice numbers.
                std::uint64_t index = 0;
                if (name == "[memory]" && !trace::findUnsignedArg(s.argsText(), "\"Ev Idx\"", index))
                    return decline("memory events without Ev Idx");
                if (target < 0)
                    target = builder.threadTrack(builder.process(source, track.pid), track.tid);
                const models::trace::ArgsRef ref = s.args
                    ? models::trace::ArgsRef { std::uint64_t(s.args - m_data), s.argsLength }
                    : models::trace::ArgsRef {};
                builder.addSlice(target, s.start, 0, builder.strings().intern(name), 0, s.kind, ref,
                                 models::trace::SliceFlag::Instant);
                any = true;
            }
        }
        if (any) {
            const auto store = builder.finish();
            const memory::MemoryReadResult memory = memory::memoryFromTrace(*store);
            if (memory.profile) {
                for (const models::memory::MemoryDevice& device : memory.profile->devices) {
                    if (device.deviceId < 0 || device.relative)
                        continue;
                    const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
                    if (peak.valid && !(peak.bytes <= digest.figures.peakMemoryBytes))
                        digest.figures.peakMemoryBytes = peak.bytes;
                }
            }
        }
    }
    return true;
}

} // namespace

std::optional<models::cluster::RankDigest> digestTraceSinglePass(const trace::TraceInput& input, const QString& path,
                                                                 const models::cluster::RankDigestOptions& options,
                                                                 QString* why)
{
    if (!input.buffer || !input.complete() || input.truncatedRead || input.damaged() || input.buffer->size() == 0) {
        if (why)
            *why = QStringLiteral("incomplete input");
        ++g_declined;
        return std::nullopt;
    }
    if (input.mapping)
        input.mapping->adviseSequential();
    const models::trace::TraceBuffer& buffer = *input.buffer;
    const std::size_t capacity = std::max(buffer.capacity(), buffer.size()) + models::trace::TraceBuffer::kPadding;
    SinglePass pass(buffer.data(), buffer.size(), capacity);
    models::cluster::RankDigest digest;
    if (!pass.run(options, input, path, digest)) {
        if (why)
            *why = pass.why;
        ++g_declined;
        return std::nullopt;
    }
    ++g_taken;
    return digest;
}

SinglePassCounts singlePassCounts()
{
    return { g_taken.load(), g_declined.load() };
}

} // namespace runlens::importers::cluster
