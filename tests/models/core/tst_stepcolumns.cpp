#include "models/core/stepcolumns.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace runlens;
using namespace runlens::models;

namespace {

/// `steps` steps of three categories: step i takes i, 2i and 1 (so the last step of a column is its slowest).
std::vector<double> rising(std::size_t steps)
{
    std::vector<double> values;
    for (std::size_t i = 0; i < steps; ++i)
        values.insert(values.end(), { double(i), 2.0 * double(i), 1.0 });
    return values;
}

} // namespace

class TstStepColumns : public QObject
{
    Q_OBJECT
private slots:
    void columnsPerPixel();
    void sumsPreserved();
    void rangesAndSlowest();
    void partialRangeTakesWholeColumns();
    void noSteps();
    void oneStep();
    void fewerStepsThanColumns();
    void missingTimes();
    void reuseKeepsCapacity();
};

void TstStepColumns::columnsPerPixel()
{
    QCOMPARE(stepsPerColumn(10'000, 800), std::size_t(13)); // 12.5 per pixel: 13, so 770 columns ≤ 800
    QCOMPARE(stepsPerColumn(800, 800), std::size_t(1));
    QCOMPARE(stepsPerColumn(100, 800), std::size_t(1));
    QCOMPARE(stepsPerColumn(801, 800), std::size_t(2));
    QCOMPARE(stepsPerColumn(10'000, 0), std::size_t(1)); // width not known yet
    QCOMPARE(stepsPerColumn(std::numeric_limits<double>::quiet_NaN(), 800), std::size_t(1));
}

void TstStepColumns::sumsPreserved()
{
    const std::size_t steps = 10'007;
    const std::vector<double> values = rising(steps);
    StepColumns out;
    aggregateStepColumns(values, 3, 0, steps, stepsPerColumn(double(steps), 800), out);
    QVERIFY(out.columns.size() <= 800);
    QCOMPARE(out.means.size(), out.columns.size() * 3);
    std::size_t covered = 0;
    for (std::size_t c = 0; c < 3; ++c) {
        double expected = 0.0;
        for (std::size_t i = 0; i < steps; ++i)
            expected += values[i * 3 + c];
        double got = 0.0;
        for (std::size_t col = 0; col < out.columns.size(); ++col)
            got += out.mean(col, c) * double(out.columns[col].count);
        QVERIFY2(std::abs(got - expected) <= 1e-9 * expected, qPrintable(QString::number(got - expected)));
    }
    for (std::size_t col = 0; col < out.columns.size(); ++col) {
        const StepColumn& column = out.columns[col];
        covered += column.count;
        // The stacked categories of a column reach its mean step total.
        QVERIFY(std::abs(out.mean(col, 0) + out.mean(col, 1) + out.mean(col, 2) - column.meanTotal)
                < 1e-9 * column.meanTotal + 1e-12);
    }
    QCOMPARE(covered, steps);
}

void TstStepColumns::rangesAndSlowest()
{
    std::vector<double> values = rising(25);
    values[7 * 3 + 2] = 1000.0; // a straggler inside the first column
    StepColumns out;
    aggregateStepColumns(values, 3, 0, 25, 10, out);
    QCOMPARE(out.stepsPerColumn, std::size_t(10));
    QCOMPARE(out.columns.size(), std::size_t(3));
    QCOMPARE(out.columns[0].first, std::size_t(0));
    QCOMPARE(out.columns[0].count, std::size_t(10));
    QCOMPARE(out.columns[1].first, std::size_t(10));
    QCOMPARE(out.columns[2].first, std::size_t(20));
    QCOMPARE(out.columns[2].count, std::size_t(5));
    QCOMPARE(out.columns[0].slowest, std::size_t(7));
    QCOMPARE(out.columns[0].slowestTotal, 7.0 + 14.0 + 1000.0);
    QCOMPARE(out.columns[1].slowest, std::size_t(19));
    QCOMPARE(out.columns[2].slowest, std::size_t(24));
    QCOMPARE(out.mean(1, 0), 14.5); // mean of 10..19
    QCOMPARE(out.mean(2, 1), 44.0); // mean of 2·(20..24)
    QCOMPARE(out.columns[2].meanTotal, 22.0 + 44.0 + 1.0);
}

void TstStepColumns::partialRangeTakesWholeColumns()
{
    const std::vector<double> values = rising(100);
    StepColumns out;
    aggregateStepColumns(values, 3, 25, 41, 10, out); // steps 25..40 touch the columns from 20, 30 and 40
    QCOMPARE(out.columns.size(), std::size_t(3));
    QCOMPARE(out.columns.front().first, std::size_t(20));
    QCOMPARE(out.columns.back().first, std::size_t(40));
    QCOMPARE(out.columns.back().count, std::size_t(10));
    aggregateStepColumns(values, 3, 95, 500, 10, out); // past the end: clipped
    QCOMPARE(out.columns.size(), std::size_t(1));
    QCOMPARE(out.columns[0].first, std::size_t(90));
    QCOMPARE(out.columns[0].count, std::size_t(10));
}

void TstStepColumns::noSteps()
{
    StepColumns out;
    aggregateStepColumns({}, 3, 0, 10, 4, out);
    QVERIFY(out.columns.empty());
    QVERIFY(out.means.empty());
    const std::vector<double> values = rising(5);
    aggregateStepColumns(values, 0, 0, 5, 4, out); // no categories: nothing to stack
    QVERIFY(out.columns.empty());
    aggregateStepColumns(values, 3, 3, 3, 4, out); // empty range
    QVERIFY(out.columns.empty());
}

void TstStepColumns::oneStep()
{
    const std::vector<double> values { 1.0, 2.0, 3.0 };
    StepColumns out;
    aggregateStepColumns(values, 3, 0, 1, 13, out);
    QCOMPARE(out.columns.size(), std::size_t(1));
    QCOMPARE(out.columns[0].count, std::size_t(1));
    QCOMPARE(out.columns[0].slowest, std::size_t(0));
    QCOMPARE(out.columns[0].meanTotal, 6.0);
    QCOMPARE(out.mean(0, 2), 3.0);
}

void TstStepColumns::fewerStepsThanColumns()
{
    const std::vector<double> values = rising(50);
    StepColumns out;
    aggregateStepColumns(values, 3, 0, 50, stepsPerColumn(50, 800), out);
    QCOMPARE(out.stepsPerColumn, std::size_t(1));
    QCOMPARE(out.columns.size(), std::size_t(50));
    for (std::size_t i = 0; i < 50; ++i) {
        QCOMPARE(out.columns[i].first, i);
        QCOMPARE(out.columns[i].slowest, i);
        QCOMPARE(out.mean(i, 1), values[i * 3 + 1]);
    }
}

void TstStepColumns::missingTimes()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    // Step 1 misses its first category, step 2 has a negative (clock skew) time, step 3 an infinite one.
    const std::vector<double> values { 4.0, 2.0, nan, 2.0, -5.0, 2.0, inf, 2.0 };
    StepColumns out;
    aggregateStepColumns(values, 2, 0, 4, 4, out);
    QCOMPARE(out.columns.size(), std::size_t(1));
    QCOMPARE(out.mean(0, 0), 1.0); // 4 over four steps: a missing time is none
    QCOMPARE(out.mean(0, 1), 2.0);
    QCOMPARE(out.columns[0].meanTotal, 3.0);
    QCOMPARE(out.columns[0].slowest, std::size_t(0));
    QVERIFY(std::isfinite(out.columns[0].slowestTotal));
}

void TstStepColumns::reuseKeepsCapacity()
{
    const std::vector<double> values = rising(10'000);
    StepColumns out;
    aggregateStepColumns(values, 3, 0, 10'000, 13, out);
    const double* means = out.means.data();
    const StepColumn* columns = out.columns.data();
    aggregateStepColumns(values, 3, 0, 10'000, 14, out); // fewer columns: the same storage
    QCOMPARE(out.means.data(), means);
    QCOMPARE(out.columns.data(), columns);
}

QTEST_GUILESS_MAIN(TstStepColumns)
#include "tst_stepcolumns.moc"
