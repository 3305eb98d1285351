#include "importers/demo/kinetorecorder.h"

#include <algorithm>
#include <cmath>

namespace runlens::importers::demo {

qint64 KinetoRecorder::us(double microseconds)
{
    return qint64(std::llround(microseconds * 1000.0));
}

QByteArray KinetoRecorder::timeText(qint64 ns)
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

KinetoRecorder::KinetoRecorder(qint64 baseNs, qint64 originNs, quint64 seed)
    : m_base(baseNs)
    , m_noise(seed)
    , m_gpu(1, kDevice, 0x7f3c58000000ULL, true)
    , m_cpu(0, -1, 0x55d41c000000ULL, false)
    , m_gpuFree(originNs)
{ }

double KinetoRecorder::jitter(double spread)
{
    return 1.0 + spread * m_noise.next();
}

void KinetoRecorder::begin(Host& host, const QByteArray& name, const QByteArray& cat, Args args)
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

void KinetoRecorder::end(Host& host)
{
    host.now += us(1.5 * jitter(0.4));
    Host::Open open = std::move(host.stack.back());
    host.stack.pop_back();
    Args args;
    args.add("External id", open.externalId).append(open.args);
    complete(open.cat, open.name, QByteArray::number(kPid), host.tid, open.start, host.now - open.start, args);
}

void KinetoRecorder::python(Host& host, double microseconds)
{
    host.now += us(microseconds * jitter(0.3));
}

void KinetoRecorder::hostOp(Host& host, const QByteArray& name, double microseconds)
{
    begin(host, name);
    host.now += us(microseconds * jitter(0.2));
    end(host);
}

void KinetoRecorder::launch(Host& host, const Launch& work)
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

void KinetoRecorder::copyToDevice(Host& host, qint64 bytes, double bytesPerSecond)
{
    const qint64 callStart = host.now;
    const qint64 correlation = m_nextCorrelation++;
    const qint64 externalId = host.stack.empty() ? 0 : host.stack.back().externalId;
    const qint64 copyStart = std::max(callStart + us(6.0 * jitter(0.2)), m_gpuFree + us(1.0));
    const qint64 copyDuration = qint64(double(bytes) / bytesPerSecond * 1e9 * jitter(0.05));
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

quint64 KinetoRecorder::allocate(Host& host, qint64 bytes, Memory memory)
{
    Allocator& allocator = memory == Memory::Host ? m_cpu : m_gpu;
    if (bytes <= 0)
        return 0;
    const quint64 address = allocator.allocate(bytes);
    memoryEvent(host, allocator, address, bytes);
    return address;
}

void KinetoRecorder::free(Host& host, quint64 address)
{
    if (address == 0)
        return;
    Allocator& allocator = address >= 0x7f0000000000ULL ? m_gpu : m_cpu;
    const qint64 bytes = allocator.release(address);
    if (bytes > 0)
        memoryEvent(host, allocator, address, -bytes);
}

void KinetoRecorder::memoryEvent(Host& host, const Allocator& allocator, quint64 address, qint64 bytes)
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

void KinetoRecorder::complete(const QByteArray& cat, const QByteArray& name, const QByteArray& pid, int tid,
                              qint64 start, qint64 duration, const Args& args)
{
    if (!m_recording)
        return;
    m_out += "  {\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": " + jsonString(name) + ", \"pid\": " + pid
        + ", \"tid\": " + QByteArray::number(tid) + ", \"ts\": " + timeText(start - m_base)
        + ", \"dur\": " + timeText(duration) + ", \"args\": {" + args.text() + "}},\n";
}

void KinetoRecorder::flow(const char* phase, qint64 id, const QByteArray& pid, int tid, qint64 at)
{
    if (!m_recording)
        return;
    m_out += "  {\"ph\": \"" + QByteArray(phase) + "\", \"id\": " + QByteArray::number(id) + ", \"pid\": " + pid
        + ", \"tid\": " + QByteArray::number(tid) + ", \"ts\": " + timeText(at - m_base)
        + ", \"cat\": \"ac2g\", \"name\": \"ac2g\"" + (phase[0] == 'f' ? ", \"bp\": \"e\"" : "") + "},\n";
}

void KinetoRecorder::metadata(const char* name, int pid, int tid, qint64 at, const Args& args)
{
    m_out += "  {\"name\": \"" + QByteArray(name) + "\", \"ph\": \"M\", \"ts\": " + timeText(at - m_base)
        + ", \"pid\": " + QByteArray::number(pid) + ", \"tid\": " + QByteArray::number(tid) + ", \"args\": {"
        + args.text() + "}},\n";
}

} // namespace runlens::importers::demo
