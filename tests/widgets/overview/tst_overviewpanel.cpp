#include "importers/profiler/profilerrunreader.h"
#include "models/profiler/profileroptablemodel.h"
#include "widgets/overview/overviewpanel.h"

#include "tests/testutils.h"

#include <QComboBox>
#include <QFile>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

#include <qcustomplot.h>

using namespace runlens;
using namespace runlens::widgets;
using namespace runlens::widgets::overview;

namespace {

/// Two ranks of hand-made data: rank 4 with three 2.x steps and two operator types, rank 5 with nothing.
std::shared_ptr<const models::profiler::ProfilerRunData> handMadeRun()
{
    auto run = std::make_shared<models::profiler::ProfilerRunData>();
    models::profiler::ProfilerRankData four;
    four.rank = 4;
    four.deviceType = models::profiler::DeviceType::Ascend;
    four.msVersion = QStringLiteral("2.3.1");
    four.steps.categoryIds = { QStringLiteral("computing"), QStringLiteral("free") };
    four.steps.categoryNames = { QStringLiteral("Computing"), QStringLiteral("Free") };
    for (int i = 1; i <= 3; ++i) {
        models::profiler::StepSeries::Step step;
        step.number = i;
        step.valuesUs = { 100.0 * i, 10.0 };
        step.totalUs = 100.0 * i + 10.0;
        four.steps.steps.push_back(step);
    }
    four.steps.computeAverage();
    models::profiler::OpTypeStats matmul;
    matmul.type = QStringLiteral("MatMul");
    matmul.calls = 3;
    matmul.totalUs = 300.0;
    models::profiler::OpTypeStats add;
    add.type = QStringLiteral("Add");
    add.calls = 9;
    add.totalUs = 100.0;
    four.operators.types = { add, matmul };
    four.operators.finish();
    run->ranks.push_back(four);
    models::profiler::ProfilerRankData five;
    five.rank = 5;
    five.deviceType = models::profiler::DeviceType::Gpu;
    run->ranks.push_back(five);
    return run;
}

/// `count` steps of a long trace: 10 ms each, shared among the categories, every 97th step a straggler.
std::shared_ptr<const models::trace::StepBreakdown> manySteps(int count)
{
    auto breakdown = std::make_shared<models::trace::StepBreakdown>();
    std::array<std::int64_t, models::trace::kStepCategoryCount> sum {};
    for (int i = 0; i < count; ++i) {
        models::trace::StepTimes step;
        step.number = i + 1;
        for (int c = 0; c < models::trace::kStepCategoryCount; ++c)
            step.ns[std::size_t(c)] = 1'000'000 + 10'000 * ((i * 7 + c * 13) % 17);
        if (i % 97 == 50)
            step.ns[std::size_t(models::trace::StepCategory::Communication)] += 40'000'000;
        for (int c = 0; c < models::trace::kStepCategoryCount; ++c)
            sum[std::size_t(c)] += step.ns[std::size_t(c)];
        breakdown->steps.push_back(step);
    }
    models::trace::StepBreakdown::SourceSummary summary;
    summary.stepCount = std::size_t(count);
    for (int c = 0; c < models::trace::kStepCategoryCount; ++c)
        summary.average.ns[std::size_t(c)] = count ? sum[std::size_t(c)] / count : 0;
    breakdown->sources.push_back(summary);
    return breakdown;
}

} // namespace

class TestOverviewPanel : public QObject
{
    Q_OBJECT

private slots:
    void manyStepsDrawnPerPixelColumn();
    void emptyState();
    void handMadeRanks();
    void sampleRunChartHasTheSteps();
    void exports();
    void traceBreakdown();
    void profilerRunPicker();
    void operatorLabelsDoNotOverlap();
    void stepChartReplotsOnceWhenShown();
};

void TestOverviewPanel::emptyState()
{
    OverviewPanel panel;
    QVERIFY(panel.isEmpty());
    QCOMPARE(panel.stepBarCount(), 0);
    auto* empty = panel.findChild<QLabel*>(QStringLiteral("emptyState"));
    QVERIFY(empty);
    QVERIFY(!empty->text().isEmpty());
    QVERIFY(!panel.findChild<QComboBox*>(QStringLiteral("overviewRank"))->isVisibleTo(&panel));
    panel.setProfilerData(std::make_shared<models::profiler::ProfilerRunData>());
    QVERIFY(panel.isEmpty());
}

void TestOverviewPanel::handMadeRanks()
{
    OverviewPanel panel;
    panel.resize(900, 700);
    panel.setProfilerData(handMadeRun());
    QVERIFY(!panel.isEmpty());
    QCOMPARE(panel.rankCount(), 2);
    QCOMPARE(panel.currentRank(), 4);
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("overviewRank"));
    QVERIFY(combo->isVisibleTo(&panel));
    QCOMPARE(combo->count(), 2);
    QCOMPARE(panel.stackNames(), QStringList({ QStringLiteral("Computing"), QStringLiteral("Free") }));
    QCOMPARE(panel.stepNumbers(), QList<qint64>({ 1, 2, 3, -1 }));
    // Average of steps 2 and 3.
    QCOMPARE(panel.averageUs(), std::vector<double>({ 250.0, 10.0 }));
    QCOMPARE(panel.stepChart()->plottableCount(), 3); // and the line of the slowest steps
    auto* computing = qobject_cast<QCPBars*>(panel.stepChart()->plottable(0));
    QVERIFY(computing);
    QCOMPARE(computing->data()->size(), 4);
    QCOMPARE(panel.topOperatorNames(), QStringList({ QStringLiteral("MatMul"), QStringLiteral("Add") }));
    QVERIFY(panel.summaryText().contains(QStringLiteral("Ascend")));
    QVERIFY(panel.summaryText().contains(QStringLiteral("2.3.1")));
    QCOMPARE(panel.operatorModel()->rowCount(), 2);

    QSignalSpy changed(&panel, &OverviewPanel::rankChanged);
    combo->setCurrentIndex(1);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().first().toInt(), 5);
    QCOMPARE(panel.currentRank(), 5);
    // Rank 5 has nothing: the empty state shows, the picker stays to go back.
    QVERIFY(panel.isEmpty());
    QCOMPARE(panel.stepBarCount(), 0);
    QVERIFY(panel.summaryText().contains(QStringLiteral("GPU")));
    QVERIFY(combo->isVisibleTo(&panel));
}

void TestOverviewPanel::sampleRunChartHasTheSteps()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const auto run
        = importers::profiler::readProfilerDirectory(samples + QStringLiteral("/profiler/mindspore/run_1_profiler"));
    QCOMPARE(run->ranks.size(), std::size_t(1));
    OverviewPanel panel;
    panel.setProfilerData(run);
    const auto& steps = run->ranks[0].steps;
    QCOMPARE(panel.stepBarCount(), int(steps.steps.size()) + 1);
    QCOMPARE(panel.stackNames().size(), 3);
    QCOMPARE(panel.stepChart()->plottableCount(), 4);
    auto* tail = qobject_cast<QCPBars*>(panel.stepChart()->plottable(2));
    QCOMPARE(tail->data()->size(), int(steps.steps.size()) + 1);
    QCOMPARE(tail->name(), steps.categoryNames.at(2));
    // Top operators: at most ten, in the order of the type table.
    const QStringList top = panel.topOperatorNames();
    QCOMPARE(top.size(), 10);
    QVERIFY(top.first().startsWith(run->ranks[0].operators.types[0].type));
    QVERIFY(panel.summaryText().contains(QStringLiteral("Ascend")));
    QVERIFY(panel.summaryText().contains(QStringLiteral("322")));
}

void TestOverviewPanel::exports()
{
    OverviewPanel panel;
    panel.resize(900, 700);
    panel.setProfilerData(handMadeRun());
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTemporaryDir dir;
    panel.setExportDirectory(dir.path());
    QSignalSpy exported(&panel, &OverviewPanel::chartExported);

    const QString csv = panel.stepExportMenu()->requestExport(ChartExporter::Format::Csv);
    QCOMPARE(exported.count(), 1);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 5); // header, three steps, the average
    QCOMPARE(lines[0], QByteArray("rank,step,computing_us,free_us,total_us"));
    QCOMPARE(lines[1], QByteArray("rank 4,1,100,10,110"));
    QCOMPARE(lines[4], QByteArray("rank 4,-1,250,10,260"));

    const QString opsCsv = panel.operatorExportMenu()->requestExport(ChartExporter::Format::Csv);
    QFile opsFile(opsCsv);
    QVERIFY(opsFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> opLines = opsFile.readAll().trimmed().split('\n');
    QCOMPARE(opLines.size(), 3);
    QCOMPARE(opLines[1], QByteArray("MatMul,3,300,100,0.75"));

    const QString png = panel.stepExportMenu()->requestExport(ChartExporter::Format::Png);
    QVERIFY(QImage(png).width() > 100);
    const QString svg = panel.operatorExportMenu()->requestExport(ChartExporter::Format::Svg);
    QVERIFY(QFileInfo(svg).size() > 100);
    QCOMPARE(exported.count(), 4);
    // The export title is taken down again after the picture.
    QCOMPARE(panel.stepChart()->plotLayout()->rowCount(), 2);
}

void TestOverviewPanel::traceBreakdown()
{
    auto breakdown = std::make_shared<models::trace::StepBreakdown>();
    for (int s = 0; s < 2; ++s) {
        models::trace::StepBreakdown::SourceSummary summary;
        summary.source = s;
        summary.firstStep = breakdown->steps.size();
        summary.stepCount = 2;
        for (int n = 0; n < 2; ++n) {
            models::trace::StepTimes step;
            step.source = s;
            step.number = 10 + n;
            step.end = 1000;
            step.ns[std::size_t(models::trace::StepCategory::Kernel)] = 600;
            step.ns[std::size_t(models::trace::StepCategory::Idle)] = 400;
            breakdown->steps.push_back(step);
        }
        summary.average = breakdown->steps.back();
        breakdown->sources.push_back(summary);
    }
    OverviewPanel panel;
    panel.setTraceBreakdown(breakdown);
    QVERIFY(!panel.isEmpty());
    QCOMPARE(panel.rankCount(), 2);
    QCOMPARE(panel.stepNumbers(), QList<qint64>({ 10, 11, -1 }));
    QCOMPARE(panel.stackNames().size(), models::trace::kStepCategoryCount);
    QCOMPARE(panel.averageUs()[std::size_t(models::trace::StepCategory::Kernel)], 0.6);
    panel.setRankIndex(1);
    QCOMPARE(panel.currentRank(), 1);
    // Profiler data, when it comes, takes over.
    panel.setProfilerData(handMadeRun());
    QCOMPARE(panel.stackNames().size(), 2);
    QCOMPARE(panel.rankCount(), 2);
}

void TestOverviewPanel::profilerRunPicker()
{
    OverviewPanel panel;
    auto* runs = panel.findChild<QComboBox*>(QStringLiteral("overviewRun"));
    QVERIFY(runs);
    panel.setProfilerRuns({ QStringLiteral("only") }, QStringLiteral("only"));
    QVERIFY(runs->isHidden());
    QSignalSpy changed(&panel, &OverviewPanel::profilerRunChanged);
    panel.setProfilerRuns({ QStringLiteral("a"), QStringLiteral("b") }, QStringLiteral("b"));
    QVERIFY(!runs->isHidden());
    QCOMPARE(panel.currentProfilerRun(), QStringLiteral("b"));
    QCOMPARE(changed.size(), 0); // setting the list is not a choice
    runs->setCurrentIndex(0);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.front().front().toString(), QStringLiteral("a"));

    // The picker shows the runs as users see them and reports the run itself.
    panel.setProfilerRuns({ QStringLiteral("."), QStringLiteral("b") }, QStringLiteral("b"),
                          { QStringLiteral("cnn_job"), QStringLiteral("b") });
    QCOMPARE(runs->itemText(0), QStringLiteral("cnn_job"));
    runs->setCurrentIndex(0);
    QCOMPARE(panel.currentProfilerRun(), QStringLiteral("."));
    QCOMPARE(changed.back().front().toString(), QStringLiteral("."));
}

// Ten operator types with long names in a short chart: the labels shown are cut to the room beside the axis and
// at least a line apart, and each bar's tooltip has its whole name; a tall chart names every bar.
void TestOverviewPanel::operatorLabelsDoNotOverlap()
{
    auto run = std::make_shared<models::profiler::ProfilerRunData>();
    models::profiler::ProfilerRankData rank;
    rank.rank = 0;
    QStringList names;
    for (int i = 0; i < 10; ++i) {
        models::profiler::OpTypeStats type;
        type.type = QStringLiteral("Default/network-WithLossCell/_backbone-ResNet/layer%1-SequentialCell/"
                                   "FusionOp_ReluGradV2_Cast_%1")
                        .arg(i);
        type.calls = 1;
        type.totalUs = 1000.0 - i * 50.0;
        rank.operators.types.push_back(type);
        names << type.type;
    }
    rank.operators.finish();
    run->ranks.push_back(rank);

    OverviewPanel panel;
    panel.resize(900, 360);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setProfilerData(run);
    QCustomPlot* plot = panel.operatorChart();
    QCOMPARE(panel.topOperatorNames(), names);

    const auto check = [&](bool everyBar) {
        QCoreApplication::processEvents();
        plot->replot();
        const auto ticker = plot->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        const QMap<double, QString> ticks = ticker->ticks();
        QVERIFY(!ticks.isEmpty());
        if (everyBar)
            QCOMPARE(ticks.size(), names.size());
        else
            QVERIFY2(ticks.size() < names.size(), qPrintable(QString::number(ticks.size())));
        const QFontMetrics metrics(plot->yAxis->tickLabelFont());
        double previous = -1e9;
        for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) {
            const QString& whole = names.at(int(it.key()));
            QVERIFY2(it.value() == whole
                         || (it.value().endsWith(QChar(0x2026)) && whole.startsWith(it.value().chopped(1))),
                     qPrintable(it.value()));
            QVERIFY(metrics.horizontalAdvance(it.value()) <= std::max(60, plot->width() / 4) + 1);
            const double y = plot->yAxis->coordToPixel(it.key());
            QVERIFY2(std::abs(y - previous) >= metrics.height(),
                     qPrintable(QStringLiteral("%1 %2").arg(previous).arg(y)));
            previous = y;
        }
        // The whole name of a bar, labelled or not, is in its tooltip.
        for (int bar : { 0, 1, 9 }) {
            const QPoint at(plot->xAxis->coordToPixel(10.0), int(plot->yAxis->coordToPixel(double(bar))));
            QHelpEvent help(QEvent::ToolTip, at, plot->mapToGlobal(at));
            QCoreApplication::sendEvent(plot, &help);
            QVERIFY2(QToolTip::text().contains(names.at(bar)), qPrintable(QToolTip::text()));
        }
    };
    // The splitter gives the chart a few lines only at this height.
    QVERIFY(plot->axisRect()->height() < 10 * QFontMetrics(plot->yAxis->tickLabelFont()).height());
    check(false);
    panel.resize(900, 2000);
    check(true);
}

// A replot of thousands of stacked bars takes tens of milliseconds: data set while the panel is out of sight is
// drawn once, at its first paint, not again for each resize the layout makes before it.
void TestOverviewPanel::stepChartReplotsOnceWhenShown()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const auto run
        = importers::profiler::readProfilerDirectory(samples + QStringLiteral("/profiler/mindspore/run_1_profiler"));
    QWidget window;
    window.resize(1000, 700);
    auto* panel = new OverviewPanel(&window);
    panel->setGeometry(0, 0, 1000, 700);
    QCoreApplication::processEvents(); // the replot QCustomPlot queues when it is made
    panel->setProfilerData(run);
    QSignalSpy replots(panel->stepChart(), &QCustomPlot::afterReplot);
    window.show();
    panel->setGeometry(0, 0, 1000, 690);
    panel->setGeometry(0, 0, 990, 680);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_COMPARE(replots.size(), 1);
    QTest::qWait(50);
    QCOMPARE(replots.size(), 1);
    QCOMPARE(panel->stepChart()->viewport().size(), QSize(990, panel->stepChart()->height()));
    // Once shown, a new size is drawn at once.
    panel->setGeometry(0, 0, 900, 680);
    QCOMPARE(replots.size(), 2);
}

void TestOverviewPanel::manyStepsDrawnPerPixelColumn()
{
    OverviewPanel panel;
    panel.setTraceBreakdown(manySteps(10'000));
    panel.resize(800, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCustomPlot* plot = panel.stepChart();
    plot->replot();
    const int width = plot->axisRect()->width();
    QVERIFY(width > 0 && width <= 800);
    QCOMPARE(plot->plottableCount(),
             models::trace::kStepCategoryCount + 1); // the bars and the line of the slowest steps
    QVERIFY(plot->plottable(models::trace::kStepCategoryCount)->visible());
    for (int c = 0; c < models::trace::kStepCategoryCount; ++c) {
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(c));
        QVERIFY2(bars->data()->size() <= width, qPrintable(QString::number(bars->data()->size())));
    }
    QVERIFY(plot->xAxis->label().contains(QLatin1String("mean of")));
    // The tooltip of a column names its steps and its straggler (step number 51, index 50).
    const QPoint pos(int(std::lround(plot->xAxis->coordToPixel(50.0))), plot->axisRect()->center().y());
    QHelpEvent help(QEvent::ToolTip, pos, plot->mapToGlobal(pos));
    QCoreApplication::sendEvent(plot, &help);
    QVERIFY2(QToolTip::text().contains(QLatin1String("Slowest: step 51")), qPrintable(QToolTip::text()));

    plot->xAxis->setRange(999.5, 1099.5);
    plot->replot();
    for (int c = 0; c < models::trace::kStepCategoryCount; ++c) {
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(c));
        QCOMPARE(bars->data()->size(), 100);
        QCOMPARE(bars->width(), 0.7);
    }
    QCOMPARE(plot->xAxis->label(), QStringLiteral("Step"));
}

QTEST_MAIN(TestOverviewPanel)
#include "tst_overviewpanel.moc"
