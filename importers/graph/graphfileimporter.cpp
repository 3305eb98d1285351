#include "importers/graph/graphfileimporter.h"

#include "importers/graph/graphreader.h"

#include <QFileInfo>

namespace runlens::importers::graph {

GraphFileImporter::GraphFileImporter(QString path, models::ArtifactKind kind)
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
        update.status = models::ImportStatus::Canceled;
        return update;
    }
    bool problems = false;
    for (const models::Diagnostic& d : update.diagnostics)
        problems = problems || d.severity != models::Severity::Info;
    if (!result.graph) {
        update.status = models::ImportStatus::Failed;
        return update;
    }
    update.status = problems ? models::ImportStatus::Partial : models::ImportStatus::Ok;
    update.recordsRead = result.graph->nodeCount();
    update.graphSummary = models::graph::summarizeGraph(*result.graph);
    update.graph = std::move(result.graph);
    return update;
}

} // namespace runlens::importers::graph
