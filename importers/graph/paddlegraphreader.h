#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string>
#include <string_view>

namespace runlens::importers::graph {

/// Reads a Paddle static program (`ProgramDesc` protobuf: `*.pdmodel`, the older `__model__`) into a Graph.
/// Each op of each block is a node (the node count); block 0 is the main graph, a block named by a
/// `sub_block`/`blocks` attribute (while, conditional_block, recurrent) is a body owned by that op with its
/// nodes scoped under it. Persistable variables no op writes first become implicit Parameter nodes: their
/// values are in the `.pdiparams` file beside the model, which is not read, so they carry shape and dtype
/// only. Inputs resolve in program order, so an op that updates a variable in place (batch_norm's
/// MeanOut) feeds the ops after it, not itself. Scopes come from `op_namescope`, else from the first output
/// variable's `name.tmp_N` prefix; gradient ops (outputs with `@GRAD`) are grouped under `@GRAD`. A
/// truncated program keeps the complete ops before the damage. Plain C++: no threads, no event loop.
class PaddleGraphReader
{
public:
    static GraphResult read(std::string_view bytes, const QString& path, const ImportControl& control = {});
};

/// "float32", "int64" ... for Paddle VarType.Type values of tensors; "type<N>" for others.
std::string paddleDataTypeName(int type);

} // namespace runlens::importers::graph
