#include "importers/demo/demotrace.h"

#include "importers/demo/demomodel.h"
#include "importers/demo/kinetorecorder.h"

#include <QCoreApplication>
#include <QDir>
#include <QHash>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <vector>

namespace runlens::importers::demo {

namespace {

using Args = KinetoRecorder::Args;

constexpr int kMainTid = 4242;
constexpr int kAutogradTid = 4313;
/// Kineto's time base: the start of the current 7,889,238-second interval, so `ts` fits a double.
constexpr qint64 kBaseIntervalNs = 7889238LL * 1000000000LL;
constexpr qint64 kDataLoaderUs = 2500; ///< a batch read and augmented in the training process
constexpr int kSlowBatchStep = 13; ///< the step whose batch takes longest, for the Advisor's "worst step"
constexpr double kFlopsPerSecond = 45e12; ///< what the convolutions reach (TF32 on tensor cores)
constexpr double kBytesPerSecond = 1.4e12; ///< what the element-wise kernels reach
constexpr double kPageableBytesPerSecond = 9.5e9;

/// Plays the training loop forward in time and writes what Kineto would record: host operators, runtime
/// calls, kernels on one stream, flows between them and memory events.
class Simulator final : public KinetoRecorder
{
public:
    Simulator(qint64 originNs, qint64 baseNs)
        : KinetoRecorder(baseNs, originNs, 4242)
    {
        m_main.tid = kMainTid;
        m_main.now = originNs;
        m_autograd.tid = kAutogradTid;
        // Weights and momentum buffers live on the device for the whole run; the gradients of the
        // previous step are there until zero_grad drops them.
        for (const DemoModel::Layer& layer : DemoModel::layers()) {
            if (layer.parameters() == 0)
                continue;
            allocate(m_main, layer.parameters() * 4);
            allocate(m_main, layer.parameters() * 4);
        }
    }

    qint64 now() const { return m_main.now; }

    void step(int number)
    {
        begin(m_main, "ProfilerStep#" + QByteArray::number(number), "user_annotation");
        const std::vector<quint64> batch = loadBatch(number);
        const quint64 images = toDevice(imageBytes());
        const quint64 labels = toDevice(labelBytes());
        zeroGrad();
        forward();
        backward();
        optimizerStep();
        // The host batch and its device copy are dropped when the loop takes the next one.
        free(m_main, images);
        free(m_main, labels);
        for (const quint64 address : batch)
            free(m_main, address);
        end(m_main);
        python(m_main, 25);
    }

    void writeMetadata(qint64 at)
    {
        const auto meta
            = [&](const char* name, int pid, int tid, const Args& args) { metadata(name, pid, tid, at, args); };
        meta("process_name", kPid, 0, Args().add("name", "python3.11"));
        meta("process_labels", kPid, 0, Args().add("labels", "CPU"));
        meta("process_sort_index", kPid, 0, Args().add("sort_index", kPid));
        meta("process_name", kDevice, 0, Args().add("name", "python3.11"));
        meta("process_labels", kDevice, 0, Args().add("labels", "GPU 0"));
        meta("process_sort_index", kDevice, 0, Args().add("sort_index", 16777216));
        meta("thread_name", kPid, kMainTid, Args().add("name", "thread 4242 (python3.11)"));
        meta("thread_sort_index", kPid, kMainTid, Args().add("sort_index", kMainTid));
        meta("thread_name", kPid, kAutogradTid, Args().add("name", "thread 4313 (pt_autograd_0)"));
        meta("thread_sort_index", kPid, kAutogradTid, Args().add("sort_index", kAutogradTid));
        meta("thread_name", kDevice, kStream, Args().add("name", "stream 7 "));
        meta("thread_sort_index", kDevice, kStream, Args().add("sort_index", kStream));
    }

private:
    static qint64 imageBytes()
    {
        return qint64(DemoModel::kBatch) * DemoModel::kImageChannels * DemoModel::kImageSize * DemoModel::kImageSize
            * 4;
    }
    static qint64 labelBytes() { return qint64(DemoModel::kBatch) * 8; }
    static qint64 activationBytes(int layer)
    {
        if (layer < 0)
            return imageBytes();
        const DemoModel::Layer& l = DemoModel::layers()[std::size_t(layer)];
        return l.type == DemoModel::Type::Flatten ? 0 : l.outputElements() * DemoModel::kBatch * 4;
    }

    static qint64 computeNs(double flops) { return qint64(flops / kFlopsPerSecond * 1e9) + us(4); }
    static qint64 memoryNs(double bytes) { return qint64(bytes / kBytesPerSecond * 1e9) + us(3); }

    // --- the training loop ------------------------------------------------------------------------------

    std::vector<quint64> loadBatch(int number)
    {
        begin(m_main, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation");
        // Decoding and augmenting 512 images in Python: the bulk of the time, with no operator to show.
        const double readUs = (number == kSlowBatchStep ? 1.9 : 1.0) * kDataLoaderUs * jitter(0.08);
        python(m_main, readUs * 0.85);
        std::vector<quint64> batch;
        begin(m_main, "aten::stack");
        batch.push_back(allocate(m_main, imageBytes(), Memory::Host));
        m_main.now += us(readUs * 0.15);
        end(m_main);
        begin(m_main, "aten::stack");
        batch.push_back(allocate(m_main, labelBytes(), Memory::Host));
        m_main.now += us(6);
        end(m_main);
        end(m_main);
        python(m_main, 30);
        return batch;
    }

    quint64 toDevice(qint64 bytes)
    {
        begin(m_main, "aten::to");
        begin(m_main, "aten::_to_copy");
        begin(m_main, "aten::empty_strided");
        const quint64 address = allocate(m_main, bytes);
        end(m_main);
        begin(m_main, "aten::copy_");
        copyToDevice(m_main, bytes, kPageableBytesPerSecond);
        end(m_main);
        end(m_main);
        end(m_main);
        python(m_main, 12);
        return address;
    }

    void zeroGrad()
    {
        // set_to_none=True (the default since torch 2.0): the gradients are dropped, not filled with zeros.
        begin(m_main, "Optimizer.zero_grad#SGD.zero_grad", "user_annotation");
        for (const quint64 address : m_gradients)
            free(m_main, address);
        m_gradients.clear();
        m_main.now += us(20);
        end(m_main);
        python(m_main, 15);
    }

    static QByteArray dims(std::initializer_list<qint64> shape)
    {
        QByteArray out = "[";
        for (const qint64 d : shape)
            out += (out.size() > 1 ? ", " : "") + QByteArray::number(d);
        return out + "]";
    }

    QByteArray inputDims(const DemoModel::Layer& layer) const
    {
        const qint64 n = DemoModel::kBatch;
        const int in = layer.inputs.empty() ? -1 : layer.inputs.front();
        const int inSize = in < 0 ? DemoModel::kImageSize : DemoModel::layers()[std::size_t(in)].outSize;
        const qint64 c = layer.inChannels;
        switch (layer.type) {
        case DemoModel::Type::Conv:
            return "[" + dims({ n, c, inSize, inSize }) + ", "
                + dims({ layer.outChannels, c, layer.kernel, layer.kernel }) + ", [], [], [], [], []]";
        case DemoModel::Type::Linear:
            return "[" + dims({ n, c }) + ", " + dims({ layer.outChannels, c }) + ", " + dims({ layer.outChannels })
                + "]";
        default:
            return "[" + dims({ n, c, inSize, inSize }) + "]";
        }
    }

    void forward()
    {
        const std::vector<DemoModel::Layer>& layers = DemoModel::layers();
        m_outputs.assign(layers.size(), 0);
        m_saved.assign(layers.size(), 0);
        for (std::size_t i = 0; i < layers.size(); ++i) {
            const DemoModel::Layer& layer = layers[i];
            python(m_main, 22); // nn.Module.__call__, hooks, the forward method
            const double elements = double(layer.outputElements()) * DemoModel::kBatch;
            const qint64 bytes = activationBytes(int(i));
            Args shapes;
            shapes.raw("Input Dims", inputDims(layer));
            // Most layers make a new tensor and run one kernel on it.
            const auto produce = [&](const Names& ops, const Launch& work) {
                nested(m_main, ops, shapes, [&] {
                    m_outputs[i] = allocate(m_main, bytes);
                    if (layer.type == DemoModel::Type::BatchNorm) // mean and inverse std, kept for backward
                        m_saved[i] = allocate(m_main, layer.outChannels * 8);
                    launch(m_main, work);
                });
            };
            switch (layer.type) {
            case DemoModel::Type::Conv:
                produce({ "aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution" },
                        { "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x64x64_stage4_"
                          "warpsize2x2x1_g1_tensor16x8x8_kernel",
                          computeNs(2.0 * elements * layer.inChannels * layer.kernel * layer.kernel),
                          qint64(elements / 8), 168, 49152 });
                break;
            case DemoModel::Type::BatchNorm:
                produce({ "aten::batch_norm", "aten::_batch_norm_impl_index", "aten::cudnn_batch_norm" },
                        { "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>",
                          memoryNs(3.0 * double(bytes)), qint64(elements / 4), 40, 4096 });
                break;
            case DemoModel::Type::Relu:
                produce({ "aten::relu", "aten::clamp_min" },
                        { "void at::native::vectorized_elementwise_kernel<4, at::native::clamp_min_scalar_kernel_"
                          "cuda, at::detail::Array<char*, 2> >",
                          memoryNs(2.0 * double(bytes)), qint64(elements / 4), 28, 0 });
                break;
            case DemoModel::Type::Add:
                // out += identity: in place, no new tensor.
                nested(m_main, { "aten::add_" }, shapes, [&] {
                    launch(m_main,
                           { "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                             "at::detail::Array<char*, 3> >",
                             memoryNs(3.0 * double(bytes)), qint64(elements / 4), 26, 0 });
                });
                break;
            case DemoModel::Type::AvgPool:
                produce({ "aten::adaptive_avg_pool2d", "aten::_adaptive_avg_pool2d" },
                        { "void at::native::(anonymous namespace)::adaptive_average_pool<float>(float*, float*, "
                          "int, int, int, int, long, long, long)",
                          memoryNs(double(activationBytes(layer.inputs.front()))), qint64(elements), 30, 0 });
                break;
            case DemoModel::Type::Flatten:
                nested(m_main, { "aten::flatten" }, shapes, [&] { hostOp(m_main, "aten::view", 3); });
                break;
            case DemoModel::Type::Linear:
                nested(m_main, { "aten::linear" }, shapes, [&] {
                    hostOp(m_main, "aten::t", 4);
                    nested(m_main, { "aten::addmm" }, Args(), [&] {
                        m_outputs[i] = allocate(m_main, bytes);
                        launch(m_main,
                               { "ampere_sgemm_32x32_sliced1x4_tn", computeNs(2.0 * elements * layer.inChannels),
                                 qint64(elements), 86, 16384 });
                    });
                });
                break;
            }
        }
        // The loss.
        python(m_main, 20);
        const qint64 logitsBytes = activationBytes(int(layers.size()) - 1);
        begin(m_main, "aten::cross_entropy_loss");
        nested(m_main, { "aten::log_softmax", "aten::_log_softmax" }, Args(), [&] {
            m_logSoftmax = allocate(m_main, logitsBytes);
            launch(m_main,
                   { "void (anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, (anonymous "
                     "namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)",
                     memoryNs(2.0 * double(logitsBytes)), DemoModel::kBatch * 32, 24, 1024 });
        });
        nested(m_main, { "aten::nll_loss_nd", "aten::nll_loss", "aten::nll_loss_forward" }, Args(), [&] {
            m_loss = allocate(m_main, 512);
            launch(m_main,
                   { "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, "
                     "long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)",
                     us(4), 32, 24, 0 });
        });
        end(m_main);
        python(m_main, 18);
    }

    /// The gradient of layer `j`'s output arrives: the first one allocates it, later ones (a tensor used by
    /// two layers, a residual input) are added into it in place.
    void receiveGradient(Host& host, int j)
    {
        if (j < 0 || m_gradOutputs[std::size_t(j)] != 0)
            return;
        m_gradOutputs[std::size_t(j)] = allocate(host, activationBytes(j));
    }

    /// A parameter's gradient, made by the backward operator that is running; it lives until zero_grad.
    void parameterGradient(Host& host, qint64 bytes) { m_gradients.push_back(allocate(host, bytes)); }

    /// Stores gradients in `.grad` (no copy: the first gradient of a step is taken as it is).
    void accumulateGrad(Host& host, int parameters)
    {
        for (int p = 0; p < parameters; ++p)
            autogradNode(host, "torch::autograd::AccumulateGrad", {}, [&] { hostOp(host, "aten::detach", 2); });
    }

    void backward()
    {
        const std::vector<DemoModel::Layer>& layers = DemoModel::layers();
        Host& host = m_autograd;
        host.now = m_main.now + us(25);
        m_gradOutputs.assign(layers.size(), 0);
        const qint64 logitsBytes = activationBytes(int(layers.size()) - 1);

        quint64 gradLogSoftmax = 0;
        autogradNode(host, "NllLossBackward0", { "aten::nll_loss_backward" }, [&] {
            gradLogSoftmax = allocate(host, logitsBytes);
            launch(host,
                   { "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, "
                     "long>(float*, float const*, long const*, float const*, float const*, bool, int, int, long, "
                     "long)",
                     us(4), 32, 22, 0 });
        });
        free(host, m_loss);
        autogradNode(host, "LogSoftmaxBackward0", { "aten::_log_softmax_backward_data" }, [&] {
            receiveGradient(host, int(layers.size()) - 1);
            launch(host,
                   { "void (anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, (anonymous "
                     "namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, float const*, int)",
                     memoryNs(3.0 * double(logitsBytes)), DemoModel::kBatch * 32, 26, 1024 });
        });
        free(host, gradLogSoftmax);
        free(host, m_logSoftmax);

        for (int i = int(layers.size()) - 1; i >= 0; --i) {
            const DemoModel::Layer& layer = layers[std::size_t(i)];
            const double bytes = double(activationBytes(i));
            const double elements = double(layer.outputElements()) * DemoModel::kBatch;
            const int input = layer.inputs.front();
            python(host, 4); // the engine picks the next node
            switch (layer.type) {
            case DemoModel::Type::Conv: {
                const double flops = 2.0 * elements * layer.inChannels * layer.kernel * layer.kernel;
                autogradNode(host, "ConvolutionBackward0", { "aten::convolution_backward" }, [&] {
                    if (input >= 0) { // no gradient for the images
                        receiveGradient(host, input);
                        launch(host,
                               { "sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x64x32_"
                                 "stage4_warpsize2x2x1_g1_tensor16x8x8_kernel",
                                 computeNs(flops * 1.1), qint64(elements / 8), 168, 49152 });
                    }
                    parameterGradient(host, layer.parameters() * 4);
                    launch(host,
                           { "sm80_xmma_wgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x64x32_"
                             "stage4_warpsize2x2x1_g1_tensor16x8x8_kernel",
                             computeNs(flops * 1.2), qint64(elements / 16), 128, 49152 });
                });
                accumulateGrad(host, 1);
                break;
            }
            case DemoModel::Type::BatchNorm:
                autogradNode(host, "CudnnBatchNormBackward0", { "aten::cudnn_batch_norm_backward" }, [&] {
                    receiveGradient(host, input);
                    parameterGradient(host, layer.outChannels * 4);
                    parameterGradient(host, layer.outChannels * 4);
                    launch(host,
                           { "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>",
                             memoryNs(4.0 * bytes), qint64(elements / 4), 40, 8192 });
                });
                accumulateGrad(host, 2);
                break;
            case DemoModel::Type::Relu:
                autogradNode(host, "ReluBackward0", { "aten::threshold_backward" }, [&] {
                    receiveGradient(host, input);
                    launch(host,
                           { "void at::native::vectorized_elementwise_kernel<4, at::native::threshold_kernel_cuda, "
                             "at::detail::Array<char*, 3> >",
                             memoryNs(3.0 * bytes), qint64(elements / 4), 26, 0 });
                });
                break;
            case DemoModel::Type::Add:
                // The gradient passes to both summands unchanged; a new tensor only where none exists yet.
                autogradNode(host, "AddBackward0", {}, [&] {
                    for (const int summand : layer.inputs)
                        receiveGradient(host, summand);
                });
                break;
            case DemoModel::Type::AvgPool:
                autogradNode(host, "MeanBackward1", { "aten::_adaptive_avg_pool2d_backward" }, [&] {
                    receiveGradient(host, input);
                    launch(host,
                           { "void at::native::(anonymous namespace)::atomic_adaptive_average_gradinput<float>("
                             "float*, float const*, int, int, int, int, long, long)",
                             memoryNs(double(activationBytes(input))), qint64(elements * 64), 30, 0 });
                });
                break;
            case DemoModel::Type::Flatten:
                autogradNode(host, "ViewBackward0", {}, [&] { hostOp(host, "aten::reshape", 3); });
                receiveGradient(host, input);
                break;
            case DemoModel::Type::Linear: {
                const qint64 gemmNs = computeNs(2.0 * elements * layer.inChannels);
                autogradNode(host, "AddmmBackward0", {}, [&] {
                    hostOp(host, "aten::t", 3);
                    nested(host, { "aten::mm" }, Args(), [&] {
                        receiveGradient(host, input);
                        launch(host, { "ampere_sgemm_32x32_sliced1x4_nn", gemmNs, qint64(elements), 86, 16384 });
                    });
                    nested(host, { "aten::mm" }, Args(), [&] {
                        parameterGradient(host, qint64(layer.outChannels) * layer.inChannels * 4);
                        launch(host, { "ampere_sgemm_32x32_sliced1x4_nt", gemmNs, qint64(elements), 86, 16384 });
                    });
                    nested(host, { "aten::sum" }, Args(), [&] {
                        parameterGradient(host, layer.outChannels * 4);
                        launch(host,
                               { "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
                                 "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
                                 "float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, "
                                 "float, 4> >",
                                 us(4), qint64(elements), 32, 16 });
                    });
                });
                accumulateGrad(host, 2);
                break;
            }
            }
            // This layer's output and its gradient are no longer needed.
            free(host, m_gradOutputs[std::size_t(i)]);
            free(host, m_outputs[std::size_t(i)]);
            free(host, m_saved[std::size_t(i)]);
        }
        m_main.now = host.now + us(30);
    }

    void optimizerStep()
    {
        python(m_main, 20);
        begin(m_main, "Optimizer.step#SGD.step", "user_annotation");
        const qint64 parameters = DemoModel::parameterCount();
        const char* kernels[] = {
            "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
            "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, "
            "2, 2, 0>, std::plus<float>, float>",
            "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
            "namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, "
            "1, 0>, std::multiplies<float>, float>",
            "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
            "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, "
            "1, 2, 0>, std::plus<float>, float>",
            "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
            "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, "
            "1, 2, 0>, std::plus<float>, float>",
        };
        const char* ops[]
            = { "aten::_foreach_add", "aten::_foreach_mul_", "aten::_foreach_add_", "aten::_foreach_add_" };
        for (int k = 0; k < 4; ++k) {
            python(m_main, 15);
            begin(m_main, ops[k]);
            quint64 temporary = 0;
            if (k == 0) // weight decay makes a new list of tensors
                temporary = allocate(m_main, parameters * 4);
            launch(m_main, { kernels[k], memoryNs(3.0 * double(parameters) * 4.0), parameters / 4, 32, 0 });
            end(m_main);
            if (k == 2)
                free(m_main, m_decayed);
            if (temporary)
                m_decayed = temporary;
        }
        end(m_main);
        python(m_main, 10);
    }

    Host m_main;
    Host m_autograd;
    std::vector<quint64> m_outputs;
    std::vector<quint64> m_gradOutputs;
    std::vector<quint64> m_saved;
    std::vector<quint64> m_gradients;
    quint64 m_logSoftmax = 0;
    quint64 m_loss = 0;
    quint64 m_decayed = 0;
};

QByteArray deviceProperties()
{
    return Args()
        .add("id", KinetoRecorder::kDevice)
        .add("name", "NVIDIA A100-SXM4-40GB")
        .add("totalGlobalMem", DemoTrace::kDeviceMemory)
        .add("computeMajor", 8)
        .add("computeMinor", 0)
        .add("maxThreadsPerBlock", 1024)
        .add("maxThreadsPerMultiprocessor", 2048)
        .add("regsPerBlock", 65536)
        .add("warpSize", 32)
        .add("sharedMemPerBlock", 49152)
        .add("numSms", KinetoRecorder::kSms)
        .add("regsPerMultiprocessor", 65536)
        .add("sharedMemPerBlockOptin", 166912)
        .add("sharedMemPerMultiprocessor", 167936)
        .text();
}

/// When profiling starts: after kFirstStep steps of about 0.21 s (the scalars' pace) from the run's start.
qint64 originOf(qint64 startTime)
{
    return startTime * 1000000000LL + qint64(DemoTrace::kFirstStep) * 210000000LL + 137000000LL;
}

} // namespace

QByteArray DemoTrace::json(qint64 startTime, const QString& traceName)
{
    const qint64 origin = originOf(startTime);
    const qint64 base = origin / kBaseIntervalNs * kBaseIntervalNs;
    Simulator simulator(origin, base);
    // One step unrecorded, as the profiler's warm-up: the allocator has reserved its memory and the
    // previous step's gradients exist when recording starts.
    simulator.setRecording(false);
    simulator.step(kFirstStep - 1);
    simulator.setRecording(true);
    const qint64 start = simulator.now();
    simulator.writeMetadata(start);
    for (int s = 0; s < kProfilerSteps; ++s)
        simulator.step(kFirstStep + s);

    QByteArray out;
    out += "{\n";
    out += "  \"schemaVersion\": 1,\n";
    out += "  \"deviceProperties\": [\n    {" + deviceProperties() + "}\n  ],\n";
    out += "  \"cupti_version\": 24,\n  \"cuda_runtime_version\": 12040,\n  \"cuda_driver_version\": 12040,\n";
    out += "  \"record_shapes\": 1,\n  \"profile_memory\": 1,\n  \"with_stack\": 0,\n  \"with_flops\": 0,\n"
           "  \"with_modules\": 0,\n";
    out += "  \"displayTimeUnit\": \"ms\",\n";
    out += "  \"baseTimeNanoseconds\": " + QByteArray::number(base) + ",\n";
    out += "  \"traceEvents\": [\n";
    QByteArray events = simulator.events();
    events.chop(2); // the last event's ",\n"
    out += events + "\n  ],\n";
    out += "  \"traceName\": " + jsonString(traceName.toUtf8()) + "\n";
    out += "}\n";
    return out;
}

QString DemoTrace::fileName(qint64 startTime)
{
    return QStringLiteral("demo-host_%1.%2.pt.trace.json").arg(KinetoRecorder::kPid).arg(originOf(startTime) / 1000000);
}

bool DemoTrace::write(const QString& directory, qint64 startTime, QString* error)
{
    if (!QDir().mkpath(directory)) {
        if (error)
            *error = QCoreApplication::translate("runlens::importers::demo::DemoRun", "cannot create the folder %1")
                         .arg(directory);
        return false;
    }
    const QString path = QDir(directory).filePath(fileName(startTime));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json(startTime, fileName(startTime))) < 0 || !file.commit()) {
        if (error)
            *error = QCoreApplication::translate("runlens::importers::demo::DemoRun", "cannot write %1: %2")
                         .arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace runlens::importers::demo
