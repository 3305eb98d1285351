#include "importers/graph/graphfileimporter.h"

#include "importers/graph/graphreader.h"

#include <QFileInfo>

namespace runlens::graph {

GraphFileImporter::GraphFileImporter(QString path, ArtifactKind kind)
    : m_path(std::move(path))
    , m_kind(kind)
{ }

ImportUpdate GraphFileImporter::poll(const ImportControl& control)
{
    ImportUpdate update;
    GraphResult result = GraphReader::read(m_path, m_kind, control);
    update.diagnostics = std::move(result.diagnostics);
    update.bytesRead = QFileInfo(m_path).size();
    if (result.canceled) {
        update.status = ImportStatus::Canceled;
        return update;
    }
    bool problems = false;
    for (const Diagnostic& d : update.diagnostics)
        problems = problems || d.severity != Severity::Info;
    if (!result.graph) {
        update.status = ImportStatus::Failed;
        return update;
    }
    update.status = problems ? ImportStatus::Partial : ImportStatus::Ok;
    update.recordsRead = result.graph->nodeCount();
    update.graphSummary = summarizeGraph(*result.graph);
    update.graph = std::move(result.graph);
    return update;
}

} // namespace runlens::graph
