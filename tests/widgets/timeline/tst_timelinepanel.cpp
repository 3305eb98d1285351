#include "tests/widgets/timeline/timelinetestdata.h"

#include "models/core/timerange.h"
#include "widgets/timeline/timelinedetails.h"
#include "widgets/timeline/timelinepanel.h"
#include "widgets/timeline/timelinesearch.h"
#include "widgets/timeline/timelinesearchbar.h"
#include "widgets/timeline/timelineview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

using namespace runlens;
using namespace runlens::models;
using namespace runlens::widgets::timeline;
using runlens::test::findSlice;
using runlens::test::makeDenseTrace;
using runlens::test::makeSmallTrace;

class TestTimelinePanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // Settings go to a test location, cleared first, never to the user's own.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("RunLensTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_timelinepanel"));
        QSettings().clear();
    }

    void detailsShowSliceWithSelfTimeAndArgs()
    {
        const auto trace = makeSmallTrace();
        TimelineDetails details;
        details.setStore(trace.store);
        const std::int64_t conv = findSlice(*trace.store, trace.cpuTrack, "aten::conv2d");
        details.showSlice(trace.cpuTrack, conv);
        const QString text = details.toPlainText();
        QVERIFY2(text.contains(QStringLiteral("aten::conv2d")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("3 ms"))); // duration
        QVERIFY(text.contains(QStringLiteral("1 ms"))); // self: 3 ms minus the 2 ms convolution
        QVERIFY(text.contains(QStringLiteral("MainThread")));
        QVERIFY(text.contains(QStringLiteral("python train.py")));
        QVERIFY(text.contains(QStringLiteral("Input Dims")));
        QVERIFY(text.contains(QStringLiteral("[[32,3,224,224]]")));
        QCOMPARE(TimelineDetails::selfTime(*trace.store, trace.cpuTrack, std::size_t(conv)), 1'000'000);
        details.showSlice(-1, -1);
        QVERIFY(!details.toPlainText().contains(QStringLiteral("aten::conv2d")));
    }

    void detailsFlowLinksJump()
    {
        const auto trace = makeSmallTrace();
        // The fixture holds a launch flow; a store without it is a regression in the store builder.
        QVERIFY2(!trace.store->flows().empty(), "the store builder produced no flows for the fixture");
        const models::trace::Flow flow = trace.store->flows().front();
        TimelineDetails details;
        details.setStore(trace.store);
        details.showSlice(flow.fromTrack, flow.fromSlice);
        QVERIFY(details.toHtml().contains(QStringLiteral("slice:%1:%2").arg(flow.toTrack).arg(flow.toSlice)));
        QSignalSpy spy(&details, &TimelineDetails::jumpToSlice);
        emit details.anchorClicked(QUrl(QStringLiteral("slice:%1:%2").arg(flow.toTrack).arg(flow.toSlice)));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), flow.toTrack);
        QCOMPARE(spy.at(0).at(1).toLongLong(), qint64(flow.toSlice));
    }

    void detailsShowLaunches()
    {
        const auto trace = makeSmallTrace();
        // The fixture holds a launch flow; a store without it is a regression in the store builder.
        QVERIFY2(!trace.store->flows().empty(), "the store builder produced no flows for the fixture");
        TimelineDetails details;
        details.setStore(trace.store);
        // conv2d launched the GEMM through cudaLaunchKernel two levels down.
        details.showSlice(trace.cpuTrack, findSlice(*trace.store, trace.cpuTrack, "aten::conv2d", 1));
        QVERIFY2(details.toPlainText().contains(QStringLiteral("Launched")), qPrintable(details.toPlainText()));
        const std::int64_t kernel = findSlice(*trace.store, trace.gpuTrack, "volta_sgemm_128x64_nn", 1);
        QVERIFY(details.toHtml().contains(QStringLiteral("slice:%1:%2").arg(trace.gpuTrack).arg(kernel)));
        // relu launched nothing.
        details.showSlice(trace.cpuTrack, findSlice(*trace.store, trace.cpuTrack, "aten::relu"));
        QVERIFY(!details.toPlainText().contains(QStringLiteral("Launched")));
        // The kernel names its launcher.
        details.showSlice(trace.gpuTrack, kernel);
        QVERIFY(details.toPlainText().contains(QStringLiteral("Launched by")));
        QVERIFY(details.toPlainText().contains(QStringLiteral("cudaLaunchKernel")));
    }

    void searchFindsMatchesInTimeOrder()
    {
        const auto trace = makeSmallTrace();
        const auto matches = findTimelineMatches(
            *trace.store, QRegularExpression(QStringLiteral("conv"), QRegularExpression::CaseInsensitiveOption));
        QCOMPARE(matches.size(), std::size_t(6)); // conv2d + convolution per step
        QVERIFY(std::is_sorted(matches.begin(), matches.end(),
                               [](const TimelineMatch& a, const TimelineMatch& b) { return a.start < b.start; }));
        QVERIFY(findTimelineMatches(*trace.store, QRegularExpression(QStringLiteral("^nothing$"))).empty());
    }

    void panelSearchSelectsAndCentres()
    {
        const auto trace = makeSmallTrace();
        TimeRangeModel range;
        TimelinePanel panel(&range);
        panel.resize(1100, 700);
        panel.setStore(trace.store);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy selected(&panel, &TimelinePanel::sliceSelected);
        QTest::keyClicks(panel.searchBar()->lineEdit(), QStringLiteral("sgemm"));
        QTRY_COMPARE(panel.searchBar()->matches().size(), std::size_t(3));
        QTest::keyClick(panel.searchBar()->lineEdit(), Qt::Key_Return);
        QCOMPARE(range.selectedTrack(), trace.gpuTrack);
        const std::int64_t first = findSlice(*trace.store, trace.gpuTrack, "volta_sgemm_128x64_nn", 0);
        QCOMPARE(range.selectedIndex(), first);
        QCOMPARE(selected.count(), 1);
        QVERIFY(panel.details()->toPlainText().contains(QStringLiteral("volta_sgemm_128x64_nn")));
        const QLabel* count = panel.searchBar()->findChild<QLabel*>();
        QVERIFY(count);
        QCOMPARE(count->text(), QStringLiteral("1 of 3"));
        panel.searchBar()->next();
        QCOMPARE(range.selectedIndex(), findSlice(*trace.store, trace.gpuTrack, "volta_sgemm_128x64_nn", 1));
        QCOMPARE(count->text(), QStringLiteral("2 of 3"));
        // The selected match is on screen.
        const models::trace::Track& gpu = trace.store->tracks()[std::size_t(trace.gpuTrack)];
        const TimeSpan v = range.visibleRange();
        QVERIFY(v.start <= gpu.start[std::size_t(range.selectedIndex())]);
        QVERIFY(v.end >= gpu.end(std::size_t(range.selectedIndex())));
        panel.searchBar()->previous();
        panel.searchBar()->previous();
        QCOMPARE(count->text(), QStringLiteral("3 of 3")); // wraps
        // An invalid expression says so and finds nothing.
        panel.searchBar()->setPattern(QStringLiteral("("));
        QVERIFY(panel.searchBar()->matches().empty());
        QCOMPARE(count->text(), QStringLiteral("invalid pattern"));
    }

    void bigStoreSearchRunsOnAWorker()
    {
        auto dense = makeDenseTrace(2, 150'000);
        QVERIFY(dense->eventCount() > TimelineSearchBar::kSyncLimit);
        TimelineSearchBar bar;
        bar.setStore(dense);
        QSignalSpy finished(&bar, &TimelineSearchBar::searchFinished);
        bar.setPattern(QStringLiteral("^op_1$"));
        // Returned before the scan completed: the result only arrives through the event loop (the worker
        // itself may already be done, so isSearching() is no proof either way).
        QCOMPARE(finished.count(), 0);
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(bar.matches().size() > 1000);
    }

    void sharedRangeFollowsAndSignals()
    {
        const auto trace = makeSmallTrace();
        TimeRangeModel range;
        TimelinePanel panel(&range);
        panel.setStore(trace.store);
        QSignalSpy visible(&panel, &TimelinePanel::visibleRangeChanged);
        QSignalSpy selection(&panel, &TimelinePanel::selectionRangeChanged);
        range.setVisibleRange(trace.start + 1'000'000, trace.start + 2'000'000);
        QCOMPARE(visible.count(), 1);
        QCOMPARE(panel.view()->visibleRange().start, trace.start + 1'000'000);
        range.setSelection(trace.start, trace.start + 500);
        QCOMPARE(selection.count(), 1);
    }

    void searchAndOperatorHighlightEveryOccurrence()
    {
        const auto trace = makeSmallTrace();
        TimelinePanel panel;
        panel.setStore(trace.store);
        panel.searchBar()->setPattern(QStringLiteral("sgemm"));
        QCOMPARE(panel.view()->highlight().count(), std::size_t(3));
        const std::int64_t sgemm = findSlice(*trace.store, trace.gpuTrack, "volta_sgemm_128x64_nn", 2);
        QVERIFY(panel.view()->highlight().contains(*trace.store, trace.gpuTrack, std::uint32_t(sgemm)));

        // An operator highlights exactly its own name, not names that contain it.
        panel.highlightOperator(QStringLiteral("aten::conv2d"));
        int conv2d = 0;
        const models::trace::Track& cpu = trace.store->tracks()[std::size_t(trace.cpuTrack)];
        for (std::size_t i = 0; i < cpu.size(); ++i)
            conv2d += trace.store->strings().view(cpu.name_[i]) == "aten::conv2d";
        QVERIFY(conv2d > 0);
        QCOMPARE(panel.view()->highlight().count(), std::size_t(conv2d));
        for (std::size_t i = 0; i < cpu.size(); ++i) {
            QCOMPARE(panel.view()->highlight().contains(*trace.store, trace.cpuTrack, std::uint32_t(i)),
                     trace.store->strings().view(cpu.name_[i]) == "aten::conv2d");
        }

        // Escape in the timeline clears the highlight and the search that made it.
        QTest::keyClick(panel.view(), Qt::Key_Escape);
        QVERIFY(panel.view()->highlight().isEmpty());
        QVERIFY(panel.searchBar()->pattern().isEmpty());
        panel.highlightOperator(QString());
        QVERIFY(panel.view()->highlight().isEmpty());
    }

    void settingsPersistPerTraceFile()
    {
        QSettings().clear();
        const auto trace = makeSmallTrace();
        QVERIFY(!TimelinePanel::settingsKey(*trace.store).isEmpty());
        const int gpuProcess = trace.store->tracks()[std::size_t(trace.gpuTrack)].process;
        const TimeSpan visible { trace.start + 2'000'000, trace.start + 9'000'000 };
        {
            TimelinePanel panel;
            panel.setStore(trace.store);
            QVERIFY(!panel.view()->isProcessCollapsed(gpuProcess));
            panel.findChild<QComboBox*>()->setCurrentIndex(1);
            panel.findChild<QCheckBox*>()->setChecked(false);
            panel.view()->setProcessCollapsed(gpuProcess, true);
            panel.timeRangeModel()->setVisibleRange(visible.start, visible.end);
        } // destroyed with the write still pending: written then
        {
            TimelinePanel panel;
            QVERIFY(panel.view()->colorByCategory());
            QVERIFY(!panel.view()->flowsShown());
            panel.setStore(trace.store);
            QVERIFY(panel.view()->isProcessCollapsed(gpuProcess));
            QCOMPARE(panel.view()->visibleRange(), visible);
            // Another file starts from its defaults.
            const auto other = makeDenseTrace(1, 30);
            QVERIFY(TimelinePanel::settingsKey(*other) != TimelinePanel::settingsKey(*trace.store));
            panel.setStore(other);
            QVERIFY(panel.view()->collapsedProcesses().isEmpty());
            QCOMPARE(panel.view()->visibleRange(), panel.timeRangeModel()->traceRange());
        }
        QSettings().clear();
    }

    void screenshot()
    {
        // Renders the panel, kept for a visual check when RUNLENS_TIMELINE_PNG names an output file.
        QTemporaryDir scratch;
        QString out = qEnvironmentVariable("RUNLENS_TIMELINE_PNG");
        if (out.isEmpty())
            out = scratch.filePath(QStringLiteral("timeline.png"));
        const auto trace = makeSmallTrace();
        TimeRangeModel range;
        TimelinePanel panel(&range);
        panel.resize(1400, 640);
        panel.setStore(trace.store);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        range.setVisibleRange(trace.start + 500'000, trace.start + 17'000'000);
        panel.view()->selectSlice(trace.cpuTrack, findSlice(*trace.store, trace.cpuTrack, "aten::conv2d", 1));
        range.setSelection(trace.start + 11'000'000, trace.start + 14'000'000);
        panel.searchBar()->setPattern(QStringLiteral("conv"));
        QVERIFY(panel.grab().save(out));
    }
};

QTEST_MAIN(TestTimelinePanel)
#include "tst_timelinepanel.moc"
