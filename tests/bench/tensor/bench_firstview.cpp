// Time to first view of a large tensor: writes a float32 .npy (1 GiB by default, shape (256, 1024, 1024)),
// then measures what a user waits for in the Tensor inspector after choosing it — the catalog entry read
// from the header, the file mapped, the default slice a[0, :, :] chosen, the table filled and the panel
// painted — with the file's pages evicted from the cache first (cold) and kept (warm). Whole-tensor
// statistics start in the background and are not waited for. numpy is the peer in the same run:
// np.load(mmap_mode='r') and the text of the same slice's first rows, as one would look in a terminal.
// Both sides are the median of R runs on the same file with its pages cached (warm); numpy is timed inside
// Python, start-up and imports excluded. The two do different work (a painted panel against a printed
// excerpt): the ratio says how long the panel takes next to a quick look in a terminal. Target: <= 50 ms.
//
//   bench_firstview [--mib N] [--runs R] [--keep DIR]

#include "importers/tensor/tensorcatalogbuilder.h"
#include "models/core/runmanifest.h"
#include "widgets/tensor/tensorpanel.h"
#include "widgets/tensor/tensortablemodel.h"

#include "tests/bench/benchcommon.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QPixmap>
#include <QProcess>
#include <QTemporaryDir>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace runlens;
using namespace runlens::models;

namespace {

constexpr double kTargetMs = 50.0;

constexpr const char* kNumpyPeer = R"(
import sys, time
import numpy as np
np.set_printoptions(linewidth=200, threshold=1000)
path, runs = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(runs):
    t0 = time.perf_counter()
    a = np.load(path, mmap_mode='r')
    text = np.array2string(np.asarray(a[0, :30, :12]))
    times.append(time.perf_counter() - t0)
times.sort()
print(f"{times[len(times) // 2] * 1000:.3f}")
)";

bool writeNpy(const QString& path, std::int64_t planes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    QByteArray header
        = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + QByteArray::number(planes) + ", 1024, 1024), }";
    const int total = int((10 + header.size() + 1 + 63) / 64 * 64);
    header.append(QByteArray(total - 10 - header.size() - 1, ' ')).append('\n');
    QByteArray prefix("\x93NUMPY\x01\x00", 8);
    const auto length = std::uint16_t(header.size());
    prefix.append(char(length & 0xff)).append(char(length >> 8));
    file.write(prefix + header);
    std::vector<float> plane(1024 * 1024);
    for (std::int64_t p = 0; p < planes; ++p) {
        for (size_t i = 0; i < plane.size(); ++i)
            plane[i] = float(p) + float(i % 1024) * 1e-3f - float(i / 1024) * 1e-4f;
        if (file.write(reinterpret_cast<const char*>(plane.data()), qint64(plane.size() * 4))
            != qint64(plane.size() * 4))
            return false;
    }
    return file.flush();
}

/// Drops the file's pages from the page cache, so the next view reads from the disk.
void evict(const QString& path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY);
    if (fd < 0)
        return;
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
}

struct Phases
{
    std::vector<double> catalog, shown, filled;
};
Phases g_phases;

double firstView(const QString& path, const RunManifest& manifest)
{
    runlens::widgets::tensor::TensorPanel panel;
    panel.resize(1400, 900);
    panel.show();
    QApplication::processEvents();
    QElapsedTimer timer;
    timer.start();
    auto catalog = std::make_shared<const models::tensor::TensorCatalog>(
        importers::tensor::TensorCatalogBuilder::build(manifest));
    g_phases.catalog.push_back(timer.nsecsElapsed() / 1e6);
    panel.setCatalog(catalog);
    const bool shown = panel.showLocation(path);
    g_phases.shown.push_back(timer.nsecsElapsed() / 1e6);
    if (!shown) {
        std::fprintf(stderr, "the panel did not show %s\n", qPrintable(path));
        return -1;
    }
    while (panel.tableModel()->rowCount() == 0 && timer.elapsed() < 10000)
        QApplication::processEvents(QEventLoop::AllEvents, 5);
    g_phases.filled.push_back(timer.nsecsElapsed() / 1e6);
    const QPixmap picture = panel.grab();
    const double ms = timer.nsecsElapsed() / 1e6;
    if (picture.isNull() || panel.tableModel()->rowCount() != 1024 || panel.tableModel()->columnCount() != 1024) {
        std::fprintf(stderr, "unexpected first view: %d x %d cells\n", panel.tableModel()->rowCount(),
                     panel.tableModel()->columnCount());
        return -1;
    }
    return ms;
}

using bench::median;

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qEnvironmentVariable("QT_QPA_PLATFORM", QStringLiteral("offscreen")).toUtf8());
    QApplication app(argc, argv);
    std::int64_t mib = 1024;
    int runs = 7;
    QString keep;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--mib") == 0)
            mib = std::max<std::int64_t>(4, std::atoll(argv[i + 1]));
        else if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(3, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--keep") == 0)
            keep = QString::fromLocal8Bit(argv[i + 1]);
    }
    QTemporaryDir temp;
    const QString dir = keep.isEmpty() ? temp.path() : keep;
    QDir().mkpath(dir);
    const QString path = QDir(dir).filePath(QStringLiteral("activations.npy"));
    const std::int64_t planes = mib / 4;
    std::printf("writing %s: float32 (%lld, 1024, 1024), %lld MiB\n", qPrintable(path), (long long)planes,
                (long long)(planes * 4));
    std::fflush(stdout);
    if (!writeNpy(path, planes)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        return 2;
    }
    RunManifest manifest;
    manifest.root = dir;
    Artifact artifact;
    artifact.path = path;
    artifact.relativePath = QStringLiteral("activations.npy");
    artifact.kind = ArtifactKind::TensorNpy;
    artifact.run = QStringLiteral(".");
    manifest.artifacts << artifact;

    std::vector<double> cold, warm;
    for (int run = 0; run < runs; ++run) {
        evict(path);
        cold.push_back(firstView(path, manifest));
        warm.push_back(firstView(path, manifest));
        if (cold.back() < 0 || warm.back() < 0)
            return 1;
    }
    const double coldMs = median(cold);
    const double warmMs = median(warm);
    std::printf("first view (catalog + map + slice + table + paint), median of %d: cold %.2f ms, warm %.2f ms\n", runs,
                coldMs, warmMs);
    std::printf("  phases (median, cold and warm together): catalog %.2f ms, shown %.2f ms, table filled %.2f ms, "
                "painted\n",
                median(g_phases.catalog), median(g_phases.shown), median(g_phases.filled));

    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"),
                 { QStringLiteral("-c"), QString::fromUtf8(kNumpyPeer), path, QString::number(runs) });
    double numpyMs = -1;
    if (python.waitForFinished(-1) && python.exitCode() == 0) {
        numpyMs = QString::fromUtf8(python.readAllStandardOutput()).trimmed().toDouble();
        std::printf("numpy peer (np.load mmap + text of a[0, :30, :12]), warm: %.2f ms (median of %d)\n", numpyMs,
                    runs);
    } else {
        std::printf("numpy peer not run: %s\n", python.readAllStandardError().constData());
    }
    const bool pass = coldMs <= kTargetMs && warmMs <= kTargetMs;
    std::printf("%s (target %.0f ms)\n", pass ? "PASS" : "FAIL", kTargetMs);
    const bench::Side runlensSide { "RunLens", warmMs, runs, "panel on the GUI thread" };
    const std::string what = "first view of a " + std::to_string(planes * 4) + " MiB tensor, warm";
    if (numpyMs > 0)
        bench::printRatio(what, runlensSide, { "numpy text of a[0, :30, :12]", numpyMs, runs, "1 thread" },
                          "different work: a painted panel against a printed excerpt");
    else
        bench::printNoRatio(what, runlensSide, "the numpy peer did not run");
    return pass ? 0 : 1;
}
