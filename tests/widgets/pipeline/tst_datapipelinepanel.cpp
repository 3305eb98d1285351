#include "importers/pipeline/pipelinereader.h"
#include "widgets/pipeline/datapipelinepanel.h"
#include "widgets/pipeline/pipelinegraphview.h"

#include "tests/testutils.h"

#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

using namespace runlens;
using namespace runlens::importers::pipeline;
using namespace runlens::models::pipeline;
using namespace runlens::widgets;
using namespace runlens::widgets::pipeline;

namespace {

std::vector<std::shared_ptr<const DataPipeline>> readAll(const QString& folder)
{
    std::vector<std::shared_ptr<const DataPipeline>> out;
    for (const auto& r : readDataPipelines(folder))
        out.push_back(r.pipeline);
    return out;
}

QStringList readLines(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (QString& line : lines)
        line = line.trimmed();
    return lines;
}

bool near(const QColor& a, const QColor& b, int tolerance = 40)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) <= tolerance;
}

} // namespace

class TestDataPipelinePanel : public QObject
{
    Q_OBJECT

private slots:
    void emptyState();
    void nodesForEveryOp();
    void bottleneckHighlighted();
    void clickSelectsOp();
    void rankPicker();
    void queueChartExportsCsv();
    void cpuChartViewsAndExport();
    void usageColours();
};

void TestDataPipelinePanel::emptyState()
{
    DataPipelinePanel panel;
    QVERIFY(panel.isEmptyStateShown());
    QCOMPARE(panel.graphView()->nodeCount(), 0);
    QVERIFY(!panel.pipeline());
    QVERIFY(panel.findingsText().isEmpty());
    QCOMPARE(panel.queueChartData().rowCount(), std::size_t(0));
    panel.resize(600, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(panel.findChild<QLabel*>(QStringLiteral("emptyState"))->isVisible());
    QVERIFY(!panel.queuePlot()->isVisible());
}

void TestDataPipelinePanel::nodesForEveryOp()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    DataPipelinePanel panel;
    panel.setPipelines(readAll(samples + QStringLiteral("/profiler/mindspore/minddata_pipeline_fixture")));
    QVERIFY(!panel.isEmptyStateShown());
    PipelineGraphView* graph = panel.graphView();
    graph->resize(1000, 260);
    const auto p = panel.pipeline();
    QCOMPARE(p->rank, 0);
    QCOMPARE(graph->nodeCount(), 5);
    QVector<QRectF> rects;
    for (const auto& op : p->ops) {
        const QRectF r = graph->nodeRect(op.id);
        QVERIFY2(!r.isEmpty(), qPrintable(op.label()));
        QVERIFY2(QRectF(graph->rect()).contains(r),
                 qPrintable(QStringLiteral("%1,%2 %3x%4 in %5x%6")
                                .arg(r.x())
                                .arg(r.y())
                                .arg(r.width())
                                .arg(r.height())
                                .arg(graph->width())
                                .arg(graph->height())));
        for (const QRectF& other : std::as_const(rects))
            QVERIFY(!r.intersects(other));
        rects << r;
        QCOMPARE(graph->opAt(r.center()), op.id);
        // Data flows left to right: every op is drawn left of the op that reads its queue.
        if (op.parent >= 0)
            QVERIFY(r.right() < graph->nodeRect(op.parent).left());
    }
    QVERIFY(graph->nodeRect(42).isEmpty());
    QVERIFY(graph->deviceQueueRect().left() > graph->nodeRect(p->root()->id).right());
    QVERIFY(graph->toolTipForOp(1).contains(QStringLiteral("94%")));
}

void TestDataPipelinePanel::bottleneckHighlighted()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    PipelineGraphView graph;
    const auto pipelines = readAll(samples + QStringLiteral("/profiler/mindspore/minddata_pipeline_fixture"));
    graph.setPipeline(pipelines[0]);
    graph.resize(1000, 260);
    const QImage image = graph.grab().toImage();
    const qreal dpr = image.devicePixelRatio();
    auto pixelOnLeftEdge = [&](int opId) {
        const QRectF r = graph.nodeRect(opId);
        return image.pixelColor(QPoint(int(std::lround(r.left() * dpr)), int(std::lround(r.center().y() * dpr))));
    };
    // Rank 0: Shuffle 4 is slower than its child; Shuffle 1 is not a bottleneck.
    QVERIFY(pipelines[0]->isBottleneck(4));
    QVERIFY(!pipelines[0]->isBottleneck(1));
    QVERIFY2(near(pixelOnLeftEdge(4), PipelineGraphView::bottleneckColor()), qPrintable(pixelOnLeftEdge(4).name()));
    QVERIFY2(!near(pixelOnLeftEdge(1), PipelineGraphView::bottleneckColor()), qPrintable(pixelOnLeftEdge(1).name()));
    // The queue strip of Shuffle 1 (94 % full) is green at its left end.
    const QRectF r1 = graph.nodeRect(1);
    const QColor strip = image.pixelColor(QPoint(int((r1.left() + 12) * dpr), int((r1.bottom() - 3) * dpr)));
    QVERIFY2(strip.green() > strip.red(), qPrintable(strip.name()));

    // Rank 2 keeps up: nothing is outlined.
    graph.setPipeline(pipelines[2]);
    const QImage calm = graph.grab().toImage();
    for (const auto& op : pipelines[2]->ops) {
        const QRectF r = graph.nodeRect(op.id);
        const QColor c
            = calm.pixelColor(QPoint(int(std::lround(r.left() * dpr)), int(std::lround(r.center().y() * dpr))));
        QVERIFY2(!near(c, PipelineGraphView::bottleneckColor()), qPrintable(op.label()));
    }
}

void TestDataPipelinePanel::clickSelectsOp()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    DataPipelinePanel panel;
    panel.setPipelines(readAll(samples + QStringLiteral("/profiler/mindspore/minddata_pipeline_fixture")));
    panel.resize(1100, 800);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy spy(&panel, &DataPipelinePanel::opSelected);
    PipelineGraphView* graph = panel.graphView();
    QTest::mouseClick(graph, Qt::LeftButton, {}, graph->nodeRect(2).center().toPoint());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 0);
    QCOMPARE(spy.at(0).at(1).toInt(), 2);
    QCOMPARE(graph->selectedOp(), 2);
    QVERIFY(panel.findingsText().contains(QStringLiteral("Shuffle_4")));
}

void TestDataPipelinePanel::rankPicker()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    DataPipelinePanel panel;
    panel.setPipelines(readAll(samples + QStringLiteral("/profiler/mindspore/minddata_pipeline_fixture")));
    QCOMPARE(panel.ranks(), (QList<int> { 0, 1, 2, 3 }));
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("pipelineRank"));
    QVERIFY(combo);
    QCOMPARE(combo->count(), 4);
    QVERIFY(!combo->isHidden());
    QSignalSpy spy(&panel, &DataPipelinePanel::currentRankChanged);
    combo->setCurrentIndex(1);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(panel.currentRank(), 1);
    QCOMPARE(panel.pipeline()->rank, 1);
    QVERIFY(panel.pipeline()->isBottleneck(1));
    QVERIFY(panel.findingsText().contains(QStringLiteral("Shuffle_1")));
    panel.setCurrentRank(2);
    QCOMPARE(combo->currentIndex(), 2);
    QVERIFY(panel.findingsText().contains(QStringLiteral("keeps up")));
    // A new set keeps the rank when it is still there.
    panel.setPipelines(readAll(samples + QStringLiteral("/profiler/mindspore/minddata_pipeline_fixture")));
    QCOMPARE(panel.currentRank(), 2);
    panel.clear();
    QVERIFY(panel.isEmptyStateShown());
    QVERIFY(combo->isHidden());
}

void TestDataPipelinePanel::queueChartExportsCsv()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    DataPipelinePanel panel;
    panel.setPipelines(readAll(samples + QStringLiteral("/profiler/mindspore/profiler_misc")));
    QCOMPARE(panel.currentRank(), 0);
    QVERIFY(panel.queuePlot()->graphCount() >= 2);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    panel.setExportDirectory(dir.path());
    QSignalSpy exported(&panel, &DataPipelinePanel::chartExported);
    const QString file = panel.queueExportMenu()->requestExport(ChartExportMenu::Format::Csv);
    QVERIFY(!file.isEmpty());
    QCOMPARE(exported.count(), 1);
    // device_queue_profiling_0.txt: step 1, size 0 of 64 (empty), whole batch 4 ms.
    const QStringList lines = readLines(file);
    QCOMPARE(lines.value(0), QStringLiteral("queue,step,size,capacity,empty,full,time_ms"));
    QCOMPARE(lines.value(1), QStringLiteral("host,1,0,64,1,0,4"));
    QCOMPARE(lines.size(), 2);
    QVERIFY(panel.findingsText().contains(QStringLiteral("100.0%")));

    const QString png = panel.queueExportMenu()->requestExport(ChartExportMenu::Format::Png);
    QVERIFY(QFileInfo(png).size() > 0);
}

void TestDataPipelinePanel::cpuChartViewsAndExport()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    DataPipelinePanel panel;
    panel.setPipelines(readAll(samples + QStringLiteral("/profiler/mindspore/profiler_misc")));
    // Whole machine: user, sys, io, idle; counters such as runable_processes are not percentages.
    QCOMPARE(panel.cpuPlot()->graphCount(), 4);
    ChartData data = panel.cpuChartData();
    QCOMPARE(data.series.size(), std::size_t(4));
    QCOMPARE(data.series[0].columns[2], (std::vector<double> { 10, 20, 30 }));
    // sampling_interval 100 ms: samples at 0, 0.1, 0.2 s.
    QCOMPARE(data.series[0].columns[1], (std::vector<double> { 0.0, 0.1, 0.2 }));

    panel.setCpuView(DataPipelinePanel::CpuView::Ops);
    data = panel.cpuChartData();
    QCOMPARE(data.series.size(), std::size_t(1));
    QCOMPARE(data.series[0].name, QStringLiteral("Shuffle_1"));
    QCOMPARE(data.series[0].columns[2], (std::vector<double> { 20, 40, 60 }));
    QCOMPARE(panel.cpuPlot()->graphCount(), 1);

    panel.setCpuView(DataPipelinePanel::CpuView::Process);
    QCOMPARE(panel.cpuPlot()->graphCount(), 2);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    panel.setExportDirectory(dir.path());
    const QString file = panel.cpuExportMenu()->requestExport(ChartExportMenu::Format::Csv);
    const QStringList lines = readLines(file);
    QCOMPARE(lines.value(0), QStringLiteral("series,sample,time,percent"));
    QCOMPARE(lines.size(), 1 + 2 * 3);
    QVERIFY(lines.contains(QStringLiteral("System,2,0.2,30")));
}

void TestDataPipelinePanel::usageColours()
{
    const QColor empty = PipelineGraphView::usageColor(0.0);
    const QColor full = PipelineGraphView::usageColor(1.0);
    QVERIFY(empty.red() > empty.green());
    QVERIFY(full.green() > full.red());
    const QColor unknown = PipelineGraphView::usageColor(std::nan(""));
    QCOMPARE(unknown.red(), unknown.green());
}

QTEST_MAIN(TestDataPipelinePanel)
#include "tst_datapipelinepanel.moc"
