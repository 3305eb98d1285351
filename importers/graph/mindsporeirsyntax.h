#pragma once

#include "models/graph/graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::graph::msir {

/// The pieces of MindSpore's text IR that one line holds, parsed without context: what the IR reader
/// builds its nodes from. All functions are tolerant: they return false or an empty result, never throw.

/// An argument of a cnode before references are resolved.
struct Ref
{
    enum Kind { Node, Parameter, Graph, Literal } kind = Literal;
    std::string key; ///< node number, parameter name, graph name, literal text
};

/// A cnode as read; its arguments become input ports once every subgraph is known.
struct ParsedNode
{
    models::graph::Node node;
    std::string number; ///< "%N" without the percent; empty for Return
    std::vector<Ref> args;
    std::string calleeGraph; ///< `@g(...)`, `call @g`, `FuncGraph::fg`
    bool hasScope = false;
};

/// A `subgraph @name(...)` / `funcgraph` block, or the nodes of an excerpt outside any block.
struct ParsedSubgraph
{
    std::string name;
    std::vector<std::string> aliases; ///< `.dat` calls graphs by `fg_<n>`
    std::vector<std::string> parameters;
    std::vector<ParsedNode> nodes;
};

/// "float32" for "Float32" (2.x), "F32" (`.dat`) ...; other names are kept.
std::string normalizedDtype(std::string_view t);
/// `<Tensor[Float32], (3, 8)>`, `<Ref[Tensor[Float32]], (4), ref_key=b>`, `<Int64, NoShape>`,
/// 1.x `<Tensor[Float32]x(2, 3)>`, `.dat` `Tensor(F32)[2,3]`.
models::graph::TensorType parseType(std::string_view s);
/// `(T1, T2) -> (T)`: input types and the output type (a Return's spec has only its type).
bool parseSpec(std::string_view s, std::vector<models::graph::TensorType>& inputs, models::graph::TensorType& output);
/// The text after `# In file `: `t6.py:16, 12~25/    code/` (2.x) or `train.py(34)/ code/` (1.x). `trailer`
/// receives what follows the code (`.dat` puts `#name` there).
bool parseSource(std::string_view s, models::graph::SourceLocation& location, std::string* trailer = nullptr);
/// `{instance name: sub} primitive_attrs: {k: v, ...} cnode_attrs: {...}` as attributes.
void parseAttributeBlocks(std::string_view rest, std::vector<models::graph::Attribute>& out);
/// One argument: `%3`, `%para1_x`, `@graph`, or a literal.
Ref parseArg(std::string_view a);
/// Splits the right-hand side `callee(args) rest` of a cnode into `parsed`; `rest` gets what follows.
bool parseCall(std::string_view rhs, ParsedNode& parsed, std::string& rest);

} // namespace runlens::importers::graph::msir
