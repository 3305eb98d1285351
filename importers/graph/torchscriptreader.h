#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string_view>

namespace runlens::importers::graph {

/// Reads the text form of TorchScript graphs (`print(traced.graph)`, `inlined_graph`, the old tracer's
/// `.expect` files) and of torch.fx graphs (`print(gm.graph)`) into a Graph. Every statement that defines
/// values (`%a : T, %b : T = op[attrs](args)`) or calls an op without result is a node (the node count);
/// the graph's own parameters become implicit Input nodes and `return` an implicit Output node. Output
/// types give port shapes (`Float(2, 6, 28, 28, strides=...)`), `scope: __module.layer1.conv` the namespace
/// (`layer1/conv`), trailing `# file.py:123:0` the source line; fx `call_module[target=a.b]` nodes are
/// scoped under their module's parent path. Lines it does not understand are counted, never fatal.
class TorchScriptReader
{
public:
    static GraphResult read(std::string_view text, const QString& path, const ImportControl& control = {});
};

} // namespace runlens::importers::graph
