#include "models/tensor/tensorcompare.h"

#include <QFile>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace runlens::models::tensor;

namespace {

const QString kDataDir = QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/");

std::shared_ptr<const TensorData> readBytes(const QString& name)
{
    QFile file(kDataDir + name);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = file.readAll();
    std::vector<std::byte> data(size_t(bytes.size()));
    std::memcpy(data.data(), bytes.constData(), data.size());
    return std::make_shared<MemoryTensorData>(std::move(data));
}

Tensor vectorOf(const std::vector<double>& values, const QString& name = {})
{
    std::vector<std::byte> bytes(values.size() * sizeof(double));
    if (!values.empty())
        std::memcpy(bytes.data(), values.data(), bytes.size());
    Tensor t;
    t.name = name;
    t.dtype = DType::Float64;
    t.shape = { std::int64_t(values.size()) };
    t.strides = { 8 };
    t.data = std::make_shared<MemoryTensorData>(std::move(bytes));
    return t;
}

/// `a` of compare_oracle.py: float32 (3, 4, 5) in C order.
Tensor fixtureA()
{
    Tensor t;
    t.name = QStringLiteral("a");
    t.dtype = DType::Float32;
    t.shape = { 3, 4, 5 };
    t.strides = Tensor::contiguousStrides(t.shape, 4);
    t.data = readBytes(QStringLiteral("compare_a.bin"));
    return t;
}

/// `b` of compare_oracle.py: the transpose of a float64 (5, 4, 3) array, so a strided view.
Tensor fixtureB()
{
    Tensor t;
    t.name = QStringLiteral("b");
    t.dtype = DType::Float64;
    t.shape = { 3, 4, 5 };
    t.strides = { 8, 3 * 8, 4 * 3 * 8 };
    t.data = readBytes(QStringLiteral("compare_b.bin"));
    return t;
}

bool sameDouble(double x, double y)
{
    if (std::isnan(x) || std::isnan(y))
        return std::isnan(x) && std::isnan(y);
    return std::abs(x - y) <= 1e-12 * std::max(1.0, std::abs(y));
}

} // namespace

class TestTensorCompare : public QObject
{
    Q_OBJECT

private slots:
    void againstNumpy_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QString>("name");
        QTest::newRow("difference") << int(CompareMode::Difference) << QStringLiteral("difference");
        QTest::newRow("absolute") << int(CompareMode::AbsoluteDifference) << QStringLiteral("absolute");
        QTest::newRow("relative") << int(CompareMode::RelativeDifference) << QStringLiteral("relative");
    }

    void againstNumpy()
    {
        QFETCH(int, mode);
        QFETCH(QString, name);
        const Tensor a = fixtureA();
        const Tensor b = fixtureB();
        QVERIFY(a.data && b.data);
        QCOMPARE(a.data->size(), 60 * 4);
        QCOMPARE(b.data->size(), 60 * 8);

        const CompareResult result = compareTensors(a, b, CompareMode(mode), 8);
        QVERIFY2(result.ok(), qPrintable(result.error));

        QFile expected(kDataDir + QStringLiteral("compare_expected.tsv"));
        QVERIFY(expected.open(QIODevice::ReadOnly | QIODevice::Text));
        int largestSeen = 0;
        while (!expected.atEnd()) {
            const QStringList f = QString::fromUtf8(expected.readLine()).trimmed().split(QLatin1Char('\t'));
            if (f.size() < 3 || f[0] != name)
                continue;
            if (f[1] == QLatin1String("stat")) {
                const double value = f[3].toDouble();
                if (f[2] == QLatin1String("maxAbs"))
                    QVERIFY2(sameDouble(result.maxAbs, value), qPrintable(f.join(' ')));
                else if (f[2] == QLatin1String("meanAbs"))
                    QVERIFY2(sameDouble(result.meanAbs, value), qPrintable(f.join(' ')));
                else if (f[2] == QLatin1String("rmse"))
                    QVERIFY2(sameDouble(result.rmse, value), qPrintable(f.join(' ')));
                else if (f[2] == QLatin1String("differing"))
                    QCOMPARE(result.differing, f[3].toLongLong());
                else if (f[2] == QLatin1String("nanMismatch"))
                    QCOMPARE(result.nanMismatch, f[3].toLongLong());
            } else if (f[1] == QLatin1String("largest")) {
                const int rank = f[2].toInt();
                QVERIFY(rank < int(result.largest.size()));
                const CompareEntry& entry = result.largest[size_t(rank)];
                const std::vector<std::int64_t> index = { f[3].toLongLong(), f[4].toLongLong(), f[5].toLongLong() };
                QCOMPARE(entry.index, index);
                QVERIFY(sameDouble(entry.a, f[6].toDouble()));
                QVERIFY(sameDouble(entry.b, f[7].toDouble()));
                QVERIFY2(sameDouble(entry.diff, f[8].toDouble()), qPrintable(f.join(' ')));
                ++largestSeen;
            }
        }
        QCOMPARE(largestSeen, 8);
        QCOMPARE(int(result.largest.size()), 8);

        // The difference tensor, element by element, against numpy's.
        const auto diff = readBytes(QStringLiteral("compare_diff_%1.bin").arg(name));
        QVERIFY(diff);
        QCOMPARE(result.difference.dtype, DType::Float64);
        QCOMPARE(result.difference.shape, a.shape);
        QVERIFY(result.difference.isContiguous());
        for (std::int64_t i = 0; i < 60; ++i) {
            double want;
            std::memcpy(&want, diff->data() + i * 8, 8);
            const std::vector<std::int64_t> index = { i / 20, (i / 5) % 4, i % 5 };
            QVERIFY2(sameDouble(result.difference.value(index), want), qPrintable(QString::number(i)));
        }
    }

    void shapeMismatchIsAnError()
    {
        const CompareResult result = compareTensors(vectorOf({ 1, 2, 3 }, QStringLiteral("w@1")),
                                                    vectorOf({ 1, 2 }, QStringLiteral("w@2")), CompareMode::Difference);
        QVERIFY(!result.ok());
        QVERIFY(result.error.contains(QLatin1String("w@1")));
        QVERIFY(result.error.contains(QLatin1String("[3]")));
        QVERIFY(result.error.contains(QLatin1String("[2]")));
        QVERIFY(!result.difference.data);
    }

    void shortDataIsAnError()
    {
        Tensor a = vectorOf({ 1, 2, 3 }, QStringLiteral("short"));
        a.shape = { 4 };
        const CompareResult result = compareTensors(a, vectorOf({ 1, 2, 3, 4 }), CompareMode::Difference);
        QVERIFY(!result.ok());
        QVERIFY(result.error.contains(QLatin1String("short")));
    }

    void infinitiesAndNaN()
    {
        constexpr double kInf = std::numeric_limits<double>::infinity();
        constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
        const Tensor a = vectorOf({ kInf, kInf, kInf, -kInf, kNaN, 0, 0, 2 });
        const Tensor b = vectorOf({ kInf, 5, -kInf, 1, kNaN, 0, kNaN, 1 });
        const CompareResult rel = compareTensors(a, b, CompareMode::RelativeDifference);
        QVERIFY(rel.ok());
        const std::vector<double> wantRel = { 0, 1, 2, 1, 0, 0, kNaN, 0.5 };
        for (size_t i = 0; i < wantRel.size(); ++i)
            QVERIFY2(sameDouble(rel.difference.value({ std::int64_t(i) }), wantRel[i]), qPrintable(QString::number(i)));
        QCOMPARE(rel.differing, 5); // Inf vs 5, Inf vs -Inf, -Inf vs 1, 0 vs NaN, 2 vs 1
        QCOMPARE(rel.nanMismatch, 1);
        QCOMPARE(rel.maxAbs, 2.0);
        QCOMPARE(rel.largest.front().index, std::vector<std::int64_t> { 2 });

        const CompareResult diff = compareTensors(a, b, CompareMode::Difference);
        QVERIFY(std::isinf(diff.maxAbs));
        QCOMPARE(diff.difference.value({ 0 }), 0.0); // equal infinities agree
        QCOMPARE(diff.difference.value({ 3 }), -kInf);
        QCOMPARE(diff.difference.value({ 7 }), 1.0);
    }

    void topKZeroAndEmpty()
    {
        const CompareResult none = compareTensors(vectorOf({ 1, 2 }), vectorOf({ 2, 2 }), CompareMode::Difference, 0);
        QVERIFY(none.ok());
        QVERIFY(none.largest.empty());
        QCOMPARE(none.differing, 1);
        QCOMPARE(none.maxAbs, 1.0);

        const CompareResult empty = compareTensors(vectorOf({}), vectorOf({}), CompareMode::Difference);
        QVERIFY(empty.ok());
        QCOMPARE(empty.difference.elementCount(), 0);
        QCOMPARE(empty.differing, 0);
    }

    void tooLargeIsAnErrorNotACrash()
    {
        // 2^34 elements through a zero stride: no memory behind them, but a difference of 128 GiB.
        Tensor huge = vectorOf({ 1.0 });
        huge.shape = { std::int64_t(1) << 34 };
        huge.strides = { 0 };
        const CompareResult result = compareTensors(huge, huge, CompareMode::Difference);
        QVERIFY(!result.ok());
        QVERIFY(!result.difference.data);
        QVERIFY2(result.error.contains(QStringLiteral("slice")), qPrintable(result.error));
    }

    void cancelStops()
    {
        std::vector<double> many(300000, 1.0);
        int polls = 0;
        const CompareResult result = compareTensors(vectorOf(many), vectorOf(many), CompareMode::Difference, 20,
                                                    [&polls] { return ++polls > 1; });
        QVERIFY(!result.ok());
        QVERIFY(!result.difference.data);
        QCOMPARE(polls, 2);
    }
};

QTEST_GUILESS_MAIN(TestTensorCompare)
#include "tst_tensorcompare.moc"
