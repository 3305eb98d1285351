#include "demo/demorun.h"

#include "summary/eventfilewriter.h"

#include <QCoreApplication>
#include <QDir>

#include <cmath>
#include <numbers>

namespace runlens {

namespace {

/// A small deterministic noise source (the same curves on every machine and library).
class Noise
{
public:
    explicit Noise(quint64 seed)
        : m_state(seed)
    { }
    /// Uniform in [-1, 1).
    double next()
    {
        m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
        return double(m_state >> 11) / double(1ULL << 52) - 1.0;
    }
    /// Roughly normal (sum of uniforms), mean 0, standard deviation about 1.
    double gaussian() { return (next() + next() + next() + next()) * 0.866; }

private:
    quint64 m_state;
};

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

bool writeRun(const QDir& root, const Schedule& schedule, QString* error)
{
    if (!root.mkpath(schedule.name)) {
        if (error)
            *error = QCoreApplication::translate("runlens::DemoRun", "cannot create the folder %1")
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
                           1180.0 + 25.0 * noise.gaussian() + 40.0 * std::sin(step / 40.0) - (step % 200 == 0 ? 300.0 : 0.0));
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
            *error = QCoreApplication::translate("runlens::DemoRun", "cannot create the folder %1").arg(directory);
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
    return true;
}

} // namespace runlens
