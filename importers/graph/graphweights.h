#pragma once

#include "models/graph/graph.h"
#include "models/tensor/tensorcatalog.h"

#include <QList>
#include <QString>

namespace runlens::importers::graph {

/// The weights of `graph` whose values the reader located in a file as raw little-endian elements (ONNX
/// initializers with raw_data, Paddle parameters in `.pdiparams`, MindIR raw and external data, TFLite constant
/// buffers, TensorFlow checkpoint entries), as series of the Tensors panel: each maps
/// its file only when viewed. A series is named "<graph file>: <weight>", its kind is "weight", its node key the
/// weight's node id (so the panel's "Show in the graph" finds it) and its one version's location
/// models::graph::weightValuesLocation(). Weights of an unknown element type, without a shape or running past their
/// file are left out. Graph::detachedWeights are listed by their name, with no node key.
QList<models::tensor::TensorSeries> graphWeightSeries(const models::graph::Graph& graph);

/// Whether `location`'s bytes can be plain little-endian elements of its type: an element type the Tensors
/// panel reads (not strings, resources, 4-bit or quantized-pair types), every dimension known and `length`
/// exactly elements x element size. Readers record the "raw" encoding only then, so that what Node Details
/// offers to show is what graphWeightSeries() lists.
bool holdsPlainElements(const models::graph::TensorLocation& location);

} // namespace runlens::importers::graph
