#include "models/scalars/scalarseries.h"
#include "models/scalars/scalarstore.h"

#include <QSignalSpy>
#include <QtTest>

using namespace runlens;
using namespace runlens::models::scalars;

namespace {

TagPoints tagPoints(const QString& tag, std::initializer_list<std::pair<qint64, double>> points)
{
    TagPoints tp;
    tp.tag = tag;
    for (const auto& [step, value] : points)
        tp.points.push_back(ScalarPoint { step, 1000.0 + double(step), value });
    return tp;
}

QList<qint64> steps(const ScalarSeries& s)
{
    QList<qint64> out;
    for (const auto& p : s.points)
        out.append(p.step);
    return out;
}

} // namespace

class TestScalarSeries : public QObject
{
    Q_OBJECT
private slots:
    void appendInOrder()
    {
        ScalarSeries s;
        for (qint64 step : { 0, 1, 2, 5 })
            s.append({ step, 0.0, double(step) });
        QCOMPARE(steps(s), (QList<qint64> { 0, 1, 2, 5 }));
        QCOMPARE(s.preempted, 0);
    }

    void limitKeepsLatestAndASample()
    {
        // 10,000 points into 100: the latest always, the rest spread over the whole run, in step order.
        ScalarSeries s;
        s.capacity = 100;
        for (qint64 step = 0; step < 10000; ++step) {
            s.append({ step, 0.0, double(step) });
            QCOMPARE(s.points.back().step, step);
            QVERIFY(qint64(s.points.size()) <= 100);
        }
        QCOMPARE(int(s.points.size()), 100);
        QCOMPARE(s.seen, 10000);
        QVERIFY(std::is_sorted(s.points.begin(), s.points.end(),
                               [](const ScalarPoint& a, const ScalarPoint& b) { return a.step < b.step; }));
        const auto firstHalf
            = std::count_if(s.points.begin(), s.points.end(), [](const ScalarPoint& p) { return p.step < 5000; });
        QVERIFY2(firstHalf > 25 && firstHalf < 75, qPrintable(QString::number(firstHalf)));
        // A restart still preempts, and the estimate of what was seen shrinks with what was kept.
        s.append({ 2000, 0.0, -1.0 });
        QCOMPARE(s.points.back().value, -1.0);
        for (const ScalarPoint& p : s.points)
            QVERIFY(p.step <= 2000);
        QVERIFY(s.seen < 10000 / 2);
    }

    void storeAppliesItsLimitToNewSeries()
    {
        ScalarStore store;
        store.setPointLimit(10);
        TagPoints many;
        many.tag = QStringLiteral("loss");
        for (qint64 step = 0; step < 1000; ++step)
            many.points.push_back(ScalarPoint { step, 0.0, double(step) });
        store.append(QStringLiteral("run"), { many });
        const ScalarSeries* series = store.series(QStringLiteral("run"), QStringLiteral("loss"));
        QVERIFY(series);
        QCOMPARE(int(series->points.size()), 10);
        QCOMPARE(series->points.back().step, 999);
        // Without a limit everything stays.
        store.setPointLimit(0);
        many.tag = QStringLiteral("accuracy");
        store.append(QStringLiteral("run"), { many });
        QCOMPARE(int(store.series(QStringLiteral("run"), QStringLiteral("accuracy"))->points.size()), 1000);
    }

    void stepBackwardsPreempts()
    {
        ScalarSeries s;
        for (qint64 step : { 0, 10, 20, 30, 40 })
            s.append({ step, 0.0, 1.0 });
        s.append({ 20, 0.0, 2.0 }); // restarted from the checkpoint at step 20
        QCOMPARE(steps(s), (QList<qint64> { 0, 10, 20 }));
        QCOMPARE(s.points.back().value, 2.0);
        QCOMPARE(s.preempted, 3); // 20, 30 and 40 of the first attempt
        s.append({ 5, 0.0, 3.0 });
        QCOMPARE(steps(s), (QList<qint64> { 0, 5 }));
        QCOMPARE(s.preempted, 5);
    }

    void equalStepsKept()
    {
        ScalarSeries s;
        s.append({ 1, 0.0, 1.0 });
        s.append({ 2, 0.0, 2.0 });
        s.append({ 2, 0.0, 3.0 });
        s.append({ 2, 0.0, 4.0 });
        QCOMPARE(steps(s), (QList<qint64> { 1, 2, 2, 2 }));
        QCOMPARE(s.preempted, 0);
    }

    void storePreemptionPerTag()
    {
        ScalarStore store;
        store.append(QStringLiteral("run"),
                     { tagPoints(QStringLiteral("a"), { { 0, 1 }, { 1, 1 }, { 2, 1 } }),
                       tagPoints(QStringLiteral("b"), { { 0, 1 }, { 1, 1 }, { 2, 1 } }) });
        store.append(QStringLiteral("run"), { tagPoints(QStringLiteral("a"), { { 1, 5 } }) });
        QCOMPARE(steps(*store.series(QStringLiteral("run"), QStringLiteral("a"))), (QList<qint64> { 0, 1 }));
        QCOMPARE(steps(*store.series(QStringLiteral("run"), QStringLiteral("b"))), (QList<qint64> { 0, 1, 2 }));
    }

    void storeStructureSignals()
    {
        ScalarStore store;
        QSignalSpy structure(&store, &ScalarStore::structureChanged);
        QSignalSpy changed(&store, &ScalarStore::seriesChanged);
        QSignalSpy cleared(&store, &ScalarStore::cleared);

        store.append(QStringLiteral("r1"), { tagPoints(QStringLiteral("train/loss"), { { 0, 1.0 } }) });
        QCOMPARE(structure.count(), 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.last().at(0).toString(), QStringLiteral("r1"));
        QCOMPARE(changed.last().at(1).toStringList(), QStringList { QStringLiteral("train/loss") });

        // More points of a known tag: data changed, structure did not.
        store.append(QStringLiteral("r1"), { tagPoints(QStringLiteral("train/loss"), { { 1, 0.9 } }) });
        QCOMPARE(structure.count(), 1);
        QCOMPARE(changed.count(), 2);

        // A new tag and a new run are structural.
        store.append(QStringLiteral("r1"), { tagPoints(QStringLiteral("lr"), { { 0, 0.1 } }) });
        QCOMPARE(structure.count(), 2);
        store.append(QStringLiteral("r2"), { tagPoints(QStringLiteral("lr"), { { 0, 0.1 } }) });
        QCOMPARE(structure.count(), 3);
        QCOMPARE(store.runs(), (QStringList { QStringLiteral("r1"), QStringLiteral("r2") }));
        QCOMPARE(store.runIndex(QStringLiteral("r2")), 1);
        QCOMPARE(store.tags(), (QStringList { QStringLiteral("lr"), QStringLiteral("train/loss") }));
        QCOMPARE(store.tagsOfRun(QStringLiteral("r2")), QStringList { QStringLiteral("lr") });
        QCOMPARE(store.pointCount(), 4);

        // An empty batch changes nothing.
        const quint64 revision = store.revision();
        store.append(QStringLiteral("r1"), {});
        QCOMPARE(store.revision(), revision);
        QCOMPARE(changed.count(), 4);

        store.removeRun(QStringLiteral("r1"));
        QCOMPARE(structure.count(), 4);
        QCOMPARE(store.series(QStringLiteral("r1"), QStringLiteral("lr")), nullptr);
        QVERIFY(store.series(QStringLiteral("r2"), QStringLiteral("lr")));

        store.clear();
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(structure.count(), 5);
        QVERIFY(store.runs().isEmpty());
        QCOMPARE(store.pointCount(), 0);
    }

    void metadataFromFirstBatch()
    {
        ScalarStore store;
        TagPoints first = tagPoints(QStringLiteral("loss"), { { 0, 1.0 } });
        first.metadata
            = TagMetadata { QStringLiteral("Loss"), QStringLiteral("training loss"), QStringLiteral("scalars") };
        store.append(QStringLiteral("r"), { first });
        TagPoints later = tagPoints(QStringLiteral("loss"), { { 1, 1.0 } });
        later.metadata = TagMetadata { QStringLiteral("Other"), QString(), QStringLiteral("scalars") };
        store.append(QStringLiteral("r"), { later });
        const ScalarSeries* s = store.series(QStringLiteral("r"), QStringLiteral("loss"));
        QVERIFY(s);
        QCOMPARE(s->metadata.displayName, QStringLiteral("Loss"));
        QCOMPARE(s->metadata.description, QStringLiteral("training loss"));
    }
};

QTEST_GUILESS_MAIN(TestScalarSeries)
#include "tst_scalarseries.moc"
