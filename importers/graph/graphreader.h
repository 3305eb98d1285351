#pragma once

#include "importers/core/importcontrol.h"
#include "importers/graph/graphresult.h"
#include "models/core/artifactkind.h"

#include <QString>

namespace runlens::importers::graph {

/// Reads a graph file of any kind the run scanner recognises (ONNX, TensorFlow GraphDef binary or text,
/// MindSpore anf_ir in both schemas, MindSpore text IR, Graphviz dot, the GraphDef of an event file) with
/// the matching reader. Sizes are checked before anything is read.
class GraphReader
{
public:
    static GraphResult read(const QString& path, models::ArtifactKind kind, const ImportControl& control = {});
    /// True for the kinds read() understands.
    static bool supports(models::ArtifactKind kind);
};

} // namespace runlens::importers::graph
