// Scans a generated run folder (10,000 files, 500 runs, 4 levels) with RunScanner K times, against a Python
// peer (peer_runscanner.py) doing the same walk with the same rules: hidden names skipped, the same depth and
// entry limits, files opened only when FileSniffer would open them, 4 KiB read of each. Both sides median of
// K scans after one warm-up scan, one thread each, interpreter start-up excluded.
//
//   bench_runscanner [--files N] [--iterations K] [--dir DIR] [--no-peer] [--keep]

#include "importers/core/filesniffer.h"
#include "importers/core/runscanner.h"
#include "importers/summary/eventfilewriter.h"

#include "tests/bench/benchcommon.h"
#include "tests/bench/benchpeer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::models;

namespace {

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

QByteArray npyBytes(int floats)
{
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + QByteArray::number(floats) + ",), }";
    while ((10 + header.size() + 1) % 64 != 0)
        header.append(' ');
    header.append('\n');
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out.append(char(header.size() & 0xff)).append(char(header.size() >> 8));
    return out + header + QByteArray(floats * 4, '\x01');
}

QByteArray traceBytes(int events)
{
    QByteArray json = "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [],\n  \"traceEvents\": [\n";
    for (int i = 0; i < events; ++i)
        json += "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 2, \"ts\": "
            + QByteArray::number(i * 10) + ", \"dur\": 5},\n";
    json += "  {}\n]}\n";
    return json;
}

/// A run folder four levels deep: run_NN/phase_N/part_N/leaf holding a mix of files every importer sees in
/// real folders, plus files that have to be rejected (junk without extension, code, images, notes).
int generate(const QString& root, int files)
{
    static const char* const kinds[] = { "events", "npy",  "npy",  "npy", "npy", "npy", "npy", "json", "json", "json",
                                         "junk",   "junk", "junk", "py",  "py",  "png", "png", "txt",  "txt",  "csv" };
    constexpr int perLeaf = int(std::size(kinds));
    const QByteArray npy = npyBytes(256);
    const QByteArray trace = traceBytes(100);
    QByteArray junk(8192, '\0');
    for (int i = 0; i < junk.size(); ++i)
        junk[i] = char((i * 7919 + 13) & 0xff);
    const QByteArray png = QByteArray("\x89PNG\r\n\x1a\n", 8) + junk.left(2000);

    int written = 0;
    for (int leaf = 0; written < files; ++leaf) {
        const QString dir = QStringLiteral("%1/run_%2/phase_%3/part_%4/leaf")
                                .arg(root)
                                .arg(leaf / 25, 2, 10, QLatin1Char('0'))
                                .arg((leaf / 5) % 5)
                                .arg(leaf % 5);
        QDir().mkpath(dir);
        for (int k = 0; k < perLeaf && written < files; ++k, ++written) {
            const QString kind = QString::fromLatin1(kinds[k]);
            const QString base = QStringLiteral("%1/f%2").arg(dir).arg(k);
            bool ok = true;
            if (kind == QLatin1String("events")) {
                importers::summary::EventFileWriter writer;
                ok = writer.open(dir + QLatin1Char('/')
                                 + importers::summary::EventFileWriter::tensorBoardFileName(
                                     1700000000 + leaf, QStringLiteral("bench"), 7));
                writer.writeFileVersion(1700000000.0);
                for (int step = 0; step < 50; ++step)
                    writer.writeScalar(QStringLiteral("loss"), step, 1700000000.0 + step, 1.0 / (step + 1));
                ok = ok && writer.close();
            } else if (kind == QLatin1String("npy")) {
                ok = writeFile(base + QStringLiteral(".npy"), npy);
            } else if (kind == QLatin1String("json")) {
                ok = writeFile(base + QStringLiteral(".pt.trace.json"), trace);
            } else if (kind == QLatin1String("junk")) {
                ok = writeFile(base, junk);
            } else if (kind == QLatin1String("py")) {
                ok = writeFile(base + QStringLiteral(".py"), "import torch\nprint(torch.__version__)\n");
            } else if (kind == QLatin1String("png")) {
                ok = writeFile(base + QStringLiteral(".png"), png);
            } else if (kind == QLatin1String("txt")) {
                ok = writeFile(base + QStringLiteral(".txt"), "epoch 1: loss went down\n");
            } else {
                ok = writeFile(base + QStringLiteral(".csv"), "step,loss\n0,2.3\n1,2.1\n");
            }
            if (!ok) {
                std::fprintf(stderr, "cannot write into %s\n", qPrintable(dir));
                return -1;
            }
        }
    }
    return written;
}

/// Lower-cased extension after the last dot, as FileSniffer sees it ("" for none and for dot files).
std::string extensionOf(const std::string& lower)
{
    const std::size_t dot = lower.rfind('.');
    return dot == std::string::npos || dot == 0 ? std::string() : lower.substr(dot + 1);
}

/// What the peer needs to apply FileSniffer's name rule to this folder: the extensions present in it that
/// FileSniffer never opens, asked of FileSniffer itself. Also counts the files RunScanner opens, to check
/// that the peer opened the same ones (the folder's tree is plain: no hidden names, links or deep levels).
struct NameRule
{
    std::set<std::string> skipped;
    qint64 opened = 0;
};

NameRule nameRule(const QString& root)
{
    NameRule rule;
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QByteArray name = QFile::encodeName(it.fileName());
        const std::string base(name.constData(), std::size_t(name.size()));
        std::string lower = base;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; });
        for (std::string ext = extensionOf(lower);;) {
            if (!ext.empty() && !FileSniffer::worthReading("f." + ext))
                rule.skipped.insert(ext);
            if (ext != "gz")
                break;
            ext = extensionOf(lower.substr(0, lower.size() - 3));
        }
        rule.opened += FileSniffer::worthReading(base) ? 1 : 0;
    }
    return rule;
}

struct PeerResult
{
    std::vector<double> ms;
    qint64 opened = -1;
    QString error;
};

PeerResult pythonPeer(const QString& root, int iterations, const std::set<std::string>& skipped)
{
    PeerResult result;
    QString python = QStandardPaths::findExecutable(QStringLiteral("python3"), { QStringLiteral("/usr/bin") });
    if (python.isEmpty())
        python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty()) {
        result.error = QStringLiteral("python3 not found");
        return result;
    }
    QStringList extensions;
    for (const std::string& ext : skipped)
        extensions << QString::fromStdString(ext);
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(python,
                  { QStringLiteral(RUNLENS_BENCH_DIR "/peer_runscanner.py"), root, QString::number(iterations),
                    extensions.join(QLatin1Char(',')) });
    if (!process.waitForFinished(600000) || process.exitCode() != 0) {
        result.error = QStringLiteral("the python peer failed");
        return result;
    }
    const QJsonObject json = bench::lastJsonLine(process.readAllStandardOutput());
    result.ms = bench::numbers(json, QStringLiteral("ms"));
    result.opened = json.value(QStringLiteral("opened")).toInteger(-1);
    if (result.ms.empty())
        result.error = QStringLiteral("the python peer printed no timings");
    return result;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("RunScanner benchmark"));
    parser.addHelpOption();
    const QCommandLineOption filesOption(QStringLiteral("files"), QStringLiteral("Files to generate."),
                                         QStringLiteral("N"), QStringLiteral("10000"));
    const QCommandLineOption iterationsOption(QStringLiteral("iterations"), QStringLiteral("Timed scans."),
                                              QStringLiteral("K"), QStringLiteral("10"));
    const QCommandLineOption dirOption(
        QStringLiteral("dir"), QStringLiteral("Scan this folder instead of generating one."), QStringLiteral("DIR"));
    const QCommandLineOption noPeerOption(QStringLiteral("no-peer"), QStringLiteral("Skip the Python peer."));
    const QCommandLineOption keepOption(QStringLiteral("keep"),
                                        QStringLiteral("Keep the generated folder (for profiling)."));
    parser.addOptions({ filesOption, iterationsOption, dirOption, noPeerOption, keepOption });
    parser.process(app);

    const int iterations = std::max(1, parser.value(iterationsOption).toInt());
    QTemporaryDir temp;
    QString root = parser.value(dirOption);
    qint64 files = 0;
    if (root.isEmpty()) {
        root = temp.path();
        temp.setAutoRemove(!parser.isSet(keepOption));
        QElapsedTimer timer;
        timer.start();
        files = generate(root, parser.value(filesOption).toInt());
        if (files < 0)
            return 1;
        std::printf("generated %lld files in %s (%.1f s)\n", files, qPrintable(root), timer.elapsed() / 1000.0);
    }

    RunScanner::Options options;
    const RunScanner scanner(options);
    RunManifest manifest = scanner.scan(root); // warms the page cache and the dentry cache
    std::vector<double> times;
    for (int i = 0; i < iterations; ++i) {
        QElapsedTimer timer;
        timer.start();
        manifest = scanner.scan(root);
        times.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const double ms = bench::median(times);
    const qint64 entries = manifest.entriesVisited;
    std::printf("RunScanner: %.2f ms per scan (median of %d), %lld entries, %lld artifacts in %lld runs, "
                "%.0f entries/s%s\n",
                ms, iterations, qint64(entries), qint64(manifest.artifacts.size()), qint64(manifest.runs().size()),
                ms > 0 ? entries / (ms / 1000.0) : 0.0, manifest.truncated ? " (truncated)" : "");

    const bench::Side runlensSide { "RunScanner", ms, iterations, "1 thread" };
    const char* what = "scan a run folder";
    if (parser.isSet(noPeerOption)) {
        bench::printNoRatio(what, runlensSide, "peer skipped");
        return 0;
    }
    const ::NameRule rule = nameRule(root);
    const ::PeerResult peer = pythonPeer(root, iterations, rule.skipped);
    if (!peer.error.isEmpty()) {
        bench::printNoRatio(what, runlensSide, peer.error.toStdString());
        return 0;
    }
    const double peerMs = bench::median(peer.ms);
    std::printf("peer python3, the same walk and rules (hidden names skipped, depth <= %d, %lld entries at most, "
                "%zu extensions never opened), open + fstat + read(4096) of %lld files: %.2f ms per scan (median of "
                "%zu)\n",
                options.maxDepth, static_cast<long long>(options.maxEntries), rule.skipped.size(),
                static_cast<long long>(peer.opened), peerMs, peer.ms.size());
    // The count ignores hidden names, links and depth: exact for the generated folder, a hint for --dir.
    const bool same = peer.opened == rule.opened;
    if (!same)
        std::fprintf(stderr, "warning: the peer opened %lld files, RunScanner's name rule opens %lld\n",
                     static_cast<long long>(peer.opened), static_cast<long long>(rule.opened));
    bench::printRatio(
        what, runlensSide, { "Python walk", peerMs, int(peer.ms.size()), "1 thread" },
        (same ? "both skip the same names and open the same " + std::to_string(rule.opened) + " files"
              : "the peer opened " + std::to_string(peer.opened) + " files, RunScanner " + std::to_string(rule.opened))
            + "; the peer does not classify heads or build a manifest");
    return 0;
}
