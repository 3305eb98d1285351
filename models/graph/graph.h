#pragma once

#include "models/core/diagnostic.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace runlens::models::graph {

/// What a node stands for. Parameters are weights/variables, constants are literal tensors or values,
/// inputs/outputs are the graph's own boundary, calls invoke another subgraph (MindSpore `@fn(...)`,
/// ONNX Loop/If/Scan bodies are nested groups instead).
enum class NodeKind : std::uint8_t { Op, Parameter, Constant, Input, Output, Call };
/// Stable id for JSON reports ("op", "parameter", ...).
const char* nodeKindId(NodeKind kind);

/// The format a graph was read from.
enum class GraphFormat : std::uint8_t {
    MindSporeIr,
    Dot,
    AnfIr,
    AnfIrDebugger,
    TensorFlow,
    Onnx,
    TorchScript,
    ParallelStrategy, ///< MindSpore parallel strategy JSON (profiler or strategy checkpoint)
    MsprobeDump, ///< the module tree and API calls of an msprobe dump folder
    Paddle, ///< Paddle static program (ProgramDesc)
    VisualDlGraph, ///< VisualDL add_graph layer graph JSON
    MindIr, ///< MindSpore MindIR model (`mindspore.export(..., file_format="MINDIR")`)
    TfLite, ///< TensorFlow Lite flatbuffer model
};
/// Stable id for JSON reports ("mindspore-ir", "dot", "anf-ir", "anf-ir-debugger", "tensorflow", "onnx",
/// "torchscript", "mindspore-parallel-strategy", "msprobe-dump", "paddle", "visualdl-graph", "mindir",
/// "tflite").
const char* graphFormatId(GraphFormat format);

/// Shape and element type of a tensor flowing along an edge or through a port, as far as the file says.
/// `dims` uses -1 for an unknown or symbolic dimension; `symbols` keeps the symbolic names when present.
struct TensorType
{
    std::string dtype; ///< "float32", "int64", "Float", ... as normalised by the importer; empty = unknown
    std::vector<std::int64_t> dims;
    std::vector<std::string> symbols; ///< same length as dims when some dimension is symbolic, else empty
    bool rankKnown = false; ///< false: shape unknown (dims empty); true + dims empty: a scalar

    bool known() const { return rankKnown || !dtype.empty(); }
    /// "float32[1,3,224,224]", "int64[]" (scalar), "float32[?]" (unknown shape), "" when nothing is known.
    std::string text() const;
};

struct Attribute
{
    std::string name;
    std::string value; ///< display text (lists and tensors summarised by the importer)
};

/// A source location from IR comments (`# In file path:line`), ONNX metadata or torch stack traces.
struct SourceLocation
{
    std::string file;
    int line = 0; ///< 1-based, 0 when unknown
    int column = 0;
    std::string text; ///< the source line as quoted by the dump, when it is
};

/// Where the values of a weight or constant tensor live, without reading them: the Tensor inspector loads
/// them when asked. `file` empty means the graph file itself.
struct TensorLocation
{
    TensorType type;
    std::string file; ///< external data file (ONNX `external_data` location), relative to the graph file
    std::int64_t offset = -1; ///< byte offset of the first element, -1 when not stored in a file region
    std::int64_t length = 0; ///< bytes
    /// How the bytes are laid out: "raw" (little-endian elements, ONNX raw_data), "float_data",
    /// "int64_data" ... (a packed protobuf field holding the elements), "bytes" (located, but not plain
    /// little-endian elements of the type: strings, compressed or sparse values, big-endian elements, a length
    /// the shape does not account for), or "" when unknown.
    std::string encoding;
};

/// A weight the file locates without a node standing for it: a TF2 checkpoint entry, named by its object path.
struct DetachedWeight
{
    std::string name; ///< "a/.ATTRIBUTES/VARIABLE_VALUE", "variables/0/.ATTRIBUTES/VARIABLE_VALUE"
    TensorLocation data;
};

/// One input or output slot of a node.
struct Port
{
    std::string name; ///< value / tensor name ("conv1.weight", "%3", "Relu_0:0"), may be empty
    TensorType type;
    /// Inputs only: the producing node and its output slot, -1 when the producer is not in the graph.
    int producer = -1;
    int producerSlot = 0;
    bool control = false; ///< a control dependency (TF `^name`, MindSpore UpdateState/Depend monad)
};

struct Node
{
    std::string id; ///< unique within the graph (full name, `%12`, ONNX output name ...)
    std::string name; ///< display name: the last component of the full name, without the scope
    std::string opType; ///< "Conv2D", "aten::addmm", "Relu"; for parameters the parameter's role
    std::string scope; ///< namespace path without the node's own name, components separated by '/'
    NodeKind kind = NodeKind::Op;
    int subgraph = 0; ///< index into Graph::subgraphs; 0 is the main graph
    std::vector<Attribute> attributes;
    std::vector<Port> inputs;
    std::vector<Port> outputs;
    std::vector<SourceLocation> sources; ///< innermost first
    /// The subgraph a Call node invokes (or -1), and for ONNX control flow the bodies owned by this node.
    int callee = -1;
    std::vector<int> bodies;
    /// Made by the importer from a graph-level declaration (ONNX initializers, graph inputs and outputs,
    /// anf_ir parameters and constants, IR parameters and literal arguments) rather than listed by the
    /// file as a node. Node counts in reports and tests count the other nodes only (see Graph::nodeCount).
    bool implicit = false;
    /// Weights and constants: where their values are (ONNX initializers).
    std::optional<TensorLocation> data;
    /// The pipeline stage the op runs in, from parallel strategy files; -1 when the file does not say.
    int stage = -1;

    /// scope + "/" + name (or name alone), the key used to match profiler ops and dumps.
    std::string fullName() const;
};

/// A data (or control) edge between an output slot and an input slot. Edges are derived from the
/// node ports: exactly one per input port whose producer is known.
struct Edge
{
    int from = -1;
    int fromSlot = 0;
    int to = -1;
    int toSlot = 0;
    bool control = false;
};

/// A named function body: MindSpore subgraphs/funcgraphs, ONNX Loop/If/Scan bodies, TF functions.
struct Subgraph
{
    std::string name;
    int owner = -1; ///< for bodies: the node that owns it, else -1
    std::vector<int> nodes; ///< node indices in file order
    std::vector<int> parameters; ///< its formal parameters (node indices), in order
    int output = -1; ///< the node whose value the subgraph returns, when the format says
};

/// One computation graph as read from a file. Plain data, immutable once the importer publishes it.
class Graph
{
public:
    QString path; ///< the file it came from
    GraphFormat format = GraphFormat::Dot;
    std::string name;
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    std::vector<Subgraph> subgraphs; ///< [0] is the main graph (all nodes when the format has no subgraphs)
    std::vector<Attribute> metadata; ///< producer, opset, IR version, dot graph attributes ...
    std::vector<DetachedWeight> detachedWeights; ///< located weights no node stands for
    Diagnostics diagnostics;

    /// Index of the node with this id, or -1.
    int find(std::string_view id) const;
    /// Derives `edges` from the node ports and fills the id index; importers call it last.
    void finalize();
    /// Nodes the file lists as nodes (not `implicit`), in one subgraph or (-1) in all. This is "the node
    /// count" of a graph: ONNX `graph.node`, TF `GraphDef.node`, anf_ir `GraphProto.node`, IR cnodes.
    int nodeCount(int subgraph = -1) const;
    /// Number of nodes of each op type (empty types counted as their kind id), most frequent first.
    std::vector<std::pair<std::string, int>> opTypeHistogram() const;

private:
    std::unordered_map<std::string, int> m_index;
};

/// The numbers `runlens info` reports for a graph. Counts follow Graph::nodeCount: `nodes` are the nodes
/// the file lists, `edges` the edges between two of them (edges from implicit weights, constants and
/// graph inputs are in `allEdges`). `groups` is the number of distinct scope prefixes of those nodes and
/// `maxDepth` the deepest scope nesting (a node in "a/b" has depth 2).
struct GraphSummary
{
    GraphFormat format = GraphFormat::Dot;
    int nodes = 0;
    int edges = 0;
    int allEdges = 0;
    int implicitNodes = 0;
    int groups = 0;
    int maxDepth = 0;
    int subgraphs = 0;
    std::vector<std::pair<std::string, int>> opTypes; ///< most frequent first, at most `kTopOpTypes`
    static constexpr int kTopOpTypes = 10;
};
GraphSummary summarizeGraph(const Graph& graph);

/// How much structure a graph shows, to open a run on its most telling graph: an ONNX or TorchScript export
/// with module scopes says more than a flat FX dot of the same model. A graph with a hierarchy (two groups
/// or more) beats any flat one; then a model file beats a drawing of one (a `.dot` mixes value nodes and
/// labels into the ops, which inflates its groups); then more groups, deeper nesting, more nodes. Between
/// flat ones, more nodes.
struct HierarchyScore
{
    int groups = 0;
    int maxDepth = 0;
    int nodes = 0;
    bool drawing = false; ///< a Graphviz file rather than a model

    bool structured() const { return groups >= 2; }
    /// True when this graph is the better one to show first.
    bool richerThan(const HierarchyScore& other) const;
};
HierarchyScore hierarchyScore(const Graph& graph);

/// Whether the reader located `node`'s values in a file as raw little-endian elements of a known shape.
bool hasLocatedValues(const Node& node);
/// The absolute path of the file holding a weight's values (`data.file` beside the graph, or the graph file).
QString weightDataFile(const Graph& graph, const TensorLocation& data);
/// Where the Tensors panel lists the located values of a weight ("/abs/data file:node id"); empty when
/// hasLocatedValues() is false.
QString weightValuesLocation(const Graph& graph, const Node& node);

} // namespace runlens::models::graph
