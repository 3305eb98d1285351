#include "trace/tracefileimporter.h"

#include "trace/chrometracereader.h"

#include <QFileInfo>

namespace runlens::trace {

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
    bool problems = false;
    bool errors = false;
    for (const Diagnostic& d : update.diagnostics) {
        problems = problems || d.severity != Severity::Info;
        errors = errors || d.severity == Severity::Error;
    }
    const bool empty = !result.store || result.store->eventCount() == 0;
    update.status = empty && errors ? ImportStatus::Failed : problems ? ImportStatus::Partial : ImportStatus::Ok;
    if (result.store) {
        update.recordsRead = qint64(result.store->eventCount());
        update.traceSummary = summarizeTrace(*result.store, [&control]() { return control.canceled(); });
        update.trace = std::move(result.store);
    }
    return update;
}

} // namespace runlens::trace
