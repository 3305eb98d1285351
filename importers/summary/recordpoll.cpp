#include "importers/summary/recordpoll.h"

#include "importers/summary/summarytr.h"

#include <exception>

namespace runlens::importers::summary {

void pollRecordFile(const QString& path, const QString& file, qint64 offset, bool& dead, bool& hadProblems,
                    models::Diagnostics& diagnostics, const std::function<void(RecordReader& reader)>& read)
{
    try {
        RecordReader reader(path);
        if (reader.open(offset)) {
            read(reader);
            return;
        }
        dead = true;
        hadProblems = true;
        if (reader.fileSize() >= 0 && reader.fileSize() < offset) {
            diagnostics.append(models::Diagnostic {
                models::Severity::Error, file, reader.fileSize(), -1,
                SummaryTr::tr(
                    "The file became shorter (%1 bytes) than what was already read (%2 bytes): it was replaced "
                    "or truncated. Reopen the run to read it again.")
                    .arg(reader.fileSize())
                    .arg(offset) });
        } else {
            diagnostics.append(
                models::Diagnostic { models::Severity::Error, file, -1, -1,
                                     SummaryTr::tr("Cannot open the file: %1. Check that it exists and is readable.")
                                         .arg(reader.errorString()) });
        }
    } catch (const std::exception& error) {
        dead = true;
        hadProblems = true;
        diagnostics.append(
            models::Diagnostic { models::Severity::Error, file, offset, -1,
                                 SummaryTr::tr("Reading stopped: %1.").arg(QString::fromLocal8Bit(error.what())) });
    }
}

} // namespace runlens::importers::summary
