// Run by tst_tracecache in a child process: imports the trace at argv[1] and truncates it to 4 KiB as soon as
// the import reports progress, then reads every slice's args from the mapping. Exits 0 when the import said
// the file changed, 3 when it did not; a SIGBUS that escaped the mapping's handler ends it by the signal.

#include "importers/trace/chrometracereader.h"

#include <QCoreApplication>
#include <QFile>

#include <cstdio>

#include <unistd.h>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::trace;
using namespace runlens::models;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2)
        return 2;
    const QString path = QFile::decodeName(argv[1]);
    ImportControl control;
    bool truncated = false;
    control.progress = [&](int) {
        if (!truncated)
            truncated = ::truncate(argv[1], 4096) == 0;
    };
    const ChromeTraceResult result = ChromeTraceReader::read({ path }, control);
    bool reported = false;
    for (const Diagnostic& d : result.diagnostics)
        reported = reported || d.message.contains(QStringLiteral("shrank or was replaced"));
    // Args are read lazily from the same mapping: past the new end they read as zeros.
    if (::truncate(argv[1], 0) != 0)
        return 4;
    std::size_t argsBytes = 0;
    for (std::size_t t = 0; t < result.store->tracks().size(); ++t) {
        for (std::size_t i = 0; i < result.store->tracks()[t].size(); ++i)
            argsBytes += result.store->argsJson(int(t), i).size();
    }
    std::printf("truncated %d, reported %d, args bytes %zu\n", int(truncated), int(reported), argsBytes);
    return truncated && reported ? 0 : 3;
}
