#include "tests/widgets/distributions/distributionstestdata.h"

#include "importers/summary/eventfilereader.h"
#include "tests/testutils.h"
#include "widgets/common/chartexporter.h"
#include "widgets/common/chartpalette.h"
#include "widgets/distributions/distributionspanel.h"
#include "widgets/scalars/chartsection.h"

#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <memory>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::widgets;
using namespace runlens::widgets::distributions;
using namespace runlens::widgets::scalars;
using runlens::test::histogramSeries;

namespace {

const QString kAlpha = QStringLiteral("alpha");
const QString kBeta = QStringLiteral("beta");
const QString kWeight = QStringLiteral("layer1/weight");
const QString kBias = QStringLiteral("layer1/bias");
const QString kGrad = QStringLiteral("layer2/grad");

void fillStore(models::summary::SummaryStore& store)
{
    models::summary::SummaryBatch alpha;
    alpha.histograms.push_back(histogramSeries(kWeight, 20, 0.05, 25));
    alpha.histograms.push_back(histogramSeries(kBias, 20, -0.05));
    store.update(kAlpha, QStringLiteral("alpha/events.1"), alpha);

    models::summary::SummaryBatch beta;
    beta.histograms.push_back(histogramSeries(kWeight, 20, 0.1));
    auto grad = histogramSeries(kGrad, 20, 0.0);
    grad.items[2].nanCount = 4; // step 10
    grad.items[7].nanCount = 1; // step 35
    grad.items[7].posInfCount = 2;
    beta.histograms.push_back(grad);
    store.update(kBeta, QStringLiteral("beta/events.1"), beta);
}

} // namespace

class TestDistributionsPanel : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        m_store = std::make_unique<models::summary::SummaryStore>();
        fillStore(*m_store);
        m_panel = std::make_unique<DistributionsPanel>(m_store.get());
        m_panel->resize(1300, 1000);
        m_panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
        m_panel->flushPendingUpdates();
    }

    void cleanup()
    {
        m_panel.reset();
        m_store.reset();
    }

    void listsTagsAndRuns()
    {
        QCOMPARE(m_panel->tags(), (QStringList { kBias, kWeight, kGrad }));
        QCOMPARE(m_panel->visibleTags(), m_panel->tags());
        QCOMPARE(m_panel->runsOfTag(kWeight), (QStringList { kAlpha, kBeta }));
        QCOMPARE(m_panel->runsOfTag(kGrad), (QStringList { kBeta }));
        QVERIFY(m_panel->sectionForTag(kWeight));
        QTRY_VERIFY(m_panel->chart(kWeight, kBeta));
        QCOMPARE(m_panel->chart(kWeight, kBeta)->series().size(), std::size_t(20));
        QVERIFY(!m_panel->findChild<QLabel*>(QStringLiteral("emptyState"))->isVisible());
        // One colour per run, the same in every section.
        QCOMPARE(m_panel->chart(kWeight, kAlpha)->color(), runColor(0));
        QCOMPARE(m_panel->chart(kWeight, kBeta)->color(), runColor(1));
    }

    void filterByTyping()
    {
        auto* edit = m_panel->findChild<QLineEdit*>(QStringLiteral("tagFilter"));
        QVERIFY(edit);
        QTest::keyClicks(edit, QStringLiteral("WEIGHT|grad"));
        QTRY_COMPARE(m_panel->visibleTags(), (QStringList { kWeight, kGrad }));
        QTRY_VERIFY(!m_panel->sectionForTag(kBias)->isVisible());
        QTest::keyClicks(edit, QStringLiteral("(")); // "WEIGHT|grad(" does not compile
        QVERIFY(!m_panel->isTagFilterValid());
        QCOMPARE(m_panel->visibleTags(), (QStringList { kWeight, kGrad })); // last valid filter stays
        QVERIFY(edit->toolTip().contains(QStringLiteral("Invalid regular expression")));
        m_panel->setTagFilter(QStringLiteral("nothing-matches"));
        QVERIFY(m_panel->visibleTags().isEmpty());
        QVERIFY(m_panel->findChild<QLabel*>(QStringLiteral("emptyState"))->isVisible());
    }

    void switchModesWithAClick()
    {
        QTRY_VERIFY(m_panel->chart(kWeight, kAlpha));
        DistributionChart* chart = m_panel->chart(kWeight, kAlpha);
        QCOMPARE(chart->mode(), DistributionMode::Bands);
        QSignalSpy changed(m_panel.get(), &DistributionsPanel::optionsChanged);
        auto* offset = m_panel->findChild<QToolButton*>(QStringLiteral("modeOffset"));
        QVERIFY(offset);
        QTest::mouseClick(offset, Qt::LeftButton);
        QCOMPARE(m_panel->mode(), DistributionMode::Offset);
        QCOMPARE(changed.count(), 1);
        for (DistributionChart* c : m_panel->charts())
            QCOMPARE(c->mode(), DistributionMode::Offset);
        chart->replotIfNeeded();
        QCOMPARE(chart->outlineCount(), 20);
        QVERIFY(!chart->percentileGraph(kMedianIndex)->visible());
        QTest::mouseClick(m_panel->findChild<QToolButton*>(QStringLiteral("modeBands")), Qt::LeftButton);
        QCOMPARE(m_panel->mode(), DistributionMode::Bands);
        QCOMPARE(chart->mode(), DistributionMode::Bands);
        QVERIFY(chart->percentileGraph(kMedianIndex)->visible());
        // Charts created later start in the panel's mode.
        m_panel->setMode(DistributionMode::Offset);
        models::summary::SummaryBatch more;
        more.histograms.push_back(histogramSeries(QStringLiteral("layer3/weight"), 5, 0.0));
        m_store->update(kAlpha, QStringLiteral("alpha/events.2"), more);
        m_panel->flushPendingUpdates();
        QTRY_VERIFY(m_panel->chart(QStringLiteral("layer3/weight"), kAlpha));
        QCOMPARE(m_panel->chart(QStringLiteral("layer3/weight"), kAlpha)->mode(), DistributionMode::Offset);
    }

    void hoverShowsTheStepsHistogram()
    {
        QTRY_VERIFY(m_panel->chart(kWeight, kAlpha));
        DistributionChart* chart = m_panel->chart(kWeight, kAlpha);
        chart->replotIfNeeded();
        QSignalSpy hovered(m_panel.get(), &DistributionsPanel::hoveredStepChanged);
        QTest::mouseMove(chart, chart->positionOfIndex(std::size_t(chart->indexOfStep(25))).toPoint());
        QTRY_COMPARE(chart->hoveredStep(), qint64(25));
        QVERIFY(!hovered.isEmpty());
        QCOMPARE(hovered.last().at(0).toString(), kAlpha);
        QCOMPARE(hovered.last().at(2).toLongLong(), qint64(25));
        // Step 25 holds 2 values in [0,1], 6 in [1,2], 2 in [2,4]: the median is 1 + (5 - 2) / 6 = 1.5, the
        // 84.13th percentile 8.413 values in: 2 + 2 * (8.413 - 8) / 2 = 2.413.
        const QString text = chart->hoverText();
        QVERIFY2(text.contains(QStringLiteral("median <b>1.5</b>")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("84.13%&nbsp;2.413")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("count 10")), qPrintable(text));
        // Beta's chart of the same tag has its own histogram at step 25.
        DistributionChart* other = m_panel->chart(kWeight, kBeta);
        QVERIFY(other);
        other->replotIfNeeded();
        QTest::mouseMove(other, other->positionOfIndex(5).toPoint());
        QTRY_COMPARE(other->hoveredStep(), qint64(25));
        QVERIFY(!other->hoverText().contains(QStringLiteral("median <b>1.5</b>")));
    }

    void nanStepsAreMarked()
    {
        QTRY_VERIFY(m_panel->chart(kGrad, kBeta));
        DistributionChart* chart = m_panel->chart(kGrad, kBeta);
        chart->replotIfNeeded();
        QCOMPARE(chart->nonFiniteSteps(), (QList<qint64> { 10, 35 }));
        QVERIFY2(chart->nonFiniteNote().contains(QStringLiteral("NaN at steps 10, 35")),
                 qPrintable(chart->nonFiniteNote()));
        QVERIFY(chart->nonFiniteNote().contains(QStringLiteral("+Inf at step 35")));
        const QList<QPointF> marks = chart->nonFiniteMarkerPositions();
        QCOMPARE(marks.size(), 2);
        // The marks sit over their steps and are painted red.
        QVERIFY(std::abs(marks[0].x() - chart->positionOfIndex(2).x()) < 1.0);
        const QImage picture = chart->grab().toImage();
        const qreal dpr = picture.devicePixelRatio();
        for (const QPointF& p : marks) {
            const QColor c = picture.pixelColor((p * dpr).toPoint());
            QVERIFY2(c.red() > 150 && c.green() < 120, qPrintable(c.name()));
        }
        // A chart without non-finite values has no marks and no note.
        DistributionChart* clean = m_panel->chart(kWeight, kBeta);
        QVERIFY(clean->nonFiniteMarkerPositions().isEmpty());
        QVERIFY(clean->nonFiniteNote().isEmpty());
        // Offset mode marks the same steps.
        m_panel->setMode(DistributionMode::Offset);
        chart->replotIfNeeded();
        QCOMPARE(chart->nonFiniteMarkerPositions().size(), 2);
    }

    void exportPngAndCsv()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        m_panel->setExportDirectory(dir.path());
        QTRY_VERIFY(m_panel->chart(kWeight, kAlpha));
        DistributionChart* chart = m_panel->chart(kWeight, kAlpha);
        QSignalSpy exported(m_panel.get(), &DistributionsPanel::chartExported);
        const QString png = chart->exportMenu()->requestExport(ChartExporter::Format::Png);
        QVERIFY(!png.isEmpty());
        QCOMPARE(exported.count(), 1);
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= chart->width());
        int coloured = 0;
        for (int y = 0; y < image.height(); y += 3) {
            for (int x = 0; x < image.width(); x += 3)
                coloured += image.pixelColor(x, y).saturation() > 60 ? 1 : 0;
        }
        QVERIFY2(coloured > 300, qPrintable(QString::number(coloured)));

        const QString csv = chart->exportMenu()->requestExport(ChartExporter::Format::Csv);
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 20); // header and one row per step
        const QList<QByteArray> header = lines[0].split(',');
        QCOMPARE(header.value(7), QByteArray("p50"));
        const QList<QByteArray> step25 = lines[1 + 5].split(',');
        QCOMPARE(step25.value(1), QByteArray("25"));
        QCOMPARE(step25.value(7), QByteArray("1.5"));
    }

    void visibleRunsHideARun()
    {
        QTRY_VERIFY(m_panel->chart(kWeight, kBeta));
        QPointer<DistributionChart> beta = m_panel->chart(kWeight, kBeta);
        m_panel->setVisibleRuns({ kAlpha });
        QCOMPARE(m_panel->runsOfTag(kWeight), (QStringList { kAlpha }));
        QVERIFY(!m_panel->chart(kWeight, kBeta));
        QVERIFY(beta && !beta->isVisible());
        QCOMPARE(m_panel->visibleTags(), (QStringList { kBias, kWeight })); // grad is beta's only
        QVERIFY(!m_panel->sectionForTag(kGrad)->isVisible());
        for (DistributionChart* c : m_panel->charts())
            QCOMPARE(c->run(), kAlpha);
        m_panel->setVisibleRuns({ QStringLiteral("gamma") });
        QVERIFY(m_panel->visibleTags().isEmpty());
        QVERIFY(m_panel->findChild<QLabel*>(QStringLiteral("emptyState"))
                    ->text()
                    .contains(QStringLiteral("selected runs")));
        m_panel->setVisibleRuns({});
        QCOMPARE(m_panel->runsOfTag(kWeight), (QStringList { kAlpha, kBeta }));
        QTRY_VERIFY(m_panel->chart(kWeight, kBeta));
        QVERIFY(m_panel->chart(kWeight, kBeta)->isVisible());
    }

    void updatesLive()
    {
        QTRY_VERIFY(m_panel->chart(kWeight, kAlpha));
        DistributionChart* chart = m_panel->chart(kWeight, kAlpha);
        QCOMPARE(chart->series().size(), std::size_t(20));
        models::summary::SummaryBatch next;
        next.histograms.push_back(histogramSeries(kWeight, 30, 0.05, 25));
        m_store->update(kAlpha, QStringLiteral("alpha/events.1"), next);
        QTRY_COMPARE(chart->series().size(), std::size_t(30));
        // A run that appears gets its chart in the tag's section.
        models::summary::SummaryBatch gamma;
        gamma.histograms.push_back(histogramSeries(kBias, 4, 0.0));
        m_store->update(QStringLiteral("gamma"), QStringLiteral("gamma/events.1"), gamma);
        QTRY_COMPARE(m_panel->runsOfTag(kBias), (QStringList { kAlpha, QStringLiteral("gamma") }));
        m_store->clear();
        QTRY_VERIFY(m_panel->tags().isEmpty());
        QVERIFY(m_panel->findChild<QLabel*>(QStringLiteral("emptyState"))
                    ->text()
                    .contains(QStringLiteral("No distributions")));
    }

    void stateRoundTrip()
    {
        m_panel->setMode(DistributionMode::Offset);
        m_panel->setXAxisMode(XAxisMode::RelativeTime);
        m_panel->setTagFilter(QStringLiteral("layer1"));
        m_panel->setTagExpanded(kBias, false);
        const QVariantMap state = m_panel->saveState();
        DistributionsPanel other(m_store.get());
        other.restoreState(state);
        QCOMPARE(other.mode(), DistributionMode::Offset);
        QCOMPARE(other.xAxisMode(), XAxisMode::RelativeTime);
        QCOMPARE(other.tagFilter(), QStringLiteral("layer1"));
        QVERIFY(!other.sectionForTag(kBias)->isExpanded());
        QCOMPARE(other.visibleTags(), (QStringList { kBias, kWeight }));
    }

    void realTensorBoardHistograms()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        m_panel->hide(); // this test shows its own panel
        // torch 1.13 SummaryWriter.add_histogram every 5 steps of a 60-step LeNet run. The expected numbers were
        // read from the file with a separate protobuf wire decoder: 12 histograms of conv2.weight at steps
        // 0..55, the last with num 2400, min -0.24426, max 0.239505 and median -0.00205757 (interpolated in
        // its bucket).
        const QString file
            = root + QStringLiteral("/runs/pytorch_cnn_baseline/tb/events.out.tfevents.1795321629.vm.1522.0");
        importers::summary::EventFileReader reader(file, importers::summary::SummaryFlavor::TensorBoard);
        models::summary::SummaryStore store;
        for (int poll = 0; poll < 100; ++poll) {
            const ImportUpdate update = reader.poll({});
            if (update.summaries)
                store.update(QStringLiteral("pytorch_cnn_baseline"), file, *update.summaries);
            if (update.recordsRead == 0)
                break;
        }
        DistributionsPanel panel(&store);
        panel.resize(1000, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.flushPendingUpdates();
        const QString tag = QStringLiteral("weights/conv2.weight");
        QCOMPARE(panel.tags(), QStringList { tag });
        QTRY_VERIFY(panel.chart(tag, QStringLiteral("pytorch_cnn_baseline")));
        DistributionChart* chart = panel.chart(tag, QStringLiteral("pytorch_cnn_baseline"));
        chart->replotIfNeeded();
        const DistributionSeries& series = chart->series();
        QCOMPARE(series.size(), std::size_t(12));
        QCOMPARE(series.histograms.front().step, qint64(0));
        QCOMPARE(series.histograms.back().step, qint64(55));
        QCOMPARE(series.histograms.back().count, 2400.0);
        QVERIFY(std::abs(series.percentiles.back()[kMedianIndex] - (-0.0020575678275470133)) < 1e-9);
        QVERIFY(std::abs(series.percentiles.back()[0] - (-0.2442595213651657)) < 1e-9);
        QVERIFY(std::abs(series.percentiles.back()[8] - 0.23950472474098206) < 1e-9);
        QVERIFY(chart->nonFiniteSteps().isEmpty());
        const QPointF last = chart->positionOfIndex(11);
        QMouseEvent move(QEvent::MouseMove, last, chart->mapToGlobal(last), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(chart, &move);
        QCOMPARE(chart->hoveredStep(), qint64(55));
        QVERIFY(chart->hoverText().contains(QStringLiteral("count 2400")));
    }

    void screenshot()
    {
        // A picture to look at while working on the panel; also proves a full page renders.
        const QString out = qEnvironmentVariable("RUNLENS_DISTRIBUTIONS_SCREENSHOT");
        QTRY_VERIFY(m_panel->chart(kGrad, kBeta));
        QImage page = m_panel->grab().toImage();
        QVERIFY(!page.isNull());
        if (!out.isEmpty()) {
            page.save(out + QStringLiteral("-bands.png"));
            m_panel->setMode(DistributionMode::Offset);
            QCoreApplication::processEvents();
            m_panel->grab().save(out + QStringLiteral("-offset.png"));
        }
    }

private:
    std::unique_ptr<models::summary::SummaryStore> m_store;
    std::unique_ptr<DistributionsPanel> m_panel;
};

QTEST_MAIN(TestDistributionsPanel)
#include "tst_distributionspanel.moc"
