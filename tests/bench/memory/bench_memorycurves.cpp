// Speed of memory curves: generates a Kineto trace whose events are mostly `[memory]` instants (two
// devices, two threads, CPU ops around them), imports it, then times building the curves
// (memoryFromTrace), downsampling every curve to the chart budget, the peak with its op, and the
// per-operator table. A Python peer does json.load + per-device curves + peak on the same file.
// The ratio is end to end (RunLens: trace import, curves, downsampling; peer: json.load, curves, peak),
// median of R runs on each side, the peer timed inside Python (interpreter start-up excluded). RunLens
// imports on two threads (reader + parser) and reads the curves on every hardware thread; the peer uses
// one thread.
//
//   bench_memorycurves [--events N] [--runs R] [--dir DIR] [--keep] [--no-peers]

#include "importers/memory/tracememory.h"
#include "importers/trace/chrometracereader.h"
#include "models/memory/memoryanalysis.h"
#include "models/memory/memorydownsample.h"
#include "models/trace/tracestore.h"

#include "tests/bench/benchcommon.h"
#include "tests/bench/benchpeer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

using namespace runlens;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

/// CPU time of the calling thread: the machine may be shared, and wall time then says little.
double threadCpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double processCpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

/// Writes `memoryEvents` `[memory]` instants: per CPU op (alternating between two threads) four
/// allocations and frees on cuda:0 or the CPU, with running totals like the caching allocator reports.
std::uint64_t writeTrace(const QString& path, std::uint64_t memoryEvents)
{
    FILE* out = std::fopen(path.toLocal8Bit().constData(), "wb");
    if (!out)
        return 0;
    std::string buf;
    buf.reserve(1 << 21);
    auto flush = [&] {
        std::fwrite(buf.data(), 1, buf.size(), out);
        buf.clear();
    };
    buf += "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100\", "
           "\"totalGlobalMem\": 85520809984}],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, "
           "\"world_size\": 8},\n  \"traceEvents\": [\n";
    const char* ops[4] = { "aten::empty", "aten::mm", "aten::add", "aten::copy_" };
    std::uint64_t written = 0;
    std::int64_t allocated[2] = { 1 << 20, 1 << 30 };
    std::uint64_t index = 0;
    double ts = 1000.0;
    char line[768];
    bool first = true;
    auto put = [&](int n) {
        if (!first)
            buf += ",\n";
        first = false;
        buf.append(line, std::size_t(n));
        if (buf.size() > (1 << 20))
            flush();
    };
    std::uint32_t rng = 12345;
    while (written < memoryEvents) {
        const int tid = 100 + int(index % 2);
        int n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 42, \"tid\": %d, "
                              "\"ts\": %.3f, \"dur\": 9.5, \"args\": {\"External id\": %llu}}",
                              ops[index % 4], tid, ts, (unsigned long long)index);
        put(n);
        for (int k = 0; k < 4 && written < memoryEvents; ++k) {
            const int device = (index + std::uint64_t(k)) % 3 == 0 ? 0 : 1; // 0 CPU, 1 cuda:0
            rng = rng * 1664525u + 1013904223u;
            const std::int64_t bytes = std::int64_t(512 * (1 + (rng >> 20) % 4096)) * (k % 2 == 0 ? 1 : -1);
            allocated[device] = std::max<std::int64_t>(0, allocated[device] + bytes);
            n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
                              "\"pid\": 42, \"tid\": %d, \"ts\": %.3f, \"args\": {\"Ev Idx\": %llu, "
                              "\"Device Type\": %d, \"Device Id\": %d, \"Addr\": %llu, \"Bytes\": %lld, "
                              "\"Total Allocated\": %lld, \"Total Reserved\": %lld}}",
                              tid, ts + 1.0 + k * 2.0, (unsigned long long)written, device, device ? 0 : -1,
                              (unsigned long long)(139823861170176ull + (rng & 0xfffff) * 512), (long long)bytes,
                              (long long)allocated[device], (long long)(allocated[device] / (1 << 21) + 1) * (1 << 21));
            put(n);
            ++written;
        }
        ++index;
        ts += 10.0;
    }
    buf += "\n  ],\n  \"traceName\": \"bench_memory.pt.trace.json\"\n}\n";
    flush();
    std::fclose(out);
    return written;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    std::uint64_t events = 2'000'000;
    int runs = 3;
    QString dirArg;
    bool keep = false;
    bool peers = true;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--events") && i + 1 < args.size())
            events = args[++i].toULongLong();
        else if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            runs = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--dir") && i + 1 < args.size())
            dirArg = args[++i];
        else if (args[i] == QLatin1String("--keep"))
            keep = true;
        else if (args[i] == QLatin1String("--no-peers"))
            peers = false;
        else {
            std::fprintf(stderr,
                         "usage: bench_memorycurves [--events N] [--runs R] [--dir DIR] [--keep] [--no-peers]\n");
            return 2;
        }
    }

    QTemporaryDir temp(dirArg.isEmpty() ? QDir::tempPath() + QStringLiteral("/bench_memorycurves-XXXXXX")
                                        : dirArg + QStringLiteral("/bench_memorycurves-XXXXXX"));
    temp.setAutoRemove(!keep);
    const QString path = temp.filePath(QStringLiteral("bench_memory.pt.trace.json"));
    auto start = Clock::now();
    const std::uint64_t written = writeTrace(path, events);
    const double fileMb = double(QFileInfo(path).size()) / 1e6;
    std::printf("generated %llu memory events, %.1f MB in %.2f s: %s\n", (unsigned long long)written, fileMb,
                seconds(start), qPrintable(path));

    // R runs of the whole path; the medians of each phase are printed, the last run's results are used below.
    std::vector<double> importWall, importCpuTimes, curveWall, curveCpuTimes, downsampleWall, downsampleCpuTimes,
        totalWall;
    importers::trace::ChromeTraceResult trace;
    importers::memory::MemoryReadResult result;
    std::size_t points = 0;
    for (int run = 0; run < runs; ++run) {
        trace = {};
        result = {};
        start = Clock::now();
        const auto runStart = start;
        double cpu = processCpuSeconds();
        trace = importers::trace::ChromeTraceReader::read({ path });
        importWall.push_back(seconds(start));
        importCpuTimes.push_back(processCpuSeconds() - cpu);
        if (!trace.store) {
            std::fprintf(stderr, "the trace could not be read\n");
            return 1;
        }
        start = Clock::now();
        cpu = processCpuSeconds(); // the curves are read on several threads
        result = importers::memory::memoryFromTrace(*trace.store);
        curveWall.push_back(seconds(start));
        curveCpuTimes.push_back(processCpuSeconds() - cpu);
        start = Clock::now();
        cpu = threadCpuSeconds();
        points = 0;
        for (const models::memory::MemoryDevice& device : result.profile->devices) {
            for (const models::memory::MemorySeries* series : { &device.allocated, &device.reserved }) {
                if (!series->empty())
                    points += models::memory::downsample(*series, series->x.front(), series->x.back()).size();
            }
        }
        downsampleWall.push_back(seconds(start));
        downsampleCpuTimes.push_back(threadCpuSeconds() - cpu);
        totalWall.push_back(seconds(runStart));
    }
    const double importSeconds = bench::median(importWall);
    const double importCpu = bench::median(importCpuTimes);
    std::printf("\ntrace import (parse + store ready): %.3f s wall, %.3f s CPU (all threads); medians of %d\n",
                importSeconds, importCpu, runs);
    const double curveSeconds = bench::median(curveWall);
    const double curveCpu = bench::median(curveCpuTimes);
    std::uint64_t memoryEvents = 0;
    for (const models::memory::MemoryDevice& device : result.profile->devices)
        memoryEvents += device.events.size();
    std::printf(
        "memory curves (memoryFromTrace, %d threads): %.3f s wall, %.3f s CPU (all threads) = %.2f M memory events/s "
        "of CPU, %zu devices, %llu events\n",
        bench::hardwareThreads(), curveSeconds, curveCpu, double(memoryEvents) / curveCpu / 1e6,
        result.profile->devices.size(), (unsigned long long)memoryEvents);
    const double downsampleSeconds = bench::median(downsampleWall);
    const double downsampleCpu = bench::median(downsampleCpuTimes);
    std::printf("downsampling every curve to <= %d points: %.3f s wall, %.3f s CPU (%zu points kept)\n",
                models::memory::kMaxCurvePoints, downsampleSeconds, downsampleCpu, points);

    start = Clock::now();
    for (const models::memory::MemoryDevice& device : result.profile->devices) {
        const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
        const models::memory::MemoryContext context = models::memory::memoryContextAt(*trace.store, device, peak.x);
        std::printf("  %s: peak %.0f bytes at %lld ns in %s\n", qPrintable(device.label), peak.bytes, (long long)peak.x,
                    qPrintable(models::memory::contextOpName(*trace.store, context)));
    }
    std::printf("peaks and ops at the peaks: %.3f s\n", seconds(start));

    start = Clock::now();
    std::size_t rows = 0;
    for (const models::memory::MemoryDevice& device : result.profile->devices)
        rows += models::memory::memoryOpTable(*trace.store, device).rows.size();
    std::printf("per-operator tables: %.3f s (%zu rows)\n", seconds(start), rows);

    const double oursEndToEnd = bench::median(totalWall);
    std::printf("\nimport + curves + downsampling: %.3f s wall (median of %d); CPU medians: import %.3f s, curves "
                "%.3f s, downsampling %.3f s\n",
                oursEndToEnd, runs, importCpu, curveCpu, downsampleCpu);

    const bench::Side runlensSide { "RunLens", oursEndToEnd * 1e3, runs,
                                    "import on 2 threads, curves on " + bench::threadsText(bench::hardwareThreads()) };
    const char* what = "memory curves end to end";
    QString python = QStandardPaths::findExecutable(QStringLiteral("python3"), { QStringLiteral("/usr/bin") });
    if (python.isEmpty())
        python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (!peers || python.isEmpty()) {
        bench::printNoRatio(what, runlensSide, peers ? "python3 not found" : "peer skipped");
        return 0;
    }
    trace = {};
    result = {};
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    peer.start(python, { QStringLiteral(RUNLENS_BENCH_DIR "/peer_memorycurves.py"), path, QString::number(runs) });
    std::vector<double> peerSeconds;
    if (peer.waitForFinished(-1) && peer.exitCode() == 0) {
        peerSeconds = bench::numbers(bench::lastJsonLine(peer.readAllStandardOutput()), QStringLiteral("seconds"));
    }
    if (peerSeconds.empty()) {
        bench::printNoRatio(what, runlensSide, "the python peer failed");
        return 0;
    }
    const double peerMedian = bench::median(peerSeconds);
    std::printf("peer python3 (json.load + per-device curves + peak), timed inside Python: %.3f s (median of %zu)\n",
                peerMedian, peerSeconds.size());
    bench::printRatio(what, runlensSide, { "python3 json.load + curves + peak", peerMedian * 1e3, runs, "1 thread" },
                      "interpreter start-up excluded; RunLens also downsamples, the peer does not");
    return 0;
}
