#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <memory>
#include <string>
#include <string_view>

namespace runlens::tb {
class TensorShapeProto;
}
namespace runlens::tf {
class GraphDef;
}

namespace runlens::importers::graph {

/// Reads a TensorFlow GraphDef (also what torch's `add_graph` writes into event files) into a Graph.
/// Every NodeDef is a node (the node count); `^name` inputs are control edges, `name:k` picks output
/// slot k, `_output_shapes` gives the output ports' shapes. Const, Placeholder and variable ops keep their
/// kinds (Constant, Input, Parameter). Functions of the library become subgraphs; a node whose op is a
/// library function, or that names one in its `f` attribute (TF2's StatefulPartitionedCall), is a Call. Plain
/// C++: no threads, no event loop.
class TfGraphReader
{
public:
    /// A `.pb` (binary) or `.pbtxt` (protobuf text format) file; the bytes decide which.
    static GraphResult read(std::string_view bytes, const QString& path, const ImportControl& control = {});
    /// A serialized GraphDef, e.g. the `graph_def` field of a tensorboard Event record; `path` names the
    /// file it came from in diagnostics.
    static GraphResult readGraphDef(std::string_view bytes, const QString& path, const ImportControl& control = {});
    /// A GraphDef in protobuf text format.
    static GraphResult readText(std::string_view text, const QString& path, const ImportControl& control = {});
};

/// Reads the first GraphDef found in a TensorBoard event file (TFRecord-framed Event records with
/// `graph_def`), as written by `tf.summary` or torch's `SummaryWriter.add_graph`.
GraphResult readEventFileGraph(const QString& path, const ImportControl& control = {});

/// "float32", "int64" ... for TensorFlow DataType values (references drop their `_ref`).
std::string tfDataTypeName(int type);

/// A TensorFlow shape and DataType as a port type (unknown dimensions are -1).
models::graph::TensorType tfTensorType(const tb::TensorShapeProto& shape, int dtype);

/// Adds parsed GraphDefs to a graph under construction, as TfGraphReader reads them: the nodes into one
/// subgraph under a scope prefix, the function library as new subgraphs. Several GraphDefs can go into one
/// graph (the meta graphs of a SavedModel); ids stay unique across them.
class TfGraphAssembler
{
public:
    TfGraphAssembler(models::graph::Graph& graph, ImportBudget& budget, const ImportControl& control);
    ~TfGraphAssembler();
    TfGraphAssembler(const TfGraphAssembler&) = delete;
    TfGraphAssembler& operator=(const TfGraphAssembler&) = delete;

    /// Adds the nodes of `def` to `subgraph` (which must exist), scoped under `prefix` (empty: none), and its
    /// functions as subgraphs after the existing ones. False when canceled.
    bool add(const tf::GraphDef& def, int subgraph, const std::string& prefix);
    /// Appends what was found wrong so far (bad output slots, inputs naming missing nodes).
    void report(models::Diagnostics& diagnostics, const QString& path) const;

private:
    class Builder;
    std::unique_ptr<Builder> m_builder;
};

} // namespace runlens::importers::graph
