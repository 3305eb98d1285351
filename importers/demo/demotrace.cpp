#include "demo/demotrace.h"

#include "demo/demomodel.h"
#include "demo/demonoise.h"

#include <QCoreApplication>
#include <QDir>
#include <QHash>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <vector>

namespace runlens::demo {

namespace {

constexpr int kPid = 4242;
constexpr int kMainTid = 4242;
constexpr int kAutogradTid = 4313;
constexpr int kDevice = 0;
constexpr int kStream = 7;
constexpr int kSms = 108;
/// Kineto's time base: the start of the current 7,889,238-second interval, so `ts` fits a double.
constexpr qint64 kBaseIntervalNs = 7889238LL * 1000000000LL;
constexpr qint64 kMiB = 1024 * 1024;
constexpr qint64 kDataLoaderUs = 2500; ///< a batch read and augmented in the training process
constexpr int kSlowBatchStep = 13; ///< the step whose batch takes longest, for the Advisor's "worst step"
constexpr double kFlopsPerSecond = 45e12; ///< what the convolutions reach (TF32 on tensor cores)
constexpr double kBytesPerSecond = 1.4e12; ///< what the element-wise kernels reach
constexpr double kPageableBytesPerSecond = 9.5e9;

qint64 us(double microseconds)
{
    return qint64(std::llround(microseconds * 1000.0));
}

/// Microseconds with three decimals, as Kineto prints `ts` and `dur` ("{us}.{ns:03}").
QByteArray timeText(qint64 ns)
{
    return QByteArray::number(ns / 1000) + '.' + QByteArray::number(ns % 1000).rightJustified(3, '0');
}

QByteArray jsonString(const QByteArray& text)
{
    QByteArray out = text;
    out.replace('\\', "\\\\");
    out.replace('"', "\\\"");
    return '"' + out + '"';
}

/// The members of an `args` object, in the order they are added.
class Args
{
public:
    Args& add(const char* key, qint64 value) { return raw(key, QByteArray::number(value)); }
    Args& add(const char* key, int value) { return raw(key, QByteArray::number(value)); }
    Args& add(const char* key, double value) { return raw(key, QByteArray::number(value, 'g', 10)); }
    Args& add(const char* key, const char* value) { return raw(key, jsonString(value)); }
    Args& raw(const char* key, const QByteArray& json)
    {
        if (!m_text.isEmpty())
            m_text += ", ";
        m_text += '"' + QByteArray(key) + "\": " + json;
        return *this;
    }
    Args& append(const Args& more)
    {
        if (!m_text.isEmpty() && !more.m_text.isEmpty())
            m_text += ", ";
        m_text += more.m_text;
        return *this;
    }
    bool isEmpty() const { return m_text.isEmpty(); }
    const QByteArray& text() const { return m_text; }

private:
    QByteArray m_text;
};

/// One device's allocations: the running totals Kineto prints with every `[memory]` event. The CUDA
/// caching allocator keeps what it reserved, in 2 MiB blocks for small tensors and 20 MiB for large ones.
class Allocator
{
public:
    Allocator(int deviceType, int deviceId, quint64 firstAddress, bool caching)
        : m_deviceType(deviceType)
        , m_deviceId(deviceId)
        , m_next(firstAddress)
        , m_caching(caching)
    { }

    quint64 allocate(qint64 bytes)
    {
        const quint64 address = m_next;
        m_next += quint64((bytes + 511) / 512 * 512);
        m_live.insert(address, bytes);
        m_allocated += bytes;
        if (m_caching) {
            const qint64 block = bytes < kMiB ? 2 * kMiB : 20 * kMiB;
            if (m_allocated > m_reserved)
                m_reserved += (m_allocated - m_reserved + block - 1) / block * block;
        }
        return address;
    }
    /// The size of the block freed, 0 for an address that is not live.
    qint64 release(quint64 address)
    {
        const qint64 bytes = m_live.take(address);
        m_allocated -= bytes;
        return bytes;
    }

    int deviceType() const { return m_deviceType; }
    int deviceId() const { return m_deviceId; }
    qint64 allocated() const { return m_allocated; }
    qint64 reserved() const { return m_reserved; }

private:
    int m_deviceType;
    int m_deviceId;
    quint64 m_next;
    bool m_caching;
    QHash<quint64, qint64> m_live;
    qint64 m_allocated = 0;
    qint64 m_reserved = 0;
};

/// A CPU thread of the training process: its clock and the operators open on it.
struct Host
{
    struct Open
    {
        QByteArray name;
        QByteArray cat;
        qint64 start = 0;
        qint64 externalId = 0;
        Args args;
    };
    int tid = 0;
    qint64 now = 0;
    std::vector<Open> stack;
};

/// What a kernel launch reports besides its time (Kineto's kernel args).
struct Launch
{
    QByteArray kernel;
    qint64 durationNs = 0;
    qint64 threads = 0; ///< work items, for grid, blocks per SM and occupancy
    int registers = 32;
    int sharedMemory = 0;
};

/// Plays the training loop forward in time and writes what Kineto would record: host operators, runtime
/// calls, kernels on one stream, flows between them and memory events.
class Simulator
{
public:
    Simulator(qint64 originNs, qint64 baseNs)
        : m_base(baseNs)
        , m_noise(4242)
        , m_gpu(1, kDevice, 0x7f3c58000000ULL, true)
        , m_cpu(0, -1, 0x55d41c000000ULL, false)
    {
        m_main.tid = kMainTid;
        m_main.now = originNs;
        m_autograd.tid = kAutogradTid;
        m_gpuFree = originNs;
        // Weights and momentum buffers live on the device for the whole run; the gradients of the
        // previous step are there until zero_grad drops them.
        for (const DemoModel::Layer& layer : DemoModel::layers()) {
            if (layer.parameters() == 0)
                continue;
            m_gpu.allocate(layer.parameters() * 4);
            m_gpu.allocate(layer.parameters() * 4);
        }
    }

    void setRecording(bool on) { m_recording = on; }
    qint64 now() const { return m_main.now; }
    const QByteArray& events() const { return m_out; }

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

    void metadata(qint64 at)
    {
        const auto meta = [&](const char* name, int pid, int tid, const Args& args) {
            m_out += "  {\"name\": \"" + QByteArray(name) + "\", \"ph\": \"M\", \"ts\": " + timeText(at - m_base)
                + ", \"pid\": " + QByteArray::number(pid) + ", \"tid\": " + QByteArray::number(tid) + ", \"args\": {"
                + args.text() + "}},\n";
        };
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

    double jitter(double spread) { return 1.0 + spread * m_noise.next(); }

    // --- host operators -------------------------------------------------------------------------------

    void begin(Host& host, const QByteArray& name, const QByteArray& cat = "cpu_op", Args args = {})
    {
        Host::Open open;
        open.name = name;
        open.cat = cat;
        open.start = host.now;
        open.externalId = m_nextExternalId++;
        open.args = std::move(args);
        host.stack.push_back(std::move(open));
        host.now += us(2.0 * jitter(0.4));
    }

    void end(Host& host)
    {
        host.now += us(1.5 * jitter(0.4));
        Host::Open open = std::move(host.stack.back());
        host.stack.pop_back();
        Args args;
        args.add("External id", open.externalId).append(open.args);
        complete(open.cat, open.name, QByteArray::number(kPid), host.tid, open.start, host.now - open.start, args);
    }

    /// Time the host spends in Python between operators (module calls, the loop itself).
    void python(Host& host, double microseconds) { host.now += us(microseconds * jitter(0.3)); }

    /// A leaf operator that only does host work.
    void hostOp(Host& host, const QByteArray& name, double microseconds)
    {
        begin(host, name);
        host.now += us(microseconds * jitter(0.2));
        end(host);
    }

    // --- device work ----------------------------------------------------------------------------------

    void launch(Host& host, const Launch& work)
    {
        const qint64 callStart = host.now;
        const qint64 callDuration = us(5.0 * jitter(0.3));
        const qint64 correlation = m_nextCorrelation++;
        const qint64 externalId = host.stack.empty() ? 0 : host.stack.back().externalId;
        const qint64 kernelStart = std::max(callStart + us(3.5 * jitter(0.3)), m_gpuFree + us(1.2 * jitter(0.5)));
        const qint64 kernelDuration = std::max<qint64>(us(2.0), qint64(double(work.durationNs) * jitter(0.06)));
        complete("cuda_runtime", "cudaLaunchKernel", QByteArray::number(kPid), host.tid, callStart, callDuration,
                 Args().add("External id", externalId).add("cbid", 211).add("correlation", correlation));
        flow("s", correlation, QByteArray::number(kPid), host.tid, callStart);

        const qint64 blockThreads = 256;
        const qint64 blocks = std::max<qint64>(1, (work.threads + blockThreads - 1) / blockThreads);
        const double blocksPerSm = double(blocks) / kSms;
        const double warpsPerSm = blocksPerSm * double(blockThreads) / 32.0;
        Args args;
        args.add("External id", externalId)
            .add("queued", 0)
            .add("device", kDevice)
            .add("context", 1)
            .add("stream", kStream)
            .add("correlation", correlation)
            .add("registers per thread", work.registers)
            .add("shared memory", work.sharedMemory)
            .add("blocks per SM", std::round(blocksPerSm * 1000.0) / 1000.0)
            .add("warps per SM", std::round(warpsPerSm * 1000.0) / 1000.0)
            .raw("grid", "[" + QByteArray::number(blocks) + ", 1, 1]")
            .raw("block", "[" + QByteArray::number(blockThreads) + ", 1, 1]")
            .add("est. achieved occupancy %", int(std::min(100.0, std::round(warpsPerSm / 64.0 * 100.0))));
        complete("kernel", work.kernel, QByteArray::number(kDevice), kStream, kernelStart, kernelDuration, args);
        flow("f", correlation, QByteArray::number(kDevice), kStream, kernelStart);
        m_gpuFree = kernelStart + kernelDuration;
        host.now = callStart + callDuration;
    }

    /// A copy from pageable host memory: the runtime call returns only when the copy is done.
    void copyToDevice(Host& host, qint64 bytes)
    {
        const qint64 callStart = host.now;
        const qint64 correlation = m_nextCorrelation++;
        const qint64 externalId = host.stack.empty() ? 0 : host.stack.back().externalId;
        const qint64 copyStart = std::max(callStart + us(6.0 * jitter(0.2)), m_gpuFree + us(1.0));
        const qint64 copyDuration = qint64(double(bytes) / kPageableBytesPerSecond * 1e9 * jitter(0.05));
        const qint64 callEnd = copyStart + copyDuration + us(4.0 * jitter(0.3));
        complete("cuda_runtime", "cudaMemcpyAsync", QByteArray::number(kPid), host.tid, callStart, callEnd - callStart,
                 Args().add("External id", externalId).add("cbid", 41).add("correlation", correlation));
        flow("s", correlation, QByteArray::number(kPid), host.tid, callStart);
        complete("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", QByteArray::number(kDevice), kStream, copyStart,
                 copyDuration,
                 Args()
                     .add("External id", externalId)
                     .add("device", kDevice)
                     .add("context", 1)
                     .add("stream", kStream)
                     .add("correlation", correlation)
                     .add("bytes", bytes)
                     .add("memory bandwidth (GB/s)", double(bytes) / double(copyDuration)));
        flow("f", correlation, QByteArray::number(kDevice), kStream, copyStart);
        m_gpuFree = copyStart + copyDuration;
        host.now = callEnd;
    }

    static qint64 computeNs(double flops) { return qint64(flops / kFlopsPerSecond * 1e9) + us(4); }
    static qint64 memoryNs(double bytes) { return qint64(bytes / kBytesPerSecond * 1e9) + us(3); }

    // --- memory -----------------------------------------------------------------------------------------

    quint64 allocate(Host& host, Allocator& allocator, qint64 bytes)
    {
        if (bytes <= 0)
            return 0;
        const quint64 address = allocator.allocate(bytes);
        memoryEvent(host, allocator, address, bytes);
        return address;
    }
    quint64 allocate(Host& host, qint64 bytes) { return allocate(host, m_gpu, bytes); }

    void free(Host& host, quint64 address)
    {
        if (address == 0)
            return;
        Allocator& allocator = address >= 0x7f0000000000ULL ? m_gpu : m_cpu;
        const qint64 bytes = allocator.release(address);
        if (bytes > 0)
            memoryEvent(host, allocator, address, -bytes);
    }

    void memoryEvent(Host& host, const Allocator& allocator, quint64 address, qint64 bytes)
    {
        host.now += us(0.3);
        if (!m_recording)
            return;
        m_out += "  {\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": "
            + QByteArray::number(kPid) + ", \"tid\": " + QByteArray::number(host.tid)
            + ", \"ts\": " + timeText(host.now - m_base) + ", \"args\": {"
            + Args()
                  .add("Total Reserved", allocator.reserved())
                  .add("Total Allocated", allocator.allocated())
                  .add("Bytes", bytes)
                  .raw("Addr", QByteArray::number(address))
                  .add("Device Id", allocator.deviceId())
                  .add("Device Type", allocator.deviceType())
                  .text()
            + "}},\n";
    }

    // --- event output -----------------------------------------------------------------------------------

    void complete(const QByteArray& cat, const QByteArray& name, const QByteArray& pid, int tid, qint64 start,
                  qint64 duration, const Args& args)
    {
        if (!m_recording)
            return;
        m_out += "  {\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": " + jsonString(name) + ", \"pid\": " + pid
            + ", \"tid\": " + QByteArray::number(tid) + ", \"ts\": " + timeText(start - m_base)
            + ", \"dur\": " + timeText(duration) + ", \"args\": {" + args.text() + "}},\n";
    }

    void flow(const char* phase, qint64 id, const QByteArray& pid, int tid, qint64 at)
    {
        if (!m_recording)
            return;
        m_out += "  {\"ph\": \"" + QByteArray(phase) + "\", \"id\": " + QByteArray::number(id) + ", \"pid\": " + pid
            + ", \"tid\": " + QByteArray::number(tid) + ", \"ts\": " + timeText(at - m_base)
            + ", \"cat\": \"ac2g\", \"name\": \"ac2g\"" + (phase[0] == 'f' ? ", \"bp\": \"e\"" : "") + "},\n";
    }

    // --- the training loop ------------------------------------------------------------------------------

    std::vector<quint64> loadBatch(int number)
    {
        begin(m_main, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation");
        // Decoding and augmenting 512 images in Python: the bulk of the time, with no operator to show.
        const double readUs = (number == kSlowBatchStep ? 1.9 : 1.0) * kDataLoaderUs * jitter(0.08);
        python(m_main, readUs * 0.85);
        std::vector<quint64> batch;
        begin(m_main, "aten::stack");
        batch.push_back(allocate(m_main, m_cpu, imageBytes()));
        m_main.now += us(readUs * 0.15);
        end(m_main);
        begin(m_main, "aten::stack");
        batch.push_back(allocate(m_main, m_cpu, labelBytes()));
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
        copyToDevice(m_main, bytes);
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
            const qint64 n = DemoModel::kBatch;
            const double elements = double(layer.outputElements()) * double(n);
            const qint64 bytes = activationBytes(int(i));
            Args shapes;
            shapes.raw("Input Dims", inputDims(layer));
            switch (layer.type) {
            case DemoModel::Type::Conv: {
                const double flops = 2.0 * elements * layer.inChannels * layer.kernel * layer.kernel;
                begin(m_main, "aten::conv2d", "cpu_op", shapes);
                begin(m_main, "aten::convolution");
                begin(m_main, "aten::_convolution");
                begin(m_main, "aten::cudnn_convolution");
                m_outputs[i] = allocate(m_main, bytes);
                m_main.now += us(8);
                launch(m_main,
                       { "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x64x64_stage4_"
                         "warpsize2x2x1_g1_tensor16x8x8_kernel",
                         computeNs(flops), qint64(elements / 8), 168, 49152 });
                end(m_main);
                end(m_main);
                end(m_main);
                end(m_main);
                break;
            }
            case DemoModel::Type::BatchNorm:
                begin(m_main, "aten::batch_norm", "cpu_op", shapes);
                begin(m_main, "aten::_batch_norm_impl_index");
                begin(m_main, "aten::cudnn_batch_norm");
                m_outputs[i] = allocate(m_main, bytes);
                m_saved[i] = allocate(m_main, layer.outChannels * 8); // mean and inverse std for backward
                launch(m_main,
                       { "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>",
                         memoryNs(3.0 * double(bytes)), qint64(elements / 4), 40, 4096 });
                end(m_main);
                end(m_main);
                end(m_main);
                break;
            case DemoModel::Type::Relu:
                begin(m_main, "aten::relu", "cpu_op", shapes);
                begin(m_main, "aten::clamp_min");
                m_outputs[i] = allocate(m_main, bytes);
                launch(m_main,
                       { "void at::native::vectorized_elementwise_kernel<4, at::native::clamp_min_scalar_kernel_"
                         "cuda, at::detail::Array<char*, 2> >",
                         memoryNs(2.0 * double(bytes)), qint64(elements / 4), 28, 0 });
                end(m_main);
                end(m_main);
                break;
            case DemoModel::Type::Add:
                // out += identity: in place, no new tensor.
                begin(m_main, "aten::add_", "cpu_op", shapes);
                launch(m_main,
                       { "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                         "at::detail::Array<char*, 3> >",
                         memoryNs(3.0 * double(bytes)), qint64(elements / 4), 26, 0 });
                end(m_main);
                break;
            case DemoModel::Type::AvgPool:
                begin(m_main, "aten::adaptive_avg_pool2d", "cpu_op", shapes);
                begin(m_main, "aten::_adaptive_avg_pool2d");
                m_outputs[i] = allocate(m_main, bytes);
                launch(m_main,
                       { "void at::native::(anonymous namespace)::adaptive_average_pool<float>(float*, float*, "
                         "int, int, int, int, long, long, long)",
                         memoryNs(double(activationBytes(layer.inputs.front()))), qint64(elements), 30, 0 });
                end(m_main);
                end(m_main);
                break;
            case DemoModel::Type::Flatten:
                begin(m_main, "aten::flatten", "cpu_op", shapes);
                hostOp(m_main, "aten::view", 3);
                end(m_main);
                break;
            case DemoModel::Type::Linear:
                begin(m_main, "aten::linear", "cpu_op", shapes);
                hostOp(m_main, "aten::t", 4);
                begin(m_main, "aten::addmm");
                m_outputs[i] = allocate(m_main, bytes);
                launch(m_main,
                       { "ampere_sgemm_32x32_sliced1x4_tn", computeNs(2.0 * elements * layer.inChannels),
                         qint64(elements), 86, 16384 });
                end(m_main);
                end(m_main);
                break;
            }
        }
        // The loss.
        python(m_main, 20);
        const qint64 logitsBytes = activationBytes(int(layers.size()) - 1);
        begin(m_main, "aten::cross_entropy_loss");
        begin(m_main, "aten::log_softmax");
        begin(m_main, "aten::_log_softmax");
        m_logSoftmax = allocate(m_main, logitsBytes);
        launch(m_main,
               { "void (anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, (anonymous "
                 "namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)",
                 memoryNs(2.0 * double(logitsBytes)), DemoModel::kBatch * 32, 24, 1024 });
        end(m_main);
        end(m_main);
        begin(m_main, "aten::nll_loss_nd");
        begin(m_main, "aten::nll_loss");
        begin(m_main, "aten::nll_loss_forward");
        m_loss = allocate(m_main, 512);
        launch(m_main,
               { "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, "
                 "long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)",
                 us(4), 32, 24, 0 });
        end(m_main);
        end(m_main);
        end(m_main);
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

    /// Stores the gradient in `.grad` (no copy: the first gradient of a step is taken as it is).
    void accumulateGrad(Host& host)
    {
        begin(host, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad");
        begin(host, "torch::autograd::AccumulateGrad");
        hostOp(host, "aten::detach", 2);
        end(host);
        end(host);
    }

    void backward()
    {
        const std::vector<DemoModel::Layer>& layers = DemoModel::layers();
        Host& host = m_autograd;
        host.now = m_main.now + us(25);
        m_gradOutputs.assign(layers.size(), 0);
        const QByteArray evaluate = "autograd::engine::evaluate_function: ";
        const qint64 logitsBytes = activationBytes(int(layers.size()) - 1);

        begin(host, evaluate + "NllLossBackward0");
        begin(host, "NllLossBackward0");
        begin(host, "aten::nll_loss_backward");
        const quint64 gradLogSoftmax = allocate(host, logitsBytes);
        launch(host,
               { "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, "
                 "long>(float*, float const*, long const*, float const*, float const*, bool, int, int, long, long)",
                 us(4), 32, 22, 0 });
        end(host);
        end(host);
        end(host);
        free(host, m_loss);
        begin(host, evaluate + "LogSoftmaxBackward0");
        begin(host, "LogSoftmaxBackward0");
        begin(host, "aten::_log_softmax_backward_data");
        receiveGradient(host, int(layers.size()) - 1);
        launch(host,
               { "void (anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, (anonymous "
                 "namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, float const*, int)",
                 memoryNs(3.0 * double(logitsBytes)), DemoModel::kBatch * 32, 26, 1024 });
        end(host);
        end(host);
        end(host);
        free(host, gradLogSoftmax);
        free(host, m_logSoftmax);

        for (int i = int(layers.size()) - 1; i >= 0; --i) {
            const DemoModel::Layer& layer = layers[std::size_t(i)];
            const double bytes = double(activationBytes(i));
            const double elements = double(layer.outputElements()) * DemoModel::kBatch;
            python(host, 4); // the engine picks the next node
            switch (layer.type) {
            case DemoModel::Type::Conv: {
                const double flops = 2.0 * elements * layer.inChannels * layer.kernel * layer.kernel;
                begin(host, evaluate + "ConvolutionBackward0");
                begin(host, "ConvolutionBackward0");
                begin(host, "aten::convolution_backward");
                if (layer.inputs.front() >= 0) {
                    receiveGradient(host, layer.inputs.front());
                    launch(host,
                           { "sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x64x32_"
                             "stage4_warpsize2x2x1_g1_tensor16x8x8_kernel",
                             computeNs(flops * 1.1), qint64(elements / 8), 168, 49152 });
                }
                parameterGradient(host, layer.parameters() * 4);
                launch(host,
                       { "sm80_xmma_wgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x64x32_stage4_"
                         "warpsize2x2x1_g1_tensor16x8x8_kernel",
                         computeNs(flops * 1.2), qint64(elements / 16), 128, 49152 });
                end(host);
                end(host);
                end(host);
                accumulateGrad(host);
                break;
            }
            case DemoModel::Type::BatchNorm:
                begin(host, evaluate + "CudnnBatchNormBackward0");
                begin(host, "CudnnBatchNormBackward0");
                begin(host, "aten::cudnn_batch_norm_backward");
                receiveGradient(host, layer.inputs.front());
                parameterGradient(host, layer.outChannels * 4);
                parameterGradient(host, layer.outChannels * 4);
                launch(host,
                       { "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>", memoryNs(4.0 * bytes),
                         qint64(elements / 4), 40, 8192 });
                end(host);
                end(host);
                end(host);
                accumulateGrad(host);
                accumulateGrad(host);
                break;
            case DemoModel::Type::Relu:
                begin(host, evaluate + "ReluBackward0");
                begin(host, "ReluBackward0");
                begin(host, "aten::threshold_backward");
                receiveGradient(host, layer.inputs.front());
                launch(host,
                       { "void at::native::vectorized_elementwise_kernel<4, at::native::threshold_kernel_cuda, "
                         "at::detail::Array<char*, 3> >",
                         memoryNs(3.0 * bytes), qint64(elements / 4), 26, 0 });
                end(host);
                end(host);
                end(host);
                break;
            case DemoModel::Type::Add:
                // The gradient passes to both summands unchanged; a new tensor only where none exists yet.
                begin(host, evaluate + "AddBackward0");
                hostOp(host, "AddBackward0", 3);
                for (const int input : layer.inputs)
                    receiveGradient(host, input);
                end(host);
                break;
            case DemoModel::Type::AvgPool:
                begin(host, evaluate + "MeanBackward1");
                begin(host, "MeanBackward1");
                begin(host, "aten::_adaptive_avg_pool2d_backward");
                receiveGradient(host, layer.inputs.front());
                launch(host,
                       { "void at::native::(anonymous namespace)::atomic_adaptive_average_gradinput<float>(float*, "
                         "float const*, int, int, int, int, long, long)",
                         memoryNs(double(activationBytes(layer.inputs.front()))), qint64(elements * 64), 30, 0 });
                end(host);
                end(host);
                end(host);
                break;
            case DemoModel::Type::Flatten:
                begin(host, evaluate + "ViewBackward0");
                begin(host, "ViewBackward0");
                hostOp(host, "aten::reshape", 3);
                end(host);
                end(host);
                receiveGradient(host, layer.inputs.front());
                break;
            case DemoModel::Type::Linear:
                begin(host, evaluate + "AddmmBackward0");
                begin(host, "AddmmBackward0");
                hostOp(host, "aten::t", 3);
                begin(host, "aten::mm");
                receiveGradient(host, layer.inputs.front());
                launch(host,
                       { "ampere_sgemm_32x32_sliced1x4_nn", computeNs(2.0 * elements * layer.inChannels),
                         qint64(elements), 86, 16384 });
                end(host);
                begin(host, "aten::mm");
                parameterGradient(host, qint64(layer.outChannels) * layer.inChannels * 4);
                launch(host,
                       { "ampere_sgemm_32x32_sliced1x4_nt", computeNs(2.0 * elements * layer.inChannels),
                         qint64(elements), 86, 16384 });
                end(host);
                begin(host, "aten::sum");
                parameterGradient(host, layer.outChannels * 4);
                launch(host,
                       { "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
                         "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()"
                         "(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >",
                         us(4), qint64(elements), 32, 16 });
                end(host);
                end(host);
                end(host);
                accumulateGrad(host);
                accumulateGrad(host);
                break;
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

    qint64 m_base;
    DemoNoise m_noise;
    Allocator m_gpu;
    Allocator m_cpu;
    Host m_main;
    Host m_autograd;
    qint64 m_gpuFree = 0;
    qint64 m_nextExternalId = 1;
    qint64 m_nextCorrelation = 1;
    bool m_recording = true;
    QByteArray m_out;
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
        .add("id", kDevice)
        .add("name", "NVIDIA A100-SXM4-40GB")
        .add("totalGlobalMem", DemoTrace::kDeviceMemory)
        .add("computeMajor", 8)
        .add("computeMinor", 0)
        .add("maxThreadsPerBlock", 1024)
        .add("maxThreadsPerMultiprocessor", 2048)
        .add("regsPerBlock", 65536)
        .add("warpSize", 32)
        .add("sharedMemPerBlock", 49152)
        .add("numSms", kSms)
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
    simulator.metadata(start);
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
    return QStringLiteral("demo-host_%1.%2.pt.trace.json").arg(kPid).arg(originOf(startTime) / 1000000);
}

bool DemoTrace::write(const QString& directory, qint64 startTime, QString* error)
{
    if (!QDir().mkpath(directory)) {
        if (error)
            *error = QCoreApplication::translate("runlens::DemoRun", "cannot create the folder %1").arg(directory);
        return false;
    }
    const QString path = QDir(directory).filePath(fileName(startTime));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json(startTime, fileName(startTime))) < 0 || !file.commit()) {
        if (error)
            *error
                = QCoreApplication::translate("runlens::DemoRun", "cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace runlens::demo
