#include "models/summary/reservoir.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

using runlens::models::summary::Reservoir;

namespace {

struct Item
{
    qint64 step = 0;
    int payload = 0; ///< tells apart two items of the same step
};

std::vector<qint64> stepsOf(const Reservoir<Item>& reservoir)
{
    std::vector<qint64> steps;
    for (const Item& item : reservoir.items())
        steps.push_back(item.step);
    return steps;
}

bool increasing(const std::vector<qint64>& steps)
{
    return std::adjacent_find(steps.begin(), steps.end(), [](qint64 a, qint64 b) { return a >= b; }) == steps.end();
}

Reservoir<Item> filled(int capacity, qint64 count)
{
    Reservoir<Item> reservoir(capacity);
    for (qint64 step = 0; step < count; ++step)
        reservoir.add(Item { step, int(step) });
    return reservoir;
}

} // namespace

// TensorBoard's reservoir rules: bounded, latest always kept, a uniform sample of the rest, in step order,
// the same on every run, and preemption when a step goes back.
class TestReservoir : public QObject
{
    Q_OBJECT

private slots:
    void capacityAndLatestAfterEveryAdd()
    {
        Reservoir<Item> reservoir(10);
        QCOMPARE(reservoir.capacity(), 10);
        QVERIFY(reservoir.isEmpty());
        for (qint64 step = 0; step < 1000; ++step) {
            QCOMPARE(reservoir.add(Item { step, int(step) }), 0);
            QCOMPARE(qint64(reservoir.items().size()), std::min<qint64>(step + 1, 10));
            QCOMPARE(reservoir.items().back().step, step);
            QCOMPARE(reservoir.seen(), step + 1);
            QVERIFY(increasing(stepsOf(reservoir)));
        }
    }

    void capacityOneKeepsOnlyTheLatest()
    {
        const Reservoir<Item> reservoir = filled(1, 500);
        QCOMPARE(stepsOf(reservoir), std::vector<qint64> { 499 });
        QCOMPARE(reservoir.seen(), 500);
    }

    void capacityZeroKeepsAll()
    {
        const Reservoir<Item> reservoir = filled(0, 5000);
        QCOMPARE(reservoir.items().size(), std::size_t(5000));
        QCOMPARE(reservoir.seen(), 5000);
        for (qint64 i = 0; i < 5000; ++i)
            QCOMPARE(reservoir.items()[std::size_t(i)].step, i);
        // A negative capacity is taken as "keep all" too.
        QCOMPARE(Reservoir<Item>(-3).capacity(), 0);
    }

    void sampleSpreadsOverTheRange()
    {
        const Reservoir<Item> reservoir = filled(100, 10000);
        const std::vector<qint64> steps = stepsOf(reservoir);
        QCOMPARE(steps.size(), std::size_t(100));
        QCOMPARE(steps.back(), 9999);
        QVERIFY(increasing(steps));
        // A uniform sample of 0..9999: the quartiles near 2500, 5000 and 7500 (loosely: about four
        // standard deviations of a sample quartile of 100 values either side).
        QVERIFY2(steps[25] > 1000 && steps[25] < 4200, qPrintable(QString::number(steps[25])));
        QVERIFY2(steps[50] > 3000 && steps[50] < 7000, qPrintable(QString::number(steps[50])));
        QVERIFY2(steps[75] > 5800 && steps[75] < 9000, qPrintable(QString::number(steps[75])));
        // Not only the head or the tail of the stream.
        QVERIFY(steps.front() < 1000);
        const auto inFirstHalf = std::count_if(steps.begin(), steps.end(), [](qint64 s) { return s < 5000; });
        QVERIFY2(inFirstHalf > 30 && inFirstHalf < 70, qPrintable(QString::number(inFirstHalf)));
    }

    void sampleIsDeterministic()
    {
        const std::vector<qint64> first = stepsOf(filled(100, 10000));
        const std::vector<qint64> second = stepsOf(filled(100, 10000));
        QCOMPARE(first, second);
        // And a sample, not simply the last 100.
        QVERIFY(first.front() != 9900);
    }

    void preemptionWithoutLimit()
    {
        Reservoir<Item> reservoir = filled(0, 10);
        // A job restarted from its checkpoint at step 5: what it wrote from step 5 on is replaced.
        QCOMPARE(reservoir.add(Item { 5, 100 }), 5);
        QCOMPARE(stepsOf(reservoir), (std::vector<qint64> { 0, 1, 2, 3, 4, 5 }));
        QCOMPARE(reservoir.items().back().payload, 100);
        // seen 10 scaled by the 5 of 10 kept, plus the new item.
        QCOMPARE(reservoir.seen(), 6);
        // The same step again replaces it.
        QCOMPARE(reservoir.add(Item { 5, 101 }), 1);
        QCOMPARE(stepsOf(reservoir), (std::vector<qint64> { 0, 1, 2, 3, 4, 5 }));
        QCOMPARE(reservoir.items().back().payload, 101);
        // A step before everything empties the reservoir.
        QCOMPARE(reservoir.add(Item { -1, 102 }), 6);
        QCOMPARE(stepsOf(reservoir), std::vector<qint64> { -1 });
        QCOMPARE(reservoir.seen(), 1);
    }

    void preemptionScalesSeen()
    {
        Reservoir<Item> reservoir = filled(10, 100);
        const std::vector<qint64> before = stepsOf(reservoir);
        const auto kept = std::count_if(before.begin(), before.end(), [](qint64 s) { return s < 50; });
        const qint64 removed = reservoir.add(Item { 50, -1 });
        QCOMPARE(removed, qint64(before.size()) - kept);
        QVERIFY(removed >= 1); // step 99 at least
        std::vector<qint64> expected;
        std::copy_if(before.begin(), before.end(), std::back_inserter(expected), [](qint64 s) { return s < 50; });
        expected.push_back(50);
        QCOMPARE(stepsOf(reservoir), expected);
        // 100 seen, scaled by the share kept, plus the new one.
        QCOMPARE(reservoir.seen(), qint64(std::llround(100.0 * double(kept) / 10.0)) + 1);
        // Adding goes on from there with the latest kept.
        QCOMPARE(reservoir.add(Item { 51, 0 }), 0);
        QCOMPARE(reservoir.items().back().step, 51);
        QVERIFY(reservoir.items().size() <= 10);
    }

    void noPreemptionForIncreasingSteps()
    {
        Reservoir<Item> reservoir(5);
        QCOMPARE(reservoir.add(Item { 10, 0 }), 0);
        QCOMPARE(reservoir.add(Item { 20, 0 }), 0);
        QCOMPARE(reservoir.seen(), 2);
        QCOMPARE(stepsOf(reservoir), (std::vector<qint64> { 10, 20 }));
    }
};

QTEST_GUILESS_MAIN(TestReservoir)
#include "tst_reservoir.moc"
