#include "importers/trace/tracefileimporter.h"

#include "importers/memory/memorysummary.h"
#include "importers/memory/tracememory.h"
#include "importers/trace/chrometracereader.h"

#include <QFileInfo>

namespace runlens::trace {

namespace {

/// `[memory]` or `[OutOfMemory]` instants anywhere (profile_memory=True traces).
bool hasMemoryInstants(const TraceStore& store)
{
    for (const Track& track : store.tracks()) {
        for (std::size_t i = 0; i < track.size(); ++i) {
            if (track.kind[i] == EventKind::Memory && (track.flags[i] & SliceFlag::Instant))
                return true;
        }
    }
    return false;
}

} // namespace

ImportStatus traceImportStatus(const Diagnostics& diagnostics, bool empty)
{
    bool problems = false;
    bool errors = false;
    for (const Diagnostic& d : diagnostics) {
        problems = problems || d.severity != Severity::Info;
        errors = errors || d.severity == Severity::Error;
    }
    return empty && errors ? ImportStatus::Failed : problems ? ImportStatus::Partial : ImportStatus::Ok;
}

TraceFileImporter::TraceFileImporter(QString path)
    : m_path(std::move(path))
{ }

ImportUpdate TraceFileImporter::poll(const ImportControl& control)
{
    ImportUpdate update;
    const QFileInfo info(m_path);
    ChromeTraceResult result = ChromeTraceReader::read({ m_path }, control);
    update.diagnostics = std::move(result.diagnostics);
    update.bytesRead = info.size();
    if (result.canceled) {
        update.status = ImportStatus::Canceled;
        return update;
    }
    update.status = traceImportStatus(update.diagnostics, !result.store || result.store->eventCount() == 0);
    if (result.store) {
        update.recordsRead = qint64(result.store->eventCount());
        update.traceSummary = summarizeTrace(*result.store, [&control]() { return control.canceled(); });
        if (hasMemoryInstants(*result.store)) {
            memory::MemoryReadResult memory
                = memory::memoryFromTrace(*result.store, [&control]() { return control.canceled(); });
            update.diagnostics += memory.diagnostics;
            if (memory.profile && !memory.profile->empty()) {
                update.memorySummary = memory::summarizeMemory(*memory.profile, result.store.get());
                update.memory = std::move(memory.profile);
            }
        }
        update.trace = std::move(result.store);
    }
    return update;
}

} // namespace runlens::trace
