#include "importers/memory/memoryfileimporter.h"

#include "importers/memory/cudasnapshot.h"
#include "importers/memory/memorysummary.h"
#include "importers/memory/memorytimelinereader.h"
#include "importers/memory/mindsporememory.h"

#include <QFileInfo>

namespace runlens::importers::memory {

MemoryFileImporter::MemoryFileImporter(QString path, models::ArtifactKind kind)
    : m_path(std::move(path))
    , m_kind(kind)
{ }

ImportUpdate MemoryFileImporter::poll(const ImportControl& control)
{
    ImportUpdate update;
    MemoryReadResult result;
    switch (m_kind) {
    case models::ArtifactKind::MemoryTimeline:
        result = readMemoryTimeline(m_path, control);
        break;
    case models::ArtifactKind::MemorySnapshot:
        result = readCudaSnapshot(m_path, control);
        break;
    default:
        result = readMindSporeMemory(m_path, control);
        break;
    }
    update.diagnostics = std::move(result.diagnostics);
    update.status = result.status;
    update.bytesRead = QFileInfo(m_path).size();
    if (result.profile) {
        std::size_t samples = 0;
        for (const models::memory::MemoryDevice& device : result.profile->devices)
            samples += device.allocated.size() + device.reserved.size() + device.events.size() + device.nodes.size()
                + device.operators.size();
        update.recordsRead = qint64(samples);
        update.memorySummary = summarizeMemory(*result.profile);
        update.memory = std::move(result.profile);
    }
    return update;
}

} // namespace runlens::importers::memory
