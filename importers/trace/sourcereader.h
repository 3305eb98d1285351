#pragma once

#include "importers/core/importcontrol.h"
#include "importers/trace/eventscanner.h"
#include "importers/trace/traceinput.h"
#include "importers/trace/tracevalues.h"
#include "models/core/diagnostic.h"
#include "models/trace/tracestorebuilder.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QString>

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

Q_DECLARE_LOGGING_CATEGORY(lcTraceImport)

namespace runlens::importers::trace {

static_assert(models::trace::TraceBuffer::kPadding >= simdjson::SIMDJSON_PADDING);

/// Reads the items of one Chrome trace source, as the scanner splits them, into a TraceStoreBuilder. Events
/// are decoded in sourcereader.cpp; top-level metadata, process and thread names, scan problems and the end
/// of a source are in sourcereadermetadata.cpp. Used by ChromeTraceReader only; one reader per source.
class SourceReader
{
public:
    SourceReader(models::trace::TraceStoreBuilder& builder, int source, const QString& name, const TraceInput& input,
                 const ImportControl& control, models::Diagnostics& diagnostics, int progressBase, int progressSpan)
        : m_builder(builder)
        , m_source(source)
        , m_name(name)
        , m_data(input.buffer->data())
        , m_bufferEnd(input.buffer->data() + input.buffer->capacity() + models::trace::TraceBuffer::kPadding)
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
    static constexpr std::int64_t kAbsurdNs = std::int64_t(7) * 24 * 3600 * 1000'000'000;
    // Times (base + ts) and durations outside these bounds (about the year 2116 from the epoch) are refused, so
    // no sum of a start, a duration and a source's shift can overflow.
    static constexpr std::int64_t kTimeLimitNs = std::int64_t(1) << 62;
    static constexpr std::int64_t kDurationLimitNs = std::int64_t(1) << 60;
    static constexpr int kDetailedDiagnostics = 10;

    struct Open
    {
        std::int64_t start;
        models::trace::StringId name;
        models::trace::StringId category;
        models::trace::EventKind kind;
        models::trace::ArgsRef args;
    };

    struct KindCache
    {
        models::trace::StringId category = 0;
        models::trace::EventKind kind = models::trace::EventKind::Other;
        bool device = false;
        bool valid = false;
    };

    qint64 offsetOf(const char* p) const { return qint64(p - m_data); }
    void report(models::Severity severity, const char* at, const QString& message)
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
    bool readFields(const char* begin, const char* end, simdjson::ondemand::object& obj, EventFields& e);
    bool eventStart(const char* begin, const EventFields& e, std::int64_t& start);
    void handleSlice(char phase, const EventFields& e, std::int64_t start, models::trace::TraceSource& source);
    void handleEnd(const char* begin, const EventFields& e, std::int64_t start);
    void handleFlow(const char* begin, char phase, const EventFields& e, std::int64_t start);
    void handleAsync(char phase, const EventFields& e, std::int64_t start);

    int trackFor(const Ident& pid, const Ident& tid, bool device);
    int processFor(const Ident& pid);
    void applyMetadata(std::string_view name, const Ident& pid, const Ident& tid, std::string_view args);
    void addCounters(const Ident& pid, std::string_view name, std::int64_t time, std::string_view args);
    models::trace::EventKind kindOf(models::trace::StringId name, models::trace::StringId category,
                                    std::string_view categoryText, std::string_view nameText, bool& device);
    models::trace::ArgsRef argsRef(std::string_view args) const
    {
        if (args.empty())
            return {};
        return { std::uint64_t(args.data() - m_data), std::uint32_t(std::min<std::size_t>(args.size(), UINT32_MAX)) };
    }
    void noteEnd(std::int64_t t) { m_maxEnd = std::max(m_maxEnd, t); }

    models::trace::TraceStoreBuilder& m_builder;
    int m_source;
    QString m_name;
    const char* m_data;
    const char* m_bufferEnd;
    std::uint64_t m_expected;
    const ImportControl& m_control;
    models::Diagnostics& m_diagnostics;
    int m_progressBase;
    int m_progressSpan;

    simdjson::ondemand::parser m_parser;
    simdjson::ondemand::parser m_argsParser;
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

inline bool SourceReader::handleItem(const ScanItem& item)
{
    switch (item.type) {
    case ScanItem::Event:
        handleEvent(item.begin, item.end);
        if (++m_sinceCheck >= 4096) {
            m_sinceCheck = 0;
            if (m_control.canceled()) {
                m_canceled = true;
                report(models::Severity::Info, item.end,
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

} // namespace runlens::importers::trace
