#include "importers/tensor/npyfile.h"

#include "importers/tensor/npyheader.h"

#include "tests/importers/tensor/tensortestutils.h"
#include "tests/testutils.h"

#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>

using namespace runlens::importers::tensor;
using namespace runlens::models::tensor;

namespace {

/// numpy's reading of each file given as an argument: path, kind + item size, shape, and the elements at
/// flat C-order positions 0, n/3 and n-1 (real part).
const char* const kNumpyProbe = "import sys, numpy as np\n"
                                "for p in sys.argv[1:]:\n"
                                "    a = np.load(p, mmap_mode='r')\n"
                                "    f = np.asarray(a).ravel(order='C')\n"
                                "    n = f.size\n"
                                "    idx = [0, n // 3, n - 1] if n else []\n"
                                "    vals = ' '.join(repr(float(np.real(f[i]))) for i in idx)\n"
                                "    print('\\t'.join([p, a.dtype.kind + str(a.dtype.itemsize),"
                                " ','.join(map(str, a.shape)), vals]))\n";

std::vector<std::int64_t> unravel(std::int64_t flat, const std::vector<std::int64_t>& shape)
{
    std::vector<std::int64_t> index(shape.size());
    for (int k = int(shape.size()) - 1; k >= 0; --k) {
        index[k] = flat % shape[k];
        flat /= shape[k];
    }
    return index;
}

/// Writes a .npy with the given header dict and raw data bytes; its path.
QString writeNpy(const QTemporaryDir& dir, const QString& name, const QByteArray& dict, const QByteArray& data)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(runlens::test::npyFile(dict, 0) + data);
    return path;
}

} // namespace

class TstNpyFile : public QObject
{
    Q_OBJECT

private slots:
    void samplesMatchNumpy()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        QStringList files;
        QDirIterator it(samples + QStringLiteral("/runs/pytorch_cnn_baseline/dump"), { QStringLiteral("*.npy") },
                        QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
        QVERIFY(files.size() >= 20);
        RUNLENS_PYTHON_ORACLE(probe, QStringList { QStringLiteral("-c"), QString::fromLatin1(kNumpyProbe) } + files);
        const QStringList lines = probe.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), files.size());
        QSet<DType> types;
        for (const QString& line : lines) {
            const QStringList f = line.split(u'\t');
            QCOMPARE(f.size(), 4);
            const NpyFileResult opened = openNpyFile(f[0]);
            QVERIFY2(opened.tensor, qPrintable(opened.error));
            const Tensor& t = *opened.tensor;
            types.insert(t.dtype);
            QCOMPARE(f[1].at(0).toLatin1() + QString::number(itemSize(t.dtype)), f[1]);
            QCOMPARE(dtypeFromNpy(f[1].at(0).toLatin1(), itemSize(t.dtype)), std::optional<DType>(t.dtype));
            std::vector<std::int64_t> shape;
            for (const QString& d : f[2].split(u',', Qt::SkipEmptyParts))
                shape.push_back(d.toLongLong());
            QCOMPARE(t.shape, shape);
            QVERIFY(t.isContiguous());
            const QStringList values = f[3].split(u' ', Qt::SkipEmptyParts);
            const std::int64_t n = t.elementCount();
            const std::int64_t positions[] = { 0, n / 3, n - 1 };
            QCOMPARE(values.size(), n ? 3 : 0);
            for (int i = 0; i < values.size(); ++i) {
                const double expected = values[i].toDouble();
                const double actual = t.value(unravel(positions[i], t.shape));
                if (std::isnan(expected))
                    QVERIFY(std::isnan(actual));
                else
                    QCOMPARE(actual, expected);
            }
        }
        // The run dumps float32 weights and activations, float16 copies and int64 targets.
        QVERIFY(types.contains(DType::Float32));
        QVERIFY(types.contains(DType::Float16));
    }

    void everyNumericDescr()
    {
        // numpy's descr strings for the numeric types; the header reader names them as numpy does.
        const char* const descrs[]
            = { "|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "<f2", "<f4", "<f8", "<c8", "<c16" };
        for (const char* descr : descrs) {
            const QByteArray file = runlens::test::npyFile(
                QByteArray("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (1,), }", 16);
            const NpyHeaderResult parsed = parseNpyHeader(file.toStdString(), file.size());
            QVERIFY2(parsed.header, parsed.error.c_str());
            const std::optional<DType> type = dtypeFromNpy(parsed.header->typeCode, parsed.header->itemSize);
            QVERIFY2(type, descr);
            QCOMPARE(std::string(dtypeName(*type)), parsed.header->dtype);
            QCOMPARE(std::int64_t(itemSize(*type)), parsed.header->itemSize);
        }
        QVERIFY(!dtypeFromNpy('f', 16)); // float128 is not read
        QVERIFY(!dtypeFromNpy('V', 2));
        QVERIFY(!dtypeFromNpy('U', 4));
    }

    void bigEndianAndFortranOrder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // >i4 [258, -2, 7]
        const QByteArray be("\x00\x00\x01\x02\xff\xff\xff\xfe\x00\x00\x00\x07", 12);
        const NpyFileResult big = openNpyFile(
            writeNpy(dir, QStringLiteral("be.npy"), "{'descr': '>i4', 'fortran_order': False, 'shape': (3,), }", be));
        QVERIFY2(big.tensor, qPrintable(big.error));
        QCOMPARE(big.tensor->dtype, DType::Int32);
        QCOMPARE(big.tensor->swap, std::endian::native == std::endian::little);
        QCOMPARE(big.tensor->value({ 0 }), 258.0);
        QCOMPARE(big.tensor->value({ 1 }), -2.0);
        QCOMPARE(big.tensor->value({ 2 }), 7.0);
        QCOMPARE(big.tensor->name, QStringLiteral("be"));

        // A (2, 3) float64 array [[0, 1, 2], [10, 11, 12]] stored column by column.
        QByteArray columnMajor;
        for (const double v : { 0.0, 10.0, 1.0, 11.0, 2.0, 12.0 })
            columnMajor.append(reinterpret_cast<const char*>(&v), 8);
        const NpyFileResult fortran = openNpyFile(writeNpy(
            dir, QStringLiteral("f.npy"), "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", columnMajor));
        QVERIFY2(fortran.tensor, qPrintable(fortran.error));
        QCOMPARE(fortran.tensor->strides, (std::vector<std::int64_t> { 8, 16 }));
        QVERIFY(!fortran.tensor->isContiguous());
        QCOMPARE(fortran.tensor->value({ 0, 2 }), 2.0);
        QCOMPARE(fortran.tensor->value({ 1, 0 }), 10.0);
        QCOMPARE(fortran.tensor->value({ 1, 2 }), 12.0);
    }

    void extensionElementTypes()
    {
        QTemporaryDir dir;
        // bfloat16 bit patterns of 1.0, -2.5 and +inf, little-endian: the upper halves of their float32 bits.
        const QByteArray bf16("\x80\x3f\x20\xc0\x80\x7f", 6);
        for (const char* descr : { "<V2", "|V2", "bfloat16" }) {
            const QByteArray dict
                = QByteArray("{'descr': '") + descr + QByteArray("', 'fortran_order': False, 'shape': (3,), }");
            const NpyFileResult r = openNpyFile(writeNpy(dir, QStringLiteral("w.npy"), dict, bf16));
            QVERIFY2(r.tensor, qPrintable(r.error));
            QCOMPARE(r.tensor->dtype, DType::BFloat16);
            QCOMPARE(r.tensor->value({ 0 }), 1.0);
            QCOMPARE(r.tensor->value({ 1 }), -2.5);
            QVERIFY(std::isinf(r.tensor->value({ 2 })) && r.tensor->value({ 2 }) > 0);
            // Only the raw form is a guess worth telling the user about.
            QCOMPARE(r.note.isEmpty(), QByteArray(descr) == "bfloat16");
        }

        // float8: 0x38 is 1.0 in E4M3FN, 0x3c is 1.0 in E5M2.
        const NpyFileResult e4m3
            = openNpyFile(writeNpy(dir, QStringLiteral("scale_e4m3.npy"),
                                   "{'descr': '|V1', 'fortran_order': False, 'shape': (1,), }", "\x38"));
        QVERIFY2(e4m3.tensor, qPrintable(e4m3.error));
        QCOMPARE(e4m3.tensor->dtype, DType::Float8E4M3);
        QCOMPARE(e4m3.tensor->value({ 0 }), 1.0);
        const NpyFileResult e5m2 = openNpyFile(writeNpy(
            dir, QStringLiteral("x.npy"), "{'descr': 'float8_e5m2', 'fortran_order': False, 'shape': (1,), }", "\x3c"));
        QVERIFY2(e5m2.tensor, qPrintable(e5m2.error));
        QCOMPARE(e5m2.tensor->dtype, DType::Float8E5M2);
        QCOMPARE(e5m2.tensor->value({ 0 }), 1.0);

        // One raw byte without a name saying what it is stays unread rather than guessed.
        const NpyFileResult raw = openNpyFile(
            writeNpy(dir, QStringLiteral("raw.npy"), "{'descr': '|V1', 'fortran_order': False, 'shape': (1,), }", "x"));
        QVERIFY(!raw.tensor);
        QVERIFY2(raw.error.contains(QStringLiteral("raw.npy")), qPrintable(raw.error));
    }

    void scalarAndEmpty()
    {
        QTemporaryDir dir;
        QByteArray scalarBytes(8, '\0');
        const double pi = 3.25;
        std::memcpy(scalarBytes.data(), &pi, 8);
        const NpyFileResult scalar = openNpyFile(writeNpy(
            dir, QStringLiteral("s.npy"), "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", scalarBytes));
        QVERIFY2(scalar.tensor, qPrintable(scalar.error));
        QCOMPARE(scalar.tensor->rank(), 0);
        QCOMPARE(scalar.tensor->elementCount(), 1);
        QCOMPARE(scalar.tensor->value({}), 3.25);

        const NpyFileResult empty = openNpyFile(
            writeNpy(dir, QStringLiteral("e.npy"), "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }", {}));
        QVERIFY2(empty.tensor, qPrintable(empty.error));
        QCOMPARE(empty.tensor->shape, (std::vector<std::int64_t> { 0, 3 }));
        QCOMPARE(empty.tensor->elementCount(), 0);
    }

    void refusesWhatItCannotRead()
    {
        QTemporaryDir dir;
        const QString object
            = writeNpy(dir, QStringLiteral("obj.npy"), "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }",
                       QByteArray(16, 'x'));
        NpyFileResult r = openNpyFile(object);
        QVERIFY(!r.tensor);
        QVERIFY2(r.error.contains(QStringLiteral("obj.npy")) && r.error.contains(QStringLiteral("object")),
                 qPrintable(r.error));

        const QString text = writeNpy(dir, QStringLiteral("text.npy"),
                                      "{'descr': '<U2', 'fortran_order': False, 'shape': (1,), }", QByteArray(8, 'a'));
        r = openNpyFile(text);
        QVERIFY(!r.tensor);
        QVERIFY2(r.error.contains(QStringLiteral("text.npy")) && r.error.contains(QStringLiteral("<U2")),
                 qPrintable(r.error));

        const QString shortData
            = writeNpy(dir, QStringLiteral("short.npy"), "{'descr': '<f4', 'fortran_order': False, 'shape': (10,), }",
                       QByteArray(8, 0));
        r = openNpyFile(shortData);
        QVERIFY(!r.tensor);
        QVERIFY2(r.error.contains(QStringLiteral("short.npy")) && r.error.contains(QStringLiteral("truncated")),
                 qPrintable(r.error));

        r = openNpyFile(dir.filePath(QStringLiteral("missing.npy")));
        QVERIFY(!r.tensor);
        QVERIFY2(r.error.contains(QStringLiteral("missing.npy")), qPrintable(r.error));
    }

    void viewOutlivesTheCaller()
    {
        // The mapping stays valid for a slice after the tensor it came from is gone.
        QTemporaryDir dir;
        QByteArray data;
        for (std::int16_t v = 0; v < 6; ++v)
            data.append(reinterpret_cast<const char*>(&v), 2);
        Tensor view;
        {
            const NpyFileResult r = openNpyFile(writeNpy(
                dir, QStringLiteral("i2.npy"), "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }", data));
            QVERIFY(r.tensor);
            view = *r.tensor;
            view.offset = 4;
            view.shape = { 2 };
            view.strides = { 6 };
        }
        QCOMPARE(view.value({ 0 }), 2.0);
        QCOMPARE(view.value({ 1 }), 5.0);
    }
};

QTEST_GUILESS_MAIN(TstNpyFile)
#include "tst_npyfile.moc"
