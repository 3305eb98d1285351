#pragma once

#include "importers/demo/demonoise.h"

#include <QByteArray>
#include <QHash>

#include <vector>

namespace runlens::importers::demo {

/// Escapes and quotes a JSON string.
QByteArray jsonString(const QByteArray& text);

/// Records what Kineto (the PyTorch profiler) writes about one training process on one CUDA device, as the
/// caller plays the process forward in time: host operators on the threads it drives (Host), runtime calls
/// and the kernels they launch on one stream, with flows between them, and `[memory]` events with the
/// running totals of each device. Only the `traceEvents` entries are produced; the caller writes the rest.
class KinetoRecorder
{
public:
    static constexpr int kPid = 4242;
    static constexpr int kDevice = 0;
    static constexpr int kStream = 7;
    static constexpr int kSms = 108;

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
                constexpr qint64 kMiB = 1024 * 1024;
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

    enum class Memory { Host, Device };
    using Names = std::vector<QByteArray>;

    /// `baseNs` is the trace's baseTimeNanoseconds; the device is idle from `originNs` on.
    KinetoRecorder(qint64 baseNs, qint64 originNs, quint64 seed);

    /// Events are only written while recording is on (off at first: a warm-up plays without a trace).
    void setRecording(bool on) { m_recording = on; }
    /// The events so far, each line ending with ",\n".
    const QByteArray& events() const { return m_out; }

    static qint64 us(double microseconds);
    /// Microseconds with three decimals, as Kineto prints `ts` and `dur` ("{us}.{ns:03}").
    static QByteArray timeText(qint64 ns);

protected:
    /// A factor of 1 +- `spread`.
    double jitter(double spread);

    void begin(Host& host, const QByteArray& name, const QByteArray& cat = "cpu_op", Args args = {});
    void end(Host& host);
    /// Time the host spends in Python between operators (module calls, the loop itself).
    void python(Host& host, double microseconds);
    /// A leaf operator that only does host work.
    void hostOp(Host& host, const QByteArray& name, double microseconds);

    /// Operators that call one another (the first the outermost, with `args`), `work` running in the
    /// innermost: how one Python call shows up as a stack of aten operators.
    template<typename Work> void nested(Host& host, const Names& names, const Args& args, Work&& work)
    {
        for (std::size_t k = 0; k < names.size(); ++k)
            begin(host, names[k], "cpu_op", k == 0 ? args : Args());
        work();
        for (std::size_t k = 0; k < names.size(); ++k)
            end(host);
    }

    /// One node of the autograd graph as the engine runs it: its wrapper, the node, the operators inside.
    template<typename Work> void autogradNode(Host& host, const QByteArray& node, const Names& ops, Work&& work)
    {
        Names names { "autograd::engine::evaluate_function: " + node, node };
        names.insert(names.end(), ops.begin(), ops.end());
        nested(host, names, Args(), std::forward<Work>(work));
    }

    /// cudaLaunchKernel on `host` and the kernel on the stream, once the stream is free.
    void launch(Host& host, const Launch& work);
    /// A copy from pageable host memory at `bytesPerSecond`: the runtime call returns only when the copy
    /// is done.
    void copyToDevice(Host& host, qint64 bytes, double bytesPerSecond);

    /// Address of a new block, with its `[memory]` event (0 and no event for 0 bytes).
    quint64 allocate(Host& host, qint64 bytes, Memory memory = Memory::Device);
    /// Frees a block allocate() returned; 0 is ignored.
    void free(Host& host, quint64 address);

    /// A metadata (`M`) event.
    void metadata(const char* name, int pid, int tid, qint64 at, const Args& args);

private:
    void memoryEvent(Host& host, const Allocator& allocator, quint64 address, qint64 bytes);
    void complete(const QByteArray& cat, const QByteArray& name, const QByteArray& pid, int tid, qint64 start,
                  qint64 duration, const Args& args);
    void flow(const char* phase, qint64 id, const QByteArray& pid, int tid, qint64 at);

    qint64 m_base;
    DemoNoise m_noise;
    Allocator m_gpu;
    Allocator m_cpu;
    qint64 m_gpuFree = 0;
    qint64 m_nextExternalId = 1;
    qint64 m_nextCorrelation = 1;
    bool m_recording = false;
    QByteArray m_out;
};

} // namespace runlens::importers::demo
