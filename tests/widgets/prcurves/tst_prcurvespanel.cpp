#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/summary/visualdlreader.h"
#include "models/summary/summarystore.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"
#include "widgets/common/chartexporter.h"
#include "widgets/prcurves/prcurvechart.h"
#include "widgets/prcurves/prcurvedata.h"
#include "widgets/prcurves/prcurvespanel.h"

#include <QComboBox>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>

#include <qcustomplot.h>

#include <cmath>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::models;
using namespace runlens::widgets;
using namespace runlens::widgets::prcurves;

namespace {

/// A classifier's scores and labels, from which the test computes a `[6, N]` curve the way the writers
/// do: a sample counts as predicted positive at threshold t when its score is >= t; the writers store 0
/// as precision where nothing is predicted positive.
struct Sample
{
    double score;
    bool positive;
};

models::summary::PrCurve makeCurve(qint64 step, const std::vector<Sample>& samples, int thresholds)
{
    models::summary::PrCurve curve;
    curve.step = step;
    curve.wallTime = 1000.0 + double(step);
    for (int i = 0; i < thresholds; ++i) {
        const double t = double(i) / (thresholds - 1);
        double tp = 0, fp = 0, tn = 0, fn = 0;
        for (const Sample& s : samples) {
            const bool predicted = s.score >= t;
            if (predicted && s.positive)
                ++tp;
            else if (predicted)
                ++fp;
            else if (s.positive)
                ++fn;
            else
                ++tn;
        }
        curve.truePositives.push_back(tp);
        curve.falsePositives.push_back(fp);
        curve.trueNegatives.push_back(tn);
        curve.falseNegatives.push_back(fn);
        curve.precision.push_back(tp / std::max(1e-7, tp + fp));
        curve.recall.push_back(tp / std::max(1e-7, tp + fn));
    }
    return curve;
}

/// Samples whose scores shift with `step`, all below 0.9 so the highest thresholds predict nothing.
std::vector<Sample> samplesForStep(qint64 step)
{
    std::vector<Sample> samples;
    const double shift = 0.05 * double(step);
    const double positives[] = { 0.35, 0.5, 0.62, 0.7, 0.81 };
    const double negatives[] = { 0.05, 0.2, 0.33, 0.45, 0.58, 0.66 };
    for (double s : positives)
        samples.push_back({ std::min(0.89, s + shift), true });
    for (double s : negatives)
        samples.push_back({ std::max(0.0, s - shift), false });
    return samples;
}

constexpr int kThresholds = 11;

models::summary::PrCurveSeries makeSeries(const QString& tag, const std::vector<qint64>& steps)
{
    models::summary::PrCurveSeries series;
    series.tag = tag;
    for (qint64 step : steps)
        series.items.push_back(makeCurve(step, samplesForStep(step), kThresholds));
    series.seen = qint64(series.items.size());
    return series;
}

void addRun(models::summary::SummaryStore& store, const QString& run, const QString& tag,
            const std::vector<qint64>& steps)
{
    models::summary::SummaryBatch batch;
    batch.prCurves.push_back(makeSeries(tag, steps));
    store.update(run, run + QStringLiteral("/events"), batch);
}

/// The (recall, precision) pairs a chart must draw for a step, computed from the samples directly:
/// precision TP / (TP + FP) only where something is predicted positive.
struct Expected
{
    int index;
    double recall;
    double precision;
};

std::vector<Expected> expectedPoints(qint64 step)
{
    std::vector<Expected> points;
    const std::vector<Sample> samples = samplesForStep(step);
    for (int i = 0; i < kThresholds; ++i) {
        const double t = double(i) / (kThresholds - 1);
        int tp = 0, fp = 0, positives = 0;
        for (const Sample& s : samples) {
            positives += s.positive ? 1 : 0;
            if (s.score >= t)
                (s.positive ? tp : fp) += 1;
        }
        if (tp + fp > 0)
            points.push_back({ i, double(tp) / positives, double(tp) / (tp + fp) });
    }
    return points;
}

void compareCurve(const QCPCurve* curve, const std::vector<Expected>& expected)
{
    QVERIFY(curve);
    QCOMPARE(curve->dataCount(), int(expected.size()));
    int k = 0;
    for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it, ++k) {
        QCOMPARE(int(it->t), expected[std::size_t(k)].index);
        QVERIFY2(std::abs(it->key - expected[std::size_t(k)].recall) < 1e-12, qPrintable(QString::number(k)));
        QVERIFY2(std::abs(it->value - expected[std::size_t(k)].precision) < 1e-12, qPrintable(QString::number(k)));
    }
}

QList<QByteArrayList> csvRows(const QByteArray& csv)
{
    QList<QByteArrayList> rows;
    for (const QByteArray& line : csv.split('\n')) {
        const QByteArray trimmed = line.trimmed();
        if (!trimmed.isEmpty())
            rows << trimmed.split(',');
    }
    return rows;
}

} // namespace

class TestPrCurvesPanel : public QObject
{
    Q_OBJECT
private slots:
    void fixtureTrimsTheUndefinedTail();
    void curvePointsMatchTheData();
    void stepSliderChangesTheCurve();
    void runsWithOtherStepsShowTheirLatestEarlierCurve();
    void tooltipAtAPoint();
    void csvRowsPerRunAndStep();
    void pngExportIsNotEmpty();
    void visibleRunsHideARun();
    void tagFilterAndEmptyStates();
    void liveUpdatesFollowTheLatestStep();
    void shortOrNonFiniteRowsAreSkipped();
    void torch2PrCurveSample();
    void storeDeletedFirst();
    void rocRatesAndAucFromTheCounts();
    void rocModeOfPrData();
    void rocOnlyTagsStayRoc();
    void rocAucMatchesThePythonOracle();
};

void TestPrCurvesPanel::fixtureTrimsTheUndefinedTail()
{
    // The fixture has scores below 0.9: thresholds 0.9 and 1.0 predict nothing and carry precision 0.
    const models::summary::PrCurve curve = makeCurve(0, samplesForStep(0), kThresholds);
    QCOMPARE(curve.precision[10], 0.0);
    QCOMPARE(curve.precision[9], 0.0);
    QCOMPARE(curve.truePositives[9] + curve.falsePositives[9], 0.0);
    const std::vector<int> entries = definedEntries(curve);
    QCOMPARE(int(entries.size()), int(expectedPoints(0).size()));
    QCOMPARE(entries.back(), 8);
    QVERIFY(!isDefinedEntry(curve, 9));
    QVERIFY(isDefinedEntry(curve, 0));
}

void TestPrCurvesPanel::curvePointsMatchTheData()
{
    models::summary::SummaryStore store;
    addRun(store, QStringLiteral("a"), QStringLiteral("pr/cls0"), { 1, 2, 3 });
    PrCurvesPanel panel(&store);
    panel.flushPendingUpdates();
    QCOMPARE(panel.tags(), QStringList { QStringLiteral("pr/cls0") });
    PrCurveChart* chart = panel.chartForTag(QStringLiteral("pr/cls0"));
    QVERIFY(chart);
    QCOMPARE(chart->steps(), (std::vector<qint64> { 1, 2, 3 }));
    QCOMPARE(chart->currentStep(), qint64(3)); // the latest by default
    compareCurve(chart->curveForRun(QStringLiteral("a")), expectedPoints(3));
    // No point at the writer's placeholder (0 precision) of the empty high thresholds.
    const QCPCurve* curve = chart->curveForRun(QStringLiteral("a"));
    for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it)
        QVERIFY(it->value > 0.0);
    QCOMPARE(chart->plot()->xAxis->range().lower < 0.0 && chart->plot()->xAxis->range().upper > 1.0, true);
}

void TestPrCurvesPanel::stepSliderChangesTheCurve()
{
    models::summary::SummaryStore store;
    addRun(store, QStringLiteral("a"), QStringLiteral("pr"), { 1, 2, 3 });
    PrCurvesPanel panel(&store);
    panel.resize(900, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    PrCurveChart* chart = panel.chartForTag(QStringLiteral("pr"));
    QSlider* slider = chart->stepSlider();
    QVERIFY(slider->isEnabled());
    QCOMPARE(slider->maximum(), 2);
    QCOMPARE(slider->value(), 2);
    QSignalSpy spy(chart, &PrCurveChart::currentStepChanged);

    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_Home);
    QCOMPARE(chart->currentStep(), qint64(1));
    QCOMPARE(spy.count(), 1);
    compareCurve(chart->curveForRun(QStringLiteral("a")), expectedPoints(1));
    QVERIFY(chart->stepLabel()->text().contains(QStringLiteral("1 (1/3)")));

    QTest::keyClick(slider, Qt::Key_Right);
    QCOMPARE(chart->currentStep(), qint64(2));
    compareCurve(chart->curveForRun(QStringLiteral("a")), expectedPoints(2));
    // The steps really differ.
    const std::vector<Expected> one = expectedPoints(1);
    const std::vector<Expected> two = expectedPoints(2);
    QVERIFY(one.size() != two.size()
            || !std::equal(one.begin(), one.end(), two.begin(), [](const ::Expected& x, const ::Expected& y) {
                   return x.recall == y.recall && x.precision == y.precision;
               }));

    // Snaps to the nearest step with a curve.
    chart->setCurrentStep(100);
    QCOMPARE(chart->currentStep(), qint64(3));
    QCOMPARE(slider->value(), 2);
}

void TestPrCurvesPanel::runsWithOtherStepsShowTheirLatestEarlierCurve()
{
    models::summary::SummaryStore store;
    addRun(store, QStringLiteral("a"), QStringLiteral("pr"), { 1, 3 });
    addRun(store, QStringLiteral("b"), QStringLiteral("pr"), { 2 });
    PrCurvesPanel panel(&store);
    PrCurveChart* chart = panel.chartForTag(QStringLiteral("pr"));
    QCOMPARE(chart->steps(), (std::vector<qint64> { 1, 2, 3 }));
    QCOMPARE(chart->shownStep(QStringLiteral("a")), std::optional<qint64>(3));
    QCOMPARE(chart->shownStep(QStringLiteral("b")), std::optional<qint64>(2));
    compareCurve(chart->curveForRun(QStringLiteral("b")), expectedPoints(2));
    chart->setCurrentStep(1);
    QCOMPARE(chart->shownRuns(), QStringList { QStringLiteral("a") }); // b had written nothing yet
    QVERIFY(!chart->curveForRun(QStringLiteral("b"))->visible());
    QCOMPARE(chart->plot()->legend->itemCount(), 1);
    chart->setCurrentStep(2);
    QCOMPARE(chart->shownStep(QStringLiteral("a")), std::optional<qint64>(1));
    QCOMPARE(chart->plot()->legend->itemCount(), 2);
    // The runs have different colours.
    QVERIFY(chart->curveForRun(QStringLiteral("a"))->pen().color()
            != chart->curveForRun(QStringLiteral("b"))->pen().color());
    // The application's colours win when it provides them.
    panel.setRunColorProvider(
        [](const QString& run) { return run == QLatin1String("b") ? QColor(Qt::magenta) : QColor(); });
    QCOMPARE(chart->curveForRun(QStringLiteral("b"))->pen().color(), QColor(Qt::magenta));
}

void TestPrCurvesPanel::tooltipAtAPoint()
{
    models::summary::SummaryStore store;
    addRun(store, QStringLiteral("run-1"), QStringLiteral("pr"), { 4 });
    PrCurvesPanel panel(&store);
    panel.resize(700, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    PrCurveChart* chart = panel.chartForTag(QStringLiteral("pr"));
    chart->plot()->replot();

    const std::vector<PrPoint> points = chart->shownPoints(QStringLiteral("run-1"));
    const std::vector<Expected> expected = expectedPoints(4);
    QCOMPARE(points.size(), expected.size());
    // A point that no other threshold shares (equal counts at neighbouring thresholds draw at one place).
    std::size_t k = expected.size();
    for (std::size_t j = 1; j < expected.size() && k == expected.size(); ++j) {
        const bool unique = std::none_of(expected.begin(), expected.end(), [&](const ::Expected& e) {
            return e.index != expected[j].index && e.recall == expected[j].recall
                && e.precision == expected[j].precision;
        });
        if (unique)
            k = j;
    }
    QVERIFY(k < expected.size());
    const PrPoint& target = points[k];
    QCOMPARE(target.index, expected[k].index);
    const QPoint pos = chart->pixelPosition(target).toPoint() + QPoint(1, -1);
    QTest::mouseMove(chart->plot(), pos);
    QTRY_VERIFY(!chart->hoverText().isEmpty());
    if (qEnvironmentVariableIsSet("RUNLENS_SCREENSHOT_DIR"))
        chart->grab().save(QDir(qEnvironmentVariable("RUNLENS_SCREENSHOT_DIR")).filePath(QStringLiteral("hover.png")));

    // The expected text from the samples, independently of the chart's point.
    const std::vector<Sample> samples = samplesForStep(4);
    const double t = double(expected[k].index) / (kThresholds - 1);
    int tp = 0, fp = 0, tn = 0, fn = 0;
    for (const ::Sample& s : samples) {
        const bool predicted = s.score >= t;
        (predicted ? (s.positive ? tp : fp) : (s.positive ? fn : tn)) += 1;
    }
    const QString text = chart->hoverText();
    QVERIFY2(text.contains(QStringLiteral("run-1")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("step 4")), qPrintable(text));
    auto cell = [](const QString& name, const QString& value) {
        return QStringLiteral("<td>%1</td><td align=right>%2</td>").arg(name, value);
    };
    QVERIFY2(text.contains(cell(QStringLiteral("Threshold"), QString::number(t, 'f', 4))), qPrintable(text));
    QVERIFY2(text.contains(cell(QStringLiteral("Precision"), QString::number(double(tp) / (tp + fp), 'f', 4))),
             qPrintable(text));
    QVERIFY2(text.contains(cell(QStringLiteral("Recall"), QString::number(double(tp) / (tp + fn), 'f', 4))),
             qPrintable(text));
    QVERIFY(text.contains(cell(QStringLiteral("TP"), QString::number(tp))));
    QVERIFY(text.contains(cell(QStringLiteral("FP"), QString::number(fp))));
    QVERIFY(text.contains(cell(QStringLiteral("TN"), QString::number(tn))));
    QVERIFY(text.contains(cell(QStringLiteral("FN"), QString::number(fn))));

    // Outside the plot area there is no point.
    QVERIFY(!chart->pointNear(QPointF(1, 1)));
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(chart->plot(), &leave);
    QVERIFY(chart->hoverText().isEmpty());
}

void TestPrCurvesPanel::csvRowsPerRunAndStep()
{
    models::summary::SummaryStore store;
    addRun(store, QStringLiteral("a"), QStringLiteral("pr"), { 1, 2 });
    addRun(store, QStringLiteral("b"), QStringLiteral("pr"), { 2 });
    PrCurvesPanel panel(&store);
    QTemporaryDir dir;
    panel.setExportDirectory(dir.path());
    PrCurveChart* chart = panel.chartForTag(QStringLiteral("pr"));
    QSignalSpy exported(&panel, &PrCurvesPanel::chartExported);
    const QString file = chart->exportMenu()->requestExport(ChartExporter::Format::Csv);
    QVERIFY(!file.isEmpty());
    QCOMPARE(exported.count(), 1);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArrayList> rows = csvRows(f.readAll());
    QCOMPARE(rows.front(),
             (QByteArrayList { "run", "step", "threshold", "precision", "recall", "tp", "fp", "tn", "fn" }));
    const std::vector<Expected> expected = expectedPoints(2);
    QCOMPARE(rows.size(), qsizetype(1 + 2 * expected.size()));
    for (int r = 0; r < 2; ++r) {
        for (std::size_t k = 0; k < expected.size(); ++k) {
            const QByteArrayList& row = rows[qsizetype(1 + r * expected.size() + k)];
            QCOMPARE(row[0], r == 0 ? QByteArray("a") : QByteArray("b"));
            QCOMPARE(row[1].toInt(), 2);
            QCOMPARE(row[2].toDouble(), double(expected[k].index) / (kThresholds - 1));
            QVERIFY(std::abs(row[3].toDouble() - expected[k].precision) < 1e-12);
            QVERIFY(std::abs(row[4].toDouble() - expected[k].recall) < 1e-12);
            // Counts add up to the sample count.
            const double total = row[5].toDouble() + row[6].toDouble() + row[7].toDouble() + row[8].toDouble();
            QCOMPARE(total, double(samplesForStep(2).size()));
        }
    }
}

void TestPrCurvesPanel::pngExportIsNotEmpty()
{
    models::summary::SummaryStore store;
    addRun(store, QStringLiteral("a"), QStringLiteral("pr/cls0"), { 1, 2, 3 });
    addRun(store, QStringLiteral("b"), QStringLiteral("pr/cls0"), { 1 }); // a curve of its own at step 3
    addRun(store, QStringLiteral("b"), QStringLiteral("pr/cls1"), { 5 });
    PrCurvesPanel panel(&store);
    panel.resize(1000, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTemporaryDir dir;
    panel.setExportDirectory(dir.path());
    PrCurveChart* chart = panel.chartForTag(QStringLiteral("pr/cls0"));
    const QString file = dir.filePath(QStringLiteral("pr.png"));
    QString error;
    QVERIFY2(chart->exportMenu()->exportTo(ChartExporter::Format::Png, file, &error), qPrintable(error));
    QImage image(file);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 200 && image.height() > 200);
    // The run colours are in the picture.
    const QColor a = chart->curveForRun(QStringLiteral("a"))->pen().color();
    const QColor b = chart->curveForRun(QStringLiteral("b"))->pen().color();
    auto near = [](QRgb p, const QColor& c) {
        return std::abs(qRed(p) - c.red()) < 12 && std::abs(qGreen(p) - c.green()) < 12
            && std::abs(qBlue(p) - c.blue()) < 12;
    };
    int aPixels = 0, bPixels = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            aPixels += near(p, a) ? 1 : 0;
            bPixels += near(p, b) ? 1 : 0;
        }
    }
    QVERIFY2(aPixels > 100, qPrintable(QString::number(aPixels)));
    QVERIFY2(bPixels > 100, qPrintable(QString::number(bPixels)));
    if (qEnvironmentVariableIsSet("RUNLENS_SCREENSHOT_DIR"))
        panel.grab().save(
            QDir(qEnvironmentVariable("RUNLENS_SCREENSHOT_DIR")).filePath(QStringLiteral("prcurves.png")));
    for (auto format : { ChartExporter::Format::Svg, ChartExporter::Format::Pdf }) {
        const QString path = dir.filePath(QStringLiteral("pr.") + ChartExporter::suffix(format));
        QVERIFY(chart->exportMenu()->exportTo(format, path));
        QVERIFY(QFileInfo(path).size() > 1000);
    }
}

void TestPrCurvesPanel::visibleRunsHideARun()
{
    models::summary::SummaryStore store;
    addRun(store, QStringLiteral("a"), QStringLiteral("pr"), { 1, 2 });
    addRun(store, QStringLiteral("b"), QStringLiteral("pr"), { 3 });
    addRun(store, QStringLiteral("a"), QStringLiteral("only-a"), { 1 });
    PrCurvesPanel panel(&store);
    PrCurveChart* chart = panel.chartForTag(QStringLiteral("pr"));
    QCOMPARE(chart->shownRuns(), (QStringList { QStringLiteral("a"), QStringLiteral("b") }));
    QCOMPARE(panel.visibleTags(), (QStringList { QStringLiteral("only-a"), QStringLiteral("pr") }));

    panel.setVisibleRuns({ QStringLiteral("b") });
    QCOMPARE(chart->shownRuns(), QStringList { QStringLiteral("b") });
    QVERIFY(!chart->curveForRun(QStringLiteral("a"))->visible());
    QVERIFY(chart->curveForRun(QStringLiteral("b"))->visible());
    QCOMPARE(chart->steps(), std::vector<qint64> { 3 }); // the slider holds the shown runs' steps
    QVERIFY(!chart->stepSlider()->isEnabled());
    QCOMPARE(chart->chartData().series.size(), std::size_t(1));
    QCOMPARE(chart->chartData().series.front().name, QStringLiteral("b"));
    QCOMPARE(panel.visibleTags(), QStringList { QStringLiteral("pr") }); // b has no "only-a"
    QVERIFY(!panel.chartForTag(QStringLiteral("only-a"))->isVisibleTo(&panel));

    panel.setVisibleRuns({ QStringLiteral("c") });
    QVERIFY(panel.visibleTags().isEmpty());
    QVERIFY(panel.emptyStateText().contains(QStringLiteral("selected runs")));

    panel.setVisibleRuns({});
    QCOMPARE(chart->shownRuns(), (QStringList { QStringLiteral("a"), QStringLiteral("b") }));
    QVERIFY(panel.emptyStateText().isEmpty());
}

void TestPrCurvesPanel::tagFilterAndEmptyStates()
{
    models::summary::SummaryStore store;
    PrCurvesPanel panel(&store);
    auto* empty = panel.findChild<QLabel*>(QStringLiteral("emptyState"));
    QVERIFY(empty);
    QVERIFY(empty->text().contains(QStringLiteral("No PR or ROC curves")));
    QVERIFY(panel.charts().isEmpty());

    addRun(store, QStringLiteral("a"), QStringLiteral("pr/cat"), { 1 });
    addRun(store, QStringLiteral("a"), QStringLiteral("pr/dog"), { 1 });
    panel.flushPendingUpdates();
    QCOMPARE(panel.charts().size(), 2);
    QVERIFY(empty->text().isEmpty());

    auto* filter = panel.findChild<QLineEdit*>(QStringLiteral("tagFilter"));
    QVERIFY(filter);
    QTest::keyClicks(filter, QStringLiteral("DOG"));
    QCOMPARE(panel.visibleTags(), QStringList { QStringLiteral("pr/dog") });
    QTest::keyClicks(filter, QStringLiteral("(")); // invalid: the last valid filter stays
    QVERIFY(!panel.isTagFilterValid());
    QCOMPARE(panel.visibleTags(), QStringList { QStringLiteral("pr/dog") });
    panel.setTagFilter(QStringLiteral("bird"));
    QVERIFY(panel.isTagFilterValid());
    QVERIFY(panel.visibleTags().isEmpty());
    QVERIFY(empty->text().contains(QStringLiteral("bird")));
    panel.setTagFilter({});
    QCOMPARE(panel.visibleTags().size(), 2);

    store.clear();
    panel.flushPendingUpdates();
    QVERIFY(panel.charts().isEmpty());
    QVERIFY(empty->text().contains(QStringLiteral("No PR or ROC curves")));
}

void TestPrCurvesPanel::liveUpdatesFollowTheLatestStep()
{
    models::summary::SummaryStore store;
    addRun(store, QStringLiteral("a"), QStringLiteral("pr"), { 1, 2 });
    PrCurvesPanel panel(&store);
    PrCurveChart* chart = panel.chartForTag(QStringLiteral("pr"));
    QCOMPARE(chart->currentStep(), qint64(2));

    // A later poll of the same file brings step 3: the chart follows, after the coalescing delay.
    addRun(store, QStringLiteral("a"), QStringLiteral("pr"), { 1, 2, 3 });
    QTRY_COMPARE(chart->currentStep(), qint64(3));
    compareCurve(chart->curveForRun(QStringLiteral("a")), expectedPoints(3));

    // Once the user looks at an earlier step, new data leaves it there.
    chart->setCurrentStep(1);
    addRun(store, QStringLiteral("a"), QStringLiteral("pr"), { 1, 2, 3, 4 });
    panel.flushPendingUpdates();
    QCOMPARE(chart->steps().size(), std::size_t(4));
    QCOMPARE(chart->currentStep(), qint64(1));

    // A new tag gets its chart.
    addRun(store, QStringLiteral("b"), QStringLiteral("pr2"), { 7 });
    panel.flushPendingUpdates();
    QVERIFY(panel.chartForTag(QStringLiteral("pr2")));
}

void TestPrCurvesPanel::shortOrNonFiniteRowsAreSkipped()
{
    models::summary::PrCurve curve;
    curve.precision = { 0.5, std::nan(""), 0.75, 1.0 };
    curve.recall = { 1.0, 0.8, 0.5 }; // one short
    QCOMPARE(definedEntries(curve), (std::vector<int> { 0, 2 })); // no count rows: the ratios decide
    curve.truePositives = { 4, 4, 3 };
    curve.falsePositives = { 4, 2, 0 };
    QCOMPARE(definedEntries(curve), (std::vector<int> { 0, 2 }));
    curve.falsePositives = { 4, 2, 0 };
    curve.truePositives = { 4, 4, 0 };
    QCOMPARE(definedEntries(curve), std::vector<int> { 0 });

    models::summary::SummaryStore store;
    models::summary::SummaryBatch batch;
    models::summary::PrCurveSeries series;
    series.tag = QStringLiteral("odd");
    series.items.push_back(curve);
    batch.prCurves.push_back(series);
    store.update(QStringLiteral("a"), QStringLiteral("f"), batch);
    PrCurvesPanel panel(&store);
    PrCurveChart* chart = panel.chartForTag(QStringLiteral("odd"));
    QCOMPARE(chart->curveForRun(QStringLiteral("a"))->dataCount(), 1);
    QCOMPARE(chart->chartData().rowCount(), std::size_t(1));
    QCOMPARE(formatCount(3.0), QStringLiteral("3"));
    QCOMPARE(formatCount(2.5), QStringLiteral("2.5"));
}

void TestPrCurvesPanel::torch2PrCurveSample()
{
    RUNLENS_REQUIRE_SAMPLES(root);
    const QString folder = root + QStringLiteral("/summaries/tensorboard/torch2_pr_curve");
    const QString file = folder + QStringLiteral("/events.out.tfevents.1771596445.zyzkings.30376.0");

    // The values as an independent wire-format decoder reads them.
    RUNLENS_PYTHON_ORACLE(decoded, { QStringLiteral(RUNLENS_TEST_DATA_DIR "/summary/summary_sample_decode.py"), file });
    const QJsonObject tags = QJsonDocument::fromJson(decoded.toUtf8()).object().value(QLatin1String("tags")).toObject();
    QCOMPARE(tags.size(), 1);
    const QString tag = tags.begin().key();
    const QJsonObject oracle = tags.begin().value().toObject();
    const QJsonArray oracleSteps = oracle.value(QLatin1String("steps")).toArray();
    const QJsonArray oracleValues = oracle.value(QLatin1String("values")).toArray();
    QCOMPARE(oracleSteps.size(), 5);

    const RunManifest manifest = RunScanner().scan(folder);
    ImportSession session(manifest);
    models::summary::SummaryStore store;
    PrCurvesPanel panel(&store);
    connect(&session, &ImportSession::summariesArrived, &store, &models::summary::SummaryStore::update);
    session.importBlocking();
    panel.flushPendingUpdates();
    QCOMPARE(panel.tags(), QStringList { tag });
    PrCurveChart* chart = panel.chartForTag(tag);
    QVERIFY(chart);
    QCOMPARE(chart->runs().size(), 1);
    const QString run = chart->runs().front();
    QCOMPARE(int(chart->steps().size()), 5);
    QCOMPARE(chart->currentStep(), qint64(oracleSteps.last().toDouble()));

    for (int s = 0; s < oracleSteps.size(); ++s) {
        chart->setCurrentStep(qint64(oracleSteps[s].toDouble()));
        const QJsonArray rows = oracleValues[s].toObject().value(QLatin1String("rows")).toArray();
        QCOMPARE(rows.size(), 6);
        const int n = int(rows[0].toArray().size());
        QCOMPARE(n, 127);
        // Expected: the entries where something is predicted positive, precision and recall from the counts.
        std::vector<Expected> expected;
        for (int i = 0; i < n; ++i) {
            const double tp = rows[0].toArray()[i].toDouble();
            const double fp = rows[1].toArray()[i].toDouble();
            const double fn = rows[3].toArray()[i].toDouble();
            if (tp + fp > 0)
                expected.push_back({ i, tp / (tp + fn), tp / (tp + fp) });
        }
        const QCPCurve* curve = chart->curveForRun(run);
        QCOMPARE(curve->dataCount(), int(expected.size()));
        int k = 0;
        for (auto it = curve->data()->constBegin(); it != curve->data()->constEnd(); ++it, ++k) {
            QCOMPARE(int(it->t), expected[std::size_t(k)].index);
            // The file holds float32 ratios; the counts give them exactly.
            QVERIFY(std::abs(it->key - expected[std::size_t(k)].recall) < 1e-6);
            QVERIFY(std::abs(it->value - expected[std::size_t(k)].precision) < 1e-6);
        }
    }
    // The first steps end with a threshold that predicts nothing: one point fewer than the last step.
    chart->setCurrentStep(0);
    QCOMPARE(chart->curveForRun(run)->dataCount(), 126);
    chart->setCurrentStep(4);
    QCOMPARE(chart->curveForRun(run)->dataCount(), 127);
    QCOMPARE(ChartExporter::toCsv(chart->chartData()).count('\n'), 1 + 127);
}

void TestPrCurvesPanel::storeDeletedFirst()
{
    auto store = std::make_unique<models::summary::SummaryStore>();
    addRun(*store, QStringLiteral("a"), QStringLiteral("pr"), { 1 });
    PrCurvesPanel panel(store.get());
    QCOMPARE(panel.charts().size(), 1);
    store.reset();
    QVERIFY(panel.charts().isEmpty());
    QVERIFY(panel.emptyStateText().contains(QStringLiteral("No PR or ROC curves")));
}

namespace {

/// The ROC points of the samples at the chart's thresholds, sorted by FPR then TPR, with the ends (0, 0)
/// and (1, 1): what the trapezoid AUC is computed over, from the samples rather than the curve's counts.
double sampleAuc(const std::vector<Sample>& samples)
{
    int positives = 0;
    int negatives = 0;
    for (const Sample& s : samples)
        (s.positive ? positives : negatives) += 1;
    std::vector<std::pair<double, double>> points { { 0.0, 0.0 }, { 1.0, 1.0 } };
    for (int i = 0; i < kThresholds; ++i) {
        const double t = double(i) / (kThresholds - 1);
        int tp = 0, fp = 0;
        for (const Sample& s : samples) {
            if (s.score >= t)
                (s.positive ? tp : fp) += 1;
        }
        points.emplace_back(double(fp) / negatives, double(tp) / positives);
    }
    std::sort(points.begin(), points.end());
    double area = 0.0;
    for (std::size_t k = 1; k < points.size(); ++k)
        area += (points[k].first - points[k - 1].first) * (points[k].second + points[k - 1].second) / 2.0;
    return area;
}

void addRocRun(models::summary::SummaryStore& store, const QString& run, const QString& tag,
               const std::vector<qint64>& steps)
{
    models::summary::SummaryBatch batch;
    batch.rocCurves.push_back(makeSeries(tag, steps));
    store.update(run, run + QStringLiteral("/vdlrecords.1.log"), batch);
}

} // namespace

void TestPrCurvesPanel::rocRatesAndAucFromTheCounts()
{
    models::summary::PrCurve curve = makeCurve(0, samplesForStep(0), kThresholds);
    QCOMPARE(int(rocEntries(curve).size()), kThresholds); // both classes everywhere: every entry has a point
    QCOMPARE(truePositiveRate(curve, 0), 1.0);
    QCOMPARE(falsePositiveRate(curve, 0), 1.0);
    QCOMPARE(truePositiveRate(curve, 10), 0.0);
    QVERIFY(std::abs(rocAuc(curve) - sampleAuc(samplesForStep(0))) < 1e-12);
    // A perfect ranking has area 1, the reversed one 0.
    const std::vector<Sample> perfect { { 0.9, true }, { 0.8, true }, { 0.2, false }, { 0.1, false } };
    QVERIFY(std::abs(rocAuc(makeCurve(0, perfect, kThresholds)) - 1.0) < 1e-12);
    const std::vector<Sample> reversed { { 0.1, true }, { 0.2, true }, { 0.8, false }, { 0.9, false } };
    QVERIFY(std::abs(rocAuc(makeCurve(0, reversed, kThresholds))) < 1e-12);
    // Without negatives FPR is undefined: no point, no AUC.
    const std::vector<Sample> onlyPositives { { 0.3, true }, { 0.7, true } };
    const models::summary::PrCurve single = makeCurve(0, onlyPositives, kThresholds);
    QVERIFY(rocEntries(single).empty());
    QVERIFY(std::isnan(rocAuc(single)));
    // Missing counts (a writer that stored only ratios) give no ROC curve.
    curve.trueNegatives.clear();
    QVERIFY(rocEntries(curve).empty());
}

void TestPrCurvesPanel::rocModeOfPrData()
{
    models::summary::SummaryStore store;
    addRun(store, QStringLiteral("a"), QStringLiteral("pr"), { 1, 2 });
    addRun(store, QStringLiteral("b"), QStringLiteral("pr"), { 2 });
    PrCurvesPanel panel(&store);
    panel.resize(900, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    PrCurveChart* chart = panel.chartForTag(QStringLiteral("pr"));
    QVERIFY(chart);
    QCOMPARE(chart->mode(), CurveMode::PrecisionRecall);

    // The header's mode selector switches every PR chart.
    auto* box = panel.findChild<QComboBox*>(QStringLiteral("curveMode"));
    QVERIFY(box);
    QSignalSpy modeSpy(&panel, &PrCurvesPanel::modeChanged);
    box->setCurrentIndex(box->findData(int(CurveMode::Roc)));
    QCOMPARE(panel.mode(), CurveMode::Roc);
    QCOMPARE(modeSpy.count(), 1);
    QCOMPARE(chart->mode(), CurveMode::Roc);
    QCOMPARE(chart->plot()->xAxis->label(), QStringLiteral("False positive rate"));
    QCOMPARE(chart->plot()->yAxis->label(), QStringLiteral("True positive rate"));

    // TPR over FPR per threshold, from the samples; the curve is closed at (1, 1) and (0, 0).
    const std::vector<Sample> samples = samplesForStep(2);
    const QCPCurve* curve = chart->curveForRun(QStringLiteral("a"));
    QCOMPARE(curve->dataCount(), kThresholds + 2);
    auto it = curve->data()->constBegin();
    QCOMPARE(it->key, 1.0);
    QCOMPARE(it->value, 1.0);
    ++it;
    for (int i = 0; i < kThresholds; ++i, ++it) {
        const double t = double(i) / (kThresholds - 1);
        int tp = 0, fp = 0, p = 0, n = 0;
        for (const ::Sample& s : samples) {
            (s.positive ? p : n) += 1;
            if (s.score >= t)
                (s.positive ? tp : fp) += 1;
        }
        QCOMPARE(int(it->t), i);
        QVERIFY(std::abs(it->key - double(fp) / n) < 1e-12);
        QVERIFY(std::abs(it->value - double(tp) / p) < 1e-12);
    }
    QCOMPARE(it->key, 0.0);
    QCOMPARE(it->value, 0.0);

    // The legend names each run's AUC.
    const double auc = sampleAuc(samples);
    QVERIFY(std::abs(chart->shownAuc(QStringLiteral("a")) - auc) < 1e-12);
    QVERIFY2(curve->name().contains(QStringLiteral("AUC %1").arg(auc, 0, 'f', 4)), qPrintable(curve->name()));

    // The tooltip gives the threshold and both rates.
    chart->plot()->replot();
    const std::vector<PrPoint> points = chart->shownPoints(QStringLiteral("a"));
    const PrPoint& target = points[5];
    QTest::mouseMove(chart->plot(), chart->pixelPosition(target).toPoint());
    QTRY_VERIFY(!chart->hoverText().isEmpty());
    const QString text = chart->hoverText();
    QVERIFY2(text.contains(QStringLiteral("True positive rate")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("False positive rate")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Threshold")), qPrintable(text));

    // CSV has the rates as columns.
    const QList<QByteArrayList> rows = csvRows(ChartExporter::toCsv(chart->chartData()));
    QVERIFY(rows.size() > 1);
    QVERIFY2(rows[0].contains("tpr") && rows[0].contains("fpr") && !rows[0].contains("precision"),
             rows[0].join(',').constData());

    // The Compare Runs selection narrows it as in PR mode.
    panel.setVisibleRuns({ QStringLiteral("b") });
    QCOMPARE(chart->shownRuns(), QStringList { QStringLiteral("b") });
    panel.setVisibleRuns({});

    // Back to PR: precision over recall again, no AUC.
    panel.setMode(CurveMode::PrecisionRecall);
    QCOMPARE(box->currentData().toInt(), int(CurveMode::PrecisionRecall));
    QCOMPARE(chart->plot()->xAxis->label(), QStringLiteral("Recall"));
    compareCurve(chart->curveForRun(QStringLiteral("a")), expectedPoints(2));
    QVERIFY(!chart->curveForRun(QStringLiteral("a"))->name().contains(QStringLiteral("AUC")));
    if (qEnvironmentVariableIsSet("RUNLENS_SCREENSHOT_DIR"))
        panel.grab().save(QDir(qEnvironmentVariable("RUNLENS_SCREENSHOT_DIR")).filePath(QStringLiteral("roc.png")));
}

void TestPrCurvesPanel::rocOnlyTagsStayRoc()
{
    models::summary::SummaryStore store;
    addRun(store, QStringLiteral("a"), QStringLiteral("pr"), { 1 });
    addRocRun(store, QStringLiteral("a"), QStringLiteral("roc"), { 1, 3 });
    addRocRun(store, QStringLiteral("c"), QStringLiteral("roc"), { 2 });
    PrCurvesPanel panel(&store);
    panel.flushPendingUpdates();
    QCOMPARE(panel.tags(), QStringList { QStringLiteral("pr") });
    QCOMPARE(panel.rocTags(), QStringList { QStringLiteral("roc") });
    QCOMPARE(panel.charts().size(), 2);
    PrCurveChart* roc = panel.rocChartForTag(QStringLiteral("roc"));
    QVERIFY(roc);
    QVERIFY(roc->isRocOnly());
    QCOMPARE(panel.mode(), CurveMode::PrecisionRecall);
    QCOMPARE(roc->mode(), CurveMode::Roc); // ROC-only data is always shown as ROC
    QVERIFY(panel.findChild<QComboBox*>(QStringLiteral("curveMode"))->isEnabled());
    roc->setMode(CurveMode::PrecisionRecall);
    QCOMPARE(roc->mode(), CurveMode::Roc);
    QCOMPARE(roc->runs(), (QStringList { QStringLiteral("a"), QStringLiteral("c") }));
    QCOMPARE(roc->steps(), (std::vector<qint64> { 1, 2, 3 }));
    QVERIFY(std::abs(roc->shownAuc(QStringLiteral("a")) - sampleAuc(samplesForStep(3))) < 1e-12);
    // The step slider moves the ROC curves like PR curves.
    roc->setCurrentStep(1);
    QCOMPARE(roc->shownStep(QStringLiteral("a")), std::optional<qint64>(1));
    QVERIFY(std::abs(roc->shownAuc(QStringLiteral("a")) - sampleAuc(samplesForStep(1))) < 1e-12);

    // Compare Runs narrows ROC-only tags too: run c has no PR tag.
    panel.setVisibleRuns({ QStringLiteral("c") });
    QCOMPARE(panel.visibleTags(), QStringList {});
    QCOMPARE(panel.visibleRocTags(), QStringList { QStringLiteral("roc") });
    QCOMPARE(roc->shownRuns(), QStringList { QStringLiteral("c") });
    QVERIFY(panel.emptyStateText().isEmpty());
    panel.setVisibleRuns({ QStringLiteral("nope") });
    QVERIFY(panel.emptyStateText().contains(QStringLiteral("selected runs")));
    panel.setVisibleRuns({});
    panel.setTagFilter(QStringLiteral("^roc$"));
    QCOMPARE(panel.visibleRocTags(), QStringList { QStringLiteral("roc") });
    QCOMPARE(panel.visibleTags(), QStringList {});

    // Live: a new ROC tag arrives through the store.
    addRocRun(store, QStringLiteral("a"), QStringLiteral("roc2"), { 5 });
    panel.flushPendingUpdates();
    QCOMPARE(panel.rocTags(), (QStringList { QStringLiteral("roc"), QStringLiteral("roc2") }));
}

void TestPrCurvesPanel::rocAucMatchesThePythonOracle()
{
    // VisualDL's ROC demo log read by the VisualDL reader; AUC compared with a trapezoid oracle that decodes
    // the same file itself.
    const QString file = QStringLiteral(RUNLENS_TEST_DATA_DIR "/visualdl/roc/vdlrecords.1609220805.log");
    RUNLENS_PYTHON_ORACLE(output, { QStringLiteral(RUNLENS_TEST_DATA_DIR "/visualdl/roc/roc_oracle.py"), file });
    const QJsonObject expected = QJsonDocument::fromJson(output.toUtf8()).object();
    QCOMPARE(expected.size(), 6);

    importers::summary::VisualDlReader reader(file);
    const ImportUpdate update = reader.poll({});
    QCOMPARE(update.status, ImportStatus::Ok);
    QVERIFY(update.summaries);
    models::summary::SummaryStore store;
    store.update(QStringLiteral("."), file, *update.summaries);
    PrCurvesPanel panel(&store);
    panel.resize(1200, 900);
    panel.flushPendingUpdates();
    QCOMPARE(panel.rocTags(), expected.keys());
    // Without PR tags the mode selector has nothing to switch.
    QVERIFY(!panel.findChild<QComboBox*>(QStringLiteral("curveMode"))->isEnabled());
    for (auto it = expected.begin(); it != expected.end(); ++it) {
        PrCurveChart* chart = panel.rocChartForTag(it.key());
        QVERIFY(chart);
        const QJsonObject want = it.value().toArray().first().toObject();
        const double auc = want[QStringLiteral("auc")].toDouble();
        QVERIFY2(auc > 0.9 && auc < 1.0, qPrintable(QString::number(auc)));
        QVERIFY2(std::abs(chart->shownAuc(QStringLiteral(".")) - auc) < 1e-12,
                 qPrintable(
                     QStringLiteral("%1: %2 vs %3").arg(it.key()).arg(chart->shownAuc(QStringLiteral("."))).arg(auc)));
        const std::vector<PrPoint> points = chart->shownPoints(QStringLiteral("."));
        const QJsonArray tpr = want[QStringLiteral("tpr")].toArray();
        const QJsonArray fpr = want[QStringLiteral("fpr")].toArray();
        QCOMPARE(qsizetype(points.size()), tpr.size());
        for (std::size_t k = 0; k < points.size(); ++k) {
            QVERIFY(std::abs(points[k].truePositiveRate - tpr[qsizetype(k)].toDouble()) < 1e-12);
            QVERIFY(std::abs(points[k].falsePositiveRate - fpr[qsizetype(k)].toDouble()) < 1e-12);
        }
        QVERIFY2(chart->curveForRun(QStringLiteral("."))->name().contains(QStringLiteral("AUC %1").arg(auc, 0, 'f', 4)),
                 qPrintable(chart->curveForRun(QStringLiteral("."))->name()));
    }
}

QTEST_MAIN(TestPrCurvesPanel)
#include "tst_prcurvespanel.moc"
