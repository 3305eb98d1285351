#pragma once

#include "importers/core/importcontrol.h"
#include "models/accuracy/msprobedump.h"
#include "models/core/diagnostic.h"
#include "models/core/importstate.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace runlens::importers::accuracy {

/// What reading an msprobe dump produced: the dump (never null, possibly empty), every problem found, and
/// how far the reading got (Ok; Partial when entries or values were skipped or dump.json was cut, what was
/// read before is kept; Failed when dump.json gave nothing; Canceled).
struct MsprobeReadResult
{
    std::shared_ptr<const models::accuracy::MsprobeDump> dump;
    models::Diagnostics diagnostics;
    models::ImportStatus status = models::ImportStatus::Ok;
};

/// The inputs of the parsing core: the bytes of the JSON files of one `step*/rank*/` folder, the paths
/// diagnostics name, and the names of the files found in its dump_tensor_data/.
struct MsprobeDumpFiles
{
    QString folder;
    QString dumpPath;
    QByteArray dumpJson;
    QString constructPath;
    std::optional<QByteArray> constructJson; ///< absent: no construct.json
    QString stackPath;
    std::optional<QByteArray> stackJson; ///< absent: no stack.json
    QStringList tensorFileNames; ///< file names inside dump_tensor_data/
};

/// Parses one dump from bytes. Each file is checked against an ImportBudget of its size before it is
/// parsed; dump.json is parsed entry by entry, so only one record is held as JSON at a time and the
/// entries before a cut or a syntax error are kept. Malformed entries and values are warnings naming the
/// file and the entry. msprobe writes NaN and ±Inf as the bare tokens NaN/Infinity/-Infinity; they are read.
MsprobeReadResult parseMsprobeDump(const MsprobeDumpFiles& files, const ImportControl& control = {});

/// Reads the dump at `path`: a `step*/rank*/` folder, or its dump.json (debug.json for the save API).
/// construct.json, stack.json and dump_tensor_data/ beside it are optional.
MsprobeReadResult readMsprobeDump(const QString& path, const ImportControl& control = {});

/// The dump.json (or debug.json) of `path` (a folder or the file itself), empty when there is none.
QString msprobeDumpJsonPath(const QString& path);

} // namespace runlens::importers::accuracy
