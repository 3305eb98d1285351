// Frame time of the Memory chart for a profile with 2M allocation events (2M samples of the allocated
// curve): full range and two zooms, rendered into an image. Each timed RunLens frame is uncached: the range
// is set (from another one), the curve is downsampled for it (on a worker thread; the frame waits for it)
// and the chart is painted. The repaint of an already downsampled range is printed apart. The peer is
// QCustomPlot drawing the raw step curve (its own adaptive sampling on, done in every paint). Both sides
// are the median of K frames; the ratio is peer time / ours.
// `bench_memorypaint [--events N] [--frames K] [--png DIR]`.
#include "models/core/timerange.h"
#include "models/memory/memoryprofile.h"
#include "widgets/memory/memorychart.h"

#include "tests/bench/benchcommon.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <qcustomplot.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace runlens;
using namespace runlens::models;
using namespace runlens::widgets::memory;

namespace {

/// A training-like allocator: each event allocates or frees a block, a sawtooth per step (activations
/// allocated in the forward pass, freed in the backward pass) with noise; every event is a sample of the
/// allocated curve.
std::shared_ptr<const models::memory::MemoryProfile> makeProfile(std::int64_t events)
{
    auto profile = std::make_shared<models::memory::MemoryProfile>();
    models::memory::MemoryDevice device;
    device.label = QStringLiteral("cuda:0");
    device.capacity = 40'000'000'000;
    device.allocated.x.reserve(std::size_t(events));
    device.allocated.bytes.reserve(std::size_t(events));
    device.events.reserve(std::size_t(events));
    std::uint64_t state = 42;
    double total = 2e9;
    double reserved = 4e9;
    std::int64_t time = 1'700'000'000'000'000'000;
    const std::int64_t perStep = 20'000;
    for (std::int64_t i = 0; i < events; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const auto size = std::int64_t((state >> 40) % 1'000'000) + 512;
        // Forward (60 % of a step) allocates activations with some temporaries freed at once; backward
        // frees them, back down to the weights.
        const bool forward = i % perStep < perStep * 6 / 10;
        const std::int64_t bytes = !forward ? -size * 3 / 2 : ((state >> 20) % 3 == 0 ? -size / 2 : size);
        total = std::max(2e9, total + double(bytes));
        if (total > reserved) {
            reserved = total * 1.25;
            device.reserved.x.push_back(time);
            device.reserved.bytes.push_back(reserved);
        }
        device.allocated.x.push_back(time);
        device.allocated.bytes.push_back(total);
        device.events.push_back({ time, bytes, 0x7f0000000000ULL + std::uint64_t(i) * 512, -1, 0, -1 });
        time += 500 + std::int64_t(state % 1000);
    }
    profile->devices.push_back(std::move(device));
    return profile;
}

/// Median of `frames` timed calls of `frame`, each after an untimed call of `setup`.
double medianMs(int frames, const std::function<void()>& setup, const std::function<void()>& frame)
{
    std::vector<double> times;
    for (int f = 0; f < frames; ++f) {
        setup();
        QElapsedTimer timer;
        timer.start();
        frame();
        times.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    return bench::median(times);
}

void waitResampled(const MemoryChart& chart)
{
    while (chart.isResampling())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    // Options as `--name value` pairs; absent ones keep their defaults.
    const QStringList args = app.arguments();
    const auto option = [&args](const char* name, const QString& fallback) {
        const qsizetype at = args.indexOf(QLatin1String(name));
        return at > 0 && at + 1 < args.size() ? args[at + 1] : fallback;
    };
    const std::int64_t events = option("--events", QStringLiteral("2000000")).toLongLong();
    const int frames = std::max(1, option("--frames", QStringLiteral("15")).toInt());
    const QString pngDir = option("--png", {});
    QElapsedTimer timer;
    timer.start();
    const auto profile = makeProfile(events);
    const models::memory::MemoryDevice& device = profile->devices.front();
    std::printf("profile: %lld events, %zu allocated samples, %zu reserved samples, built in %lld ms\n",
                static_cast<long long>(device.events.size()), device.allocated.size(), device.reserved.size(),
                static_cast<long long>(timer.elapsed()));

    const QSize size(1920, 600);
    const std::int64_t start = device.allocated.x.front();
    const std::int64_t end = device.allocated.x.back();
    TimeRangeModel range;
    range.setTraceRange(start, end);
    MemoryChart chart;
    chart.resize(size);
    chart.setTimeRangeModel(&range);
    timer.restart();
    chart.setDevices({ { profile, 0, device.label } }, models::memory::MemoryAxis::TimeNs, start);
    waitResampled(chart);
    std::printf("setDevices + first downsampling: %lld ms\n", static_cast<long long>(timer.elapsed()));

    // The peer: the raw curve in a plain QCustomPlot of the same size.
    QCustomPlot peer;
    peer.resize(size);
    QCPGraph* raw = peer.addGraph();
    raw->setLineStyle(QCPGraph::lsStepLeft);
    raw->setPen(QPen(Qt::blue, 1.5));
    {
        QVector<QCPGraphData> data;
        data.reserve(qsizetype(device.allocated.size()));
        for (std::size_t i = 0; i < device.allocated.size(); ++i)
            data.append(QCPGraphData(double(device.allocated.x[i] - start) / 1e6, device.allocated.bytes[i]));
        raw->data()->set(data, true);
    }
    peer.yAxis->setRange(chart.yAxis->range());

    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    struct Case
    {
        const char* name;
        double fraction;
    };
    bool ok = true;
    std::vector<std::string> results;
    for (const Case& c :
         { Case { "full range", 1.0 }, Case { "zoomed (1/100)", 0.01 }, Case { "zoomed (1/10000)", 1e-4 } }) {
        const std::int64_t mid = start + (end - start) / 3;
        const auto span = std::max<std::int64_t>(1000, std::int64_t(double(end - start) * c.fraction));
        // Each frame comes from another range, so that it pays for its downsampling.
        const double ours = medianMs(
            frames,
            [&] {
                range.setVisibleRange(end - 1000, end);
                waitResampled(chart);
            },
            [&] {
                range.setVisibleRange(mid - span / 2, mid - span / 2 + span);
                waitResampled(chart);
                image.fill(Qt::white);
                QCPPainter painter(&image);
                chart.renderTo(&painter, size);
            });
        const double repaint = medianMs(
            frames, [] {},
            [&] {
                image.fill(Qt::white);
                QCPPainter painter(&image);
                chart.renderTo(&painter, size);
            });
        peer.xAxis->setRange(chart.xAxis->range());
        const double theirs = medianMs(
            frames, [] {},
            [&] {
                image.fill(Qt::white);
                QCPPainter painter(&image);
                peer.toPainter(&painter, size.width(), size.height());
            });
        std::printf("%-17s downsample + frame %7.2f ms (%d points drawn of %zu)  repaint, downsampled already %6.2f "
                    "ms  peer (raw curve) %7.2f ms  ratio %.1fx  %s\n",
                    c.name, ours, chart.maxDrawnPoints(), device.allocated.size(), repaint, theirs, theirs / ours,
                    ours <= 16.0 ? "ok (<= 16 ms)" : "over 16 ms");
        ok = ok && ours <= 16.0;
        results.push_back(
            bench::ratioLine(std::string("memory chart frame, ") + c.name + ", downsampling included",
                             { "RunLens", ours, frames, "1 thread at a time: the paint waits for the downsampling" },
                             { "QCustomPlot raw curve", theirs, frames, "1 thread" }));
        if (!pngDir.isEmpty()) {
            image.fill(Qt::white);
            {
                QCPPainter painter(&image);
                chart.renderTo(&painter, size);
            }
            image.save(pngDir + QStringLiteral("/memory_%1.png").arg(c.fraction));
        }
    }
    for (const std::string& line : results)
        std::printf("%s\n", line.c_str());
    return ok ? 0 : 1;
}
