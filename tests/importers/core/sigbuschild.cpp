// A plain program (no Qt Test crash handler in the way) for tst_filemapping: it installs the mapped-file
// SIGBUS handler by mapping one file, then reads past the end of a second file mapped behind the handler's
// back. The fault is not the handler's to absorb, so the process must die of SIGBUS.
#include "importers/core/filemapping.h"

#include <QByteArray>
#include <QString>

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    if (argc != 3)
        return 2;
    QString error;
    const auto registered = runlens::importers::FileMapping::map(QString::fromLocal8Bit(argv[1]), 0, 0, error);
    if (!registered)
        return 3;
    const int fd = ::open(argv[2], O_RDONLY);
    if (fd < 0)
        return 4;
    auto* bytes = static_cast<volatile const char*>(mmap(nullptr, 1 << 16, PROT_READ, MAP_SHARED, fd, 0));
    if (bytes == MAP_FAILED || ::truncate(argv[2], 0) != 0)
        return 5;
    volatile char c = bytes[40000];
    (void)c;
    return 0; // reached only if the fault was swallowed
}
