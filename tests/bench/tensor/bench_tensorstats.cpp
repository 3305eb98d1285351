// Whole-tensor statistics benchmark: writes a float32 .npy (1 GiB by default) with a few NaN and infinities,
// maps it, times computeStatistics over the mapped data, and runs numpy on the same file in the same run
// (np.load with mmap_mode='r', then nanmin, nanmax, nanmean, nanstd and isnan().sum()). Both sides: one
// untimed pass (pages mapped in), then the median of R timed passes; numpy's time is taken inside Python,
// interpreter start-up and imports excluded. RunLens uses one thread per hardware thread (or --threads T),
// numpy one thread (these reductions do not use threads); a second RunLens row on one thread shows what the
// threads are worth. Target: RunLens at least 2x faster than numpy.
//
//   bench_tensorstats [--mib N] [--runs R] [--threads T] [--keep DIR]

#include "models/tensor/tensorstatistics.h"

#include "tests/bench/benchcommon.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

using namespace runlens;

namespace {

constexpr const char* kNumpyPeer = R"(
import sys, time
import numpy as np
a = np.load(sys.argv[1], mmap_mode='r')
runs = int(sys.argv[2])
times = []
for run in range(runs + 1):  # the first pass maps the pages in and is not counted, as for RunLens
    t0 = time.perf_counter()
    mn = np.nanmin(a)
    mx = np.nanmax(a)
    mean = np.nanmean(a)
    std = np.nanstd(a)
    nans = int(np.isnan(a).sum())
    if run > 0:
        times.append(time.perf_counter() - t0)
times.sort()
print(f"{times[len(times) // 2]:.6f} {float(mn)!r} {float(mx)!r} {float(mean)!r} {float(std)!r} {nans}")
)";

/// Writes a 1-d little-endian float32 .npy of `count` elements: a cheap pseudo-random walk of values plus
/// NaN, +Inf and -Inf at a few fixed places (the exact positions and counts are printed by the caller).
bool writeNpy(const QString& path, std::int64_t count)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + QByteArray::number(count) + ",), }";
    // Magic (6) + version (2) + length (2) + header, padded with spaces to a multiple of 64 ending in '\n'.
    const int total = int((10 + header.size() + 1 + 63) / 64 * 64);
    header.append(QByteArray(total - 10 - header.size() - 1, ' ')).append('\n');
    QByteArray prefix("\x93NUMPY\x01\x00", 8);
    const auto length = std::uint16_t(header.size());
    prefix.append(char(length & 0xff)).append(char(length >> 8));
    file.write(prefix + header);

    constexpr std::int64_t kBuffer = 1 << 20;
    std::vector<float> buffer(kBuffer);
    std::uint32_t state = 0x12345678u;
    for (std::int64_t begin = 0; begin < count; begin += kBuffer) {
        const std::int64_t n = std::min(kBuffer, count - begin);
        for (std::int64_t i = 0; i < n; ++i) {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            buffer[std::size_t(i)] = float(std::int32_t(state)) * (4.0f / 2147483648.0f) + 0.25f;
        }
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t index = begin + i;
            if (index % 50'000'000 == 7)
                buffer[std::size_t(i)] = std::numeric_limits<float>::quiet_NaN();
            else if (index % 70'000'000 == 11)
                buffer[std::size_t(i)] = std::numeric_limits<float>::infinity();
            else if (index % 90'000'000 == 13)
                buffer[std::size_t(i)] = -std::numeric_limits<float>::infinity();
        }
        if (file.write(reinterpret_cast<const char*>(buffer.data()), n * 4) != n * 4)
            return false;
    }
    return file.flush();
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    std::int64_t mib = 1024;
    int threads = 0;
    int runs = 3;
    QString keep;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--mib"))
            mib = args[++i].toLongLong();
        else if (args[i] == QLatin1String("--runs"))
            runs = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--threads"))
            threads = args[++i].toInt();
        else if (args[i] == QLatin1String("--keep"))
            keep = args[++i];
    }

    QTemporaryDir temp;
    const QString folder = keep.isEmpty() ? temp.path() : keep;
    QDir().mkpath(folder);
    const QString path = folder + QStringLiteral("/big.npy");
    const std::int64_t count = mib * 1024 * 1024 / 4;
    QElapsedTimer timer;
    timer.start();
    if (!writeNpy(path, count)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        return 1;
    }
    std::printf("wrote %s: %lld float32 (%lld MiB) in %.2f s\n", qPrintable(path), static_cast<long long>(count),
                static_cast<long long>(mib), timer.elapsed() / 1000.0);

    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot open %s\n", qPrintable(path));
        return 1;
    }
    uchar* mapped = file.map(0, file.size());
    if (!mapped) {
        std::fprintf(stderr, "cannot map %s\n", qPrintable(path));
        return 1;
    }
    const std::int64_t dataOffset = file.size() - count * 4;
    const auto* data = reinterpret_cast<const std::byte*>(mapped + dataOffset);

    // One untimed pass maps the pages in; then R timed passes, all threads and one thread.
    const auto medianSeconds = [&](int useThreads, models::tensor::TensorStatistics& stats) {
        models::tensor::StatisticsOptions options;
        options.threads = useThreads;
        std::vector<double> seconds;
        for (int run = 0; run < runs; ++run) {
            timer.restart();
            stats = models::tensor::computeStatistics(data, count, models::tensor::DType::Float32, false, options);
            seconds.push_back(double(timer.nsecsElapsed()) / 1e9);
        }
        return bench::median(seconds);
    };
    models::tensor::TensorStatistics stats
        = models::tensor::computeStatistics(data, count, models::tensor::DType::Float32, false, {});
    const int allThreads = threads > 0 ? threads : bench::hardwareThreads();
    const double allSeconds = medianSeconds(allThreads, stats);
    std::printf("RunLens, %d threads: %.3f s (%.2f GB/s, median of %d)\n", allThreads, allSeconds,
                double(count) * 4 / allSeconds / 1e9, runs);
    models::tensor::TensorStatistics single;
    const double oneSeconds = medianSeconds(1, single);
    std::printf("RunLens, 1 thread:  %.3f s (%.2f GB/s, median of %d)\n", oneSeconds,
                double(count) * 4 / oneSeconds / 1e9, runs);
    std::printf("RunLens: min %.9g max %.9g mean %.9g std %.9g nan %lld +inf %lld -inf %lld\n", stats.min, stats.max,
                stats.mean, stats.std, static_cast<long long>(stats.nan), static_cast<long long>(stats.posInf),
                static_cast<long long>(stats.negInf));

    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"),
                 { QStringLiteral("-c"), QString::fromUtf8(kNumpyPeer), path, QString::number(runs) });
    if (!python.waitForFinished(-1) || python.exitCode() != 0) {
        std::fprintf(stderr, "numpy peer failed: %s\n", python.readAllStandardError().constData());
        return 1;
    }
    const QStringList peer = QString::fromUtf8(python.readAllStandardOutput()).trimmed().split(u' ');
    const double numpySeconds = peer.value(0).toDouble();
    std::printf("numpy, 1 thread: %.3f s (median of %d); min %s max %s mean %s std %s nan %s\n", numpySeconds, runs,
                qPrintable(peer.value(1)), qPrintable(peer.value(2)), qPrintable(peer.value(3)),
                qPrintable(peer.value(4)), qPrintable(peer.value(5)));
    const bool agree = peer.value(5).toLongLong() == stats.nan && peer.value(1).toDouble() == stats.min
        && peer.value(2).toDouble() == stats.max;
    std::printf("results %s; one-thread ratio numpy / RunLens %.2fx; target >= 2x with all threads: %s\n",
                agree ? "agree" : "DISAGREE", numpySeconds / oneSeconds,
                numpySeconds / allSeconds >= 2 ? "PASS" : "FAIL");
    const bench::Side numpySide { "numpy", numpySeconds * 1e3, runs, "1 thread" };
    bench::printRatio("tensor statistics, 1 thread each", { "RunLens", oneSeconds * 1e3, runs, "1 thread" }, numpySide);
    bench::printRatio("tensor statistics, RunLens on every hardware thread",
                      { "RunLens", allSeconds * 1e3, runs, bench::threadsText(allThreads) }, numpySide,
                      "numpy's reductions use one thread");
    return 0;
}
