#include "importers/summary/eventfilereader.h"

#include "tests/importers/summary/pollresult.h"

#include <QDir>
#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <csignal>

// `runlens record` run for real: a python child that works and allocates, its exit code, signals passed on.

using namespace runlens;
using namespace runlens::importers::summary;
using namespace runlens::models;
using namespace runlens::models::scalars;
using namespace runlens::test;

namespace {

const QString kPython = QStringLiteral("/usr/bin/python3");

struct Run
{
    int exitCode = -1;
    QString out, err;
};

Run record(const QStringList& arguments, int timeoutMs = 60000)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CACHE_HOME"), QDir::tempPath() + QStringLiteral("/runlens-test-cache"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(RUNLENS_EXECUTABLE), QStringList { QStringLiteral("record") } + arguments);
    Run r;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.out = QString::fromUtf8(process.readAllStandardOutput());
    r.err = QString::fromUtf8(process.readAllStandardError());
    return r;
}

QStringList eventFiles(const QString& folder)
{
    QStringList files;
    QDirIterator it(folder, { QStringLiteral("events.out.tfevents.*") }, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    return files;
}

Collected readAll(const QString& file)
{
    EventFileReader reader(file, SummaryFlavor::TensorBoard);
    return pollOnce(reader).collected;
}

std::vector<double> valuesOf(const Collected& collected, const QString& tag)
{
    std::vector<double> values;
    for (const ScalarPoint& point : collected.series.value(tag))
        values.push_back(point.value);
    return values;
}

/// A child that waits for `ready` on stdout and is then signalled.
struct Signalled
{
    int exitCode = -1;
    bool started = false;
};

Signalled signalWhenReady(const QString& script, int signal, const QStringList& options = {})
{
    QTemporaryDir dir;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CACHE_HOME"), dir.filePath(QStringLiteral("cache")));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(RUNLENS_EXECUTABLE),
                  QStringList { QStringLiteral("record"), QStringLiteral("--out"), dir.path() } + options
                      + QStringList { QStringLiteral("--"), kPython, QStringLiteral("-c"), script });
    Signalled s;
    s.started = process.waitForStarted(10000);
    QByteArray output;
    QElapsedTimer timer;
    timer.start();
    while (!output.contains("ready") && timer.elapsed() < 30000 && process.state() == QProcess::Running) {
        process.waitForReadyRead(200);
        output += process.readAllStandardOutput();
    }
    if (!output.contains("ready")) {
        process.kill();
        process.waitForFinished();
        return s;
    }
    ::kill(pid_t(process.processId()), signal);
    if (!process.waitForFinished(20000)) {
        process.kill();
        process.waitForFinished();
        return s;
    }
    s.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    return s;
}

} // namespace

class TestRecord : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY2(QFileInfo::exists(kPython), "the python oracle interpreter is missing"); }

    // The child spins and allocates 300 MiB (touched, so resident) over a second, then holds it: the samples show
    // its CPU and its resident memory rise, and the host's memory with it.
    void cpuAndMemoryRise()
    {
        QTemporaryDir dir;
        const QString script = QStringLiteral(R"(
import time
blocks = []
start = time.time()
while time.time() - start < 1.2:
    if len(blocks) < 300:
        blocks.append(bytearray(b'\x01') * (1 << 20))
    sum(range(20000))
time.sleep(0.6)
)");
        const ::Run r = record({ QStringLiteral("--interval"), QStringLiteral("200ms"), QStringLiteral("--out"),
                                 dir.path(), QStringLiteral("--"), kPython, QStringLiteral("-c"), script });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QLatin1String("samples of")), qPrintable(r.err));
        const QStringList files = eventFiles(dir.path() + QStringLiteral("/system"));
        QCOMPARE(files.size(), 1);
        const Collected collected = readAll(files.first());
        QCOMPARE(collected.count(Severity::Error), 0);

        const std::vector<double> rss = valuesOf(collected, QStringLiteral("system/process_rss_MiB"));
        QVERIFY2(rss.size() >= 5, qPrintable(QString::number(rss.size())));
        const double peakRss = *std::max_element(rss.begin(), rss.end());
        QVERIFY2(peakRss - rss.front() > 250, qPrintable(QStringLiteral("rss %1 -> %2").arg(rss.front()).arg(peakRss)));
        const std::vector<double> cpu = valuesOf(collected, QStringLiteral("system/process_cpu_percent"));
        QVERIFY(!cpu.empty());
        const double peakCpu = *std::max_element(cpu.begin(), cpu.end());
        // A spinning child gets a good share of a core even beside other tests; its last, sleeping sample less.
        QVERIFY2(peakCpu > 25, qPrintable(QString::number(peakCpu)));
        QVERIFY2(cpu.back() < peakCpu, qPrintable(QStringLiteral("%1 %2").arg(cpu.back()).arg(peakCpu)));
        const std::vector<double> used = valuesOf(collected, QStringLiteral("system/mem_used_MiB"));
        QVERIFY(!used.empty());
        QVERIFY(*std::max_element(used.begin(), used.end()) > used.front());
        for (const QString& tag : collected.series.keys())
            QVERIFY2(tag.startsWith(QLatin1String("system/")), qPrintable(tag));
        QVERIFY(collected.series.contains(QStringLiteral("system/cpu_busy_percent")));
    }

    void exitCodesAndRank()
    {
        QTemporaryDir dir;
        const ::Run seven
            = record({ QStringLiteral("--out"), dir.path(), QStringLiteral("--rank"), QStringLiteral("3"),
                       QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("exit 7") });
        QCOMPARE(seven.exitCode, 7);
        // A rank's samples go to its own folder, read as that rank.
        QCOMPARE(eventFiles(dir.path() + QStringLiteral("/system/rank_3")).size(), 1);

        const ::Run missing = record(
            { QStringLiteral("--out"), dir.path(), QStringLiteral("--"), QStringLiteral("/nonexistent/trainer") });
        QCOMPARE(missing.exitCode, 127);
        QVERIFY2(missing.err.contains(QLatin1String("/nonexistent/trainer")), qPrintable(missing.err));

        const ::Run killed = record({ QStringLiteral("--out"), dir.path(), QStringLiteral("--"), QStringLiteral("sh"),
                                      QStringLiteral("-c"), QStringLiteral("kill -KILL $$") });
        QCOMPARE(killed.exitCode, 128 + SIGKILL);
    }

    void usageErrors()
    {
        QTemporaryDir dir;
        QCOMPARE(record({ QStringLiteral("--out"), dir.path() }).exitCode, 2);
        const ::Run interval = record({ QStringLiteral("--interval"), QStringLiteral("soon"), QStringLiteral("--out"),
                                        dir.path(), QStringLiteral("--"), QStringLiteral("true") });
        QCOMPARE(interval.exitCode, 2);
        QVERIFY(interval.err.contains(QLatin1String("soon")));
        QCOMPARE(record({ QStringLiteral("--rank"), QStringLiteral("-1"), QStringLiteral("--out"), dir.path(),
                          QStringLiteral("--"), QStringLiteral("true") })
                     .exitCode,
                 2);
        // Nothing was recorded for the refused commands.
        QVERIFY(eventFiles(dir.path()).isEmpty());
    }

    // SIGTERM and SIGINT sent to the recorder (a scheduler cancelling the job) reach the child, whose exit code
    // the recorder returns.
    void signalsReachTheChild_data()
    {
        QTest::addColumn<int>("signal");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("SIGTERM") << int(SIGTERM) << 42;
        QTest::newRow("SIGINT") << int(SIGINT) << 43;
        QTest::newRow("SIGHUP") << int(SIGHUP) << 44;
    }

    void signalsReachTheChild()
    {
        QFETCH(int, signal);
        QFETCH(int, exitCode);
        const QString script = QStringLiteral(R"(
import signal, sys, time
signal.signal(signal.SIGTERM, lambda *a: sys.exit(42))
signal.signal(signal.SIGINT, lambda *a: sys.exit(43))
signal.signal(signal.SIGHUP, lambda *a: sys.exit(44))
print('ready', flush=True)
time.sleep(60)
)");
        const ::Signalled s
            = signalWhenReady(script, signal, { QStringLiteral("--interval"), QStringLiteral("100ms") });
        QVERIFY(s.started);
        QCOMPARE(s.exitCode, exitCode);
    }
};

QTEST_GUILESS_MAIN(TestRecord)
#include "tst_record.moc"
