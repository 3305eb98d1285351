#include "trace/tracefileimporter.h"

#include "trace/chrometracereader.h"

#include <QFileInfo>

namespace runlens::trace {

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
        update.trace = std::move(result.store);
    }
    return update;
}

} // namespace runlens::trace
