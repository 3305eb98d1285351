#pragma once

#include <QList>
#include <QString>

namespace runlens::importers::demo {

/// Writes torch-style tensor dumps of the demo model (`step_N/{module}.{weight|bias}.npy`, float32, numpy
/// format 1.0) for the modules of DemoModel::dumpedModules(): Kaiming-initialised weights at the first
/// dumped step that drift as training goes on, so the Tensor inspector has series with a step slider and
/// the weight-update rules have something to measure.
class DemoTensors
{
public:
    /// Steps a dump is written for.
    static QList<int> steps();
    /// Series names ("conv1.weight", ...) every dumped step holds.
    static QStringList names();
    /// Writes the `step_N` folders into `directory` (created if needed).
    static bool write(const QString& directory, QString* error);
    /// A numpy 1.0 `.npy` file of a little-endian float32 array in C order.
    static QByteArray npy(const QList<qint64>& shape, const std::vector<float>& values);
};

} // namespace runlens::importers::demo
