// Heatmap benchmark: a 2048x2048 float32 slice of a larger 3-D array, shown the way the inspector shows it:
// HeatmapView::setTensor then renderImage (slice range plus one colour per element), and a full paint of
// the view into an image. Median of the runs against the 50 ms target, for a contiguous slice, a slice
// with a row gap, and one with a column stride. The peer is numpy doing the same picture on the same bytes:
// the buffer is written to a file, numpy reads it and takes the same three views (offsets and strides), then
// per view the finite range, 256 bins, a 256-entry colour lookup and the NaN colour. Both sides are the median
// of N runs per view; numpy's time is taken inside Python (start-up, imports and reading the file excluded).
// RunLens builds the picture on one thread per hardware thread, numpy on one.
//
//   bench_heatmap [--runs N]

#include "widgets/tensor/heatmapview.h"

#include "tests/bench/benchcommon.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <time.h>
#include <vector>

using namespace runlens;
using namespace runlens::models::tensor;

namespace {

constexpr int kSide = 2048;
constexpr double kTargetMs = 50;

constexpr const char* kNumpyPeer = R"(
import json, sys, time
import numpy as np
from numpy.lib.stride_tricks import as_strided
path, runs, cases = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
buf = np.fromfile(path, dtype='<f4')
lut = np.arange(256, dtype=np.uint32) * np.uint32(0x010101) + np.uint32(0xff000000)
nan_color = np.uint32(0xffff00ff)
out = {}
for name, (rows, cols, rs, cs, offset) in cases.items():
    s = as_strided(buf[offset:], shape=(rows, cols), strides=(rs * 4, cs * 4), writeable=False)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        finite = np.isfinite(s)
        lo = s.min(where=finite, initial=np.inf)
        hi = s.max(where=finite, initial=-np.inf)
        t = (s - lo) * np.float32(256.0 / (hi - lo))
        np.clip(t, 0, 255, out=t)
        nan = np.isnan(t)
        t[nan] = 0
        img = lut[t.astype(np.uint8)]
        img[nan] = nan_color
        times.append((time.perf_counter() - t0) * 1000.0)
    out[name] = sorted(times)[len(times) // 2]
print(json.dumps(out))
)";

/// CPU time of the process in ms (all threads): on a shared machine it shows the work apart from the waiting.
double processCpuMs()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

using bench::median;

struct Case
{
    const char* name;
    std::vector<std::int64_t> shape; ///< of the whole array
    std::vector<std::int64_t> viewStrides; ///< in elements
    std::int64_t viewOffset; ///< in elements
};

struct CaseResult
{
    bool pass = false;
    double buildMs = 0; ///< setTensor + renderImage, median
};

CaseResult runCase(const Case& c, const std::shared_ptr<const TensorData>& data, int runs)
{
    Tensor view;
    view.name = QString::fromLatin1(c.name);
    view.dtype = DType::Float32;
    view.shape = { kSide, kSide };
    view.strides = { c.viewStrides[0] * 4, c.viewStrides[1] * 4 };
    view.offset = c.viewOffset * 4;
    view.data = data;

    runlens::widgets::tensor::HeatmapView heatmap;
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
            return {};
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
    return { pass, buildMs };
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
    // The peer reads the very same bytes.
    QTemporaryDir temp;
    const QString bufferFile = temp.filePath(QStringLiteral("buffer.f32"));
    {
        QFile file(bufferFile);
        if (!file.open(QIODevice::WriteOnly)
            || file.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size())) != qint64(bytes.size())) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(bufferFile));
            return 1;
        }
    }
    const auto data = std::make_shared<MemoryTensorData>(std::move(bytes));

    const ::Case cases[] = {
        // a[1] of a (3, 2048, 2048) array: rows one after another.
        { "a[1] of (3,2048,2048)", { 3, kSide, kSide }, { kSide, 1 }, std::int64_t(kSide) * kSide },
        // a[:, 1, :] of a (2048, 2, 2048) array: each row followed by a gap.
        { "a[:,1,:] of (2048,2,2048)", { kSide, 2, kSide }, { 2 * kSide, 1 }, kSide },
        // a[:, :, 1] of a (2048, 2048, 2) array: every other float.
        { "a[:,:,1] of (2048,2048,2)", { kSide, kSide, 2 }, { 2 * kSide, 2 }, 1 },
    };
    const int threads = std::max(1, QThread::idealThreadCount());
    std::printf("HeatmapView, %dx%d float32 views, median of %d runs, picture built on %d threads\n", kSide, kSide,
                runs, threads);
    bool allPass = true;
    std::vector<CaseResult> results;
    QJsonObject peerCases;
    for (const ::Case& c : cases) {
        results.push_back(runCase(c, data, runs));
        allPass = results.back().pass && allPass;
        peerCases.insert(QString::fromLatin1(c.name),
                         QJsonArray { qint64(kSide), qint64(kSide), qint64(c.viewStrides[0]), qint64(c.viewStrides[1]),
                                      qint64(c.viewOffset) });
    }

    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"),
                 { QStringLiteral("-c"), QString::fromUtf8(kNumpyPeer), bufferFile, QString::number(runs),
                   QString::fromUtf8(QJsonDocument(peerCases).toJson(QJsonDocument::Compact)) });
    QJsonObject numpy;
    if (python.waitForFinished(-1) && python.exitCode() == 0)
        numpy = QJsonDocument::fromJson(python.readAllStandardOutput().trimmed()).object();
    else
        std::printf("numpy peer not run: %s\n", python.readAllStandardError().constData());
    std::printf("%s\n", allPass ? "PASS" : "FAIL");
    for (std::size_t i = 0; i < results.size(); ++i) {
        const std::string what = std::string("heatmap picture of ") + cases[i].name;
        const bench::Side runlensSide { "RunLens", results[i].buildMs, runs, bench::threadsText(threads) };
        const QJsonValue peerMs = numpy.value(QString::fromLatin1(cases[i].name));
        if (peerMs.isDouble())
            bench::printRatio(what.c_str(), runlensSide, { "numpy", peerMs.toDouble(), runs, "1 thread" },
                              "same bytes; finite range, 256 bins, colour lookup, NaN colour on both sides");
        else
            bench::printNoRatio(what.c_str(), runlensSide, "the numpy peer did not run");
    }
    return allPass ? 0 : 1;
}
