#include "widgets/tensor/tensorexport.h"

#include "models/tensor/tensorslice.h"
#include "tests/pythonoracle.h"

#include <QBuffer>
#include <QFile>
#include <QFloat16>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <bit>
#include <cstring>
#include <functional>

using namespace runlens;

namespace {

/// A C-ordered tensor of shape [2, 3, 4] whose element n (in C order) is `make(n)` stored as `type`.
models::tensor::Tensor arange(models::tensor::DType type, bool bigEndian,
                              const std::function<void(std::byte*, int)>& store)
{
    const int item = models::tensor::itemSize(type);
    std::vector<std::byte> bytes(std::size_t(24 * item));
    for (int n = 0; n < 24; ++n)
        store(bytes.data() + n * item, n);
    models::tensor::Tensor t;
    t.dtype = type;
    t.shape = { 2, 3, 4 };
    t.strides = models::tensor::Tensor::contiguousStrides(t.shape, item);
    t.swap = bigEndian != (std::endian::native == std::endian::big);
    t.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
    return t;
}

template<typename T> std::function<void(std::byte*, int)> storeAs(bool bigEndian = false)
{
    return [bigEndian](std::byte* p, int n) {
        T value = T(n);
        if (bigEndian)
            value = qToBigEndian(value);
        std::memcpy(p, &value, sizeof value);
    };
}

models::tensor::Tensor sliced(const models::tensor::Tensor& t, const QString& expression)
{
    models::tensor::SliceResult r = models::tensor::sliceTensor(t, expression);
    return r.tensor ? *r.tensor : models::tensor::Tensor {};
}

models::tensor::Tensor transposed(models::tensor::Tensor t)
{
    std::swap(t.shape[0], t.shape[1]);
    std::swap(t.strides[0], t.strides[1]);
    return t;
}

struct Case
{
    QString name;
    models::tensor::Tensor view;
    QString expected; ///< numpy expression over A = np.arange(24).reshape(2, 3, 4)
    QString descr;
};

} // namespace

class TestTensorExport : public QObject
{
    Q_OBJECT
private slots:
    void headerIsAligned();
    void roundTripThroughNumpy();
    void csvThroughNumpy();
    void csvRefusesHighRank();
};

void TestTensorExport::headerIsAligned()
{
    const models::tensor::Tensor t = arange(models::tensor::DType::Float32, false, storeAs<float>());
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(runlens::widgets::tensor::writeNpy(t, buffer));
    const QByteArray bytes = buffer.data();
    QVERIFY(bytes.startsWith(QByteArray("\x93NUMPY\x01\x00", 8)));
    const int headerLength = quint8(bytes[8]) | (quint8(bytes[9]) << 8);
    QCOMPARE((10 + headerLength) % 64, 0);
    QCOMPARE(bytes[10 + headerLength - 1], '\n');
    QCOMPARE(bytes.size(), 10 + headerLength + 24 * 4);
    const QByteArray header = bytes.mid(10, headerLength);
    QVERIFY2(header.contains("'shape': (2, 3, 4)"), header.constData());
    QVERIFY(header.contains("'fortran_order': False"));
    float last = 0;
    std::memcpy(&last, bytes.constData() + bytes.size() - 4, 4);
    QCOMPARE(last, 23.0f);
}

void TestTensorExport::roundTripThroughNumpy()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());

    const models::tensor::Tensor f4 = arange(models::tensor::DType::Float32, false, storeAs<float>());
    const models::tensor::Tensor f8be = arange(models::tensor::DType::Float64, true, [](std::byte* p, int n) {
        const quint64 bits = qToBigEndian(std::bit_cast<quint64>(double(n) / 4));
        std::memcpy(p, &bits, 8);
    });
    const models::tensor::Tensor i8 = arange(models::tensor::DType::Int64, false, [](std::byte* p, int n) {
        const qint64 v = qint64(n) * 1000000007LL - 5;
        std::memcpy(p, &v, 8);
    });
    const models::tensor::Tensor i2be = arange(models::tensor::DType::Int16, true, [](std::byte* p, int n) {
        const qint16 v = qToBigEndian(qint16(n - 12));
        std::memcpy(p, &v, 2);
    });
    const models::tensor::Tensor b1
        = arange(models::tensor::DType::Bool, false, [](std::byte* p, int n) { *p = std::byte(n % 3 == 0); });
    const models::tensor::Tensor u1
        = arange(models::tensor::DType::UInt8, false, [](std::byte* p, int n) { *p = std::byte(n * 10); });
    const models::tensor::Tensor f2 = arange(models::tensor::DType::Float16, false, [](std::byte* p, int n) {
        const qfloat16 h(float(n) / 8);
        std::memcpy(p, &h, 2);
    });
    const models::tensor::Tensor bf16 = arange(models::tensor::DType::BFloat16, false, [](std::byte* p, int n) {
        const quint16 bits = quint16(std::bit_cast<quint32>(float(n) - 7.5f) >> 16);
        std::memcpy(p, &bits, 2);
    });
    const models::tensor::Tensor c8 = arange(models::tensor::DType::Complex64, false, [](std::byte* p, int n) {
        const float parts[2] = { float(n), -float(n) / 2 };
        std::memcpy(p, parts, 8);
    });

    const QList<Case> cases {
        { QStringLiteral("f4"), f4, QStringLiteral("A.astype('<f4')"), QStringLiteral("<f4") },
        { QStringLiteral("f4_slice"), sliced(f4, QStringLiteral("[1, ::-1, 1::2]")),
          QStringLiteral("A[1, ::-1, 1::2].astype('<f4')"), QStringLiteral("<f4") },
        { QStringLiteral("f4_transposed"), transposed(sliced(f4, QStringLiteral("[0]"))),
          QStringLiteral("A[0].T.astype('<f4')"), QStringLiteral("<f4") },
        { QStringLiteral("f4_scalar"), sliced(f4, QStringLiteral("[1, 2, 3]")),
          QStringLiteral("np.array(A[1, 2, 3], dtype='<f4')"), QStringLiteral("<f4") },
        { QStringLiteral("f4_empty"), sliced(f4, QStringLiteral("[:, 2:2]")), QStringLiteral("A[:, 2:2].astype('<f4')"),
          QStringLiteral("<f4") },
        { QStringLiteral("f8_big_endian"), sliced(f8be, QStringLiteral("[:, 1]")),
          QStringLiteral("(A[:, 1] / 4).astype('>f8')"), QStringLiteral(">f8") },
        { QStringLiteral("i8"), sliced(i8, QStringLiteral("[-1, :, ::3]")),
          QStringLiteral("(A * 1000000007 - 5)[-1, :, ::3].astype('<i8')"), QStringLiteral("<i8") },
        { QStringLiteral("i2_big_endian"), i2be, QStringLiteral("(A - 12).astype('>i2')"), QStringLiteral(">i2") },
        { QStringLiteral("bool"), sliced(b1, QStringLiteral("[1]")), QStringLiteral("(A % 3 == 0)[1]"),
          QStringLiteral("|b1") },
        { QStringLiteral("u1"), u1, QStringLiteral("(A * 10).astype('|u1')"), QStringLiteral("|u1") },
        { QStringLiteral("f2"), sliced(f2, QStringLiteral("[..., 2]")), QStringLiteral("(A / 8)[..., 2].astype('<f2')"),
          QStringLiteral("<f2") },
        { QStringLiteral("bf16_as_f4"), bf16, QStringLiteral("(A - 7.5).astype('<f4')"), QStringLiteral("<f4") },
        { QStringLiteral("c8"), sliced(c8, QStringLiteral("[0, 1]")),
          QStringLiteral("(A - 0.5j * A)[0, 1].astype('<c8')"), QStringLiteral("<c8") },
    };

    QString script = QStringLiteral("import numpy as np\nA = np.arange(24).reshape(2, 3, 4)\n");
    for (const ::Case& c : cases) {
        QVERIFY2(c.view.data, qPrintable(c.name));
        QCOMPARE(runlens::widgets::tensor::npyDescr(c.view), c.descr);
        QFile file(dir.filePath(c.name + QStringLiteral(".npy")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QString error;
        QVERIFY2(runlens::widgets::tensor::writeNpy(c.view, file, &error), qPrintable(error));
        file.close();
        script += QStringLiteral("a = np.load(%1, allow_pickle=False)\n"
                                 "e = %2\n"
                                 "print('%3', 'ok' if a.dtype.str == '%4' and a.shape == e.shape and "
                                 "np.array_equal(a, e) else 'FAIL %r %r %r %r' % (a.dtype.str, a.shape, a, e))\n")
                      .arg(QStringLiteral("'") + file.fileName() + QStringLiteral("'"), c.expected, c.name, c.descr);
    }
    RUNLENS_PYTHON_ORACLE(output, { QStringLiteral("-c"), script });
    const QStringList lines = output.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), cases.size());
    for (int i = 0; i < cases.size(); ++i)
        QVERIFY2(lines[i] == cases[i].name + QStringLiteral(" ok"), qPrintable(lines[i]));
}

void TestTensorExport::csvThroughNumpy()
{
    QTemporaryDir dir;
    const models::tensor::Tensor f4 = arange(models::tensor::DType::Float32, false, [](std::byte* p, int n) {
        float v = float(n) / 10;
        if (n == 5)
            v = std::numeric_limits<float>::quiet_NaN();
        if (n == 6)
            v = std::numeric_limits<float>::infinity();
        if (n == 7)
            v = -std::numeric_limits<float>::infinity();
        std::memcpy(p, &v, 4);
    });
    struct CsvCase
    {
        QString name;
        models::tensor::Tensor view;
        QString expected;
    };
    const QList<CsvCase> cases {
        { QStringLiteral("matrix"), sliced(f4, QStringLiteral("[0, ::-1, 1:]")), QStringLiteral("B[0, ::-1, 1:]") },
        { QStringLiteral("transposed"), transposed(sliced(f4, QStringLiteral("[1]"))), QStringLiteral("B[1].T") },
        { QStringLiteral("vector"), sliced(f4, QStringLiteral("[0, 1]")), QStringLiteral("B[0, 1].reshape(-1, 1)") },
        { QStringLiteral("scalar"), sliced(f4, QStringLiteral("[1, 2, 3]")),
          QStringLiteral("B[1, 2, 3].reshape(1, 1)") },
    };
    QString script = QStringLiteral("import numpy as np\n"
                                    "B = (np.arange(24, dtype=np.float32) / np.float32(10)).astype(np.float64)\n"
                                    "B[5] = np.nan\nB[6] = np.inf\nB[7] = -np.inf\nB = B.reshape(2, 3, 4)\n");
    for (const CsvCase& c : cases) {
        QFile file(dir.filePath(c.name + QStringLiteral(".csv")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QString error;
        QVERIFY2(runlens::widgets::tensor::writeCsv(c.view, file, &error), qPrintable(error));
        file.close();
        script += QStringLiteral("a = np.loadtxt('%1', delimiter=',', ndmin=2)\ne = %2\n"
                                 "print('%3', 'ok' if a.shape == e.shape and np.array_equal(a, e, equal_nan=True) "
                                 "else 'FAIL %r %r' % (a, e))\n")
                      .arg(file.fileName(), c.expected, c.name);
    }
    RUNLENS_PYTHON_ORACLE(output, { QStringLiteral("-c"), script });
    const QStringList lines = output.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), cases.size());
    for (int i = 0; i < cases.size(); ++i)
        QVERIFY2(lines[i] == cases[i].name + QStringLiteral(" ok"), qPrintable(lines[i]));
}

void TestTensorExport::csvRefusesHighRank()
{
    const models::tensor::Tensor f4 = arange(models::tensor::DType::Float32, false, storeAs<float>());
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QString error;
    QVERIFY(!runlens::widgets::tensor::writeCsv(f4, buffer, &error));
    QVERIFY2(error.contains(QStringLiteral("3")), qPrintable(error));
    QCOMPARE(buffer.size(), 0);
}

QTEST_GUILESS_MAIN(TestTensorExport)
#include "tst_tensorexport.moc"
