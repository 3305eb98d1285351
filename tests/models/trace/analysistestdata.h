#pragma once

#include "models/trace/tracestore.h"
#include "models/trace/tracestorebuilder.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::test {

/// Builds small stores by hand for the trace analyses: one CPU thread and one GPU stream per source by
/// default, slices by name and kind, correlations joining runtime calls to kernels, args kept in a
/// generated input so argsJson() works.
class AnalysisTraceBuilder
{
public:
    struct PendingArgs
    {
        int source;
        int track;
        std::int64_t start;
        std::string json;
    };

    explicit AnalysisTraceBuilder(int sources = 1)
    {
        for (int s = 0; s < sources; ++s) {
            m_inputs.push_back(std::make_shared<models::trace::TraceBuffer>());
            m_sources.push_back(m_builder.addSource(QStringLiteral("rank%1.json").arg(s), m_inputs.back()));
            const int cpu = m_builder.process(m_sources.back(), 100 + s);
            m_builder.setProcessName(cpu, "python");
            m_cpuTracks.push_back(m_builder.threadTrack(cpu, 1, models::trace::TrackType::Thread));
            const int gpu = m_builder.process(m_sources.back(), s);
            m_builder.setProcessLabels(gpu, "GPU " + std::to_string(s));
            m_gpuTracks.push_back(m_builder.threadTrack(gpu, 7, models::trace::TrackType::GpuStream));
        }
    }

    models::trace::TraceStoreBuilder& builder() { return m_builder; }
    int cpu(int source = 0) const { return m_cpuTracks[std::size_t(source)]; }
    int gpu(int source = 0) const { return m_gpuTracks[std::size_t(source)]; }

    /// Adds a slice; `args` (a JSON object) is appended to the source's input and referenced.
    void slice(int track, std::int64_t start, std::int64_t duration, std::string_view name,
               models::trace::EventKind kind, std::string_view args = {})
    {
        models::trace::ArgsRef ref;
        if (!args.empty()) {
            models::trace::TraceBuffer& input = *m_inputs[std::size_t(sourceOfTrack(track))];
            ref.offset = input.size();
            ref.length = std::uint32_t(args.size());
            input.append(args);
            input.append("\n");
        }
        const models::trace::StringId id = m_builder.strings().intern(name);
        const models::trace::StringId cat = m_builder.strings().intern(models::trace::eventKindId(kind));
        m_builder.addSlice(track, start, duration, id, cat, kind, ref);
    }

    /// A runtime call on the CPU track of `source` launching a kernel-like slice on its GPU stream.
    void launch(int source, std::int64_t runtimeStart, std::int64_t runtimeDuration, std::int64_t kernelStart,
                std::int64_t kernelDuration, std::string_view kernelName,
                models::trace::EventKind kind = models::trace::EventKind::Kernel)
    {
        const std::uint64_t correlation = ++m_correlation;
        slice(cpu(source), runtimeStart, runtimeDuration, "cudaLaunchKernel", models::trace::EventKind::Runtime);
        slice(gpu(source), kernelStart, kernelDuration, kernelName, kind);
        m_builder.setCorrelation(cpu(source), runtimeStart, correlation);
        m_builder.setCorrelation(gpu(source), kernelStart, correlation);
    }

    void step(int source, std::int64_t number, std::int64_t start, std::int64_t duration)
    {
        slice(cpu(source), start, duration, "ProfilerStep#" + std::to_string(number),
              models::trace::EventKind::UserAnnotation);
    }

    std::shared_ptr<const models::trace::TraceStore> finish() { return m_builder.finish(); }

private:
    int sourceOfTrack(int track) const
    {
        for (std::size_t s = 0; s < m_cpuTracks.size(); ++s) {
            if (m_cpuTracks[s] == track || m_gpuTracks[s] == track)
                return int(s);
        }
        return 0;
    }

    models::trace::TraceStoreBuilder m_builder;
    std::vector<std::shared_ptr<models::trace::TraceBuffer>> m_inputs;
    std::vector<int> m_sources;
    std::vector<int> m_cpuTracks;
    std::vector<int> m_gpuTracks;
    std::uint64_t m_correlation = 0;
};

/// A training-like trace: per step a data loader call, forward and backward ops launching kernels on the
/// GPU (which lags the CPU a little), a host-to-device copy, an all-reduce and an optimizer step. Numbers
/// vary per step so charts look like real ones.
inline std::shared_ptr<const models::trace::TraceStore> syntheticTrainingTrace(int steps = 8, unsigned seed = 7)
{
    using models::trace::EventKind;
    AnalysisTraceBuilder t;
    std::uint64_t state = seed;
    const auto rnd = [&state](int range) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return int((state >> 33) % std::uint64_t(range));
    };
    struct OpSpec
    {
        const char* name;
        const char* dims;
        const char* kernel;
        int hostUs;
        int kernelUs;
    };
    const OpSpec forward[] = {
        { "aten::conv2d", R"([[32, 3, 224, 224], [64, 3, 7, 7]])", "implicit_convolve_sgemm", 180, 2100 },
        { "aten::batch_norm", R"([[32, 64, 112, 112]])", "bn_fw_tr_1C11_kernel_NCHW", 90, 600 },
        { "aten::relu_", R"([[32, 64, 112, 112]])", "vectorized_elementwise_kernel", 40, 350 },
        { "aten::conv2d", R"([[32, 64, 56, 56], [64, 64, 3, 3]])", "volta_scudnn_128x64_relu_interior_nn_v1", 160,
          1800 },
        { "aten::addmm", R"([[1000], [32, 2048], [2048, 1000]])", "volta_sgemm_128x64_nn", 70, 300 },
        { "aten::cross_entropy_loss", R"([[32, 1000], [32]])", "cunn_SoftMaxForward", 120, 80 },
    };
    const OpSpec backward[] = {
        { "autograd::engine::evaluate_function: ConvolutionBackward0", "", "dgrad_engine", 260, 4300 },
        { "autograd::engine::evaluate_function: AddmmBackward0", "", "volta_sgemm_64x64_nt", 110, 500 },
        { "autograd::engine::evaluate_function: NativeBatchNormBackward0", "", "bn_bw_1C11_kernel", 120, 900 },
    };
    std::int64_t now = 1'000'000;
    const int cpu = t.cpu();
    std::int64_t gpuFree = now;
    const auto launchOp = [&](const OpSpec& op, bool withDims) {
        const std::int64_t host = std::int64_t(op.hostUs + rnd(op.hostUs / 3 + 1)) * 1000;
        const std::string args = withDims && op.dims[0] ? std::string(R"({"Input Dims": )") + op.dims + "}" : "";
        t.slice(cpu, now, host, op.name, EventKind::CpuOp, args);
        const std::int64_t launchAt = now + host / 3;
        const std::int64_t kernelStart = std::max(gpuFree, launchAt + 6000);
        const std::int64_t kernel = std::int64_t(op.kernelUs + rnd(op.kernelUs / 5 + 1)) * 1000;
        t.launch(0, launchAt, 8000, kernelStart, kernel, op.kernel);
        gpuFree = kernelStart + kernel + 2000;
        now += host + 15000 + rnd(20) * 1000;
    };
    for (int s = 0; s < steps; ++s) {
        const std::int64_t stepStart = now;
        now += 50000;
        const std::int64_t loader = std::int64_t(2000 + rnd(s == 0 ? 9000 : 2500)) * 1000;
        t.slice(cpu, now, loader, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
                EventKind::UserAnnotation);
        t.slice(cpu, now + 30000, loader - 60000, "aten::stack", EventKind::CpuOp);
        now += loader + 40000;
        // Host-to-device copy of the batch.
        const std::int64_t copyAt = now;
        t.slice(cpu, copyAt, 900000, "aten::to", EventKind::CpuOp);
        t.launch(0, copyAt + 100000, 700000, std::max(gpuFree, copyAt + 150000), 650000,
                 "Memcpy HtoD (Pageable -> Device)", EventKind::Memcpy);
        gpuFree = std::max(gpuFree, copyAt + 150000) + 650000;
        now += 950000;
        for (int rep = 0; rep < 3; ++rep) {
            for (const OpSpec& op : forward)
                launchOp(op, true);
        }
        for (int rep = 0; rep < 3; ++rep) {
            for (const OpSpec& op : backward)
                launchOp(op, false);
        }
        // Gradient all-reduce and zeroing.
        const std::int64_t ncclStart = std::max(gpuFree, now);
        t.slice(cpu, now, 300000, "nccl:all_reduce", EventKind::CpuOp);
        t.launch(0, now + 50000, 10000, ncclStart + 20000, 2500000 + rnd(1500) * 1000,
                 "ncclKernel_AllReduce_RING_LL_Sum_float");
        gpuFree = ncclStart + 20000 + 2500000 + 1500000;
        now += 400000;
        t.slice(cpu, now, 200000, "aten::zero_", EventKind::CpuOp);
        const std::int64_t memsetStart = std::max(gpuFree, now + 40000);
        t.launch(0, now + 20000, 8000, memsetStart, 120000, "Memset (Device)", EventKind::Memset);
        gpuFree = memsetStart + 130000;
        now += 600000;
        t.slice(cpu, now, 1200000, "Optimizer.step#SGD.step", EventKind::UserAnnotation);
        for (int k = 0; k < 4; ++k) {
            t.slice(cpu, now + 20000 + k * 290000, 260000, "aten::add_", EventKind::CpuOp);
            t.launch(0, now + 60000 + k * 290000, 9000, std::max(gpuFree, now + 90000 + k * 290000), 180000,
                     "multi_tensor_apply_kernel");
            gpuFree = std::max(gpuFree, now + 90000 + k * 290000) + 190000;
        }
        now += 1250000 + rnd(800) * 1000;
        t.step(0, s + 1, stepStart, now - stepStart);
        now += 10000;
    }
    return t.finish();
}

} // namespace runlens::test
