#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string_view>

namespace runlens::importers::graph {

/// Reads an ONNX ModelProto into a Graph. Each `graph.node` is a node (the node count); initializers
/// become implicit Parameter nodes with the byte range of their values in the file (not read), graph
/// inputs that are not initializers implicit Input nodes, graph outputs implicit Output nodes. Loop/If/Scan
/// bodies are subgraphs owned by their node, their nodes scoped under it. Node names with '/'
/// (`/layer1/conv/Conv`) and the `namespace` metadata of newer exporters give the scopes. A truncated
/// model keeps the nodes before the damage. Plain C++: no threads, no event loop.
class OnnxGraphReader
{
public:
    static GraphResult read(std::string_view bytes, const QString& path, const ImportControl& control = {});
};

/// "float32", "int64" ... for ONNX TensorProto.DataType values; "" for 0, "type<N>" for unknown ones.
std::string onnxDataTypeName(int type);

} // namespace runlens::importers::graph
