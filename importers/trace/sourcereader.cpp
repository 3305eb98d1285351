#include "importers/trace/sourcereader.h"

#include "models/trace/launchindex.h"

#include <cstring>

namespace runlens::importers::trace {

namespace od = simdjson::ondemand;

void SourceReader::badEvent(const char* at, const QString& why)
{
    ++m_badEvents;
    if (m_firstBadOffset < 0)
        m_firstBadOffset = offsetOf(at);
    if (m_badEvents <= kDetailedDiagnostics)
        report(models::Severity::Warning, at,
               QCoreApplication::translate("runlens::ChromeTraceReader", "Skipped an event: %1").arg(why));
}

int SourceReader::processFor(const Ident& pid)
{
    auto [it, inserted] = m_processes.try_emplace(pid.value, -1);
    if (inserted) {
        it->second = m_builder.process(m_source, pid.value);
        if (std::size_t(it->second) >= m_processNamed.size())
            m_processNamed.resize(std::size_t(it->second) + 1, 0);
        if (pid.named)
            m_builder.setProcessIdIsName(it->second);
    }
    const int process = it->second;
    if (!pid.name.empty() && m_processNamed[std::size_t(process)] == 0) {
        m_builder.setProcessName(process, pid.name);
        m_processNamed[std::size_t(process)] = 1;
    }
    return process;
}

int SourceReader::trackFor(const Ident& pid, const Ident& tid, bool device)
{
    const std::size_t slot
        = std::size_t((std::uint64_t(pid.value) * 0x9e3779b97f4a7c15ull) ^ std::uint64_t(tid.value)) & 63;
    CacheEntry& entry = m_trackCache[slot];
    if (entry.track >= 0 && entry.pid == pid.value && entry.tid == tid.value && (entry.device || !device))
        return entry.track;
    const int process = processFor(pid);
    const int track = m_builder.threadTrack(
        process, tid.value, device ? models::trace::TrackType::GpuStream : models::trace::TrackType::Thread);
    if (std::size_t(track) >= m_trackNamed.size())
        m_trackNamed.resize(std::size_t(track) + 1, 0);
    if (tid.named)
        m_builder.setTrackIdIsName(track);
    if (!tid.name.empty() && m_trackNamed[std::size_t(track)] == 0) {
        m_builder.setTrackName(track, tid.name);
        m_trackNamed[std::size_t(track)] = 1;
    }
    const bool wasDevice = entry.track == track && entry.device;
    entry = { pid.value, tid.value, track, device || wasDevice };
    return track;
}

models::trace::EventKind SourceReader::kindOf(models::trace::StringId name, models::trace::StringId category,
                                              std::string_view categoryText, std::string_view nameText, bool& device)
{
    if (name >= m_kinds.size())
        m_kinds.resize(std::max<std::size_t>(name + 1, m_kinds.size() * 2));
    KindCache& cache = m_kinds[name];
    if (!cache.valid || cache.category != category) {
        cache.category = category;
        cache.kind = models::trace::eventKindFrom(categoryText, nameText);
        cache.device = isDeviceCategory(cache.kind, categoryText);
        cache.valid = true;
    }
    device = cache.device;
    return cache.kind;
}

void SourceReader::addCounters(const Ident& pid, std::string_view name, std::int64_t time, std::string_view args)
{
    if (args.empty())
        return;
    od::document doc;
    od::object obj;
    if (m_argsParser.iterate(args.data(), args.size(), std::size_t(m_bufferEnd - args.data())).get(doc)
        || doc.get_object().get(obj))
        return;
    struct Series
    {
        std::string key;
        double value;
    };
    std::vector<Series> series;
    for (auto field : obj) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) || field.value().get(value))
            return;
        double d;
        if (!value.get_double().get(d))
            series.push_back({ std::string(key), d });
    }
    const int process = processFor(pid);
    for (const Series& s : series) {
        const std::string trackName = series.size() == 1 ? std::string(name) : std::string(name) + "." + s.key;
        m_builder.addCounter(m_builder.counterTrack(process, trackName), time, s.value);
    }
    noteEnd(time);
}

void SourceReader::handleEvent(const char* begin, const char* end)
{
    od::document doc;
    od::object obj;
    simdjson::error_code error
        = m_parser.iterate(begin, std::size_t(end - begin), std::size_t(m_bufferEnd - begin)).get(doc);
    if (!error)
        error = doc.get_object().get(obj);
    if (error) {
        badEvent(begin, QString::fromUtf8(simdjson::error_message(error)));
        return;
    }
    EventFields e;
    if (!readFields(begin, end, obj, e))
        return;

    m_namedIds.resolve(e.pid);
    m_namedIds.resolve(e.tid);
    models::trace::TraceSource& source = m_builder.source(m_source);
    if (e.fields == 0) {
        ++source.sentinelEvents;
        return;
    }
    const char phase = e.ph.size() == 1 ? e.ph[0] : 0;
    ++m_eventsSeen;
    ++source.events;
    ++source.eventsByPhase[std::uint8_t(phase) & 127];

    if (phase == 'M') {
        applyMetadata(e.name, e.pid, e.tid, e.args);
        return;
    }
    std::int64_t start = 0;
    if (!eventStart(begin, e, start))
        return;

    switch (phase) {
    case 'X':
    case 'B':
    case 'i':
    case 'I':
    case 'R':
        handleSlice(phase, e, start, source);
        return;
    case 'E':
        handleEnd(begin, e, start);
        return;
    case 's':
    case 't':
    case 'f':
        handleFlow(begin, phase, e, start);
        return;
    case 'C':
        addCounters(e.pid, e.name, start, e.args);
        return;
    case 'b':
    case 'e':
    case 'n':
        handleAsync(phase, e, start);
        return;
    default:
        // Phases without a timeline representation here (P samples, O/N/D objects, ...): counted only.
        return;
    }
}

bool SourceReader::readFields(const char* begin, const char* end, od::object& obj, EventFields& e)
{
    simdjson::error_code error = simdjson::SUCCESS;
    const char* wrongType = nullptr;
    for (auto field : obj) {
        od::raw_json_string rawKey;
        od::value value;
        error = field.key().get(rawKey);
        if (!error)
            error = field.value().get(value);
        if (error) {
            badEvent(begin, QString::fromUtf8(simdjson::error_message(error)));
            return false;
        }
        ++e.fields;
        const char* k = rawKey.raw();
        const auto* q = static_cast<const char*>(std::memchr(k, '"', std::size_t(end - k)));
        const std::string_view key(k, q ? std::size_t(q - k) : 0);
        bool ok = true;
        switch (key.size()) {
        case 2:
            if (key == "ph")
                ok = !value.get_string().get(e.ph);
            else if (key == "ts")
                ok = e.hasTs = readTime(value, e.ts);
            else if (key == "id")
                ok = e.hasId = readUnsigned(value, e.id);
            else if (key == "bp")
                ok = !value.get_string().get(e.bp);
            break;
        case 3:
            if (key == "cat")
                ok = !value.get_string().get(e.cat);
            else if (key == "pid")
                ok = readIdent(value, e.pid);
            else if (key == "tid")
                ok = readIdent(value, e.tid);
            else if (key == "dur")
                ok = e.hasDur = readTime(value, e.dur);
            break;
        case 4:
            if (key == "name") {
                ok = !value.get_string().get(e.name);
            } else if (key == "args") {
                od::json_type type;
                if (!value.type().get(type) && type == od::json_type::object) {
                    std::string_view raw;
                    od::object argsObject;
                    ok = !value.get_object().get(argsObject) && !argsObject.raw_json().get(raw);
                    // raw_json() may include trailing spaces: keep the object text only.
                    while (!raw.empty() && raw.back() != '}')
                        raw.remove_suffix(1);
                    e.args = raw;
                }
            }
            break;
        default:
            break;
        }
        if (!ok && !wrongType)
            wrongType = k;
        if (!ok && (key == "ph" || key == "ts" || key == "name")) {
            badEvent(begin,
                     QCoreApplication::translate("runlens::ChromeTraceReader",
                                                 "field \"%1\" has a wrong type or an invalid value")
                         .arg(QString::fromUtf8(key.data(), qsizetype(key.size()))));
            return false;
        }
    }
    if (error) {
        badEvent(begin, QString::fromUtf8(simdjson::error_message(error)));
        return false;
    }
    return true;
}

bool SourceReader::eventStart(const char* begin, const EventFields& e, std::int64_t& start)
{
    if (!e.hasTs) {
        badEvent(begin, QCoreApplication::translate("runlens::ChromeTraceReader", "no valid \"ts\""));
        return false;
    }
    if (__builtin_add_overflow(m_base, e.ts, &start) || start < -kTimeLimitNs || start > kTimeLimitNs) {
        badEvent(begin, QCoreApplication::translate("runlens::ChromeTraceReader", "\"ts\" is out of range"));
        return false;
    }
    return true;
}

void SourceReader::handleSlice(char phase, const EventFields& e, std::int64_t start, models::trace::TraceSource& source)
{
    models::trace::StringTable& strings = m_builder.strings();
    const models::trace::StringId nameId = strings.intern(e.name);
    const models::trace::StringId catId = strings.intern(e.cat);
    bool device = false;
    const models::trace::EventKind kind = kindOf(nameId, catId, e.cat, e.name, device);
    const int track = trackFor(e.pid, e.tid, device);
    const models::trace::ArgsRef ref = argsRef(e.args);
    if (phase == 'B') {
        if (std::size_t(track) >= m_stacks.size())
            m_stacks.resize(std::size_t(track) + 1);
        m_stacks[std::size_t(track)].push_back({ start, nameId, catId, kind, ref });
        noteEnd(start);
        return;
    }
    std::uint8_t flags = 0;
    std::int64_t duration = 0;
    if (phase == 'X') {
        duration = e.hasDur ? std::clamp<std::int64_t>(e.dur, 0, kDurationLimitNs) : 0;
        if (duration > kAbsurdNs)
            flags |= models::trace::SliceFlag::AbsurdDuration;
    } else {
        flags |= models::trace::SliceFlag::Instant;
        if (kind == models::trace::EventKind::Memory && e.name == "[memory]")
            ++source.memoryEvents;
    }
    m_builder.addSlice(track, start, duration, nameId, catId, kind, ref, flags);
    noteEnd(start + duration);
    if (!e.args.empty() && needsCorrelation(kind)) {
        std::uint64_t correlation = 0;
        if (findUnsignedArg(e.args, "\"correlation\"", correlation) && correlation != 0)
            m_builder.setCorrelation(track, start, correlation);
    }
    if (!e.args.empty()
        && (kind == models::trace::EventKind::CpuOp || (device && models::trace::LaunchIndex::isDeviceWork(kind)))) {
        std::uint64_t external = 0;
        if (findUnsignedArg(e.args, "\"External id\"", external) && external != 0)
            m_builder.setExternalId(track, start, external);
    }
}

void SourceReader::handleEnd(const char* begin, const EventFields& e, std::int64_t start)
{
    const int track = trackFor(e.pid, e.tid, false);
    if (std::size_t(track) < m_stacks.size() && !m_stacks[std::size_t(track)].empty()) {
        const Open open = m_stacks[std::size_t(track)].back();
        m_stacks[std::size_t(track)].pop_back();
        const std::int64_t duration = std::max<std::int64_t>(start - open.start, 0);
        m_builder.addSlice(track, open.start, duration, open.name, open.category, open.kind, open.args,
                           duration > kAbsurdNs ? std::uint8_t(models::trace::SliceFlag::AbsurdDuration)
                                                : std::uint8_t(0));
        noteEnd(start);
    } else {
        ++m_unmatchedEnds;
        if (m_unmatchedEnds <= kDetailedDiagnostics)
            report(models::Severity::Warning, begin,
                   QCoreApplication::translate("runlens::ChromeTraceReader",
                                               "An \"E\" event has no matching \"B\" on its thread; ignored"));
    }
}

void SourceReader::handleFlow(const char* begin, char phase, const EventFields& e, std::int64_t start)
{
    if (!e.hasId) {
        badEvent(begin, QCoreApplication::translate("runlens::ChromeTraceReader", "flow event without \"id\""));
        return;
    }
    const int track = trackFor(e.pid, e.tid, false);
    const bool enclosing = phase != 'f' || e.bp == "e";
    m_builder.addFlowPoint(track, start, e.id, m_builder.strings().intern(e.cat), phase, enclosing);
}

void SourceReader::handleAsync(char phase, const EventFields& e, std::int64_t start)
{
    models::trace::StringTable& strings = m_builder.strings();
    const int process = processFor(e.pid);
    const int track = m_builder.asyncTrack(process, e.cat, e.id);
    const models::trace::StringId nameId = strings.intern(e.name);
    const models::trace::StringId catId = strings.intern(e.cat);
    bool device = false;
    const models::trace::EventKind kind = kindOf(nameId, catId, e.cat, e.name, device);
    if (std::size_t(track) >= m_stacks.size())
        m_stacks.resize(std::size_t(track) + 1);
    auto& stack = m_stacks[std::size_t(track)];
    if (phase == 'b') {
        stack.push_back({ start, nameId, catId, kind, argsRef(e.args) });
    } else if (phase == 'n') {
        m_builder.addSlice(track, start, 0, nameId, catId, kind, argsRef(e.args), models::trace::SliceFlag::Instant);
    } else if (!stack.empty()) {
        const Open open = stack.back();
        stack.pop_back();
        m_builder.addSlice(track, open.start, std::max<std::int64_t>(start - open.start, 0), open.name, open.category,
                           open.kind, open.args);
    } else {
        ++m_unmatchedEnds;
    }
    noteEnd(start);
}

} // namespace runlens::importers::trace
