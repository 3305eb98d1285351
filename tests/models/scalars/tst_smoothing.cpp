#include "models/scalars/smoothing.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace runlens;
using namespace runlens::models::scalars;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool sameValue(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b))
        return a == b;
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

void compareSeries(const std::vector<double>& actual, const std::vector<double>& expected)
{
    QCOMPARE(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        if (!sameValue(actual[i], expected[i]))
            QFAIL(qPrintable(QStringLiteral("index %1: got %2, expected %3").arg(i).arg(actual[i]).arg(expected[i])));
    }
}

} // namespace

class TestSmoothing : public QObject
{
    Q_OBJECT
private slots:
    void handComputedValues()
    {
        // w = 0.6 over 1, 2, 3, 4 from the definition: last_n = w * last_{n-1} + (1 - w) * y_n, out = last_n / (1 -
        // w^n)
        const std::vector<double> in { 1, 2, 3, 4 };
        const double w = 0.6;
        const double last1 = 0.4 * 1;
        const double last2 = 0.6 * last1 + 0.4 * 2;
        const double last3 = 0.6 * last2 + 0.4 * 3;
        const double last4 = 0.6 * last3 + 0.4 * 4;
        const std::vector<double> expected { last1 / (1 - 0.6), last2 / (1 - 0.36), last3 / (1 - 0.216),
                                             last4 / (1 - 0.1296) };
        compareSeries(smoothDebiasedEma(in, w), expected);
        // The same numbers written out: 1, (0.6*0.4*1 + 0.4*2) / 0.64 = 1.625, ...
        QVERIFY(sameValue(expected[0], 1.0));
        QVERIFY(sameValue(expected[1], (0.6 * 0.4 * 1 + 0.4 * 2) / (1 - 0.36)));
        QVERIFY(sameValue(expected[1], 1.625));
    }

    void firstValueIsKept()
    {
        // The debiased average starts at the first value for every weight below 1.
        for (double w : { 0.1, 0.5, 0.9, 0.999 }) {
            const auto out = smoothDebiasedEma(std::vector<double> { 7.5, 1.0, 3.0 }, w);
            QVERIFY(sameValue(out[0], 7.5));
        }
    }

    void constantSeriesUntouched()
    {
        const std::vector<double> in(50, 0.1);
        const auto out = smoothDebiasedEma(in, 0.9);
        QCOMPARE(out, in); // exact, not approximately
    }

    void emptyAndSingle()
    {
        QVERIFY(smoothDebiasedEma(std::vector<double> {}, 0.6).empty());
        QCOMPARE(smoothDebiasedEma(std::vector<double> { 3.0 }, 0.6), std::vector<double> { 3.0 });
    }

    void nonFinitePassThrough()
    {
        const std::vector<double> in { 1, kNaN, 2, kInf, -kInf, 3 };
        const auto out = smoothDebiasedEma(in, 0.6);
        // The average skips the non-finite values: the finite outputs equal the smoothing of {1, 2, 3}.
        const auto finiteOnly = smoothDebiasedEma(std::vector<double> { 1, 2, 3 }, 0.6);
        compareSeries(out, { finiteOnly[0], kNaN, finiteOnly[1], kInf, -kInf, finiteOnly[2] });
    }

    void leadingNaN()
    {
        const auto out = smoothDebiasedEma(std::vector<double> { kNaN, 4, 6 }, 0.5);
        // n counts finite values only, so the first finite output is that value itself.
        compareSeries(out, { kNaN, 4.0, (0.5 * 0.5 * 4 + 0.5 * 6) / (1 - 0.25) });
    }

    void weightZeroIsIdentity()
    {
        const std::vector<double> in { 3, -1, 4, 1, -5, 9, 2.5 };
        compareSeries(smoothDebiasedEma(in, 0.0), in);
    }

    void weightOne()
    {
        // w == 1: the average never moves from 0 and the debias factor is 1.
        const auto out = smoothDebiasedEma(std::vector<double> { 3, 4, 5 }, 1.0);
        compareSeries(out, { 0.0, 0.0, 0.0 });
    }

    void weightClamped()
    {
        const std::vector<double> in { 3, -1, 4, 1, -5 };
        compareSeries(smoothDebiasedEma(in, -0.5), smoothDebiasedEma(in, 0.0));
        compareSeries(smoothDebiasedEma(in, 1.5), smoothDebiasedEma(in, 1.0));
        compareSeries(smoothDebiasedEma(in, kNaN), in);
        compareSeries(smoothDebiasedEma(in, kInf), in);
    }

    void longSeriesStable()
    {
        std::vector<double> in(100000);
        for (std::size_t i = 0; i < in.size(); ++i)
            in[i] = std::sin(double(i) * 0.01);
        const auto out = smoothDebiasedEma(in, 0.999);
        for (double v : out)
            QVERIFY(std::isfinite(v) && std::abs(v) <= 1.0 + 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestSmoothing)
#include "tst_smoothing.moc"
