// The Cluster view at a thousand ranks: writes 1,024 rank digests (`rank-N.rldigest`, through the
// project's writer) of a made-up data + tensor parallel job with per-step figures, collectives in their
// process groups and a few slow ranks, then measures
// 1. Cluster view ready: the folder read, the cluster assembled and analysed (slow ranks, rank × step
//    matrices, slowest rank per step, communication groups), the table filled and the heatmap's picture
//    built, from the first file read until the panel is complete (goal: <= 2 s);
// 2. heatmap frame: one paint of the heatmap widget at 1920×1080 (goal: <= 16 ms), and, apart, the worker's
//    building of the picture at that size (done once per resize, not per frame).
// Each is the median of R runs (ready) and N paints; no peer: no other tool opens rank digests.
//
//   bench_clusterview [--ranks N] [--steps S] [--collective-steps K] [--runs R] [--paints N] [--dir DIR] [--keep]
//
// --dir DIR that already holds digests reads those instead of writing new ones.

#include "importers/cluster/rankdigestfile.h"
#include "models/core/workerpool.h"
#include "tests/bench/benchcommon.h"
#include "tests/models/cluster/syntheticdigests.h"
#include "widgets/cluster/clusterpanel.h"
#include "widgets/cluster/rankstepheatmap.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace runlens;
using namespace runlens::widgets::cluster;

namespace {

int intArgument(const QStringList& args, const QString& name, int fallback)
{
    const int at = args.indexOf(name);
    return at >= 0 && at + 1 < args.size() ? args[at + 1].toInt() : fallback;
}

/// Runs the event loop until `done` or `timeoutMs`. The loop sleeps between events, as the application's
/// does: polling it would take a core from the workers being measured.
bool waitUntil(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    QTimer wake; // wakes the loop to look at the clock when no event comes
    wake.start(20);
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    models::cluster::synthetic::JobShape job;
    job.worldSize = intArgument(args, QStringLiteral("--ranks"), 1024);
    job.steps = intArgument(args, QStringLiteral("--steps"), 1000);
    job.collectiveSteps = intArgument(args, QStringLiteral("--collective-steps"), 100);
    job.slowRanks = { 137, 612, 901 };
    const int runs = std::max(1, intArgument(args, QStringLiteral("--runs"), 3));
    const int paints = std::max(1, intArgument(args, QStringLiteral("--paints"), 50));

    QTemporaryDir scratch;
    QString dir = scratch.path();
    const int dirAt = args.indexOf(QStringLiteral("--dir"));
    if (dirAt >= 0 && dirAt + 1 < args.size()) {
        dir = args[dirAt + 1];
        QDir().mkpath(dir);
    }
    scratch.setAutoRemove(!args.contains(QStringLiteral("--keep")) && dirAt < 0);

    QElapsedTimer timer;
    timer.start();
    qint64 bytes = 0;
    // --dir with digests already in it (from an earlier --keep) skips the writing.
    const bool reuse = dirAt >= 0 && importers::cluster::containsRankDigests(dir);
    for (int r = 0; r < job.worldSize && !reuse; ++r) {
        const QString path = QDir(dir).filePath(importers::cluster::rankDigestFileName(r));
        QString error;
        if (!importers::cluster::writeRankDigestFile(models::cluster::synthetic::makeDigest(job, r), path, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        bytes += QFileInfo(path).size();
    }
    std::printf("wrote %d digests (%d steps, collectives in the last %d, %.1f MB) into %s in %.1f s\n", job.worldSize,
                job.steps, job.collectiveSteps, bytes / 1e6, qPrintable(dir), timer.elapsed() / 1e3);
    std::fflush(stdout);

    std::vector<double> ready;
    std::vector<double> readMs;
    std::vector<double> analysedMs;
    for (int run = 0; run < runs; ++run) {
        ClusterPanel panel;
        panel.resize(1920, 1080);
        panel.show();
        QCoreApplication::processEvents();
        timer.restart();
        const importers::cluster::DigestFolder folder = importers::cluster::readRankDigestFolder(dir);
        const double read = timer.nsecsElapsed() / 1e6;
        QSignalSpy clusterReady(&panel, &ClusterPanel::clusterReady);
        panel.setDigests(folder.digests);
        if (!waitUntil([&] { return clusterReady.count() > 0; }, 120000))
            return 2;
        const double analysed = timer.nsecsElapsed() / 1e6;
        if (!waitUntil([&] { return panel.heatmap()->image() && !panel.heatmap()->isBuilding(); }, 120000))
            return 3;
        QCoreApplication::processEvents();
        ready.push_back(timer.nsecsElapsed() / 1e6);
        readMs.push_back(read);
        analysedMs.push_back(analysed);
        std::printf("run %d: read %.0f ms, analysed and table %.0f ms, heatmap %.0f ms; %d rows, %zu groups\n", run,
                    read, analysed - read, ready.back() - analysed, panel.tableModel()->rowCount(),
                    panel.views().groups.size());
        std::fflush(stdout);
    }

    // Where the analysis time goes, on this thread: the cluster from the digests, then the views.
    {
        const auto digests = importers::cluster::readRankDigestFolder(dir).digests;
        timer.restart();
        const models::cluster::Cluster assembled = models::cluster::clusterFromDigests(digests);
        const double clusterMs = timer.nsecsElapsed() / 1e6;
        timer.restart();
        const models::cluster::RankStepMatrix matrix
            = models::cluster::buildRankStepMatrix(assembled, models::cluster::StepMetric::StepTime);
        const double matrixMs = timer.nsecsElapsed() / 1e6;
        timer.restart();
        const std::vector<models::cluster::CommGroup> groups = models::cluster::inferCommGroups(digests);
        const double groupsMs = timer.nsecsElapsed() / 1e6;
        std::printf("analysis on one thread: cluster %.0f ms, one matrix %.0f ms, groups %.0f ms\n", clusterMs,
                    matrixMs, groupsMs);
    }

    // The heatmap alone at 1920×1080 (the size of a maximised dock on a full HD screen).
    ClusterPanel panel;
    panel.show();
    QSignalSpy clusterReady(&panel, &ClusterPanel::clusterReady);
    panel.setDigests(importers::cluster::readRankDigestFolder(dir).digests);
    waitUntil([&] { return clusterReady.count() > 0; }, 120000);
    RankStepHeatmap heatmap;
    heatmap.resize(1920, 1080);
    heatmap.show();
    heatmap.setMatrix(panel.views().stepTime);
    if (!waitUntil([&] { return heatmap.image() && !heatmap.isBuilding(); }, 120000))
        return 4;
    QCoreApplication::processEvents();
    std::vector<double> frames;
    for (int i = 0; i < paints; ++i) {
        timer.restart();
        heatmap.repaint();
        frames.push_back(timer.nsecsElapsed() / 1e6);
    }
    std::vector<double> builds;
    const QSize plot = heatmap.plotRect().size();
    for (int i = 0; i < std::min(paints, 10); ++i) {
        timer.restart();
        const QImage picture = heatmap.image()->rendered(plot);
        builds.push_back(timer.nsecsElapsed() / 1e6);
    }

    const std::string shape = std::to_string(job.worldSize) + " ranks x " + std::to_string(job.steps) + " steps";
    const double readyMedian = bench::median(ready);
    std::printf("RESULT cluster view ready (%s): RunLens %.0f ms (median of %d; read %.0f ms, analysis + table "
                "%.0f ms, heatmap %.0f ms; %s) | goal <= 2000 ms: %s\n",
                shape.c_str(), readyMedian, runs, bench::median(readMs),
                bench::median(analysedMs) - bench::median(readMs), readyMedian - bench::median(analysedMs),
                bench::threadsText(bench::hardwareThreads()).c_str(), readyMedian <= 2000 ? "met" : "NOT met");
    const double frame = bench::median(frames);
    std::printf("RESULT heatmap frame (%s at 1920x1080): RunLens %.2f ms (median of %d paints; max %.2f ms) | goal "
                "<= 16 ms: %s\n",
                shape.c_str(), frame, paints, *std::max_element(frames.begin(), frames.end()),
                frame <= 16 ? "met" : "NOT met");
    std::printf("RESULT heatmap picture at %dx%d (worker, once per resize): RunLens %.2f ms (median of %zu)\n",
                plot.width(), plot.height(), bench::median(builds), builds.size());
    return 0;
}
