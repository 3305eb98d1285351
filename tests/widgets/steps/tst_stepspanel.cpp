#include "tests/models/trace/analysistestdata.h"
#include "widgets/steps/stepphasetablemodel.h"
#include "widgets/steps/stepspanel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <numeric>

#include <qcustomplot.h>

using namespace runlens;
using namespace runlens::widgets;
using namespace runlens::widgets::steps;
using models::trace::EventKind;
using models::trace::StepCategory;

namespace {

std::shared_ptr<const models::trace::TraceStore> threeSteps()
{
    test::AnalysisTraceBuilder t;
    for (int n = 0; n < 3; ++n) {
        const std::int64_t s = n * 1'000'000;
        t.step(0, 10 + n, s, 1'000'000);
        t.slice(t.cpu(), s + 100'000, 300'000, "aten::mm", EventKind::CpuOp);
        t.launch(0, s + 150'000, 50'000, s + 250'000, 200'000 * (n + 1), "gemm");
    }
    return t.finish();
}

bool waitReady(StepsPanel& panel)
{
    if (!panel.isComputing())
        return true;
    QSignalSpy spy(&panel, &StepsPanel::breakdownReady);
    return spy.wait(10000) || !panel.isComputing();
}

void showPanel(StepsPanel& panel)
{
    panel.resize(800, 420);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.plot()->replot();
}

/// `count` steps of a long run: 10 ms each, shared among the categories, every 97th step a straggler.
std::shared_ptr<const models::trace::StepBreakdown> manySteps(int count)
{
    auto breakdown = std::make_shared<models::trace::StepBreakdown>();
    std::int64_t t = 0;
    std::array<std::int64_t, models::trace::kStepCategoryCount> sum {};
    for (int i = 0; i < count; ++i) {
        models::trace::StepTimes step;
        step.number = i + 1;
        step.start = t;
        for (int c = 0; c < models::trace::kStepCategoryCount; ++c)
            step.ns[std::size_t(c)] = 1'000'000 + 10'000 * ((i * 7 + c * 13) % 17);
        if (i % 97 == 50)
            step.ns[std::size_t(StepCategory::Communication)] += 40'000'000;
        std::int64_t duration = 0;
        for (int c = 0; c < models::trace::kStepCategoryCount; ++c) {
            duration += step.ns[std::size_t(c)];
            sum[std::size_t(c)] += step.ns[std::size_t(c)];
        }
        step.end = t + duration;
        step.cpuStart = step.start;
        step.cpuEnd = step.end;
        t = step.end;
        breakdown->steps.push_back(step);
    }
    models::trace::StepBreakdown::SourceSummary summary;
    summary.stepCount = std::size_t(count);
    for (int c = 0; c < models::trace::kStepCategoryCount; ++c)
        summary.average.ns[std::size_t(c)] = count ? sum[std::size_t(c)] / count : 0;
    summary.average.end = summary.average.start
        + std::accumulate(summary.average.ns.begin(), summary.average.ns.end(), std::int64_t(0));
    breakdown->sources.push_back(summary);
    return breakdown;
}

} // namespace

class TstStepsPanel : public QObject
{
    Q_OBJECT
private slots:
    void bars();
    void clickEmitsStep();
    void tooltip();
    void exportCsvAndPng();
    void ranks();
    void empty();
    void render();
    void manyStepsDrawnPerPixelColumn();
    void zoomedInDrawsEveryStep();
    void phaseChart();
    void phaseChartRendersAndExports();
};

void TstStepsPanel::bars()
{
    StepsPanel panel;
    panel.setStore(threeSteps());
    QVERIFY(waitReady(panel));
    QCOMPARE(panel.barCount(), 4);
    // The bars, then the line of the slowest steps (drawn only when bars stand for several steps).
    QCOMPARE(panel.plot()->plottableCount(), models::trace::kStepCategoryCount + 1);
    QVERIFY(!panel.plot()->plottable(models::trace::kStepCategoryCount)->visible());
    auto* kernel = qobject_cast<QCPBars*>(panel.plot()->plottable(int(StepCategory::Kernel)));
    QVERIFY(kernel);
    QCOMPARE(kernel->data()->size(), 4);
    // Axis in ms (steps of 1 ms are under 10 ms: µs).
    QVERIFY(panel.plot()->yAxis->label().contains(QStringLiteral("µs")));
    QCOMPARE(kernel->data()->at(1)->value, 400.0);
    QCOMPARE(kernel->data()->at(3)->value, 400.0); // average of 200, 400, 600
    auto* idle = qobject_cast<QCPBars*>(panel.plot()->plottable(int(StepCategory::Idle)));
    QCOMPARE(idle->barBelow(), panel.plot()->plottable(int(StepCategory::Other)));
    QVERIFY(panel.findChild<QLabel*>(QStringLiteral("stepsSummary"))->text().contains(QLatin1String("3")));
}

void TstStepsPanel::clickEmitsStep()
{
    StepsPanel panel;
    auto store = threeSteps();
    panel.setStore(store);
    QVERIFY(waitReady(panel));
    showPanel(panel);
    QSignalSpy spy(&panel, &StepsPanel::stepActivated);
    QTest::mouseClick(panel.plot(), Qt::LeftButton, {}, panel.barCenter(1));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(0).toInt(), 1);
    const auto& step = panel.breakdown()->steps[1];
    QCOMPARE(step.number, std::int64_t(11));
    QCOMPARE(spy.last().at(1).toLongLong(), step.start);
    QCOMPARE(spy.last().at(2).toLongLong(), step.end);
    QCOMPARE(step.start, std::int64_t(1'000'000));
    // The average bar and the space between bars do nothing.
    QTest::mouseClick(panel.plot(), Qt::LeftButton, {}, panel.barCenter(3));
    const QPoint between = (panel.barCenter(0) + panel.barCenter(1)) / 2;
    QTest::mouseClick(panel.plot(), Qt::LeftButton, {}, between);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(panel.stepIndexAt(panel.barCenter(3)), -2);
    QCOMPARE(panel.stepIndexAt(between), -1);
}

void TstStepsPanel::tooltip()
{
    StepsPanel panel;
    panel.setStore(threeSteps());
    QVERIFY(waitReady(panel));
    const QString text = panel.toolTipForBar(0);
    QVERIFY(text.contains(QLatin1String("Step 10")));
    QVERIFY2(text.contains(QLatin1String("Kernel")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("200 µs"))); // kernel time of step 10
    QVERIFY(text.contains(QLatin1String("20.0 %")));
    QVERIFY(panel.toolTipForBar(3).contains(QLatin1String("Average of 3 step")));
    QVERIFY(panel.toolTipForBar(4).isEmpty());
}

void TstStepsPanel::exportCsvAndPng()
{
    StepsPanel panel;
    panel.setStore(threeSteps());
    QVERIFY(waitReady(panel));
    showPanel(panel);
    QTemporaryDir dir;
    panel.setExportDirectory(dir.path());
    QSignalSpy exported(&panel, &StepsPanel::chartExported);
    const QString csv = panel.exportMenu()->requestExport(ChartExporter::Format::Csv);
    QCOMPARE(exported.count(), 1);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.value(0),
             QByteArray("step,start_ns,end_ns,duration_ns,kernel_ns,memcpy_ns,memset_ns,communication_ns,"
                        "runtime_ns,data_loader_ns,cpu_op_ns,other_ns,idle_ns"));
    // step 10: cpu op [100,150)+[200,250)... runtime [150,200), kernel [250,450) (µs)
    // Whole nanoseconds in plain digits, times from the start of the trace.
    QCOMPARE(lines.value(1), QByteArray("10,0,1000000,1000000,200000,0,0,0,50000,0,100000,0,650000"));
    QVERIFY(lines.value(4).startsWith("average,nan,nan,1000000,400000"));
    const QString png = panel.exportMenu()->requestExport(ChartExporter::Format::Png);
    QVERIFY(QImage(png).width() > 100);
}

void TstStepsPanel::ranks()
{
    test::AnalysisTraceBuilder t(2);
    for (int s = 0; s < 2; ++s) {
        for (int n = 0; n < 2 + s; ++n)
            t.step(s, n, n * 1000, 1000);
    }
    StepsPanel panel;
    panel.setStore(t.finish());
    QVERIFY(waitReady(panel));
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("stepsSource"));
    QVERIFY(combo);
    QCOMPARE(combo->count(), 2);
    QCOMPARE(panel.barCount(), 3);
    combo->setCurrentIndex(1);
    QCOMPARE(panel.source(), 1);
    QCOMPARE(panel.barCount(), 4);
    QCOMPARE(panel.stepIndexAt(QPoint(-10, -10)), -1);
}

void TstStepsPanel::empty()
{
    StepsPanel panel;
    QCOMPARE(panel.barCount(), 0);
    QVERIFY(panel.toolTipForBar(0).isEmpty());
    QCOMPARE(panel.chartData().rowCount(), std::size_t(0));
    test::AnalysisTraceBuilder t;
    panel.setStore(t.finish());
    QVERIFY(waitReady(panel));
    QCOMPARE(panel.barCount(), 0);
    panel.setStore(nullptr);
    QCOMPARE(panel.barCount(), 0);
}

void TstStepsPanel::render()
{
    StepsPanel panel;
    panel.setStore(test::syntheticTrainingTrace(12));
    QVERIFY(waitReady(panel));
    panel.resize(1000, 460);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCOMPARE(panel.barCount(), 13);
    const QImage image = panel.grab().toImage();
    // Something other than the background is drawn in the middle of the chart.
    const QPoint centre = panel.plot()->mapTo(&panel, panel.barCenter(5));
    const QPoint corner = panel.plot()->mapTo(&panel, QPoint(3, 3));
    QVERIFY(image.pixelColor(centre) != image.pixelColor(corner));
    const QString out = qEnvironmentVariable("RUNLENS_RENDER_DIR");
    if (!out.isEmpty()) {
        QVERIFY(image.save(out + QStringLiteral("/steps.png")));
        QVERIFY(panel.exportMenu()->exportTo(ChartExporter::Format::Png, out + QStringLiteral("/steps-export.png")));
    }
}

void TstStepsPanel::manyStepsDrawnPerPixelColumn()
{
    StepsPanel panel;
    auto breakdown = manySteps(10'000);
    panel.setBreakdown(breakdown);
    panel.resize(800, 420);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.plot()->replot();
    const int width = panel.plot()->axisRect()->width();
    QVERIFY(width > 0 && width <= 800);
    QCOMPARE(panel.barCount(), 10'001);
    double kernelSum = 0.0;
    for (int c = 0; c < models::trace::kStepCategoryCount; ++c) {
        auto* bars = qobject_cast<QCPBars*>(panel.plot()->plottable(c));
        QVERIFY(bars);
        QVERIFY2(bars->data()->size() <= width, qPrintable(QString::number(bars->data()->size())));
        QVERIFY(bars->data()->size() > width / 2);
        if (c == int(StepCategory::Kernel)) {
            // Each bar is the mean of its steps: the bars weighted by their steps give back every step's time.
            const int perBar = int(std::lround(bars->width()));
            QVERIFY(perBar > 1);
            int first = 0;
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it, first += perBar)
                kernelSum += it->value * std::min(perBar, 10'000 - first);
            QCOMPARE(first, (10'000 + perBar - 1) / perBar * perBar);
        }
    }
    double expected = 0.0;
    for (const auto& step : breakdown->steps)
        expected += double(step.time(StepCategory::Kernel));
    QVERIFY(std::abs(kernelSum * 1e6 - expected) < 1e-6 * expected); // the axis is in ms
    QVERIFY2(panel.plot()->xAxis->label().contains(QLatin1String("mean of")), qPrintable(panel.plot()->xAxis->label()));
    // A mean hides stragglers: the line of each bar's slowest step reaches the straggler's whole time.
    auto* slowest = qobject_cast<QCPGraph*>(panel.plot()->plottable(models::trace::kStepCategoryCount));
    QVERIFY(slowest && slowest->visible());
    QCOMPARE(slowest->data()->size(), qobject_cast<QCPBars*>(panel.plot()->plottable(0))->data()->size());
    double highest = 0.0;
    for (auto it = slowest->data()->constBegin(); it != slowest->data()->constEnd(); ++it)
        highest = std::max(highest, it->value);
    std::int64_t longest = 0;
    for (const auto& step : breakdown->steps)
        longest = std::max(longest, step.duration());
    QCOMPARE(highest * 1e6, double(longest));

    // Index 50 (step 51) is a straggler: its column resolves to it.
    const double x = panel.plot()->xAxis->coordToPixel(50.0);
    const QPoint pos(int(std::lround(x)), panel.barCenter(0).y());
    QCOMPARE(panel.stepIndexAt(pos), 50); // the column's slowest step, a real step
    const QString tip = panel.toolTipAt(pos);
    QVERIFY2(tip.contains(QLatin1String("Steps ")) && tip.contains(QLatin1String("Slowest: step 51")), qPrintable(tip));
    QVERIFY(tip.contains(QLatin1String("mean of")));
    QSignalSpy spy(&panel, &StepsPanel::stepActivated);
    QTest::mouseClick(panel.plot(), Qt::LeftButton, {}, pos);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(0).toInt(), 50);
    QCOMPARE(spy.last().at(1).toLongLong(), breakdown->steps[50].start);
}

void TstStepsPanel::zoomedInDrawsEveryStep()
{
    StepsPanel panel;
    panel.setBreakdown(manySteps(10'000));
    panel.resize(800, 420);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.plot()->replot();
    panel.plot()->xAxis->setRange(999.5, 1099.5); // steps 1000..1099
    panel.plot()->replot();
    for (int c = 0; c < models::trace::kStepCategoryCount; ++c) {
        auto* bars = qobject_cast<QCPBars*>(panel.plot()->plottable(c));
        QCOMPARE(bars->data()->size(), 100);
        QCOMPARE(bars->width(), 0.7);
        QCOMPARE(bars->data()->at(0)->key, 1000.0);
        QCOMPARE(bars->data()->at(99)->key, 1099.0);
    }
    QCOMPARE(panel.plot()->xAxis->label(), QStringLiteral("Step"));
    QVERIFY(!panel.plot()->plottable(models::trace::kStepCategoryCount)->visible());
    // The axis names the steps shown (every fifth of the hundred), not those of the whole run.
    const QList<QString> ticks = panel.plot()->xAxis->tickVectorLabels();
    QVERIFY2(ticks.contains(QStringLiteral("1001")) && ticks.contains(QStringLiteral("1096")),
             qPrintable(QStringList(ticks).join(QLatin1Char(' '))));
    QCOMPARE(panel.stepIndexAt(panel.barCenter(1050)), 1050);
    QVERIFY(panel.toolTipAt(panel.barCenter(1050)).contains(QLatin1String("Step 1051")));
    // Zoomed out again, the columns are back.
    panel.plot()->xAxis->setRange(-1e9, 1e9);
    panel.plot()->replot();
    QVERIFY(panel.plot()->xAxis->range().lower >= -1.0 && panel.plot()->xAxis->range().upper < 10'002);
    QVERIFY(qobject_cast<QCPBars*>(panel.plot()->plottable(0))->data()->size() <= panel.plot()->axisRect()->width());
}

void TstStepsPanel::phaseChart()
{
    // Per step: 100 µs loading, 300 µs forward, 200 µs backward launching a 250 µs kernel, 100 µs optimizer.
    test::AnalysisTraceBuilder t;
    for (int n = 0; n < 3; ++n) {
        const std::int64_t s = n * 1'000'000;
        t.step(0, 1 + n, s, 1'000'000);
        t.slice(t.cpu(), s, 100'000, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                EventKind::UserAnnotation);
        t.slice(t.cpu(), s + 100'000, 300'000, "aten::linear", EventKind::CpuOp);
        t.slice(t.cpu(), s + 400'000, 200'000, "autograd::engine::evaluate_function: AddmmBackward0", EventKind::CpuOp);
        t.launch(0, s + 450'000, 10'000, s + 500'000, 250'000, "gemm_nt");
        t.slice(t.cpu(), s + 800'000, 100'000, "Optimizer.step#SGD.step", EventKind::UserAnnotation);
    }
    StepsPanel panel;
    panel.setStore(t.finish());
    QVERIFY(waitReady(panel));
    QVERIFY(panel.phases());
    QCOMPARE(panel.phaseBarCount(), 4);
    QCOMPARE(panel.phasePlot()->objectName(), QStringLiteral("stepsPhaseChart"));
    QVERIFY(panel.phasePlot()->yAxis->label().contains(QStringLiteral("µs")));
    auto* forward = qobject_cast<QCPBars*>(panel.phasePlot()->plottable(int(models::trace::StepPhase::Forward)));
    auto* backward = qobject_cast<QCPBars*>(panel.phasePlot()->plottable(int(models::trace::StepPhase::Backward)));
    QVERIFY(forward && backward);
    QCOMPARE(forward->data()->size(), 4);
    QCOMPARE(forward->data()->at(0)->value, 300.0);
    QCOMPARE(backward->data()->at(1)->value, 200.0);
    QCOMPARE(forward->data()->at(3)->value, 300.0); // the mean bar
    QCOMPARE(backward->barBelow(), forward);

    const QString tip = panel.phaseToolTipForBar(0);
    QVERIFY2(tip.contains(QLatin1String("Step 1")) && tip.contains(QLatin1String("Forward"))
                 && tip.contains(QStringLiteral("250 µs")),
             qPrintable(tip));
    QVERIFY(panel.phaseToolTipForBar(3).contains(QLatin1String("Mean of 3 step")));

    // The table: a row per step with the phases and the device time per phase.
    auto* model = panel.phaseTableModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(panel.phaseTable()->model(), model);
    const int forwardColumn = StepPhaseTableModel::FirstHostPhaseColumn + int(models::trace::StepPhase::Forward);
    const int gpuBackwardColumn = StepPhaseTableModel::FirstDevicePhaseColumn + int(models::trace::StepPhase::Backward);
    QCOMPARE(model->headerData(forwardColumn, Qt::Horizontal).toString(), QStringLiteral("Forward"));
    QCOMPARE(model->index(2, StepPhaseTableModel::StepColumn).data().toLongLong(), 3);
    QCOMPARE(model->index(0, forwardColumn).data(StepPhaseTableModel::SortRole).toLongLong(), 300'000);
    QCOMPARE(model->index(0, gpuBackwardColumn).data(StepPhaseTableModel::SortRole).toLongLong(), 250'000);
    QCOMPARE(model->index(0, StepPhaseTableModel::RatioColumn).data(StepPhaseTableModel::SortRole).toDouble(), 1.2);

    // A click on a phase bar shows that step, like the breakdown chart.
    showPanel(panel);
    panel.phasePlot()->replot();
    QSignalSpy spy(&panel, &StepsPanel::stepActivated);
    QTest::mouseClick(panel.phasePlot(), Qt::LeftButton, {}, panel.phaseBarCenter(2));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.last().at(0).toInt(), 2);

    // A breakdown handed in without a store has no phases.
    panel.setBreakdown(panel.breakdown());
    QCOMPARE(panel.phaseBarCount(), 0);
    QCOMPARE(model->rowCount(), 0);
}

void TstStepsPanel::phaseChartRendersAndExports()
{
    StepsPanel panel;
    panel.setStore(test::syntheticTrainingTrace(8));
    QVERIFY(waitReady(panel));
    panel.resize(1000, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.phasePlot()->replot();
    QCOMPARE(panel.phaseBarCount(), 9);
    const QImage image = panel.grab().toImage();
    // The forward colour is drawn at the foot of a step's bar.
    const QPoint foot = panel.phasePlot()->mapTo(&panel, panel.phaseBarCenter(4)) - QPoint(0, 2);
    bool sawForward = false;
    for (int dy = 0; dy < 200 && !sawForward; ++dy)
        sawForward
            = image.pixelColor(foot - QPoint(0, dy)) == StepsPanel::phaseColor(models::trace::StepPhase::Forward);
    QVERIFY(sawForward);

    QTemporaryDir dir;
    panel.setExportDirectory(dir.path());
    const QString csv = panel.phaseExportMenu()->requestExport(ChartExporter::Format::Csv);
    QFile file(csv);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(csv));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.value(0),
             QByteArray("step,cpu_start_ns,cpu_end_ns,cpu_duration_ns,data_loading_ns,forward_ns,"
                        "backward_ns,optimizer_ns,other_ns,gpu_data_loading_ns,gpu_forward_ns,"
                        "gpu_backward_ns,gpu_optimizer_ns,gpu_other_ns"));
    QVERIFY(lines.value(9).startsWith("average,nan,nan,"));
    // Each step's host phases add up to its host time.
    for (int row = 1; row <= 8; ++row) {
        const QList<QByteArray> cells = lines.value(row).split(',');
        double sum = 0;
        for (int c = 4; c < 9; ++c)
            sum += cells.value(c).toDouble();
        QCOMPARE(sum, cells.value(3).toDouble());
    }
    const QString png = panel.phaseExportMenu()->requestExport(ChartExporter::Format::Png);
    QVERIFY(QImage(png).width() > 100);
    const QString out = qEnvironmentVariable("RUNLENS_RENDER_DIR");
    if (!out.isEmpty())
        QVERIFY(image.save(out + QStringLiteral("/steps-phases.png")));
}

QTEST_MAIN(TstStepsPanel)
#include "tst_stepspanel.moc"
