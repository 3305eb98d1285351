#include "models/tensor/tensorslice.h"

#include <QFile>
#include <QtTest>

#include <cstring>

using namespace runlens::models::tensor;

namespace {

/// The arrays of tests/data/tensor/slice_cases.py: a3 = arange(120) float64 (4, 5, 6), a4 = arange(120) int32
/// (2, 3, 4, 5), both C-ordered in memory.
Tensor fixtureArray(const QString& name)
{
    Tensor t;
    const bool threeD = name == QLatin1String("a3");
    t.dtype = threeD ? DType::Float64 : DType::Int32;
    t.shape = threeD ? std::vector<std::int64_t> { 4, 5, 6 } : std::vector<std::int64_t> { 2, 3, 4, 5 };
    const int item = itemSize(t.dtype);
    t.strides = Tensor::contiguousStrides(t.shape, item);
    std::vector<std::byte> bytes(120 * size_t(item));
    for (int i = 0; i < 120; ++i) {
        if (threeD) {
            const double v = i;
            std::memcpy(bytes.data() + i * item, &v, 8);
        } else {
            const std::int32_t v = i;
            std::memcpy(bytes.data() + i * item, &v, 4);
        }
    }
    t.data = std::make_shared<MemoryTensorData>(std::move(bytes));
    return t;
}

std::vector<std::int64_t> numbers(const QString& field)
{
    std::vector<std::int64_t> out;
    for (const QString& part : field.split(u',', Qt::SkipEmptyParts))
        out.push_back(part.toLongLong());
    return out;
}

/// Every element of `t` in C order.
std::vector<double> allValues(const Tensor& t)
{
    std::vector<double> out;
    if (t.elementCount() == 0)
        return out;
    std::vector<std::int64_t> index(t.shape.size(), 0);
    while (true) {
        out.push_back(t.value(index));
        int k = t.rank() - 1;
        while (k >= 0 && ++index[k] == t.shape[k])
            index[k--] = 0;
        if (k < 0)
            return out;
    }
}

} // namespace

class TstTensorSlice : public QObject
{
    Q_OBJECT

private slots:
    void matchesNumpy_data()
    {
        QTest::addColumn<QString>("array");
        QTest::addColumn<QString>("expression");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("strides");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<QString>("values");
        QFile file(QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/slice_cases.tsv"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        int rows = 0;
        while (!file.atEnd()) {
            const QString line = QString::fromUtf8(file.readLine()).chopped(1);
            const QStringList f = line.split(u'\t');
            QVERIFY(f.size() == 4 || f.size() == 7);
            const bool valid = f[2] == QLatin1String("ok");
            const QString tag = f[0] + u' ' + f[1];
            if (valid)
                QTest::newRow(qPrintable(tag)) << f[0] << f[1] << true << f[3] << f[4] << f[5].toLongLong() << f[6];
            else
                QTest::newRow(qPrintable(tag)) << f[0] << f[1] << false << QString() << QString() << qint64(0) << f[3];
            ++rows;
        }
        QVERIFY(rows >= 50);
    }

    void matchesNumpy()
    {
        QFETCH(QString, array);
        QFETCH(QString, expression);
        QFETCH(bool, valid);
        QFETCH(QString, shape);
        QFETCH(QString, strides);
        QFETCH(qint64, offset);
        QFETCH(QString, values);
        const Tensor base = fixtureArray(array);
        const SliceResult result = sliceTensor(base, expression);
        if (!valid) {
            QVERIFY2(!result.tensor, qPrintable(QStringLiteral("numpy raised %1").arg(values)));
            QVERIFY(!result.error.isEmpty());
            return;
        }
        QVERIFY2(result.tensor, qPrintable(result.error));
        const Tensor& view = *result.tensor;
        QCOMPARE(view.shape, numbers(shape));
        QCOMPARE(view.strides, numbers(strides));
        QCOMPARE(view.offset, offset);
        QCOMPARE(view.data, base.data); // a view, not a copy
        std::vector<double> expected;
        for (const QString& v : values.split(u' ', Qt::SkipEmptyParts))
            expected.push_back(v.toDouble());
        QCOMPARE(allValues(view), expected);
    }

    void errorMessagesSayWhatAndWhere_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("fragment");
        QTest::addRow("out of range") << "[0, 7]"
                                      << "column 5: index 7 is out of range for dimension 1 of size 5";
        QTest::addRow("negative out of range") << "[-5]"
                                               << "index -5 is out of range for dimension 0 of size 4";
        QTest::addRow("zero step") << "[:, ::0]"
                                   << "column 5: the step of a range cannot be zero";
        QTest::addRow("two ellipses") << "[..., 0, ...]"
                                      << "column 10: only one '...' is allowed";
        QTest::addRow("too many") << "[0, 0, 0, 0]"
                                  << "column 11: too many indices: 4 for a tensor of 3 dimensions";
        QTest::addRow("garbage") << "[0, abc]"
                                 << "column 5: expected an integer, a range or '...'";
        QTest::addRow("float") << "[1.5]"
                               << "column 3: unexpected '.'";
        QTest::addRow("three colons") << "[1:2:3:4]"
                                      << "column 7: a range has at most two ':'";
        QTest::addRow("empty entry") << "[0, , 1]"
                                     << "column 5: an index is missing";
        QTest::addRow("unclosed") << "[0"
                                  << "column 1: '[' is not closed by ']'";
        QTest::addRow("lone sign") << "[-]"
                                   << "column 3: a sign must be followed by digits";
        QTest::addRow("huge") << "[99999999999999999999]"
                              << "column 2: the number is too large";
    }

    void errorMessagesSayWhatAndWhere()
    {
        QFETCH(QString, expression);
        QFETCH(QString, fragment);
        const SliceResult result = sliceTensor(fixtureArray(QStringLiteral("a3")), expression);
        QVERIFY(!result.tensor);
        QVERIFY2(result.error.contains(fragment), qPrintable(result.error));
    }

    void parsesItems()
    {
        const SliceParseResult parsed = parseSlice(QStringLiteral("0, :, 2:10:2, ..., ::-1, -3"));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed.items.size(), size_t(6));
        QCOMPARE(parsed.items[0].kind, SliceItem::Kind::Index);
        QCOMPARE(parsed.items[1].kind, SliceItem::Kind::Range);
        QVERIFY(!parsed.items[1].start && !parsed.items[1].stop && !parsed.items[1].step);
        QCOMPARE(*parsed.items[2].start, 2);
        QCOMPARE(*parsed.items[2].stop, 10);
        QCOMPARE(*parsed.items[2].step, 2);
        QCOMPARE(parsed.items[3].kind, SliceItem::Kind::Ellipsis);
        QCOMPARE(*parsed.items[4].step, -1);
        QCOMPARE(parsed.items[5].index, -3);
        QCOMPARE(parsed.items[5].position, 25);
        // The empty expression and `[]` view the whole tensor.
        QVERIFY(parseSlice(QString()).ok() && parseSlice(QString()).items.empty());
        const SliceResult whole = sliceTensor(fixtureArray(QStringLiteral("a4")), QStringLiteral("[]"));
        QVERIFY(whole.tensor);
        QCOMPARE(whole.tensor->shape, (std::vector<std::int64_t> { 2, 3, 4, 5 }));
    }

    void slicesOfSlices()
    {
        // Slicing a reversed view again composes like numpy: a3[::-1][1:3, ::-2, 0] = a3[2:0:-1, ::-2, 0].
        const Tensor base = fixtureArray(QStringLiteral("a3"));
        const SliceResult first = sliceTensor(base, QStringLiteral("::-1"));
        QVERIFY(first.tensor);
        const SliceResult second = sliceTensor(*first.tensor, QStringLiteral("1:3, ::-2, 0"));
        const SliceResult direct = sliceTensor(base, QStringLiteral("2:0:-1, ::-2, 0"));
        QVERIFY(second.tensor && direct.tensor);
        QCOMPARE(second.tensor->shape, direct.tensor->shape);
        QCOMPARE(second.tensor->strides, direct.tensor->strides);
        QCOMPARE(second.tensor->offset, direct.tensor->offset);
        QCOMPARE(allValues(*second.tensor), (std::vector<double> { 84, 72, 60, 54, 42, 30 }));
    }
};

QTEST_GUILESS_MAIN(TstTensorSlice)
#include "tst_tensorslice.moc"
