#include "importers/summary/eventfilewriter.h"
#include "models/advisor/advisor.h"
#include "models/advisor/evidence.h"
#include "tests/models/advisor/accuracytestutils.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace runlens;
using namespace runlens::models::advisor;
using test::describe;
using test::findingsOf;
using test::statusOf;

namespace {

constexpr double kStart = 1'700'000'000.0;

using Metrics = std::map<QString, std::vector<double>>;

/// Writes `metrics` as `system/<metric>` scalars, one sample per second, into ROOT/RUN/ with the project's event
/// writer, as `runlens record` lays them out.
void writeSystem(const QString& root, const QString& run, const Metrics& metrics)
{
    const QString dir = root + QLatin1Char('/') + run;
    QVERIFY(QDir().mkpath(dir));
    importers::summary::EventFileWriter writer;
    QVERIFY(writer.open(dir + QLatin1Char('/') + importers::summary::EventFileWriter::tensorBoardFileName()));
    QVERIFY(writer.writeFileVersion(kStart));
    std::size_t samples = 0;
    for (const auto& [name, values] : metrics)
        samples = std::max(samples, values.size());
    for (std::size_t i = 0; i < samples; ++i) {
        std::vector<importers::summary::EventFileWriter::NamedValue> values;
        for (const auto& [name, series] : metrics) {
            if (i < series.size())
                values.push_back({ QStringLiteral("system/") + name, series[i] });
        }
        QVERIFY(writer.writeScalars(qint64(i), kStart + double(i), values));
    }
    QVERIFY(writer.close());
}

std::vector<double> constant(int n, double value)
{
    return std::vector<double>(std::size_t(n), value);
}

std::vector<double> alternating(int n, double busy, int period)
{
    std::vector<double> v;
    for (int i = 0; i < n; ++i)
        v.push_back((i / period) % 2 == 0 ? 0.0 : busy);
    return v;
}

} // namespace

class TestSystemAnalysis : public QObject
{
    Q_OBJECT

private:
    RuleBook m_rules = RuleBook::builtIn();

private slots:
    void rulesAreLoaded()
    {
        QStringList problems;
        const RuleBook rules = RuleBook::builtIn(&problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        for (const char* id : { "system-gpu-idle-cpu-busy", "system-gpu-alternating", "system-swap",
                                "system-memory-low", "system-ib-below-peers", "system-rank-imbalance" }) {
            QVERIFY2(rules.rule(QLatin1String(id)), id);
            QCOMPARE(rules.rule(QLatin1String(id))->evidence, QStringLiteral("system"));
        }
    }

    void withoutSystemMetricsNothingIsEvaluated()
    {
        QTemporaryDir dir;
        importers::summary::EventFileWriter writer;
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("tb"))));
        QVERIFY(writer.open(
            dir.filePath(QStringLiteral("tb/") + importers::summary::EventFileWriter::tensorBoardFileName())));
        QVERIFY(writer.writeFileVersion());
        QVERIFY(writer.writeScalar(QStringLiteral("train/loss"), 0, kStart, 1.0));
        QVERIFY(writer.close());
        const AdvisorReport report = evaluate(test::loadRun(dir.path()), m_rules);
        const RuleStatus* status = statusOf(report, QStringLiteral("system-gpu-idle-cpu-busy"));
        QVERIFY(status && !status->evaluated);
        QVERIFY2(status->reason.contains(QStringLiteral("runlens record")), qPrintable(status->reason));
    }

    void cpuBoundGpuIdleFires()
    {
        QTemporaryDir dir;
        // Rank 0: 10 s of healthy training, then 30 s with the CPU busy and the GPU at 20 %.
        std::vector<double> gpu = constant(10, 95);
        std::vector<double> cpu = constant(10, 30);
        for (int i = 0; i < 30; ++i) {
            gpu.push_back(20);
            cpu.push_back(85);
        }
        writeSystem(dir.path(), QStringLiteral("system/rank_0"),
                    { { QStringLiteral("gpu0_util_percent"), gpu }, { QStringLiteral("cpu_busy_percent"), cpu } });
        // Rank 1: the CPU as busy, the GPU busy too: healthy.
        writeSystem(dir.path(), QStringLiteral("system/rank_1"),
                    { { QStringLiteral("gpu0_util_percent"), constant(40, 92) },
                      { QStringLiteral("cpu_busy_percent"), constant(40, 85) } });
        const AdvisorReport report = evaluate(test::loadRun(dir.path()), m_rules);
        const QList<Finding> findings = findingsOf(report, QStringLiteral("system-gpu-idle-cpu-busy"));
        QVERIFY2(findings.size() == 1, qPrintable(describe(findings)));
        const Finding& f = findings.front();
        QCOMPARE(f.scope.rank, std::optional<int>(0));
        QCOMPARE(f.value, 20.0);
        QVERIFY2(f.message.contains(QStringLiteral("rank 0")), qPrintable(f.message));
        // The time range is the CPU-busy stretch, in the message and in the evidence.
        const std::optional<Evidence> evidence = parseEvidence(f.evidence.value(0));
        QVERIFY(evidence);
        QCOMPARE(evidence->kind, QStringLiteral("system"));
        QCOMPARE(evidence->value(QStringLiteral("run")), QStringLiteral("system/rank_0"));
        QCOMPARE(evidence->value(QStringLiteral("rank")), QStringLiteral("0"));
        QCOMPARE(evidence->value(QStringLiteral("start")).toDouble(), kStart + 10);
        QCOMPARE(evidence->value(QStringLiteral("end")).toDouble(), kStart + 39);
        const QString start
            = QDateTime::fromMSecsSinceEpoch(qint64((kStart + 10) * 1000)).toString(QStringLiteral("hh:mm:ss"));
        QVERIFY2(f.message.contains(start), qPrintable(f.message));
    }

    void gpuIdleWithIdleCpuDoesNotFire()
    {
        QTemporaryDir dir;
        writeSystem(dir.path(), QStringLiteral("system/rank_0"),
                    { { QStringLiteral("gpu0_util_percent"), constant(40, 10) },
                      { QStringLiteral("cpu_busy_percent"), constant(40, 20) } });
        const AdvisorReport report = evaluate(test::loadRun(dir.path()), m_rules);
        QVERIFY(statusOf(report, QStringLiteral("system-gpu-idle-cpu-busy"))->evaluated);
        QVERIFY(findingsOf(report, QStringLiteral("system-gpu-idle-cpu-busy")).isEmpty());
        // Idle all along is not alternating.
        QVERIFY(statusOf(report, QStringLiteral("system-gpu-alternating"))->evaluated);
        QVERIFY(findingsOf(report, QStringLiteral("system-gpu-alternating")).isEmpty());
    }

    void alternatingGpuFires()
    {
        QTemporaryDir dir;
        writeSystem(dir.path(), QStringLiteral("host-a"),
                    { { QStringLiteral("gpu0_util_percent"), constant(40, 97) },
                      { QStringLiteral("gpu1_util_percent"), alternating(40, 97, 3) } });
        const AdvisorReport report = evaluate(test::loadRun(dir.path()), m_rules);
        const QList<Finding> findings = findingsOf(report, QStringLiteral("system-gpu-alternating"));
        QVERIFY2(findings.size() == 1, qPrintable(describe(findings)));
        QVERIFY2(findings.front().message.contains(QStringLiteral("gpu1")), qPrintable(findings.front().message));
        QVERIFY(findings.front().value >= 50.0);
        QCOMPARE(findings.front().scope.rank, std::nullopt);
    }

    void memoryRules()
    {
        QTemporaryDir dir;
        std::vector<double> available = constant(20, 40);
        available[12] = 3.5;
        available[13] = 2.0;
        std::vector<double> swap = constant(20, 10);
        for (int i = 14; i < 20; ++i)
            swap[std::size_t(i)] = 10 + 50.0 * (i - 13);
        writeSystem(dir.path(), QStringLiteral("system/rank_0"),
                    { { QStringLiteral("mem_available_percent"), available },
                      { QStringLiteral("swap_used_MiB"), swap },
                      { QStringLiteral("mem_used_MiB"), constant(20, 60000) } });
        writeSystem(dir.path(), QStringLiteral("system/rank_1"),
                    { { QStringLiteral("mem_available_percent"), constant(20, 40) },
                      { QStringLiteral("swap_used_MiB"), constant(20, 500) } });
        const AdvisorReport report = evaluate(test::loadRun(dir.path()), m_rules);
        const QList<Finding> low = findingsOf(report, QStringLiteral("system-memory-low"));
        QVERIFY2(low.size() == 1, qPrintable(describe(low)));
        QCOMPARE(low.front().scope.rank, std::optional<int>(0));
        QCOMPARE(low.front().value, 2.0);
        const std::optional<Evidence> evidence = parseEvidence(low.front().evidence.value(0));
        QCOMPARE(evidence->value(QStringLiteral("start")).toDouble(), kStart + 12);
        QCOMPARE(evidence->value(QStringLiteral("end")).toDouble(), kStart + 13);
        // Swap grew by 300 MiB on rank 0; rank 1 holds 500 MiB of swap that it did not add to.
        const QList<Finding> swapped = findingsOf(report, QStringLiteral("system-swap"));
        QVERIFY2(swapped.size() == 1, qPrintable(describe(swapped)));
        QCOMPARE(swapped.front().value, 300.0);
        QCOMPARE(swapped.front().scope.rank, std::optional<int>(0));
    }

    void peersRules()
    {
        QTemporaryDir dir;
        // Four ranks; rank 3 moves a tenth of the others' InfiniBand traffic and its GPU is half as busy.
        for (int rank = 0; rank < 4; ++rank) {
            writeSystem(dir.path(), QStringLiteral("job/rank_%1").arg(rank),
                        { { QStringLiteral("gpu0_util_percent"), constant(30, rank == 3 ? 40 : 80) },
                          { QStringLiteral("ib_mlx5_0_1_rx_MiB_per_s"), constant(30, rank == 3 ? 100 : 1000) },
                          { QStringLiteral("ib_mlx5_0_1_tx_MiB_per_s"), constant(30, rank == 3 ? 100 : 1000) } });
        }
        const AdvisorReport report = evaluate(test::loadRun(dir.path()), m_rules);
        const QList<Finding> ib = findingsOf(report, QStringLiteral("system-ib-below-peers"));
        QVERIFY2(ib.size() == 1, qPrintable(describe(ib)));
        QCOMPARE(ib.front().scope.rank, std::optional<int>(3));
        QCOMPARE(ib.front().value, 10.0);
        // Median 80: rank 3 is 50 % below; the others on it.
        const QList<Finding> imbalance = findingsOf(report, QStringLiteral("system-rank-imbalance"));
        QVERIFY2(imbalance.size() == 1, qPrintable(describe(imbalance)));
        QCOMPARE(imbalance.front().scope.rank, std::optional<int>(3));
        QCOMPARE(imbalance.front().value, 50.0);
        QVERIFY2(imbalance.front().message.contains(QStringLiteral("GPU utilisation")),
                 qPrintable(imbalance.front().message));
    }

    void balancedRanksDoNotFire()
    {
        QTemporaryDir dir;
        for (int rank = 0; rank < 3; ++rank) {
            writeSystem(dir.path(), QStringLiteral("job/rank_%1").arg(rank),
                        { { QStringLiteral("process_cpu_percent"), constant(30, 100 + 5 * rank) },
                          { QStringLiteral("ib_mlx5_0_1_rx_MiB_per_s"), constant(30, 900 + 50 * rank) } });
        }
        const AdvisorReport report = evaluate(test::loadRun(dir.path()), m_rules);
        QVERIFY(statusOf(report, QStringLiteral("system-rank-imbalance"))->evaluated);
        QVERIFY(findingsOf(report, QStringLiteral("system-rank-imbalance")).isEmpty());
        QVERIFY(statusOf(report, QStringLiteral("system-ib-below-peers"))->evaluated);
        QVERIFY(findingsOf(report, QStringLiteral("system-ib-below-peers")).isEmpty());
        // Without GPUs the GPU rules say why they were not evaluated.
        const RuleStatus* gpu = statusOf(report, QStringLiteral("system-gpu-alternating"));
        QVERIFY(gpu && !gpu->evaluated);
        QVERIFY2(gpu->reason.contains(QStringLiteral("GPU")), qPrintable(gpu->reason));
    }
};

QTEST_GUILESS_MAIN(TestSystemAnalysis)
#include "tst_systemanalysis.moc"
