#pragma once

#include <QString>

namespace runlens::importers::demo {

/// Writes the demo model (DemoModel) as a Graphviz `.dot` file: one node per operator, named by its module
/// path and ONNX op type ("layer1/0/conv1/Conv", so the Graph panel nests it in layer1 > 0 > conv1), an
/// HTML label with the op type and the name, the weights as parameter nodes and the activation shapes on
/// the edges.
class DemoGraph
{
public:
    /// The whole file.
    static QByteArray dot();
    /// Writes dot() to `model.dot` in `directory` (created if needed); false with `error` filled when it
    /// cannot.
    static bool write(const QString& directory, QString* error);
};

} // namespace runlens::importers::demo
