// The Projector's three interactive costs at the scale (100k points x 256 dimensions): PCA to the
// top 10 components (goal 2 s), one 2-D frame of the scatter (goal 16 ms) and one k = 10 neighbour query in
// the original space (goal 100 ms). The peer is numpy's SVD of the same centred data (the reference the PCA
// test compares against), timed in the same run on the same bytes.

#include "models/embeddings/embeddingset.h"
#include "models/embeddings/neighbours.h"
#include "models/embeddings/pca.h"
#include "tests/bench/benchcommon.h"
#include "widgets/projector/pointcolors.h"
#include "widgets/projector/projectorscatter.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>
#include <random>

using namespace runlens;

namespace {

int option(const QStringList& args, const QString& name, int fallback)
{
    const int at = int(args.indexOf(name));
    return at >= 0 && at + 1 < args.size() ? args.at(at + 1).toInt() : fallback;
}

models::embeddings::EmbeddingSet generate(int rows, int dims)
{
    models::embeddings::EmbeddingSet set;
    set.name = QStringLiteral("bench");
    set.rows = rows;
    set.dims = dims;
    set.values.resize(std::size_t(rows) * dims);
    std::mt19937 random(3);
    std::normal_distribution<float> normal;
    std::vector<float> centres(std::size_t(20) * dims);
    for (float& c : centres)
        c = normal(random) * 2.0f;
    set.metadataColumns = { QStringLiteral("class") };
    set.metadata.reserve(std::size_t(rows));
    for (int i = 0; i < rows; ++i) {
        const int cls = i % 20;
        for (int d = 0; d < dims; ++d)
            set.values[std::size_t(i) * dims + d] = centres[std::size_t(cls) * dims + d] + normal(random);
        set.metadata.push_back({ QStringLiteral("c%1").arg(cls) });
    }
    return set;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int rows = option(args, QStringLiteral("--rows"), 100000);
    const int dims = option(args, QStringLiteral("--dims"), 256);
    const int runs = option(args, QStringLiteral("--runs"), 3);
    std::printf("bench_projector: %d points x %d dimensions, %d runs, %d hardware threads\n", rows, dims, runs,
                bench::hardwareThreads());
    const models::embeddings::EmbeddingSet set = generate(rows, dims);

    std::vector<double> pcaTimes;
    std::optional<models::embeddings::PcaResult> pca;
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer timer;
        timer.start();
        pca = models::embeddings::computePca(set, 10);
        pcaTimes.push_back(timer.nsecsElapsed() / 1e6);
    }
    std::printf("PCA (top 10 of %d): median %.1f ms (goal 2000 ms); PC1 explains %.4f\n", dims, bench::median(pcaTimes),
                pca ? pca->explainedVarianceRatio[0] : 0.0);

    widgets::projector::ProjectorScatter scatter;
    scatter.resize(1200, 800);
    std::vector<float> xs(static_cast<std::size_t>(rows));
    std::vector<float> ys(static_cast<std::size_t>(rows));
    for (int i = 0; i < rows; ++i) {
        xs[std::size_t(i)] = pca->at(i, 0);
        ys[std::size_t(i)] = pca->at(i, 1);
    }
    scatter.setPoints(std::move(xs), std::move(ys));
    scatter.setColors(widgets::projector::colorPoints(set, 0).colors);
    std::vector<double> frameTimes;
    for (int r = 0; r < std::max(runs, 10); ++r) {
        QElapsedTimer timer;
        timer.start();
        const QImage frame = scatter.render(QSize(1200, 800), 1.0);
        frameTimes.push_back(timer.nsecsElapsed() / 1e6);
        Q_UNUSED(frame);
    }
    std::printf("2-D frame (1200x800, %d points): median %.2f ms (goal 16 ms)\n", rows, bench::median(frameTimes));

    const models::embeddings::NeighbourIndex index(set);
    for (auto distance : { models::embeddings::Distance::Cosine, models::embeddings::Distance::Euclidean }) {
        std::vector<double> times;
        for (int r = 0; r < std::max(runs, 10); ++r) {
            QElapsedTimer timer;
            timer.start();
            const auto found = index.nearest((r * 7919) % rows, 10, distance);
            times.push_back(timer.nsecsElapsed() / 1e6);
            Q_UNUSED(found);
        }
        std::printf("k=10 neighbours (%s, %d threads): median %.2f ms (goal 100 ms)\n",
                    distance == models::embeddings::Distance::Cosine ? "cosine" : "euclidean", bench::hardwareThreads(),
                    bench::median(times));
    }

    bench::Side ours { "RunLens PCA", bench::median(pcaTimes), runs, bench::threadsText(1) };
    if (args.contains(QStringLiteral("--no-peer"))) {
        bench::printNoRatio("PCA " + std::to_string(rows) + " x " + std::to_string(dims), ours, "--no-peer");
        return 0;
    }
    QTemporaryDir dir;
    const QString raw = dir.filePath(QStringLiteral("values.f32"));
    QFile file(raw);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(reinterpret_cast<const char*>(set.values.data()), qint64(set.values.size() * sizeof(float)))
            != qint64(set.values.size() * sizeof(float))) {
        bench::printNoRatio("PCA 100k x 256", ours, "could not write the peer's input");
        return 0;
    }
    file.close();
    // numpy's own threading (its BLAS) is left as installed: that is what a user of numpy gets.
    const QString code
        = QStringLiteral("import sys, time, numpy as np\n"
                         "x = np.fromfile(sys.argv[1], dtype='<f4').reshape(int(sys.argv[2]), int(sys.argv[3]))\n"
                         "times = []\n"
                         "for _ in range(int(sys.argv[4])):\n"
                         "    t = time.perf_counter()\n"
                         "    c = x.astype(np.float64); c -= c.mean(axis=0)\n"
                         "    u, s, vt = np.linalg.svd(c, full_matrices=False)\n"
                         "    p = u[:, :10] * s[:10]\n"
                         "    times.append((time.perf_counter() - t) * 1000)\n"
                         "print(sorted(times)[len(times) // 2])\n");
    QProcess python;
    python.start(
        QStringLiteral("/usr/bin/python3"),
        { QStringLiteral("-c"), code, raw, QString::number(rows), QString::number(dims), QString::number(runs) });
    if (!python.waitForFinished(20 * 60 * 1000) || python.exitCode() != 0) {
        bench::printNoRatio("PCA 100k x 256", ours,
                            "numpy did not run: " + python.readAllStandardError().toStdString());
        return 0;
    }
    const bench::Side peer { "numpy SVD", python.readAllStandardOutput().trimmed().toDouble(), runs,
                             "numpy's BLAS threads" };
    bench::printRatio("PCA " + std::to_string(rows) + " x " + std::to_string(dims), ours, peer,
                      "numpy: full thin SVD of the centred data; RunLens: covariance + eigen-solver");
    return 0;
}
