#include "importers/profiler/profilerfolder.h"
#include "importers/profiler/profilerrunreader.h"
#include "importers/profiler/stepreader.h"

#include "tests/importers/profiler/profilertestutils.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace runlens::importers::profiler;
using namespace runlens::models::profiler;

using runlens::test::writeFile;

namespace {

bool hasAverageWarning(const runlens::models::Diagnostics& diagnostics)
{
    for (const runlens::models::Diagnostic& d : diagnostics) {
        if (d.message.contains(QStringLiteral("average row")))
            return true;
    }
    return false;
}

// python3 with its csv module: the number of steps, the "-" row's total/interval/fp+bp/tail, and the mean of the
// steps after the first for the same columns, all in 10 ns ticks.
const char* const kPythonStepCheck
    = "import csv,sys\n"
      "rows=list(csv.DictReader(open(sys.argv[1])))\n"
      "steps=[r for r in rows if r['step_num']!='-']\n"
      "avg=[r for r in rows if r['step_num']=='-'][0]\n"
      "cols=['total','iteration_interval','fp_and_bp','tail']\n"
      "rest=steps[1:] if len(steps)>1 else steps\n"
      "print(len(steps),' '.join(avg[c] for c in cols),"
      "' '.join(str(sum(float(r[c]) for r in rest)/len(rest)) for c in cols),"
      "sum(1 for c in rows[0] if c.startswith('stream_') and not c.endswith('_point')))\n";

} // namespace

class TestStepReader : public QObject
{
    Q_OBJECT

private slots:
    void stepTraceSamplesMatchPython_data();
    void stepTraceSamplesMatchPython();
    void pointInfo();
    void wrongAverageRowIsReported();
    void inferenceColumns();
    void stepTraceTime2x();
    void brokenStepRows();
    void rankReaderPrefersNewLayout();
};

void TestStepReader::stepTraceSamplesMatchPython_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("run_1") << "run_1_profiler/step_trace_raw_1_detail_time.csv";
    QTest::newRow("misc rank 0") << "profiler_misc/step_trace_raw_0_detail_time.csv";
    QTest::newRow("misc rank 1") << "profiler_misc/step_trace_raw_1_detail_time.csv";
    QTest::newRow("misc rank 10") << "profiler_misc/step_trace_raw_10_detail_time.csv";
}

void TestStepReader::stepTraceSamplesMatchPython()
{
    QFETCH(QString, file);
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/profiler/mindspore/") + file;
    RUNLENS_PYTHON_ORACLE(python, { QStringLiteral("-c"), QString::fromLatin1(kPythonStepCheck), path });
    const QStringList numbers = python.simplified().split(QLatin1Char(' '));
    QCOMPARE(numbers.size(), 10);

    runlens::models::Diagnostics diagnostics;
    const StepSeries series = readStepTraceRaw(path, diagnostics);
    QCOMPARE(qsizetype(series.steps.size()), numbers[0].toLongLong());
    QCOMPARE(
        series.categoryIds,
        QStringList({ QStringLiteral("iteration_interval"), QStringLiteral("fp_and_bp"), QStringLiteral("tail") }));
    QCOMPARE(series.steps.front().number, 1);
    QCOMPARE(qsizetype(series.extraIds.size()), numbers[9].toLongLong());
    QVERIFY(series.fileAverage.has_value());

    // The "-" row as read equals the file's numbers (ticks of 10 ns -> µs).
    QCOMPARE(series.fileAverage->totalUs, numbers[1].toDouble() * 0.01);
    for (int c = 0; c < 3; ++c)
        QCOMPARE(series.fileAverage->valuesUs[std::size_t(c)], numbers[2 + c].toDouble() * 0.01);
    // The computed average equals python's mean of the steps after the first ...
    QVERIFY(std::fabs(series.average.totalUs - numbers[5].toDouble() * 0.01) < 1e-6);
    for (int c = 0; c < 3; ++c)
        QVERIFY(std::fabs(series.average.valuesUs[std::size_t(c)] - numbers[6 + c].toDouble() * 0.01) < 1e-6);
    // ... and the "-" row equals that mean within MindSpore's rounding to whole ticks, so no warning.
    QVERIFY(std::fabs(series.fileAverage->totalUs - series.average.totalUs) <= 0.01);
    for (int c = 0; c < 3; ++c)
        QVERIFY(std::fabs(series.fileAverage->valuesUs[std::size_t(c)] - series.average.valuesUs[std::size_t(c)])
                <= 0.01);
    QVERIFY2(!hasAverageWarning(diagnostics), qPrintable(diagnostics.value(0).toString()));
    QVERIFY2(diagnostics.isEmpty(), qPrintable(diagnostics.value(0).toString()));
    // Each step's stack adds up to its total.
    for (const StepSeries::Step& step : series.steps) {
        double sum = 0.0;
        for (double v : step.valuesUs)
            sum += v;
        QVERIFY(std::fabs(sum - step.totalUs) < 0.02);
    }
}

void TestStepReader::pointInfo()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    StepSeries series;
    runlens::models::Diagnostics diagnostics;
    readStepTracePoints(samples + QStringLiteral("/profiler/mindspore/run_1_profiler/step_trace_point_info.json"),
                        series, diagnostics);
    QCOMPARE(series.fpStart, QStringLiteral("Default/Cast-op6"));
    QCOMPARE(series.bpEnd, QStringLiteral("Default/TransData-op7"));
    QVERIFY(diagnostics.isEmpty());

    QTemporaryDir temp;
    writeFile(temp.filePath(QStringLiteral("list.json")), "[{\"fp_start\": \"a\", \"bp_end\": \"b\"}]");
    writeFile(temp.filePath(QStringLiteral("graphs.json")), "{\"1\": {\"fp_start\": \"c\", \"bp_end\": \"d\"}}");
    writeFile(temp.filePath(QStringLiteral("broken.json")), "{\"fp_start\": ");
    readStepTracePoints(temp.filePath(QStringLiteral("list.json")), series, diagnostics);
    QCOMPARE(series.bpEnd, QStringLiteral("b"));
    readStepTracePoints(temp.filePath(QStringLiteral("graphs.json")), series, diagnostics);
    QCOMPARE(series.fpStart, QStringLiteral("c"));
    readStepTracePoints(temp.filePath(QStringLiteral("broken.json")), series, diagnostics);
    QCOMPARE(diagnostics.size(), 1);
    QCOMPARE(diagnostics.first().file, temp.filePath(QStringLiteral("broken.json")));
}

void TestStepReader::wrongAverageRowIsReported()
{
    QTemporaryDir temp;
    const QString path = temp.filePath(QStringLiteral("step_trace_raw_0_detail_time.csv"));
    // Steps 2 and 3 average 200/100/100 ticks of interval/fp+bp/tail; the "-" row claims far more.
    writeFile(path,
              "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n"
              "1,0,900,900,0,0,300,300,300\n"
              "2,0,400,400,0,0,200,100,100\n"
              "3,0,400,400,0,0,200,100,100\n"
              "-,0,0,999,0,0,333,333,333\n");
    runlens::models::Diagnostics diagnostics;
    const StepSeries series = readStepTraceRaw(path, diagnostics);
    QCOMPARE(series.steps.size(), std::size_t(3));
    QCOMPARE(series.average.totalUs, 4.0);
    QCOMPARE(series.average.valuesUs[0], 2.0);
    QVERIFY(hasAverageWarning(diagnostics));
    QCOMPARE(diagnostics.first().line, 5);
    QCOMPARE(diagnostics.first().file, path);

    // A writer that averages every step is accepted too.
    const QString all = temp.filePath(QStringLiteral("step_trace_raw_1_detail_time.csv"));
    writeFile(all,
              "step_num,total,iteration_interval,fp_and_bp,tail\n"
              "1,900,300,300,300\n2,400,200,100,100\n3,400,200,100,100\n-,567,233,167,167\n");
    runlens::models::Diagnostics second;
    readStepTraceRaw(all, second);
    QVERIFY2(second.isEmpty(), qPrintable(second.value(0).toString()));
}

void TestStepReader::inferenceColumns()
{
    QTemporaryDir temp;
    const QString path = temp.filePath(QStringLiteral("step_trace_raw_0_detail_time.csv"));
    writeFile(path,
              "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp\n"
              "1,0,300,300,0,0,100,200\n");
    runlens::models::Diagnostics diagnostics;
    const StepSeries series = readStepTraceRaw(path, diagnostics);
    QCOMPARE(series.categoryIds, QStringList({ QStringLiteral("iteration_interval"), QStringLiteral("fp") }));
    QCOMPARE(series.steps.size(), std::size_t(1));
    QCOMPARE(series.steps[0].valuesUs[1], 2.0);
    QCOMPARE(series.average.totalUs, 3.0); // one step: the mean is that step
    QVERIFY(!series.fileAverage);
}

void TestStepReader::stepTraceTime2x()
{
    QTemporaryDir temp;
    const QString path = temp.filePath(QStringLiteral("step_trace_time.csv"));
    writeFile(path,
              "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
              "Communication(Not Overlapped and Exclude Receive),Preparing\r\n"
              "1,1000.5,200,50,250,99.5,0,0,200,10\r\n"
              "2,900,100,40,140,0,0,0,100,\r\n"
              "3,950,150,45,195,100,0,0,150,12\r\n");
    runlens::models::Diagnostics diagnostics;
    const StepSeries series = readStepTraceTime(path, diagnostics);
    QVERIFY2(diagnostics.isEmpty(), qPrintable(diagnostics.value(0).toString()));
    QCOMPARE(series.categoryIds,
             QStringList({ QStringLiteral("computing"), QStringLiteral("communication_not_overlapped"),
                           QStringLiteral("free") }));
    QCOMPARE(series.extraIds.size(), 6);
    QCOMPARE(series.steps.size(), std::size_t(3));
    QCOMPARE(series.steps[0].totalUs, 1300.0);
    QCOMPARE(series.steps[1].number, 2);
    QVERIFY(std::isnan(series.steps[1].extrasUs[5])); // empty Preparing
    // Mean of steps 2 and 3 (the first carries the warm-up).
    QCOMPARE(series.average.valuesUs[0], 925.0);
    QCOMPARE(series.average.totalUs, 1100.0); // (1000 + 1200) / 2
    QCOMPARE(series.average.extrasUs[0], 42.5);
    QCOMPARE(series.average.extrasUs[5], 12.0); // only step 3 has it
}

void TestStepReader::brokenStepRows()
{
    QTemporaryDir temp;
    const QString path = temp.filePath(QStringLiteral("step_trace_raw_0_detail_time.csv"));
    writeFile(path,
              "step_num,total,iteration_interval,fp_and_bp,tail\n1,300,100,100,100\nx,1,2,3\n2,300,100,,100\n"
              "3,600,200,200,200\n");
    runlens::models::Diagnostics diagnostics;
    const StepSeries series = readStepTraceRaw(path, diagnostics);
    QCOMPARE(series.steps.size(), std::size_t(2));
    QCOMPARE(series.steps[1].number, 3);
    int rowProblems = 0;
    for (const runlens::models::Diagnostic& d : diagnostics)
        rowProblems += d.message.contains(QStringLiteral("left out")) && (d.line == 3 || d.line == 4);
    QCOMPARE(rowProblems, 2);

    runlens::models::Diagnostics missing;
    const QString none = temp.filePath(QStringLiteral("step_trace_time.csv"));
    writeFile(none, "Step,Something\n1,2\n");
    QVERIFY(readStepTraceTime(none, missing).isEmpty());
    QCOMPARE(missing.size(), 1);
    QCOMPARE(missing.first().severity, runlens::models::Severity::Error);
}

void TestStepReader::rankReaderPrefersNewLayout()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const auto run = readProfilerDirectory(samples + QStringLiteral("/profiler/mindspore/run_1_profiler"));
    QCOMPARE(run->ranks.size(), std::size_t(1));
    const ProfilerRankData& rank = run->ranks.front();
    QCOMPARE(rank.rank, 1);
    QCOMPARE(rank.deviceType, DeviceType::Ascend);
    QCOMPARE(rank.steps.steps.size(), std::size_t(322));
    QCOMPARE(rank.steps.fpStart, QStringLiteral("Default/Cast-op6"));
    QVERIFY(!rank.operators.isEmpty());
    QVERIFY2(rank.diagnostics.isEmpty(), qPrintable(rank.diagnostics.value(0).toString()));

    const QJsonObject info = rankInfoJson(rank);
    QCOMPARE(info.value(QStringLiteral("rank")).toInt(), 1);
    QCOMPARE(info.value(QStringLiteral("device")).toString(), QStringLiteral("ascend"));
    const QJsonObject steps = info.value(QStringLiteral("steps")).toObject();
    QCOMPARE(steps.value(QStringLiteral("count")).toInt(), 322);
    QCOMPARE(steps.value(QStringLiteral("average_us")).toDouble(), rank.steps.average.totalUs);
    QCOMPARE(steps.value(QStringLiteral("categories")).toObject().size(), 3);
    const QJsonObject operators = info.value(QStringLiteral("operators")).toObject();
    QCOMPARE(operators.value(QStringLiteral("types")).toInt(), int(rank.operators.types.size()));
    QCOMPARE(operators.value(QStringLiteral("top")).toArray().size(), 5);
    QCOMPARE(
        operators.value(QStringLiteral("top")).toArray().first().toObject().value(QStringLiteral("type")).toString(),
        rank.operators.types.front().type);
}

QTEST_GUILESS_MAIN(TestStepReader)
#include "tst_stepreader.moc"
