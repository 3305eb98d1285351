#include "importers/memory/memorytimelinereader.h"

#include "importers/trace/traceinput.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace runlens::importers::memory {

namespace {

/// torch's memory profiler actions (the second field of a raw tuple). Scoped: lupdate does not parse an unscoped
/// enum with an underlying type and then files the texts after it under a wrong context.
enum class Action : std::int64_t {
    PreExisting = 1, ///< alive before profiling started; its ts is -1
    Create = 2,
    IncrementVersion = 3, ///< written as a -old / +new pair
    Destroy = 4,
};

/// One `[ts_ns, action, bytes, category]` tuple.
struct Tuple
{
    std::int64_t ts;
    std::int64_t action;
    std::int64_t bytes;
    int category;
};

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::memory)
};

/// A forward-only reader of the small JSON subset these files use (arrays of numbers), so that a
/// damaged file keeps every tuple before the damage and the diagnostic can give a byte offset.
class NumberScanner
{
public:
    NumberScanner(const char* begin, std::size_t size)
        : m_begin(begin)
        , m_p(begin)
        , m_end(begin + size)
    { }

    qint64 offset() const { return qint64(m_p - m_begin); }
    double fraction() const { return m_end == m_begin ? 1.0 : double(m_p - m_begin) / double(m_end - m_begin); }
    bool atEnd()
    {
        skipSpace();
        return m_p == m_end;
    }
    char peek()
    {
        skipSpace();
        return m_p == m_end ? '\0' : *m_p;
    }
    bool take(char c)
    {
        if (peek() != c)
            return false;
        ++m_p;
        return true;
    }
    /// An integer (a fractional or exponent number is rounded); `null` reads as `nullValue`.
    bool integer(std::int64_t& out, std::int64_t nullValue = 0)
    {
        skipSpace();
        if (m_end - m_p >= 4 && std::equal(m_p, m_p + 4, "null")) {
            m_p += 4;
            out = nullValue;
            return true;
        }
        const char* start = m_p;
        const auto [ptr, ec] = std::from_chars(m_p, m_end, out);
        if (ec == std::errc() && (ptr == m_end || (*ptr != '.' && *ptr != 'e' && *ptr != 'E'))) {
            m_p = ptr;
            return true;
        }
        double value = 0;
        const auto [dptr, dec] = std::from_chars(start, m_end, value);
        if (dec != std::errc() || !std::isfinite(value) || std::fabs(value) > 9.2e18)
            return false;
        m_p = dptr;
        out = std::llround(value);
        return true;
    }

private:
    void skipSpace()
    {
        while (m_p != m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

    const char* m_begin;
    const char* m_p;
    const char* m_end;
};

struct Reading
{
    const QString& name;
    const ImportControl& control;
    MemoryReadResult& result;
    bool canceled = false;

    /// `what` is marked with QT_TRANSLATE_NOOP("runlens::memory", ...) where it is written.
    void fail(const NumberScanner& scanner, const char* what)
    {
        models::Diagnostic d;
        d.severity = models::Severity::Error;
        d.file = name;
        d.offset = scanner.offset();
        d.message = Text::tr(what);
        result.diagnostics.append(d);
    }
    bool poll(const NumberScanner& scanner, std::size_t count)
    {
        if ((count & 0xffff) != 0)
            return true;
        control.report(int(scanner.fraction() * 1000));
        canceled = control.canceled();
        return !canceled;
    }
};

int categoryIndex(std::int64_t category)
{
    // Tensors the profiler could not classify are written with the last index (or null).
    return category >= 0 && category < models::memory::kMemoryCategoryCount
        ? int(category)
        : int(models::memory::MemoryCategory::Unknown);
}

/// The raw tuples after the opening bracket of the top-level array.
std::vector<Tuple> readTuples(NumberScanner& scanner, Reading& reading)
{
    std::vector<Tuple> tuples;
    if (scanner.take(']'))
        return tuples;
    while (true) {
        if (!reading.poll(scanner, tuples.size()))
            return tuples;
        std::int64_t fields[4] = {};
        if (!scanner.take('[')) {
            reading.fail(
                scanner,
                QT_TRANSLATE_NOOP("runlens::memory",
                                  "Expected a [ts, action, bytes, category] tuple; the rest of the file was skipped"));
            return tuples;
        }
        for (int f = 0; f < 4; ++f) {
            if ((f > 0 && !scanner.take(',')) || !scanner.integer(fields[f], f == 3 ? -1 : 0)) {
                reading.fail(
                    scanner,
                    QT_TRANSLATE_NOOP("runlens::memory",
                                      "A memory timeline tuple is not four numbers; the rest of the file was skipped"));
                return tuples;
            }
        }
        if (!scanner.take(']')) {
            reading.fail(scanner,
                         QT_TRANSLATE_NOOP(
                             "runlens::memory",
                             "A memory timeline tuple has more than four fields; the rest of the file was skipped"));
            return tuples;
        }
        tuples.push_back({ fields[0], fields[1], fields[2], categoryIndex(fields[3]) });
        if (scanner.take(','))
            continue;
        if (scanner.take(']'))
            return tuples;
        reading.fail(scanner,
                     QT_TRANSLATE_NOOP("runlens::memory",
                                       "The memory timeline ends early (truncated file?); the rest was skipped"));
        return tuples;
    }
}

/// Curves of raw tuples: per category the running sum of signed sizes, sampled once per distinct time.
void buildFromTuples(std::vector<Tuple>& tuples, models::memory::MemoryDevice& device)
{
    std::int64_t firstReal = std::numeric_limits<std::int64_t>::max();
    for (const Tuple& tuple : tuples) {
        if (tuple.ts >= 0)
            firstReal = std::min(firstReal, tuple.ts);
    }
    if (firstReal == std::numeric_limits<std::int64_t>::max())
        firstReal = 0;
    for (Tuple& tuple : tuples) {
        // Pre-existing tensors (ts -1) are alive from the start of the profile.
        if (tuple.ts < 0)
            tuple.ts = firstReal;
    }
    std::stable_sort(tuples.begin(), tuples.end(), [](const Tuple& a, const Tuple& b) { return a.ts < b.ts; });

    std::array<double, models::memory::kMemoryCategoryCount> current {};
    device.events.reserve(tuples.size());
    for (std::size_t i = 0; i < tuples.size(); ++i) {
        const Tuple& tuple = tuples[i];
        current[std::size_t(tuple.category)] += double(tuple.bytes);
        models::memory::MemoryEvent event;
        event.x = tuple.ts;
        event.bytes = tuple.bytes;
        event.category = std::int8_t(tuple.category);
        device.events.push_back(event);
        if (i + 1 < tuples.size() && tuples[i + 1].ts == tuple.ts)
            continue;
        double total = 0;
        for (int c = 0; c < models::memory::kMemoryCategoryCount; ++c) {
            device.categories[std::size_t(c)].x.push_back(tuple.ts);
            device.categories[std::size_t(c)].bytes.push_back(current[std::size_t(c)]);
            total += current[std::size_t(c)];
        }
        device.allocated.x.push_back(tuple.ts);
        device.allocated.bytes.push_back(total);
    }
}

/// The `[times, sizes]` form after the opening bracket of the top-level array: times in µs, each size
/// entry one value per category (torch writes a leading unused slot, so 9 values).
void readCoalesced(NumberScanner& scanner, Reading& reading, models::memory::MemoryDevice& device)
{
    std::vector<std::int64_t> times;
    if (!scanner.take('[')) {
        reading.fail(scanner, QT_TRANSLATE_NOOP("runlens::memory", "Expected the list of times of a memory timeline"));
        return;
    }
    if (!scanner.take(']')) {
        do {
            std::int64_t t = 0;
            if (!scanner.integer(t)) {
                reading.fail(scanner,
                             QT_TRANSLATE_NOOP("runlens::memory", "A time of the memory timeline is not a number"));
                return;
            }
            times.push_back(t);
        } while (scanner.take(','));
        if (!scanner.take(']')) {
            reading.fail(scanner,
                         QT_TRANSLATE_NOOP("runlens::memory",
                                           "The list of times of the memory timeline ends early (truncated file?)"));
            return;
        }
    }
    if (!scanner.take(',') || !scanner.take('[')) {
        reading.fail(
            scanner,
            QT_TRANSLATE_NOOP("runlens::memory", "Expected the list of sizes of a memory timeline after its times"));
        return;
    }
    std::size_t row = 0;
    bool ok = scanner.take(']');
    while (!ok) {
        if (!reading.poll(scanner, row))
            return;
        std::vector<std::int64_t> values;
        if (!scanner.take('[')) {
            reading.fail(scanner, QT_TRANSLATE_NOOP("runlens::memory", "Expected a list of sizes per category"));
            return;
        }
        if (!scanner.take(']')) {
            do {
                std::int64_t v = 0;
                if (!scanner.integer(v)) {
                    reading.fail(scanner,
                                 QT_TRANSLATE_NOOP("runlens::memory", "A size of the memory timeline is not a number"));
                    return;
                }
                values.push_back(v);
            } while (scanner.take(','));
            if (!scanner.take(']')) {
                reading.fail(scanner,
                             QT_TRANSLATE_NOOP("runlens::memory",
                                               "A list of sizes of the memory timeline ends early (truncated file?)"));
                return;
            }
        }
        if (row >= times.size()) {
            reading.fail(
                scanner,
                QT_TRANSLATE_NOOP("runlens::memory",
                                  "The memory timeline has more sizes than times; the extra sizes were skipped"));
            return;
        }
        const std::size_t skip = values.size() > std::size_t(models::memory::kMemoryCategoryCount) ? 1 : 0;
        double total = 0;
        for (int c = 0; c < models::memory::kMemoryCategoryCount; ++c) {
            const std::size_t at = skip + std::size_t(c);
            const double bytes = at < values.size() ? double(values[at]) : 0.0;
            device.categories[std::size_t(c)].x.push_back(times[row] * 1000);
            device.categories[std::size_t(c)].bytes.push_back(bytes);
            total += bytes;
        }
        device.allocated.x.push_back(times[row] * 1000);
        device.allocated.bytes.push_back(total);
        ++row;
        if (scanner.take(','))
            continue;
        ok = scanner.take(']');
        if (!ok) {
            reading.fail(scanner,
                         QT_TRANSLATE_NOOP("runlens::memory",
                                           "The memory timeline ends early (truncated file?); the rest was skipped"));
            return;
        }
    }
    if (!scanner.take(']'))
        reading.fail(scanner, QT_TRANSLATE_NOOP("runlens::memory", "The memory timeline ends early (truncated file?)"));
}

MemoryReadResult readBuffer(const trace::TraceInput& input, const QString& name, const ImportControl& control,
                            models::Diagnostics diagnostics)
{
    MemoryReadResult result;
    result.diagnostics = std::move(diagnostics);
    auto profile = std::make_shared<models::memory::MemoryProfile>();
    profile->kind = models::memory::MemorySourceKind::MemoryTimeline;
    profile->axis = models::memory::MemoryAxis::TimeNs;
    profile->paths = QStringList { name };

    models::memory::MemoryDevice device;
    device.label = QStringLiteral("device"); // the raw export does not say which device it profiled
    device.allocated.name = Text::tr("Total");
    device.categories.resize(std::size_t(models::memory::kMemoryCategoryCount));
    for (int c = 0; c < models::memory::kMemoryCategoryCount; ++c)
        device.categories[std::size_t(c)].name = models::memory::memoryCategoryName(models::memory::MemoryCategory(c));

    Reading reading { name, control, result };
    if (input.buffer) {
        NumberScanner scanner(input.buffer->data(), input.buffer->size());
        if (!scanner.take('[')) {
            reading.fail(scanner, QT_TRANSLATE_NOOP("runlens::memory", "Not a memory timeline: expected a JSON array"));
        } else if (scanner.peek() == '[') {
            // Raw tuples, unless the first element is the times list of the `[times, sizes]` form: then the
            // element after it is a list of lists.
            NumberScanner probe = scanner;
            bool coalesced = false;
            if (probe.take('[')) {
                std::int64_t ignored = 0;
                while (probe.integer(ignored) && probe.take(','))
                    ;
                coalesced = probe.take(']') && probe.take(',') && probe.take('[') && probe.peek() == '[';
            }
            if (coalesced) {
                readCoalesced(scanner, reading, device);
            } else {
                std::vector<Tuple> tuples = readTuples(scanner, reading);
                buildFromTuples(tuples, device);
            }
            if (!reading.canceled && result.diagnostics.isEmpty() && !scanner.atEnd())
                reading.fail(
                    scanner,
                    QT_TRANSLATE_NOOP("runlens::memory", "Unexpected data after the memory timeline; it was ignored"));
        } else if (!scanner.take(']')) {
            reading.fail(
                scanner,
                QT_TRANSLATE_NOOP("runlens::memory",
                                  "Not a memory timeline: expected an array of [ts, action, bytes, category] tuples"));
        }
    }
    control.report(1000);

    const bool empty = device.allocated.empty() && device.events.empty();
    if (!empty)
        profile->devices.push_back(std::move(device));
    bool errors = false;
    for (const models::Diagnostic& d : result.diagnostics)
        errors = errors || d.severity != models::Severity::Info;
    if (reading.canceled)
        result.status = models::ImportStatus::Canceled;
    else if (!input.buffer || (errors && empty))
        result.status = models::ImportStatus::Failed;
    else
        result.status = errors ? models::ImportStatus::Partial : models::ImportStatus::Ok;
    result.profile = std::move(profile);
    return result;
}

} // namespace

MemoryReadResult readMemoryTimeline(const QString& path, const ImportControl& control)
{
    models::Diagnostics diagnostics;
    const trace::TraceInput input = trace::readTraceInput(path, diagnostics, control);
    const qsizetype first = diagnostics.size();
    MemoryReadResult result = readBuffer(input, path, control, std::move(diagnostics));
    trace::placeInflatedOffsets(result.diagnostics, first, input);
    // The file is mapped: one that shrank while it was parsed read as zeros past its new end.
    input.reportDamage(result.diagnostics, path);
    return result;
}

MemoryReadResult readMemoryTimelineBytes(const std::string& bytes, const QString& name, const ImportControl& control)
{
    models::Diagnostics diagnostics;
    const trace::TraceInput input = trace::traceInputFromBytes(bytes, name, diagnostics, control);
    const qsizetype first = diagnostics.size();
    MemoryReadResult result = readBuffer(input, name, control, std::move(diagnostics));
    trace::placeInflatedOffsets(result.diagnostics, first, input);
    return result;
}

} // namespace runlens::importers::memory
