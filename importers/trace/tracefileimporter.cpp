#include "importers/trace/tracefileimporter.h"

#include "importers/memory/memorysummary.h"
#include "importers/memory/tracememory.h"
#include "importers/trace/chrometracereader.h"

#include <QFileInfo>

namespace runlens::importers::trace {

namespace {

/// `[memory]` or `[OutOfMemory]` instants anywhere (profile_memory=True traces).
bool hasMemoryInstants(const models::trace::TraceStore& store)
{
    for (const models::trace::Track& track : store.tracks()) {
        for (std::size_t i = 0; i < track.size(); ++i) {
            if (track.kind[i] == models::trace::EventKind::Memory
                && (track.flags[i] & models::trace::SliceFlag::Instant))
                return true;
        }
    }
    return false;
}

} // namespace

models::ImportStatus traceImportStatus(const models::Diagnostics& diagnostics, bool empty)
{
    bool problems = false;
    bool errors = false;
    for (const models::Diagnostic& d : diagnostics) {
        problems = problems || d.severity != models::Severity::Info;
        errors = errors || d.severity == models::Severity::Error;
    }
    return empty && errors ? models::ImportStatus::Failed
        : problems         ? models::ImportStatus::Partial
                           : models::ImportStatus::Ok;
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
        update.status = models::ImportStatus::Canceled;
        return update;
    }
    update.status = traceImportStatus(update.diagnostics, !result.store || result.store->eventCount() == 0);
    if (result.store) {
        update.recordsRead = qint64(result.store->eventCount());
        update.traceSummary = models::trace::summarizeTrace(*result.store, [&control]() { return control.canceled(); });
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

} // namespace runlens::importers::trace
