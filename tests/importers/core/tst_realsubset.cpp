#include "importers/core/runscanner.h"
#include "importers/profiler/stepreader.h"
#include "importers/summary/eventfilereader.h"
#include "importers/trace/chrometracereader.h"

#include "tests/importers/summary/pollresult.h"

#include <QDir>
#include <QFileInfo>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::models;

namespace {

const QString kReal = QStringLiteral(RUNLENS_TEST_DATA_DIR "/real");

QString realFile(const char* name)
{
    return kReal + QLatin1Char('/') + QLatin1String(name);
}

QString describe(const Diagnostics& diagnostics)
{
    QStringList lines;
    for (const Diagnostic& d : diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

bool hasError(const Diagnostics& diagnostics)
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

} // namespace

Q_DECLARE_METATYPE(runlens::models::ArtifactKind)

// Conformance on tests/data/real: one small file of each major writer (see its README.md), committed so that
// this much runs on every checkout, with or without ../shared/samples.
class TestRealSubset : public QObject
{
    Q_OBJECT

private slots:
    void scannerClassifiesEveryFile_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<ArtifactKind>("kind");
        QTest::newRow("torch 1.13 profiler") << "torch113_cpu.pt.trace.json" << ArtifactKind::ChromeTrace;
        QTest::newRow("kineto") << "mi250_minitoy_train_ROCm6_2_kineto.json.gz" << ArtifactKind::ChromeTrace;
        QTest::newRow("SummaryWriter") << "events.out.tfevents.1771594466.zyzkings.21024.0"
                                       << ArtifactKind::TensorBoardEvents;
        QTest::newRow("MindSpore summary")
            << "events.out.events.summary.1700000000.0.helperhost_MS" << ArtifactKind::MindSporeSummary;
        QTest::newRow("MindSpore step trace") << "step_trace_raw_0_detail_time.csv" << ArtifactKind::ProfilerCsv;
    }

    void scannerClassifiesEveryFile()
    {
        QFETCH(QString, name);
        QFETCH(ArtifactKind, kind);
        const RunManifest manifest = RunScanner().scan(kReal);
        const auto found = std::find_if(manifest.artifacts.begin(), manifest.artifacts.end(),
                                        [&name](const Artifact& a) { return QFileInfo(a.path).fileName() == name; });
        QVERIFY2(found != manifest.artifacts.end(), qPrintable(name));
        QCOMPARE(artifactKindId(found->kind), artifactKindId(kind));
    }

    void torchProfilerTrace()
    {
        // make_torch_trace.py: 5 iterations under a schedule of 1 wait, 1 warmup, 3 active steps.
        const importers::trace::ChromeTraceResult result
            = importers::trace::ChromeTraceReader::read({ realFile("torch113_cpu.pt.trace.json") });
        QVERIFY2(!hasError(result.diagnostics), qPrintable(describe(result.diagnostics)));
        QVERIFY(result.store);
        QCOMPARE(result.store->sources().size(), std::size_t(1));
        QCOMPARE(result.store->sources()[0].events, std::uint64_t(342));
        QCOMPARE(result.store->sources()[0].eventsByPhase[int('X')], std::uint64_t(342));
        QCOMPARE(result.store->steps().size(), std::size_t(3));
        QVERIFY(result.store->endTime() > result.store->startTime());
    }

    void kinetoTrace()
    {
        // MANIFEST.tsv: events=220; ProfilerStep=3 (copies on the GPU tracks are not steps);
        // phases=X:113,M:60,f:25,s:20,i:2.
        const importers::trace::ChromeTraceResult result
            = importers::trace::ChromeTraceReader::read({ realFile("mi250_minitoy_train_ROCm6_2_kineto.json.gz") });
        QVERIFY2(!hasError(result.diagnostics), qPrintable(describe(result.diagnostics)));
        QVERIFY(result.store);
        const models::trace::TraceSource& source = result.store->sources().at(0);
        QCOMPARE(source.events, std::uint64_t(220));
        QCOMPARE(source.eventsByPhase[int('X')], std::uint64_t(113));
        QCOMPARE(source.eventsByPhase[int('s')], std::uint64_t(20));
        QVERIFY(!result.store->steps().empty());
        QVERIFY(!result.store->flows().empty());
    }

    void eventFiles_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("mindSpore");
        QTest::addColumn<int>("tags");
        QTest::addColumn<int>("points");
        // MANIFEST.tsv: simple_value:200, tags=2.
        QTest::newRow("SummaryWriter") << "events.out.tfevents.1771594466.zyzkings.21024.0" << false << 2 << 200;
        // 20 steps of loss and learning_rate.
        QTest::newRow("MindSpore") << "events.out.events.summary.1700000000.0.helperhost_MS" << true << 2 << 40;
    }

    void eventFiles()
    {
        QFETCH(QString, name);
        QFETCH(bool, mindSpore);
        QFETCH(int, tags);
        QFETCH(int, points);
        const QString path = kReal + QLatin1Char('/') + name;
        importers::summary::EventFileReader reader(path,
                                                   mindSpore ? importers::summary::SummaryFlavor::MindSpore
                                                             : importers::summary::SummaryFlavor::TensorBoard);
        const test::PollResult result = test::pollOnce(reader);
        QCOMPARE(result.update.status, ImportStatus::Ok);
        QVERIFY2(result.collected.count(Severity::Error) == 0, qPrintable(describe(result.collected.diagnostics)));
        QCOMPARE(int(result.collected.series.size()), tags);
        QCOMPARE(result.collected.totalPoints(), qint64(points));
        QCOMPARE(reader.offset(), QFileInfo(path).size());
    }

    void mindSporeStepTrace()
    {
        // 20 steps, then the "-" row MindSpore writes with the average.
        Diagnostics diagnostics;
        const models::profiler::StepSeries series
            = importers::profiler::readStepTraceRaw(realFile("step_trace_raw_0_detail_time.csv"), diagnostics);
        QVERIFY2(!hasError(diagnostics), qPrintable(describe(diagnostics)));
        QCOMPARE(series.steps.size(), std::size_t(20));
        QCOMPARE(series.steps.front().number, 1);
        QCOMPARE(series.steps.back().number, 20);
        QVERIFY(series.fileAverage.has_value());
        // The first row: total 4003047 ticks of 10 ns.
        QCOMPARE(series.steps.front().totalUs, 4003047 * 0.01);
    }
};

QTEST_GUILESS_MAIN(TestRealSubset)
#include "tst_realsubset.moc"
