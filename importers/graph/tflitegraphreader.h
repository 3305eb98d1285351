#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string>
#include <string_view>

namespace runlens::importers::graph {

/// Reads a TensorFlow Lite model (a flatbuffer with identifier "TFL3") into a Graph. The whole flatbuffer
/// is checked by the flatbuffers verifier (offsets inside the file, bounded nesting and table count) before
/// any field is read; a file that fails is refused with nothing kept, since flatbuffer offsets are not safe
/// to follow before that check. Each operator of each subgraph is a node (the node count), its op type
/// the builtin operator's name (`CONV_2D`) or the custom op's code. Subgraph 0 is the main graph; the
/// others (WHILE/IF bodies, CALL_ONCE initialisers, functions) are subgraphs whose nodes are scoped under
/// their name, owned by the first op naming them. Ports are tensors with dtype and shape (the shape
/// signature when there is one, -1 for dynamic dimensions); quantization parameters are attributes.
/// Constant tensors (a non-empty buffer) and variables become implicit Parameter nodes in the scope of their
/// first consumer, their bytes located (offset and length in the file, also for models over 2 GB whose
/// buffers follow the flatbuffer) and never copied. Subgraph inputs and outputs become Input/Output nodes,
/// named by the signature defs when the model has them. Operators have no names: a node is known by its
/// first output tensor, whose `/` scopes (before the first `;` of a fused name) make the hierarchy.
class TfLiteGraphReader
{
public:
    static GraphResult read(std::string_view bytes, const QString& path, const ImportControl& control = {});
};

/// The BuiltinOperator name of `code` ("CONV_2D"), or "BUILTIN_<code>" for codes newer than this table.
std::string tfliteBuiltinName(int code);
/// "float32", "int8" ... for TensorType values; "type<N>" for others.
std::string tfliteTypeName(int type);

} // namespace runlens::importers::graph
