#include "importers/trace/chrometracereader.h"

#include "importers/core/filemapping.h"
#include "importers/trace/scanqueue.h"
#include "importers/trace/sourcereader.h"
#include "importers/trace/tracecache.h"
#include "importers/trace/traceinput.h"
#include "models/trace/tracelod.h"
#include "models/trace/tracestorebuilder.h"

#include <QDir>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSaveFile>

#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <thread>
#include <vector>

Q_LOGGING_CATEGORY(lcTraceImport, "runlens.importers.trace")

namespace runlens::importers::trace {

namespace {

ChromeTraceResult finishResult(models::trace::TraceStoreBuilder& builder, models::Diagnostics diagnostics,
                               bool canceled, const ImportControl& control)
{
    ChromeTraceResult result;
    result.store = builder.finish();
    result.diagnostics = std::move(diagnostics);
    result.canceled = canceled;
    control.report(1000);
    return result;
}

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

// Slices and counter values a partial store holds at most: enough for the first frame of any trace, small
// next to the store being built (about 45 B each while copied), so painting while reading stays within its
// memory.
constexpr std::size_t kSnapshotEvents = 1'000'000;

// Pages of a mapped input are let go in steps of this behind the parser.
constexpr std::uint64_t kReleaseStep = std::uint64_t(64) << 20;
// Pages of an index cache are let go in steps of this as its arrays are copied out: the copies are the
// store, so what stays mapped is only overhead.
constexpr std::uint64_t kIndexReleaseStep = std::uint64_t(16) << 20;

// Publishes partial stores of what the builder holds while a large input is read (ImportControl::
// traceSnapshot). Once the budget of events is reached only the progress is published (a null store): a copy
// per interval would cost more than the frame it buys, and holding the last one would cost its memory.
class Snapshots
{
public:
    Snapshots(const models::trace::TraceStoreBuilder& builder, const ImportControl& control, const TraceInput& input,
              int base, int span)
        : m_builder(builder)
        , m_control(control)
        , m_input(input)
        , m_base(base)
        , m_span(span)
        , m_last(std::chrono::steady_clock::now())
    { }
    void after(const char* position)
    {
        if (!m_control.traceSnapshot)
            return;
        const auto now = std::chrono::steady_clock::now();
        if (now - m_last < std::chrono::milliseconds(m_control.snapshotIntervalMs))
            return;
        const char* data = m_input.buffer->data();
        const std::uint64_t done = position >= data ? std::uint64_t(position - data) : 0;
        const int permille = m_base
            + int(double(m_span) * std::min(1.0, double(done) / double(std::max<std::uint64_t>(m_input.expected, 1))));
        std::shared_ptr<const models::trace::TraceStore> partial;
        if (!m_full) {
            m_full = m_builder.eventCount() >= kSnapshotEvents;
            partial = m_builder.snapshot(kSnapshotEvents);
        }
        m_control.traceSnapshot(std::move(partial), permille);
        m_last = std::chrono::steady_clock::now();
    }

private:
    const models::trace::TraceStoreBuilder& m_builder;
    const ImportControl& m_control;
    const TraceInput& m_input;
    int m_base;
    int m_span;
    std::chrono::steady_clock::time_point m_last;
    bool m_full = false;
};

// Reads one input into the builder as a new source. Large inputs are scanned (and, for files that cannot be
// mapped, read from disk) on a second thread while this one parses the events.
bool readSource(models::trace::TraceStoreBuilder& builder, const QString& name, TraceInput& input,
                const ImportControl& control, models::Diagnostics& diagnostics, int progressBase, int progressSpan)
{
    const int source = builder.addSource(name, input.buffer);
    if (!input.buffer)
        return !control.canceled();
    const qsizetype firstDiagnostic = diagnostics.size();
    const struct PlaceOffsets
    {
        models::Diagnostics& diagnostics;
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
        std::uint64_t released = 0;
        Snapshots snapshots(builder, control, input, progressBase, progressSpan);
        while (going && queue.pop(batch)) {
            for (const ScanItem& item : batch) {
                if (!reader.handleItem(item)) {
                    going = false;
                    break;
                }
            }
            if (going && !batch.empty())
                snapshots.after(batch.back().begin);
            // A mapped file's pages behind the parser leave memory (they stay in the page cache), so a
            // trace larger than memory can be read. Args are parsed later from the same mapping on demand.
            if (going && input.mapping && !batch.empty() && batch.back().begin >= input.buffer->data()) {
                const auto done = std::uint64_t(batch.back().begin - input.buffer->data());
                if (done >= released + kReleaseStep) {
                    input.releaseBefore(done);
                    released = done;
                }
            }
        }
        queue.stop();
        while (queue.pop(batch)) { }
        scanning.join();
    }
    reader.finishSource();
    input.reportDamage(diagnostics, name);
    return !reader.canceled();
}

// The store of `paths` from the index cache, with each source's input attached again; nothing when there
// is no usable entry (missing, stale, from another version, damaged: the caller parses and rewrites it).
std::optional<ChromeTraceResult> readIndex(const QStringList& paths, const models::trace::TraceCacheKey& key,
                                           const QString& entry, const ImportControl& control)
{
    if (!QFileInfo::exists(entry))
        return std::nullopt;
    QString error;
    const std::unique_ptr<FileMapping> mapping = FileMapping::map(entry, 0, 0, error);
    if (!mapping)
        return std::nullopt;
    const std::span bytes(mapping->data(), std::size_t(mapping->size()));
    // The arrays are copied out; the pages already copied leave memory as reading goes on.
    std::size_t released = 0;
    models::trace::TraceStoreCodec::Decoded decoded
        = models::trace::TraceStoreCodec::read(bytes, &key, true, error, [&](std::size_t offset) {
              if (offset >= released + kIndexReleaseStep) {
                  mapping->release(0, std::int64_t(offset));
                  released = offset;
              }
          });
    if (!decoded.store || mapping->damaged() || decoded.store->sources().size() != std::size_t(paths.size())) {
        qCInfo(lcTraceImport) << "rebuilding the index cache of" << paths << ":" << error;
        return std::nullopt;
    }
    control.report(100);
    ChromeTraceResult result;
    for (qsizetype i = 0; i < paths.size(); ++i) {
        models::Diagnostics opening;
        TraceInput input = openTraceInput(paths[i], opening, control);
        if (!input.buffer || !input.complete() || input.buffer->size() != decoded.inputSizes[std::size_t(i)])
            return std::nullopt;
        models::trace::TraceStoreCodec::attachInput(*decoded.store, int(i), input.buffer);
    }
    // The entry is keyed by absolute path: name the sources and problems as this caller does.
    std::vector<QString> cachedPaths;
    for (const models::trace::TraceSource& source : decoded.store->sources())
        cachedPaths.push_back(source.path);
    for (qsizetype i = 0; i < paths.size(); ++i)
        models::trace::TraceStoreCodec::renameSource(*decoded.store, int(i), paths[i]);
    for (models::Diagnostic& d : decoded.diagnostics) {
        const auto it = std::find(cachedPaths.begin(), cachedPaths.end(), d.file);
        if (it != cachedPaths.end())
            d.file = paths[it - cachedPaths.begin()];
    }
    TraceCache::touch(entry);
    TraceCache::countIndexRead();
    result.store = std::move(decoded.store);
    result.diagnostics = std::move(decoded.diagnostics);
    control.report(1000);
    return result;
}

void writeIndexEntry(const ChromeTraceResult& result, const models::trace::TraceCacheKey& key, const QString& entry)
{
    QDir().mkpath(QFileInfo(entry).absolutePath());
    // Written under a temporary name and renamed when complete: a crash leaves no partial entry.
    QSaveFile file(entry);
    if (!file.open(QIODevice::WriteOnly)
        || !models::trace::TraceStoreCodec::write(*result.store, result.diagnostics, key, file) || !file.commit()) {
        qCInfo(lcTraceImport) << "cannot write the index cache" << entry << file.errorString();
        return;
    }
    TraceCache::evict(entry);
}

} // namespace

ChromeTraceResult ChromeTraceReader::read(const QStringList& paths, const ImportControl& control, bool writeIndex)
{
    models::trace::TraceCacheKey key;
    QString entry;
    if (TraceCache::enabled() && TraceCache::keyOf(paths, key)) {
        entry = TraceCache::indexPath(key);
        if (std::optional<ChromeTraceResult> cached = readIndex(paths, key, entry, control))
            return std::move(*cached);
    }
    ChromeTraceResult result = readFiles(paths, control);
    // Only a complete read of files that did not change meanwhile is worth keeping.
    models::trace::TraceCacheKey after;
    if (writeIndex && !entry.isEmpty() && !result.canceled && TraceCache::keyOf(paths, after) && after == key) {
        // The painting index goes into the cache; built once here, the timeline takes it from the store
        // too. The store is not shared with anyone yet.
        auto store = std::const_pointer_cast<models::trace::TraceStore>(result.store);
        models::trace::TraceStoreCodec::attachLod(*store, std::make_shared<const models::trace::TraceLod>(*store));
        writeIndexEntry(result, key, entry);
    }
    return result;
}

ChromeTraceResult ChromeTraceReader::readFiles(const QStringList& paths, const ImportControl& control)
{
    models::trace::TraceStoreBuilder builder;
    models::Diagnostics diagnostics;
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
    models::trace::TraceStoreBuilder builder;
    models::Diagnostics diagnostics;
    TraceInput input = traceInputFromBytes(bytes, name, diagnostics, control);
    const bool canceled = !readSource(builder, name, input, control, diagnostics, 0, 1000);
    return finishResult(builder, std::move(diagnostics), canceled, control);
}

} // namespace runlens::importers::trace
