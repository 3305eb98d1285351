#pragma once

#include <string_view>

// The text formats FileSniffer recognises from a file's head: graphs written as text and tables with a header.

namespace runlens::importers::sniff {

/// Graphviz DOT: `[strict] (graph|digraph) [ID] {` after blank lines and comments.
bool isDot(std::string_view text);

/// TorchScript `graph(%x : Float(...)) :` and torch.fx `graph():` dumps.
bool isTorchScriptGraph(std::string_view text);

/// MindSpore `.ir` (1.x and 2.x) and 1.x `.dat` text: header lines, subgraph/funcgraph headers or CNode lines.
bool isMindSporeIr(std::string_view text);

/// TensorFlow GraphDef in protobuf text format: `node {` first, with `op:` fields.
bool isGraphDefText(std::string_view text);

/// A header line: at least two delimited fields, one of them starting with a letter.
bool hasCsvHeader(std::string_view text, char delimiter);

} // namespace runlens::importers::sniff
