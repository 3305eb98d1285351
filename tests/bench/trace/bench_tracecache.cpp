// Re-opening a trace from the index cache against importing it the first time: generates the Kineto-like trace
// of bench_traceimport (about 1 GB by default; --gb or RUNLENS_BENCH_TRACE_GB picks another size), then, R times,
// empties a cache folder of its own and runs one child process that imports the trace with the trace cache on (parse,
// store ready, index written) and a second that opens it again (store read back from the index, the trace mapped for
// its args). Each phase is a process of its own so that its peak RSS is its own. Both sides are the median of R runs;
// the file is in the page cache. Goals (issue 20): re-open <= 0.1x the first import's time; peak RSS <= 0.5x the file
// on the first import (the trace is memory-mapped, not copied), <= 0.3x on re-open. The first frame: on the first
// import, the time until the first partial store (ImportControl::traceSnapshot, as the Timeline gets it) has its
// painting index built, goal <= 5 s; on re-open, the time until the store and its painting index are read back, goal
// <= 1 s.
//
//   bench_tracecache [--gb G | --events N] [--runs R] [--dir DIR] [--keep]

#include "importers/trace/chrometracereader.h"
#include "importers/trace/tracecache.h"
#include "models/trace/tracelod.h"
#include "models/trace/tracestore.h"

#include "tests/bench/benchcommon.h"
#include "tests/bench/trace/tracegenerator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

using namespace runlens::importers::trace;
using namespace runlens::models::trace;
namespace bench = runlens::bench;
using Clock = std::chrono::steady_clock;

namespace {

struct Phase
{
    double seconds = 0;
    double peakRssMb = 0;
    std::uint64_t events = 0;
    int cacheReads = 0;
    double firstFrame = 0; ///< seconds until the Timeline could paint
};

// In the child: one import with the cache in `cache`, as the desktop does it (partial stores published to
// the Timeline), printed as "PHASE seconds peak-rss-kb events reads first-frame-seconds".
int runPhase(const QString& path, const QString& cache)
{
    TraceCache::setDirectory(cache);
    TraceCache::setEnabled(true);
    const auto start = Clock::now();
    double firstFrame = -1;
    runlens::importers::ImportControl control;
    control.traceSnapshot = [&](std::shared_ptr<const TraceStore> partial, int) {
        if (firstFrame >= 0 || !partial)
            return;
        // What the Timeline does before its first paint of a partial store. Timed on the reading thread,
        // which it holds up: the import's own time includes it, as it does in the desktop's worker.
        const TraceLod lod(*partial);
        firstFrame = std::chrono::duration<double>(Clock::now() - start).count();
    };
    const ChromeTraceResult result = ChromeTraceReader::read({ path }, control);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    // A store read back from the cache brings its painting index: the frame can be painted right away. A
    // trace too small for partial stores paints once it is read and indexed.
    if (firstFrame < 0) {
        if (!result.store->lod())
            TraceLod lod(*result.store);
        firstFrame = std::chrono::duration<double>(Clock::now() - start).count();
    }
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("PHASE %.6f %ld %llu %d %.6f\n", seconds, usage.ru_maxrss,
                (unsigned long long)result.store->eventCount(), TraceCache::indexReads(), firstFrame);
    return 0;
}

std::optional<Phase> phase(const QString& self, const QString& path, const QString& cache)
{
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(self, { QStringLiteral("--phase"), path, cache });
    if (!child.waitForFinished(-1) || child.exitStatus() != QProcess::NormalExit || child.exitCode() != 0)
        return std::nullopt;
    const QStringList fields = QString::fromUtf8(child.readAllStandardOutput()).trimmed().split(QLatin1Char(' '));
    if (fields.size() != 6 || fields[0] != QLatin1String("PHASE"))
        return std::nullopt;
    return Phase { fields[1].toDouble(), fields[2].toDouble() / 1e3, fields[3].toULongLong(), fields[4].toInt(),
                   fields[5].toDouble() };
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() == 4 && args[1] == QLatin1String("--phase"))
        return ::runPhase(args[2], args[3]);

    constexpr double kEventsPerGb = 3'800'000;
    std::uint64_t events = std::uint64_t(kEventsPerGb); // about 1 GB
    if (const QByteArray gb = qgetenv("RUNLENS_BENCH_TRACE_GB"); !gb.isEmpty())
        events = std::uint64_t(gb.toDouble() * kEventsPerGb);
    int runs = 3;
    QString dirArg;
    bool keep = false;
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--events") && i + 1 < args.size())
            events = args[++i].toULongLong();
        else if (args[i] == QLatin1String("--gb") && i + 1 < args.size())
            events = std::uint64_t(args[++i].toDouble() * kEventsPerGb);
        else if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            runs = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--dir") && i + 1 < args.size())
            dirArg = args[++i];
        else if (args[i] == QLatin1String("--keep"))
            keep = true;
        else {
            std::fprintf(stderr, "usage: bench_tracecache [--gb G | --events N] [--runs R] [--dir DIR] [--keep]\n");
            return 2;
        }
    }

    QTemporaryDir temp(dirArg.isEmpty() ? QDir::tempPath() + QStringLiteral("/bench_tracecache-XXXXXX")
                                        : dirArg + QStringLiteral("/bench_tracecache-XXXXXX"));
    temp.setAutoRemove(!keep);
    const QString path = temp.filePath(QStringLiteral("bench.pt.trace.json"));
    const QString cache = temp.filePath(QStringLiteral("cache"));
    auto start = Clock::now();
    const std::uint64_t written = bench::writeTrace(path, events);
    const double fileMb = double(QFileInfo(path).size()) / 1e6;
    std::printf("generated %llu events, %.1f MB in %.2f s: %s\n", (unsigned long long)written, fileMb,
                std::chrono::duration<double>(Clock::now() - start).count(), qPrintable(path));

    std::vector<double> firstTimes, reopenTimes, firstRss, reopenRss, firstFrames, reopenFrames;
    double indexMb = 0;
    for (int run = 0; run < runs; ++run) {
        QDir(cache).removeRecursively();
        const std::optional<Phase> first = phase(app.applicationFilePath(), path, cache);
        const std::optional<Phase> reopen = phase(app.applicationFilePath(), path, cache);
        if (!first || !reopen || first->cacheReads != 0 || reopen->cacheReads != 1 || first->events != reopen->events) {
            std::fprintf(stderr, "run %d failed: the re-open did not come from the index cache or differs\n", run);
            return 1;
        }
        firstTimes.push_back(first->seconds);
        reopenTimes.push_back(reopen->seconds);
        firstFrames.push_back(first->firstFrame);
        reopenFrames.push_back(reopen->firstFrame);
        firstRss.push_back(first->peakRssMb);
        reopenRss.push_back(reopen->peakRssMb);
        std::int64_t bytes = 0;
        for (const QFileInfo& info : QDir(cache + QStringLiteral("/index")).entryInfoList(QDir::Files))
            bytes += info.size();
        indexMb = double(bytes) / 1e6;
        std::printf("run %d: first import %.3f s (first frame %.3f s), peak RSS %.1f MB | re-open %.3f s (first frame "
                    "%.3f s), peak RSS %.1f MB | %llu slices+counters\n",
                    run, first->seconds, first->firstFrame, first->peakRssMb, reopen->seconds, reopen->firstFrame,
                    reopen->peakRssMb, (unsigned long long)first->events);
    }
    const double first = bench::median(firstTimes);
    const double reopen = bench::median(reopenTimes);
    const double rssFirst = bench::median(firstRss) / fileMb;
    const double rssReopen = bench::median(reopenRss) / fileMb;
    std::printf("\nindex cache %.1f MB (%.2fx the trace)\n", indexMb, indexMb / fileMb);
    std::printf("peak RSS / file: first import %.2fx (goal <= 0.5x) %s, re-open %.2fx (goal <= 0.3x) %s\n", rssFirst,
                rssFirst <= 0.5 ? "PASS" : "FAIL", rssReopen, rssReopen <= 0.3 ? "PASS" : "FAIL");
    const double ratio = reopen / first;
    std::printf("re-open / first import time: %.3fx (goal <= 0.1x) %s\n", ratio, ratio <= 0.1 ? "PASS" : "FAIL");
    const double frameFirst = bench::median(firstFrames);
    const double frameReopen = bench::median(reopenFrames);
    std::printf("first frame: first import %.2f s (goal <= 5 s) %s, re-open %.2f s (goal <= 1 s) %s\n", frameFirst,
                frameFirst <= 5 ? "PASS" : "FAIL", frameReopen, frameReopen <= 1 ? "PASS" : "FAIL");
    char note[200];
    std::snprintf(note, sizeof note,
                  "%.1f MB trace; re-open / first import %.3fx; peak RSS %.2fx / %.2fx the file; first frame %.2f s / "
                  "%.2f s",
                  fileMb, ratio, rssFirst, rssReopen, frameFirst, frameReopen);
    // The peer is the first import in the same run: the ratio says how many times faster the re-open is.
    bench::printRatio(
        "trace re-open from the index cache against its first import",
        { "RunLens re-open", reopen * 1e3, runs, "2 threads (index read back, its checksum beside it; trace mapped)" },
        { "first import", first * 1e3, runs, "2 threads (reader + parser), index written" }, note);
    return 0;
}
