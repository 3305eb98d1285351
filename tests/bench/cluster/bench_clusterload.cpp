// Time until the Cluster panel's table is complete:
// 1. 64 synthetic MindSpore ranks (step_trace_raw, hccl_raw, flops_summary) read into the cluster model,
//    against Python's csv/json doing the same aggregation (peer_clusterload.py);
// 2. 8 synthetic Kineto ranks read together into one store and analysed (temporal breakdown, overlap,
//    stragglers), against the Python oracle of the cluster tests doing the same analysis.
// Both sides are the median of R runs (5 and 3 by default), timed inside their process: the peers' times
// exclude the interpreter's start-up and imports. MindSpore: one untimed run first on both sides. Kineto:
// none (the files were just written); RunLens reads each trace on two threads (reader + parser), the
// analysis on one; the peers use one thread.
//
//   bench_clusterload [--ranks N] [--steps S] [--kineto-ranks K] [--kineto-events E] [--runs R]
//                     [--kineto-runs R] [--dir DIR] [--keep] [--no-peers]

#include "importers/cluster/mindsporecluster.h"
#include "importers/trace/chrometracereader.h"
#include "models/cluster/kinetocluster.h"

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

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

using namespace runlens;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kRanksPerNode = 8;

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

/// Runs peer_clusterload.py with `arguments` and returns the median of the seconds it measured inside.
std::optional<double> peerMedianSeconds(const QString& python, const QStringList& arguments)
{
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    peer.start(python, QStringList { QStringLiteral(RUNLENS_BENCH_DIR "/peer_clusterload.py") } + arguments);
    if (!peer.waitForFinished(-1) || peer.exitCode() != 0)
        return std::nullopt;
    const std::vector<double> values
        = bench::numbers(bench::lastJsonLine(peer.readAllStandardOutput()), QStringLiteral("seconds"));
    if (values.empty())
        return std::nullopt;
    return bench::median(values);
}

bool writeText(const QString& path, const std::string& text)
{
    FILE* out = std::fopen(path.toLocal8Bit().constData(), "wb");
    if (!out)
        return false;
    const bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
    return std::fclose(out) == 0 && ok;
}

/// One rank's step trace, HCCL table and FLOPs summary. Rank `slowRank` waits longer for data; the link
/// `slowLinkSrc` -> +1 is slow.
void writeMindSporeRank(const QString& dir, int rank, int ranks, int steps, int slowRank, int slowLinkSrc)
{
    std::string trace = "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail,"
                        "stream_10_parallel_0_start_point,stream_10_parallel_0_end_point,stream_10_parallel_0,"
                        "stream_11_parallel_0_start_point,stream_11_parallel_0_end_point,stream_11_parallel_0\n";
    char line[512];
    long long start = 45000000000LL;
    double sums[5] = {};
    for (int s = 1; s <= steps; ++s) {
        const long long interval = (rank == slowRank ? 1500000 : 900000) + (s * 7919 + rank * 31) % 20000;
        const long long fpBp = 1700000 + (s * 104729 + rank) % 30000;
        const long long tail = 230000 + (s * 13 + rank * 7) % 5000;
        const long long total = interval + fpBp + tail;
        std::snprintf(line, sizeof line, "%d,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n",
                      s, start, start + total, total, start + interval, start + interval + fpBp, interval, fpBp, tail,
                      start + interval + 100, start + interval + 20100, 20000LL, start + interval + fpBp,
                      start + interval + fpBp + 200000, 200000LL);
        trace += line;
        if (s > 1) {
            sums[0] += double(total);
            sums[1] += double(interval);
            sums[2] += double(fpBp);
            sums[3] += double(tail);
        }
        start += total;
    }
    const double n = std::max(1, steps - 1);
    std::snprintf(line, sizeof line, "-,0,0,%.0f,0,0,%.0f,%.0f,%.0f,0,0,20000,0,0,200000\n", sums[0] / n, sums[1] / n,
                  sums[2] / n, sums[3] / n);
    trace += line;
    writeText(dir + QStringLiteral("/step_trace_raw_%1_detail_time.csv").arg(rank), trace);

    // Links to the ring neighbours: SDMA within a node of 8, RDMA across nodes.
    auto linkInfo = [&](double scale) {
        std::string json = "\"{";
        bool first = true;
        for (int peer : { (rank + 1) % ranks, (rank + ranks - 1) % ranks }) {
            const int src = peer == (rank + 1) % ranks ? rank : peer;
            const int dst = peer == (rank + 1) % ranks ? peer : rank;
            const bool sameNode = src / kRanksPerNode == dst / kRanksPerNode;
            const double bandwidth = (sameNode ? 18.0 : 9.0) * (src == slowLinkSrc ? 0.5 : 1.0) * scale;
            char entry[160];
            std::snprintf(entry, sizeof entry, "%s\"\"%d-%d\"\": {\"\"%s\"\": [%.4f, 64.0, %.4f]}", first ? "" : ", ",
                          src, dst, sameNode ? "SDMA" : "RDMA", 64.0 / bandwidth, bandwidth);
            json += entry;
            first = false;
        }
        return json + "}\"";
    };
    std::string hccl = "step_num,communication_cost,wait_cost,link_info,communication_operator_cost\n";
    const std::string ops = "\"{\"\"stream_41_0_AllReduce-op4582\"\": [\"\"1\"\", 3.5, 0.4, {}]}\"";
    for (int s = 1; s <= steps; ++s)
        hccl += std::to_string(s) + ",3.5,0.4," + linkInfo(1.0 + (s % 7) * 0.001) + "," + ops + "\n";
    hccl += "-,3.5,0.4," + linkInfo(1.0) + "," + ops + "\n";
    writeText(dir + QStringLiteral("/hccl_raw_%1.csv").arg(rank), hccl);

    std::snprintf(line, sizeof line, "{\"FLOPs\": %.3f, \"FLOPS\": %.3f, \"FLOPS_Utilization\": 3.7}", 8000.0 + rank,
                  rank == slowRank ? 6000.0 : 9800.0 + rank);
    writeText(dir + QStringLiteral("/flops_summary_%1.json").arg(rank), line);
}

/// A Kineto trace of one rank: steps of CPU ops launching GEMM kernels and an NCCL all-reduce at the end;
/// rank `slowRank` computes twice as long. About 300 bytes per event.
void writeKinetoRank(const QString& path, int rank, int ranks, long long events, int slowRank)
{
    FILE* out = std::fopen(path.toLocal8Bit().constData(), "wb");
    if (!out)
        return;
    std::string buf;
    char line[640];
    std::snprintf(
        line, sizeof line,
        "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": %d, \"name\": \"NVIDIA H100\", "
        "\"totalGlobalMem\": 85520809984, \"numSms\": 132}], \"distributedInfo\": {\"backend\": \"nccl\", "
        "\"rank\": %d, \"world_size\": %d}, \"baseTimeNanoseconds\": 1759276800000000000, \"traceEvents\": [\n",
        rank % 8, rank, ranks);
    buf += line;
    long long written = 0;
    long long correlation = 1;
    double ts = 1000.0;
    bool first = true;
    auto put = [&](int n) {
        if (!first)
            buf += ",\n";
        first = false;
        buf.append(line, std::size_t(n));
        ++written;
        if (buf.size() > (1 << 20)) {
            std::fwrite(buf.data(), 1, buf.size(), out);
            buf.clear();
        }
    };
    const double kernelUs = rank == slowRank ? 40.0 : 20.0; // 40 µs falls behind the 30 µs launches
    for (int step = 0; written < events; ++step) {
        const double stepStart = ts;
        double gpu = ts + 10.0;
        const int launches = 200;
        const double stepUs = launches * 30.0 + 600.0;
        int n
            = std::snprintf(line, sizeof line,
                            "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\", \"pid\": 10, "
                            "\"tid\": 10, \"ts\": %.3f, \"dur\": %.3f}",
                            step, stepStart, stepUs);
        put(n);
        for (int k = 0; k <= launches && written < events; ++k) {
            const bool collective = k == launches;
            const double launch = ts + 1.0;
            n = std::snprintf(line, sizeof line,
                              "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 10, \"tid\": 10, "
                              "\"ts\": %.3f, \"dur\": 8.0, \"args\": {\"External id\": %lld}}",
                              collective ? "nccl:all_reduce" : "aten::mm", ts, correlation);
            put(n);
            n = std::snprintf(line, sizeof line,
                              "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, "
                              "\"tid\": 10, \"ts\": %.3f, \"dur\": 4.0, \"args\": {\"correlation\": %lld}}",
                              launch, correlation);
            put(n);
            const double start = std::max(gpu, launch + 5.0);
            const double dur = collective ? 400.0 : kernelUs;
            n = std::snprintf(line, sizeof line,
                              "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d, "
                              "\"ts\": %.3f, \"dur\": %.3f, \"args\": {\"correlation\": %lld, \"stream\": %d}}",
                              collective ? "ncclDevKernel_AllReduce_Sum_f32_RING_LL" : "sm90_xmma_gemm_f16f16_f32",
                              rank % 8, collective ? 20 : 7, start, dur, correlation, collective ? 20 : 7);
            put(n);
            gpu = start + dur;
            ++correlation;
            ts += collective ? 10.0 : 30.0;
        }
        ts = std::max(stepStart + stepUs, gpu) + 20.0;
    }
    buf += "\n]}\n";
    std::fwrite(buf.data(), 1, buf.size(), out);
    std::fclose(out);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int ranks = 64;
    int steps = 500;
    int kinetoRanks = 8;
    long long kinetoEvents = 200'000;
    int runs = 5;
    int kinetoRuns = 3;
    QString dirArg;
    bool keep = false;
    bool peers = true;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--ranks") && i + 1 < args.size())
            ranks = std::max(2, args[++i].toInt());
        else if (args[i] == QLatin1String("--steps") && i + 1 < args.size())
            steps = std::max(2, args[++i].toInt());
        else if (args[i] == QLatin1String("--kineto-ranks") && i + 1 < args.size())
            kinetoRanks = std::max(0, args[++i].toInt());
        else if (args[i] == QLatin1String("--kineto-events") && i + 1 < args.size())
            kinetoEvents = std::max(1000LL, args[++i].toLongLong());
        else if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            runs = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--kineto-runs") && i + 1 < args.size())
            kinetoRuns = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--dir") && i + 1 < args.size())
            dirArg = args[++i];
        else if (args[i] == QLatin1String("--keep"))
            keep = true;
        else if (args[i] == QLatin1String("--no-peers"))
            peers = false;
        else {
            std::fprintf(stderr,
                         "usage: bench_clusterload [--ranks N] [--steps S] [--kineto-ranks K] "
                         "[--kineto-events E] [--runs R] [--kineto-runs R] [--dir DIR] [--keep] [--no-peers]\n");
            return 2;
        }
    }
    QString pythonExe = QStandardPaths::findExecutable(QStringLiteral("python3"), { QStringLiteral("/usr/bin") });
    if (pythonExe.isEmpty())
        pythonExe = QStandardPaths::findExecutable(QStringLiteral("python3"));
    const bool python = peers && !pythonExe.isEmpty();

    QTemporaryDir temp((dirArg.isEmpty() ? QDir::tempPath() : dirArg) + QStringLiteral("/bench_clusterload-XXXXXX"));
    temp.setAutoRemove(!keep);
    const QString msDir = temp.filePath(QStringLiteral("profiler"));
    QDir().mkpath(msDir);
    auto start = Clock::now();
    const int slowRank = ranks / 4 + 1;
    const int slowLink = ranks / 2 + 1;
    qint64 bytes = 0;
    for (int r = 0; r < ranks; ++r)
        writeMindSporeRank(msDir, r, ranks, steps, slowRank, slowLink);
    for (const QFileInfo& fi : QDir(msDir).entryInfoList(QDir::Files))
        bytes += fi.size();
    std::printf("generated %d MindSpore ranks x %d steps (%.1f MB) in %.2f s: %s\n", ranks, steps, double(bytes) / 1e6,
                seconds(start), qPrintable(msDir));

    // One untimed run (the files in the page cache), then the median of R, as the peer does.
    models::cluster::Cluster result = importers::cluster::MindSporeClusterReader::read({ msDir });
    std::vector<double> msSeconds;
    for (int run = 0; run < runs; ++run) {
        start = Clock::now();
        result = importers::cluster::MindSporeClusterReader::read({ msDir });
        msSeconds.push_back(seconds(start));
    }
    const double msMedian = bench::median(msSeconds);
    int slowRanks = 0;
    int slowLinks = 0;
    for (const auto& r : result.ranks)
        slowRanks += r.slow ? 1 : 0;
    for (const auto& l : result.links)
        slowLinks += l.slow ? 1 : 0;
    std::printf("\nMindSpore cluster load (find files, parse, aggregate, analyse): %.3f s (median of %d, 1 thread), "
                "%.0f MB/s\n",
                msMedian, runs, double(bytes) / 1e6 / msMedian);
    std::printf("  ranks %zu, links %zu, slow ranks %d (slowest %d), slow links %d, diagnostics %lld\n",
                result.ranks.size(), result.links.size(), slowRanks,
                result.slowestRank >= 0 ? result.ranks[std::size_t(result.slowestRank)].rank : -1, slowLinks,
                (long long)result.diagnostics.size());
    std::vector<std::string> results;
    const auto resultLine = [&](const char* what, const bench::Side& ours, const std::optional<bench::Side>& theirs,
                                const std::string& note) {
        results.push_back(theirs ? bench::ratioLine(what, ours, *theirs, note) : bench::noRatioLine(what, ours, note));
    };
    std::optional<bench::Side> msPeer;
    if (python) {
        if (const auto peer
            = peerMedianSeconds(pythonExe, { QStringLiteral("--repeat"), QString::number(runs), msDir })) {
            std::printf("peer python3 csv + json, timed inside Python (start-up excluded): %.3f s (median of %d) -> "
                        "ratio %.2fx\n",
                        *peer, runs, *peer / msMedian);
            msPeer = bench::Side { "python3 csv + json", *peer * 1e3, runs, "1 thread" };
        }
    }
    resultLine("MindSpore cluster load", { "RunLens", msMedian * 1e3, runs, "1 thread" }, msPeer,
               msPeer ? "interpreter start-up and imports excluded" : "peer not run");

    if (kinetoRanks > 0) {
        QStringList paths;
        start = Clock::now();
        qint64 kinetoBytes = 0;
        for (int r = 0; r < kinetoRanks; ++r) {
            const QString path = temp.filePath(QStringLiteral("rank%1.pt.trace.json").arg(r));
            writeKinetoRank(path, r, kinetoRanks, kinetoEvents, kinetoRanks / 2);
            kinetoBytes += QFileInfo(path).size();
            paths << path;
        }
        std::printf("\ngenerated %d Kineto ranks x %lld events (%.1f MB in all) in %.2f s\n", kinetoRanks, kinetoEvents,
                    double(kinetoBytes) / 1e6, seconds(start));
        std::vector<double> totals;
        std::vector<double> reads;
        std::vector<double> analyses;
        models::cluster::Cluster kineto;
        for (int run = 0; run < kinetoRuns; ++run) {
            start = Clock::now();
            const auto read = importers::trace::ChromeTraceReader::read(paths);
            reads.push_back(seconds(start));
            const auto analyseStart = Clock::now();
            kineto = models::cluster::buildKinetoCluster(*read.store);
            analyses.push_back(seconds(analyseStart));
            totals.push_back(seconds(start));
        }
        const double total = bench::median(totals);
        const double readSeconds = bench::median(reads);
        std::printf("Kineto cluster table complete: %.3f s (median of %d; read %.3f s, %.0f MB/s; analyse %.3f s)\n",
                    total, kinetoRuns, readSeconds, double(kinetoBytes) / 1e6 / readSeconds, bench::median(analyses));
        const auto straggler
            = std::max_element(kineto.ranks.begin(), kineto.ranks.end(),
                               [](const auto& a, const auto& b) { return a.stragglerSteps < b.stragglerSteps; });
        std::printf("  ranks %zu, steps compared %zu, straggler rank %d in %d of them, slowest rank %d\n",
                    kineto.ranks.size(), kineto.stragglers.size(),
                    straggler != kineto.ranks.end() ? straggler->rank : -1,
                    straggler != kineto.ranks.end() ? straggler->stragglerSteps : 0,
                    kineto.slowestRank >= 0 ? kineto.ranks[std::size_t(kineto.slowestRank)].rank : -1);
        std::optional<bench::Side> kinetoPeer;
        if (python) {
            QStringList arguments { QStringLiteral("--kineto"), QStringLiteral(RUNLENS_CLUSTER_ORACLE),
                                    QStringLiteral("--repeat"), QString::number(kinetoRuns),
                                    QStringLiteral("--warmup"), QStringLiteral("0") };
            if (const auto peer = peerMedianSeconds(pythonExe, arguments + paths)) {
                std::printf("peer python3 json + the same analysis, timed inside Python: %.3f s (median of %d) -> "
                            "ratio %.2fx\n",
                            *peer, kinetoRuns, *peer / total);
                kinetoPeer = bench::Side { "python3 json + the same analysis", *peer * 1e3, kinetoRuns, "1 thread" };
            }
        }
        resultLine("Kineto cluster table",
                   { "RunLens", total * 1e3, kinetoRuns, "2 threads per trace read, 1 analysing" }, kinetoPeer,
                   kinetoPeer ? "interpreter start-up and imports excluded" : "peer not run");
    }
    for (const std::string& line : results)
        std::printf("%s\n", line.c_str());
    return 0;
}
