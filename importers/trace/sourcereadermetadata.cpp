#include "importers/trace/sourcereader.h"

#include "importers/trace/jsonscan.h"

namespace runlens::importers::trace {

namespace od = simdjson::ondemand;
using namespace jsonscan;

void SourceReader::reportProblem(const ScanItem& item)
{
    struct Text
    {
        ScanProblem problem;
        models::Severity severity;
        const char* text;
    };
    static constexpr Text kTexts[] = {
        { ScanProblem::Empty, models::Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader", "The trace file is empty") },
        { ScanProblem::NotATrace, models::Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "Not a Chrome trace: expected a JSON object with \"traceEvents\" or an array of events") },
        { ScanProblem::EndsInsideObject, models::Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "The trace ends inside its top-level object (truncated file?)") },
        { ScanProblem::UnexpectedTopLevel, models::Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "Unexpected character in the top-level object; the rest is ignored") },
        { ScanProblem::EndsInsideKey, models::Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader", "The trace ends inside a key (truncated file?)") },
        { ScanProblem::ExpectedColon, models::Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader", "Expected ':' after a top-level key; the rest is ignored") },
        { ScanProblem::EndsInsideValue, models::Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "The trace ends inside the value of \"%1\" (truncated file?)") },
        { ScanProblem::EndsInsideEventList, models::Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "The trace ends inside the event list (truncated file?); the events before are kept") },
        { ScanProblem::UnexpectedBetweenEvents, models::Severity::Warning,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "Unexpected text between events; skipped to the next event") },
        { ScanProblem::EndsInsideEvent, models::Severity::Error,
          QT_TRANSLATE_NOOP("runlens::ChromeTraceReader",
                            "The trace ends inside an event (truncated file?); the events before it are kept") },
        { ScanProblem::ReadIncomplete, models::Severity::Warning,
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

void SourceReader::finishSource()
{
    models::trace::TraceSource& source = m_builder.source(m_source);
    if (!m_metadata.empty()) {
        m_metadata += '}';
        source.metadataJson = QByteArray(m_metadata.data(), qsizetype(m_metadata.size()));
    }

    std::uint64_t unterminated = 0;
    const std::int64_t traceEnd = m_maxEnd == std::numeric_limits<std::int64_t>::min() ? 0 : m_maxEnd;
    for (std::size_t track = 0; track < m_stacks.size(); ++track) {
        for (const Open& open : m_stacks[track]) {
            m_builder.addSlice(int(track), open.start, std::max<std::int64_t>(traceEnd - open.start, 0), open.name,
                               open.category, open.kind, open.args, models::trace::SliceFlag::Unterminated);
            ++unterminated;
        }
    }
    m_stacks.clear();
    if (unterminated > 0) {
        report(models::Severity::Warning, nullptr,
               QCoreApplication::translate("runlens::ChromeTraceReader",
                                           "%1 begin event(s) without an end; shown as running to the end of the trace")
                   .arg(unterminated));
    }
    if (m_unmatchedEnds > kDetailedDiagnostics) {
        report(models::Severity::Warning, nullptr,
               QCoreApplication::translate("runlens::ChromeTraceReader",
                                           "%1 end event(s) without a matching begin were ignored")
                   .arg(m_unmatchedEnds));
    }
    if (m_badEvents > 0) {
        m_diagnostics.append(
            { models::Severity::Warning, m_name, m_firstBadOffset, -1,
              QCoreApplication::translate("runlens::ChromeTraceReader",
                                          "%1 event(s) were skipped (invalid UTF-8, bad escapes or fields of the wrong "
                                          "type); the first one is at this offset")
                  .arg(m_badEvents) });
    }
    if (source.sentinelEvents > 0)
        qCDebug(lcTraceImport) << m_name << "skipped" << source.sentinelEvents << "empty sentinel events";
}

} // namespace runlens::importers::trace
