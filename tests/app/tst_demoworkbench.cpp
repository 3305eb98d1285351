#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/demo/demorun.h"
#include "widgets/scalars/scalarchart.h"
#include "widgets/scalars/scalarspanel.h"

#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::demo;
using namespace runlens::models::scalars;
using namespace runlens::widgets::scalars;

/// Opens the demo run the way the main window does (scan, background import into the shared store,
/// the Scalars panel on that store) and checks what a user would see.
class TestDemoWorkbench : public QObject
{
    Q_OBJECT
private slots:
    void demoShowsTheExpectedCharts()
    {
        QTemporaryDir dir;
        QVERIFY(DemoRun::write(dir.path()));
        ScalarStore store;
        ScalarsPanel panel(&store);
        panel.resize(1200, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));

        ImportSession session(RunScanner().scan(dir.path()));
        connect(&session, &ImportSession::scalarsArrived, &store, &ScalarStore::append);
        models::summary::SummaryStore summaries;
        connect(&session, &ImportSession::summariesArrived, &summaries, &models::summary::SummaryStore::update);
        QSignalSpy finished(&session, &ImportSession::finished);
        session.start();
        QVERIFY(finished.wait(30000));
        panel.flushPendingUpdates();

        QCOMPARE(panel.visibleGroups(),
                 (QStringList { QStringLiteral("eval"), QStringLiteral("perf"), QStringLiteral("train") }));
        QStringList tags = panel.visibleTags();
        tags.sort();
        QCOMPARE(tags, DemoRun::tags());
        ScalarChart* loss = panel.chartForTag(QStringLiteral("train/loss"));
        QVERIFY(loss);
        QStringList runs = loss->runs();
        runs.sort();
        QCOMPARE(runs, DemoRun::runNames());
        for (const QString& run : DemoRun::runNames())
            QCOMPARE(loss->pointCount(run), DemoRun::kSteps);

        // The smoothed loss of each run ends below where it started: the demo converges.
        for (const QString& run : DemoRun::runNames()) {
            const ScalarSeries* series = store.series(run, QStringLiteral("train/loss"));
            QVERIFY(series->points.back().value < series->points.front().value);
        }

        // Weight and gradient histograms every kHistogramEvery steps; the gradients narrow as the loss falls.
        for (const QString& run : DemoRun::runNames()) {
            QCOMPARE(summaries.tags(models::summary::SummaryKind::Histograms, run),
                     (QStringList { QStringLiteral("gradients/fc1"), QStringLiteral("weights/fc1") }));
            const models::summary::HistogramSeries gradients
                = summaries.histograms(run, QStringLiteral("gradients/fc1"));
            QCOMPARE(int(gradients.items.size()), DemoRun::kSteps / DemoRun::kHistogramEvery);
            QCOMPARE(gradients.items.front().bucketTotal(), gradients.items.front().count);
            const double firstSpread
                = gradients.items.front().percentile(0.9) - gradients.items.front().percentile(0.1);
            const double lastSpread = gradients.items.back().percentile(0.9) - gradients.items.back().percentile(0.1);
            QVERIFY(lastSpread < firstSpread / 2);
        }

        panel.setTagFilter(QStringLiteral("^eval/"));
        panel.flushPendingUpdates();
        QCOMPARE(panel.visibleTags().size(), 2);
        QCOMPARE(panel.visibleGroups(), QStringList { QStringLiteral("eval") });

        // Something is drawn: the panel's picture is far from a single colour.
        const QImage image = panel.grab().toImage();
        QHash<QRgb, int> colours;
        for (int y = 0; y < image.height(); y += 3) {
            for (int x = 0; x < image.width(); x += 3)
                ++colours[image.pixel(x, y)];
        }
        QVERIFY(colours.size() > 20);
    }
};

QTEST_MAIN(TestDemoWorkbench)
#include "tst_demoworkbench.moc"
