// Runs each input of a fuzz target once, without libFuzzer: how CI replays the committed corpora and the
// inputs that once crashed, in the normal compiler's build.
#include "tests/fuzz/fuzztargets.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <cstdio>
#include <string>

namespace {

int usage()
{
    std::fprintf(stderr, "usage: runlens_fuzz_replay TARGET FILE_OR_DIR...\ntargets:\n");
    for (const runlens::fuzz::FuzzTarget& target : runlens::fuzz::fuzzTargets())
        std::fprintf(stderr, "  %-15s %s\n", target.name, target.what);
    return 2;
}

/// The files to replay: each argument, or the files below it (sorted, so runs are reproducible).
bool collect(const QString& argument, QStringList& files)
{
    const QFileInfo info(argument);
    if (info.isFile()) {
        files << argument;
        return true;
    }
    if (!info.isDir())
        return false;
    QStringList found;
    QDirIterator it(argument, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext())
        found << it.next();
    found.sort();
    files << found;
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3)
        return ::usage();
    const runlens::fuzz::FuzzTarget* target = runlens::fuzz::findFuzzTarget(argv[1]);
    if (!target) {
        std::fprintf(stderr, "unknown target %s\n", argv[1]);
        return ::usage();
    }
    runlens::fuzz::initializeFuzzing();

    QStringList files;
    for (int i = 2; i < argc; ++i) {
        if (!collect(QString::fromLocal8Bit(argv[i]), files)) {
            std::fprintf(stderr, "%s: no such file or folder\n", argv[i]);
            return 1;
        }
    }
    for (const QString& path : files) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "%s: cannot read: %s\n", qPrintable(path), qPrintable(file.errorString()));
            return 1;
        }
        const QByteArray bytes = file.readAll();
        // Named before it runs, so the log of a crash says which input it was.
        std::fprintf(stderr, "%s %s (%lld bytes)\n", target->name, qPrintable(path), qint64(bytes.size()));
        target->run(reinterpret_cast<const std::uint8_t*>(bytes.constData()), std::size_t(bytes.size()));
    }
    std::printf("%s: %lld inputs replayed\n", target->name, qint64(files.size()));
    return 0;
}
