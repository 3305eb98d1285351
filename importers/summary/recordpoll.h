#pragma once

#include "importers/summary/recordreader.h"
#include "models/core/diagnostic.h"

#include <QString>

#include <functional>

namespace runlens::importers::summary {

/// Opens the TFRecord-framed file at `path` (summaries, lineage) at `offset`, the byte after the last
/// complete record read, and hands it to `read`. A file that became shorter than what was read, one that
/// cannot be opened, and one that fails while it is read stop for good (`dead`), with an error naming
/// `file` that says what to do; the records read before are kept by the caller.
void pollRecordFile(const QString& path, const QString& file, qint64 offset, bool& dead, bool& hadProblems,
                    models::Diagnostics& diagnostics, const std::function<void(RecordReader& reader)>& read);

} // namespace runlens::importers::summary
