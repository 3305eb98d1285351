#pragma once

#include <QString>

namespace runlens::importers::demo {

/// Writes a PyTorch profiler (Kineto) Chrome trace of the demo model (DemoModel) training on one CUDA
/// device, in the format Kineto writes since 2024 (`baseTimeNanoseconds`, nanosecond-resolution `ts`):
/// kProfilerSteps `ProfilerStep#N` steps, each loading a batch through a single-process DataLoader, copying
/// it to the device, running the forward pass on the main thread and the backward pass on the autograd
/// thread, then an SGD step. Every CUDA launch has its runtime call, its kernel (matching `correlation` and
/// `External id`) and a flow between them; allocations and frees are `[memory]` events with the running
/// totals, and `deviceProperties` describes the device. Deterministic: the same bytes every time.
class DemoTrace
{
public:
    static constexpr int kProfilerSteps = 6;
    static constexpr int kFirstStep = 10; ///< the number of the first ProfilerStep#N
    static constexpr qint64 kDeviceMemory = 42505273344; ///< totalGlobalMem of the device (an A100 40 GB)

    /// The trace file for a run that started at `startTime` (seconds since the epoch).
    static QByteArray json(qint64 startTime, const QString& traceName);
    /// `<worker>.<epoch ms>.pt.trace.json`, as torch.profiler.tensorboard_trace_handler names it.
    static QString fileName(qint64 startTime);
    /// Writes json() into `directory` (created if needed) under fileName().
    static bool write(const QString& directory, qint64 startTime, QString* error);
};

} // namespace runlens::importers::demo
