#include "importers/graph/graphresult.h"

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

bool boundScope(std::string& scope)
{
    std::size_t components = 0;
    std::size_t cut = std::string::npos;
    for (std::size_t i = 0; i <= scope.size(); ++i) {
        if (i < scope.size() && scope[i] != '/')
            continue;
        if (i > kMaxScopeBytes)
            break;
        if (++components > std::size_t(ImportLimits::kMaxDepth))
            break;
        cut = i;
    }
    if (cut == scope.size())
        return false;
    if (cut == std::string::npos) {
        // Only an over-long first component leaves no boundary to cut at: cut at a character instead.
        cut = kMaxScopeBytes;
        while (cut > 0 && (static_cast<unsigned char>(scope[cut]) & 0xC0) == 0x80)
            --cut;
    }
    scope.resize(cut);
    return true;
}

bool chargeNode(ImportBudget& budget, const Node& node)
{
    const std::int64_t ports = std::int64_t(node.inputs.size() + node.outputs.size());
    const bool elements = budget.spendElements(1 + ports);
    return budget.spendBytes(std::int64_t(sizeof(Node)) + ports * std::int64_t(sizeof(Port))) && elements;
}

void dropDanglingProducers(Graph& graph)
{
    const int count = int(graph.nodes.size());
    for (Node& node : graph.nodes) {
        for (Port& in : node.inputs) {
            if (in.producer >= count)
                in.producer = -1;
        }
    }
    for (Subgraph& s : graph.subgraphs) {
        if (s.output >= count)
            s.output = -1;
    }
}

GraphResult publishGraph(std::unique_ptr<Graph> graph, Diagnostics diagnostics, bool failed)
{
    GraphResult result;
    if (graph && !failed) {
        int cut = 0;
        const Node* first = nullptr;
        for (Node& node : graph->nodes) {
            if (boundScope(node.scope) && cut++ == 0)
                first = &node;
        }
        if (cut > 0)
            diagnostics.append(graphDiagnostic(
                Severity::Warning, graph->path,
                GraphTr::tr("%n node scope(s) nested deeper than %1 levels or longer than %2 bytes were cut to "
                            "that size (the first is node \"%3\").",
                            nullptr, cut)
                    .arg(ImportLimits::kMaxDepth)
                    .arg(qulonglong(kMaxScopeBytes))
                    .arg(QString::fromStdString(first->id.substr(0, 200)))));
        graph->finalize();
        graph->diagnostics = diagnostics;
        result.graph = std::shared_ptr<const Graph>(std::move(graph));
    }
    result.diagnostics = std::move(diagnostics);
    return result;
}

} // namespace runlens::graph
