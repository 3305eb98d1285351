#pragma once

#include "models/core/diagnostic.h"

#include <QString>

namespace runlens::importers::demo {

/// Writes RunLens's demo run folder with the project's own writers: two training runs of TensorBoard
/// event files (loss, accuracy and learning-rate curves over 1,000 steps, weight and gradient histograms) that differ
/// in their learning-rate schedule. The first run also holds what fills the other panels, all describing one small
/// residual CNN (DemoModel): `profiler/` a PyTorch profiler trace of a few steps (DemoTrace),
/// `graph/model.dot` the model graph with module scopes (DemoGraph) and `dump/step_N/` weight dumps
/// (DemoTensors). Deterministic: the same folder every time.
class DemoRun
{
public:
    static constexpr int kSteps = 1000;
    static constexpr int kEvalEvery = 50;
    static constexpr int kHistogramEvery = 20; ///< weights/fc1 and gradients/fc1 histograms

    /// Creates `directory` if needed and writes the demo into it. Returns false and fills `error`
    /// when something cannot be written.
    static bool write(const QString& directory, QString* error = nullptr);

    /// Run names written by write(); the trace, the graph and the dumps belong to the first.
    static QStringList runNames();
    /// Scalar tags every run has.
    static QStringList tags();
};

} // namespace runlens::importers::demo
