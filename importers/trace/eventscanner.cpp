#include "importers/trace/eventscanner.h"

#include "importers/trace/jsonscan.h"
#include "importers/trace/traceinput.h"

#include <cstring>

namespace runlens::importers::trace {

using namespace jsonscan;

namespace {

// Large enough that system calls and rescans of a partly read event cost nothing, small enough that
// the parser starts at once.
constexpr std::size_t kReadChunk = std::size_t(8) << 20;

} // namespace

EventScanner::EventScanner(TraceInput& input)
    : m_input(input)
    , m_data(input.buffer ? input.buffer->data() : nullptr)
    , m_end(input.buffer ? input.buffer->data() + input.buffer->size() : nullptr)
{ }

bool EventScanner::more()
{
    if (m_input.complete())
        return false;
    readMore(m_input, kReadChunk);
    const char* end = m_data + m_input.buffer->size();
    const bool grew = end > m_end;
    m_end = end;
    return grew || !m_input.complete();
}

const char* EventScanner::whitespace(const char* p)
{
    p = skipWhitespace(p, m_end);
    while (p >= m_end && more())
        p = skipWhitespace(p, m_end);
    return p;
}

const char* EventScanner::value(const char* p)
{
    const char* end = skipValue(p, m_end);
    while (!end && more())
        end = skipValue(p, m_end);
    return end;
}

const char* EventScanner::string(const char* p)
{
    const char* end = skipString(p, m_end);
    while (!end && more())
        end = skipString(p, m_end);
    return end;
}

const char* EventScanner::resync(const char* p)
{
    // The next '{' that follows a ',' (the start of the next event) after damaged text.
    const char* from = p;
    while (true) {
        while (from < m_end) {
            const auto* brace = static_cast<const char*>(std::memchr(from, '{', std::size_t(m_end - from)));
            if (!brace)
                break;
            const char* q = brace;
            while (q > p && (q[-1] == ' ' || q[-1] == '\n' || q[-1] == '\r' || q[-1] == '\t'))
                --q;
            if (q > p && q[-1] == ',')
                return brace;
            from = brace + 1;
        }
        from = std::max(from, m_end);
        if (!more())
            return nullptr;
    }
}

bool EventScanner::problem(ScanProblem what, const char* at, std::string_view key)
{
    ScanItem item;
    item.type = ScanItem::Problem;
    item.problem = what;
    item.begin = item.end = at;
    item.key = key.data();
    item.keyLength = std::uint32_t(key.size());
    if (!m_sink->take(item))
        m_stopped = true;
    return !m_stopped;
}

bool EventScanner::run(ScanSink& sink)
{
    m_sink = &sink;
    m_stopped = false;
    if (!m_data)
        return true;
    const char* p = whitespace(m_data);
    while (m_end - p < 3 && more()) { }
    if (m_end - p >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p = whitespace(p + 3);
    if (p >= m_end)
        problem(ScanProblem::Empty, p);
    else if (*p == '[')
        events(p);
    else if (*p == '{')
        envelope(p);
    else
        problem(ScanProblem::NotATrace, p);
    // Whatever the scan found, the file is read to its end so the retained input is complete.
    while (!m_stopped && more()) { }
    if (!m_stopped && m_input.truncatedRead)
        problem(ScanProblem::ReadIncomplete, m_end);
    return !m_stopped;
}

bool EventScanner::envelope(const char* p)
{
    ++p;
    while (true) {
        p = whitespace(p);
        if (p >= m_end)
            return problem(ScanProblem::EndsInsideObject, p);
        if (*p == '}')
            return true;
        if (*p == ',') {
            ++p;
            continue;
        }
        if (*p != '"')
            return problem(ScanProblem::UnexpectedTopLevel, p);
        const char* keyEnd = string(p);
        if (!keyEnd)
            return problem(ScanProblem::EndsInsideKey, p);
        const std::string_view key(p + 1, std::size_t(keyEnd - p - 2));
        p = whitespace(keyEnd);
        if (p >= m_end || *p != ':')
            return problem(ScanProblem::ExpectedColon, p);
        p = whitespace(p + 1);
        if (key == "traceEvents" && p < m_end && *p == '[') {
            p = events(p);
            if (!p)
                return !m_stopped;
            continue;
        }
        const char* valueEnd = p < m_end ? value(p) : nullptr;
        if (!valueEnd)
            return problem(ScanProblem::EndsInsideValue, p, key);
        ScanItem item;
        item.type = ScanItem::Meta;
        item.begin = p;
        item.end = valueEnd;
        item.key = key.data();
        item.keyLength = std::uint32_t(key.size());
        if (!m_sink->take(item)) {
            m_stopped = true;
            return false;
        }
        p = valueEnd;
    }
}

const char* EventScanner::events(const char* p)
{
    ++p;
    ScanItem item;
    item.type = ScanItem::Event;
    while (true) {
        p = whitespace(p);
        if (p >= m_end) {
            problem(ScanProblem::EndsInsideEventList, p);
            return nullptr;
        }
        const char c = *p;
        if (c == ']')
            return p + 1;
        if (c == ',') {
            ++p;
            continue;
        }
        if (c != '{') {
            if (!problem(ScanProblem::UnexpectedBetweenEvents, p))
                return nullptr;
            p = resync(p);
            if (!p)
                return nullptr;
            continue;
        }
        const char* eventEnd = value(p);
        if (!eventEnd) {
            problem(ScanProblem::EndsInsideEvent, p);
            return nullptr;
        }
        item.begin = p;
        item.end = eventEnd;
        if (!m_sink->take(item)) {
            m_stopped = true;
            return nullptr;
        }
        p = eventEnd;
    }
}

} // namespace runlens::importers::trace
