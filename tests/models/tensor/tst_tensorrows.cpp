#include "models/tensor/tensorrows.h"

#include "importers/tensor/npyfile.h"
#include "tests/pythonoracle.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>

using namespace runlens;
using namespace runlens::models::tensor;

namespace {

/// numpy writes arrays in several layouts and the same arrays as float32 rows (dimension 0 the points, the
/// rest flattened in C order), which is what the Projector must be given.
const char* const kOracle = R"(
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(7)
cases = {
    'c_f32': rng.standard_normal((7, 4)).astype('<f4'),
    'fortran_f16': np.asfortranarray(rng.standard_normal((5, 2, 3)).astype('<f2')),
    'big_i16': (rng.integers(-300, 300, (4, 6))).astype('>i2'),
    'images_u8': rng.integers(0, 255, (3, 2, 4, 4)).astype('u1'),
}
for name, a in cases.items():
    np.save(f'{d}/{name}.npy', a)
    np.ascontiguousarray(a.reshape(a.shape[0], -1), dtype='<f4').tofile(f'{d}/{name}.rows')
    print(name, a.shape[0], a.size // a.shape[0])
)";

Tensor memoryTensor(std::vector<std::int64_t> shape, std::vector<float> values)
{
    std::vector<std::byte> bytes(values.size() * 4);
    if (!values.empty())
        std::memcpy(bytes.data(), values.data(), bytes.size());
    Tensor t;
    t.name = QStringLiteral("t");
    t.shape = std::move(shape);
    t.strides = Tensor::contiguousStrides(t.shape, 4);
    t.data = std::make_shared<MemoryTensorData>(std::move(bytes));
    return t;
}

} // namespace

class TestTensorRows : public QObject
{
    Q_OBJECT
private slots:
    void layoutsAgainstNumpy()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        RUNLENS_PYTHON_ORACLE(output, { QStringLiteral("-c"), QString::fromLatin1(kOracle), dir.path() });
        const QStringList lines = output.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        for (const QString& line : lines) {
            const QStringList f = line.split(QLatin1Char(' '));
            const QString name = f.value(0);
            const importers::tensor::NpyFileResult opened
                = importers::tensor::openNpyFile(dir.filePath(name + QStringLiteral(".npy")));
            QVERIFY2(opened.tensor, qPrintable(name));
            const TensorRows rows = tensorRowsAsEmbeddings(*opened.tensor, name, QStringLiteral("x.npy"));
            QVERIFY2(rows.set, qPrintable(rows.error));
            QCOMPARE(rows.set->rows, f.value(1).toInt());
            QCOMPARE(rows.set->dims, f.value(2).toInt());
            QFile expected(dir.filePath(name + QStringLiteral(".rows")));
            QVERIFY(expected.open(QIODevice::ReadOnly));
            const QByteArray want = expected.readAll();
            QCOMPARE(qsizetype(rows.set->values.size() * 4), want.size());
            QVERIFY2(std::memcmp(rows.set->values.data(), want.constData(), std::size_t(want.size())) == 0,
                     qPrintable(name + QStringLiteral(": values differ from numpy's reshape(n, -1)")));
            // Each point is numbered in the metadata, for labels and search.
            QCOMPARE(rows.set->metadataColumns, QStringList { QStringLiteral("row") });
            QCOMPARE(rows.set->cell(rows.set->rows - 1, 0), QString::number(rows.set->rows - 1));
            QCOMPARE(rows.set->name, name);
        }
    }

    void stridedViewFollowsValue()
    {
        // A transposed view (strides swapped): the rows are the view's rows, as Tensor::value reads them.
        Tensor t = memoryTensor({ 3, 4 }, { 0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23 });
        Tensor view = t;
        view.shape = { 4, 3 };
        view.strides = { t.strides[1], t.strides[0] };
        const TensorRows rows = tensorRowsAsEmbeddings(view, {}, {});
        QVERIFY(rows.set);
        QCOMPARE(rows.set->rows, 4);
        QCOMPARE(rows.set->dims, 3);
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 3; ++c)
                QCOMPARE(double(rows.set->row(r)[c]), view.value({ r, c }));
    }

    void elementsOutsideTheDataAreNan()
    {
        // A header that claims more than the bytes hold: the missing elements are NaN, nothing is read past.
        Tensor t = memoryTensor({ 2, 2 }, { 1, 2, 3, 4 });
        t.shape = { 3, 2 };
        const TensorRows rows = tensorRowsAsEmbeddings(t, {}, {});
        QVERIFY(rows.set);
        QCOMPARE(rows.set->row(1)[1], 4.0f);
        QVERIFY(std::isnan(rows.set->row(2)[0]) && std::isnan(rows.set->row(2)[1]));
        // Strides that overflow a position read as NaN too.
        Tensor wild = memoryTensor({ 2, 2 }, { 1, 2, 3, 4 });
        wild.strides = { 4, std::numeric_limits<std::int64_t>::max() };
        const TensorRows odd = tensorRowsAsEmbeddings(wild, {}, {});
        QVERIFY(odd.set);
        QCOMPARE(odd.set->row(1)[0], 2.0f);
        QVERIFY(std::isnan(odd.set->row(1)[1]));
    }

    void refusals()
    {
        const TensorRows vector = tensorRowsAsEmbeddings(memoryTensor({ 4 }, { 1, 2, 3, 4 }), {}, {});
        QVERIFY(!vector.set);
        QVERIFY(vector.error.contains(QStringLiteral("[4]")));
        QVERIFY(!tensorRowsAsEmbeddings(memoryTensor({ 1, 4 }, { 1, 2, 3, 4 }), {}, {}).set); // one row
        QVERIFY(!tensorRowsAsEmbeddings(memoryTensor({ 4, 0 }, {}), {}, {}).set); // no columns
        Tensor huge = memoryTensor({ 2, 2 }, { 1, 2, 3, 4 });
        huge.shape = { 1 << 20, 1 << 10 }; // 1 Gi values claimed by a header: refused before allocating
        const TensorRows big = tensorRowsAsEmbeddings(huge, {}, {});
        QVERIFY(!big.set);
        QVERIFY(big.error.contains(QString::number(kMaxProjectedValues)));
    }

    void cancelled()
    {
        const TensorRows rows
            = tensorRowsAsEmbeddings(memoryTensor({ 2, 2 }, { 1, 2, 3, 4 }), {}, {}, [] { return true; });
        QVERIFY(!rows.set);
        QVERIFY(rows.error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTensorRows)
#include "tst_tensorrows.moc"
