#include "importers/core/filemapping.h"
#include "importers/tensor/npyfile.h"
#include "models/tensor/tensorstatistics.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

QTEST_GUILESS_MAIN(TestFileMapping)
#include "tst_filemapping.moc"
