#include "importers/trace/chrometracereader.h"

#include "importers/trace/scanqueue.h"
#include "importers/trace/sourcereader.h"
#include "models/trace/tracestorebuilder.h"
#include "importers/trace/traceinput.h"

#include <QLoggingCategory>

#include <algorithm>
#include <thread>
#include <vector>

Q_LOGGING_CATEGORY(lcTraceImport, "runlens.importers.trace")

namespace runlens::trace {

namespace {

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
