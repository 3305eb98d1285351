#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string>
#include <string_view>

namespace runlens::importers::graph {

/// Reads a MindSpore MindIR model (`*.mindir`, the `mind_ir.ModelProto` that `mindspore.export(...,
/// file_format="MINDIR")` writes) into a Graph. The top graph is subgraph 0 and every graph of `functions`
/// (cell reuse, control-flow branches) a subgraph of its own; a node whose op_type names a function
/// ("REF::<graph>") is a Call of it. Primitive calls ("REF::<primitive>") take their op type and attributes
/// from the model's `primitives`; older files name the op directly. Scopes come from each node's `domain`
/// (its full name with scope, "Default/conv1-Conv2d/Conv2D-op0"); weights, inputs and constants join the
/// scope of the first node that reads them, so a layer folds with its weights. The weights' bytes are not
/// copied: each parameter records where its `raw_data` is in the file, or the external data file, offset
/// and length when the model was saved with its weights apart (`<name>_graph.mindir` beside
/// `<name>_variables/data_N`). A damaged or truncated model keeps the complete nodes before the damage.
/// Plain C++: no threads, no event loop.
class MindIrGraphReader
{
public:
    static GraphResult read(std::string_view bytes, const QString& path, const ImportControl& control = {});
};

/// "float32", "int64" ... for MindIR TensorProto.DataType values; "type<N>" for others.
std::string mindirDataTypeName(int type);

} // namespace runlens::importers::graph
