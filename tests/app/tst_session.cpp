#include "app/session.h"

#include "models/core/timerange.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"
#include "tests/widgets/graph/graphviewtestdata.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/graph/graphview.h"
#include "widgets/prcurves/prcurvespanel.h"
#include "widgets/scalars/scalarchart.h"
#include "widgets/scalars/scalarspanel.h"

#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::app;
using namespace runlens::models;
using namespace runlens::models::scalars;
using namespace runlens::models::summary;
using namespace runlens::widgets::scalars;

namespace {

/// A window with three docks, as the main window builds them (stable object names).
struct DockWindow
{
    QMainWindow window;
    QDockWidget* a;
    QDockWidget* b;
    QDockWidget* c;

    DockWindow()
    {
        window.setCentralWidget(new QLabel(QStringLiteral("centre")));
        a = addDock(QStringLiteral("ADock"), Qt::LeftDockWidgetArea);
        b = addDock(QStringLiteral("BDock"), Qt::RightDockWidgetArea);
        c = addDock(QStringLiteral("CDock"), Qt::RightDockWidgetArea);
        window.resize(900, 600);
    }

    QDockWidget* addDock(const QString& name, Qt::DockWidgetArea area)
    {
        auto* dock = new QDockWidget(name, &window);
        dock->setObjectName(name);
        dock->setWidget(new QLabel(name));
        window.addDockWidget(area, dock);
        return dock;
    }
};

ScalarBatch ramp(const QString& tag, int points)
{
    TagPoints series;
    series.tag = tag;
    for (int i = 0; i < points; ++i)
        series.points.push_back({ i * 10, 1.7e9 + i, 1.0 / (1 + i) });
    return { series };
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("RunLensTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_session"));
        QSettings().clear();
    }

    void runViewRoundTrip()
    {
        QTemporaryDir run;
        QTemporaryDir other;
        QVERIFY(run.isValid() && other.isValid());
        DockWindow before;
        before.window.show();
        before.window.tabifyDockWidget(before.b, before.c); // c in front of b
        before.a->hide();
        QVERIFY(QTest::qWaitForWindowExposed(&before.window));

        RunView view;
        view.dockState = before.window.saveState();
        view.scalars = { { QStringLiteral("smoothing"), 0.25 }, { QStringLiteral("xAxis"), QStringLiteral("wall") } };
        view.scalarRanges = { { QStringLiteral("train/loss"), QVariantList { 100.0, 250.5 } } };
        view.timelineStart = 1'700'000'000'123'456'789LL; // absolute trace nanoseconds need 64 bits
        view.timelineEnd = 1'700'000'000'223'456'789LL;
        view.graphPath = run.filePath(QStringLiteral("graph.onnx"));
        view.expandedGroups = { QStringLiteral("g:model/enc"), QStringLiteral("g:model/enc/attn") };
        view.tensor = run.filePath(QStringLiteral("dump/x.npy"));
        // The docks the user had in front win over the content's choice when the folder is opened again.
        view.frontDocks = { QStringLiteral("GraphDock"), QStringLiteral("TimelineDock") };
        view.panels
            = { { QStringLiteral("prCurves"), QVariantMap { { QStringLiteral("mode"), QStringLiteral("roc") } } },
                { QStringLiteral("projector"),
                  QVariantMap { { QStringLiteral("dimensions"), 3 }, { QStringLiteral("sprites"), false } } } };
        QVERIFY(!view.isEmpty());
        view.save(run.path());

        // Reloaded, from a path spelled differently, it is the same view.
        const RunView loaded = RunView::load(run.path() + QStringLiteral("/."));
        QVERIFY(loaded == view);
        QCOMPARE(loaded.timelineEnd - loaded.timelineStart, 100'000'000LL);
        QVERIFY(RunView::load(other.path()).isEmpty());
        // The key does not spell the folder (paths may hold characters QSettings keys cannot).
        QVERIFY(!RunView::settingsGroup(run.path()).contains(QFileInfo(run.path()).fileName()));
        QCOMPARE(RunView::settingsGroup(run.path()).size(), QStringLiteral("sessions/runs/").size() + 40);

        // The dock layout restores into a fresh window.
        DockWindow after;
        QVERIFY(after.window.restoreState(loaded.dockState));
        after.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&after.window));
        QVERIFY(after.a->isHidden());
        QCOMPARE(after.window.tabifiedDockWidgets(after.b), QList<QDockWidget*> { after.c });
        QCOMPARE(after.window.dockWidgetArea(after.b), Qt::RightDockWidgetArea);

        RunView::remove(run.path());
        QVERIFY(RunView::load(run.path()).isEmpty());
    }

    void lastSessionRoundTrip()
    {
        QVERIFY(Session::loadLast().isEmpty());
        DockWindow window;
        Session session;
        session.folders = { QStringLiteral("/runs/a"), QStringLiteral("/runs/b") };
        session.geometry = window.window.saveGeometry();
        session.dockState = window.window.saveState();
        session.saveAsLast();
        QVERIFY(Session::loadLast() == session);
        // A later session replaces it entirely.
        Session next;
        next.folders = { QStringLiteral("/runs/c") };
        next.saveAsLast();
        const Session reloaded = Session::loadLast();
        QCOMPARE(reloaded.folders, QStringList { QStringLiteral("/runs/c") });
        QVERIFY(reloaded.dockState.isEmpty());
    }

    void unknownVersionIsIgnored()
    {
        QTemporaryDir run;
        RunView view;
        view.tensor = QStringLiteral("x.npy");
        view.save(run.path());
        QSettings().setValue(RunView::settingsGroup(run.path()) + QStringLiteral("/version"), 99);
        QVERIFY(RunView::load(run.path()).isEmpty());
    }

    void scalarRangesThroughThePanel()
    {
        ScalarStore store;
        store.append(QStringLiteral("run"), ramp(QStringLiteral("train/loss"), 100)); // steps 0..990
        store.append(QStringLiteral("run"), ramp(QStringLiteral("train/acc"), 100));
        ScalarsPanel panel(&store);
        panel.resize(1000, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.flushPendingUpdates();
        QTRY_VERIFY(panel.chartForTag(QStringLiteral("train/loss")));
        QVERIFY(panel.xRanges().isEmpty()); // every chart follows its data

        const QVariantMap ranges { { QStringLiteral("train/loss"), QVariantList { 100.0, 300.0 } },
                                   { QStringLiteral("eval/never"), QVariantList { 1.0, 2.0 } } };
        panel.setXRanges(ranges);
        ScalarChart* loss = panel.chartForTag(QStringLiteral("train/loss"));
        QVERIFY(!loss->isAutoFit());
        QCOMPARE(loss->xRange().lower, 100.0);
        QCOMPARE(loss->xRange().upper, 300.0);
        QVERIFY(panel.chartForTag(QStringLiteral("train/acc"))->isAutoFit());
        // What the panel reports is what a session saves; a tag without a chart yet keeps its range.
        QCOMPARE(panel.xRanges(), ranges);

        // A fresh panel given the saved ranges shows the same view.
        ScalarsPanel restored(&store);
        restored.resize(1000, 800);
        restored.setXRanges(panel.xRanges());
        restored.show();
        QVERIFY(QTest::qWaitForWindowExposed(&restored));
        restored.flushPendingUpdates();
        QTRY_VERIFY(restored.chartForTag(QStringLiteral("train/loss")));
        ScalarChart* again = restored.chartForTag(QStringLiteral("train/loss"));
        QCOMPARE(again->xRange().lower, 100.0);
        QCOMPARE(again->xRange().upper, 300.0);
        QVERIFY(!again->isAutoFit());
        // Fitting to data (double-click) drops it from what a session keeps.
        again->fitToData();
        QVERIFY(!restored.xRanges().contains(QStringLiteral("train/loss")));
        // Ranges that are not ranges are ignored.
        restored.setXRanges({ { QStringLiteral("train/acc"), QVariantList { 5.0, 1.0 } } });
        QVERIFY(restored.chartForTag(QStringLiteral("train/acc"))->isAutoFit());
    }

    void graphGroupsAndDirection()
    {
        QSettings().clear();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.onnx"));
        runlens::widgets::graph::GraphPanel panel;
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(!panel.setExpandedGroups({})); // no graph yet
        QVERIFY(panel.expandedGroups().isEmpty());
        panel.addGraph(test::smallModel(path.toStdString()));
        QTRY_VERIFY(panel.tree() && !panel.view()->isLayoutPending());
        QCOMPARE(panel.currentGraphPath(), path);

        const QStringList keys { QStringLiteral("g:model"), QStringLiteral("g:model/mid") };
        for (const QString& key : keys)
            QVERIFY2(panel.tree()->findKey(key.toStdString()) > 0, qPrintable(key));
        QVERIFY(panel.setExpandedGroups(keys + QStringList { QStringLiteral("g:no/such/group") }));
        QCOMPARE(panel.expandedGroups(), keys);
        const int mid = panel.tree()->findKey("g:model/mid");
        QVERIFY(panel.view()->expansionState().isExpanded(mid));
        QVERIFY(!panel.view()->expansionState().isExpanded(panel.tree()->findKey("g:model/enc")));

        QCOMPARE(panel.rankDir(), QStringLiteral("TB"));
        panel.setRankDir(QStringLiteral("LR"));
        QCOMPARE(panel.rankDir(), QStringLiteral("LR"));
        QCOMPARE(panel.view()->rankDir(), QStringLiteral("LR"));
        panel.setRankDir(QStringLiteral("sideways")); // not a direction: unchanged
        QCOMPARE(panel.view()->rankDir(), QStringLiteral("LR"));
    }

    void prCurvesModeAndFilter()
    {
        // The PR Curves panel's mode and tag filter go through a saved view and back into a fresh panel.
        QSettings().clear();
        SummaryStore store;
        runlens::widgets::prcurves::PrCurvesPanel before(&store);
        QVERIFY(before.saveState().isEmpty()); // defaults: nothing to keep
        before.setMode(runlens::widgets::prcurves::CurveMode::Roc);
        before.setTagFilter(QStringLiteral("^val/"));
        RunView view;
        view.panels.insert(QStringLiteral("prCurves"), before.saveState());
        QTemporaryDir run;
        view.save(run.path());

        const RunView loaded = RunView::load(run.path());
        QVERIFY(!loaded.isEmpty());
        runlens::widgets::prcurves::PrCurvesPanel after(&store);
        after.restoreState(loaded.panels.value(QStringLiteral("prCurves")).toMap());
        QCOMPARE(after.mode(), runlens::widgets::prcurves::CurveMode::Roc);
        QCOMPARE(after.tagFilter(), QStringLiteral("^val/"));
        // A view saved in precision-recall mode sets the mode back.
        after.restoreState({});
        QCOMPARE(after.mode(), runlens::widgets::prcurves::CurveMode::PrecisionRecall);
        QCOMPARE(after.tagFilter(), QStringLiteral("^val/"));
    }

    void timelineRange()
    {
        // The Timeline's zoom is the shared TimeRangeModel's visible range: a session sets it back once
        // the trace's span is known.
        TimeRangeModel range;
        range.setTraceRange(1'000, 1'000'000);
        range.setVisibleRange(20'000, 40'000);
        RunView view;
        view.timelineStart = range.visibleRange().start;
        view.timelineEnd = range.visibleRange().end;
        QTemporaryDir run;
        view.save(run.path());
        TimeRangeModel fresh;
        fresh.setTraceRange(1'000, 1'000'000);
        const RunView loaded = RunView::load(run.path());
        QVERIFY(loaded.hasTimelineRange());
        fresh.setVisibleRange(loaded.timelineStart, loaded.timelineEnd);
        QCOMPARE(fresh.visibleRange(), (TimeSpan { 20'000, 40'000 }));
    }
};

QTEST_MAIN(TestSession)
#include "tst_session.moc"
