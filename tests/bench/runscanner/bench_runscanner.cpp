#include "core/runscanner.h"
#include "summary/eventfilewriter.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace runlens;

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
                summary::EventFileWriter writer;
                ok = writer.open(
                    dir + QLatin1Char('/')
                    + summary::EventFileWriter::tensorBoardFileName(1700000000 + leaf, QStringLiteral("bench"), 7));
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

/// Median of the timings, in milliseconds.
double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
}

/// The peer: os.walk plus one 4 KiB read of every file, timed inside Python (interpreter start excluded).
double pythonPeerMs(const QString& root, int iterations)
{
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty())
        return -1.0;
    const QString script = QStringLiteral(R"(
import os, sys, time
root, n = sys.argv[1], int(sys.argv[2])
def scan():
    count = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith('.')]
        for name in filenames:
            path = os.path.join(dirpath, name)
            st = os.stat(path)
            with open(path, 'rb') as f:
                f.read(4096)
            count += 1
    return count
scan()
times = []
for _ in range(n):
    t = time.perf_counter()
    scan()
    times.append((time.perf_counter() - t) * 1000.0)
times.sort()
print(times[len(times) // 2])
)");
    QProcess process;
    process.start(python, { QStringLiteral("-c"), script, root, QString::number(iterations) });
    if (!process.waitForFinished(600000) || process.exitCode() != 0)
        return -1.0;
    bool ok = false;
    const double ms = process.readAllStandardOutput().trimmed().toDouble(&ok);
    return ok ? ms : -1.0;
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
    const double ms = median(times);
    const qint64 entries = manifest.entriesVisited;
    std::printf("RunScanner: %.2f ms per scan (median of %d), %lld entries, %lld artifacts in %lld runs, "
                "%.0f entries/s%s\n",
                ms, iterations, qint64(entries), qint64(manifest.artifacts.size()), qint64(manifest.runs().size()),
                ms > 0 ? entries / (ms / 1000.0) : 0.0, manifest.truncated ? " (truncated)" : "");

    if (!parser.isSet(noPeerOption)) {
        const double peer = pythonPeerMs(root, iterations);
        if (peer < 0)
            std::printf("peer: python3 not available, no ratio\n");
        else
            std::printf(
                "peer python3 os.walk + stat + read(4096) per file: %.2f ms per scan; ratio peer/RunScanner = %.1fx\n",
                peer, ms > 0 ? peer / ms : 0.0);
    }
    return 0;
}
