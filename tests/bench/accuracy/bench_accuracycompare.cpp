// Accuracy comparison end to end: two dumps of 2,000 float32 tensors (4 GiB a side, `step_0/{module}.{kind}.npy`,
// written by make_accuracy_bench.py: the target a copy with rounding noise, a share of real differences, some
// float16 tensors that underflow and overflow, NaN on both sides and on one) compared by RunLens the way
// `runlens compare BENCH TARGET --json` does (both sides read, matched, every pair compared, the JSON written to
// a file), against a numpy loop computing the same metrics on the same files and writing the same rows
// (peer_accuracycompare.py). The bench checks that both give the same values for every row and fails if not.
//
// Both sides: the files read once untimed first (page cache warm), then R runs each, alternating which side goes
// first, the median of each side's times; the peer is timed inside Python (start-up and imports excluded).
// RunLens compares pairs on one thread per hardware thread (or --threads T), as the application does, and
// again on one thread; the numpy loop uses one thread.
// Also: the time from the start to the first row delivered (the rowReady callback the Accuracy panel uses), and
// the peak RSS of one comparison in a fresh process (VmHWM of a child running only the comparison).
// Goals (issue 19): ratio >= 3x, peak RSS <= 1 GiB, first row <= 1 s.
//
// The dumps are generated once into DIR/accuracy-<parameters> (default: the build's tests/bench/accuracy/work)
// and reused by later runs with the same parameters and generator.
//
//   bench_accuracycompare [--tensors N] [--mib M] [--runs R] [--threads T] [--dir DIR] [--no-peer]

#include "importers/accuracy/dumpcompare.h"
#include "models/accuracy/compareresult.h"

#include "tests/bench/benchcommon.h"
#include "tests/bench/benchpeer.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

using namespace runlens;

namespace {

const QString kPython = QStringLiteral("/usr/bin/python3");

/// A field of /proc/self/status in kB (VmHWM: peak resident set), 0 when unreadable.
qint64 statusKb(const char* field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray prefix = QByteArray(field) + ':';
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}

struct RunLensRun
{
    double seconds = 0.0;
    double firstRowSeconds = -1.0;
    qsizetype rows = 0;
    QString error;
};

/// What `runlens compare BENCH TARGET --json > OUT` does, with the first row's time taken from the callback
/// that feeds the Accuracy panel.
RunLensRun compareOnce(const QString& bench, const QString& target, const QString& out, int threads)
{
    RunLensRun run;
    QElapsedTimer timer;
    timer.start();
    const importers::accuracy::DumpSideResult b = importers::accuracy::readDumpSide(bench);
    const importers::accuracy::DumpSideResult t = importers::accuracy::readDumpSide(target);
    if (!b.side || !t.side) {
        run.error = !b.side ? b.error : t.error;
        return run;
    }
    importers::accuracy::CompareOptions options;
    options.threads = threads;
    std::optional<models::accuracy::CompareResult> result = importers::accuracy::compareDumpSides(
        *b.side, *t.side, options, {}, [&](const models::accuracy::CompareRow&) {
            if (run.firstRowSeconds < 0)
                run.firstRowSeconds = double(timer.nsecsElapsed()) / 1e9;
        });
    if (!result) {
        run.error = QStringLiteral("cancelled");
        return run;
    }
    result->bench = bench;
    result->target = target;
    QFile file(out);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(QJsonDocument(models::accuracy::compareResultToJson(*result)).toJson(QJsonDocument::Indented))
            < 0) {
        run.error = QStringLiteral("cannot write %1").arg(out);
        return run;
    }
    file.close();
    run.seconds = double(timer.nsecsElapsed()) / 1e9;
    run.rows = result->rows.size();
    return run;
}

/// The child of the memory measurement: one comparison in a fresh process, its peak RSS printed as JSON.
int memoryChild(const QString& bench, const QString& target, const QString& out)
{
    const qint64 before = statusKb("VmHWM");
    const RunLensRun run = compareOnce(bench, target, out, 0);
    if (!run.error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(run.error));
        return 1;
    }
    const QJsonObject measured { { QStringLiteral("hwm_before_kb"), before },
                                 { QStringLiteral("hwm_kb"), statusKb("VmHWM") },
                                 { QStringLiteral("seconds"), run.seconds },
                                 { QStringLiteral("first_row_seconds"), run.firstRowSeconds } };
    std::printf("%s\n", QJsonDocument(measured).toJson(QJsonDocument::Compact).constData());
    return 0;
}

/// Reads every file below `folder` once (the warm-up: both sides then run from the page cache); bytes read.
qint64 readAll(const QString& folder)
{
    qint64 total = 0;
    QByteArray buffer(8 << 20, Qt::Uninitialized);
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        for (qint64 n; (n = file.read(buffer.data(), buffer.size())) > 0;)
            total += n;
    }
    return total;
}

/// The dumps for these parameters, generated unless a finished set is already in `work`.
QString ensureDumps(const QString& work, int tensors, int mib, QString* error)
{
    QFile generator(QStringLiteral(RUNLENS_BENCH_DIR "/make_accuracy_bench.py"));
    if (!generator.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1").arg(generator.fileName());
        return {};
    }
    // Keyed by the parameters and the generator's text, so a changed generator writes a new set.
    const QByteArray version
        = QCryptographicHash::hash(generator.readAll(), QCryptographicHash::Sha256).toHex().left(8);
    const QString folder
        = QStringLiteral("%1/accuracy-t%2-m%3-s1-%4").arg(work).arg(tensors).arg(mib).arg(QString::fromLatin1(version));
    if (QFileInfo::exists(folder + QStringLiteral("/complete"))) {
        std::printf("dumps: %s (generated by an earlier run)\n", qPrintable(folder));
        return folder;
    }
    QDir().mkpath(folder);
    QElapsedTimer timer;
    timer.start();
    QProcess python;
    python.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    python.start(kPython,
                 { generator.fileName(), QStringLiteral("--out"), folder, QStringLiteral("--tensors"),
                   QString::number(tensors), QStringLiteral("--mib"), QString::number(mib) });
    if (!python.waitForFinished(-1) || python.exitCode() != 0) {
        *error = QStringLiteral("the generator failed");
        return {};
    }
    std::printf("dumps: %s, generated in %.1f s: %s", qPrintable(folder), timer.elapsed() / 1000.0,
                python.readAllStandardOutput().constData());
    return folder;
}

struct PeerRun
{
    double seconds = 0.0;
    double peakKb = 0.0;
    QString error;
};

PeerRun peerOnce(const QString& bench, const QString& target, const QString& out)
{
    PeerRun run;
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    peer.start(kPython,
               { QStringLiteral(RUNLENS_BENCH_DIR "/peer_accuracycompare.py"), bench, target, out,
                 QStringLiteral("--repeat"), QStringLiteral("1") });
    if (!peer.waitForFinished(-1) || peer.exitCode() != 0) {
        run.error = QStringLiteral("the numpy peer failed");
        return run;
    }
    const QJsonObject result = bench::lastJsonLine(peer.readAllStandardOutput());
    const std::vector<double> seconds = bench::numbers(result, QStringLiteral("seconds"));
    if (seconds.empty()) {
        run.error = QStringLiteral("the numpy peer printed no times");
        return run;
    }
    run.seconds = seconds.front();
    run.peakKb = result.value(QStringLiteral("peak_rss_kb")).toDouble();
    return run;
}

QJsonArray rowsOf(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("rows")).toArray();
}

/// Equal within what a different summation order gives (sums and norms in float64); exact for the rest.
bool close(const QJsonValue& a, const QJsonValue& b, bool exact)
{
    if (a.isNull() || b.isNull())
        return a.isNull() && b.isNull();
    const double x = a.toDouble();
    const double y = b.toDouble();
    if (exact)
        return x == y;
    return std::abs(x - y) <= 1e-12 + 1e-9 * std::max(std::abs(x), std::abs(y));
}

/// Every row of RunLens's JSON against the peer's row of the same name; the disagreements, at most 10 listed.
QStringList disagreements(const QJsonArray& ours, const QJsonArray& theirs)
{
    static const QStringList kSums { QStringLiteral("cosine"), QStringLiteral("mean_abs"), QStringLiteral("rmse"),
                                     QStringLiteral("rel_euclidean") };
    static const QStringList kExact { QStringLiteral("max_abs"),     QStringLiteral("max_rel"),
                                      QStringLiteral("within_1e-3"), QStringLiteral("within_5e-3"),
                                      QStringLiteral("underflow"),   QStringLiteral("overflow"),
                                      QStringLiteral("nan_mismatch") };
    QStringList problems;
    QHash<QString, QJsonObject> peerRows;
    for (const QJsonValue& row : theirs)
        peerRows.insert(row.toObject().value(QStringLiteral("name")).toString(), row.toObject());
    if (ours.size() != theirs.size())
        problems << QStringLiteral("RunLens has %1 rows, the peer %2").arg(ours.size()).arg(theirs.size());
    for (const QJsonValue& value : ours) {
        const QJsonObject row = value.toObject();
        const QString name = row.value(QStringLiteral("name")).toString();
        const auto peer = peerRows.constFind(name);
        if (peer == peerRows.constEnd()) {
            problems << QStringLiteral("%1: no peer row").arg(name);
            continue;
        }
        for (const QString& key : kSums + kExact) {
            if (!close(row.value(key), peer->value(key), kExact.contains(key)))
                problems << QStringLiteral("%1 %2: RunLens %3, numpy %4")
                                .arg(name, key, QString::number(row.value(key).toDouble(), 'g', 17),
                                     QString::number(peer->value(key).toDouble(), 'g', 17));
        }
        if (problems.size() > 10)
            break;
    }
    return problems;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() == 5 && args[1] == QLatin1String("--child"))
        return ::memoryChild(args[2], args[3], args[4]);

    int tensors = 2000;
    int mib = 4096;
    int runs = 3;
    int threads = 0;
    bool peer = true;
    QString work = QStringLiteral(RUNLENS_BENCH_WORK_DIR);
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--tensors") && i + 1 < args.size())
            tensors = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--mib") && i + 1 < args.size())
            mib = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            runs = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--threads") && i + 1 < args.size())
            threads = std::max(0, args[++i].toInt());
        else if (args[i] == QLatin1String("--dir") && i + 1 < args.size())
            work = args[++i];
        else if (args[i] == QLatin1String("--no-peer"))
            peer = false;
        else {
            std::fprintf(stderr,
                         "usage: bench_accuracycompare [--tensors N] [--mib M] [--runs R] [--threads T] [--dir DIR] "
                         "[--no-peer]\n");
            return 2;
        }
    }

    QString error;
    const QString folder = ensureDumps(work, tensors, mib, &error);
    if (folder.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const QString bench = folder + QStringLiteral("/bench");
    const QString target = folder + QStringLiteral("/target");
    const QString ourJson = folder + QStringLiteral("/runlens.json");
    const QString peerJson = folder + QStringLiteral("/numpy.json");

    QElapsedTimer timer;
    timer.start();
    const qint64 bytes = readAll(bench) + readAll(target);
    std::printf("warm-up: read %.2f GiB in %.1f s\n", double(bytes) / (1 << 30), timer.elapsed() / 1000.0);

    // The memory child first, while this process is still small.
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--child"), bench, target, ourJson });
    const QJsonObject memory = child.waitForFinished(-1) && child.exitCode() == 0
        ? bench::lastJsonLine(child.readAllStandardOutput())
        : QJsonObject();
    const double peakMiB = memory.value(QStringLiteral("hwm_kb")).toDouble() / 1024.0;
    if (peakMiB > 0)
        std::printf("memory (one comparison in a fresh process): peak RSS %.0f MiB (%.0f MiB before it); %.2f s\n",
                    peakMiB, memory.value(QStringLiteral("hwm_before_kb")).toDouble() / 1024.0,
                    memory.value(QStringLiteral("seconds")).toDouble());
    else
        std::printf("memory: the measuring child failed\n");

    const int allThreads = threads > 0 ? threads : bench::hardwareThreads();
    std::vector<double> ours;
    std::vector<double> oursOneThread;
    std::vector<double> firstRows;
    std::vector<double> theirs;
    double peerPeakKb = 0;
    qsizetype rows = 0;
    for (int run = 0; run < runs; ++run) {
        // Alternating which side goes first, so neither always follows the other's page-cache traffic.
        for (int side = 0; side < 2; ++side) {
            if ((side == 0) == (run % 2 == 0)) {
                for (const int useThreads : { allThreads, 1 }) {
                    if (useThreads == 1 && allThreads == 1)
                        break;
                    const ::RunLensRun r = compareOnce(bench, target, ourJson, useThreads);
                    if (!r.error.isEmpty()) {
                        std::fprintf(stderr, "RunLens failed: %s\n", qPrintable(r.error));
                        return 1;
                    }
                    (useThreads == allThreads ? ours : oursOneThread).push_back(r.seconds);
                    if (useThreads == allThreads)
                        firstRows.push_back(r.firstRowSeconds);
                    rows = r.rows;
                    std::printf("run %d RunLens, %s: %.2f s, first row after %.0f ms\n", run + 1,
                                bench::threadsText(useThreads).c_str(), r.seconds, r.firstRowSeconds * 1e3);
                }
            } else if (peer) {
                const ::PeerRun p = peerOnce(bench, target, peerJson);
                if (!p.error.isEmpty()) {
                    std::fprintf(stderr, "%s\n", qPrintable(p.error));
                    return 1;
                }
                theirs.push_back(p.seconds);
                peerPeakKb = std::max(peerPeakKb, p.peakKb);
                std::printf("run %d numpy:   %.2f s\n", run + 1, p.seconds);
            }
            std::fflush(stdout);
        }
    }

    const QJsonDocument result = [&] {
        QFile file(ourJson);
        return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()) : QJsonDocument();
    }();
    const QJsonObject summary = result.object().value(QStringLiteral("summary")).toObject();
    const QJsonValue first = result.object().value(QStringLiteral("first_divergence"));
    std::printf("RunLens: %lld rows, mode %s, %d pass, %d warning, %d error; first divergence %s\n",
                static_cast<long long>(rows), qPrintable(result.object().value(QStringLiteral("mode")).toString()),
                summary.value(QStringLiteral("pass")).toInt(), summary.value(QStringLiteral("warning")).toInt(),
                summary.value(QStringLiteral("error")).toInt(),
                first.isObject() ? qPrintable(first.toObject().value(QStringLiteral("name")).toString()) : "none");

    const double firstRow = bench::median(firstRows);
    const bench::Side runlensSide { "RunLens", bench::median(ours) * 1e3, int(ours.size()),
                                    bench::threadsText(allThreads) + " comparing pairs" };
    const bench::Side runlensOne { "RunLens", bench::median(oursOneThread) * 1e3, int(oursOneThread.size()),
                                   "1 thread" };
    const double gib = double(bytes) / (1 << 30);
    char note[400];
    std::snprintf(note, sizeof note,
                  "%d pairs, %.2f GiB read; RunLens peak RSS %.0f MiB (goal <= 1024), first row %.0f ms (goal <= "
                  "1000, median)",
                  tensors, gib, peakMiB, firstRow * 1e3);
    const std::string what = "accuracy comparison, 2 dumps, every metric, JSON rows written";
    if (!peer) {
        bench::printNoRatio(what, runlensSide, note);
        return 0;
    }
    const QStringList problems = disagreements(rowsOf(ourJson), rowsOf(peerJson));
    if (!problems.isEmpty()) {
        std::printf("results DISAGREE:\n");
        for (const QString& p : problems)
            std::printf("  %s\n", qPrintable(p));
        return 1;
    }
    std::printf("results agree: every metric of all %lld rows equal to numpy's (sums and norms within 1e-9 "
                "relative); numpy peak RSS %.0f MiB\n",
                static_cast<long long>(rows), peerPeakKb / 1024.0);
    const bench::Side peerSide { "numpy loop", bench::median(theirs) * 1e3, int(theirs.size()), "1 thread" };
    const double ratio = peerSide.medianMs / runlensSide.medianMs;
    std::printf("goals: ratio %.2fx (>= 3x) %s; peak RSS %.0f MiB (<= 1 GiB) %s; first row %.0f ms (<= 1 s) %s\n",
                ratio, ratio >= 3 ? "PASS" : "FAIL", peakMiB, peakMiB > 0 && peakMiB <= 1024 ? "PASS" : "FAIL",
                firstRow * 1e3, firstRow >= 0 && firstRow <= 1.0 ? "PASS" : "FAIL");
    if (!oursOneThread.empty())
        bench::printRatio(what + ", 1 thread each", runlensOne, peerSide, "numpy's loop uses one thread");
    bench::printRatio(what, runlensSide, peerSide, note);
    return 0;
}
