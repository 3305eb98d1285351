#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string_view>

namespace runlens::importers::graph {

/// Reads MindSpore anf_ir graphs: a standalone ModelProto `.pb`, a bare GraphProto (the `graph_def` of a
/// summary record), and the debugger's variant of the schema (`ms_output_trace_code_graph_*.pb`). The
/// variant is chosen by what decodes consistently: debugger files carry `source_address`/`root_name` and
/// tensor values whose declared shape, type and byte size agree only under the debugger's TensorProto.
/// Every NodeProto is a node (the node count); parameters and constants become implicit Parameter and
/// Constant nodes, graph outputs implicit Output nodes. The node's `scope` field is its namespace and
/// `full_name` its display name. Plain C++: no threads, no event loop.
class AnfIrGraphReader
{
public:
    /// A `.pb` file: ModelProto or bare GraphProto, either schema.
    static GraphResult read(std::string_view bytes, const QString& path, const ImportControl& control = {});
    /// A serialized GraphProto (the summary `graph_def` field).
    static GraphResult readGraphProto(std::string_view bytes, const QString& path, const ImportControl& control = {});
};

} // namespace runlens::importers::graph
