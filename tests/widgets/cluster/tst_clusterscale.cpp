// The Cluster panel at a thousand ranks: the heatmap's picture (a value per cell, the colour scale, shrinking
// that keeps the slowest cell), its hover text and click, and a folder of 1,024 rank digests opening in the
// panel with the table, filter, heatmap, slowest ranks and groups.

#include "importers/cluster/rankdigestfile.h"
#include "tests/models/cluster/syntheticdigests.h"
#include "widgets/cluster/clusterpanel.h"
#include "widgets/cluster/clusterrankmodel.h"
#include "widgets/cluster/rankstepheatmap.h"
#include "widgets/cluster/rankstepimage.h"

#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

#include <cmath>

using namespace runlens;
using namespace runlens::importers::cluster;
using namespace runlens::models::cluster;
using namespace runlens::widgets;
using namespace runlens::widgets::cluster;

namespace {

/// 4 ranks × 3 steps: values row * 10 + column, rank 2 step 2 missing.
std::shared_ptr<const RankStepMatrix> smallMatrix()
{
    auto m = std::make_shared<RankStepMatrix>();
    m->ranks = { 0, 1, 2, 3 };
    m->steps = { 10, 11, 12 };
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 3; ++c)
            m->values.push_back(r == 2 && c == 1 ? NAN : float(r * 10 + c));
        m->rankMeans.push_back(r * 10 + 1.0);
    }
    m->stepMedians = { 15, 16, 17 };
    m->low = 0;
    m->high = 32;
    return m;
}

} // namespace

class TstClusterScale : public QObject
{
    Q_OBJECT
private slots:
    void imageHasOneLevelPerCell()
    {
        const RankStepImage image(smallMatrix(), smallMatrix()->rowOrder(false));
        QCOMPARE(image.rowCount(), 4);
        QCOMPARE(image.columnCount(), 3);
        QCOMPARE(image.value(1, 2), 12.0);
        QVERIFY(std::isnan(image.value(2, 1)));
        // Low end, high end, and nothing.
        QCOMPARE(int(image.level(0, 0)), 1);
        QCOMPARE(int(image.level(3, 2)), 255);
        QCOMPARE(int(image.level(2, 1)), 0);
        QCOMPARE(int(RankStepImage::levelOf(16, 0, 32)), 128);
        const auto& viridis = colorTable(ColorMap::Viridis);
        QCOMPARE(image.colorOfLevel(1), viridis.front());
        QCOMPARE(image.colorOfLevel(255), viridis.back());
        QCOMPARE(image.colorOf(32), viridis.back());
        QVERIFY(image.colorOfLevel(0) != viridis.front());

        const QImage pixels = image.image();
        QCOMPARE(pixels.size(), QSize(3, 4));
        QCOMPARE(pixels.pixel(0, 0), viridis.front());
        QCOMPARE(pixels.pixel(2, 3), viridis.back());

        // By mean: rank 3 on top.
        const RankStepImage byMean(smallMatrix(), smallMatrix()->rowOrder(true));
        QCOMPARE(byMean.matrixRow(0), 3);
        QCOMPARE(byMean.displayRowOfRank(3), 0);
        QCOMPARE(byMean.displayRowOfRank(0), 3);
    }

    void shrinkingKeepsTheLargestCell()
    {
        auto m = std::make_shared<RankStepMatrix>();
        const int ranks = 1000;
        const int steps = 500;
        for (int r = 0; r < ranks; ++r)
            m->ranks.push_back(r);
        for (int s = 0; s < steps; ++s)
            m->steps.push_back(s);
        m->values.assign(std::size_t(ranks) * steps, 100.0f);
        m->values[std::size_t(777) * steps + 333] = 200.0f; // one slow cell
        m->low = 100;
        m->high = 200;
        const RankStepImage image(m, m->rowOrder(false));
        const QImage small = image.rendered(QSize(50, 40));
        QCOMPARE(small.size(), QSize(50, 40));
        int hot = 0;
        for (int y = 0; y < small.height(); ++y) {
            for (int x = 0; x < small.width(); ++x)
                hot += small.pixel(x, y) == colorTable(ColorMap::Viridis).back() ? 1 : 0;
        }
        QCOMPARE(hot, 1);
        QCOMPARE(small.pixel(333 * 50 / steps, 777 * 40 / ranks), colorTable(ColorMap::Viridis).back());
        // Enlarging repeats cells.
        const RankStepImage tiny(smallMatrix(), smallMatrix()->rowOrder(false));
        const QImage big = tiny.rendered(QSize(30, 40));
        QCOMPARE(big.pixel(29, 39), colorTable(ColorMap::Viridis).back());
        QCOMPARE(big.pixel(0, 0), colorTable(ColorMap::Viridis).front());
    }

    void heatmapHoverAndClick()
    {
        RankStepHeatmap heatmap;
        heatmap.resize(600, 400);
        heatmap.show();
        QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
        QSignalSpy ready(&heatmap, &RankStepHeatmap::imageReady);
        heatmap.setMatrix(smallMatrix());
        QVERIFY(ready.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(!heatmap.isBuilding(), 30000);
        const QPoint cell = heatmap.cellCenter(1, 2);
        QCOMPARE(heatmap.cellAt(cell), std::make_pair(1, 2));
        const QString text = heatmap.cellText(1, 2);
        QVERIFY2(text.contains(QLatin1String("Rank 1, step 12")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("12.000 ms")) || text.contains(QLatin1String("12.00")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("-5.000 ms")), qPrintable(text)); // median 17
        QVERIFY2(text.contains(QLatin1String("-29.4 %")), qPrintable(text));
        QSignalSpy clicked(&heatmap, &RankStepHeatmap::rankClicked);
        QTest::mouseClick(&heatmap, Qt::LeftButton, {}, heatmap.cellCenter(3, 0));
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), 3);
        QCOMPARE(heatmap.selectedRank(), 3);

        // The painted picture is the rendered one, at the plot's size.
        const QImage shot = heatmap.grab().toImage();
        const QRect plot = heatmap.plotRect();
        const QPoint hot = heatmap.cellCenter(3, 2);
        QCOMPARE(shot.pixel(hot), colorTable(ColorMap::Viridis).back());
        QVERIFY(plot.contains(hot));
    }

    void thousandRankFolder()
    {
        models::cluster::synthetic::JobShape job;
        job.worldSize = 1024;
        job.steps = 100;
        job.collectiveSteps = 10;
        job.slowRanks = { 137, 612 };
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r = 0; r < job.worldSize; ++r) {
            QString error;
            QVERIFY2(writeRankDigestFile(models::cluster::synthetic::makeDigest(job, r),
                                         dir.filePath(rankDigestFileName(r)), &error),
                     qPrintable(error));
        }
        const DigestFolder folder = readRankDigestFolder(dir.path());
        QVERIFY(folder.problems.isEmpty());
        QCOMPARE(int(folder.digests.size()), 1024);

        ClusterPanel panel;
        panel.resize(1600, 1000);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy ready(&panel, &ClusterPanel::clusterReady);
        panel.setDigests(folder.digests);
        QVERIFY(ready.wait(60000));
        QCOMPARE(panel.tableModel()->rowCount(), 1024);
        // Past a few dozen ranks the panel starts on the heatmap.
        QCOMPARE(panel.chartTabs()->currentWidget(), panel.heatmap()->parentWidget());
        QTRY_VERIFY_WITH_TIMEOUT(panel.heatmap()->image() && !panel.heatmap()->isBuilding(), 20000);
        QCOMPARE(panel.heatmap()->image()->rowCount(), 1024);
        QCOMPARE(panel.heatmap()->image()->columnCount(), 100);

        // Rank labels are thinned: never closer than a line apart.
        const QRect plot = panel.heatmap()->plotRect();
        QVERIFY(plot.height() < 1024);

        // The slow ranks lead the slowest-rank counts (every step's slowest is one of them, by wait or noise).
        const SlowestRanks& slowest = panel.views().slowest;
        QCOMPARE(int(slowest.steps.size()), 100);
        // Every rank waits for the slow ones, so the slowest step time is anyone's; the wait view tells them.
        const RankStepMatrix& wait = *panel.views().waitTime;
        const std::vector<int> order = wait.rowOrder(true);
        QVERIFY(wait.ranks[std::size_t(order.back())] == 137 || wait.ranks[std::size_t(order.back())] == 612);

        // 128 tensor parallel groups of 8 and 8 data parallel groups of 128.
        QCOMPARE(int(panel.views().groups.size()), 136);
        QCOMPARE(panel.groupTable()->model()->rowCount(), 136);
        int dpOf137 = 0;
        for (const CommGroup& g : panel.views().groups) {
            if (g.ranks.size() == 128 && g.ranks.front() == 137 % 8) {
                QCOMPARE(g.slowestRank, 137);
                QCOMPARE(formatRankRanges(g.ranks).left(12), QStringLiteral("1, 9, 17, 25"));
                ++dpOf137;
            }
        }
        QCOMPARE(dpOf137, 1);
        // Strided ranks read as a progression in the table, whole in the tooltip.
        const QAbstractItemModel* groups = panel.groupTable()->model();
        bool strided = false;
        for (int row = 0; row < groups->rowCount(); ++row) {
            const QModelIndex ranks = groups->index(row, 1);
            if (ranks.data().toString() == QLatin1String("1-1017, every 8 ranks")) {
                strided = true;
                QVERIFY(ranks.data(Qt::ToolTipRole).toString().startsWith(QLatin1String("1, 9, 17")));
            }
        }
        QVERIFY(strided);

        // Filter: ranges and a percentile.
        QVERIFY(panel.setRankFilter(QStringLiteral("0-7, 16-23")));
        QCOMPARE(panel.tableModel()->rowCount(), 16);
        QVERIFY(panel.setRankFilter(QStringLiteral(">p95")));
        const int above = panel.tableModel()->rowCount();
        QVERIFY2(above >= 45 && above <= 55, qPrintable(QString::number(above)));
        QVERIFY(!panel.setRankFilter(QStringLiteral("slow ranks")));
        QCOMPARE(panel.tableModel()->rowCount(), 1024);
        QVERIFY(panel.setRankFilter(QString()));

        // Clicking a heatmap row selects the rank in the table.
        panel.setHeatmapMetric(StepMetric::WaitTime);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.heatmap()->isBuilding(), 20000);
        QCOMPARE(panel.heatmap()->matrix()->metric, StepMetric::WaitTime);
        // More rows than pixels: a pixel shows (and a click picks) the largest of the rows it covers.
        const QPoint at = panel.heatmap()->cellCenter(612, 50);
        const int row = panel.heatmap()->cellAt(at).first;
        const int shown = panel.heatmap()->matrix()->ranks[std::size_t(panel.heatmap()->image()->matrixRow(row))];
        // A thousand ranks start sorted by mean: the slow ones on top.
        QVERIFY(panel.heatmap()->rowsByMean());
        QVERIFY(std::abs(panel.heatmap()->image()->displayRowOfRank(shown)
                         - panel.heatmap()->image()->displayRowOfRank(612))
                <= 2);
        QTest::mouseClick(panel.heatmap(), Qt::LeftButton, {}, at);
        QCOMPARE(panel.selectedRank(), shown);
        QVERIFY(panel.selectRank(612));
        QCOMPARE(panel.heatmap()->selectedRank(), 612);
        QVERIFY2(panel.summaryText().contains(QLatin1String("slowest step time: rank")),
                 qPrintable(panel.summaryText()));
    }

    void heatmapAndTablesExport()
    {
        models::cluster::synthetic::JobShape job;
        job.worldSize = 64;
        job.steps = 20;
        job.collectiveSteps = 5;
        job.slowRanks = { 9 };
        std::vector<std::shared_ptr<const RankDigest>> digests;
        for (int r = 0; r < job.worldSize; ++r)
            digests.push_back(std::make_shared<const RankDigest>(models::cluster::synthetic::makeDigest(job, r)));
        ClusterPanel panel;
        panel.resize(1200, 500); // short: the default layout's Cluster dock
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy ready(&panel, &ClusterPanel::clusterReady);
        panel.setDigests(digests);
        QVERIFY(ready.wait(60000));
        QTRY_VERIFY_WITH_TIMEOUT(panel.heatmap()->image() && !panel.heatmap()->isBuilding(), 20000);

        // However short the dock, the cells keep a readable height and the rank axis's title fits beside them.
        RankStepHeatmap* heatmap = panel.heatmap();
        panel.setHeatmapRowsByMean(true);
        const QFontMetrics fm(heatmap->font());
        QVERIFY2(heatmap->plotRect().height() >= 200, qPrintable(QString::number(heatmap->plotRect().height())));
        QVERIFY(heatmap->plotRect().height() >= fm.horizontalAdvance(RankStepHeatmap::tr("Rank (slowest mean first)")));

        QTemporaryDir out;
        QString error;
        const QString png = out.filePath(QStringLiteral("heatmap.png"));
        QVERIFY2(panel.exportHeatmap(ChartExporter::Format::Png, png, &error), qPrintable(error));
        const QImage picture(png);
        QCOMPARE(picture.size(), heatmap->size() * 2);
        const QString svg = out.filePath(QStringLiteral("heatmap.svg"));
        QVERIFY2(panel.exportHeatmap(ChartExporter::Format::Svg, svg, &error), qPrintable(error));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QVERIFY(svgFile.readAll().contains("<svg"));
        QVERIFY(!panel.exportHeatmap(ChartExporter::Format::Csv, out.filePath(QStringLiteral("x.csv")), &error));

        // The tables as CSV: a header, one line per row, figures as plain numbers.
        const QByteArray groups = panel.tableCsv(panel.groupTable());
        const QList<QByteArray> lines = groups.trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + panel.groupTable()->model()->rowCount());
        QVERIFY2(lines.front().startsWith("Group,Ranks,Size,Collectives,Total time"), lines.front().constData());
        QVERIFY(!lines[1].contains(" ms"));
        const QByteArray steps = panel.tableCsv(panel.slowestStepTable());
        QCOMPARE(int(steps.count('\n')), 1 + job.steps);
        const QList<QByteArray> firstStep = steps.split('\n')[1].split(',');
        bool numeric = false;
        firstStep[2].toDouble(&numeric); // the step time, in ms
        QVERIFY2(numeric, steps.split('\n')[1].constData());
        const QString csv = out.filePath(QStringLiteral("slowest.csv"));
        QVERIFY2(panel.exportTable(panel.slowestTable(), csv, &error), qPrintable(error));
        QVERIFY(QFileInfo(csv).size() > 20);

        // The header's Export offers them on their tabs, through the file name provider the charts use.
        QStringList asked;
        panel.setExportFileNameProvider([&](ChartExporter::Format, const QString& suggested) {
            asked << QFileInfo(suggested).fileName();
            return out.filePath(QFileInfo(suggested).fileName());
        });
        QSignalSpy exported(&panel, &ClusterPanel::chartExported);
        const auto trigger = [&](QWidget* tab, const QString& text) {
            panel.chartTabs()->setCurrentWidget(tab);
            auto* button = panel.findChild<QToolButton*>(QStringLiteral("clusterExport"));
            QMenu* menu = button ? button->menu() : nullptr;
            if (!menu)
                return false;
            emit menu->aboutToShow();
            QAction* found = nullptr;
            for (QAction* a : menu->actions())
                found = a->text().startsWith(text) ? a : found;
            if (!found || !found->isEnabled())
                return false;
            found->trigger();
            return true;
        };
        QVERIFY(trigger(heatmap->parentWidget(), QStringLiteral("Export Heatmap as PNG")));
        QVERIFY(trigger(panel.groupTable(), QStringLiteral("Export Communication Groups as CSV")));
        QCOMPARE(exported.count(), 2);
        QCOMPARE(asked, (QStringList { "cluster-rank-step.png", "cluster-groups.csv" }));
        QVERIFY(QFileInfo(out.filePath(QStringLiteral("cluster-groups.csv"))).size() > 100);
    }
};

QTEST_MAIN(TstClusterScale)
#include "tst_clusterscale.moc"
