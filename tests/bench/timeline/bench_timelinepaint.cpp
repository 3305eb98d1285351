// Paints full-range and zoomed frames of a 4M-event trace into a 2560x1440 image and reports ms per
// frame (target: <= 16 ms each), without a highlight, with one operator highlighted, and with every kernel
// highlighted (a quarter of all slices). Each figure is the median of K frames, painted on one thread; the
// frames keep nothing from one another. No peer runs on this machine, so no ratio is printed.
// `bench_timelinepaint [--events N] [--frames K] [--png DIR]`.
#include "models/trace/tracestore.h"
#include "models/trace/tracestorebuilder.h"
#include "widgets/timeline/timelinepainter.h"
#include "widgets/timeline/timelinesearch.h"
#include "widgets/timeline/timelineview.h"

#include "tests/bench/benchcommon.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace runlens;
using namespace runlens::models;
using namespace runlens::widgets::timeline;

namespace {

/// Kineto-like: 8 CPU threads with ops nested 4 deep (step > module > op > runtime call) and 4 GPU
/// streams of kernels, `events` slices in all, over about `events` µs.
std::shared_ptr<const models::trace::TraceStore> makeTrace(std::int64_t events)
{
    using namespace models::trace;
    TraceStoreBuilder b;
    const int source = b.addSource(QStringLiteral("bench.json"), nullptr);
    const int cpu = b.process(source, 1000);
    b.setProcessName(cpu, "python train.py");
    const int gpu = b.process(source, 0);
    b.setProcessName(gpu, "GPU 0");
    b.setProcessSortIndex(gpu, 1);
    auto& s = b.strings();
    std::vector<StringId> ops;
    std::vector<StringId> kernels;
    for (int i = 0; i < 64; ++i) {
        ops.push_back(s.intern("aten::op_" + std::to_string(i)));
        kernels.push_back(s.intern("kernel_sm80_" + std::to_string(i)));
    }
    const StringId launch = s.intern("cudaLaunchKernel");
    const StringId cpuCat = s.intern("cpu_op");
    const StringId kernelCat = s.intern("kernel");
    const int cpuThreads = 8;
    const int streams = 4;
    std::vector<int> cpuTracks;
    std::vector<int> gpuTracks;
    for (int t = 0; t < cpuThreads; ++t)
        cpuTracks.push_back(b.threadTrack(cpu, 100 + t));
    for (int t = 0; t < streams; ++t)
        gpuTracks.push_back(b.threadTrack(gpu, 7 + t, TrackType::GpuStream));
    // Per CPU group: 1 module (20 µs) holding 4 ops (4 µs) each with a 1 µs launch = 9 slices, plus 4 kernels.
    const std::int64_t perGroup = 13;
    const std::int64_t groups = events / perGroup;
    const std::int64_t groupsPerThread = std::max<std::int64_t>(1, groups / cpuThreads);
    std::int64_t added = 0;
    for (int t = 0; t < cpuThreads; ++t) {
        std::int64_t time = 0;
        std::int64_t stepStart = 0;
        int step = 0;
        for (std::int64_t g = 0; g < groupsPerThread; ++g) {
            if (t == 0 && g % 5000 == 4999) {
                b.addSlice(cpuTracks[0], stepStart, time - stepStart,
                           s.intern("ProfilerStep#" + std::to_string(step++)), s.intern("user_annotation"),
                           EventKind::UserAnnotation);
                stepStart = time;
                ++added;
            }
            b.addSlice(cpuTracks[std::size_t(t)], time, 20'000, ops[std::size_t(g % 64)], cpuCat, EventKind::CpuOp);
            for (int k = 0; k < 4; ++k) {
                const std::int64_t opStart = time + 500 + k * 4'800;
                b.addSlice(cpuTracks[std::size_t(t)], opStart, 4'000, ops[std::size_t((g + k + 1) % 64)], cpuCat,
                           EventKind::CpuOp);
                b.addSlice(cpuTracks[std::size_t(t)], opStart + 2'000, 1'000, launch, cpuCat, EventKind::Runtime);
                b.addSlice(gpuTracks[std::size_t(k)], opStart + 3'000 + t * 100, 600 + (g % 7) * 50,
                           kernels[std::size_t((g * 3 + k) % 64)], kernelCat, EventKind::Kernel);
            }
            added += perGroup;
            time += 21'000;
        }
    }
    std::printf("built %lld slices\n", static_cast<long long>(added));
    return b.finish();
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::int64_t events = 4'000'000;
    int frames = 15;
    QString pngDir;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--events"))
            events = args[i + 1].toLongLong();
        else if (args[i] == QLatin1String("--frames"))
            frames = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--png"))
            pngDir = args[i + 1];
    }
    QElapsedTimer timer;
    timer.start();
    const auto store = makeTrace(events);
    std::printf("store: %llu events, %zu tracks, built in %lld ms\n",
                static_cast<unsigned long long>(store->eventCount()), store->tracks().size(),
                static_cast<long long>(timer.elapsed()));

    const QSize size(2560, 1440);
    TimelineView view;
    view.resize(size);
    timer.restart();
    view.setStore(store);
    while (view.isPreparing())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    std::printf("view.setStore (level-of-detail index + layout): %lld ms\n", static_cast<long long>(timer.elapsed()));

    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    struct Case
    {
        const char* name;
        double fraction;
    };
    const TimeSpan full = view.timeRangeModel()->traceRange();
    bool ok = true;
    std::vector<std::string> results;
    struct Highlight
    {
        const char* name;
        const char* pattern;
    };
    for (const Highlight& h : { Highlight { "no highlight", "" }, Highlight { "highlight one op", "^aten::op_1$" },
                                Highlight { "highlight all kernels", "^kernel_" } }) {
        timer.restart();
        const auto matches = *h.pattern
            ? findTimelineMatches(*store, QRegularExpression(QString::fromLatin1(h.pattern)))
            : std::vector<TimelineMatch> {};
        view.setHighlight(matches);
        std::printf("-- %s: %zu matches (search + highlight index %lld ms)\n", h.name, matches.size(),
                    static_cast<long long>(timer.elapsed()));
        for (const Case& c :
             { Case { "full range", 1.0 }, Case { "zoomed (1/200)", 0.005 }, Case { "zoomed (1/20000)", 0.00005 } }) {
            const std::int64_t mid = full.start + full.duration() / 3;
            const auto span = std::int64_t(double(full.duration()) * c.fraction);
            view.timeRangeModel()->setVisibleRange(mid - span / 2, mid - span / 2 + span);
            std::vector<double> times;
            TimelinePaintStats stats;
            for (int f = 0; f < frames; ++f) {
                QPainter painter(&image);
                QElapsedTimer frame;
                frame.start();
                stats = view.paintFrame(painter, size);
                times.push_back(double(frame.nsecsElapsed()) / 1e6);
            }
            const double median = bench::median(times);
            std::sort(times.begin(), times.end());
            std::printf("%-18s median %6.2f ms  min %6.2f ms  (rects %lld, slices visited %lld, labels %lld)  %s\n",
                        c.name, median, times.front(), static_cast<long long>(stats.rects),
                        static_cast<long long>(stats.slicesVisited), static_cast<long long>(stats.labels),
                        median <= 16.0 ? "ok (<= 16 ms)" : "over 16 ms");
            ok = ok && median <= 16.0;
            results.push_back(bench::noRatioLine(std::string("timeline frame, ") + h.name + ", " + c.name,
                                                 { "RunLens", median, frames, "1 thread" }, "no peer"));
            if (!pngDir.isEmpty())
                image.save(pngDir
                           + QStringLiteral("/timeline_%1_%2.png")
                                 .arg(QString::fromLatin1(h.name).replace(QLatin1Char(' '), QLatin1Char('_')))
                                 .arg(c.fraction));
        }
    }
    for (const std::string& line : results)
        std::printf("%s\n", line.c_str());
    return ok ? 0 : 1;
}
