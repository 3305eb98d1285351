#include "importers/cluster/rankdigestpass.h"
#include "importers/cluster/rankdigestpassstate.h"

#include "importers/core/filemapping.h"
#include "importers/trace/jsonscan.h"
#include "importers/trace/traceinput.h"
#include "importers/trace/tracevalues.h"

#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <deque>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <vector>

// Why a second reader: the store path parses every event into a trace store (names, args references,
// depths, flows, a painting index) that the digest mostly ignores, and a job of many large ranks spends
// most of its time there. This pass keeps, per slice, only its span, name, kind and args text, and runs the
// same rules on them as the store and its analyses do (the step breakdown, the launch index, the operator
// statistics, kinetoRankFigures). Where those rules would depend on what the store alone knows (the order
// of its tracks, its string ids of names interned elsewhere), the pass declines rather than guess.

namespace runlens::importers::cluster {

namespace digestpass {

namespace {

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

} // namespace

SinglePass::SinglePass(const char* data, std::size_t size, std::size_t capacity)
    : m_data(data)
    , m_size(size)
    , m_bufferEnd(data + capacity)
{
    m_flowPoints.swap(t_scratch.flowPoints);
    m_correlations.swap(t_scratch.correlations);
    m_externalIds.swap(t_scratch.externalIds);
}

SinglePass::~SinglePass()
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
static bool readString(od::value& value, std::string_view& out)
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
    for (auto result : obj) {
        // The field in place, not copied out of its result: copying its iterator, once per field, stalled
        // on the stores just made (a good part of this loop's time).
        if (result.error())
            return decline("an event is not valid JSON");
        od::field& field = result.value_unsafe();
        const od::raw_json_string rawKey = field.key();
        od::value& value = field.value();
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

} // namespace digestpass

namespace {

std::atomic<std::uint64_t> g_taken { 0 };
std::atomic<std::uint64_t> g_declined { 0 };

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
    digestpass::SinglePass pass(buffer.data(), buffer.size(), capacity);
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
