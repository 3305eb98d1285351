// End-to-end import speed of Chrome traces: generates a Kineto-like trace, imports it (parse + store
// ready), and measures the same file with peers on this machine (python3 json.load, node JSON.parse,
// a bare simdjson On Demand pass).
//
//   bench_traceimport [--events N] [--dir DIR] [--keep] [--no-peers]

#include "trace/chrometracereader.h"
#include "trace/tracestore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <simdjson.h>

#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

using namespace runlens::trace;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

long peakRssKb()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

/// Writes `events` Kineto-like events: per iteration a ProfilerStep, CPU ops nested 4 deep, a runtime
/// launch per leaf with its kernel on one of 4 streams, an ac2g flow, and [memory] instants. Streams
/// to the file so the generator does not inflate the importer's peak RSS.
std::uint64_t writeTrace(const QString& path, std::uint64_t events)
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
           "\"totalGlobalMem\": 85520809984, \"computeMajor\": 9, \"computeMinor\": 0, \"numSms\": 132}],\n"
           "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 8},\n"
           "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": 1759276800000000000,\n  \"traceEvents\": [\n";
    const char* ops[4] = { "aten::linear", "aten::addmm", "aten::mm", "aten::_mm_impl" };
    const char* kernels[3] = { "sm90_xmma_gemm_f16f16_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1",
                               "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>",
                               "void cutlass::Kernel2<cutlass_80_tensorop_s16816gemm_relu_f16_64x64_64x4>" };
    std::uint64_t written = 0;
    std::uint64_t correlation = 1;
    std::uint64_t externalId = 1;
    double ts = 1000.0;
    char line[1024];
    bool first = true;
    auto put = [&](int n) {
        if (!first)
            buf += ",\n";
        first = false;
        buf.append(line, std::size_t(n));
        ++written;
        if (buf.size() > (1 << 20))
            flush();
    };
    int step = 0;
    while (written < events) {
        const double stepStart = ts;
        int n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\", "
                              "\"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, \"dur\": %.3f, \"args\": "
                              "{\"External id\": %llu, \"Record function id\": 0, \"Ev Idx\": %llu}}",
                              step++, stepStart, 2000.0, (unsigned long long)externalId++, (unsigned long long)written);
        put(n);
        for (int iter = 0; iter < 40 && written < events; ++iter) {
            double t = ts + 1.0;
            for (int depth = 0; depth < 4; ++depth) {
                n = std::snprintf(
                    line, sizeof line,
                    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 4242, \"tid\": 4242, "
                    "\"ts\": %.3f, \"dur\": %.3f, \"args\": {\"External id\": %llu, \"Record function id\": 0, "
                    "\"Ev Idx\": %llu, \"Input Dims\": [[64, 1024], [1024, 4096]], "
                    "\"Input type\": [\"c10::Half\", \"c10::Half\"], \"Sequence number\": %llu, "
                    "\"Fwd thread id\": 0}}",
                    ops[depth], t + depth * 0.5, 40.0 - depth * 2.0, (unsigned long long)externalId++,
                    (unsigned long long)written, (unsigned long long)written);
                put(n);
            }
            const double launch = t + 2.5;
            const int stream = 7 + iter % 4;
            n = std::snprintf(
                line, sizeof line,
                "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 4242, "
                "\"tid\": 4242, \"ts\": %.3f, \"dur\": 4.125, \"args\": {\"External id\": %llu, "
                "\"cbid\": 211, \"correlation\": %llu}}",
                launch, (unsigned long long)(externalId - 1), (unsigned long long)correlation);
            put(n);
            n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"s\", \"id\": %llu, \"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, "
                              "\"cat\": \"ac2g\", \"name\": \"ac2g\"}",
                              (unsigned long long)correlation, launch);
            put(n);
            const double kernelStart = launch + 8.0 + (iter % 4) * 0.25;
            n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": %d, "
                              "\"ts\": %.3f, \"dur\": 20.333, \"args\": {\"External id\": %llu, \"queued\": 0, "
                              "\"device\": 0, \"context\": 1, \"stream\": %d, \"correlation\": %llu, "
                              "\"registers per thread\": 168, \"shared memory\": 196608, \"blocks per SM\": 0.5, "
                              "\"warps per SM\": 2.0, \"grid\": [66, 1, 1], \"block\": [384, 1, 1], "
                              "\"est. achieved occupancy %%\": 6}}",
                              kernels[iter % 3], stream, kernelStart, (unsigned long long)(externalId - 1), stream,
                              (unsigned long long)correlation);
            put(n);
            n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"f\", \"id\": %llu, \"pid\": 0, \"tid\": %d, \"ts\": %.3f, "
                              "\"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}",
                              (unsigned long long)correlation, stream, kernelStart);
            put(n);
            ++correlation;
            if (iter % 2 == 0) {
                n = std::snprintf(
                    line, sizeof line,
                    "  {\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
                    "\"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, \"args\": {\"Total Reserved\": 2097152, "
                    "\"Total Allocated\": %llu, \"Bytes\": 512, \"Addr\": 139823861170176, "
                    "\"Device Id\": 0, \"Device Type\": 1, \"Ev Idx\": %llu}}",
                    t + 1.0, (unsigned long long)(written * 512 % 100000000), (unsigned long long)written);
                put(n);
            }
            ts += 45.0;
        }
        ts = std::max(ts, stepStart + 2000.0) + 10.0;
    }
    buf += "\n  ],\n  \"traceName\": \"bench.pt.trace.json\"\n}\n";
    flush();
    std::fclose(out);
    return written;
}

/// Runs a peer command on the file and returns its wall time, or nothing when it failed.
std::optional<double> timePeer(const QString& command)
{
    const auto start = Clock::now();
    const int rc = std::system(command.toLocal8Bit().constData());
    if (rc != 0)
        return std::nullopt;
    return seconds(start);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    std::uint64_t events = 1'000'000;
    QString dirArg;
    bool keep = false;
    bool peers = true;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--events") && i + 1 < args.size())
            events = args[++i].toULongLong();
        else if (args[i] == QLatin1String("--dir") && i + 1 < args.size())
            dirArg = args[++i];
        else if (args[i] == QLatin1String("--keep"))
            keep = true;
        else if (args[i] == QLatin1String("--no-peers"))
            peers = false;
        else {
            std::fprintf(stderr, "usage: bench_traceimport [--events N] [--dir DIR] [--keep] [--no-peers]\n");
            return 2;
        }
    }

    QTemporaryDir temp(dirArg.isEmpty() ? QDir::tempPath() + QStringLiteral("/bench_traceimport-XXXXXX")
                                        : dirArg + QStringLiteral("/bench_traceimport-XXXXXX"));
    temp.setAutoRemove(!keep);
    const QString path = temp.filePath(QStringLiteral("bench.pt.trace.json"));
    auto start = Clock::now();
    const std::uint64_t written = writeTrace(path, events);
    const double fileMb = double(QFileInfo(path).size()) / 1e6;
    std::printf("generated %llu events, %.1f MB in %.2f s: %s\n", (unsigned long long)written, fileMb, seconds(start),
                qPrintable(path));

    const long rssBefore = peakRssKb();
    start = Clock::now();
    ChromeTraceResult result = ChromeTraceReader::read({ path });
    const double importSeconds = seconds(start);
    const long rssAfter = peakRssKb();
    const TraceStore& store = *result.store;
    const double storeBytes = double(store.memoryBytes());
    const double perEvent = storeBytes / double(std::max<std::uint64_t>(store.eventCount(), 1));
    const std::uint64_t parsed = store.sources()[0].events;
    std::printf("\nimport (parse + store ready): %.3f s, %.0f MB/s, %.2f M events/s\n", importSeconds,
                fileMb / importSeconds, double(parsed) / importSeconds / 1e6);
    std::printf("  events %llu, slices+counters %llu, tracks %zu, flows %zu, steps %zu, diagnostics %lld\n",
                (unsigned long long)parsed, (unsigned long long)store.eventCount(), store.tracks().size(),
                store.flows().size(), store.steps().size(), (long long)result.diagnostics.size());
    std::printf("  store %.1f MB beyond the retained input = %.1f bytes per stored slice/counter, %.1f bytes per "
                "input event (target <= 48)\n",
                storeBytes / 1e6, perEvent, storeBytes / double(std::max<std::uint64_t>(parsed, 1)));
    std::printf("  peak RSS %.1f MB = %.2fx the file (target <= 1.5x; %.1f MB before the import)\n",
                double(rssAfter) / 1e3, double(rssAfter) / 1e3 / fileMb, double(rssBefore) / 1e3);
    const double ourSpeed = fileMb / importSeconds;
    result = {};

    // A bare simdjson On Demand pass over the whole document, counting events.
    {
        start = Clock::now();
        simdjson::padded_string json;
        if (simdjson::padded_string::load(path.toStdString()).get(json) == simdjson::SUCCESS) {
            simdjson::ondemand::parser parser;
            simdjson::ondemand::document doc;
            std::uint64_t count = 0;
            if (!parser.iterate(json).get(doc)) {
                simdjson::ondemand::array array;
                if (!doc.find_field_unordered("traceEvents").get_array().get(array)) {
                    for (auto element : array) {
                        simdjson::ondemand::object object;
                        if (element.get_object().get(object))
                            break;
                        ++count;
                    }
                }
            }
            const double s = seconds(start);
            std::printf("\npeer simdjson On Demand (%s, load + count %llu events): %.3f s, %.0f MB/s -> ours %.2fx\n",
                        simdjson::builtin_implementation()->name().c_str(), (unsigned long long)count, s, fileMb / s,
                        ourSpeed / (fileMb / s));
        }
    }
    if (peers) {
        const QString quoted = QLatin1Char('\'') + path + QLatin1Char('\'');
        if (!QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty()) {
            if (auto s
                = timePeer(QStringLiteral("python3 -c 'import json,sys; json.load(open(sys.argv[1]))' ") + quoted))
                std::printf("peer python3 json.load: %.3f s, %.0f MB/s -> ours %.1fx faster\n", *s, fileMb / *s,
                            ourSpeed / (fileMb / *s));
        }
        if (!QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty()) {
            if (auto s = timePeer(QStringLiteral("node --max-old-space-size=16000 -e "
                                                 "'JSON.parse(require(\"fs\").readFileSync(process.argv[1]))' ")
                                  + quoted))
                std::printf("peer node JSON.parse: %.3f s, %.0f MB/s -> ours %.1fx faster\n", *s, fileMb / *s,
                            ourSpeed / (fileMb / *s));
            else
                std::printf("peer node JSON.parse: failed (string too long for V8 at this size?)\n");
        }
    }
    return 0;
}
