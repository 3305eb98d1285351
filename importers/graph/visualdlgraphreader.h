#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string_view>

namespace runlens::importers::graph {

/// Reads the layer graph VisualDL's `LogWriter.add_graph` writes (`vdlgraph.<time>.log`: JSON with `nodes`,
/// `vars` and `edges`, made from the model's static program with every op inside the name scope of the
/// `nn.Layer` that ran it, `/MyNet[model]/Conv2D[conv1]/conv2d_0`). Each leaf node is an op node (the node
/// count); the non-leaf nodes are the layers and become the scopes, one per layer as VisualDL draws its
/// boxes. Persistable variables no op writes become implicit Parameter nodes in the layer of their first
/// reader. Edges come from the ops' input and output variables; VisualDL's own `edges` list (drawn between
/// layer boxes) is derived data and not read. Plain C++: no threads, no event loop.
class VisualDlGraphReader
{
public:
    static GraphResult read(std::string_view bytes, const QString& path, const ImportControl& control = {});
};

} // namespace runlens::importers::graph
