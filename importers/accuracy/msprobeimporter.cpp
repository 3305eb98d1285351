#include "importers/accuracy/msprobeimporter.h"

#include "importers/accuracy/msprobedumpreader.h"

#include <QFileInfo>

namespace runlens::accuracy {

MsprobeImporter::MsprobeImporter(QString path)
    : m_path(std::move(path))
{ }

ImportUpdate MsprobeImporter::poll(const ImportControl& control)
{
    MsprobeReadResult result = readMsprobeDump(m_path, control);
    ImportUpdate update;
    update.status = result.status;
    update.diagnostics = std::move(result.diagnostics);
    update.bytesRead = QFileInfo(m_path).size();
    update.recordsRead = result.dump ? qint64(result.dump->entries.size()) : 0;
    update.msprobeDump = std::move(result.dump);
    return update;
}

} // namespace runlens::accuracy
