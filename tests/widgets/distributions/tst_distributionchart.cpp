#include "tests/widgets/distributions/distributionstestdata.h"

#include "widgets/common/chartexporter.h"
#include "widgets/common/chartpalette.h"
#include "widgets/distributions/distributionchart.h"
#include "widgets/distributions/distributiondata.h"

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

#include <numeric>

using namespace runlens;
using namespace runlens::widgets;
using namespace runlens::widgets::distributions;
using namespace runlens::widgets::scalars;
using runlens::test::handHistogram;
using runlens::test::histogramSeries;

namespace {

const QString kRun = QStringLiteral("alpha");
const QString kTag = QStringLiteral("conv1/weight");

// Percentile of a histogram worked out independently of Histogram::percentile: walk the cumulative counts
// to the first bucket whose upper cumulative count reaches the target and interpolate inside it.
double referencePercentile(const models::summary::Histogram& h, double fraction)
{
    std::vector<double> cumulative;
    double running = 0.0;
    for (const auto& b : h.buckets)
        cumulative.push_back(running += b.count);
    const double target = fraction * running;
    for (std::size_t i = 0; i < cumulative.size(); ++i) {
        if (h.buckets[i].count > 0 && cumulative[i] >= target) {
            const double before = cumulative[i] - h.buckets[i].count;
            return h.buckets[i].left
                + (h.buckets[i].right - h.buckets[i].left) * (target - before) / h.buckets[i].count;
        }
    }
    return h.buckets.back().right;
}

} // namespace

class TestDistributionChart : public QObject
{
    Q_OBJECT
private slots:
    void percentilesByHand()
    {
        // 10 values: 2 in [0,1], 6 in [1,2], 2 in [2,4]. The median is the 5th value: 3 into the 6 of [1,2] -> 1.5.
        // 30.85 % is 3.085 values: 1.085 into [1,2] -> 1 + 1.085 / 6. 93.32 % is 9.332: 1.332 into [2,4] -> 2 + 2
        // * 1.332 / 2.
        models::summary::HistogramSeries s;
        s.tag = kTag;
        s.items = { handHistogram(0) };
        const DistributionSeries d = prepareSeries(kRun, s);
        QCOMPARE(d.percentiles[0][kMedianIndex], 1.5);
        QVERIFY(qFuzzyCompare(d.percentiles[0][3], 1.0 + 1.085 / 6.0));
        QVERIFY(qFuzzyCompare(d.percentiles[0][7], 2.0 + 1.332));
        QCOMPARE(d.percentiles[0][0], 0.0);
        QCOMPARE(d.percentiles[0][8], 4.0);
        QCOMPARE(d.lowestEdge, 0.0);
        QCOMPARE(d.highestEdge, 4.0);
    }

    void percentilesOfBellCurves()
    {
        const auto s = histogramSeries(kTag, 8, 0.3);
        const DistributionSeries d = prepareSeries(kRun, s);
        QCOMPARE(d.size(), std::size_t(8));
        for (std::size_t i = 0; i < d.size(); ++i) {
            for (std::size_t p = 0; p < kBasisPoints.size(); ++p)
                QVERIFY(
                    qFuzzyCompare(1.0 + d.percentiles[i][p], 1.0 + referencePercentile(s.items[i], kBasisPoints[p])));
            // Bands nest: each percentile at or above the one before.
            for (std::size_t p = 1; p < kBasisPoints.size(); ++p)
                QVERIFY(d.percentiles[i][p] >= d.percentiles[i][p - 1]);
        }
    }

    void rebinKeepsCounts()
    {
        const models::summary::Histogram h = handHistogram(0);
        // Over [0, 4] in 4 bins: [0,1] 2, [1,2] 6, and [2,4]'s 2 values split evenly over [2,3] and [3,4].
        const std::vector<double> bins = rebin(h, 0.0, 4.0, 4);
        QCOMPARE(bins, (std::vector<double> { 2.0, 6.0, 1.0, 1.0 }));
        const std::vector<double> fine = rebin(h, 0.0, 4.0, 48);
        QVERIFY(qFuzzyCompare(std::accumulate(fine.begin(), fine.end(), 0.0), 10.0));
        // A zero-width bucket (all values equal) lands in one bin.
        models::summary::Histogram spike;
        spike.buckets = { { 2.0, 2.0, 7.0 } };
        const std::vector<double> one = rebin(spike, 0.0, 4.0, 4);
        QCOMPARE(one, (std::vector<double> { 0.0, 0.0, 7.0, 0.0 }));
    }

    void nonFiniteNoteNamesSteps()
    {
        auto s = histogramSeries(kTag, 10, 0.0);
        s.items[2].nanCount = 3; // step 10
        s.items[7].nanCount = 1; // step 35
        s.items[9].posInfCount = 2; // step 45
        const DistributionSeries d = prepareSeries(kRun, s);
        QCOMPARE(d.nonFiniteIndices(), (std::vector<std::size_t> { 2, 7, 9 }));
        const QString note = nonFiniteNote(d);
        QVERIFY2(note.contains(QStringLiteral("NaN at steps 10, 35")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("+Inf at step 45")), qPrintable(note));
        QVERIFY(nonFiniteNote(prepareSeries(kRun, histogramSeries(kTag, 3, 0.0))).isEmpty());
    }

    void chartDataRows()
    {
        const auto s = histogramSeries(kTag, 6, 0.2, 10);
        const DistributionSeries d = prepareSeries(kRun, s);
        const ChartData bands = chartData(d, DistributionMode::Bands);
        QCOMPARE(bands.columns.size(), 14);
        QCOMPARE(bands.columns.at(6), QStringLiteral("p50"));
        QCOMPARE(bands.rowCount(), std::size_t(6));
        QCOMPARE(bands.series[0].columns[0][2], 10.0); // step of the third row
        QCOMPARE(bands.series[0].columns[6][2], 1.5); // its median, by hand above
        const ChartData buckets = chartData(d, DistributionMode::Offset);
        QCOMPARE(buckets.rowCount(),
                 std::size_t(5 * 12 + 3)); // five bell histograms of 12 buckets and the hand one of 3
    }

    void hoverShowsTheHistogram()
    {
        models::summary::SummaryStore store;
        models::summary::SummaryBatch batch;
        batch.histograms.push_back(histogramSeries(kTag, 12, 0.1, 25));
        store.update(kRun, QStringLiteral("events.1"), batch);
        DistributionChart chart(&store, kRun, kTag);
        chart.resize(600, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.replotIfNeeded();
        QCOMPARE(chart.series().size(), std::size_t(12));

        for (DistributionMode mode : { DistributionMode::Bands, DistributionMode::Offset }) {
            chart.setMode(mode);
            chart.replotIfNeeded();
            const std::ptrdiff_t index = chart.indexOfStep(25);
            QCOMPARE(index, 5);
            const QPointF pos = chart.positionOfIndex(std::size_t(index));
            QTest::mouseMove(&chart, pos.toPoint());
            QTRY_COMPARE(chart.hoveredStep(), qint64(25));
            const QString text = chart.hoverText();
            QVERIFY2(text.contains(QStringLiteral("Step <b>25</b>")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("median <b>1.5</b>")), qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("30.85%&nbsp;1.18083")), qPrintable(text)); // 1 + 1.085 / 6
            QVERIFY2(text.contains(QStringLiteral("mean 1.6")), qPrintable(text)); // sum 16 / count 10
            QVERIFY2(text.contains(QStringLiteral("2 &ndash; 4")), qPrintable(text)); // the last bucket
            // A neighbouring step is another histogram.
            QTest::mouseMove(&chart, chart.positionOfIndex(6).toPoint());
            QTRY_COMPARE(chart.hoveredStep(), qint64(30));
            QVERIFY(!chart.hoverText().contains(QStringLiteral("median <b>1.5</b>")));
        }
    }

    void modesDrawDifferently()
    {
        models::summary::SummaryStore store;
        models::summary::SummaryBatch batch;
        batch.histograms.push_back(histogramSeries(kTag, 200, 0.01));
        store.update(kRun, QStringLiteral("events.1"), batch);
        auto chart = createDistributionChart(store, kRun, kTag);
        QCOMPARE(chart->percentileGraph(kMedianIndex)->dataCount(), 200);
        QVERIFY(chart->percentileGraph(kMedianIndex)->visible());
        QCOMPARE(chart->outlineCount(), 0);
        chart->setMode(DistributionMode::Offset);
        chart->replotIfNeeded();
        QVERIFY(!chart->percentileGraph(kMedianIndex)->visible());
        QCOMPARE(chart->outlineCount(), DistributionChart::kMaxOutlines); // 200 steps sampled down
        // The step axis reaches above step 0 to make room for the oldest outline, but labels no step there.
        QVERIFY(chart->yAxis->range().lower < 0.0);
        QVERIFY(!chart->yAxis->tickVector().isEmpty());
        for (double tick : chart->yAxis->tickVector())
            QVERIFY2(tick >= 0.0 && tick <= 995.0, qPrintable(QString::number(tick)));
    }

    void exportsPngAndCsv()
    {
        models::summary::SummaryStore store;
        models::summary::SummaryBatch batch;
        batch.histograms.push_back(histogramSeries(kTag, 9, 0.2, 20));
        store.update(kRun, QStringLiteral("events.1"), batch);
        auto chart = createDistributionChart(store, kRun, kTag);
        chart->setColor(runColor(2));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString png = dir.filePath(QStringLiteral("d.png"));
        QString error;
        QVERIFY2(chart->exportMenu()->exportTo(ChartExporter::Format::Png, png, &error), qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        // The bands are drawn: some pixels carry the run's hue.
        const QColor run = runColor(2);
        int tinted = 0;
        for (int y = 0; y < image.height(); y += 2) {
            for (int x = 0; x < image.width(); x += 2) {
                const QColor c = image.pixelColor(x, y);
                if (c.saturation() > 60 && std::abs(c.hue() - run.hue()) < 12)
                    ++tinted;
            }
        }
        QVERIFY2(tinted > 500, qPrintable(QString::number(tinted)));

        const QString csv = dir.filePath(QStringLiteral("d.csv"));
        QVERIFY2(chart->exportMenu()->exportTo(ChartExporter::Format::Csv, csv, &error), qPrintable(error));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 9);
        QVERIFY2(lines[0].startsWith("run,step,wall_time,p0,p6.68,p15.87,p30.85,p50"), lines[0].constData());
        const QList<QByteArray> row = lines[1 + 4].split(','); // step 20
        QCOMPARE(row[0], QByteArray("alpha"));
        QCOMPARE(row[1], QByteArray("20"));
        QCOMPARE(row[7], QByteArray("1.5"));

        chart->setMode(DistributionMode::Offset);
        QVERIFY2(chart->exportMenu()->exportTo(ChartExporter::Format::Csv, csv, &error), qPrintable(error));
        QFile buckets(csv);
        QVERIFY(buckets.open(QIODevice::ReadOnly));
        QCOMPARE(buckets.readAll().trimmed().split('\n').size(), 1 + 8 * 12 + 3);
        const QString svg = dir.filePath(QStringLiteral("d.svg"));
        QVERIFY2(chart->exportMenu()->exportTo(ChartExporter::Format::Svg, svg, &error), qPrintable(error));
        QVERIFY(QFileInfo(svg).size() > 1000);
    }

    void exportWithoutAWindow()
    {
        models::summary::SummaryStore store;
        models::summary::SummaryBatch batch;
        batch.histograms.push_back(histogramSeries(kTag, 7, 0.2));
        store.update(kRun, QStringLiteral("events.1"), batch);
        QTemporaryDir dir;
        QString error;
        QVERIFY(!exportDistributionChart(store, kRun, QStringLiteral("missing"), dir.filePath(QStringLiteral("x.png")),
                                         {}, { 640, 400 }, &error));
        QVERIFY2(error.contains(kTag), qPrintable(error)); // names what there is
        const QString csv = dir.filePath(QStringLiteral("x.csv"));
        QVERIFY2(exportDistributionChart(store, kRun, kTag, csv, { DistributionMode::Bands, XAxisMode::Step },
                                         { 640, 400 }, &error),
                 qPrintable(error));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().trimmed().split('\n').size(), 1 + 7);
        const QString pdf = dir.filePath(QStringLiteral("x.pdf"));
        QVERIFY2(exportDistributionChart(store, kRun, kTag, pdf, { DistributionMode::Offset, XAxisMode::WallTime },
                                         { 640, 400 }, &error),
                 qPrintable(error));
        QVERIFY(QFileInfo(pdf).size() > 1000);
    }
};

QTEST_MAIN(TestDistributionChart)
#include "tst_distributionchart.moc"
