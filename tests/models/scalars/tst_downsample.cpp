#include "models/scalars/downsample.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace runlens;
using namespace runlens::models::scalars;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Series
{
    std::vector<double> x;
    std::vector<double> y;
};

Series noisySeries(std::size_t n, unsigned seed = 42)
{
    Series s;
    s.x.resize(n);
    s.y.resize(n);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    for (std::size_t i = 0; i < n; ++i) {
        s.x[i] = double(i);
        s.y[i] = std::exp(-double(i) / double(n)) + 0.1 * noise(rng);
    }
    return s;
}

bool strictlyIncreasing(const std::vector<std::size_t>& v)
{
    return std::adjacent_find(v.begin(), v.end(), std::greater_equal<>()) == v.end();
}

bool contains(const std::vector<std::size_t>& v, std::size_t i)
{
    return std::binary_search(v.begin(), v.end(), i);
}

} // namespace

class TestDownsample : public QObject
{
    Q_OBJECT
private slots:
    void emptyInput() { QVERIFY(downsampleMinMax({}, {}, 0, 10, 100).empty()); }

    void smallInputUntouched()
    {
        const ::Series s = noisySeries(50);
        const auto idx = downsampleMinMax(s.x, s.y, 0, 49, 100);
        QCOMPARE(idx.size(), std::size_t(50));
        for (std::size_t i = 0; i < idx.size(); ++i)
            QCOMPARE(idx[i], i);
    }

    void keepsExtremesAndEnds()
    {
        Series s = noisySeries(100000);
        s.y[31337] = 50.0; // a spike far above everything else
        s.y[77777] = -50.0;
        const int buckets = 300;
        const auto idx = downsampleMinMax(s.x, s.y, 0, 99999, buckets);
        QVERIFY(strictlyIncreasing(idx));
        QVERIFY(idx.size() <= std::size_t(4 * buckets + 2));
        QVERIFY(idx.size() >= std::size_t(buckets)); // one column per pixel at least
        QVERIFY(contains(idx, 0));
        QVERIFY(contains(idx, 99999));
        QVERIFY(contains(idx, 31337));
        QVERIFY(contains(idx, 77777));
        const auto [minIt, maxIt] = std::minmax_element(s.y.begin(), s.y.end());
        QVERIFY(contains(idx, std::size_t(minIt - s.y.begin())));
        QVERIFY(contains(idx, std::size_t(maxIt - s.y.begin())));
    }

    void keepsEnvelopePerColumn()
    {
        // Within every pixel column the kept points span the same y range as all points.
        const ::Series s = noisySeries(20000, 7);
        const int buckets = 97;
        const double xMin = 0, xMax = 19999;
        const auto idx = downsampleMinMax(s.x, s.y, xMin, xMax, buckets);
        std::vector<double> lo(buckets, kInf), hi(buckets, -kInf), keptLo(buckets, kInf), keptHi(buckets, -kInf);
        auto column = [&](double x) { return std::clamp(int((x - xMin) / (xMax - xMin) * buckets), 0, buckets - 1); };
        for (std::size_t i = 0; i < s.x.size(); ++i) {
            const int c = column(s.x[i]);
            lo[c] = std::min(lo[c], s.y[i]);
            hi[c] = std::max(hi[c], s.y[i]);
        }
        for (std::size_t i : idx) {
            const int c = column(s.x[i]);
            keptLo[c] = std::min(keptLo[c], s.y[i]);
            keptHi[c] = std::max(keptHi[c], s.y[i]);
        }
        for (int c = 0; c < buckets; ++c) {
            QCOMPARE(keptLo[c], lo[c]);
            QCOMPARE(keptHi[c], hi[c]);
        }
    }

    void neighboursOutsideRangeKept()
    {
        const ::Series s = noisySeries(100000);
        const int buckets = 100;
        const auto idx = downsampleMinMax(s.x, s.y, 40000.5, 60000.5, buckets);
        QVERIFY(strictlyIncreasing(idx));
        QVERIFY(idx.size() <= std::size_t(4 * buckets + 2));
        QCOMPARE(idx.front(), std::size_t(40000)); // just before the range
        QCOMPARE(idx.back(), std::size_t(60001)); // just after the range
        QVERIFY(contains(idx, 40001)); // first in range
        QVERIFY(contains(idx, 60000)); // last in range
        for (std::size_t k = 1; k + 1 < idx.size(); ++k)
            QVERIFY(s.x[idx[k]] >= 40000.5 && s.x[idx[k]] <= 60000.5);
    }

    void neighboursKeptWhenFewPointsInRange()
    {
        const ::Series s = noisySeries(100000);
        const auto idx = downsampleMinMax(s.x, s.y, 10.5, 20.5, 100);
        QCOMPARE(idx.size(), std::size_t(12)); // 11..20 plus 10 and 21
        QCOMPARE(idx.front(), std::size_t(10));
        QCOMPARE(idx.back(), std::size_t(21));
    }

    void rangeOutsideData()
    {
        const ::Series s = noisySeries(1000);
        const auto right = downsampleMinMax(s.x, s.y, 5000, 6000, 10);
        QCOMPARE(right, std::vector<std::size_t> { 999 });
        const auto left = downsampleMinMax(s.x, s.y, -600, -500, 10);
        QCOMPARE(left, std::vector<std::size_t> { 0 });
    }

    void nonFiniteKept()
    {
        Series s = noisySeries(50000);
        const std::vector<std::size_t> bad { 5, 1234, 1235, 1236, 25000, 49998 };
        s.y[5] = kNaN;
        s.y[1234] = kInf;
        s.y[1235] = -kInf;
        s.y[1236] = kNaN;
        s.y[25000] = kNaN;
        s.y[49998] = kInf;
        const int buckets = 50;
        const auto idx = downsampleMinMax(s.x, s.y, 0, 49999, buckets);
        QVERIFY(strictlyIncreasing(idx));
        for (std::size_t i : bad)
            QVERIFY2(contains(idx, i), qPrintable(QString::number(i)));
        QVERIFY(idx.size() <= std::size_t(4 * buckets + 2) + bad.size());
    }

    void allNonFiniteColumn()
    {
        std::vector<double> x(400), y(400, kNaN);
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] = double(i);
        const auto idx = downsampleMinMax(x, y, 0, 399, 10);
        QCOMPARE(idx.size(), x.size()); // nothing may be dropped
    }

    void zeroWidthRange()
    {
        // All in-range points share one x: one column, extremes kept.
        std::vector<double> x(1000, 5.0), y(1000);
        for (std::size_t i = 0; i < y.size(); ++i)
            y[i] = std::sin(double(i));
        const auto idx = downsampleMinMax(x, y, 5.0, 5.0, 10);
        QVERIFY(strictlyIncreasing(idx));
        QVERIFY(idx.size() <= 4);
        QVERIFY(contains(idx, 0));
        QVERIFY(contains(idx, 999));
    }

    void duplicateX()
    {
        std::vector<double> x, y;
        for (int i = 0; i < 10000; ++i) {
            x.push_back(double(i / 10));
            y.push_back(double(i % 7));
        }
        const auto idx = downsampleMinMax(x, y, 0, 999, 100);
        QVERIFY(strictlyIncreasing(idx));
        QVERIFY(idx.size() <= 402);
    }
};

QTEST_GUILESS_MAIN(TestDownsample)
#include "tst_downsample.moc"
