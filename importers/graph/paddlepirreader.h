#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string_view>

namespace runlens::importers::graph {

/// Reads a Paddle 3 PIR program (`inference.json`, `model.json`: the JSON `paddle.jit.save` and
/// `save_inference_model` write since Paddle 3.0, `{"base_code": {"magic": "pir", ...}, "program": {"regions":
/// [...]}}`) into a Graph. Every op of every block is a node (the node count) except `builtin.parameter`, whose
/// parameters become implicit Parameter nodes; an op's regions (if, while) are bodies owned by it, their ops
/// scoped under it. Values are numbered (`%` or `#`, negative for block arguments) and an operand names its
/// producer's value. Op names may be compressed as Paddle writes them (`1.matmul` for `pd_op.matmul`, `p` for a
/// parameter with its attributes by position). PIR values have no names, so ops are grouped by the layer of the
/// parameters they read (`linear_0.w_0` → `linear_0`). Parameters are located in the `.pdiparams` beside the
/// program when it is there. Plain C++: no threads, no event loop.
class PaddlePirReader
{
public:
    static GraphResult read(std::string_view bytes, const QString& path, const ImportControl& control = {});
};

/// True when `head` (the start of a file) is a PIR program: a JSON object whose `base_code` says `"pir"`.
bool looksLikePaddlePir(std::string_view head);

} // namespace runlens::importers::graph
