// A Kineto job too large to read together, digested rank by rank into the Cluster table, as the desktop and
// `runlens digest` do for a job over the combine limits (a worker per hardware thread takes the next rank,
// reads its trace alone, keeps its digest and drops the store; the cluster is assembled from the digests):
// 1. the job at its large size (64 ranks × 300 MB, about 19 GB) against one bare simdjson On Demand pass over
//    the same files on the same number of threads (each thread takes the next file, loads it and iterates
//    every event of traceEvents). Goals: RunLens's time <= 1.3x the pass, its peak RSS <= 3 GiB.
// 2. the same ranks at 30 MB each against peer_clusterdigest.py (json.load per file + the same analysis, as
//    many worker processes as RunLens has workers). Goal: ratio >= 15x. Before it, a small job is digested by
//    both sides and their totals over all steps (computation, communication, overlap, idle, data loading) and
//    collectives must agree, or the benchmark fails: the peer does the same work.
// RunLens's side runs in a child process (this program with --child), so its peak RSS is its own; it is timed
// inside that process from the first trace opened to the cluster assembled, as the peers are timed inside
// theirs. Both sides are the median of R runs (1 by default: 19 GB per run) and take turns going first.
// The jobs are generated under --dir (default: the temporary folder), streamed to disk, and kept there for the
// next run (one folder per size and generator version); nothing is deleted unless --clean is given.
//
//   bench_clusterdigest [--ranks N] [--mb MB] [--python-mb MB] [--runs R] [--jobs J] [--dir DIR]
//                       [--no-large] [--no-python] [--clean]
//   bench_clusterdigest --ranks 8 --mb 20 --python-mb 5     # a quick run

#include "importers/cluster/rankdigestfile.h"
#include "importers/cluster/rankdigestpass.h"
#include "models/cluster/rankdigest.h"

#include "tests/bench/benchcommon.h"
#include "tests/bench/benchpeer.h"
#include "tests/bench/cluster/kinetojob.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>

#include <simdjson.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace runlens;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kRatioGoal = 1.3; // RunLens's time over the bare simdjson pass
constexpr double kRssGoalBytes = 3.0 * (1 << 30);
constexpr double kPythonGoal = 15.0;

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

const char* kTotalKeys[] = { "computation", "communication", "overlapped", "idle", "data_loading" };

/// The child: digests every trace named on the command line with `jobs` workers, assembles the cluster and
/// prints one JSON line (seconds, peak RSS, totals comparable with the Python peer's).
int runChild(int jobs, const QStringList& paths)
{
    const auto start = Clock::now();
    std::vector<std::shared_ptr<const models::cluster::RankDigest>> digests(std::size_t(paths.size()));
    std::atomic<int> next { 0 };
    std::atomic<int> failed { 0 };
    auto work = [&] {
        for (int i = next++; i < paths.size(); i = next++) {
            // As the desktop's job digester does: the trace this worker takes next is read ahead.
            const int ahead = i + jobs;
            const importers::cluster::RankDigestResult result = importers::cluster::digestTraceFile(
                paths[i], {}, {}, ahead < paths.size() ? paths[ahead] : QString());
            if (!result.digest) {
                std::fprintf(stderr, "%s\n", qPrintable(result.error));
                ++failed;
            }
            digests[std::size_t(i)] = result.digest;
        }
    };
    std::vector<std::thread> workers;
    for (int w = 1; w < std::min(jobs, int(paths.size())); ++w)
        workers.emplace_back(work);
    work();
    for (auto& w : workers)
        w.join();
    const models::cluster::Cluster assembled = models::cluster::clusterFromDigests(digests);
    const double elapsed = seconds(start);
    // The figures are the single pass's only when it took every rank (else some went through a store).
    const importers::cluster::SinglePassCounts counts = importers::cluster::singlePassCounts();
    std::fprintf(stderr, "  single pass: %llu of %lld ranks (the others through a trace store)\n",
                 (unsigned long long)counts.taken, (long long)paths.size());
    // VmHWM, not getrusage(): ru_maxrss carries the parent's peak over fork and exec, VmHWM is this image's.
    double peakRss = 0;
    QFile status(QStringLiteral("/proc/self/status"));
    if (status.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : status.readAll().split('\n')) {
            if (line.startsWith("VmHWM:"))
                peakRss = line.mid(6).trimmed().split(' ').value(0).toDouble() * 1024.0;
        }
    }

    double sums[5] = {};
    qint64 steps = 0;
    qint64 collectives = 0;
    double collectiveBytes = 0;
    for (const auto& d : digests) {
        if (!d)
            continue;
        steps += qint64(d->figures.steps.size());
        for (std::size_t k = 0; k < d->figures.steps.size(); ++k) {
            const models::cluster::RankStep& s = d->figures.steps[k];
            const double values[5] = { s.computation, s.communication, s.overlapped, s.idle,
                                       k < d->steps.size() ? d->steps[k].dataLoading : 0.0 };
            for (int v = 0; v < 5; ++v)
                sums[v] += std::isnan(values[v]) ? 0.0 : values[v];
        }
        collectives += qint64(d->collectives.size());
        for (const auto& c : d->collectives)
            collectiveBytes += std::isnan(c.bytes) ? 0.0 : c.bytes;
    }
    QJsonObject totals { { QStringLiteral("ranks"), int(assembled.ranks.size()) },
                         { QStringLiteral("steps"), steps },
                         { QStringLiteral("collectives"), collectives },
                         { QStringLiteral("collective_bytes"), collectiveBytes },
                         { QStringLiteral("stragglers"), int(assembled.stragglers.size()) } };
    for (int v = 0; v < 5; ++v)
        totals.insert(QLatin1String(kTotalKeys[v]), sums[v]);
    const QJsonObject line { { QStringLiteral("seconds"), elapsed },
                             { QStringLiteral("peak_rss_bytes"), peakRss },
                             { QStringLiteral("failed"), int(failed) },
                             { QStringLiteral("totals"), totals } };
    std::printf("%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
    return failed > 0 ? 1 : 0;
}

struct ChildRun
{
    double seconds = 0;
    double peakRssBytes = 0;
    QJsonObject totals;
};

/// Runs this program as the RunLens side over `paths` with `jobs` workers.
std::optional<ChildRun> runlensSide(int jobs, const QStringList& paths)
{
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QCoreApplication::applicationFilePath(),
                QStringList { QStringLiteral("--child"), QString::number(jobs) } + paths);
    if (!child.waitForFinished(-1) || child.exitStatus() != QProcess::NormalExit || child.exitCode() != 0)
        return std::nullopt;
    const QJsonObject line = bench::lastJsonLine(child.readAllStandardOutput());
    if (!line.contains(QLatin1String("seconds")))
        return std::nullopt;
    return ChildRun { line.value(QLatin1String("seconds")).toDouble(),
                      line.value(QLatin1String("peak_rss_bytes")).toDouble(),
                      line.value(QLatin1String("totals")).toObject() };
}

/// The bare pass: `threads` threads each take the next file, load it and iterate every event; seconds.
std::optional<double> simdjsonPass(int threads, const QStringList& paths, std::uint64_t* events)
{
    const auto start = Clock::now();
    std::atomic<int> next { 0 };
    std::atomic<std::uint64_t> count { 0 };
    std::atomic<bool> ok { true };
    auto work = [&] {
        simdjson::ondemand::parser parser;
        for (int i = next++; i < paths.size(); i = next++) {
            simdjson::padded_string json;
            if (simdjson::padded_string::load(QFile::encodeName(paths[i]).toStdString()).get(json)
                != simdjson::SUCCESS) {
                ok = false;
                continue;
            }
            simdjson::ondemand::document doc;
            simdjson::ondemand::array array;
            if (parser.iterate(json).get(doc) || doc.find_field_unordered("traceEvents").get_array().get(array)) {
                ok = false;
                continue;
            }
            std::uint64_t n = 0;
            for (auto element : array) {
                simdjson::ondemand::object object;
                if (element.get_object().get(object)) {
                    ok = false;
                    break;
                }
                ++n;
            }
            count += n;
        }
    };
    std::vector<std::thread> workers;
    for (int w = 1; w < threads; ++w)
        workers.emplace_back(work);
    work();
    for (auto& w : workers)
        w.join();
    *events = count;
    if (!ok)
        return std::nullopt;
    return seconds(start);
}

struct PythonRun
{
    double seconds = 0;
    QJsonObject totals;
};

std::optional<PythonRun> pythonSide(const QString& python, int jobs, const QStringList& paths)
{
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    peer.start(python,
               QStringList { QStringLiteral(RUNLENS_BENCH_DIR "/peer_clusterdigest.py"), QStringLiteral("--jobs"),
                             QString::number(jobs) }
                   + paths);
    if (!peer.waitForFinished(-1) || peer.exitStatus() != QProcess::NormalExit || peer.exitCode() != 0)
        return std::nullopt;
    const QJsonObject line = bench::lastJsonLine(peer.readAllStandardOutput());
    const std::vector<double> values = bench::numbers(line, QStringLiteral("seconds"));
    if (values.empty())
        return std::nullopt;
    return PythonRun { values.front(), line.value(QLatin1String("totals")).toObject() };
}

/// True when both sides' totals agree: counts exactly, times within 1e-6 relative (+ 1 µs per step for the
/// peer's rounding of each timestamp to the nanosecond).
bool totalsAgree(const QJsonObject& ours, const QJsonObject& peer)
{
    bool agree = true;
    for (const char* key : { "ranks", "steps", "collectives", "stragglers" }) {
        const qint64 a = ours.value(QLatin1String(key)).toInteger(-1);
        const qint64 b = peer.value(QLatin1String(key)).toInteger(-2);
        std::printf("  %-16s RunLens %lld | peer %lld%s\n", key, (long long)a, (long long)b, a == b ? "" : "  DIFFER");
        agree = agree && a == b;
    }
    const double steps = ours.value(QLatin1String("steps")).toDouble();
    std::vector<const char*> keys(std::begin(kTotalKeys), std::end(kTotalKeys));
    keys.push_back("collective_bytes");
    for (const char* key : keys) {
        const double a = ours.value(QLatin1String(key)).toDouble(-1);
        const double b = peer.value(QLatin1String(key)).toDouble(-2);
        const bool same = std::abs(a - b) <= 1e-6 * std::max(std::abs(a), std::abs(b)) + 1e-3 * steps;
        std::printf("  %-16s RunLens %.6f | peer %.6f%s\n", key, a, b, same ? "" : "  DIFFER");
        agree = agree && same;
    }
    return agree;
}

qint64 totalBytes(const QStringList& paths)
{
    qint64 bytes = 0;
    for (const QString& p : paths)
        bytes += QFileInfo(p).size();
    return bytes;
}

QStringList job(const QString& parent, int ranks, int mb, int threads)
{
    const QString dir = bench::kinetoJobDir(parent, ranks, mb);
    bool generated = false;
    const auto start = Clock::now();
    const QStringList paths = bench::ensureKinetoJob(dir, ranks, mb, threads, &generated);
    if (paths.isEmpty()) {
        std::fprintf(stderr, "cannot write the job into %s\n", qPrintable(dir));
        return {};
    }
    std::printf("%s %d ranks x %d MB (%.2f GB) in %s%s\n", generated ? "generated" : "reusing", ranks, mb,
                double(totalBytes(paths)) / 1e9, qPrintable(dir),
                generated ? qPrintable(QStringLiteral(" in %1 s").arg(seconds(start), 0, 'f', 1)) : "");
    std::fflush(stdout);
    return paths;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() >= 3 && args[1] == QLatin1String("--child"))
        return ::runChild(std::max(1, args[2].toInt()), args.mid(3));

    int ranks = 64;
    int mb = 300;
    int pythonMb = 30;
    int runs = 1;
    int jobs = bench::hardwareThreads();
    QString parent = QDir::tempPath();
    bool large = true;
    bool python = true;
    bool clean = false;
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--ranks") && i + 1 < args.size())
            ranks = std::max(2, args[++i].toInt());
        else if (args[i] == QLatin1String("--mb") && i + 1 < args.size())
            mb = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--python-mb") && i + 1 < args.size())
            pythonMb = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            runs = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--jobs") && i + 1 < args.size())
            jobs = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--dir") && i + 1 < args.size())
            parent = args[++i];
        else if (args[i] == QLatin1String("--no-large"))
            large = false;
        else if (args[i] == QLatin1String("--no-python"))
            python = false;
        else if (args[i] == QLatin1String("--clean"))
            clean = true;
        else {
            std::fprintf(stderr,
                         "usage: bench_clusterdigest [--ranks N] [--mb MB] [--python-mb MB] [--runs R] "
                         "[--jobs J] [--dir DIR] [--no-large] [--no-python] [--clean]\n");
            return 2;
        }
    }
    const std::string ourThreads = std::to_string(jobs) + " rank workers (each trace read in one simdjson pass)";
    std::vector<std::string> results;
    std::vector<QString> made;
    bool failed = false;

    if (large) {
        const QStringList paths = job(parent, ranks, mb, jobs);
        if (paths.isEmpty())
            return 1;
        made.push_back(bench::kinetoJobDir(parent, ranks, mb));
        const double gb = double(totalBytes(paths)) / 1e9;
        std::vector<double> ours;
        std::vector<double> peer;
        double peakRss = 0;
        std::uint64_t events = 0;
        for (int run = 0; run < runs && !failed; ++run) {
            // Turns going first: the job may not fit in the page cache, so the side that goes second finds
            // the other's last files there.
            for (int side = 0; side < 2; ++side) {
                if ((side == 0) == (run % 2 == 0)) {
                    const auto s = simdjsonPass(jobs, paths, &events);
                    if (!s) {
                        std::fprintf(stderr, "the simdjson pass failed\n");
                        failed = true;
                        break;
                    }
                    std::printf("  run %d: simdjson pass %.2f s (%llu events, %.0f MB/s)\n", run + 1, *s,
                                (unsigned long long)events, gb * 1e3 / *s);
                    peer.push_back(*s);
                } else {
                    const auto r = runlensSide(jobs, paths);
                    if (!r) {
                        std::fprintf(stderr, "RunLens's digest failed\n");
                        failed = true;
                        break;
                    }
                    std::printf("  run %d: RunLens digest + cluster %.2f s (%.0f MB/s), peak RSS %.0f MiB\n", run + 1,
                                r->seconds, gb * 1e3 / r->seconds, r->peakRssBytes / (1 << 20));
                    ours.push_back(r->seconds);
                    peakRss = std::max(peakRss, r->peakRssBytes);
                }
                std::fflush(stdout);
            }
        }
        if (!failed) {
            const double oursMedian = bench::median(ours);
            const double peerMedian = bench::median(peer);
            const double over = oursMedian / peerMedian;
            char note[512];
            std::snprintf(note, sizeof note,
                          "%d ranks x %d MB, %.1f GB, %llu events; RunLens / simdjson %.2fx (goal <= %.1fx: %s); "
                          "RunLens peak RSS %.2f GiB (goal <= 3 GiB: %s); simdjson %s kernel",
                          ranks, mb, gb, (unsigned long long)events, over, kRatioGoal,
                          over <= kRatioGoal ? "PASS" : "FAIL", peakRss / (1 << 30),
                          peakRss <= kRssGoalBytes ? "PASS" : "FAIL",
                          simdjson::get_active_implementation()->name().c_str());
            results.push_back(bench::ratioLine(
                "Kineto job digested into the Cluster table against a bare simdjson pass",
                { "RunLens", oursMedian * 1e3, int(ours.size()), ourThreads },
                { "simdjson On Demand", peerMedian * 1e3, int(peer.size()), bench::threadsText(jobs) }, note));
        }
    }

    QString pythonExe = QStandardPaths::findExecutable(QStringLiteral("python3"), { QStringLiteral("/usr/bin") });
    if (pythonExe.isEmpty())
        pythonExe = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python && !failed && pythonExe.isEmpty())
        std::printf("python3 not found: the Python comparison is left out\n");
    if (python && !failed && !pythonExe.isEmpty()) {
        // A small job first: both sides must agree on it, or the comparison would not be of the same work.
        const QStringList small = job(parent, 4, 2, jobs);
        if (small.isEmpty())
            return 1;
        made.push_back(bench::kinetoJobDir(parent, 4, 2));
        const auto ours = runlensSide(jobs, small);
        const auto peer = pythonSide(pythonExe, jobs, small);
        std::printf("agreement on 4 ranks x 2 MB (totals over every step of every rank, ms):\n");
        if (!ours || !peer || !totalsAgree(ours->totals, peer->totals)) {
            std::printf("FAIL: RunLens and the Python peer disagree on the small job\n");
            return 1;
        }
        const QStringList paths = job(parent, ranks, pythonMb, jobs);
        if (paths.isEmpty())
            return 1;
        made.push_back(bench::kinetoJobDir(parent, ranks, pythonMb));
        const double gb = double(totalBytes(paths)) / 1e9;
        std::vector<double> oursTimes;
        std::vector<double> peerTimes;
        QJsonObject oursTotals;
        QJsonObject peerTotals;
        double peakRss = 0;
        for (int run = 0; run < runs && !failed; ++run) {
            for (int side = 0; side < 2; ++side) {
                if ((side == 0) == (run % 2 == 0)) {
                    const auto p = pythonSide(pythonExe, jobs, paths);
                    if (!p) {
                        failed = true;
                        break;
                    }
                    std::printf("  run %d: python3 json.load + analysis %.2f s\n", run + 1, p->seconds);
                    peerTimes.push_back(p->seconds);
                    peerTotals = p->totals;
                } else {
                    const auto r = runlensSide(jobs, paths);
                    if (!r) {
                        failed = true;
                        break;
                    }
                    std::printf("  run %d: RunLens digest + cluster %.2f s, peak RSS %.0f MiB\n", run + 1, r->seconds,
                                r->peakRssBytes / (1 << 20));
                    oursTimes.push_back(r->seconds);
                    oursTotals = r->totals;
                    peakRss = std::max(peakRss, r->peakRssBytes);
                }
                std::fflush(stdout);
            }
        }
        if (!failed) {
            std::printf("agreement on %d ranks x %d MB:\n", ranks, pythonMb);
            if (!totalsAgree(oursTotals, peerTotals)) {
                std::printf("FAIL: RunLens and the Python peer disagree\n");
                failed = true;
            }
            const double ratio = bench::median(peerTimes) / bench::median(oursTimes);
            char note[256];
            std::snprintf(note, sizeof note,
                          "%d ranks x %d MB, %.2f GB; goal >= %.0fx: %s; RunLens peak RSS %.0f MiB; interpreter "
                          "start-up and imports excluded",
                          ranks, pythonMb, gb, kPythonGoal, ratio >= kPythonGoal ? "PASS" : "FAIL",
                          peakRss / (1 << 20));
            results.push_back(bench::ratioLine(
                "Kineto job digested into the Cluster table against python3 json.load + the same analysis",
                { "RunLens", bench::median(oursTimes) * 1e3, int(oursTimes.size()), ourThreads },
                { "python3 json.load + the same analysis", bench::median(peerTimes) * 1e3, int(peerTimes.size()),
                  std::to_string(jobs) + (jobs == 1 ? " process" : " processes") },
                note));
        }
    }
    if (clean) {
        for (const QString& dir : made) {
            // Only the folders this benchmark names and generates.
            if (QFileInfo(dir).fileName().startsWith(QLatin1String("runlens-bench-kineto-job-v")))
                QDir(dir).removeRecursively();
        }
    }
    for (const std::string& line : results)
        std::printf("%s\n", line.c_str());
    return failed ? 1 : 0;
}
