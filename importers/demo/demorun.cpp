#include "importers/demo/demorun.h"

#include "importers/demo/demograph.h"
#include "importers/demo/demonoise.h"
#include "importers/demo/demotensors.h"
#include "importers/demo/demotrace.h"
#include "importers/summary/eventfilewriter.h"

#include <QCoreApplication>
#include <QDir>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace runlens::importers::demo {

namespace {

using Noise = DemoNoise;

struct Schedule
{
    QString name;
    quint64 seed;
    qint64 startTime;
    double (*learningRate)(int step);
    double floor; ///< the loss it converges to
    double speed; ///< how fast it gets there
};

double stepDecay(int step)
{
    return step < 600 ? 0.1 : 0.01;
}

double warmupCosine(int step)
{
    constexpr int kWarmup = 100;
    if (step < kWarmup)
        return 0.1 * double(step + 1) / kWarmup;
    const double progress = double(step - kWarmup) / double(DemoRun::kSteps - kWarmup);
    return 0.0005 + 0.5 * (0.1 - 0.0005) * (1.0 + std::cos(std::numbers::pi * progress));
}

/// The distribution of `count` roughly normal values (mean, spread) in 30 equal buckets, as a writer
/// would summarise a layer's weights or gradients.
models::summary::Histogram sampleHistogram(Noise& noise, double mean, double spread, int count = 2000)
{
    std::vector<double> values(static_cast<std::size_t>(count));
    models::summary::Histogram h;
    h.min = std::numeric_limits<double>::infinity();
    h.max = -h.min;
    h.sum = 0.0;
    h.sumSquares = 0.0;
    for (double& v : values) {
        v = mean + spread * noise.gaussian();
        h.min = std::min(h.min, v);
        h.max = std::max(h.max, v);
        h.sum += v;
        h.sumSquares += v * v;
    }
    h.count = count;
    constexpr int kBuckets = 30;
    const double width = (h.max - h.min) / kBuckets;
    for (int b = 0; b < kBuckets; ++b)
        h.buckets.push_back({ h.min + b * width, b + 1 == kBuckets ? h.max : h.min + (b + 1) * width, 0.0 });
    for (const double v : values)
        h.buckets[std::size_t(std::clamp(int((v - h.min) / width), 0, kBuckets - 1))].count += 1.0;
    return h;
}

bool writeRun(const QDir& root, const Schedule& schedule, QString* error)
{
    if (!root.mkpath(schedule.name)) {
        if (error)
            *error = QCoreApplication::translate("runlens::importers::demo::DemoRun", "cannot create the folder %1")
                         .arg(root.filePath(schedule.name));
        return false;
    }
    const QString path = QDir(root.filePath(schedule.name))
                             .filePath(summary::EventFileWriter::tensorBoardFileName(
                                 schedule.startTime, QStringLiteral("runlens-demo"), 4242, 0));
    summary::EventFileWriter writer;
    if (!writer.open(path)) {
        if (error)
            *error = writer.errorString();
        return false;
    }
    Noise noise(schedule.seed);
    writer.writeFileVersion(double(schedule.startTime));
    double wallTime = double(schedule.startTime);
    double progress = 0.0; // accumulated learning: lr-weighted steps
    for (int step = 0; step < DemoRun::kSteps; ++step) {
        const double lr = schedule.learningRate(step);
        progress += lr * schedule.speed;
        wallTime += 0.21 + 0.02 * noise.next();
        const double clean = schedule.floor + (2.3 - schedule.floor) * std::exp(-progress / 4.0);
        const double loss = std::max(0.01, clean * (1.0 + 0.08 * noise.gaussian()));
        const double accuracy = std::clamp(1.0 - clean / 2.5 + 0.02 * noise.gaussian(), 0.0, 1.0);
        writer.writeScalar(QStringLiteral("train/loss"), step, wallTime, loss);
        writer.writeScalar(QStringLiteral("train/accuracy"), step, wallTime, accuracy);
        writer.writeScalar(QStringLiteral("train/learning_rate"), step, wallTime, lr);
        writer.writeScalar(QStringLiteral("perf/samples_per_second"), step, wallTime,
                           1180.0 + 25.0 * noise.gaussian() + 40.0 * std::sin(step / 40.0)
                               - (step % 200 == 0 ? 300.0 : 0.0));
        if (step % DemoRun::kHistogramEvery == 0) {
            // Weights spread out as they learn; gradients shrink with the loss.
            const summary::EventFileWriter::NamedHistogram layers[] = {
                { QStringLiteral("weights/fc1"),
                  sampleHistogram(noise, 0.0, 0.05 + 0.04 * (1.0 - std::exp(-progress / 6.0))) },
                { QStringLiteral("gradients/fc1"), sampleHistogram(noise, 0.0, 0.02 * clean) },
            };
            writer.writeHistograms(step, wallTime, layers);
        }
        if ((step + 1) % DemoRun::kEvalEvery == 0) {
            wallTime += 2.5;
            const double evalLoss = clean * 1.08 + 0.02 * noise.gaussian() + 0.00012 * step * (schedule.seed % 2);
            writer.writeScalar(QStringLiteral("eval/loss"), step, wallTime, evalLoss);
            writer.writeScalar(QStringLiteral("eval/accuracy"), step, wallTime,
                               std::clamp(1.0 - evalLoss / 2.5, 0.0, 1.0));
        }
    }
    if (!writer.close()) {
        if (error)
            *error = writer.errorString();
        return false;
    }
    return true;
}

} // namespace

QStringList DemoRun::runNames()
{
    return { QStringLiteral("baseline"), QStringLiteral("warmup_cosine") };
}

QStringList DemoRun::tags()
{
    return { QStringLiteral("eval/accuracy"),           QStringLiteral("eval/loss"),
             QStringLiteral("perf/samples_per_second"), QStringLiteral("train/accuracy"),
             QStringLiteral("train/learning_rate"),     QStringLiteral("train/loss") };
}

bool DemoRun::write(const QString& directory, QString* error)
{
    QDir root(directory);
    if (!root.mkpath(QStringLiteral("."))) {
        if (error)
            *error = QCoreApplication::translate("runlens::importers::demo::DemoRun", "cannot create the folder %1")
                         .arg(directory);
        return false;
    }
    const Schedule schedules[] = {
        { runNames().at(0), 17, 1767225600, &stepDecay, 0.32, 0.55 },
        { runNames().at(1), 42, 1767229200, &warmupCosine, 0.18, 0.75 },
    };
    for (const Schedule& schedule : schedules) {
        if (!writeRun(root, schedule, error))
            return false;
    }
    // What the first run also recorded: a profile of a few steps, its model graph and weight dumps.
    const QDir profiled(root.filePath(schedules[0].name));
    return DemoTrace::write(profiled.filePath(QStringLiteral("profiler")), schedules[0].startTime, error)
        && DemoGraph::write(profiled.filePath(QStringLiteral("graph")), error)
        && DemoTensors::write(profiled.filePath(QStringLiteral("dump")), error);
}

} // namespace runlens::importers::demo
