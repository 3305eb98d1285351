#include "models/memory/memorydownsample.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace runlens::models::memory;

namespace {

/// A random walk with spikes, on irregular ascending x.
MemorySeries randomCurve(std::size_t n, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> gap(1, 50);
    std::normal_distribution<double> step(0.0, 1000.0);
    std::uniform_int_distribution<int> spike(0, 999);
    MemorySeries s;
    s.name = QStringLiteral("Allocated");
    std::int64_t x = 1'000'000;
    double v = 1e6;
    for (std::size_t i = 0; i < n; ++i) {
        x += gap(rng);
        v = std::max(0.0, v + step(rng));
        s.x.push_back(x);
        s.bytes.push_back(spike(rng) == 0 ? v * 3 : v);
    }
    return s;
}

} // namespace

class TstMemoryDownsample : public QObject
{
    Q_OBJECT
private slots:
    void keepsBucketExtremes_data();
    void keepsBucketExtremes();
    void subRangeStartsWithValueInForce();
    void smallCurveWhole();
    void degenerate();
};

void TstMemoryDownsample::keepsBucketExtremes_data()
{
    QTest::addColumn<int>("points");
    QTest::addColumn<int>("maxPoints");
    QTest::newRow("1M to 4096") << 1'000'000 << kMaxCurvePoints;
    QTest::newRow("100k to 1000") << 100'000 << 1000;
    QTest::newRow("5000 to 4096") << 5000 << kMaxCurvePoints;
}

void TstMemoryDownsample::keepsBucketExtremes()
{
    QFETCH(int, points);
    QFETCH(int, maxPoints);
    const MemorySeries curve = randomCurve(std::size_t(points), 7);
    const std::int64_t x0 = curve.x.front();
    const std::int64_t x1 = curve.x.back();
    const std::vector<std::size_t> kept = downsampleIndices(curve, x0, x1, maxPoints);
    QVERIFY(int(kept.size()) <= maxPoints);
    QVERIFY(kept.size() > 4);
    QVERIFY(std::is_sorted(kept.begin(), kept.end()));
    QVERIFY(std::adjacent_find(kept.begin(), kept.end()) == kept.end());
    QCOMPARE(kept.front(), std::size_t(0));
    QCOMPARE(kept.back(), curve.size() - 1);

    // The global peak and trough survive.
    const auto maxIt = std::max_element(curve.bytes.begin(), curve.bytes.end());
    const auto minIt = std::min_element(curve.bytes.begin(), curve.bytes.end());
    auto keptValue = [&](double v) {
        return std::any_of(kept.begin(), kept.end(), [&](std::size_t i) { return curve.bytes[i] == v; });
    };
    QVERIFY(keptValue(*maxIt));
    QVERIFY(keptValue(*minIt));

    // Every pixel bucket (the range cut in (maxPoints - 1) / 4 equal parts) keeps its min and max value,
    // found here by brute force.
    const int buckets = (maxPoints - 1) / 4;
    const double width = (double(x1) - double(x0) + 1.0) / buckets;
    std::vector<double> lo(std::size_t(buckets), 1e300);
    std::vector<double> hi(std::size_t(buckets), -1e300);
    for (std::size_t i = 0; i < curve.size(); ++i) {
        const std::size_t b
            = std::min<std::size_t>(std::size_t(buckets - 1), std::size_t((double(curve.x[i]) - double(x0)) / width));
        lo[b] = std::min(lo[b], curve.bytes[i]);
        hi[b] = std::max(hi[b], curve.bytes[i]);
    }
    std::vector<double> keptLo(std::size_t(buckets), 1e300);
    std::vector<double> keptHi(std::size_t(buckets), -1e300);
    for (std::size_t i : kept) {
        const std::size_t b
            = std::min<std::size_t>(std::size_t(buckets - 1), std::size_t((double(curve.x[i]) - double(x0)) / width));
        keptLo[b] = std::min(keptLo[b], curve.bytes[i]);
        keptHi[b] = std::max(keptHi[b], curve.bytes[i]);
    }
    if (curve.size() > std::size_t(buckets) * 4) {
        for (int b = 0; b < buckets; ++b) {
            QCOMPARE(keptLo[std::size_t(b)], lo[std::size_t(b)]);
            QCOMPARE(keptHi[std::size_t(b)], hi[std::size_t(b)]);
        }
    }

    const MemorySeries down = downsample(curve, x0, x1, maxPoints);
    QCOMPARE(down.size(), kept.size());
    QCOMPARE(down.name, curve.name);
    QCOMPARE(down.x[1], curve.x[kept[1]]);
    QCOMPARE(down.bytes[1], curve.bytes[kept[1]]);
}

void TstMemoryDownsample::subRangeStartsWithValueInForce()
{
    const MemorySeries curve = randomCurve(200'000, 11);
    const std::int64_t x0 = curve.x[50'000] + 1; // between two samples
    const std::int64_t x1 = curve.x[150'000];
    const std::vector<std::size_t> kept = downsampleIndices(curve, x0, x1, 512);
    QVERIFY(kept.size() <= 512);
    // The sample before the range holds the value at x0; everything else lies inside.
    QCOMPARE(kept.front(), std::size_t(50'000));
    QCOMPARE(kept[1], std::size_t(50'001));
    QCOMPARE(kept.back(), std::size_t(150'000));
    for (std::size_t i = 1; i < kept.size(); ++i)
        QVERIFY(curve.x[kept[i]] >= x0 && curve.x[kept[i]] <= x1);
    double inRangeMax = 0;
    for (std::size_t i = 50'001; i <= 150'000; ++i)
        inRangeMax = std::max(inRangeMax, curve.bytes[i]);
    QVERIFY(std::any_of(kept.begin(), kept.end(), [&](std::size_t i) { return curve.bytes[i] == inRangeMax; }));

    // A range starting exactly on a sample needs nothing before it.
    const std::vector<std::size_t> exact = downsampleIndices(curve, curve.x[1000], curve.x[1010]);
    QCOMPARE(exact.front(), std::size_t(1000));
    QCOMPARE(exact.size(), std::size_t(11));
}

void TstMemoryDownsample::smallCurveWhole()
{
    MemorySeries s;
    s.x = { 10, 20, 30, 40 };
    s.bytes = { 1, 5, 2, 8 };
    QCOMPARE(downsampleIndices(s, 0, 100), std::vector<std::size_t>({ 0, 1, 2, 3 }));
    QCOMPARE(downsampleIndices(s, 25, 100), std::vector<std::size_t>({ 1, 2, 3 }));
    QCOMPARE(downsampleIndices(s, 45, 100), std::vector<std::size_t>({ 3 })); // only the value in force
}

void TstMemoryDownsample::degenerate()
{
    MemorySeries empty;
    QVERIFY(downsampleIndices(empty, 0, 100).empty());
    MemorySeries s;
    s.x = { 10, 20 };
    s.bytes = { 1, 2 };
    QVERIFY(downsampleIndices(s, 100, 0).empty()); // inverted range
    QVERIFY(downsampleIndices(s, 0, 5).empty()); // before the first sample
    // Many samples at one x (a burst in one tick) still stay within the budget.
    MemorySeries burst;
    for (int i = 0; i < 100'000; ++i) {
        burst.x.push_back(42);
        burst.bytes.push_back(i % 977);
    }
    const std::vector<std::size_t> kept = downsampleIndices(burst, 0, 100, 64);
    QVERIFY(kept.size() <= 64);
    QVERIFY(std::any_of(kept.begin(), kept.end(), [&](std::size_t i) { return burst.bytes[i] == 976; }));
}

QTEST_GUILESS_MAIN(TstMemoryDownsample)
#include "tst_memorydownsample.moc"
