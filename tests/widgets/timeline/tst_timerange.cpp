#include "models/core/timerange.h"
#include "widgets/timeline/timelineformat.h"

#include <QSignalSpy>
#include <QtTest>

using namespace runlens;
using namespace runlens::models;
using namespace runlens::widgets::timeline;

class TestTimeRange : public QObject
{
    Q_OBJECT
private slots:
    void traceRangeResetsEverything()
    {
        TimeRangeModel range;
        range.setTraceRange(1000, 1'001'000);
        range.setSelection(2000, 3000);
        range.setSelectedSlice(1, 2);
        range.addMark({ 5000, 6000 });
        range.setVisibleRange(2000, 4000, true);
        QSignalSpy visible(&range, &TimeRangeModel::visibleRangeChanged);
        range.setTraceRange(0, 500'000);
        QCOMPARE(range.visibleRange(), (TimeSpan { 0, 500'000 }));
        QVERIFY(!range.selection().valid());
        QCOMPARE(range.selectedTrack(), -1);
        QVERIFY(range.marks().isEmpty());
        QVERIFY(!range.canUndoZoom());
        QCOMPARE(visible.count(), 1);
    }

    void visibleRangeIsClamped()
    {
        TimeRangeModel range;
        range.setTraceRange(0, 1'000'000);
        range.setVisibleRange(-500, 200'000);
        QCOMPARE(range.visibleRange(), (TimeSpan { 0, 200'500 }));
        range.setVisibleRange(900'000, 1'200'000);
        QCOMPARE(range.visibleRange(), (TimeSpan { 700'000, 1'000'000 }));
        range.setVisibleRange(-10, 5'000'000);
        QCOMPARE(range.visibleRange(), (TimeSpan { 0, 1'000'000 }));
        range.setVisibleRange(500'000, 500'010); // deeper than the minimum span
        QCOMPARE(range.visibleRange().duration(), TimeRangeModel::kMinimumSpan);
    }

    void zoomKeepsTheAnchor()
    {
        TimeRangeModel range;
        range.setTraceRange(0, 1'000'000);
        range.zoom(0.5, 250'000);
        QCOMPARE(range.visibleRange(), (TimeSpan { 125'000, 625'000 }));
        range.zoom(2.0, 250'000);
        QCOMPARE(range.visibleRange(), (TimeSpan { 0, 1'000'000 }));
        range.zoom(0.5, 250'000);
        range.pan(100'000);
        QCOMPARE(range.visibleRange(), (TimeSpan { 225'000, 725'000 }));
        range.pan(10'000'000);
        QCOMPARE(range.visibleRange(), (TimeSpan { 500'000, 1'000'000 }));
    }

    void undoRestoresDiscreteZooms()
    {
        TimeRangeModel range;
        range.setTraceRange(0, 1'000'000);
        QSignalSpy undo(&range, &TimeRangeModel::undoAvailableChanged);
        range.setVisibleRange(100, 200'000, true);
        range.setVisibleRange(1000, 2000, true);
        range.zoom(0.5, 1500); // not recorded
        QVERIFY(range.canUndoZoom());
        range.undoZoom();
        QCOMPARE(range.visibleRange(), (TimeSpan { 100, 200'000 }));
        range.undoZoom();
        QCOMPARE(range.visibleRange(), (TimeSpan { 0, 1'000'000 }));
        QVERIFY(!range.canUndoZoom());
        QCOMPARE(undo.count(), 2);
    }

    void selectionAndSliceSignals()
    {
        TimeRangeModel range;
        range.setTraceRange(0, 1000);
        QSignalSpy selection(&range, &TimeRangeModel::selectionChanged);
        QSignalSpy slice(&range, &TimeRangeModel::selectedSliceChanged);
        range.setSelection(700, 300);
        QCOMPARE(range.selection(), (TimeSpan { 300, 700 }));
        range.setSelection(300, 700);
        QCOMPARE(selection.count(), 1);
        range.clearSelection();
        QCOMPARE(selection.count(), 2);
        QVERIFY(selection.last().at(1).toLongLong() < selection.last().at(0).toLongLong());
        range.setSelectedSlice(2, 5);
        range.setSelectedSlice(2, 5);
        range.clearSelectedSlice();
        QCOMPARE(slice.count(), 2);
    }

    void formatChoosesUnits()
    {
        QCOMPARE(TimelineFormat::duration(830), QStringLiteral("830 ns"));
        QCOMPARE(TimelineFormat::duration(1'250'000), QStringLiteral("1.25 ms"));
        QCOMPARE(TimelineFormat::duration(12'345), QStringLiteral("12.3 µs"));
        QCOMPARE(TimelineFormat::duration(2'500'000'000), QStringLiteral("2.5 s"));
        QCOMPARE(TimelineFormat::tickStep(1000.0, 90), std::int64_t(100'000));
        QCOMPARE(TimelineFormat::tickStep(1500.0, 90), std::int64_t(200'000));
        QCOMPARE(TimelineFormat::tickStep(0.01, 90), std::int64_t(1));
        QCOMPARE(TimelineFormat::tick(1'200'000, 200'000), QStringLiteral("1.2 ms"));
        QCOMPARE(TimelineFormat::tick(3'000'000'000, 1'000'000'000), QStringLiteral("3 s"));
        // Long spans (ranks recorded far apart, day-long traces) tick on the clock.
        const std::int64_t minute = std::int64_t(60'000'000'000);
        QCOMPARE(TimelineFormat::tickStep(1e9, 90), 2 * minute); // 90 s at least
        QCOMPARE(TimelineFormat::tickStep(1e11, 90), 3 * 60 * minute); // 2.5 h at least
        QCOMPARE(TimelineFormat::tickStep(1e13, 90), 20 * 24 * 60 * minute); // 10.4 days at least
        QCOMPARE(TimelineFormat::tick(90 * minute, 30 * minute), QStringLiteral("90 min"));
        QCOMPARE(TimelineFormat::tick(6 * 60 * minute, 3 * 60 * minute), QStringLiteral("6 h"));
        QCOMPARE(TimelineFormat::tick(40 * 24 * 60 * minute, 20 * 24 * 60 * minute), QStringLiteral("40 d"));
        QCOMPARE(TimelineFormat::duration(3 * 60 * minute), QStringLiteral("180 min"));
        QCOMPARE(TimelineFormat::duration(14 * 24 * 60 * minute), QStringLiteral("14 d"));
        QCOMPARE(TimelineFormat::tick(500, 100), QStringLiteral("500 ns"));
        QCOMPARE(TimelineFormat::tick(15'000, 5'000), QStringLiteral("15 µs"));
    }
};

QTEST_GUILESS_MAIN(TestTimeRange)
#include "tst_timerange.moc"
