// Heatmap benchmark: a 2048x2048 float32 slice of a larger 3-D array, shown the way the inspector shows it:
// HeatmapView::setTensor then renderImage (slice range plus one colour per element), and a full paint of
// the view into an image. Median of the runs against the 50 ms target, for a contiguous slice, a slice
// with a row gap, and one with a column stride; numpy's lookup-table colouring of the same slice in the same
// run as the peer.
//
//   bench_heatmap [--runs N]

#include "tensor/heatmapview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QProcess>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <time.h>
#include <vector>

using namespace runlens;
using namespace runlens::tensor;

namespace {

constexpr int kSide = 2048;
constexpr double kTargetMs = 50;

constexpr const char* kNumpyPeer = R"(
import sys, time
import numpy as np
side, runs = int(sys.argv[1]), int(sys.argv[2])
a = np.random.default_rng(1).normal(0, 1, (3, side, side)).astype(np.float32)
lut = np.arange(256, dtype=np.uint32) * 0x010101 + 0xff000000
times = []
for _ in range(runs):
    t0 = time.perf_counter()
    s = a[1]
    lo, hi = np.nanmin(s), np.nanmax(s)
    idx = np.clip(((s - lo) * (256.0 / (hi - lo))).astype(np.int32), 0, 255)
    img = lut[idx]
    times.append(time.perf_counter() - t0)
print(f"{sorted(times)[len(times) // 2] * 1000:.3f}")
)";

/// CPU time of the process in ms (all threads): on a shared machine it shows the work apart from the waiting.
double processCpuMs()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

struct Case
{
    const char* name;
    std::vector<std::int64_t> shape; ///< of the whole array
    std::vector<std::int64_t> viewStrides; ///< in elements
    std::int64_t viewOffset; ///< in elements
};

bool runCase(const Case& c, const std::shared_ptr<const TensorData>& data, int runs)
{
    Tensor view;
    view.name = QString::fromLatin1(c.name);
    view.dtype = DType::Float32;
    view.shape = { kSide, kSide };
    view.strides = { c.viewStrides[0] * 4, c.viewStrides[1] * 4 };
    view.offset = c.viewOffset * 4;
    view.data = data;

    tensorview::HeatmapView heatmap;
    heatmap.resize(1024, 1024);
    std::vector<double> build, paint, buildCpu, paintCpu;
    QImage target(heatmap.size(), QImage::Format_RGB32);
    for (int run = 0; run < runs; ++run) {
        QElapsedTimer timer;
        double cpu = processCpuMs();
        timer.start();
        heatmap.setTensor(view);
        const QImage image = heatmap.renderImage();
        build.push_back(timer.nsecsElapsed() / 1e6);
        buildCpu.push_back(processCpuMs() - cpu);
        if (image.size() != QSize(kSide, kSide)) {
            std::fprintf(stderr, "%s: unexpected image size\n", c.name);
            return false;
        }
        // A first view as the user sees it: new tensor, picture built, visible part painted.
        heatmap.setTensor(view);
        heatmap.zoomToFit();
        cpu = processCpuMs();
        timer.restart();
        heatmap.render(&target);
        paint.push_back(timer.nsecsElapsed() / 1e6);
        paintCpu.push_back(processCpuMs() - cpu);
    }
    const double buildMs = median(build);
    const double paintMs = median(paint);
    const bool pass = buildMs <= kTargetMs && paintMs <= kTargetMs;
    std::printf("%-28s setTensor+renderImage %7.2f ms (cpu %6.2f)   first paint, 1024x1024 fit %7.2f ms (cpu %6.2f)   "
                "%s (target %.0f ms)\n",
                c.name, buildMs, median(buildCpu), paintMs, median(paintCpu), pass ? "PASS" : "FAIL", kTargetMs);
    return pass;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qEnvironmentVariable("QT_QPA_PLATFORM", QStringLiteral("offscreen")).toUtf8());
    QApplication app(argc, argv);
    int runs = 15;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(10, std::atoi(argv[i + 1]));
    }

    // One buffer large enough for every layout below: 3 x 2048 x 2048 floats plus a row gap of 2 x 2048.
    const std::int64_t count = std::int64_t(3) * kSide * kSide * 2;
    std::vector<std::byte> bytes(size_t(count) * 4);
    {
        std::mt19937 rng(1);
        std::normal_distribution<float> normal(0.f, 1.f);
        auto* values = reinterpret_cast<float*>(bytes.data());
        for (std::int64_t i = 0; i < count; ++i)
            values[i] = normal(rng);
        values[12345] = std::nanf(""); // a NaN and an infinity keep the special-value branches honest
        values[67890] = INFINITY;
    }
    const auto data = std::make_shared<MemoryTensorData>(std::move(bytes));

    const Case cases[] = {
        // a[1] of a (3, 2048, 2048) array: rows one after another.
        { "a[1] of (3,2048,2048)", { 3, kSide, kSide }, { kSide, 1 }, std::int64_t(kSide) * kSide },
        // a[:, 1, :] of a (2048, 2, 2048) array: each row followed by a gap.
        { "a[:,1,:] of (2048,2,2048)", { kSide, 2, kSide }, { 2 * kSide, 1 }, kSide },
        // a[:, :, 1] of a (2048, 2048, 2) array: every other float.
        { "a[:,:,1] of (2048,2048,2)", { kSide, kSide, 2 }, { 2 * kSide, 2 }, 1 },
    };
    std::printf("HeatmapView, %dx%d float32 views, median of %d runs\n", kSide, kSide, runs);
    bool allPass = true;
    for (const Case& c : cases)
        allPass = runCase(c, data, runs) && allPass;

    QProcess python;
    python.start(
        QStringLiteral("/usr/bin/python3"),
        { QStringLiteral("-c"), QString::fromUtf8(kNumpyPeer), QString::number(kSide), QString::number(runs) });
    if (python.waitForFinished(-1) && python.exitCode() == 0) {
        const double numpyMs = QString::fromUtf8(python.readAllStandardOutput()).trimmed().toDouble();
        std::printf("numpy peer (nanmin/nanmax + 256-entry LUT on a[1]): %.2f ms\n", numpyMs);
    } else {
        std::printf("numpy peer not run: %s\n", python.readAllStandardError().constData());
    }
    std::printf("%s\n", allPass ? "PASS" : "FAIL");
    return allPass ? 0 : 1;
}
