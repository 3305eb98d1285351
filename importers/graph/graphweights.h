#pragma once

#include "models/graph/graph.h"
#include "models/tensor/tensorcatalog.h"

#include <QList>
#include <QString>

namespace runlens::importers::graph {

/// The weights of `graph` whose values the reader located in a file as raw little-endian elements (ONNX
/// initializers with raw_data, Paddle parameters in `.pdiparams`), as series of the Tensors panel: each maps
/// its file only when viewed. A series is named "<graph file>: <weight>", its kind is "weight", its node key the
/// weight's node id (so the panel's "Show in the graph" finds it) and its one version's location
/// models::graph::weightValuesLocation(). Weights of an unknown element type, without a shape or running past their
/// file are left out.
QList<models::tensor::TensorSeries> graphWeightSeries(const models::graph::Graph& graph);

} // namespace runlens::importers::graph
