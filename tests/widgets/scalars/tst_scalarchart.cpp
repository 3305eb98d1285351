#include "tests/widgets/scalars/scalartestdata.h"

#include "models/scalars/smoothing.h"
#include "widgets/common/chartpalette.h"
#include "widgets/scalars/scalarchart.h"
#include "widgets/scalars/scalarformat.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace runlens;
using namespace runlens::models::scalars;
using namespace runlens::widgets;
using namespace runlens::widgets::scalars;
using runlens::test::countColor;
using runlens::test::makeTag;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
const QString kRun = QStringLiteral("run");

} // namespace

class TestScalarChart : public QObject
{
    Q_OBJECT
private slots:
    void markedStep()
    {
        // Steps 0..19 at wall times 1000 + 2 s per step: step 10 is at x 10, 20 s relative, 1020 s wall.
        ScalarStore store;
        store.append(QStringLiteral("a"), { makeTag(QStringLiteral("loss"), 20, [](int i) { return 1.0 / (i + 1); }) });
        const auto chart = createScalarChart(store, QStringLiteral("loss"));
        QVERIFY(!chart->markerX());
        chart->setMarkedStep(10);
        QCOMPARE(chart->markedStep(), std::optional<qint64>(10));
        QCOMPARE(chart->markerX(), std::optional<double>(10.0));
        chart->setXAxisMode(XAxisMode::RelativeTime);
        QCOMPARE(chart->markerX(), std::optional<double>(20.0));
        chart->setXAxisMode(XAxisMode::WallTime);
        QCOMPARE(chart->markerX(), std::optional<double>(1020.0));
        // A step the series does not have is not drawn outside step mode.
        chart->setMarkedStep(500);
        QVERIFY(!chart->markerX());
        chart->setXAxisMode(XAxisMode::Step);
        QCOMPARE(chart->markerX(), std::optional<double>(500.0));
        chart->setMarkedStep(std::nullopt);
        QVERIFY(!chart->markerX());
    }

    void standaloneChart()
    {
        ScalarStore store;
        store.append(QStringLiteral("a"), { makeTag(QStringLiteral("loss"), 50, [](int i) { return 1.0 / (i + 1); }) });
        store.append(QStringLiteral("b"), { makeTag(QStringLiteral("loss"), 30, [](int i) { return 2.0 / (i + 1); }) });
        const auto chart = createScalarChart(store, QStringLiteral("loss"));
        QCOMPARE(chart->size(), QSize(800, 500));
        QCOMPARE(chart->runs(), (QStringList { QStringLiteral("a"), QStringLiteral("b") }));
        QCOMPARE(chart->smoothedGraph(QStringLiteral("a"))->pen().color(), runColor(0));
        QCOMPARE(chart->smoothedGraph(QStringLiteral("b"))->pen().color(), runColor(1));
        QVERIFY(chart->xAxis->range().contains(0) && chart->xAxis->range().contains(49));

        const ChartData data = chart->chartData();
        QCOMPARE(data.title, QStringLiteral("loss"));
        QCOMPARE(data.series.size(), std::size_t(2));
        QCOMPARE(data.columns.size(), 5);
        QCOMPARE(data.series[0].rowCount(), std::size_t(50));
        QCOMPARE(data.series[1].columns[0].back(), 29.0); // step
        QCOMPARE(data.series[1].columns[3].back(), 2.0 / 30.0); // value

        // Options are applied from the start.
        ScalarChartOptions options;
        options.smoothing = 0.0;
        options.logY = true;
        options.xAxisMode = XAxisMode::RelativeTime;
        options.hiddenRuns = { QStringLiteral("b") };
        const auto custom = createScalarChart(store, QStringLiteral("loss"), options, QSize(400, 300));
        QCOMPARE(custom->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(!custom->rawGraph(QStringLiteral("a"))->visible());
        QVERIFY(!custom->smoothedGraph(QStringLiteral("b"))->visible());
        QCOMPARE(custom->chartData().series.size(), std::size_t(1));
        QCOMPARE(custom->xAxis->label(), widgets::scalars::scalarformat::axisTitle(XAxisMode::RelativeTime));
    }

    void exportFiles_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << QStringLiteral("c.png") << QByteArray("\x89PNG");
        QTest::newRow("svg") << QStringLiteral("c.svg") << QByteArray("<?xml");
        QTest::newRow("pdf") << QStringLiteral("c.pdf") << QByteArray("%PDF");
        QTest::newRow("csv") << QStringLiteral("c.csv")
                             << QByteArray("run,step,wall_time,relative_time,value,smoothed\n");
    }

    void exportFiles()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, magic);
        ScalarStore store;
        store.append(kRun, { makeTag(QStringLiteral("train/loss"), 200, [](int i) { return std::sin(i * 0.1); }) });
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        QString error;
        QVERIFY2(exportScalarChart(store, QStringLiteral("train/loss"), path, {}, { 640, 400 }, &error),
                 qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().startsWith(magic));
        if (name.endsWith(QStringLiteral(".png"))) {
            const QImage image(path);
            QCOMPARE(image.size(), QSize(1280, 800));
            QVERIFY(countColor(image, runColor(0)) > 500);
        }
    }

    void exportUnknownTag()
    {
        ScalarStore store;
        store.append(kRun, { makeTag(QStringLiteral("loss"), 5, [](int i) { return i; }) });
        QString error;
        QVERIFY(!exportScalarChart(store, QStringLiteral("nope"), QStringLiteral("/tmp/x.png"), {}, {}, &error));
        QVERIFY(error.contains(QStringLiteral("nope")));
        QVERIFY(error.contains(QStringLiteral("loss")));
    }

    void nonFiniteValues()
    {
        ScalarStore store;
        auto tp = makeTag(QStringLiteral("loss"), 100, [](int i) { return 1.0 + 0.01 * i; });
        tp.points[10].value = kNaN;
        tp.points[50].value = kInf;
        tp.points[90].value = -kInf;
        store.append(kRun, { tp });
        const auto chart = createScalarChart(store, QStringLiteral("loss"));
        QCOMPARE(chart->nonFiniteCount(kRun), 3);
        // The lines skip the non-finite points but keep going.
        for (QCPGraph* g : { chart->smoothedGraph(kRun), chart->rawGraph(kRun) }) {
            QCOMPARE(g->data()->size(), 97);
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                QVERIFY(std::isfinite(it->value));
        }
        QVERIFY(chart->yAxis->range().upper < 10.0); // the range ignores them
        // Markers at the top (NaN, +Inf) and bottom (-Inf) edges of the plot area.
        const QList<QPointF> markers = chart->nonFiniteMarkerPositions();
        QCOMPARE(markers.size(), 3);
        const QRect plotArea = chart->axisRect()->rect();
        int top = 0;
        int bottom = 0;
        for (const QPointF& p : markers) {
            QVERIFY(plotArea.adjusted(-1, -1, 1, 1).contains(p.toPoint()));
            top += p.y() < plotArea.center().y();
            bottom += p.y() > plotArea.center().y();
        }
        QCOMPARE(top, 2);
        QCOMPARE(bottom, 1);
        // The picture shows the markers in the alert colour.
        const QImage image = chart->toPixmap().toImage();
        QVERIFY(countColor(image, alertColor(), 30) > 10);
        // The hover text names the value.
        QVERIFY(chart->hoverTextForKey(10).contains(QStringLiteral("NaN")));
        QVERIFY(chart->hoverTextForKey(50).contains(QStringLiteral("+Inf")));
        // The smoothed value passes the NaN through.
        const auto smoothed = chart->chartData().series[0].columns[4];
        QVERIFY(std::isnan(smoothed[10]));
        QVERIFY(std::isfinite(smoothed[11]));
    }

    void hoverText()
    {
        ScalarStore store;
        store.append(QStringLiteral("first<run>"),
                     { makeTag(QStringLiteral("acc"), 20, [](int i) { return i * 0.5; }) });
        store.append(QStringLiteral("second"),
                     { makeTag(
                         QStringLiteral("acc"), 20, [](int i) { return i * 0.25; }, 0, 10) });
        const auto chart = createScalarChart(store, QStringLiteral("acc"));
        const QString text = chart->hoverTextForKey(41.0);
        QVERIFY(text.contains(QStringLiteral("first&lt;run&gt;"))); // escaped
        QVERIFY(text.contains(QStringLiteral("second")));
        QVERIFY(text.contains(QStringLiteral(">19<"))); // nearest step of the first run (last point)
        QVERIFY(text.contains(QStringLiteral(">40<"))); // nearest step of the second run
        QVERIFY(text.contains(widgets::scalars::scalarformat::value(1.0))); // 4 * 0.25
        QVERIFY(text.contains(widgets::scalars::scalarformat::wallTime(1000.0 + 2.0 * 40)));
        QVERIFY(text.contains(runColor(0).name()));
        const QPointF inside = chart->axisRect()->rect().center();
        QVERIFY(!chart->hoverTextAt(inside).isEmpty());
        QVERIFY(chart->hoverTextAt(QPointF(1, 1)).isEmpty());
    }

    void downsamplesLongSeries()
    {
        ScalarStore store;
        const int n = 200000;
        store.append(
            kRun, { makeTag(QStringLiteral("loss"), n, [](int i) { return std::sin(i * 0.001) + (i % 7) * 0.01; }) });
        const auto chart = createScalarChart(store, QStringLiteral("loss"));
        const int width = chart->axisRect()->width();
        QVERIFY(width > 100);
        const int drawn = chart->smoothedGraph(kRun)->data()->size();
        QVERIFY2(drawn <= 4 * std::max(width, 800) + 2, qPrintable(QString::number(drawn)));
        QVERIFY(drawn >= width);
        // Zooming in resamples the visible range with more detail.
        chart->xAxis->setRange(1000, 2000);
        const auto data = chart->smoothedGraph(kRun)->data();
        QVERIFY(data->constBegin()->key <= 1000);
        QVERIFY((data->constEnd() - 1)->key >= 2000);
        QVERIFY(data->size() <= 4 * std::max(width, 800) + 2);
        QCOMPARE(data->size(), 1001 + 2); // every point of the range plus one neighbour each side
    }

    void constantAndSinglePoint()
    {
        ScalarStore store;
        store.append(kRun,
                     { makeTag(QStringLiteral("const"), 50, [](int) { return 0.125; }),
                       makeTag(QStringLiteral("one"), 1, [](int) { return 3.0; }) });
        const auto flat = createScalarChart(store, QStringLiteral("const"));
        const auto data = flat->smoothedGraph(kRun)->data();
        for (auto it = data->constBegin(); it != data->constEnd(); ++it)
            QCOMPARE(it->value, 0.125);
        QVERIFY(flat->yAxis->range().contains(0.125));
        QVERIFY(flat->yAxis->range().size() > 0);

        const auto single = createScalarChart(store, QStringLiteral("one"));
        QCOMPARE(single->smoothedGraph(kRun)->scatterStyle().shape(), QCPScatterStyle::ssDisc);
        QVERIFY(single->xAxis->range().contains(0));
        QVERIFY(single->yAxis->range().contains(3.0));
    }

    void logScaleSkipsNonPositive()
    {
        ScalarStore store;
        store.append(kRun, { makeTag(QStringLiteral("x"), 20, [](int i) { return i - 5.0; }) });
        ScalarChartOptions options;
        options.smoothing = 0;
        options.logY = true;
        const auto chart = createScalarChart(store, QStringLiteral("x"), options);
        QCOMPARE(chart->smoothedGraph(kRun)->data()->size(), 14); // values 1..14
        QVERIFY(chart->yAxis->range().lower > 0);
        QVERIFY(chart->yAxis->range().contains(1.0) && chart->yAxis->range().contains(14.0));
    }

    void ignoreOutliers()
    {
        ScalarStore store;
        auto tp = makeTag(QStringLiteral("loss"), 1000, [](int i) { return 1.0 + 0.1 * std::sin(i * 0.05); });
        tp.points[500].value = 1e6; // one spike
        store.append(kRun, { tp });
        ScalarChartOptions options;
        options.ignoreOutliers = true;
        const auto chart = createScalarChart(store, QStringLiteral("loss"), options);
        QVERIFY(chart->yAxis->range().upper < 2.0);
        QVERIFY(chart->yAxis->range().lower > 0.5);
        chart->setIgnoreOutliers(false);
        QVERIFY(chart->yAxis->range().upper > 1e6);
    }

    void plainWheelZoomsStandalone()
    {
        ScalarStore store;
        store.append(kRun, { makeTag(QStringLiteral("x"), 100, [](int i) { return i; }) });
        const auto chart = createScalarChart(store, QStringLiteral("x"));
        QCOMPARE(chart->wheelZoomModifiers(), Qt::NoModifier);
        const QCPRange before = chart->xAxis->range();
        const QPointF pos = chart->axisRect()->rect().center();
        QWheelEvent wheel(pos, pos, QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(chart.get(), &wheel);
        QVERIFY(chart->xAxis->range().size() < before.size());
        QVERIFY(!chart->isAutoFit());
        // New data does not move a zoomed view.
        const QCPRange zoomed = chart->xAxis->range();
        store.append(kRun,
                     { makeTag(
                         QStringLiteral("x"), 10, [](int i) { return i; }, 100) });
        chart->refreshData();
        QCOMPARE(chart->pointCount(kRun), 110);
        QCOMPARE(chart->xAxis->range(), zoomed);
    }

    void formatting()
    {
        QCOMPARE(widgets::scalars::scalarformat::compactNumber(950), QStringLiteral("950"));
        QCOMPARE(widgets::scalars::scalarformat::compactNumber(12500), QStringLiteral("12.5k"));
        QCOMPARE(widgets::scalars::scalarformat::compactNumber(3e6), QStringLiteral("3M"));
        QCOMPARE(widgets::scalars::scalarformat::compactNumber(0), QStringLiteral("0"));
        QCOMPARE(widgets::scalars::scalarformat::duration(45), QStringLiteral("45s"));
        QCOMPARE(widgets::scalars::scalarformat::duration(12 * 60 + 5), QStringLiteral("12m 5s"));
        QCOMPARE(widgets::scalars::scalarformat::duration(3 * 3600 + 20 * 60), QStringLiteral("3h 20m"));
        QCOMPARE(widgets::scalars::scalarformat::duration(2 * 86400 + 4 * 3600), QStringLiteral("2d 4h"));
        QCOMPARE(widgets::scalars::scalarformat::duration(3600), QStringLiteral("1h"));
        QCOMPARE(widgets::scalars::scalarformat::value(kNaN), QStringLiteral("NaN"));
        QCOMPARE(widgets::scalars::scalarformat::value(kInf), QStringLiteral("+Inf"));
        QCOMPARE(widgets::scalars::scalarformat::value(0.1234567), QStringLiteral("0.123457"));
    }
};

QTEST_MAIN(TestScalarChart)
#include "tst_scalarchart.moc"
