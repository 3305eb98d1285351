#include "models/graph/graph.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace runlens::models::graph {

const char* nodeKindId(NodeKind kind)
{
    switch (kind) {
    case NodeKind::Op:
        return "op";
    case NodeKind::Parameter:
        return "parameter";
    case NodeKind::Constant:
        return "constant";
    case NodeKind::Input:
        return "input";
    case NodeKind::Output:
        return "output";
    case NodeKind::Call:
        return "call";
    }
    return "op";
}

const char* graphFormatId(GraphFormat format)
{
    switch (format) {
    case GraphFormat::MindSporeIr:
        return "mindspore-ir";
    case GraphFormat::Dot:
        return "dot";
    case GraphFormat::AnfIr:
        return "anf-ir";
    case GraphFormat::AnfIrDebugger:
        return "anf-ir-debugger";
    case GraphFormat::TensorFlow:
        return "tensorflow";
    case GraphFormat::Onnx:
        return "onnx";
    case GraphFormat::ParallelStrategy:
        return "mindspore-parallel-strategy";
    case GraphFormat::TorchScript:
        return "torchscript";
    case GraphFormat::MsprobeDump:
        return "msprobe-dump";
    case GraphFormat::Paddle:
        return "paddle";
    case GraphFormat::VisualDlGraph:
        return "visualdl-graph";
    case GraphFormat::MindIr:
        return "mindir";
    case GraphFormat::TfLite:
        return "tflite";
    }
    return "dot";
}

std::string TensorType::text() const
{
    if (!known())
        return {};
    std::string out = dtype;
    if (!rankKnown) {
        out += "[?]";
        return out;
    }
    out += '[';
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i > 0)
            out += ',';
        if (i < symbols.size() && !symbols[i].empty())
            out += symbols[i];
        else if (dims[i] < 0)
            out += '?';
        else
            out += std::to_string(dims[i]);
    }
    out += ']';
    return out;
}

std::string Node::fullName() const
{
    if (scope.empty())
        return name;
    return scope + '/' + name;
}

int Graph::find(std::string_view id) const
{
    const auto it = m_index.find(std::string(id));
    return it == m_index.end() ? -1 : it->second;
}

void Graph::finalize()
{
    m_index.clear();
    m_index.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        m_index.try_emplace(nodes[i].id, int(i));
    edges.clear();
    for (std::size_t to = 0; to < nodes.size(); ++to) {
        const auto& inputs = nodes[to].inputs;
        for (std::size_t slot = 0; slot < inputs.size(); ++slot) {
            const Port& port = inputs[slot];
            if (port.producer < 0 || std::size_t(port.producer) >= nodes.size())
                continue;
            edges.push_back({ port.producer, port.producerSlot, int(to), int(slot), port.control });
        }
    }
    if (subgraphs.empty()) {
        Subgraph main;
        main.name = name;
        main.nodes.reserve(nodes.size());
        for (std::size_t i = 0; i < nodes.size(); ++i)
            main.nodes.push_back(int(i));
        subgraphs.push_back(std::move(main));
    }
}

int Graph::nodeCount(int subgraph) const
{
    int count = 0;
    for (const Node& node : nodes) {
        if (!node.implicit && (subgraph < 0 || node.subgraph == subgraph))
            ++count;
    }
    return count;
}

GraphSummary summarizeGraph(const Graph& graph)
{
    GraphSummary summary;
    summary.format = graph.format;
    summary.subgraphs = int(graph.subgraphs.size());
    summary.allEdges = int(graph.edges.size());
    std::set<std::string_view> prefixes;
    std::map<std::string, int> types;
    for (const Node& node : graph.nodes) {
        if (node.implicit) {
            ++summary.implicitNodes;
            continue;
        }
        ++summary.nodes;
        ++types[node.opType.empty() ? std::string(nodeKindId(node.kind)) : node.opType];
        if (node.scope.empty())
            continue;
        const std::string_view scope = node.scope;
        int depth = 1;
        for (std::size_t slash = scope.find('/'); slash != std::string_view::npos; slash = scope.find('/', slash + 1)) {
            prefixes.insert(scope.substr(0, slash));
            ++depth;
        }
        prefixes.insert(scope);
        summary.maxDepth = std::max(summary.maxDepth, depth);
    }
    summary.groups = int(prefixes.size());
    for (const Edge& edge : graph.edges) {
        if (!graph.nodes[std::size_t(edge.from)].implicit && !graph.nodes[std::size_t(edge.to)].implicit)
            ++summary.edges;
    }
    summary.opTypes.assign(types.begin(), types.end());
    std::stable_sort(summary.opTypes.begin(), summary.opTypes.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (summary.opTypes.size() > std::size_t(GraphSummary::kTopOpTypes))
        summary.opTypes.resize(GraphSummary::kTopOpTypes);
    return summary;
}

bool HierarchyScore::richerThan(const HierarchyScore& other) const
{
    if (structured() != other.structured())
        return structured();
    if (drawing != other.drawing)
        return !drawing;
    if (!structured())
        return nodes > other.nodes; // a single group says no more than none
    return std::tuple(groups, maxDepth, nodes) > std::tuple(other.groups, other.maxDepth, other.nodes);
}

HierarchyScore hierarchyScore(const Graph& graph)
{
    const GraphSummary summary = summarizeGraph(graph);
    return { summary.groups, summary.maxDepth, summary.nodes, graph.format == GraphFormat::Dot };
}

std::vector<std::pair<std::string, int>> Graph::opTypeHistogram() const
{
    std::map<std::string, int> counts;
    for (const Node& node : nodes)
        ++counts[node.opType.empty() ? std::string(nodeKindId(node.kind)) : node.opType];
    std::vector<std::pair<std::string, int>> result(counts.begin(), counts.end());
    std::stable_sort(result.begin(), result.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return result;
}

bool hasLocatedValues(const Node& node)
{
    return node.data && node.data->offset >= 0 && node.data->length > 0 && node.data->encoding == "raw"
        && node.data->type.rankKnown;
}

QString weightDataFile(const Graph& graph, const TensorLocation& data)
{
    const QFileInfo model(graph.path);
    if (data.file.empty())
        return model.absoluteFilePath();
    return QDir::cleanPath(model.absoluteDir().filePath(QString::fromStdString(data.file)));
}

QString weightValuesLocation(const Graph& graph, const Node& node)
{
    if (!hasLocatedValues(node))
        return {};
    return weightDataFile(graph, *node.data) + QLatin1Char(':') + QString::fromStdString(node.id);
}

} // namespace runlens::models::graph
