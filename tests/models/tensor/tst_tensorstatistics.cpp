#include "models/tensor/tensorstatistics.h"

#include "models/tensor/tensorslice.h"
#include "tests/pythonoracle.h"

#include <QtTest>

#include <cmath>
#include <cstddef>
#include <vector>

using namespace runlens::models::tensor;

namespace {

const QString kOracle = QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/stats_oracle.py");
const QString kViewOracle = QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/stats_views.py");

const std::pair<const char*, DType> kTypes[] = {
    { "bool", DType::Bool },
    { "int8", DType::Int8 },
    { "int16", DType::Int16 },
    { "int32", DType::Int32 },
    { "int64", DType::Int64 },
    { "uint8", DType::UInt8 },
    { "uint16", DType::UInt16 },
    { "uint32", DType::UInt32 },
    { "uint64", DType::UInt64 },
    { "float16", DType::Float16 },
    { "bfloat16", DType::BFloat16 },
    { "float32", DType::Float32 },
    { "float64", DType::Float64 },
    { "complex64", DType::Complex64 },
    { "complex128", DType::Complex128 },
    { "float8_e4m3fn", DType::Float8E4M3 },
    { "float8_e5m2", DType::Float8E5M2 },
};

/// numpy's statistics of the tensor the oracle wrote to `path`: "key value..." lines.
struct Oracle
{
    QHash<QString, QStringList> values;
    QByteArray bytes;

    double number(const QString& key) const
    {
        const QString text = values.value(key).value(0);
        if (text == QLatin1String("nan"))
            return std::nan("");
        if (text == QLatin1String("inf"))
            return INFINITY;
        if (text == QLatin1String("-inf"))
            return -INFINITY;
        return text.toDouble();
    }
    std::int64_t integer(const QString& key) const { return values.value(key).value(0).toLongLong(); }
};

/// Reads the oracle's "key value" lines and the raw bytes it wrote to `path`.
bool readOracle(const runlens::test::PythonRun& python, const QString& path, Oracle& oracle)
{
    if (!python.ok()) {
        qWarning("%s", qPrintable(python.message));
        return false;
    }
    const QStringList lines = python.output.split(u'\n', Qt::SkipEmptyParts);
    for (const QString& line : lines) {
        QStringList fields = line.split(u' ');
        const QString key = fields.takeFirst();
        oracle.values.insert(key, fields);
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    oracle.bytes = file.readAll();
    return true;
}

bool runOracle(const QString& dtype, const QString& order, std::int64_t count, int seed, Oracle& oracle)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("tensor.bin"));
    const runlens::test::PythonRun python
        = runlens::test::runPython({ kOracle, dtype, order, QString::number(count), QString::number(seed), path });
    return readOracle(python, path, oracle);
}

/// Same value within rounding of a different summation order; NaN equals NaN and infinities must match.
bool close(double actual, double expected, double tolerance = 1e-9)
{
    if (std::isnan(expected) || std::isnan(actual))
        return std::isnan(expected) && std::isnan(actual);
    if (std::isinf(expected) || std::isinf(actual))
        return actual == expected;
    return std::abs(actual - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

#define COMPARE_CLOSE(actual, expected)                                                                                \
    QVERIFY2(close(actual, expected),                                                                                  \
             qPrintable(QStringLiteral(#actual " = %1, numpy %2").arg(actual, 0, 'g', 17).arg(expected, 0, 'g', 17)))

void compareWithOracle(const TensorStatistics& s, const Oracle& o)
{
    QCOMPARE(s.cancelled, false);
    QCOMPARE(s.count, o.integer(QStringLiteral("count")));
    QCOMPARE(s.nan, o.integer(QStringLiteral("nan")));
    QCOMPARE(s.posInf, o.integer(QStringLiteral("posinf")));
    QCOMPARE(s.negInf, o.integer(QStringLiteral("neginf")));
    QCOMPARE(s.zeros, o.integer(QStringLiteral("zeros")));
    QCOMPARE(s.finite, o.integer(QStringLiteral("finite")));
    COMPARE_CLOSE(s.min, o.number(QStringLiteral("min")));
    COMPARE_CLOSE(s.max, o.number(QStringLiteral("max")));
    COMPARE_CLOSE(s.mean, o.number(QStringLiteral("mean")));
    COMPARE_CLOSE(s.std, o.number(QStringLiteral("std")));
    COMPARE_CLOSE(s.meanAbs, o.number(QStringLiteral("meanabs")));
    COMPARE_CLOSE(s.l2, o.number(QStringLiteral("l2")));
    COMPARE_CLOSE(s.finiteMin, o.number(QStringLiteral("finitemin")));
    COMPARE_CLOSE(s.finiteMax, o.number(QStringLiteral("finitemax")));
}

void compareHistogram(const Oracle& o, const QString& key, DType type, bool swap, bool log)
{
    const QStringList fields = o.values.value(key);
    if (fields.isEmpty())
        return;
    const double lo = fields[0].toDouble();
    const double hi = fields[1].toDouble();
    const int bins = int(fields.size()) - 2;
    const auto counts = histogram(reinterpret_cast<const std::byte*>(o.bytes.constData()),
                                  o.bytes.size() / itemSize(type), type, swap, bins, lo, hi, log);
    QCOMPARE(int(counts.size()), bins);
    for (int b = 0; b < bins; ++b)
        QVERIFY2(counts[std::size_t(b)] == fields[b + 2].toLongLong(),
                 qPrintable(QStringLiteral("%1 bin %2: %3, numpy %4")
                                .arg(key)
                                .arg(b)
                                .arg(counts[std::size_t(b)])
                                .arg(fields[b + 2])));
}

/// numpy's statistics of `a[index].transpose(axes)` for generated data of `shape`.
bool runViewOracle(const QString& dtype, const QString& order, const QString& shape, int seed, const QString& index,
                   const QString& axes, Oracle& oracle)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("tensor.bin"));
    const runlens::test::PythonRun python
        = runlens::test::runPython({ kViewOracle, dtype, order, shape, QString::number(seed), index, axes, path });
    return readOracle(python, path, oracle);
}

/// The same view taken by RunLens: a C-ordered tensor over the oracle's bytes, sliced, then transposed.
std::optional<Tensor> makeView(const Oracle& oracle, DType type, bool swap, const QString& shape, const QString& index,
                               const QString& axes)
{
    Tensor t;
    t.dtype = type;
    t.swap = swap;
    for (const QString& n : shape.split(u','))
        t.shape.push_back(n.toLongLong());
    t.strides = Tensor::contiguousStrides(t.shape, itemSize(type));
    const auto* bytes = reinterpret_cast<const std::byte*>(oracle.bytes.constData());
    t.data = std::make_shared<MemoryTensorData>(std::vector<std::byte>(bytes, bytes + oracle.bytes.size()));
    const SliceResult sliced = sliceTensor(t, index);
    if (!sliced.tensor) {
        qWarning() << "slice failed:" << sliced.error;
        return std::nullopt;
    }
    Tensor view = *sliced.tensor;
    if (axes != QLatin1String("-")) {
        const Tensor before = view;
        const QStringList order = axes.split(u',');
        for (int k = 0; k < order.size(); ++k) {
            view.shape[std::size_t(k)] = before.shape[std::size_t(order[k].toInt())];
            view.strides[std::size_t(k)] = before.strides[std::size_t(order[k].toInt())];
        }
    }
    return view;
}

void compareViewHistogram(const Oracle& o, const QString& key, const Tensor& view, bool log)
{
    const QStringList fields = o.values.value(key);
    if (fields.isEmpty())
        return;
    const int bins = int(fields.size()) - 2;
    const auto counts = histogram(view, bins, fields[0].toDouble(), fields[1].toDouble(), log);
    QCOMPARE(int(counts.size()), bins);
    for (int b = 0; b < bins; ++b)
        QVERIFY2(counts[std::size_t(b)] == fields[b + 2].toLongLong(),
                 qPrintable(QStringLiteral("%1 bin %2: %3, numpy %4")
                                .arg(key)
                                .arg(b)
                                .arg(counts[std::size_t(b)])
                                .arg(fields[b + 2])));
}

} // namespace

class TstTensorStatistics : public QObject
{
    Q_OBJECT

private slots:
    void matchesNumpy_data()
    {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("order");
        QTest::addColumn<int>("seed");
        for (const auto& [name, type] : kTypes) {
            for (const char* order : { "<", ">" }) {
                if (itemSize(type) == 1 && *order == '>')
                    continue;
                for (const int seed : { 1, 2 }) {
                    QTest::addRow("%s %s seed %d", name, order, seed)
                        << QString::fromLatin1(name) << int(type) << QString::fromLatin1(order) << seed;
                }
            }
        }
    }

    void matchesNumpy()
    {
        QFETCH(QString, dtype);
        QFETCH(int, type);
        QFETCH(QString, order);
        QFETCH(int, seed);
        // 3000 elements cross a 2048-element block boundary with a partial block after it.
        Oracle oracle;
        QVERIFY(runOracle(dtype, order, 3000, seed, oracle));
        const bool swap = order == QLatin1String(">");
        const auto t = DType(type);
        const auto* data = reinterpret_cast<const std::byte*>(oracle.bytes.constData());
        QCOMPARE(oracle.bytes.size(), 3000 * itemSize(t));
        StatisticsOptions options;
        options.threads = 2;
        compareWithOracle(computeStatistics(data, 3000, t, swap, options), oracle);
        compareHistogram(oracle, QStringLiteral("hist"), t, swap, false);
        compareHistogram(oracle, QStringLiteral("loghist"), t, swap, true);
    }

    void emptyInput()
    {
        Oracle oracle;
        QVERIFY(runOracle(QStringLiteral("float32"), QStringLiteral("<"), 0, 1, oracle));
        const TensorStatistics s = computeStatistics(nullptr, 0, DType::Float32, false);
        compareWithOracle(s, oracle);
        QVERIFY(std::isnan(s.min) && std::isnan(s.mean));
        QCOMPARE(histogram(nullptr, 0, DType::Float32, false, 4, 0, 1, false), std::vector<std::int64_t>(4, 0));
    }

    void chunkBoundaryAndThreadCounts()
    {
        // Just over one parallel chunk (2048 * 512 elements): the last chunk holds 37 elements.
        const std::int64_t count = 2048 * 512 + 37;
        Oracle oracle;
        QVERIFY(runOracle(QStringLiteral("float32"), QStringLiteral("<"), count, 2, oracle));
        const auto* data = reinterpret_cast<const std::byte*>(oracle.bytes.constData());
        for (const int threads : { 1, 2, 3 }) {
            StatisticsOptions options;
            options.threads = threads;
            compareWithOracle(computeStatistics(data, count, DType::Float32, false, options), oracle);
        }
        // Unaligned data takes the copying path and must agree.
        QByteArray shifted(1, '\0');
        shifted.append(oracle.bytes);
        compareWithOracle(computeStatistics(reinterpret_cast<const std::byte*>(shifted.constData() + 1), count,
                                            DType::Float32, false),
                          oracle);
    }

    void infinitiesOnly()
    {
        // numpy: nanmin([inf, nan, inf]) = inf, nanmean = inf, nanstd = nan.
        const float values[] = { INFINITY, NAN, INFINITY };
        const auto s = computeStatistics(reinterpret_cast<const std::byte*>(values), 3, DType::Float32, false);
        QCOMPARE(s.posInf, 2);
        QCOMPARE(s.nan, 1);
        QCOMPARE(s.finite, 0);
        QCOMPARE(s.min, double(INFINITY));
        QCOMPARE(s.max, double(INFINITY));
        QCOMPARE(s.mean, double(INFINITY));
        QVERIFY(std::isnan(s.std));
    }

    void cancelAndProgress()
    {
        const std::vector<float> values(std::size_t(2048 * 512 * 6), 1.5f);
        const auto* data = reinterpret_cast<const std::byte*>(values.data());

        std::vector<double> reported;
        StatisticsOptions options;
        options.threads = 2;
        options.progress = [&](double fraction) { reported.push_back(fraction); };
        const auto s = computeStatistics(data, std::int64_t(values.size()), DType::Float32, false, options);
        QVERIFY(!s.cancelled);
        QCOMPARE(s.mean, 1.5);
        QCOMPARE(s.std, 0.0);
        QVERIFY(!reported.empty());
        QVERIFY(std::is_sorted(reported.begin(), reported.end()));
        QCOMPARE(reported.back(), 1.0);

        int polls = 0;
        options.progress = {};
        options.cancel = [&] { return ++polls >= 2; };
        const auto cancelled = computeStatistics(data, std::int64_t(values.size()), DType::Float32, false, options);
        QVERIFY(cancelled.cancelled);
        QCOMPARE(polls, 2);
    }

    void viewsMatchNumpy_data()
    {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("order");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("seed");
        QTest::addColumn<QString>("index");
        QTest::addColumn<QString>("axes");
        const auto f32 = int(DType::Float32);
        QTest::newRow("reversed, stepped, transposed") << "float32" << f32 << "<"
                                                       << "4,5,6" << 1 << "::-1, 1:, ::2"
                                                       << "2,0,1";
        QTest::newRow("big-endian float64, negative step") << "float64" << int(DType::Float64) << ">"
                                                           << "7,9" << 2 << "::2, ::-3"
                                                           << "-";
        QTest::newRow("column across blocks") << "float32" << f32 << "<"
                                              << "3000,2" << 2 << ":, 0"
                                              << "-";
        QTest::newRow("transposed whole") << "float32" << f32 << "<"
                                          << "2,3000" << 2 << "..."
                                          << "1,0";
        QTest::newRow("long reversed rows") << "float32" << f32 << "<"
                                            << "4,2100" << 1 << "::-1, 10:2090"
                                            << "-";
        QTest::newRow("int16 big-endian") << "int16" << int(DType::Int16) << ">"
                                          << "5,6,7" << 3 << "1:4, ::-1, 2"
                                          << "-";
        QTest::newRow("bfloat16 transposed") << "bfloat16" << int(DType::BFloat16) << "<"
                                             << "600,8" << 2 << "::-1, 3:7"
                                             << "1,0";
        QTest::newRow("rows over chunks") << "float32" << f32 << "<"
                                          << "1100,1100" << 1 << "..., 1:"
                                          << "-";
        QTest::newRow("scalar") << "float64" << int(DType::Float64) << "<"
                                << "3,4" << 2 << "2, 1"
                                << "-";
        QTest::newRow("empty") << "float32" << f32 << "<"
                               << "3,4" << 2 << "1:1"
                               << "-";
    }

    void viewsMatchNumpy()
    {
        QFETCH(QString, dtype);
        QFETCH(int, type);
        QFETCH(QString, order);
        QFETCH(QString, shape);
        QFETCH(int, seed);
        QFETCH(QString, index);
        QFETCH(QString, axes);
        Oracle oracle;
        QVERIFY(runViewOracle(dtype, order, shape, seed, index, axes, oracle));
        const bool swap = order == QLatin1String(">");
        const auto view = makeView(oracle, DType(type), swap, shape, index, axes);
        QVERIFY(view);
        QCOMPARE(view->elementCount(), oracle.integer(QStringLiteral("count")));
        for (const int threads : { 1, 3 }) {
            StatisticsOptions options;
            options.threads = threads;
            compareWithOracle(computeStatistics(*view, options), oracle);
        }
        compareViewHistogram(oracle, QStringLiteral("hist"), *view, false);
        compareViewHistogram(oracle, QStringLiteral("loghist"), *view, true);
    }

    void broadcastView()
    {
        // numpy.broadcast_to([1, 2, 3], (4, 3)): mean 2, std sqrt(2/3), L2 sqrt(4 * 14), |x| mean 2.
        const float values[] = { 1, 2, 3 };
        const auto* bytes = reinterpret_cast<const std::byte*>(values);
        Tensor t;
        t.shape = { 4, 3 };
        t.strides = { 0, 4 };
        t.data = std::make_shared<MemoryTensorData>(std::vector<std::byte>(bytes, bytes + sizeof values));
        const auto s = computeStatistics(t);
        QCOMPARE(s.count, 12);
        QCOMPARE(s.min, 1.0);
        QCOMPARE(s.max, 3.0);
        COMPARE_CLOSE(s.mean, 2.0);
        COMPARE_CLOSE(s.std, std::sqrt(2.0 / 3.0));
        COMPARE_CLOSE(s.l2, std::sqrt(56.0));
        COMPARE_CLOSE(s.meanAbs, 2.0);
        QCOMPARE(histogram(t, 3, 1, 3, false), (std::vector<std::int64_t> { 4, 4, 4 }));
    }

    void viewOutsideItsData()
    {
        const float values[] = { 1, 2, 3 };
        const auto* bytes = reinterpret_cast<const std::byte*>(values);
        Tensor t;
        t.shape = { 2, 3 }; // claims six elements over three
        t.strides = { 12, 4 };
        t.data = std::make_shared<MemoryTensorData>(std::vector<std::byte>(bytes, bytes + sizeof values));
        auto s = computeStatistics(t);
        QCOMPARE(s.count, 6);
        QCOMPARE(s.nan, 6);
        QVERIFY(std::isnan(s.mean));
        t.strides = { -12, 4 }; // starts before the data
        s = computeStatistics(t);
        QCOMPARE(s.nan, 6);
        t.data.reset();
        QCOMPARE(computeStatistics(t).nan, 6);
        QCOMPARE(histogram(t, 2, 0, 4, false), std::vector<std::int64_t>(2, 0));
    }

    void viewCancel()
    {
        std::vector<float> values(std::size_t(2048 * 512 * 4), 1.5f);
        const auto* bytes = reinterpret_cast<const std::byte*>(values.data());
        Tensor t;
        t.shape = { std::int64_t(values.size()) / 2 };
        t.strides = { 8 }; // every other element: the gathering path
        t.data
            = std::make_shared<MemoryTensorData>(std::vector<std::byte>(bytes, bytes + values.size() * sizeof(float)));
        StatisticsOptions options;
        options.threads = 2;
        int polls = 0;
        options.cancel = [&] { return ++polls >= 2; };
        QVERIFY(computeStatistics(t, options).cancelled);
        polls = 0;
        QVERIFY(histogram(t, 4, 0, 2, false, options).empty());
        options.cancel = {};
        const auto s = computeStatistics(t, options);
        QVERIFY(!s.cancelled);
        QCOMPARE(s.count, std::int64_t(values.size()) / 2);
        QCOMPARE(s.mean, 1.5);
    }

    void histogramRejectsBadRanges()
    {
        const float values[] = { 1, 2, 3 };
        const auto* data = reinterpret_cast<const std::byte*>(values);
        QCOMPARE(histogram(data, 3, DType::Float32, false, 3, 2, 2, false), std::vector<std::int64_t>(3, 0));
        QCOMPARE(histogram(data, 3, DType::Float32, false, 3, 0, 3, true), std::vector<std::int64_t>(3, 0));
        QCOMPARE(histogram(data, 3, DType::Float32, false, 0, 0, 3, false).size(), std::size_t(0));
        // numpy.histogram([1, 2, 3], bins=3, range=(1, 3)) -> [1, 1, 1]
        QCOMPARE(histogram(data, 3, DType::Float32, false, 3, 1, 3, false), (std::vector<std::int64_t> { 1, 1, 1 }));
    }
};

QTEST_GUILESS_MAIN(TstTensorStatistics)
#include "tst_tensorstatistics.moc"
