#include "importers/tensor/npyheader.h"
#include "tests/importers/tensor/tensortestutils.h"
#include "tests/testutils.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens::importers::tensor;

namespace {

NpyHeaderResult parse(const QByteArray& bytes)
{
    return parseNpyHeader(std::string_view(bytes.constData(), std::size_t(bytes.size())), bytes.size(), "x.npy");
}

} // namespace

class TestNpyHeader : public QObject
{
    Q_OBJECT

private:
    /// Checks our reading of every file against numpy's.
    void compareWithNumpy(const QStringList& files)
    {
        const runlens::test::PythonRun described
            = runlens::test::runNpyOracle(QStringList { QStringLiteral("describe") } + files);
        RUNLENS_VERIFY_PYTHON(described);
        const QStringList lines = described.output.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), files.size());
        for (const QString& line : lines) {
            const QStringList f = line.split(QLatin1Char('\t'));
            QCOMPARE(f.size(), 7);
            const NpyHeaderResult result = readNpyHeader(f[0].toStdString());
            QVERIFY2(result.header, result.error.c_str());
            const NpyHeader& h = *result.header;
            QCOMPARE(QString::fromStdString(h.dtype), f[1]);
            QStringList dims;
            for (const std::int64_t dim : h.shape)
                dims << QString::number(dim);
            QCOMPARE(dims.join(QLatin1Char(',')), f[2]);
            QCOMPARE(h.fortranOrder, f[3] == QLatin1String("1"));
            QCOMPARE(h.dataOffset, f[4].toLongLong());
            QCOMPARE(h.dataSize, f[5].toLongLong());
            if (f[6] != QLatin1String("="))
                QCOMPARE(QString(QLatin1Char(h.byteOrder)), f[6]);
            QCOMPARE(h.dataOffset + h.dataSize, QFileInfo(f[0]).size());
        }
    }

private slots:
    void generatedFilesMatchNumpy()
    {
        QTemporaryDir dir;
        const runlens::test::PythonRun written = runlens::test::runNpyOracle({ QStringLiteral("write"), dir.path() });
        RUNLENS_VERIFY_PYTHON(written);
        QStringList files;
        for (const QString& name : QDir(dir.path()).entryList({ QStringLiteral("*.npy") }))
            files << dir.filePath(name);
        QCOMPARE(files.size(), 13);
        compareWithNumpy(files);

        const NpyHeaderResult v3 = readNpyHeader(dir.filePath(QStringLiteral("v3.npy")).toStdString());
        QVERIFY(v3.header);
        QCOMPARE(v3.header->majorVersion, 3);
        QCOMPARE(v3.header->text(), std::string("int16[2,5]"));
        const NpyHeaderResult scalar = readNpyHeader(dir.filePath(QStringLiteral("scalar.npy")).toStdString());
        QVERIFY(scalar.header);
        QCOMPARE(scalar.header->text(), std::string("float64[]"));
        QCOMPARE(scalar.header->elementCount(), 1);
    }

    void sampleDumpsMatchNumpy()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        QStringList files;
        QDirIterator it(samples + QStringLiteral("/runs/pytorch_cnn_baseline/dump"), { QStringLiteral("*.npy") },
                        QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
        QVERIFY(files.size() > 30);
        compareWithNumpy(files);
    }

    void hostileHeaders_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error");
        const QByteArray good
            = runlens::test::npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 48);
        QTest::newRow("empty") << QByteArray() << "ends inside the .npy header";
        QTest::newRow("magic only") << QByteArray("\x93NUMP", 5) << "ends inside the .npy header";
        QTest::newRow("bad magic") << QByteArray("PK\x03\x04 not numpy at all") << "magic string";
        QTest::newRow("header cut") << good.left(40) << "ends inside the .npy header";
        QTest::newRow("data cut") << good.left(good.size() - 1) << "truncated";
        QTest::newRow("version 4") << QByteArray(good).replace(6, 1, "\x04") << "unsupported .npy format version 4";
        QTest::newRow("huge header length")
            << QByteArray("\x93NUMPY\x02\x00\xff\xff\xff\x7f", 12) << "more than numpy writes";
        QTest::newRow("huge shape") << runlens::test::npyFile(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 8), }", 0)
                                    << "more data than any file can hold";
        QTest::newRow("shape overflows int64")
            << runlens::test::npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", 0)
            << "does not fit in 64 bits";
        QTest::newRow("negative dim") << runlens::test::npyFile(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }", 0)
                                      << "non-negative integer";
        QTest::newRow("not a dict") << runlens::test::npyFile("['descr', '<f4']", 0) << "not a dict";
        QTest::newRow("missing shape") << runlens::test::npyFile("{'descr': '<f4', 'fortran_order': False, }", 0)
                                       << "lacks descr, fortran_order or shape";
        QTest::newRow("unknown key") << runlens::test::npyFile(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}", 4)
                                     << "unexpected key 'x'";
        QTest::newRow("unterminated") << runlens::test::npyFile("{'descr': '<f4', 'fortran_order': Fal", 0)
                                      << "fortran_order is not True or False";
        QTest::newRow("bad descr") << runlens::test::npyFile(
            "{'descr': '<q9', 'fortran_order': False, 'shape': (1,), }", 9)
                                   << "not a numpy type string";
        QTest::newRow("object") << runlens::test::npyFile("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", 8)
                                << "object arrays";
        QTest::newRow("structured") << runlens::test::npyFile(
            "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", 4)
                                    << "structured";
    }

    void hostileHeaders()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        const NpyHeaderResult result = parse(bytes);
        QVERIFY(!result.header);
        const QString message = QString::fromStdString(result.error);
        QVERIFY2(message.startsWith(QLatin1String("x.npy: ")), qPrintable(message));
        QVERIFY2(message.contains(error), qPrintable(message));
    }

    void handWrittenHeadersParse()
    {
        // Version 2 header, a Python 2 long and a one-element tuple, big-endian int32.
        const QByteArray bytes
            = runlens::test::npyFile("{'descr': '>i4', 'fortran_order': True, 'shape': (2L, 3,), }", 24, 2);
        const NpyHeaderResult result = parse(bytes);
        QVERIFY2(result.header, result.error.c_str());
        QCOMPARE(result.header->majorVersion, 2);
        QCOMPARE(result.header->byteOrder, '>');
        QCOMPARE(result.header->dtype, std::string("int32"));
        QVERIFY(result.header->fortranOrder);
        QCOMPARE(result.header->shape, (std::vector<std::int64_t> { 2, 3 }));
        QCOMPARE(result.header->dataOffset, bytes.size() - 24);
        QCOMPARE(result.header->dataSize, 24);
        // An empty array with an absurd other dimension holds no data and is fine.
        const NpyHeaderResult empty = parse(
            runlens::test::npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4611686018427387904), }", 0));
        QVERIFY2(empty.header, empty.error.c_str());
        QCOMPARE(empty.header->dataSize, 0);
    }

    void unreadableFileNamesIt()
    {
        const NpyHeaderResult result = readNpyHeader("/nonexistent/dir/t.npy");
        QVERIFY(!result.header);
        QVERIFY(QString::fromStdString(result.error).startsWith(QLatin1String("/nonexistent/dir/t.npy: ")));
    }
};

QTEST_GUILESS_MAIN(TestNpyHeader)
#include "tst_npyheader.moc"
