#pragma once

#include "models/trace/tracestore.h"
#include "models/trace/tracestorebuilder.h"

#include <memory>
#include <string>
#include <type_traits>

namespace runlens::test {

/// Tracks and slices of the small store, for assertions.
struct SmallTrace
{
    std::shared_ptr<const models::trace::TraceStore> store;
    int cpuTrack = -1;
    int gpuTrack = -1;
    int counterTrack = -1;
    std::int64_t start = 0; ///< absolute ns of the first event
    static constexpr int kSteps = 3;
    static constexpr std::int64_t kStepNs = 10'000'000; ///< 10 ms per step
};

/// The retained input of a test source, in whatever buffer type TraceSource keeps (a string or a padded
/// buffer), so the fixtures do not depend on how the store holds file content.
template<class Input = std::remove_const_t<typename decltype(models::trace::TraceSource::input)::element_type>>
std::shared_ptr<const Input> makeTraceInput(const std::string& text)
{
    if constexpr (std::is_same_v<Input, std::string>) {
        return std::make_shared<const std::string>(text);
    } else {
        auto buffer = std::make_shared<Input>(text.size());
        buffer->append(text);
        buffer->seal();
        return buffer;
    }
}

/// Finds the index of the first slice named `name` on a track, or -1.
inline std::int64_t findSlice(const models::trace::TraceStore& store, int track, std::string_view name, int nth = 0)
{
    const models::trace::Track& t = store.tracks()[std::size_t(track)];
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (store.strings().view(t.name_[i]) == name && nth-- == 0)
            return std::int64_t(i);
    }
    return -1;
}

/// A training loop in miniature: three ProfilerSteps on a CPU thread, each with nested ops
/// (conv2d > convolution > cudaLaunchKernel, relu), an instant, kernels on a GPU stream joined by flows,
/// and a memory counter. Starts at 1 s absolute so that relative times are exercised.
inline SmallTrace makeSmallTrace()
{
    using namespace models::trace;
    static const std::string args = R"({"Input Dims": [[32, 3, 224, 224]], "External id": 42, "Sequence number": 7})";
    TraceStoreBuilder b;
    const int source = b.addSource(QStringLiteral("test.json"), makeTraceInput(args));
    const int cpu = b.process(source, 100);
    b.setProcessName(cpu, "python train.py");
    const int gpu = b.process(source, 0);
    b.setProcessName(gpu, "GPU 0");
    b.setProcessSortIndex(gpu, 1);
    SmallTrace out;
    out.cpuTrack = b.threadTrack(cpu, 1);
    b.setTrackName(out.cpuTrack, "MainThread");
    out.gpuTrack = b.threadTrack(gpu, 7, TrackType::GpuStream);
    out.counterTrack = b.counterTrack(cpu, "Memory allocated");
    auto& s = b.strings();
    const StringId cpuOp = s.intern("cpu_op");
    const StringId kernel = s.intern("kernel");
    const StringId runtime = s.intern("cuda_runtime");
    const std::int64_t t0 = 1'000'000'000;
    out.start = t0;
    const ArgsRef convArgs { 0, std::uint32_t(args.size()) };
    for (int step = 0; step < SmallTrace::kSteps; ++step) {
        const std::int64_t base = t0 + step * SmallTrace::kStepNs;
        b.addSlice(out.cpuTrack, base, SmallTrace::kStepNs - 100'000, s.intern("ProfilerStep#" + std::to_string(step)),
                   s.intern("user_annotation"), EventKind::UserAnnotation);
        b.addSlice(out.cpuTrack, base + 1'000'000, 3'000'000, s.intern("aten::conv2d"), cpuOp, EventKind::CpuOp,
                   convArgs);
        b.addSlice(out.cpuTrack, base + 1'500'000, 2'000'000, s.intern("aten::convolution"), cpuOp, EventKind::CpuOp);
        b.addSlice(out.cpuTrack, base + 2'000'000, 50'000, s.intern("cudaLaunchKernel"), runtime, EventKind::Runtime);
        b.addSlice(out.cpuTrack, base + 5'000'000, 1'000'000, s.intern("aten::relu"), cpuOp, EventKind::CpuOp);
        b.addSlice(out.cpuTrack, base + 7'000'000, 0, s.intern("checkpoint"), s.intern("instant"), EventKind::Other, {},
                   SliceFlag::Instant);
        b.addSlice(out.gpuTrack, base + 2'100'000, 2'500'000, s.intern("volta_sgemm_128x64_nn"), kernel,
                   EventKind::Kernel);
        b.addSlice(out.gpuTrack, base + 5'100'000, 700'000, s.intern("vectorized_elementwise_kernel"), kernel,
                   EventKind::Kernel);
        b.addFlowPoint(out.cpuTrack, base + 2'000'000, std::uint64_t(step + 1), s.intern("ac2g"), 's', false);
        b.addFlowPoint(out.gpuTrack, base + 2'100'000, std::uint64_t(step + 1), s.intern("ac2g"), 'f', true);
        for (int k = 0; k < 10; ++k)
            b.addCounter(out.counterTrack, base + k * 1'000'000, 1e6 * (1 + (k + step) % 4));
    }
    out.store = b.finish();
    // finish() orders tracks for display: look them up again.
    const auto& tracks = out.store->tracks();
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        if (tracks[t].type == TrackType::Thread && tracks[t].tid == 1)
            out.cpuTrack = int(t);
        else if (tracks[t].type == TrackType::GpuStream && tracks[t].tid == 7)
            out.gpuTrack = int(t);
        else if (tracks[t].type == TrackType::Counter)
            out.counterTrack = int(t);
    }
    return out;
}

/// `threads` CPU threads of `perThread` slices each, nested three deep, packed tightly (1 µs slices), so
/// that a full-range frame covers far more slices than pixels.
inline std::shared_ptr<const models::trace::TraceStore> makeDenseTrace(int threads, std::int64_t perThread)
{
    using namespace models::trace;
    TraceStoreBuilder b;
    const int source = b.addSource(QStringLiteral("dense.json"), nullptr);
    const int process = b.process(source, 1);
    b.setProcessName(process, "dense");
    auto& s = b.strings();
    StringId names[16];
    for (int i = 0; i < 16; ++i)
        names[i] = s.intern("op_" + std::to_string(i));
    const StringId cat = s.intern("cpu_op");
    for (int t = 0; t < threads; ++t) {
        const int track = b.threadTrack(process, t + 1);
        std::int64_t time = 0;
        for (std::int64_t i = 0; i < perThread; i += 3) {
            // parent 1000 ns > child 600 ns > grandchild 300 ns, then a 200 ns gap
            b.addSlice(track, time, 1000, names[i % 16], cat, EventKind::CpuOp);
            b.addSlice(track, time + 100, 600, names[(i + 1) % 16], cat, EventKind::CpuOp);
            b.addSlice(track, time + 200, 300, names[(i + 2) % 16], cat, EventKind::CpuOp);
            time += 1200;
        }
    }
    return b.finish();
}

} // namespace runlens::test
