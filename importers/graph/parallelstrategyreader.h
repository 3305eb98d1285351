#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string_view>

namespace runlens::importers::graph {

/// Reads MindSpore's parallel strategy files into a Graph, so that the Graph panel shows how each operator
/// is sharded (MindInsight's parallel strategy view):
/// - `parallel_strategy_{rank}.json`, written by the profiler: `{config: {rankId, stageId, parallelType,
///   stageDevices}, graph: <anf_ir GraphProto as protobuf JSON>}`. Ops keep their scope, inputs, output
///   type and attributes; `in_strategy` (or `gen_strategy`) becomes the `strategy` attribute
///   (`[[2,1],[1,4]]`), the file's stage the `stage` attribute and Node::stage; parameters and constants are
///   implicit nodes.
/// - strategy checkpoints saved as JSON (`strategy_ckpt_config={"save_file": "strategy.json"}`):
///   `{current_stage, parallel_strategy_item: {op: {stage, parallel_strategy}}, parallel_layout_item:
///   {parameter: {dev_matrix, tensor_map, tensor_shape, ...}}}`: one op per item (no edges are stored) and
///   one parameter per layout.
/// Anything else is an error that says what was expected; entries it cannot use are skipped and counted.
class ParallelStrategyReader
{
public:
    static GraphResult read(std::string_view bytes, const QString& path, const ImportControl& control = {});
};

} // namespace runlens::importers::graph
