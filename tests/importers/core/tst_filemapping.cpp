#include "importers/core/filemapping.h"
#include "importers/tensor/npyfile.h"
#include "models/tensor/tensorstatistics.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

using namespace runlens;
using namespace runlens::importers;

namespace {

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// A float32 .npy of `count` ones, as numpy writes it (version 1.0, header padded to 64 bytes).
QByteArray npyOfOnes(qint64 count)
{
    QByteArray header
        = QStringLiteral("{'descr': '<f4', 'fortran_order': False, 'shape': (%1,), }").arg(count).toLatin1();
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    const quint16 length = quint16(header.size());
    bytes.append(char(length & 0xff)).append(char(length >> 8));
    bytes += header;
    const float one = 1.0f;
    for (qint64 i = 0; i < count; ++i)
        bytes.append(reinterpret_cast<const char*>(&one), sizeof one);
    return bytes;
}

/// Pages of `path` in the page cache, as a share of its pages (mincore on a mapping that is never touched).
double residentShare(const QString& path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st
    {
    };
    ::fstat(fd, &st);
    const std::size_t length = std::size_t(st.st_size);
    void* base = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (base == MAP_FAILED)
        return -1;
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> resident((length + page - 1) / page);
    const bool ok = ::mincore(base, length, resident.data()) == 0;
    ::munmap(base, length);
    if (!ok)
        return -1;
    std::size_t in = 0;
    for (unsigned char r : resident)
        in += r & 1;
    return double(in) / double(resident.size());
}

} // namespace

class TestFileMapping : public QObject
{
    Q_OBJECT
private slots:
    void mapsARange()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bytes.bin"));
        QByteArray bytes(10000, '\0');
        for (int i = 0; i < bytes.size(); ++i)
            bytes[i] = char(i % 251);
        QVERIFY(writeFile(path, bytes));
        QString error;
        // An offset that is not a multiple of the page size.
        const auto mapping = FileMapping::map(path, 5000, 3000, error);
        QVERIFY2(mapping, qPrintable(error));
        QCOMPARE(mapping->size(), 3000);
        QCOMPARE(std::memcmp(mapping->data(), bytes.constData() + 5000, 3000), 0);
        QVERIFY(!mapping->damaged());
        QVERIFY(!FileMapping::map(path, 5000, 6000, error));
        QVERIFY2(error.contains(path) && error.contains(QStringLiteral("beyond its end")), qPrintable(error));
    }

    void aFileThatShrinksReadsAsZerosAndIsReported()
    {
        // A training job truncates the file it is rewriting while RunLens reads it.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("latest.bin"));
        QVERIFY(writeFile(path, QByteArray(1 << 20, '\x7f')));
        QString error;
        const auto mapping = FileMapping::map(path, 0, 0, error);
        QVERIFY2(mapping, qPrintable(error));
        QCOMPARE(mapping->size(), 1 << 20);
        QVERIFY(::truncate(QFile::encodeName(path).constData(), 4096) == 0);
        const int faultsBefore = FileMapping::faultsHandled();
        qint64 sum = 0;
        for (std::int64_t i = 0; i < mapping->size(); ++i)
            sum += std::int64_t(mapping->data()[i]);
        QCOMPARE(sum, qint64(4096) * 0x7f);
        QVERIFY(mapping->damaged());
        QVERIFY(FileMapping::faultsHandled() > faultsBefore);
        QVERIFY(mapping->damageMessage().contains(path));
    }

    void aTensorFileThatShrinksSaysSo()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("weights.npy"));
        const qint64 count = 1 << 20;
        QVERIFY(writeFile(path, npyOfOnes(count)));
        const importers::tensor::NpyFileResult opened = importers::tensor::openNpyFile(path);
        QVERIFY2(opened.tensor, qPrintable(opened.error));
        QVERIFY(opened.tensor->data->damage().isEmpty());
        QVERIFY(::truncate(QFile::encodeName(path).constData(), 128 + 4 * 1000) == 0);
        const models::tensor::TensorStatistics stats = models::tensor::computeStatistics(*opened.tensor, {});
        QCOMPARE(stats.count, count);
        QVERIFY(stats.zeros > 0);
        const QString damage = opened.tensor->data->damage();
        QVERIFY2(damage.contains(path), qPrintable(damage));
    }

    void aFifoIsRefusedWithoutBlocking()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("events.out.tfevents.fifo"));
        QVERIFY(mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
        QString error;
        QVERIFY(!FileMapping::map(path, 0, 0, error));
        QVERIFY2(error.contains(QStringLiteral("not a regular file")), qPrintable(error));
    }

    void prefetchReadsTheFileAhead();

    void faultsOutsideRegisteredMappingsKeepTheirMeaning()
    {
        // The handler must not swallow a SIGBUS that is not its own: the child maps one file through
        // FileMapping, another one behind its back, truncates the second and reads past its end.
        QTemporaryDir dir;
        const QString registered = dir.filePath(QStringLiteral("registered.bin"));
        const QString other = dir.filePath(QStringLiteral("unregistered.bin"));
        QVERIFY(writeFile(registered, QByteArray(1 << 16, 'x')));
        QVERIFY(writeFile(other, QByteArray(1 << 16, 'y')));
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            const QByteArray program(RUNLENS_SIGBUS_CHILD);
            const QByteArray a = QFile::encodeName(registered);
            const QByteArray b = QFile::encodeName(other);
            execl(program.constData(), program.constData(), a.constData(), b.constData(), static_cast<char*>(nullptr));
            _exit(127);
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY2(!WIFEXITED(status), qPrintable(QStringLiteral("exit code %1").arg(WEXITSTATUS(status))));
#if defined(__SANITIZE_ADDRESS__)
        // The sanitizer's own handler, chained to, reports the fault and aborts.
        QVERIFY(WIFSIGNALED(status));
#else
        QVERIFY(WIFSIGNALED(status));
        QCOMPARE(WTERMSIG(status), SIGBUS);
#endif
    }
};

void TestFileMapping::prefetchReadsTheFileAhead()
{
    // On the build's disk, not a tmpfs /tmp whose pages cannot leave memory.
    QTemporaryDir dir(QDir::current().filePath(QStringLiteral("prefetch-XXXXXX")));
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("trace.json"));
    QVERIFY(writeFile(path, QByteArray(16 << 20, 'x')));
    const QByteArray name = QFile::encodeName(path);
    const int fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC);
    QVERIFY(fd >= 0);
    // Written back, then dropped from the page cache: nothing of it is in memory before the prefetch.
    QCOMPARE(::fdatasync(fd), 0);
    QCOMPARE(::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
    ::close(fd);
    const double before = residentShare(path);
    QVERIFY2(before >= 0 && before < 0.5, qPrintable(QString::number(before)));

    QElapsedTimer timer;
    timer.start();
    prefetchFile(path);
    prefetchFile(dir.filePath(QStringLiteral("missing.json"))); // left alone
    prefetchFile(QString());
    // It returns before the reading is done (it runs beside the caller), and the file is then in memory.
    QVERIFY(timer.elapsed() < 1000);
    QTRY_VERIFY_WITH_TIMEOUT(residentShare(path) > 0.95, 20000);
    QCOMPARE(QFileInfo(path).size(), qint64(16 << 20));
}

QTEST_GUILESS_MAIN(TestFileMapping)
#include "tst_filemapping.moc"
