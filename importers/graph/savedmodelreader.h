#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"

#include <QString>

#include <string_view>

namespace runlens::importers::graph {

/// Reads a TensorFlow SavedModel (`saved_model.pb`) or a single MetaGraphDef (`.meta`) with the GraphDef
/// reader. Every meta graph is read: the first one tagged "serve" (else the first) is the main graph, the
/// others are subgraphs named by their tags whose nodes sit under the scope `[tags]`. Function libraries
/// become subgraphs as in a GraphDef, so TF2 models reach their `__inference_…` bodies through Call nodes.
/// Signature inputs mark the placeholders they feed (an implicit Input node when the tensor is not a node
/// of the graph) and signature outputs become implicit Output nodes `<signature>:<key>`; the graph's
/// metadata lists tags, versions and signatures. The checkpoint beside the file (`variables/variables.index`
/// of a SavedModel, `<name>.index` of `<name>.meta`) is listed in the metadata, and the variables of the
/// main graph whose names it holds get the location of their bytes. Plain C++: no threads, no event loop.
class SavedModelReader
{
public:
    /// A `.meta` path is read as one MetaGraphDef, anything else as a SavedModel.
    static GraphResult read(std::string_view bytes, const QString& path, const ImportControl& control = {});
    static GraphResult readSavedModel(std::string_view bytes, const QString& path, const ImportControl& control = {});
    static GraphResult readMetaGraph(std::string_view bytes, const QString& path, const ImportControl& control = {});
};

} // namespace runlens::importers::graph
