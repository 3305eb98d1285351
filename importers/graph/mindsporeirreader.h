#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string_view>

namespace runlens::importers::graph {

/// Reads MindSpore's text IR into a Graph: `.ir` files of 2.x and 1.x (and excerpts of them) and 1.x
/// `.dat` files. Each `subgraph @name(...)` / `funcgraph` is a Subgraph (the `# IR entry` one first); each
/// cnode (`%N(debug_name) = Op(args)`, including `Return`) is a node (the node count). The spec line
/// `: (types) -> (type)` gives port types, `# Fullname with scope: (...)` (or `full_name_with_scope`,
/// `#scope:`) the namespace and display name, `# In file path:line` lines the source stack (innermost
/// first). Calls of another subgraph (`@g(...)`, `call @g`, `FuncGraph::fg`) are Call nodes with their
/// callee; parameters and literal arguments become implicit Parameter and Constant nodes. Lines it does
/// not understand are skipped and counted in one diagnostic, never fatal. Plain C++.
class MindSporeIrReader
{
public:
    static GraphResult read(std::string_view text, const QString& path, const ImportControl& control = {});
};

} // namespace runlens::importers::graph
