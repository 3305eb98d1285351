#include "tests/models/trace/analysistestdata.h"
#include "widgets/cluster/clusterpanel.h"
#include "widgets/cluster/clusterrankmodel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <qcustomplot.h>

using namespace runlens;
using namespace runlens::models::cluster;
using namespace runlens::widgets;
using namespace runlens::widgets::cluster;

namespace {

/// Four ranks in two stages: rank 2 is slow (step interval 16 ms against 10) and the SDMA link 3->2 has
/// 12 GB/s against 20 on the other SDMA links.
std::shared_ptr<const Cluster> fourRanks()
{
    auto c = std::make_shared<Cluster>();
    c->origin = ClusterOrigin::MindSpore;
    c->parallelMode = QStringLiteral("pipeline-parallel");
    c->stageCount = 2;
    c->worldSize = 4;
    const double intervals[] = { 10, 10, 16, 10 };
    for (int r = 0; r < 4; ++r) {
        RankFigures f;
        f.rank = r;
        f.stage = r < 2 ? 1 : 2;
        f.device = QStringLiteral("Device %1").arg(r);
        f.stepInterval = intervals[r];
        f.computation = 80;
        f.communication = 5;
        f.stepTime = intervals[r] + 85 + 2; // 2 ms of "other"
        f.flops = 900;
        c->ranks.push_back(f);
    }
    auto link = [&c](int src, int dst, const char* type, double bandwidth) {
        ClusterLink l;
        l.src = src;
        l.dst = dst;
        l.type = QString::fromLatin1(type);
        l.bandwidth = bandwidth;
        l.size = 40;
        l.time = 40 / bandwidth;
        c->links.push_back(l);
    };
    link(0, 1, "SDMA", 20);
    link(1, 0, "SDMA", 20);
    link(2, 3, "SDMA", 20);
    link(3, 2, "SDMA", 12);
    link(0, 2, "RDMA", 10);
    link(1, 3, "RDMA", 10);
    c->analyse();
    return c;
}

void showPanel(ClusterPanel& panel)
{
    panel.resize(900, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.barChart()->replot();
}

/// The proxy row showing rank `rank` at the top level.
int rowOfRank(const QSortFilterProxyModel* proxy, int rank)
{
    for (int row = 0; row < proxy->rowCount(); ++row) {
        if (proxy->index(row, 0).data(ClusterRankModel::RankRole).toInt() == rank)
            return row;
    }
    return -1;
}

} // namespace

class TstClusterPanel : public QObject
{
    Q_OBJECT
private slots:
    void modelRows();
    void rowsAndHighlight();
    void sorting();
    void doubleClickEmitsRank();
    void barChart();
    void linkMatrix();
    void groupByStage();
    void exports();
    void kinetoStore();
    void emptyState();
    void tableKeepsRowsInAShortDock();
};

void TstClusterPanel::modelRows()
{
    ClusterRankModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCluster(fourRanks());
    QCOMPARE(model.rowCount(), 4);
    model.setGroupedByStage(true);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowCount(model.index(1, 0)), 2);
    QCOMPARE(model.index(0, 0, model.index(1, 0)).data(ClusterRankModel::RankRole).toInt(), 2);
    QCOMPARE(model.index(1, 0).data(ClusterRankModel::RankRole).toInt(), -1);
    model.setGroupedByStage(false);
    QVERIFY(model.isColumnEmpty(ClusterRankModel::OverlappedColumn));
    QVERIFY(!model.isColumnEmpty(ClusterRankModel::StepIntervalColumn));
    model.setCluster(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TstClusterPanel::rowsAndHighlight()
{
    ClusterPanel panel;
    panel.setCluster(fourRanks());
    QVERIFY(!panel.isShowingEmptyState());
    auto* proxy = panel.tableModel();
    QCOMPARE(proxy->rowCount(), 4);
    const int slowRow = rowOfRank(proxy, 2);
    QVERIFY(slowRow >= 0);
    const QModelIndex slowInterval = proxy->index(slowRow, ClusterRankModel::StepIntervalColumn);
    QVERIFY(slowInterval.data(ClusterRankModel::FlaggedRole).toBool());
    QVERIFY(slowInterval.data(Qt::BackgroundRole).value<QBrush>().style() != Qt::NoBrush);
    QVERIFY(proxy->index(slowRow, 0).data(Qt::FontRole).value<QFont>().bold());
    QCOMPARE(slowInterval.data().toString(), ClusterRankModel::formatMs(16));
    for (int rank : { 0, 1, 3 }) {
        const int row = rowOfRank(proxy, rank);
        QVERIFY(!proxy->index(row, ClusterRankModel::StepIntervalColumn).data(ClusterRankModel::FlaggedRole).toBool());
        QVERIFY(!proxy->index(row, ClusterRankModel::StepIntervalColumn).data(Qt::BackgroundRole).isValid());
    }
    // Columns nobody has are hidden.
    QVERIFY(panel.table()->isColumnHidden(ClusterRankModel::OverlappedColumn));
    QVERIFY(panel.table()->isColumnHidden(ClusterRankModel::StragglerColumn));
    QVERIFY(!panel.table()->isColumnHidden(ClusterRankModel::StepIntervalColumn));
    QVERIFY(!panel.table()->isColumnHidden(ClusterRankModel::FlopsColumn));
    // 16 against a mean of 11.5 ms: +39.1 %.
    QVERIFY2(panel.summaryText().contains(QLatin1String("rank 2")), qPrintable(panel.summaryText()));
    QVERIFY2(panel.summaryText().contains(QLatin1String("+39.1")), qPrintable(panel.summaryText()));
    QVERIFY2(panel.summaryText().contains(QStringLiteral("3 → 2")), qPrintable(panel.summaryText()));
}

void TstClusterPanel::sorting()
{
    ClusterPanel panel;
    panel.setCluster(fourRanks());
    panel.table()->sortByColumn(ClusterRankModel::StepIntervalColumn, Qt::DescendingOrder);
    QCOMPARE(panel.tableModel()->index(0, 0).data(ClusterRankModel::RankRole).toInt(), 2);
    panel.table()->sortByColumn(ClusterRankModel::RankColumn, Qt::DescendingOrder);
    QCOMPARE(panel.tableModel()->index(0, 0).data(ClusterRankModel::RankRole).toInt(), 3);
    QCOMPARE(panel.tableModel()->index(3, 0).data(ClusterRankModel::RankRole).toInt(), 0);
}

void TstClusterPanel::doubleClickEmitsRank()
{
    ClusterPanel panel;
    panel.setCluster(fourRanks());
    showPanel(panel);
    QSignalSpy spy(&panel, &ClusterPanel::rankActivated);
    QTreeView* view = panel.table();
    const QModelIndex index = panel.tableModel()->index(rowOfRank(panel.tableModel(), 3), ClusterRankModel::RankColumn);
    const QRect rect = view->visualRect(index);
    QVERIFY(rect.isValid());
    // A double-click is a press and release followed by a second press delivered as the double-click.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 3);

    // Double-clicking the bar of rank 1 (index 1) opens it too.
    panel.barChart()->replot();
    QCOMPARE(panel.rankIndexAt(panel.barCenter(1)), 1);
    QTest::mouseDClick(panel.barChart(), Qt::LeftButton, {}, panel.barCenter(1));
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(0).toInt(), 1);
}

void TstClusterPanel::barChart()
{
    ClusterPanel panel;
    panel.setCluster(fourRanks());
    showPanel(panel);
    // Step interval, computation, communication, other.
    QCOMPARE(panel.barChart()->plottableCount(), 4);
    auto* interval = qobject_cast<QCPBars*>(panel.barChart()->plottable(0));
    QCOMPARE(interval->data()->size(), 4);
    QCOMPARE(interval->data()->at(2)->value, 16.0);
    auto* other = qobject_cast<QCPBars*>(panel.barChart()->plottable(3));
    QVERIFY(qAbs(other->data()->at(0)->value - 2.0) < 1e-9);
    // The slowest rank is outlined.
    int marks = 0;
    for (int i = 0; i < panel.barChart()->itemCount(); ++i)
        marks += panel.barChart()->item(i)->objectName() == QLatin1String("slowestRankMark") ? 1 : 0;
    QCOMPARE(marks, 1);
    const ChartData data = panel.barChartData();
    QCOMPARE(int(data.series.size()), 4);
    QCOMPARE(data.series[2].columns.back().front(), 1.0); // slow flag of rank 2
    QCOMPARE(data.series[0].columns.back().front(), 0.0);
}

void TstClusterPanel::linkMatrix()
{
    ClusterPanel panel;
    panel.setCluster(fourRanks());
    showPanel(panel);
    // Opens on the type of the worst link.
    QCOMPARE(panel.linkType(), QStringLiteral("SDMA"));
    auto* map = qobject_cast<QCPColorMap*>(panel.linkMatrix()->plottable(0));
    QVERIFY(map);
    QCOMPARE(map->data()->keySize(), 4);
    QCOMPARE(map->data()->cell(2, 3), 12.0); // x = dst 2, y = src 3
    QCOMPARE(map->data()->cell(1, 0), 20.0);
    QVERIFY(std::isnan(map->data()->cell(2, 0))); // 0->2 is RDMA
    QCOMPARE(panel.linkMatrix()->itemCount(), 1);
    QCOMPARE(panel.linkMatrix()->item(0)->objectName(), QStringLiteral("worstLinkMark"));
    QCOMPARE(int(panel.matrixChartData().series.size()), 4);

    panel.setLinkType(QStringLiteral("RDMA"));
    QCOMPARE(map->data()->cell(2, 0), 10.0);
    QVERIFY(std::isnan(map->data()->cell(2, 3)));
    QCOMPARE(panel.linkMatrix()->itemCount(), 0);
    QCOMPARE(int(panel.matrixChartData().series.size()), 2);
}

void TstClusterPanel::groupByStage()
{
    ClusterPanel panel;
    panel.setCluster(fourRanks());
    auto* box = panel.findChild<QCheckBox*>(QStringLiteral("clusterGroupByStage"));
    QVERIFY(box && box->isEnabled());
    box->setChecked(true);
    QVERIFY(panel.isGroupedByStage());
    QCOMPARE(panel.tableModel()->rowCount(), 2);
    const QModelIndex stage2 = panel.tableModel()->index(1, 0);
    QCOMPARE(stage2.data(ClusterRankModel::StageRole).toInt(), 2);
    QCOMPARE(panel.tableModel()->rowCount(stage2), 2);
    QCOMPARE(panel.tableModel()->index(1, ClusterRankModel::StepIntervalColumn).data().toString(),
             ClusterRankModel::formatMs(13));
    QVERIFY(panel.table()->isExpanded(stage2));
}

void TstClusterPanel::exports()
{
    QTemporaryDir dir;
    ClusterPanel panel;
    panel.setCluster(fourRanks());
    showPanel(panel);
    panel.setExportDirectory(dir.path());
    QSignalSpy spy(&panel, &ClusterPanel::chartExported);
    const QString csv = panel.barExportMenu()->requestExport(ChartExporter::Format::Csv);
    QVERIFY(!csv.isEmpty());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.startsWith("rank,step_time_ms,step_interval_ms"));
    QCOMPARE(text.count('\n'), 5);
    const QString png = panel.matrixExportMenu()->requestExport(ChartExporter::Format::Png);
    QVERIFY(QFileInfo(png).size() > 0);
    QCOMPARE(spy.count(), 2);
}

void TstClusterPanel::kinetoStore()
{
    // Two ranks with steps of 1 and 2 ms: rank 1 is 33 % above the mean of 1.5 ms and flagged.
    test::AnalysisTraceBuilder t(2);
    for (int s = 0; s < 2; ++s) {
        t.builder().source(s).rank = s;
        const std::int64_t duration = s == 0 ? 1'000'000 : 2'000'000;
        t.step(s, 1, 0, duration);
        t.launch(s, 100'000, 10'000, 200'000, duration / 2, "gemm");
        t.launch(s, 150'000, 10'000, 200'000 + duration / 2, duration / 4, "ncclKernel_AllReduce");
    }
    ClusterPanel panel;
    QSignalSpy ready(&panel, &ClusterPanel::clusterReady);
    panel.setStore(t.finish());
    QVERIFY(panel.isComputing() ? ready.wait(10000) : true);
    QVERIFY(!panel.isComputing());
    QVERIFY(panel.cluster());
    QCOMPARE(int(panel.cluster()->ranks.size()), 2);
    QCOMPARE(panel.cluster()->slowestRank, 1);
    QVERIFY(!panel.table()->isColumnHidden(ClusterRankModel::OverlapRatioColumn));
    QVERIFY(!panel.table()->isColumnHidden(ClusterRankModel::IdleColumn));
    QVERIFY(panel.table()->isColumnHidden(ClusterRankModel::StepIntervalColumn));
    QVERIFY(panel.summaryText().contains(QLatin1String("rank 1")));
    QVERIFY(panel.table()->isColumnHidden(ClusterRankModel::PeakMemoryColumn));

    // Peaks from the memory model fill the column, for this cluster and for one computed later.
    panel.setPeakMemory({ { 0, 2.0e9 }, { 1, 3.0e9 } });
    QCOMPARE(panel.cluster()->ranks[1].peakMemoryBytes, 3.0e9);
    QVERIFY(!panel.table()->isColumnHidden(ClusterRankModel::PeakMemoryColumn));
    panel.setStore(nullptr);
    panel.setCluster(fourRanks());
    QCOMPARE(panel.cluster()->ranks[0].peakMemoryBytes, 2.0e9);
    QVERIFY(std::isnan(panel.cluster()->ranks[2].peakMemoryBytes));
}

void TstClusterPanel::emptyState()
{
    ClusterPanel panel;
    QVERIFY(panel.isShowingEmptyState());
    panel.setCluster(fourRanks());
    QVERIFY(!panel.isShowingEmptyState());
    panel.setCluster(std::make_shared<Cluster>());
    QVERIFY(panel.isShowingEmptyState());
    QCOMPARE(panel.tableModel()->rowCount(), 0);
    // A cluster without links: the matrix says so instead of drawing nothing.
    auto noLinks = std::make_shared<Cluster>(*fourRanks());
    noLinks->links.clear();
    noLinks->analyse();
    panel.setCluster(noLinks);
    QVERIFY(!panel.isShowingEmptyState());
    QVERIFY(!panel.findChild<QLabel*>(QStringLiteral("matrixEmptyState"))->isHidden());
    QVERIFY(panel.linkMatrix()->isHidden());
    panel.setStore(nullptr);
    QVERIFY(panel.isShowingEmptyState());
}

void TstClusterPanel::tableKeepsRowsInAShortDock()
{
    // A dock sharing the window's height with another: the rank table still shows several ranks, the
    // charts take the rest.
    auto c = std::make_shared<Cluster>();
    c->worldSize = 40;
    for (int r = 0; r < 40; ++r) {
        RankFigures f;
        f.rank = r;
        f.device = QStringLiteral("Device %1").arg(r);
        f.stepTime = 100 + r;
        f.computation = 80;
        f.communication = 10 + r % 7;
        c->ranks.push_back(f);
    }
    c->analyse();
    ClusterPanel panel;
    panel.setCluster(c);
    panel.resize(1000, 420);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTreeView* table = panel.table();
    const int rowHeight = table->sizeHintForRow(0);
    QVERIFY(rowHeight > 0);
    const int visibleRows = table->viewport()->height() / rowHeight;
    QVERIFY2(visibleRows >= 5, qPrintable(QStringLiteral("%1 rows visible").arg(visibleRows)));
    QVERIFY(panel.barChart()->height() >= 100);
}

QTEST_MAIN(TstClusterPanel)
#include "tst_clusterpanel.moc"
