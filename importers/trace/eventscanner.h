#pragma once

#include <cstdint>
#include <string_view>

namespace runlens::importers::trace {

struct TraceInput;

/// Problems found while walking the top level of a trace (the per-event parser reports the rest).
enum class ScanProblem : std::uint8_t {
    None,
    Empty,
    NotATrace,
    EndsInsideObject,
    UnexpectedTopLevel,
    EndsInsideKey,
    ExpectedColon,
    EndsInsideValue,
    EndsInsideEventList,
    UnexpectedBetweenEvents,
    EndsInsideEvent,
    ReadIncomplete,
};

/// One piece of a trace's top level, in file order: an event's text, a top-level key with its value
/// (envelope metadata), or a problem at a position.
struct ScanItem
{
    enum Type : std::uint8_t { Event, Meta, Problem };
    Type type = Event;
    ScanProblem problem = ScanProblem::None;
    std::uint32_t keyLength = 0;
    const char* begin = nullptr; ///< event or value text; for problems, where it was found
    const char* end = nullptr;
    const char* key = nullptr; ///< Meta and EndsInsideValue: the key (without quotes)

    std::string_view text() const { return { begin, std::size_t(end - begin) }; }
    std::string_view keyText() const { return { key, keyLength }; }
};

/// Receives the items of a scan; returning false stops the scan.
class ScanSink
{
public:
    virtual ~ScanSink() = default;
    virtual bool take(const ScanItem& item) = 0;
};

/// Finds where each event of a Chrome trace starts and ends without parsing it: the envelope object
/// (`traceEvents` among other keys, in any order) or a bare array, with resynchronisation after damaged
/// text. When the input is still being read, the scanner reads more of it whenever it reaches the end
/// of what is there, so reading and scanning run on one thread while a consumer parses the events.
class EventScanner
{
public:
    /// Scans `input`, reading the rest of a progressively read file as needed.
    explicit EventScanner(TraceInput& input);

    /// Walks the whole input, handing items to `sink` in order. Returns false when the sink stopped it.
    bool run(ScanSink& sink);

private:
    bool more();
    const char* whitespace(const char* p);
    const char* value(const char* p);
    const char* string(const char* p);
    const char* resync(const char* p);
    bool problem(ScanProblem what, const char* at, std::string_view key = {});
    bool envelope(const char* p);
    // Returns the position after the list, nullptr when the scan ended inside it.
    const char* events(const char* p);

    TraceInput& m_input;
    const char* m_data;
    const char* m_end;
    ScanSink* m_sink = nullptr;
    bool m_stopped = false;
};

} // namespace runlens::importers::trace
