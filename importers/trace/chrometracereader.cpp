#include "chrometracereader.h"

#include "eventscanner.h"
#include "jsonscan.h"
#include "trace/launchindex.h"
#include "trace/tracestorebuilder.h"
#include "traceinput.h"
#include "tracevalues.h"

#include <QCoreApplication>
#include <QLoggingCategory>

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <limits>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

Q_LOGGING_CATEGORY(lcTraceImport, "runlens.importers.trace")

namespace runlens::trace {

namespace {

namespace od = simdjson::ondemand;
using namespace jsonscan;

static_assert(TraceBuffer::kPadding >= simdjson::SIMDJSON_PADDING);

constexpr std::int64_t kAbsurdNs = std::int64_t(7) * 24 * 3600 * 1000'000'000;
// Times (base + ts) and durations outside these bounds (about the year 2116 from the epoch) are refused, so
// no sum of a start, a duration and a source's shift can overflow.
constexpr std::int64_t kTimeLimitNs = std::int64_t(1) << 62;
constexpr std::int64_t kDurationLimitNs = std::int64_t(1) << 60;
constexpr int kDetailedDiagnostics = 10;

struct Open
{
    std::int64_t start;
    StringId name;
    StringId category;
    EventKind kind;
    ArgsRef args;
};

struct KindCache
{
    StringId category = 0;
    EventKind kind = EventKind::Other;
    bool device = false;
    bool valid = false;
};

class SourceReader
{
public:
    SourceReader(TraceStoreBuilder& builder, int source, const QString& name, const TraceInput& input,
                 const ImportControl& control, Diagnostics& diagnostics, int progressBase, int progressSpan)
        : m_builder(builder)
        , m_source(source)
        , m_name(name)
        , m_data(input.buffer->data())
        , m_bufferEnd(input.buffer->data() + input.buffer->capacity() + TraceBuffer::kPadding)
        , m_expected(std::max<std::uint64_t>(input.expected, 1))
        , m_control(control)
        , m_diagnostics(diagnostics)
        , m_progressBase(progressBase)
        , m_progressSpan(progressSpan)
    { }

    /// Handles one item of the scan; false when the import was canceled.
    bool handleItem(const ScanItem& item);
    void finishSource();
    bool canceled() const { return m_canceled; }

private:
    qint64 offsetOf(const char* p) const { return qint64(p - m_data); }
    void report(Severity severity, const char* at, const QString& message)
    {
        m_diagnostics.append({ severity, m_name, at ? offsetOf(at) : -1, -1, message });
    }
    void badEvent(const char* at, const QString& why);
    void reportProblem(const ScanItem& item);
    void handleMeta(std::string_view key, std::string_view value);
    void handleEvent(const char* begin, const char* end);

    /// The fields of one event object that the reader uses (views into the buffer or the parser).
    struct EventFields
    {
        std::string_view ph, name, cat, bp, args;
        Ident pid, tid;
        std::int64_t ts = 0, dur = 0;
        bool hasTs = false, hasDur = false, hasId = false;
        std::uint64_t id = 0;
        int fields = 0;
    };
    // The steps of handleEvent(); the reading steps return false after reporting a bad event.
    bool readFields(const char* begin, const char* end, od::object& obj, EventFields& e);
    bool eventStart(const char* begin, const EventFields& e, std::int64_t& start);
    void handleSlice(char phase, const EventFields& e, std::int64_t start, TraceSource& source);
    void handleEnd(const char* begin, const EventFields& e, std::int64_t start);
    void handleFlow(const char* begin, char phase, const EventFields& e, std::int64_t start);
    void handleAsync(char phase, const EventFields& e, std::int64_t start);

    int trackFor(const Ident& pid, const Ident& tid, bool device);
    int processFor(const Ident& pid);
    void applyMetadata(std::string_view name, const Ident& pid, const Ident& tid, std::string_view args);
    void addCounters(const Ident& pid, std::string_view name, std::int64_t time, std::string_view args);
    EventKind kindOf(StringId name, StringId category, std::string_view categoryText, std::string_view nameText,
                     bool& device);
    ArgsRef argsRef(std::string_view args) const
    {
        if (args.empty())
            return {};
        return { std::uint64_t(args.data() - m_data), std::uint32_t(std::min<std::size_t>(args.size(), UINT32_MAX)) };
    }
    void noteEnd(std::int64_t t) { m_maxEnd = std::max(m_maxEnd, t); }

    TraceStoreBuilder& m_builder;
    int m_source;
    QString m_name;
    const char* m_data;
    const char* m_bufferEnd;
    std::uint64_t m_expected;
    const ImportControl& m_control;
    Diagnostics& m_diagnostics;
    int m_progressBase;
    int m_progressSpan;

    od::parser m_parser;
    od::parser m_argsParser;
    std::int64_t m_base = 0;
    bool m_baseSet = false;
    std::uint64_t m_eventsSeen = 0;
    bool m_canceled = false;
    std::uint32_t m_sinceCheck = 0;
    std::int64_t m_maxEnd = std::numeric_limits<std::int64_t>::min();

    std::uint64_t m_badEvents = 0;
    qint64 m_firstBadOffset = -1;
    std::uint64_t m_unmatchedEnds = 0;

    std::string m_metadata;
    std::vector<std::vector<Open>> m_stacks; ///< per track: open B (or async b) events
    std::vector<KindCache> m_kinds; ///< per name id
    std::unordered_map<std::int64_t, int> m_processes;
    NamedIds m_namedIds;
    std::vector<std::uint8_t> m_processNamed; ///< per process: 1 default name, 2 from metadata
    std::vector<std::uint8_t> m_trackNamed;
    struct CacheEntry
    {
        std::int64_t pid = 0;
        std::int64_t tid = 0;
        int track = -1;
        bool device = false;
    };
    std::array<CacheEntry, 64> m_trackCache {};
};

void SourceReader::badEvent(const char* at, const QString& why)
{
    ++m_badEvents;
    if (m_firstBadOffset < 0)
        m_firstBadOffset = offsetOf(at);
    if (m_badEvents <= kDetailedDiagnostics)
        report(Severity::Warning, at,
               QCoreApplication::translate("runlens::ChromeTraceReader", "Skipped an event: %1").arg(why));
}

bool SourceReader::handleItem(const ScanItem& item)
{
    switch (item.type) {
    case ScanItem::Event:
        handleEvent(item.begin, item.end);
        if (++m_sinceCheck >= 4096) {
            m_sinceCheck = 0;
            if (m_control.canceled()) {
                m_canceled = true;
                report(Severity::Info, item.end,
                       QCoreApplication::translate("runlens::ChromeTraceReader",
                                                   "Import canceled; the events read so far are kept"));
                return false;
            }
            m_control.report(m_progressBase
                             + int(double(m_progressSpan) * double(item.end - m_data) / double(m_expected)));
        }
        return true;
    case ScanItem::Meta:
        handleMeta(item.keyText(), item.text());
        return true;
    case ScanItem::Problem:
        reportProblem(item);
        return true;
    }
    return true;
}

void SourceReader::reportProblem(const ScanItem& item)
{
    struct Text
    {
        ScanProblem problem;
        Severity severity;
        const char* text;
    };
    static constexpr Text kTexts[] = {
        { ScanProblem::Empty, Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader", "The trace file is empty") },
        { ScanProblem::NotATrace, Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "Not a Chrome trace: expected a JSON object with \"traceEvents\" or an array of events") },
        { ScanProblem::EndsInsideObject, Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "The trace ends inside its top-level object (truncated file?)") },
        { ScanProblem::UnexpectedTopLevel, Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "Unexpected character in the top-level object; the rest is ignored") },
        { ScanProblem::EndsInsideKey, Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader", "The trace ends inside a key (truncated file?)") },
        { ScanProblem::ExpectedColon, Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader", "Expected ':' after a top-level key; the rest is ignored") },
        { ScanProblem::EndsInsideValue, Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "The trace ends inside the value of \"%1\" (truncated file?)") },
        { ScanProblem::EndsInsideEventList, Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "The trace ends inside the event list (truncated file?); the events before are kept") },
        { ScanProblem::UnexpectedBetweenEvents, Severity::Warning,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "Unexpected text between events; skipped to the next event") },
        { ScanProblem::EndsInsideEvent, Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "The trace ends inside an event (truncated file?); the events before it are kept") },
        { ScanProblem::ReadIncomplete, Severity::Warning,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader", "The file could not be read completely") },
    };
    for (const Text& t : kTexts) {
        if (t.problem != item.problem)
            continue;
        QString message = QCoreApplication::translate("runlens::ChromeTraceReader", t.text);
        if (item.problem == ScanProblem::EndsInsideValue)
            message = message.arg(QString::fromUtf8(item.key, qsizetype(item.keyLength)));
        report(t.severity, item.begin, message);
        return;
    }
}

void SourceReader::handleMeta(std::string_view key, std::string_view value)
{
    m_metadata += m_metadata.empty() ? "{" : ",";
    m_metadata += '"';
    m_metadata += key;
    m_metadata += "\":";
    m_metadata += value;
    if (key == "baseTimeNanoseconds") {
        std::int64_t base = 0;
        if ((parseInt64(value, base) || parseMicrosToNanos(value, base)) && base >= -kTimeLimitNs
            && base <= kTimeLimitNs) {
            if (m_eventsSeen > 0 && !m_baseSet)
                m_builder.shiftSource(m_source, base);
            m_base = base;
            m_baseSet = true;
            m_builder.source(m_source).baseTimeNs = base;
        }
    } else if (key == "distributedInfo" && !value.empty() && value.front() == '{') {
        od::document doc;
        od::object info;
        std::int64_t rank = -1;
        if (!m_argsParser.iterate(value.data(), value.size(), std::size_t(m_bufferEnd - value.data())).get(doc)
            && !doc.get_object().get(info) && !info.find_field_unordered("rank").get_int64().get(rank)) {
            m_builder.source(m_source).rank = int(rank);
        }
    }
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
    const int track = m_builder.threadTrack(process, tid.value, device ? TrackType::GpuStream : TrackType::Thread);
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

EventKind SourceReader::kindOf(StringId name, StringId category, std::string_view categoryText,
                               std::string_view nameText, bool& device)
{
    if (name >= m_kinds.size())
        m_kinds.resize(std::max<std::size_t>(name + 1, m_kinds.size() * 2));
    KindCache& cache = m_kinds[name];
    if (!cache.valid || cache.category != category) {
        cache.category = category;
        cache.kind = eventKindFrom(categoryText, nameText);
        cache.device = isDeviceCategory(cache.kind, categoryText);
        cache.valid = true;
    }
    device = cache.device;
    return cache.kind;
}

void SourceReader::applyMetadata(std::string_view name, const Ident& pid, const Ident& tid, std::string_view args)
{
    if (args.empty())
        return;
    od::document doc;
    od::object obj;
    if (m_argsParser.iterate(args.data(), args.size(), std::size_t(m_bufferEnd - args.data())).get(doc)
        || doc.get_object().get(obj))
        return;
    const int process = processFor(pid);
    for (auto field : obj) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) || field.value().get(value))
            return;
        if (name == "process_name" && key == "name") {
            std::string_view text;
            if (!value.get_string().get(text)) {
                m_builder.setProcessName(process, text);
                m_processNamed[std::size_t(process)] = 2;
            }
        } else if (name == "process_labels" && key == "labels") {
            std::string_view text;
            if (!value.get_string().get(text))
                m_builder.setProcessLabels(process, text);
        } else if ((name == "process_sort_index" || name == "thread_sort_index") && key == "sort_index") {
            std::int64_t index = 0;
            double d;
            if (value.get_int64().get(index)) {
                if (value.get_double().get(d))
                    continue;
                index = std::int64_t(std::clamp(d, -1e9, 1e9));
            }
            index = std::clamp<std::int64_t>(index, -1'000'000'000, 1'000'000'000);
            if (name == "process_sort_index")
                m_builder.setProcessSortIndex(process, int(index));
            else
                m_builder.setTrackSortIndex(trackFor(pid, tid, false), int(index));
        } else if (name == "thread_name" && key == "name") {
            std::string_view text;
            if (!value.get_string().get(text)) {
                const int track = trackFor(pid, tid, false);
                m_builder.setTrackName(track, text);
                m_trackNamed[std::size_t(track)] = 2;
            }
        }
    }
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
    TraceSource& source = m_builder.source(m_source);
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

void SourceReader::handleSlice(char phase, const EventFields& e, std::int64_t start, TraceSource& source)
{
    StringTable& strings = m_builder.strings();
    const StringId nameId = strings.intern(e.name);
    const StringId catId = strings.intern(e.cat);
    bool device = false;
    const EventKind kind = kindOf(nameId, catId, e.cat, e.name, device);
    const int track = trackFor(e.pid, e.tid, device);
    const ArgsRef ref = argsRef(e.args);
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
            flags |= SliceFlag::AbsurdDuration;
    } else {
        flags |= SliceFlag::Instant;
        if (kind == EventKind::Memory && e.name == "[memory]")
            ++source.memoryEvents;
    }
    m_builder.addSlice(track, start, duration, nameId, catId, kind, ref, flags);
    noteEnd(start + duration);
    if (!e.args.empty() && needsCorrelation(kind)) {
        std::uint64_t correlation = 0;
        if (findUnsignedArg(e.args, "\"correlation\"", correlation) && correlation != 0)
            m_builder.setCorrelation(track, start, correlation);
    }
    if (!e.args.empty() && (kind == EventKind::CpuOp || (device && LaunchIndex::isDeviceWork(kind)))) {
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
                           duration > kAbsurdNs ? std::uint8_t(SliceFlag::AbsurdDuration) : std::uint8_t(0));
        noteEnd(start);
    } else {
        ++m_unmatchedEnds;
        if (m_unmatchedEnds <= kDetailedDiagnostics)
            report(Severity::Warning, begin,
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
    StringTable& strings = m_builder.strings();
    const int process = processFor(e.pid);
    const int track = m_builder.asyncTrack(process, e.cat, e.id);
    const StringId nameId = strings.intern(e.name);
    const StringId catId = strings.intern(e.cat);
    bool device = false;
    const EventKind kind = kindOf(nameId, catId, e.cat, e.name, device);
    if (std::size_t(track) >= m_stacks.size())
        m_stacks.resize(std::size_t(track) + 1);
    auto& stack = m_stacks[std::size_t(track)];
    if (phase == 'b') {
        stack.push_back({ start, nameId, catId, kind, argsRef(e.args) });
    } else if (phase == 'n') {
        m_builder.addSlice(track, start, 0, nameId, catId, kind, argsRef(e.args), SliceFlag::Instant);
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

void SourceReader::finishSource()
{
    TraceSource& source = m_builder.source(m_source);
    if (!m_metadata.empty()) {
        m_metadata += '}';
        source.metadataJson = QByteArray(m_metadata.data(), qsizetype(m_metadata.size()));
    }

    std::uint64_t unterminated = 0;
    const std::int64_t traceEnd = m_maxEnd == std::numeric_limits<std::int64_t>::min() ? 0 : m_maxEnd;
    for (std::size_t track = 0; track < m_stacks.size(); ++track) {
        for (const Open& open : m_stacks[track]) {
            m_builder.addSlice(int(track), open.start, std::max<std::int64_t>(traceEnd - open.start, 0), open.name,
                               open.category, open.kind, open.args, SliceFlag::Unterminated);
            ++unterminated;
        }
    }
    m_stacks.clear();
    if (unterminated > 0) {
        report(Severity::Warning, nullptr,
               QCoreApplication::translate("runlens::ChromeTraceReader",
                                           "%1 begin event(s) without an end; shown as running to the end of the trace")
                   .arg(unterminated));
    }
    if (m_unmatchedEnds > kDetailedDiagnostics) {
        report(Severity::Warning, nullptr,
               QCoreApplication::translate("runlens::ChromeTraceReader",
                                           "%1 end event(s) without a matching begin were ignored")
                   .arg(m_unmatchedEnds));
    }
    if (m_badEvents > 0) {
        m_diagnostics.append(
            { Severity::Warning, m_name, m_firstBadOffset, -1,
              QCoreApplication::translate("runlens::ChromeTraceReader",
                                          "%1 event(s) were skipped (invalid UTF-8, bad escapes or fields of the wrong "
                                          "type); the first one is at this offset")
                  .arg(m_badEvents) });
    }
    if (source.sentinelEvents > 0)
        qCDebug(lcTraceImport) << m_name << "skipped" << source.sentinelEvents << "empty sentinel events";
}

ChromeTraceResult finishResult(TraceStoreBuilder& builder, Diagnostics diagnostics, bool canceled,
                               const ImportControl& control)
{
    ChromeTraceResult result;
    result.store = builder.finish();
    result.diagnostics = std::move(diagnostics);
    result.canceled = canceled;
    control.report(1000);
    return result;
}

// Hands scanned items from the scanning thread to the parsing thread in batches, so the two threads
// meet once per few thousand events. Bounded, so a fast scanner does not run far ahead in memory.
class ScanQueue final : public ScanSink
{
public:
    bool take(const ScanItem& item) override
    {
        m_filling.push_back(item);
        if (m_filling.size() < kBatch)
            return !m_stopped.load(std::memory_order_relaxed);
        return flush();
    }

    void finish()
    {
        flush();
        std::lock_guard lock(m_mutex);
        m_done = true;
        m_ready.notify_all();
    }

    /// Swaps the next batch into `batch`; false when the scan is over and every batch was taken.
    bool pop(std::vector<ScanItem>& batch)
    {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [this] { return !m_full.empty() || m_done; });
        if (m_full.empty())
            return false;
        batch.clear();
        m_spare.push_back(std::move(batch));
        batch = std::move(m_full.front());
        m_full.pop_front();
        m_room.notify_one();
        return true;
    }

    void stop()
    {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
        m_room.notify_all();
    }

private:
    static constexpr std::size_t kBatch = 4096;
    static constexpr std::size_t kMaxBatches = 32;

    bool flush()
    {
        std::unique_lock lock(m_mutex);
        m_room.wait(lock, [this] { return m_full.size() < kMaxBatches || m_stopped; });
        if (m_stopped)
            return false;
        if (!m_filling.empty()) {
            m_full.push_back(std::move(m_filling));
            m_ready.notify_one();
        }
        if (!m_spare.empty()) {
            m_filling = std::move(m_spare.back());
            m_spare.pop_back();
        } else {
            m_filling = {};
        }
        m_filling.reserve(kBatch);
        return true;
    }

    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::condition_variable m_room;
    std::deque<std::vector<ScanItem>> m_full;
    std::vector<std::vector<ScanItem>> m_spare;
    std::vector<ScanItem> m_filling;
    std::atomic<bool> m_stopped { false };
    bool m_done = false;
};

// Parses items as the scanner finds them, on the scanner's thread.
class DirectSink final : public ScanSink
{
public:
    explicit DirectSink(SourceReader& reader)
        : m_reader(reader)
    { }
    bool take(const ScanItem& item) override { return m_reader.handleItem(item); }

private:
    SourceReader& m_reader;
};

// Inputs below this are scanned and parsed on one thread: starting a thread costs more than it saves.
constexpr std::uint64_t kThreadedBytes = std::uint64_t(4) << 20;

// Reads one input into the builder as a new source. Large inputs are scanned (and, for plain files,
// read from disk) on a second thread while this one parses the events.
bool readSource(TraceStoreBuilder& builder, const QString& name, TraceInput& input, const ImportControl& control,
                Diagnostics& diagnostics, int progressBase, int progressSpan)
{
    const int source = builder.addSource(name, input.buffer);
    if (!input.buffer)
        return !control.canceled();
    const qsizetype firstDiagnostic = diagnostics.size();
    const struct PlaceOffsets
    {
        Diagnostics& diagnostics;
        qsizetype first;
        const TraceInput& input;
        ~PlaceOffsets() { placeInflatedOffsets(diagnostics, first, input); }
    } placeOffsets { diagnostics, firstDiagnostic, input };
    SourceReader reader(builder, source, name, input, control, diagnostics, progressBase, progressSpan);
    EventScanner scanner(input);
    if (input.expected < kThreadedBytes) {
        DirectSink sink(reader);
        scanner.run(sink);
    } else {
        ScanQueue queue;
        std::thread scanning([&] {
            scanner.run(queue);
            queue.finish();
        });
        std::vector<ScanItem> batch;
        bool going = true;
        while (going && queue.pop(batch)) {
            for (const ScanItem& item : batch) {
                if (!reader.handleItem(item)) {
                    going = false;
                    break;
                }
            }
        }
        queue.stop();
        while (queue.pop(batch)) { }
        scanning.join();
    }
    reader.finishSource();
    return !reader.canceled();
}

} // namespace

ChromeTraceResult ChromeTraceReader::read(const QStringList& paths, const ImportControl& control)
{
    TraceStoreBuilder builder;
    Diagnostics diagnostics;
    const int count = int(std::max<qsizetype>(paths.size(), 1));
    bool canceled = false;
    for (int i = 0; i < paths.size() && !canceled; ++i) {
        TraceInput input = openTraceInput(paths[i], diagnostics, control);
        if (control.canceled()) {
            canceled = true;
            break;
        }
        const int base = 1000 * i / count;
        const int span = 1000 / count;
        canceled = !readSource(builder, paths[i], input, control, diagnostics, base, span);
    }
    return finishResult(builder, std::move(diagnostics), canceled, control);
}

ChromeTraceResult ChromeTraceReader::readBytes(const std::string& bytes, const QString& name,
                                               const ImportControl& control)
{
    TraceStoreBuilder builder;
    Diagnostics diagnostics;
    TraceInput input = traceInputFromBytes(bytes, name, diagnostics, control);
    const bool canceled = !readSource(builder, name, input, control, diagnostics, 0, 1000);
    return finishResult(builder, std::move(diagnostics), canceled, control);
}

} // namespace runlens::trace
