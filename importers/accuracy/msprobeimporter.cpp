#include "importers/accuracy/msprobeimporter.h"

#include "importers/accuracy/msprobedumpreader.h"
#include "models/accuracy/dumpgraph.h"

#include <QFileInfo>

namespace runlens::importers::accuracy {

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
    if (result.dump && !result.dump->entries.isEmpty()) {
        // The module tree and calls open in the Graph panel like any graph file.
        std::shared_ptr<models::graph::Graph> graph = models::accuracy::buildDumpGraph(*result.dump);
        update.graphSummary = models::graph::summarizeGraph(*graph);
        update.graph = std::move(graph);
    }
    update.msprobeDump = std::move(result.dump);
    return update;
}

} // namespace runlens::importers::accuracy
