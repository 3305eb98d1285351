// Throughput of EventFileReader on a large synthetic event file, against a Python peer that does what
// TensorBoard's Python loader does (framing, CRC-32C, protobuf decoding) on the same file. Both read the
// whole file R times; the ratio is taken from the median pass of each (one thread each, page cache warm,
// the Python interpreter's start-up, imports and protoc run excluded).
//
//   bench_eventfile [--records N] [--repeat R] [--no-peer] [--python PYTHON]

#include "importers/summary/eventfilereader.h"
#include "importers/summary/eventfilewriter.h"
#include "importers/summary/recordreader.h"

#include "tests/bench/benchcommon.h"
#include "tests/bench/benchpeer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::summary;
using namespace runlens::models;
using namespace runlens::models::scalars;

namespace {

struct Timing
{
    double best = 0.0;
    double median = 0.0;
};

/// CPU time of this thread (user + system): less disturbed than wall time when the machine is busy.
double threadCpuSeconds()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

Timing summarize(std::vector<double> seconds)
{
    std::sort(seconds.begin(), seconds.end());
    return { seconds.front(), seconds[seconds.size() / 2] };
}

/// Hierarchical tags of realistic length (per-layer statistics), some written the TF2 way.
std::vector<QString> benchmarkTags()
{
    std::vector<QString> tags { QStringLiteral("train/loss"), QStringLiteral("train/learning_rate"),
                                QStringLiteral("eval/accuracy_top1"), QStringLiteral("perf/samples_per_second") };
    for (int layer = 0; layer < 12; ++layer)
        tags.push_back(QStringLiteral("model/encoder/layers.%1/self_attention/out_proj/weight/grad_norm")
                           .arg(layer, 2, 10, QLatin1Char('0')));
    return tags;
}

bool writeBenchmarkFile(const QString& path, qint64 records)
{
    const std::vector<QString> tags = benchmarkTags();
    EventFileWriter writer;
    writer.setBufferSize(8 << 20);
    if (!writer.open(path) || !writer.writeFileVersion(1700000000.0))
        return false;
    for (qint64 i = 0; i + 1 < records; ++i) {
        const auto tag = std::size_t(i % qint64(tags.size()));
        const qint64 step = i / qint64(tags.size());
        const double wallTime = 1700000000.0 + double(step) * 0.25;
        const double value = 1.0 / double(step + 1) + double(tag);
        // Every fourth tag as a TF2 tensor scalar, the rest as simple_value (torch, TF1).
        const bool ok = tag % 4 == 1 ? writer.writeTensorScalar(tags[tag], step, wallTime, value)
                                     : writer.writeScalar(tags[tag], step, wallTime, value);
        if (!ok)
            return false;
    }
    if (!writer.close()) {
        std::fprintf(stderr, "write failed: %s\n", qPrintable(writer.errorString()));
        return false;
    }
    return true;
}

QString findPython(const QString& requested)
{
    QStringList candidates;
    if (!requested.isEmpty())
        candidates << requested;
    const QString fromEnvironment = qEnvironmentVariable("RUNLENS_BENCH_PYTHON");
    if (!fromEnvironment.isEmpty())
        candidates << fromEnvironment;
    candidates << QStringLiteral("python3") << QStringLiteral("/usr/bin/python3");
    for (const QString& candidate : candidates) {
        QProcess probe;
        probe.start(candidate, { QStringLiteral("-c"), QStringLiteral("import google.protobuf, crc32c") });
        if (probe.waitForFinished(30000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0)
            return candidate;
    }
    return {};
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("EventFileReader throughput against a Python peer"));
    parser.addHelpOption();
    const QCommandLineOption recordsOption(QStringLiteral("records"), QStringLiteral("records in the file"),
                                           QStringLiteral("n"), QStringLiteral("2000000"));
    const QCommandLineOption repeatOption(QStringLiteral("repeat"), QStringLiteral("timed reads"), QStringLiteral("n"),
                                          QStringLiteral("5"));
    const QCommandLineOption noPeerOption(QStringLiteral("no-peer"), QStringLiteral("skip the Python peer"));
    const QCommandLineOption pythonOption(QStringLiteral("python"), QStringLiteral("Python interpreter for the peer"),
                                          QStringLiteral("path"));
    parser.addOptions({ recordsOption, repeatOption, noPeerOption, pythonOption });
    parser.process(app);
    const qint64 records = std::max<qint64>(2, parser.value(recordsOption).toLongLong());
    const int repeat = std::max(1, parser.value(repeatOption).toInt());

    QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/runlens-bench-XXXXXX"));
    if (!dir.isValid()) {
        std::fprintf(stderr, "cannot create a temporary directory\n");
        return 1;
    }
    const QString file = dir.filePath(EventFileWriter::tensorBoardFileName(1700000000, QStringLiteral("bench"), 1, 0));
    QElapsedTimer timer;
    timer.start();
    if (!writeBenchmarkFile(file, records)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(file));
        return 1;
    }
    const qint64 bytes = QFileInfo(file).size();
    const double megabytes = double(bytes) / 1e6;
    std::printf("file: %s\n  %lld records, %.1f MB (%.1f bytes per record), written in %.2f s\n", qPrintable(file),
                static_cast<long long>(records), megabytes, double(bytes) / double(records),
                double(timer.nsecsElapsed()) / 1e9);

    // Framing and CRCs alone, for orientation.
    std::vector<double> framingSeconds;
    for (int i = 0; i < repeat; ++i) {
        RecordReader reader(file);
        if (!reader.open(0))
            return 1;
        RecordReader::Record record;
        qint64 count = 0;
        timer.restart();
        while (reader.next(record) == RecordStatus::Ok)
            ++count;
        framingSeconds.push_back(double(timer.nsecsElapsed()) / 1e9);
        if (count != records) {
            std::fprintf(stderr, "framing read %lld records, expected %lld\n", static_cast<long long>(count),
                         static_cast<long long>(records));
            return 1;
        }
    }
    const ::Timing framing = summarize(framingSeconds);
    std::printf("RecordReader (framing + both CRCs): best %.0f MB/s, median %.0f MB/s\n", megabytes / framing.best,
                megabytes / framing.median);

    // The importer: framing, CRCs, protobuf decoding, tag interning, points per tag.
    std::vector<double> readSeconds;
    std::vector<double> readCpuSeconds;
    for (int i = 0; i < repeat + 1; ++i) { // the first run warms the page cache and is not counted
        EventFileReader reader(file, SummaryFlavor::TensorBoard);
        const double cpuStart = threadCpuSeconds();
        timer.restart();
        const ImportUpdate update = reader.poll({});
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        const double cpuSeconds = threadCpuSeconds() - cpuStart;
        qint64 points = 0;
        for (const TagPoints& batch : update.scalars)
            points += qint64(batch.points.size());
        if (points != records - 1 || update.status != ImportStatus::Ok || update.recordsRead != records) {
            std::fprintf(stderr, "EventFileReader delivered %lld points (expected %lld), status %s\n",
                         static_cast<long long>(points), static_cast<long long>(records - 1),
                         qPrintable(importStatusId(update.status)));
            return 1;
        }
        if (i > 0) {
            readSeconds.push_back(seconds);
            readCpuSeconds.push_back(cpuSeconds);
        }
    }
    const ::Timing read = summarize(readSeconds);
    const ::Timing readCpu = summarize(readCpuSeconds);
    std::printf("EventFileReader (CRCs verified, %d runs, 1 thread): median %.3f s = %.0f MB/s, %.2f M records/s; "
                "best %.0f MB/s; by thread CPU time median %.0f MB/s\n",
                repeat, read.median, megabytes / read.median, double(records) / read.median / 1e6,
                megabytes / read.best, megabytes / readCpu.median);
    const bench::Side runlensSide { "RunLens", read.median * 1e3, repeat, "1 thread" };
    const char* what = "event file, whole file read by both";

    if (parser.isSet(noPeerOption)) {
        bench::printNoRatio(what, runlensSide, "peer skipped");
        return 0;
    }
    const QString python = findPython(parser.value(pythonOption));
    if (python.isEmpty()) {
        std::printf("python peer: no python3 with google.protobuf and crc32c found (set RUNLENS_BENCH_PYTHON)\n");
        bench::printNoRatio(what, runlensSide, "no python3 with google.protobuf and crc32c");
        return 0;
    }
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    peer.start(python,
               { QStringLiteral(RUNLENS_BENCH_DIR "/peer_eventfile.py"), QStringLiteral("--file"), file,
                 QStringLiteral("--proto-root"), QStringLiteral(RUNLENS_PROTO_ROOT), QStringLiteral("--protoc"),
                 QStringLiteral(RUNLENS_PROTOC), QStringLiteral("--repeat"), QString::number(repeat) });
    if (!peer.waitForFinished(-1) || peer.exitCode() != 0) {
        std::fprintf(stderr, "the python peer failed\n");
        return 1;
    }
    const QJsonObject result = bench::lastJsonLine(peer.readAllStandardOutput());
    const std::vector<double> peerSeconds = bench::numbers(result, QStringLiteral("seconds"));
    const std::vector<double> peerCpuSeconds = bench::numbers(result, QStringLiteral("cpu_seconds"));
    const double peerMegabytes = result.value(QStringLiteral("bytes")).toDouble() / 1e6;
    const qint64 peerRead = result.value(QStringLiteral("records")).toInteger();
    if (peerSeconds.empty() || peerRead != records) {
        std::fprintf(stderr, "the python peer read %lld of %lld records\n", static_cast<long long>(peerRead),
                     static_cast<long long>(records));
        return 1;
    }
    const double peerMedian = bench::median(peerSeconds);
    std::printf("python peer (%s, python %s, protobuf implementation '%s', %zu runs, 1 thread): median %.2f s = "
                "%.1f MB/s, %.3f M records/s; by thread CPU time median %.1f MB/s\n",
                qPrintable(python), qPrintable(result.value(QStringLiteral("python")).toString()),
                qPrintable(result.value(QStringLiteral("protobuf_implementation")).toString()), peerSeconds.size(),
                peerMedian, peerMegabytes / peerMedian, double(peerRead) / peerMedian / 1e6,
                peerMegabytes / bench::median(peerCpuSeconds));
    char note[160];
    std::snprintf(note, sizeof note, "%.1f MB, %lld records; RunLens %.0f MB/s, Python %.1f MB/s", megabytes,
                  static_cast<long long>(records), megabytes / read.median, peerMegabytes / peerMedian);
    bench::printRatio(what, runlensSide, { "Python loop", peerMedian * 1e3, int(peerSeconds.size()), "1 thread" },
                      note);
    return 0;
}
