// End-to-end import speed of Chrome traces: generates a Kineto-like trace, imports it (parse + store
// ready), and measures the same file with peers on this machine (python3 json.load, node JSON.parse,
// a bare simdjson On Demand pass). Every side is the median of R runs over the same file (page cache warm
// after it was written), the file read from disk included; python and node are timed inside their process,
// so their start-up is excluded. RunLens reads and splits the file on one thread while a second parses
// the events; the peers use one thread.
//
//   bench_traceimport [--events N] [--runs R] [--dir DIR] [--keep] [--no-peers]

#include "importers/trace/chrometracereader.h"
#include "models/trace/tracestore.h"

#include "tests/bench/benchcommon.h"
#include "tests/bench/trace/tracegenerator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <simdjson.h>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

using namespace runlens::importers::trace;
using namespace runlens::models::trace;
namespace bench = runlens::bench;
using runlens::bench::writeTrace;
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

/// Runs a peer program that prints a JSON array of seconds (one per run); returns their median.
std::optional<double> peerMedianSeconds(const QString& program, const QStringList& arguments)
{
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    peer.start(program, arguments);
    if (!peer.waitForFinished(-1) || peer.exitStatus() != QProcess::NormalExit || peer.exitCode() != 0)
        return std::nullopt;
    std::vector<double> values;
    for (const QJsonValue& value : QJsonDocument::fromJson(peer.readAllStandardOutput().trimmed()).array())
        values.push_back(value.toDouble());
    if (values.empty())
        return std::nullopt;
    return bench::median(values);
}

constexpr const char* kPythonPeer = R"(
import json, sys, time
path, runs = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(runs):
    t0 = time.perf_counter()
    with open(path) as f:
        doc = json.load(f)
    times.append(time.perf_counter() - t0)
    del doc
print(json.dumps(times))
)";

constexpr const char* kNodePeer = R"(
const fs = require("fs");
const [path, runs] = [process.argv[1], Number(process.argv[2])];
const times = [];
for (let i = 0; i < runs; ++i) {
    const t0 = process.hrtime.bigint();
    let doc = JSON.parse(fs.readFileSync(path));
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
    doc = null;
}
console.log(JSON.stringify(times));
)";

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    std::uint64_t events = 1'000'000;
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
                         "usage: bench_traceimport [--events N] [--runs R] [--dir DIR] [--keep] [--no-peers]\n");
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

    // The first run gives the memory figures (peak RSS only grows); the time is the median of R runs.
    const long rssBefore = peakRssKb();
    std::vector<double> importTimes;
    ChromeTraceResult result;
    long rssAfter = 0;
    for (int run = 0; run < runs; ++run) {
        result = {};
        start = Clock::now();
        result = ChromeTraceReader::read({ path });
        importTimes.push_back(seconds(start));
        if (run == 0)
            rssAfter = peakRssKb();
    }
    const double importSeconds = bench::median(importTimes);
    const TraceStore& store = *result.store;
    const double storeBytes = double(store.memoryBytes());
    const double perEvent = storeBytes / double(std::max<std::uint64_t>(store.eventCount(), 1));
    const std::uint64_t parsed = store.sources()[0].events;
    std::printf("\nimport (parse + store ready): %.3f s (median of %d, 2 threads), %.0f MB/s, %.2f M events/s\n",
                importSeconds, runs, fileMb / importSeconds, double(parsed) / importSeconds / 1e6);
    std::printf("  events %llu, slices+counters %llu, tracks %zu, flows %zu, steps %zu, diagnostics %lld\n",
                (unsigned long long)parsed, (unsigned long long)store.eventCount(), store.tracks().size(),
                store.flows().size(), store.steps().size(), (long long)result.diagnostics.size());
    std::printf("  store %.1f MB beyond the retained input = %.1f bytes per stored slice/counter, %.1f bytes per "
                "input event (target <= 48)\n",
                storeBytes / 1e6, perEvent, storeBytes / double(std::max<std::uint64_t>(parsed, 1)));
    std::printf("  peak RSS %.1f MB = %.2fx the file (target <= 1.5x; %.1f MB before the import)\n",
                double(rssAfter) / 1e3, double(rssAfter) / 1e3 / fileMb, double(rssBefore) / 1e3);
    result = {};
    const bench::Side runlensSide { "RunLens", importSeconds * 1e3, runs, "2 threads (reader + parser)" };
    std::vector<std::string> lines;
    char note[96];
    std::snprintf(note, sizeof note, "%.1f MB; RunLens %.0f MB/s", fileMb, fileMb / importSeconds);

    // A bare simdjson On Demand pass over the whole document, counting events.
    {
        std::vector<double> times;
        std::uint64_t count = 0;
        for (int run = 0; run < runs; ++run) {
            start = Clock::now();
            simdjson::padded_string json;
            if (simdjson::padded_string::load(path.toStdString()).get(json) != simdjson::SUCCESS)
                break;
            simdjson::ondemand::parser parser;
            simdjson::ondemand::document doc;
            count = 0;
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
            times.push_back(seconds(start));
        }
        if (!times.empty()) {
            const double s = bench::median(times);
            std::printf("\npeer simdjson On Demand (%s, load + count %llu events): %.3f s (median of %d), %.0f MB/s\n",
                        simdjson::builtin_implementation()->name().c_str(), (unsigned long long)count, s, runs,
                        fileMb / s);
            lines.push_back(bench::ratioLine("trace import against a bare simdjson pass", runlensSide,
                                             { "simdjson On Demand", s * 1e3, runs, "1 thread" }, note));
        }
    }
    if (peers) {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (!python.isEmpty()) {
            if (auto s = peerMedianSeconds(
                    python, { QStringLiteral("-c"), QString::fromUtf8(kPythonPeer), path, QString::number(runs) })) {
                std::printf("peer python3 json.load, timed inside Python: %.3f s (median of %d), %.0f MB/s\n", *s, runs,
                            fileMb / *s);
                lines.push_back(bench::ratioLine("trace import against python3 json.load", runlensSide,
                                                 { "python3 json.load", *s * 1e3, runs, "1 thread" },
                                                 std::string(note) + "; interpreter start-up excluded"));
            }
        }
        const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
        if (!node.isEmpty()) {
            if (auto s = peerMedianSeconds(node,
                                           { QStringLiteral("--max-old-space-size=16000"), QStringLiteral("-e"),
                                             QString::fromUtf8(kNodePeer), path, QString::number(runs) })) {
                std::printf("peer node JSON.parse, timed inside node: %.3f s (median of %d), %.0f MB/s\n", *s, runs,
                            fileMb / *s);
                lines.push_back(bench::ratioLine("trace import against node JSON.parse", runlensSide,
                                                 { "node JSON.parse", *s * 1e3, runs, "1 thread" },
                                                 std::string(note) + "; node start-up excluded"));
            } else {
                std::printf("peer node JSON.parse: failed (string too long for V8 at this size?)\n");
            }
        }
    }
    for (const std::string& line : lines)
        std::printf("%s\n", line.c_str());
    return 0;
}
