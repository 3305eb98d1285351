#include "graph/graphresult.h"

namespace runlens::graph {

Diagnostic graphDiagnostic(Severity severity, const QString& path, const QString& message, qint64 offset, qint64 line)
{
    Diagnostic d;
    d.severity = severity;
    d.file = path;
    d.offset = offset;
    d.line = line;
    d.message = message;
    return d;
}

GraphResult publishGraph(std::unique_ptr<Graph> graph, Diagnostics diagnostics, bool failed)
{
    GraphResult result;
    if (graph && !failed) {
        graph->finalize();
        graph->diagnostics = diagnostics;
        result.graph = std::shared_ptr<const Graph>(std::move(graph));
    }
    result.diagnostics = std::move(diagnostics);
    return result;
}

} // namespace runlens::graph
