#include "tests/widgets/timeline/timelinetestdata.h"

#include "models/core/timerange.h"
#include "models/trace/tracestore.h"
#include "models/trace/tracestorebuilder.h"
#include "widgets/timeline/timelinecolors.h"
#include "widgets/timeline/timelinelayout.h"
#include "widgets/timeline/timelinepainter.h"
#include "widgets/timeline/timelinesearch.h"
#include "widgets/timeline/timelineview.h"

#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QWheelEvent>
#include <QtTest>

using namespace runlens;
using namespace runlens::models;
using namespace runlens::widgets::timeline;
using runlens::test::findSlice;
using runlens::test::makeDenseTrace;
using runlens::test::makeSmallTrace;
using runlens::test::SmallTrace;

namespace {

/// Pixels that differ from the white background inside `area`.
int paintedPixels(const QImage& image, const QRect& area)
{
    int count = 0;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = area.left(); x <= area.right(); ++x) {
            const QRgb c = line[x];
            if (qRed(c) < 235 || qGreen(c) < 235 || qBlue(c) < 235)
                ++count;
        }
    }
    return count;
}

QImage renderFrame(const TimelineView& view, QSize size, TimelinePaintStats* stats = nullptr)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    const TimelinePaintStats s = view.paintFrame(painter, size);
    if (stats)
        *stats = s;
    return image;
}

void sendWheel(QWidget* widget, QPoint pos, QPoint angle, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWheelEvent event(pos, widget->mapToGlobal(pos), QPoint(), angle, Qt::NoButton, modifiers, Qt::NoScrollPhase,
                      false);
    QCoreApplication::sendEvent(widget, &event);
}

} // namespace

class TestTimelineView : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        m_trace = makeSmallTrace();
        m_view = std::make_unique<TimelineView>();
        m_view->resize(1000, 500);
        m_view->setStore(m_trace.store);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }
    void cleanup() { m_view.reset(); }

    void initialRangeIsWholeTrace()
    {
        const TimeSpan v = m_view->visibleRange();
        QCOMPARE(v.start, m_trace.store->startTime());
        QCOMPARE(v.end, m_trace.store->endTime());
        QCOMPARE(m_view->layout().rowOfTrack(m_trace.cpuTrack) >= 0, true);
        QCOMPARE(m_view->layout().rowOfTrack(m_trace.gpuTrack) >= 0, true);
        QCOMPARE(m_view->layout().rowOfTrack(m_trace.counterTrack) >= 0, true);
    }

    void keysZoomAndPan()
    {
        const TimeSpan full = m_view->visibleRange();
        QTest::keyClick(m_view.get(), Qt::Key_W);
        const TimeSpan zoomed = m_view->visibleRange();
        // A tap is one short step of the held-key animation.
        QVERIFY(zoomed.duration() < full.duration());
        QVERIFY(double(zoomed.duration()) / double(full.duration()) > 0.7);
        QVERIFY(!m_view->isKeyAnimating()); // released
        // Zoom without the mouse inside keeps the centre.
        QVERIFY(std::abs((zoomed.start + zoomed.end) / 2 - (full.start + full.end) / 2) < 1000);
        QTest::keyClick(m_view.get(), Qt::Key_D);
        const TimeSpan panned = m_view->visibleRange();
        QVERIFY(panned.start > zoomed.start);
        QCOMPARE(panned.duration(), zoomed.duration());
        for (int i = 0; i < 4; ++i)
            QTest::keyClick(m_view.get(), Qt::Key_A);
        QCOMPARE(m_view->visibleRange().start, full.start); // clamped at the trace start
        for (int i = 0; i < 4; ++i)
            QTest::keyClick(m_view.get(), Qt::Key_S);
        QCOMPARE(m_view->visibleRange(), full); // never wider than the trace
    }

    void heldZoomKeyAnimatesAndAccelerates()
    {
        const TimeSpan full = m_view->visibleRange();
        QTest::keyPress(m_view.get(), Qt::Key_W);
        QVERIFY(m_view->isKeyAnimating());
        const double afterPress = double(m_view->visibleRange().duration());
        // Frame by frame: every frame zooms in, later frames (held longer) by a larger factor.
        double previous = afterPress;
        double firstRatio = 0;
        double lastRatio = 0;
        for (int frame = 0; frame < 30; ++frame) {
            QVERIFY(m_view->advanceKeyAnimation(16));
            const double now = double(m_view->visibleRange().duration());
            QVERIFY(now < previous);
            if (frame == 0)
                firstRatio = now / previous;
            lastRatio = now / previous;
            previous = now;
        }
        QVERIFY2(lastRatio < firstRatio, qPrintable(QStringLiteral("%1 vs %2").arg(lastRatio).arg(firstRatio)));
        QVERIFY(previous < 0.5 * double(full.duration()));
        // Auto-repeat presses add no steps.
        const TimeSpan before = m_view->visibleRange();
        QKeyEvent repeat(QEvent::KeyPress, Qt::Key_W, Qt::NoModifier, QString(), true);
        QCoreApplication::sendEvent(m_view.get(), &repeat);
        QCOMPARE(m_view->visibleRange(), before);
        QKeyEvent repeatRelease(QEvent::KeyRelease, Qt::Key_W, Qt::NoModifier, QString(), true);
        QCoreApplication::sendEvent(m_view.get(), &repeatRelease);
        QVERIFY(m_view->isKeyAnimating()); // an auto-repeat release is not the real one
        QTest::keyRelease(m_view.get(), Qt::Key_W);
        QVERIFY(!m_view->isKeyAnimating());
        QVERIFY(!m_view->advanceKeyAnimation(16));
        QCOMPARE(m_view->visibleRange(), before);
    }

    void heldZoomKeyKeepsTheTimeUnderTheMouse()
    {
        const int x = 700;
        QTest::mouseMove(m_view.get(), QPoint(x, 300));
        const std::int64_t anchor = m_view->timeAt(x);
        QTest::keyPress(m_view.get(), Qt::Key_W);
        for (int frame = 0; frame < 20; ++frame)
            m_view->advanceKeyAnimation(16);
        QTest::keyRelease(m_view.get(), Qt::Key_W);
        const TimeSpan v = m_view->visibleRange();
        QVERIFY(v.duration() < m_view->timeRangeModel()->traceRange().duration() / 2);
        // The time at the cursor stays put (to a pixel's worth).
        const double nsPerPixel = double(v.duration()) / (m_view->width() - m_view->labelWidth());
        QVERIFY2(std::abs(double(m_view->timeAt(x) - anchor)) <= 2 * nsPerPixel,
                 qPrintable(QStringLiteral("moved %1 ns").arg(m_view->timeAt(x) - anchor)));
    }

    void heldPanKeyMovesContinuously()
    {
        m_view->timeRangeModel()->setVisibleRange(m_trace.start, m_trace.start + 3'000'000);
        const TimeSpan start = m_view->visibleRange();
        QTest::keyPress(m_view.get(), Qt::Key_D);
        const std::int64_t tap = m_view->visibleRange().start - start.start;
        QVERIFY(tap > 0);
        for (int frame = 0; frame < 20; ++frame)
            m_view->advanceKeyAnimation(16);
        QTest::keyRelease(m_view.get(), Qt::Key_D);
        const TimeSpan moved = m_view->visibleRange();
        QCOMPARE(moved.duration(), start.duration());
        QVERIFY(moved.start - start.start > 3 * tap);
        // The timer drives it too: hold A for a few real frames.
        const TimeSpan before = m_view->visibleRange();
        QTest::keyPress(m_view.get(), Qt::Key_A);
        const std::int64_t afterTap = m_view->visibleRange().start;
        QTest::qWait(120);
        QVERIFY(m_view->visibleRange().start < afterTap);
        QTest::keyRelease(m_view.get(), Qt::Key_A);
        QVERIFY(m_view->visibleRange().start < before.start);
    }

    void highlightFadesOthersAndTicksTheRuler()
    {
        const QRegularExpression relu(QStringLiteral("^aten::relu$"));
        const auto matches = findTimelineMatches(*m_trace.store, relu);
        QCOMPARE(int(matches.size()), SmallTrace::kSteps);
        m_view->setHighlight(matches);
        QCOMPARE(int(m_view->highlight().count()), SmallTrace::kSteps);
        // The same slice listed twice, or a slice that does not exist, is no extra match.
        const TimelineHighlight twice(*m_trace.store,
                                      { matches[0], matches[0], TimelineMatch { 0, m_trace.cpuTrack, 1u << 30 } });
        QCOMPARE(twice.count(), std::size_t(1));
        const std::int64_t reluSlice = findSlice(*m_trace.store, m_trace.cpuTrack, "aten::relu");
        QVERIFY(m_view->highlight().contains(*m_trace.store, m_trace.cpuTrack, std::uint32_t(reluSlice)));
        const std::int64_t conv = findSlice(*m_trace.store, m_trace.cpuTrack, "aten::conv2d");
        QVERIFY(!m_view->highlight().contains(*m_trace.store, m_trace.cpuTrack, std::uint32_t(conv)));

        QImage image = renderFrame(*m_view, m_view->size());
        // A non-matching slice is faded toward white: lighter than its own colour in every channel.
        const QRectF convRect = m_view->sliceRect(m_trace.cpuTrack, conv);
        QVERIFY(convRect.width() > 20);
        const QRgb convColor = timelineNameColor("aten::conv2d");
        const QRgb faded = image.pixel(int(convRect.right()) - 4, int(convRect.center().y()));
        QVERIFY2(qRed(faded) >= qRed(convColor) && qGreen(faded) >= qGreen(convColor)
                     && qBlue(faded) >= qBlue(convColor)
                     && qRed(faded) + qGreen(faded) + qBlue(faded)
                         > qRed(convColor) + qGreen(convColor) + qBlue(convColor) + 120,
                 qPrintable(QString::number(faded, 16)));
        // Every match has a tick on the ruler's lower edge.
        const auto& track = m_trace.store->tracks()[std::size_t(m_trace.cpuTrack)];
        for (const TimelineMatch& m : matches) {
            const int x = int(std::floor(m_view->xForTime(track.start[m.index])));
            const QRgb tick = image.pixel(x, TimelinePainter::kRulerHeight - 3);
            QVERIFY2(qRed(tick) > 180 && qBlue(tick) < 90, qPrintable(QString::number(tick, 16)));
        }
        // A match in full colour with a dark outline.
        m_view->zoomToSlice(m_trace.cpuTrack, reluSlice);
        image = renderFrame(*m_view, m_view->size());
        const QRectF reluRect = m_view->sliceRect(m_trace.cpuTrack, reluSlice);
        QCOMPARE(image.pixel(int(reluRect.right()) - 6, int(reluRect.center().y())), timelineNameColor("aten::relu"));
        auto darkEdge = [&](const QImage& frame) {
            for (int dy = 0; dy < 2; ++dy) {
                const QRgb edge = frame.pixel(int(reluRect.right()) - 6, int(reluRect.top()) + dy);
                if (qRed(edge) < 90 && qGreen(edge) < 90 && qBlue(edge) < 90)
                    return true;
            }
            return false;
        };
        QVERIFY(darkEdge(image));

        // Escape clears it (and says so, for the search that made it).
        QSignalSpy cleared(m_view.get(), &TimelineView::highlightCleared);
        QTest::keyClick(m_view.get(), Qt::Key_Escape);
        QVERIFY(m_view->highlight().isEmpty());
        QCOMPARE(cleared.count(), 1);
        image = renderFrame(*m_view, m_view->size());
        QVERIFY(!darkEdge(image));
    }

    void highlightShowsInsideMergedColumns()
    {
        // 30000 slices on one thread: at full range a pixel column holds about a dozen of them and the
        // painter reads the coarse coverage levels; one highlighted slice must still stand out.
        const auto store = makeDenseTrace(1, 30'000);
        TimelineView view;
        const QSize size(1000, 300);
        view.resize(size);
        view.setStore(store);
        while (view.isPreparing())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        const models::trace::Track& track = store->tracks()[0];
        std::uint32_t target = 0;
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            if (track.depth[i] == 0 && track.start[i] > (store->endTime() - store->startTime()) / 2) {
                target = i;
                break;
            }
        }
        view.setHighlight({ TimelineMatch { track.start[target], 0, target } });
        const int x = int(std::floor(view.xForTime(track.start[target])));
        const int row = view.layout().rowOfTrack(0);
        const int top
            = TimelinePainter::kRulerHeight + view.layout().rows()[std::size_t(row)].y + TimelineLayout::kTrackPadding;
        const QImage image = renderFrame(view, size);
        auto dark = [](QRgb c) { return qRed(c) < 80 && qGreen(c) < 80 && qBlue(c) < 80; };
        QVERIFY2(dark(image.pixel(x, top)) || dark(image.pixel(x + 1, top)),
                 qPrintable(QString::number(image.pixel(x, top), 16)));
        QVERIFY(!dark(image.pixel(x + 80, top)));
        QVERIFY(!dark(image.pixel(x - 80, top)));
        const QRgb tick = image.pixel(x, TimelinePainter::kRulerHeight - 3);
        QVERIFY2(qRed(tick) > 180 && qBlue(tick) < 90, qPrintable(QString::number(tick, 16)));
    }

    void asyncTracksHaveTheirOwnSectionAndLook()
    {
        using namespace models::trace;
        TraceStoreBuilder b;
        const int source = b.addSource(QStringLiteral("async.json"), nullptr);
        const int process = b.process(source, 5);
        const int thread = b.threadTrack(process, 1);
        const int async = b.threadTrack(process, 77, TrackType::Async);
        auto& s = b.strings();
        const StringId cat = s.intern("cat");
        b.addSlice(thread, 0, 1'000'000, s.intern("work"), cat, EventKind::CpuOp);
        b.addSlice(async, 100'000, 800'000, s.intern("request"), cat, EventKind::Other);
        const auto store = b.finish();
        TimelineView view;
        const QSize size(800, 300);
        view.resize(size);
        view.setStore(store);
        const auto& rows = view.layout().rows();
        const int asyncRow = view.layout().rowOfTrack(async);
        const int threadRow = view.layout().rowOfTrack(thread);
        QVERIFY(asyncRow > threadRow && threadRow > 0);
        QCOMPARE(rows[std::size_t(asyncRow - 1)].kind, TimelineRow::AsyncHeader);
        QVERIFY(rows[std::size_t(asyncRow)].async);
        QVERIFY(!rows[std::size_t(threadRow)].async);
        const QImage image = renderFrame(view, size);
        const std::int64_t slice = 0;
        const QRectF r = view.sliceRect(async, slice);
        const QRgb color = timelineNameColor("request");
        const QRgb inside = image.pixel(int(r.right()) - 8, int(r.center().y()));
        const QRgb border = image.pixel(int(r.right()) - 8, int(r.top()));
        // Drawn unlike a thread slice: a lighter fill inside a darker outline.
        QVERIFY(inside != color);
        QVERIFY(qRed(border) + qGreen(border) + qBlue(border) < qRed(inside) + qGreen(inside) + qBlue(inside));
        const QRectF t = view.sliceRect(thread, 0);
        QCOMPARE(image.pixel(int(t.right()) - 8, int(t.center().y())), timelineNameColor("work"));
    }

    void stringIdsLabelAsTheirNames()
    {
        using namespace models::trace;
        TraceStoreBuilder b;
        const int source = b.addSource(QStringLiteral("names.json"), nullptr);
        const int named = b.process(source, 4805050999359452200);
        b.setProcessName(named, "CPU functions");
        b.setProcessIdIsName(named);
        const int unnamed = b.process(source, 4611686018427387905);
        b.setProcessIdIsName(unnamed);
        const int numeric = b.process(source, 25738);
        b.setProcessName(numeric, "python train.py");
        const int track = b.threadTrack(unnamed, 4611686018427387906);
        b.setTrackIdIsName(track);
        const auto store = b.finish();
        int namedIndex = -1, unnamedIndex = -1, numericIndex = -1;
        for (int i = 0; i < int(store->processes().size()); ++i) {
            const std::int64_t pid = store->processes()[std::size_t(i)].pid;
            (pid == 25738 ? numericIndex : pid == 4805050999359452200 ? namedIndex : unnamedIndex) = i;
        }
        QCOMPARE(TimelineLayout::processLabel(*store, namedIndex), QStringLiteral("CPU functions"));
        QCOMPARE(TimelineLayout::processLabel(*store, unnamedIndex), QStringLiteral("Unnamed process"));
        QCOMPARE(TimelineLayout::processLabel(*store, numericIndex), QStringLiteral("python train.py (25738)"));
        int unnamedTrack = -1;
        for (int i = 0; i < int(store->tracks().size()); ++i)
            unnamedTrack = store->tracks()[std::size_t(i)].namedId ? i : unnamedTrack;
        QCOMPARE(TimelineLayout::trackLabel(*store, unnamedTrack), QStringLiteral("Unnamed thread"));
    }

    void wheelZoomsAtCursor()
    {
        const QPoint pos(600, 100);
        const std::int64_t before = m_view->timeAt(pos.x());
        const TimeSpan full = m_view->visibleRange();
        sendWheel(m_view.get(), pos, QPoint(0, 120));
        QVERIFY(m_view->visibleRange().duration() < full.duration());
        const double nsPerPixel = double(m_view->visibleRange().duration()) / 780;
        QVERIFY(std::abs(double(m_view->timeAt(pos.x()) - before)) <= 2 * nsPerPixel);
        // Shift+wheel pans.
        const TimeSpan zoomed = m_view->visibleRange();
        sendWheel(m_view.get(), pos, QPoint(0, -120), Qt::ShiftModifier);
        QVERIFY(m_view->visibleRange().start > zoomed.start);
        QCOMPARE(m_view->visibleRange().duration(), zoomed.duration());
    }

    void dragPans()
    {
        m_view->timeRangeModel()->setVisibleRange(m_trace.start + 5'000'000, m_trace.start + 15'000'000);
        const TimeSpan before = m_view->visibleRange();
        const int y = m_view->height() - 20;
        QTest::mousePress(m_view.get(), Qt::LeftButton, Qt::NoModifier, QPoint(700, y));
        QTest::mouseMove(m_view.get(), QPoint(650, y));
        QTest::mouseMove(m_view.get(), QPoint(600, y));
        QTest::mouseRelease(m_view.get(), Qt::LeftButton, Qt::NoModifier, QPoint(600, y));
        const TimeSpan after = m_view->visibleRange();
        QCOMPARE(after.duration(), before.duration());
        const double nsPerPixel = double(before.duration()) / (m_view->width() - m_view->labelWidth());
        QVERIFY(std::abs(double(after.start - before.start) - 100 * nsPerPixel) < 2 * nsPerPixel);
    }

    void clickSelectsSlice()
    {
        QSignalSpy spy(m_view.get(), &TimelineView::sliceSelected);
        const std::int64_t conv = findSlice(*m_trace.store, m_trace.cpuTrack, "aten::conv2d", 1);
        QVERIFY(conv >= 0);
        const QRectF r = m_view->sliceRect(m_trace.cpuTrack, conv);
        QVERIFY(r.width() > 4);
        QTest::mouseClick(m_view.get(), Qt::LeftButton, Qt::NoModifier, r.center().toPoint());
        QCOMPARE(m_view->selectedTrack(), m_trace.cpuTrack);
        QCOMPARE(m_view->selectedIndex(), conv);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), m_trace.cpuTrack);
        QCOMPARE(spy.at(0).at(1).toLongLong(), conv);
        // A GPU kernel.
        const std::int64_t kernel = findSlice(*m_trace.store, m_trace.gpuTrack, "volta_sgemm_128x64_nn");
        QTest::mouseClick(m_view.get(), Qt::LeftButton, Qt::NoModifier,
                          m_view->sliceRect(m_trace.gpuTrack, kernel).center().toPoint());
        QCOMPARE(m_view->selectedTrack(), m_trace.gpuTrack);
        QCOMPARE(m_view->selectedIndex(), kernel);
        // Empty space clears.
        QTest::mouseClick(m_view.get(), Qt::LeftButton, Qt::NoModifier, QPoint(m_view->width() - 30, 495));
        QCOMPARE(m_view->selectedTrack(), -1);
    }

    void shiftDragSelectsRangeAndFFits()
    {
        QSignalSpy spy(m_view.get(), &TimelineView::selectionRangeChanged);
        const int y = 120;
        const std::int64_t t1 = m_view->timeAt(400);
        const std::int64_t t2 = m_view->timeAt(700);
        QTest::mousePress(m_view.get(), Qt::LeftButton, Qt::ShiftModifier, QPoint(400, y));
        QTest::mouseMove(m_view.get(), QPoint(550, y));
        QTest::mouseMove(m_view.get(), QPoint(700, y));
        QTest::mouseRelease(m_view.get(), Qt::LeftButton, Qt::ShiftModifier, QPoint(700, y));
        const TimeSpan sel = m_view->selection();
        QVERIFY(sel.valid());
        QCOMPARE(sel.start, t1);
        QCOMPARE(sel.end, t2);
        QVERIFY(spy.count() >= 1);
        QCOMPARE(m_view->selectedTrack(), -1); // a drag does not select a slice

        // The ruler shows the selection bar (selection blue) between the two x positions.
        const QImage image = renderFrame(*m_view, m_view->size());
        const QRgb bar = image.pixel(550, TimelinePainter::kTickRowHeight + 4);
        QVERIFY2(qBlue(bar) > 180 && qRed(bar) < 100, "selection bar missing on the ruler");

        QTest::keyClick(m_view.get(), Qt::Key_F);
        QCOMPARE(m_view->visibleRange(), sel);
        QTest::keyClick(m_view.get(), Qt::Key_M);
        QCOMPARE(m_view->timeRangeModel()->marks().size(), 1);
        QTest::keyClick(m_view.get(), Qt::Key_Escape);
        QVERIFY(!m_view->selection().valid());
        QTest::keyClick(m_view.get(), Qt::Key_F); // nothing selected: the whole trace
        QCOMPARE(m_view->visibleRange(), m_view->timeRangeModel()->traceRange());
        QTest::keyClick(m_view.get(), Qt::Key_Z, Qt::ControlModifier); // undo the fit
        QCOMPARE(m_view->visibleRange(), sel);
    }

    void doubleClickZoomsToSlice()
    {
        const std::int64_t relu = findSlice(*m_trace.store, m_trace.cpuTrack, "aten::relu");
        const QPoint pos = m_view->sliceRect(m_trace.cpuTrack, relu).center().toPoint();
        QTest::mouseDClick(m_view.get(), Qt::LeftButton, Qt::NoModifier, pos);
        const models::trace::Track& t = m_trace.store->tracks()[std::size_t(m_trace.cpuTrack)];
        const TimeSpan v = m_view->visibleRange();
        QVERIFY(v.start <= t.start[std::size_t(relu)]);
        QVERIFY(v.end >= t.end(std::size_t(relu)));
        QVERIFY(v.duration() < 2 * t.duration[std::size_t(relu)]);
        QCOMPARE(m_view->selectedIndex(), relu);
    }

    void processHeaderCollapses()
    {
        const int rowsBefore = int(m_view->layout().rows().size());
        const int process = m_trace.store->tracks()[std::size_t(m_trace.gpuTrack)].process;
        const int headerRow = m_view->layout().rowOfTrack(m_trace.gpuTrack) - 1;
        QCOMPARE(m_view->layout().rows()[std::size_t(headerRow)].kind, TimelineRow::ProcessHeader);
        const int y = TimelinePainter::kRulerHeight + m_view->layout().rows()[std::size_t(headerRow)].y + 5;
        QTest::mouseClick(m_view.get(), Qt::LeftButton, Qt::NoModifier, QPoint(50, y));
        QVERIFY(m_view->isProcessCollapsed(process));
        QCOMPARE(int(m_view->layout().rows().size()), rowsBefore - 1);
        QCOMPARE(m_view->layout().rowOfTrack(m_trace.gpuTrack), -1);
        // Selecting a slice of a collapsed process with reveal expands it again.
        m_view->selectSlice(m_trace.gpuTrack, 0, true);
        QVERIFY(!m_view->isProcessCollapsed(process));
    }

    void manyTracksScrollVertically()
    {
        auto many = makeDenseTrace(40, 30); // 40 threads: taller than the view
        TimelineView view;
        view.resize(900, 400);
        view.setStore(many);
        QVERIFY(view.layout().totalHeight() > 400);
        QCOMPARE(view.scrollOffset(), 0);
        const std::int64_t lastTrack = view.layout().rows().back().track;
        QVERIFY(view.sliceRect(int(lastTrack), 0).top() > 400); // below the fold
        // The wheel over the track names scrolls; over the slices it zooms.
        const TimeSpan range = view.visibleRange();
        sendWheel(&view, QPoint(50, 200), QPoint(0, -240));
        QVERIFY(view.scrollOffset() > 0);
        QCOMPARE(view.visibleRange(), range);
        // Selecting a slice far below with reveal scrolls to it.
        view.selectSlice(int(lastTrack), 0, true);
        const QRectF r = view.sliceRect(int(lastTrack), 0);
        QVERIFY(r.top() >= TimelinePainter::kRulerHeight && r.bottom() <= 400);
    }

    void rendersAtSeveralZoomLevels_data()
    {
        QTest::addColumn<double>("fraction");
        QTest::newRow("full") << 1.0;
        QTest::newRow("step") << 0.33;
        QTest::newRow("op") << 0.05;
        QTest::newRow("deep") << 0.0005;
    }
    void rendersAtSeveralZoomLevels()
    {
        QFETCH(double, fraction);
        const TimeSpan full = m_view->timeRangeModel()->traceRange();
        const std::int64_t begin = full.start + 2'000'000; // inside the first conv2d / kernel
        m_view->timeRangeModel()->setVisibleRange(begin, begin + std::int64_t(double(full.duration()) * fraction));
        TimelinePaintStats stats;
        const QImage image = renderFrame(*m_view, m_view->size(), &stats);
        const TimelineRow& cpu = m_view->layout().rows()[std::size_t(m_view->layout().rowOfTrack(m_trace.cpuTrack))];
        const QRect cpuArea(m_view->labelWidth() + 1, TimelinePainter::kRulerHeight + cpu.y,
                            m_view->width() - m_view->labelWidth() - 20, cpu.height);
        QVERIFY2(paintedPixels(image, cpuArea) > 200, "CPU slice rows are empty");
        const TimelineRow& gpu = m_view->layout().rows()[std::size_t(m_view->layout().rowOfTrack(m_trace.gpuTrack))];
        const QRect gpuArea(m_view->labelWidth() + 1, TimelinePainter::kRulerHeight + gpu.y,
                            m_view->width() - m_view->labelWidth() - 20, gpu.height);
        QVERIFY2(paintedPixels(image, gpuArea) > 100, "GPU stream row is empty");
        QVERIFY(stats.rects > 0);
    }

    void denseStorePaintsWithoutVisitingEveryEvent()
    {
        // 8 threads x 125k slices = 1M events.
        auto dense = makeDenseTrace(8, 125'000);
        QCOMPARE(dense->eventCount(), std::uint64_t(8 * 125'001));
        TimelineView view;
        view.resize(1200, 400);
        view.setStore(dense);
        QVERIFY(view.isPreparing()); // a big store gets its painting index on a worker
        QTRY_VERIFY(!view.isPreparing());
        const QSize size(1200, 400);
        int depthRows = 0;
        for (const TimelineRow& row : view.layout().rows())
            depthRows += row.depthRows;
        QCOMPARE(depthRows, 8 * 3);
        const int columns = size.width() - view.labelWidth();
        for (double fraction : { 1.0, 0.1, 0.001 }) {
            const TimeSpan full = view.timeRangeModel()->traceRange();
            view.timeRangeModel()->setVisibleRange(full.start,
                                                   full.start + std::int64_t(double(full.duration()) * fraction));
            TimelinePaintStats stats;
            const QImage image = renderFrame(view, size, &stats);
            QVERIFY2(stats.rects <= 3 * std::int64_t(columns) * depthRows,
                     qPrintable(QStringLiteral("%1 rects at %2").arg(stats.rects).arg(fraction)));
            QVERIFY2(stats.slicesVisited <= 3 * std::int64_t(columns) * depthRows,
                     qPrintable(QStringLiteral("%1 slices visited at %2").arg(stats.slicesVisited).arg(fraction)));
            QVERIFY(
                paintedPixels(image, QRect(view.labelWidth() + 1, TimelinePainter::kRulerHeight + 30, columns - 2, 40))
                > columns * 10);
        }
    }

private:
    SmallTrace m_trace;
    std::unique_ptr<TimelineView> m_view;
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
