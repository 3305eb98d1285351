#include "importers/pipeline/pipelinereader.h"
#include "importers/trace/chrometracereader.h"
#include "models/core/timerange.h"
#include "models/pipeline/datapipeline.h"
#include "models/scalars/scalarstore.h"
#include "models/system/profilercpu.h"
#include "models/system/systemmetrics.h"
#include "tests/testutils.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/scalars/scalarspanel.h"
#include "widgets/system/systemdetailchart.h"
#include "widgets/system/systemoverviewmodel.h"
#include "widgets/system/systempanel.h"
#include "widgets/system/systemtimelinelink.h"
#include "widgets/timeline/timelineview.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace runlens;
using namespace runlens::models;
using namespace runlens::models::scalars;
using namespace runlens::widgets;
using namespace runlens::widgets::scalars;
using namespace runlens::widgets::system;
using namespace runlens::widgets::timeline;

namespace {

constexpr double kStart = 1'700'000'000.0;

/// One sample per second of each metric of `values`, as a recorder writes them (one wall time per sample).
ScalarBatch batchOf(const std::map<QString, std::vector<double>>& values)
{
    ScalarBatch batch;
    for (const auto& [metric, series] : values) {
        TagPoints points;
        points.tag = models::system::kTagPrefix + metric;
        for (std::size_t i = 0; i < series.size(); ++i)
            points.points.push_back({ qint64(i), kStart + double(i), series[i] });
        batch.push_back(std::move(points));
    }
    return batch;
}

std::vector<double> ramp(int n, double from, double to)
{
    std::vector<double> v;
    for (int i = 0; i < n; ++i)
        v.push_back(from + (to - from) * i / std::max(1, n - 1));
    return v;
}

std::vector<double> constant(int n, double value)
{
    return std::vector<double>(std::size_t(n), value);
}

} // namespace

class TestSystemPanel : public QObject
{
    Q_OBJECT

private slots:
    void percentileMatchesNumpy()
    {
        // numpy.percentile(range(1, 101), 95) == 95.05; (1, 2, 3, 4) -> 3.85
        QCOMPARE(models::system::percentile(ramp(100, 1, 100), 0.95), 95.05);
        QVERIFY(std::abs(models::system::percentile({ 4, 1, 3, 2 }, 0.95) - 3.85) < 1e-12);
        QVERIFY(std::isnan(models::system::percentile({}, 0.95)));
        const models::system::Stats stats = models::system::statsOf({ 1, 2, std::nan(""), 3 });
        QCOMPARE(stats.count, 3);
        QCOMPARE(stats.mean, 2.0);
    }

    void rankOfRun()
    {
        QCOMPARE(models::system::rankOfRun(QStringLiteral("system/rank_3")), 3);
        QCOMPARE(models::system::rankOfRun(QStringLiteral("job/rank-12/system")), 12);
        QCOMPARE(models::system::rankOfRun(QStringLiteral("host-a/system")), -1);
        QCOMPARE(models::system::rankOfRun(QStringLiteral("ranking")), -1);
    }

    void overviewRowsStatsAndOutliers()
    {
        ScalarStore store;
        // Four ranks; rank 2's GPUs are much less busy: an outlier. Two GPUs each, averaged per sample.
        for (int rank = 0; rank < 4; ++rank) {
            const double level = rank == 2 ? 30.0 : 80.0;
            store.append(QStringLiteral("job/rank_%1").arg(rank),
                         batchOf({ { QStringLiteral("gpu0_util_percent"), constant(20, level) },
                                   { QStringLiteral("gpu1_util_percent"), constant(20, level + 10) },
                                   { QStringLiteral("cpu_busy_percent"), ramp(20, 0, 95) },
                                   { QStringLiteral("gpu0_power_W"), constant(20, 200) },
                                   { QStringLiteral("gpu1_power_W"), constant(20, 100) },
                                   { QStringLiteral("mem_used_MiB"), constant(20, 1000.0 + rank) } }));
        }
        store.append(QStringLiteral("job/tb"),
                     { TagPoints { QStringLiteral("train/loss"), std::nullopt, { { 0, kStart, 1.0 } } } });

        SystemOverviewModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns(models::system::systemRunsOf(store));
        QCOMPARE(model.rowCount(), 4); // the loss-only run has no system metrics
        QCOMPARE(model.runs()[2].rank, 2);
        // GPU util, CPU busy, memory and power have data; process CPU and IB do not and get no columns.
        QCOMPARE(model.columnOf(models::system::Summary::ProcessCpu), -1);
        QCOMPARE(model.columnOf(models::system::Summary::IbTraffic), -1);
        QCOMPARE(model.columnCount(), 2 + 2 * 4);
        const int gpu = model.columnOf(models::system::Summary::GpuUtil);
        QVERIFY(gpu >= 0);
        QCOMPARE(model.stats(0, models::system::Summary::GpuUtil).mean, 85.0); // (80 + 90) / 2
        QCOMPARE(model.stats(2, models::system::Summary::GpuUtil).mean, 35.0);
        QCOMPARE(model.stats(0, models::system::Summary::Power).mean, 300.0); // summed over the GPUs
        // p95 of 0..95 in 20 steps, numpy's linear interpolation: 90.25.
        QVERIFY(std::abs(model.stats(1, models::system::Summary::CpuBusy).p95 - 90.25) < 1e-9);
        QCOMPARE(model.index(1, model.columnOf(models::system::Summary::CpuBusy) + 1)
                     .data(SystemOverviewModel::SortRole)
                     .toDouble(),
                 model.stats(1, models::system::Summary::CpuBusy).p95);

        // Median of the GPU column: 85; rank 2 is 59 % below, the others on it.
        QVERIFY(model.isOutlier(2, gpu));
        QVERIFY(model.index(2, gpu).data(SystemOverviewModel::OutlierRole).toBool());
        QVERIFY(model.index(2, gpu).data(Qt::BackgroundRole).isValid());
        QVERIFY(model.index(2, gpu).data(Qt::ToolTipRole).toString().contains(QStringLiteral("below")));
        QVERIFY(!model.isOutlier(0, gpu));
        QVERIFY(!model.isOutlier(0, model.columnOf(models::system::Summary::MemUsed)));
        QVERIFY(!model.index(0, gpu).data(Qt::BackgroundRole).isValid());

        // Sorting by the GPU mean through a proxy puts the outlier first.
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(SystemOverviewModel::SortRole);
        proxy.sort(gpu, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("job/rank_2"));
        proxy.sort(gpu, Qt::DescendingOrder);
        QCOMPARE(proxy.index(3, 0).data().toString(), QStringLiteral("job/rank_2"));
    }

    void singleRunHasNoOutliers()
    {
        ScalarStore store;
        store.append(QStringLiteral("host"), batchOf({ { QStringLiteral("cpu_busy_percent"), ramp(10, 0, 100) } }));
        SystemOverviewModel model;
        model.setRuns(models::system::systemRunsOf(store));
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(!model.isOutlier(0, model.columnOf(models::system::Summary::CpuBusy)));
    }

    void openedFolderRunNamedByItsFolder()
    {
        // `runlens record --out rec` opened as the folder itself: its run is "." and reads as "rec".
        const QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString root = dir.filePath(QStringLiteral("rec"));
        ScalarStore store;
        store.setRoot(root);
        store.append(QStringLiteral("."), batchOf({ { QStringLiteral("cpu_busy_percent"), ramp(10, 0, 100) } }));
        SystemOverviewModel model;
        model.setRuns(models::system::systemRunsOf(store));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("rec"));
        QCOMPARE(model.index(0, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("."));
    }

    void emptyStateSaysHowToRecord()
    {
        ScalarStore store;
        SystemPanel panel;
        panel.setStore(&store);
        QVERIFY(panel.isEmptyStateShown());
        QVERIFY(panel.emptyStateText().contains(QStringLiteral("runlens record")));
        QVERIFY(panel.emptyStateText().contains(QStringLiteral("python train.py")));
        store.append(QStringLiteral("system/rank_0"),
                     batchOf({ { QStringLiteral("cpu_busy_percent"), ramp(5, 0, 100) } }));
        panel.refresh();
        QVERIFY(!panel.isEmptyStateShown());
        QCOMPARE(panel.runCount(), 1);
        store.clear();
        QVERIFY(panel.isEmptyStateShown());
    }

    void detailChartsShareOneTimeAxis()
    {
        ScalarStore store;
        store.append(QStringLiteral("system/rank_0"),
                     batchOf({ { QStringLiteral("cpu_busy_percent"), ramp(60, 0, 100) },
                               { QStringLiteral("process_cpu_percent"), ramp(60, 0, 150) },
                               { QStringLiteral("mem_used_MiB"), ramp(60, 100, 200) },
                               { QStringLiteral("gpu0_util_percent"), ramp(60, 100, 0) },
                               { QStringLiteral("gpu0_power_W"), constant(60, 250) },
                               { QStringLiteral("ib_mlx5_0_1_rx_MiB_per_s"), constant(60, 900) } }));
        SystemPanel panel;
        panel.resize(900, 900);
        panel.setStore(&store);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        SystemDetailChart* chart = panel.detailChart();
        QCOMPARE(chart->chartTitles(),
                 QStringList({ QStringLiteral("CPU %"), QStringLiteral("Memory MiB"), QStringLiteral("GPU util %"),
                               QStringLiteral("GPU power W"), QStringLiteral("IB MiB/s") }));
        // The whole recording at first.
        QCOMPARE(chart->timeRange().lower, kStart);
        QCOMPARE(chart->timeRange().upper, kStart + 59);

        // Zooming one chart (as the wheel or a drag does, through its axis) moves all of them, and the panel says so.
        QSignalSpy ranges(&panel, &SystemPanel::timeRangeChanged);
        const QList<QCPAxisRect*> rects = chart->chartRects();
        rects[2]->axis(QCPAxis::atBottom)->setRange(kStart + 10, kStart + 20);
        for (QCPAxisRect* rect : rects) {
            QCOMPARE(rect->axis(QCPAxis::atBottom)->range().lower, kStart + 10);
            QCOMPARE(rect->axis(QCPAxis::atBottom)->range().upper, kStart + 20);
        }
        QCOMPARE(ranges.size(), 1);
        QCOMPARE(ranges.last().at(0).toDouble(), kStart + 10);

        // Another panel's wall-time range is followed without echoing it back.
        panel.setTimeRange(kStart + 30, kStart + 40);
        QCOMPARE(rects.last()->axis(QCPAxis::atBottom)->range().lower, kStart + 30);
        QCOMPARE(ranges.size(), 1);

        // A drag with the mouse in one chart pans all of them.
        chart->replot();
        const QRect area = rects[1]->rect();
        QTest::mousePress(chart, Qt::LeftButton, Qt::NoModifier, area.center());
        QMouseEvent move(QEvent::MouseMove, QPointF(area.center() - QPoint(area.width() / 4, 0)),
                         chart->mapToGlobal(QPointF(area.center() - QPoint(area.width() / 4, 0))), Qt::NoButton,
                         Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(chart, &move);
        QTest::mouseRelease(chart, Qt::LeftButton, Qt::NoModifier, area.center() - QPoint(area.width() / 4, 0));
        const double lower = rects[0]->axis(QCPAxis::atBottom)->range().lower;
        QVERIFY2(lower > kStart + 30, qPrintable(QString::number(lower - kStart)));
        for (QCPAxisRect* rect : rects)
            QCOMPARE(rect->axis(QCPAxis::atBottom)->range().lower, lower);

        // Hovering one chart puts the line at the same time in all of them.
        const QPoint over = rects[3]->rect().center();
        QTest::mouseMove(chart, over);
        QMouseEvent hover(QEvent::MouseMove, QPointF(over), chart->mapToGlobal(QPointF(over)), Qt::NoButton,
                          Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(chart, &hover);
        const double hovered = chart->hoverTime();
        QVERIFY(std::isfinite(hovered));
        QCOMPARE(hovered, rects[0]->axis(QCPAxis::atBottom)->pixelToCoord(over.x()));

        // CSV export carries every metric's samples.
        const ChartData data = chart->chartData();
        QCOMPARE(int(data.series.size()), 6);
        QCOMPARE(data.rowCount(), std::size_t(6 * 60));
        QTemporaryDir dir;
        QString error;
        QVERIFY2(
            chart->exportMenu()->exportTo(ChartExporter::Format::Csv, dir.filePath(QStringLiteral("s.csv")), &error),
            qPrintable(error));
        QFile csv(dir.filePath(QStringLiteral("s.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 6 * 60);
        QVERIFY2(lines.front().startsWith("metric,wall_time,value"), lines.front().constData());
        QVERIFY2(
            chart->exportMenu()->exportTo(ChartExporter::Format::Png, dir.filePath(QStringLiteral("s.png")), &error),
            qPrintable(error));
        QVERIFY(QImage(dir.filePath(QStringLiteral("s.png"))).width() > 100);
    }

    void followsScalarsWallTimeAxis()
    {
        // Wired as the main window wires them: the System panel and Scalars' wall-time axis follow each other.
        ScalarStore store;
        store.append(QStringLiteral("system/rank_0"),
                     batchOf({ { QStringLiteral("cpu_busy_percent"), ramp(100, 0, 100) } }));
        TagPoints loss { QStringLiteral("train/loss"), std::nullopt, {} };
        for (int i = 0; i < 100; ++i)
            loss.points.push_back({ i, kStart + i, 1.0 / (1 + i) });
        store.append(QStringLiteral("tb"), { loss });
        ScalarsPanel scalars(&store);
        SystemPanel system;
        system.setStore(&store);
        connect(&system, &SystemPanel::timeRangeChanged, &scalars, &ScalarsPanel::setWallTimeRange);
        connect(&scalars, &ScalarsPanel::wallTimeRangeChanged, &system, &SystemPanel::setTimeRange);
        scalars.resize(900, 700);
        scalars.show();
        QVERIFY(QTest::qWaitForWindowExposed(&scalars));
        scalars.setTagFilter(QStringLiteral("^train/loss$"));
        scalars.flushPendingUpdates();
        QTRY_VERIFY(scalars.chartForTag(QStringLiteral("train/loss")));
        ScalarChart* chart = scalars.chartForTag(QStringLiteral("train/loss"));

        // In step mode the System panel leaves Scalars alone.
        const QCPRange steps = chart->xRange();
        system.detailChart()->setTimeRange(kStart + 20, kStart + 30);
        QCOMPARE(chart->xRange().lower, steps.lower);

        scalars.setXAxisMode(XAxisMode::WallTime);
        system.detailChart()->setTimeRange(kStart + 25, kStart + 35);
        QCOMPARE(chart->xRange().lower, kStart + 25);
        QCOMPARE(chart->xRange().upper, kStart + 35);
        // And back: a zoom in Scalars moves the System charts.
        chart->setXRange(kStart + 50, kStart + 70);
        emit chart->viewChanged();
        QCOMPARE(system.detailChart()->timeRange().lower, kStart + 50);
        QCOMPARE(system.detailChart()->timeRange().upper, kStart + 70);
    }

    void showRunZoomsToTheFinding()
    {
        ScalarStore store;
        for (int rank = 0; rank < 2; ++rank)
            store.append(QStringLiteral("system/rank_%1").arg(rank),
                         batchOf({ { QStringLiteral("cpu_busy_percent"), ramp(100, 0, 100) } }));
        SystemPanel panel;
        panel.setStore(&store);
        QCOMPARE(panel.currentRun(), QStringLiteral("system/rank_0"));
        QVERIFY(panel.showRun(QStringLiteral("system/rank_1"), kStart + 40, kStart + 60));
        QCOMPARE(panel.currentRun(), QStringLiteral("system/rank_1"));
        QCOMPARE(panel.overviewTable()->currentIndex().data().toString(), QStringLiteral("system/rank_1"));
        // A tenth of the range (at least a second) on each side.
        QCOMPARE(panel.detailChart()->timeRange().lower, kStart + 38);
        QCOMPARE(panel.detailChart()->timeRange().upper, kStart + 62);
        QVERIFY(!panel.showRun(QStringLiteral("nope")));
    }

    void followsTheTimelineOfTheSameRun()
    {
        // A recorded run (100 s from kStart) and a trace of it: 60 s of events from kStart + 10 s, on the wall clock.
        ScalarStore store;
        store.append(QStringLiteral("system/rank_0"),
                     batchOf({ { QStringLiteral("cpu_busy_percent"), ramp(100, 0, 100) } }));
        SystemPanel system;
        system.setStore(&store);
        const auto traceAt = [](std::int64_t baseNs) {
            const std::string text = R"({"traceEvents": [
                {"ph":"X","name":"step","pid":1,"tid":1,"ts":10000000,"dur":60000000},
                {"ph":"X","name":"op","pid":1,"tid":1,"ts":20000000,"dur":1000}],
                "baseTimeNanoseconds": )"
                + std::to_string(baseNs) + "}";
            return importers::trace::ChromeTraceReader::readBytes(text, QStringLiteral("trace.json")).store;
        };
        const std::int64_t base = std::int64_t(kStart) * 1'000'000'000;
        TimeRangeModel range;
        TimelineView timeline(&range);
        const auto trace = traceAt(base);
        QVERIFY(trace && trace->sources().at(0).baseTimeNs == base);
        timeline.setStore(trace);
        SystemTimelineLink link(&system, &range);
        link.setTrace(trace);
        QVERIFY(link.isActive());

        // A zoom in the Timeline moves the System charts...
        range.setVisibleRange(base + 20'000'000'000, base + 30'000'000'000);
        QCOMPARE(system.detailChart()->timeRange().lower, kStart + 20);
        QCOMPARE(system.detailChart()->timeRange().upper, kStart + 30);
        // ...and a zoom in the System charts moves the Timeline.
        system.detailChart()->setTimeRange(kStart + 40, kStart + 50);
        QCOMPARE(range.visibleRange().start, base + 40'000'000'000);
        QCOMPARE(range.visibleRange().end, base + 50'000'000'000);
        // The hover line, both ways.
        range.setHoverTime(base + 45'000'000'000);
        QCOMPARE(system.detailChart()->hoverTime(), kStart + 45);
        system.detailChart()->setHoverTime(kStart + 42);
        QCOMPARE(range.hoverTime(), base + 42'000'000'000);
        range.setHoverTime(TimeRangeModel::kNoHover);
        QVERIFY(std::isnan(system.detailChart()->hoverTime()));

        // A trace of another time (a day later) is another run: the two stay apart.
        const auto later = traceAt(base + 86'400'000'000'000);
        timeline.setStore(later);
        link.setTrace(later);
        QVERIFY(!link.isActive());
        const QCPRange before = system.detailChart()->timeRange();
        range.setVisibleRange(later->startTime(), later->startTime() + 1'000'000'000);
        QCOMPARE(system.detailChart()->timeRange().lower, before.lower);
        // A trace without a base time has no wall clock.
        const auto relative = importers::trace::ChromeTraceReader::readBytes(
                                  R"({"traceEvents": [{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2}]})",
                                  QStringLiteral("relative.json"))
                                  .store;
        link.setTrace(relative);
        QVERIFY(!link.isActive());
        link.setTrace(nullptr);
        QVERIFY(!link.isActive());
    }

    void minddataCpuOfAProfilerFolder()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString dir = samples + QStringLiteral("/profiler/mindspore/profiler_misc");
        std::vector<std::shared_ptr<const models::pipeline::DataPipeline>> pipelines;
        for (const importers::pipeline::PipelineReadResult& result : importers::pipeline::readDataPipelines(dir))
            if (result.pipeline)
                pipelines.push_back(result.pipeline);
        const std::vector<models::system::SystemRun> runs
            = models::system::systemRunsOfPipelines(QStringLiteral("ms"), pipelines);
        // minddata_cpu_utilization_0.json: stamps 10, 20, 30 ms; user = sys = 10, 20, 30; io = idle = 10;
        // process user = sys = 10, 20, 30 (percent of one core).
        QCOMPARE(runs.size(), std::size_t(1));
        const models::system::SystemRun& run = runs.front();
        QCOMPARE(run.run, QStringLiteral("ms/rank_0"));
        QCOMPARE(run.rank, 0);
        const models::system::MetricSeries* busy = run.metric(QStringLiteral("cpu_busy_percent"));
        QVERIFY(busy);
        QCOMPARE(busy->times, (std::vector<double> { 0.01, 0.02, 0.03 }));
        QCOMPARE(busy->values, (std::vector<double> { 90, 90, 90 }));
        QCOMPARE(run.metric(QStringLiteral("cpu_user_percent"))->values, (std::vector<double> { 10, 20, 30 }));
        QCOMPARE(run.metric(QStringLiteral("process_cpu_percent"))->values, (std::vector<double> { 20, 40, 60 }));

        // It shows in the System panel as that rank, without any scalars.
        ScalarStore store;
        SystemPanel panel;
        panel.setStore(&store);
        QVERIFY(panel.isEmptyStateShown());
        panel.setProfilerRuns(runs);
        QVERIFY(!panel.isEmptyStateShown());
        QCOMPARE(panel.runCount(), 1);
        QCOMPARE(panel.currentRun(), QStringLiteral("ms/rank_0"));
        QVERIFY(panel.detailChart()->chartTitles().contains(QStringLiteral("CPU %")));
        panel.setProfilerRuns({});
        QVERIFY(panel.isEmptyStateShown());
        // The run folder itself is ".": its ranks are named without it.
        QCOMPARE(models::system::systemRunsOfPipelines(QStringLiteral("."), pipelines).front().run,
                 QStringLiteral("rank_0"));
    }

    void minddataCpuPlaceholderSampleLeftOut()
    {
        // MindSpore's first sample has no previous reading: all zeros, which is not "100 % busy".
        models::pipeline::CpuUtilization cpu;
        cpu.timeStamps = { 1000, 2000, 3000 };
        cpu.device = { { QStringLiteral("user_utilization"), { 0, 40, 50 } },
                       { QStringLiteral("sys_utilization"), { 0, 5, 5 } },
                       { QStringLiteral("io_utilization"), { 0, 1, 0 } },
                       { QStringLiteral("idle_utilization"), { 0, 54, 45 } } };
        const models::system::SystemRun run = models::system::systemRunOfMinddataCpu(cpu, QStringLiteral("r"), -1);
        QCOMPARE(run.metric(QStringLiteral("cpu_busy_percent"))->times, (std::vector<double> { 2, 3 }));
        QCOMPARE(run.metric(QStringLiteral("cpu_busy_percent"))->values, (std::vector<double> { 46, 55 }));
        QVERIFY(!run.metric(QStringLiteral("process_cpu_percent")));
        QVERIFY(models::system::systemRunOfMinddataCpu({}, QStringLiteral("r"), -1).isEmpty());
    }
};

QTEST_MAIN(TestSystemPanel)
#include "tst_systempanel.moc"
