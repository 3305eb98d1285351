// Importing a summary file that holds more than scalars: 10,000 histogram events (each with 50 tags'
// histograms of 30 buckets, every 5th step) among 1,000,000 scalar events (20 tags a step), read by
// RunLens the way the application does (RunScanner, ImportSession, ScalarStore, SummaryStore, default
// reservoir limits), against a Python peer doing TensorBoard's work on the same file (framing, CRC-32C,
// protobuf decoding, scalar lists, a 500-item reservoir of histogram values per tag). Both read the whole
// file R times and the ratio is taken from the median pass of each; one thread each; the peer is timed
// inside Python (start-up, imports and the protoc run excluded); RunLens's time includes scanning the folder.
//
//   bench_summaryimport [--histogram-events N] [--histogram-tags T] [--buckets B] [--scalars S]
//                       [--repeat R] [--no-peer] [--python PYTHON]

#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/summary/eventfilereader.h"
#include "importers/summary/eventfilewriter.h"
#include "importers/summary/recordreader.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"

#include "tests/bench/benchcommon.h"
#include "tests/bench/benchpeer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <numbers>
#include <vector>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::summary;
using namespace runlens::models;
using namespace runlens::models::scalars;
using namespace runlens::models::summary;

namespace {

constexpr int kScalarTags = 20;
constexpr int kHistogramEvery = 5; ///< steps between histogram events, as torch examples log parameters
constexpr qint64 kSamplesPerHistogram = 4096;
const QString kRunName = QStringLiteral("bench_run");

struct Shape
{
    qint64 histogramEvents = 10000;
    int histogramTags = 50;
    int buckets = 30;
    qint64 scalars = 1000000;

    qint64 steps() const
    {
        return std::max<qint64>(histogramEvents * kHistogramEvery, (scalars + kScalarTags - 1) / kScalarTags);
    }
    /// Records in the file: the version record, one per scalar and one per histogram event.
    qint64 records() const { return 1 + scalars + histogramEvents; }
};

struct Timing
{
    double best = 0.0;
    double median = 0.0;
};

Timing summarize(std::vector<double> seconds)
{
    std::sort(seconds.begin(), seconds.end());
    return { seconds.front(), seconds[seconds.size() / 2] };
}

/// CPU time of this thread (user + system): less disturbed than wall time when the machine is busy.
double threadCpuSeconds()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

/// /proc and getrusage count kB of 1024 bytes; files are measured in MB of 10^6 bytes.
double kbToMb(double kb)
{
    return kb * 1024.0 / 1e6;
}

/// A field of /proc/self/status in kB (VmHWM: peak resident set; VmRSS: current), 0 when unreadable.
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

QString histogramTag(int tag)
{
    return QStringLiteral("model/encoder/layers.%1/mlp/fc%2/weight")
        .arg(tag / 2, 2, 10, QLatin1Char('0'))
        .arg(tag % 2 + 1);
}

QString scalarTag(int tag)
{
    static const QStringList named { QStringLiteral("train/loss"), QStringLiteral("train/learning_rate"),
                                     QStringLiteral("train/grad_norm"), QStringLiteral("perf/samples_per_second") };
    return tag < named.size() ? named[tag]
                              : QStringLiteral("model/encoder/layers.%1/self_attention/out_proj/weight/grad_norm")
                                    .arg(tag - named.size(), 2, 10, QLatin1Char('0'));
}

/// A weight distribution that drifts and widens over training: kSamplesPerHistogram normal samples
/// counted into equal-width buckets over mean ± 3 sigma, with consistent statistics.
Histogram weightHistogram(int tag, qint64 step, qint64 steps, int buckets)
{
    const double progress = double(step) / double(std::max<qint64>(1, steps));
    const double mean = 0.01 * tag + 0.05 * std::sin(6.0 * progress + tag);
    const double sigma = 0.02 * (1 + tag % 5) * (1.0 + progress);
    const double low = mean - 3.0 * sigma;
    const double width = 6.0 * sigma / buckets;
    const auto cdf = [&](double x) { return 0.5 * (1.0 + std::erf((x - mean) / (sigma * std::numbers::sqrt2))); };
    Histogram h;
    h.step = step;
    h.buckets.resize(std::size_t(buckets));
    double total = 0.0;
    for (int b = 0; b < buckets; ++b) {
        HistogramBucket& bucket = h.buckets[std::size_t(b)];
        bucket.left = low + b * width;
        bucket.right = low + (b + 1) * width;
        bucket.count = std::round(double(kSamplesPerHistogram) * (cdf(bucket.right) - cdf(bucket.left)));
        total += bucket.count;
    }
    h.count = total;
    h.min = h.lowestEdge();
    h.max = h.highestEdge();
    h.sum = total * mean;
    h.sumSquares = total * (sigma * sigma + mean * mean);
    return h;
}

/// Per step the scalar tags (torch's add_scalar: one event each), and every kHistogramEvery steps one
/// event with every histogram tag, until both counts are reached.
bool writeBenchmarkFile(const QString& path, const Shape& shape, Histogram* lastOfFirstTag)
{
    EventFileWriter writer;
    writer.setBufferSize(8 << 20);
    if (!writer.open(path) || !writer.writeFileVersion(1700000000.0))
        return false;
    std::vector<EventFileWriter::NamedHistogram> histograms(std::size_t(shape.histogramTags));
    for (int t = 0; t < shape.histogramTags; ++t)
        histograms[std::size_t(t)].tag = histogramTag(t);
    std::vector<QString> scalarTags;
    for (int t = 0; t < kScalarTags; ++t)
        scalarTags.push_back(scalarTag(t));

    const qint64 steps = shape.steps();
    qint64 scalarsWritten = 0;
    qint64 histogramEventsWritten = 0;
    for (qint64 step = 0; step < steps; ++step) {
        const double wallTime = 1700000000.0 + double(step) * 0.25;
        for (int t = 0; t < kScalarTags && scalarsWritten < shape.scalars; ++t, ++scalarsWritten) {
            const double value = 1.0 / double(step + 1) + double(t);
            if (!writer.writeScalar(scalarTags[std::size_t(t)], step, wallTime, value))
                return false;
        }
        if (step % kHistogramEvery != 0 || histogramEventsWritten >= shape.histogramEvents)
            continue;
        for (int t = 0; t < shape.histogramTags; ++t)
            histograms[std::size_t(t)].histogram = weightHistogram(t, step, steps, shape.buckets);
        if (!writer.writeHistograms(step, wallTime, histograms))
            return false;
        ++histogramEventsWritten;
        if (lastOfFirstTag && !histograms.empty())
            *lastOfFirstTag = histograms.front().histogram;
    }
    if (!writer.close()) {
        std::fprintf(stderr, "write failed: %s\n", qPrintable(writer.errorString()));
        return false;
    }
    return writer.recordsWritten() == shape.records();
}

/// What one import through the session left in the stores.
struct ImportResult
{
    double seconds = 0.0;
    double cpuSeconds = 0.0;
    qint64 scalarPoints = 0;
    int histogramTags = 0;
    qint64 histogramItems = 0; ///< kept by the reservoirs, over all tags
    qint64 histogramSeen = 0; ///< values the tags had
    HistogramSeries firstTag;
    QString status;
};

/// The application's path: scan the folder, read it with an ImportSession, fill the stores.
ImportResult importFolder(const QString& folder)
{
    ImportResult result;
    ScalarStore scalars;
    SummaryStore summaries;
    QElapsedTimer timer;
    const double cpuStart = threadCpuSeconds();
    timer.start();
    {
        ImportSession session(RunScanner().scan(folder));
        QObject::connect(&session, &ImportSession::scalarsArrived, &scalars, &ScalarStore::append);
        QObject::connect(&session, &ImportSession::summariesArrived, &summaries, &SummaryStore::update);
        session.importBlocking();
        for (const ArtifactState& state : session.states())
            result.status += importStatusId(state.status) + QLatin1Char(' ');
    }
    result.seconds = double(timer.nsecsElapsed()) / 1e9;
    result.cpuSeconds = threadCpuSeconds() - cpuStart;
    result.scalarPoints = scalars.pointCount();
    for (const QString& run : summaries.runs(SummaryKind::Histograms)) {
        for (const QString& tag : summaries.tags(SummaryKind::Histograms, run)) {
            const HistogramSeries series = summaries.histograms(run, tag);
            ++result.histogramTags;
            result.histogramItems += qint64(series.items.size());
            result.histogramSeen += series.seen;
            if (tag == histogramTag(0))
                result.firstTag = series;
        }
    }
    return result;
}

bool sameHistogram(const Histogram& a, const Histogram& b)
{
    if (a.step != b.step || a.buckets.size() != b.buckets.size() || a.count != b.count || a.min != b.min
        || a.max != b.max)
        return false;
    // A HistogramProto keeps right edges only: compare those and the counts.
    for (std::size_t i = 0; i < a.buckets.size(); ++i) {
        if (a.buckets[i].right != b.buckets[i].right || a.buckets[i].count != b.buckets[i].count)
            return false;
    }
    return true;
}

/// Checks what an import delivered against what was written; an empty string when all is well.
/// Histograms may be absent (a build whose reader does not decode them yet): `histogramsDecoded` says.
QString checkImport(const ImportResult& r, const Shape& shape, const Histogram& lastOfFirstTag, bool* histogramsDecoded)
{
    if (r.scalarPoints != shape.scalars)
        return QStringLiteral("%1 scalar points imported, %2 written").arg(r.scalarPoints).arg(shape.scalars);
    *histogramsDecoded = r.histogramTags > 0;
    if (!*histogramsDecoded || shape.histogramEvents == 0)
        return r.histogramTags == 0 ? QString() : QStringLiteral("histograms imported from a file without any");
    if (r.histogramTags != shape.histogramTags)
        return QStringLiteral("%1 histogram tags imported, %2 written").arg(r.histogramTags).arg(shape.histogramTags);
    const SummaryLimits limits;
    const qint64 kept
        = limits.histograms > 0 ? std::min<qint64>(limits.histograms, shape.histogramEvents) : shape.histogramEvents;
    if (r.firstTag.items.size() != std::size_t(kept) || r.firstTag.seen != shape.histogramEvents)
        return QStringLiteral("the first histogram tag kept %1 of %2 values seen; expected %3 of %4")
            .arg(r.firstTag.items.size())
            .arg(r.firstTag.seen)
            .arg(kept)
            .arg(shape.histogramEvents);
    // The reservoir always keeps the latest value.
    if (!sameHistogram(r.firstTag.items.back(), lastOfFirstTag))
        return QStringLiteral("the latest histogram of %1 differs from the one written").arg(histogramTag(0));
    return {};
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

/// The child process of the memory measurement: one import in a fresh process, so that the peak
/// resident set is the importer's and not the generator's or an earlier run's.
int memoryChild(const QString& folder)
{
    const qint64 before = statusKb("VmHWM");
    // The stores stay filled until the measurement, as they do in the application.
    ScalarStore scalars;
    SummaryStore summaries;
    {
        ImportSession session(RunScanner().scan(folder));
        QObject::connect(&session, &ImportSession::scalarsArrived, &scalars, &ScalarStore::append);
        QObject::connect(&session, &ImportSession::summariesArrived, &summaries, &SummaryStore::update);
        session.importBlocking();
    }
    const QJsonObject measured { { QStringLiteral("hwm_before_kb"), before },
                                 { QStringLiteral("hwm_after_kb"), statusKb("VmHWM") },
                                 { QStringLiteral("rss_after_kb"), statusKb("VmRSS") },
                                 { QStringLiteral("scalar_points"), scalars.pointCount() } };
    std::printf("%s\n", QJsonDocument(measured).toJson(QJsonDocument::Compact).constData());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Summary import (histograms and scalars) through ImportSession against a Python peer"));
    parser.addHelpOption();
    const QCommandLineOption histogramEventsOption(QStringLiteral("histogram-events"),
                                                   QStringLiteral("histogram events in the file"), QStringLiteral("n"),
                                                   QStringLiteral("10000"));
    const QCommandLineOption histogramTagsOption(QStringLiteral("histogram-tags"),
                                                 QStringLiteral("histograms in each histogram event"),
                                                 QStringLiteral("n"), QStringLiteral("50"));
    const QCommandLineOption bucketsOption(QStringLiteral("buckets"), QStringLiteral("buckets per histogram"),
                                           QStringLiteral("n"), QStringLiteral("30"));
    const QCommandLineOption scalarsOption(QStringLiteral("scalars"), QStringLiteral("scalar events in the file"),
                                           QStringLiteral("n"), QStringLiteral("1000000"));
    const QCommandLineOption repeatOption(QStringLiteral("repeat"), QStringLiteral("timed imports"),
                                          QStringLiteral("n"), QStringLiteral("3"));
    const QCommandLineOption noPeerOption(QStringLiteral("no-peer"), QStringLiteral("skip the Python peer"));
    const QCommandLineOption pythonOption(QStringLiteral("python"), QStringLiteral("Python interpreter for the peer"),
                                          QStringLiteral("path"));
    const QCommandLineOption memoryChildOption(QStringLiteral("memory-child"),
                                               QStringLiteral("(internal) import FOLDER once and print the memory"),
                                               QStringLiteral("folder"));
    parser.addOptions({ histogramEventsOption, histogramTagsOption, bucketsOption, scalarsOption, repeatOption,
                        noPeerOption, pythonOption, memoryChildOption });
    parser.process(app);
    if (parser.isSet(memoryChildOption))
        return ::memoryChild(parser.value(memoryChildOption));

    Shape shape;
    shape.histogramEvents = std::max<qint64>(0, parser.value(histogramEventsOption).toLongLong());
    shape.histogramTags = std::max(1, parser.value(histogramTagsOption).toInt());
    shape.buckets = std::max(1, parser.value(bucketsOption).toInt());
    shape.scalars = std::max<qint64>(0, parser.value(scalarsOption).toLongLong());
    const int repeat = std::max(1, parser.value(repeatOption).toInt());

    QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/runlens-bench-XXXXXX"));
    if (!dir.isValid() || !QDir(dir.path()).mkpath(kRunName)) {
        std::fprintf(stderr, "cannot create a temporary directory\n");
        return 1;
    }
    const QString folder = dir.path();
    const QString file = QDir(dir.filePath(kRunName))
                             .filePath(EventFileWriter::tensorBoardFileName(1700000000, QStringLiteral("bench"), 1, 0));
    QElapsedTimer timer;
    timer.start();
    Histogram lastOfFirstTag;
    if (!writeBenchmarkFile(file, shape, &lastOfFirstTag)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(file));
        return 1;
    }
    const qint64 records = shape.records();
    const double megabytes = double(QFileInfo(file).size()) / 1e6;
    std::printf("file: %s\n  %lld histogram events x %d tags x %d buckets + %lld scalar events = %lld records, "
                "%.1f MB, written in %.2f s\n",
                qPrintable(file), static_cast<long long>(shape.histogramEvents), shape.histogramTags, shape.buckets,
                static_cast<long long>(shape.scalars), static_cast<long long>(records), megabytes,
                double(timer.nsecsElapsed()) / 1e9);

    // Framing and CRCs alone, for orientation (and to warm the page cache).
    {
        RecordReader reader(file);
        if (!reader.open(0))
            return 1;
        RecordReader::Record record;
        qint64 count = 0;
        timer.restart();
        while (reader.next(record) == RecordStatus::Ok)
            ++count;
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        if (count != records) {
            std::fprintf(stderr, "framing read %lld records, expected %lld\n", static_cast<long long>(count),
                         static_cast<long long>(records));
            return 1;
        }
        std::printf("RecordReader (framing + both CRCs): %.0f MB/s\n", megabytes / seconds);
    }

    // The reader alone: decoding, tag interning, scalar points, histogram reservoirs.
    {
        std::vector<double> seconds;
        for (int i = 0; i < repeat; ++i) {
            EventFileReader reader(file, SummaryFlavor::TensorBoard);
            timer.restart();
            const ImportUpdate update = reader.poll({});
            seconds.push_back(double(timer.nsecsElapsed()) / 1e9);
            if (update.status != ImportStatus::Ok || update.recordsRead != records) {
                std::fprintf(stderr, "EventFileReader read %lld records (expected %lld), status %s\n",
                             static_cast<long long>(update.recordsRead), static_cast<long long>(records),
                             qPrintable(importStatusId(update.status)));
                return 1;
            }
        }
        const ::Timing read = summarize(seconds);
        std::printf("EventFileReader alone (%d runs): best %.3f s = %.0f MB/s, median %.0f MB/s\n", repeat, read.best,
                    megabytes / read.best, megabytes / read.median);
    }

    // The application's path, stores included.
    std::vector<double> importSeconds;
    std::vector<double> importCpuSeconds;
    bool histogramsDecoded = false;
    ImportResult last;
    for (int i = 0; i < repeat; ++i) {
        last = importFolder(folder);
        const QString problem = checkImport(last, shape, lastOfFirstTag, &histogramsDecoded);
        if (!problem.isEmpty()) {
            std::fprintf(stderr, "import check failed: %s (status %s)\n", qPrintable(problem), qPrintable(last.status));
            return 1;
        }
        importSeconds.push_back(last.seconds);
        importCpuSeconds.push_back(last.cpuSeconds);
    }
    const ::Timing import = summarize(importSeconds);
    const ::Timing importCpu = summarize(importCpuSeconds);
    const double runlensMBps = megabytes / import.median;
    std::printf("ImportSession -> ScalarStore + SummaryStore (%d runs, 1 thread): median %.3f s = %.0f MB/s, %.2f M "
                "records/s; best %.3f s; by thread CPU time median %.3f s\n",
                repeat, import.median, runlensMBps, double(records) / import.median / 1e6, import.best,
                importCpu.median);
    if (histogramsDecoded) {
        std::printf("  %lld scalar points; %d histogram tags keeping %lld of %lld values (limit %d per tag), "
                    "the latest of each kept and equal to the one written\n",
                    static_cast<long long>(last.scalarPoints), last.histogramTags,
                    static_cast<long long>(last.histogramItems), static_cast<long long>(last.histogramSeen),
                    SummaryLimits().histograms);
    } else if (shape.histogramEvents == 0) {
        std::printf("  %lld scalar points; no histograms in this file\n", static_cast<long long>(last.scalarPoints));
    } else {
        std::printf("  %lld scalar points; histograms NOT decoded by this build (no histogram series arrived)\n",
                    static_cast<long long>(last.scalarPoints));
    }

    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QCoreApplication::applicationFilePath(), { QStringLiteral("--memory-child"), folder });
    const QJsonObject memory = child.waitForFinished(-1) && child.exitCode() == 0
        ? bench::lastJsonLine(child.readAllStandardOutput())
        : QJsonObject();
    const double peakMb = kbToMb(memory.value(QStringLiteral("hwm_after_kb")).toDouble());
    if (peakMb > 0.0) {
        std::printf("memory (one import in a fresh process): peak RSS %.1f MB = %.2fx the file; %.1f MB before the "
                    "import; %.1f MB resident afterwards with the stores filled\n",
                    peakMb, peakMb / megabytes, kbToMb(memory.value(QStringLiteral("hwm_before_kb")).toDouble()),
                    kbToMb(memory.value(QStringLiteral("rss_after_kb")).toDouble()));
    } else {
        std::printf("memory: the measuring child process failed\n");
    }

    const char* histogramNote = histogramsDecoded || shape.histogramEvents == 0 ? "" : " (histograms not decoded)";
    const bench::Side runlensSide { "RunLens", import.median * 1e3, repeat, "1 thread" };
    const std::string what = std::string("summary import, whole file read by both") + histogramNote;
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
               { QStringLiteral(RUNLENS_BENCH_DIR "/peer_summaryimport.py"), QStringLiteral("--file"), file,
                 QStringLiteral("--proto-root"), QStringLiteral(RUNLENS_PROTO_ROOT), QStringLiteral("--protoc"),
                 QStringLiteral(RUNLENS_PROTOC), QStringLiteral("--repeat"), QString::number(repeat),
                 QStringLiteral("--histogram-limit"), QString::number(SummaryLimits().histograms) });
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
    if (result.value(QStringLiteral("scalar_points")).toInteger() != shape.scalars
        || result.value(QStringLiteral("histogram_values")).toInteger()
            != shape.histogramEvents * shape.histogramTags) {
        std::fprintf(stderr, "the python peer found %lld scalar points and %lld histogram values\n",
                     static_cast<long long>(result.value(QStringLiteral("scalar_points")).toInteger()),
                     static_cast<long long>(result.value(QStringLiteral("histogram_values")).toInteger()));
        return 1;
    }
    const double peerMedian = bench::median(peerSeconds);
    const double peerMBps = peerMegabytes / peerMedian;
    const double peerPeakMb = kbToMb(result.value(QStringLiteral("peak_rss_kb")).toDouble());
    std::printf("python peer (%s, python %s, protobuf implementation '%s', %zu runs, 1 thread): median %.2f s = "
                "%.1f MB/s; %lld scalar points, %lld histogram values (%lld kept); peak RSS %.1f MB (%.1f MB before "
                "the loop); by thread CPU time median %.1f MB/s\n",
                qPrintable(python), qPrintable(result.value(QStringLiteral("python")).toString()),
                qPrintable(result.value(QStringLiteral("protobuf_implementation")).toString()), peerSeconds.size(),
                peerMedian, peerMBps, static_cast<long long>(result.value(QStringLiteral("scalar_points")).toInteger()),
                static_cast<long long>(result.value(QStringLiteral("histogram_values")).toInteger()),
                static_cast<long long>(result.value(QStringLiteral("histogram_kept")).toInteger()), peerPeakMb,
                kbToMb(result.value(QStringLiteral("peak_rss_before_kb")).toDouble()),
                peerMegabytes / bench::median(peerCpuSeconds));
    char note[200];
    std::snprintf(note, sizeof note, "%.1f MB; RunLens %.0f MB/s, peak RSS %.0f MB; Python %.1f MB/s, peak RSS %.0f MB",
                  megabytes, runlensMBps, peakMb, peerMBps, peerPeakMb);
    bench::printRatio(what, runlensSide, { "Python loop", peerMedian * 1e3, int(peerSeconds.size()), "1 thread" },
                      note);
    return 0;
}
