#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string_view>

namespace runlens::importers::graph {

/// Reads a Graphviz `.dot` file through cgraph into a Graph: every dot node is a node and every dot edge
/// an edge (into a new input port of its head, named after the head port when there is one). Nested
/// `subgraph cluster_*` blocks become scope components (their label, else their name), so a node's scope
/// is the path of clusters it sits in. Labels are reduced to a readable name and op type: HTML tables
/// (MindSpore's debug dots: `CNode(name)`, value and primitive tables), record labels (torch.fx:
/// `{name=%x|op_code=...}`) and multi-line labels (first line). cgraph is not thread-safe: every call
/// holds graphvizMutex() (graph/graphvizlock.h).
class DotGraphReader
{
public:
    static GraphResult read(std::string_view text, const QString& path, const ImportControl& control = {});
};

} // namespace runlens::importers::graph
