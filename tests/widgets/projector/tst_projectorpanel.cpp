#include "widgets/projector/projectorpanel.h"

#include "importers/embeddings/projectorreader.h"
#include "widgets/projector/pointcolors.h"
#include "widgets/projector/projectorscatter.h"

#include <QComboBox>
#include <QListWidget>
#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace runlens;
using namespace runlens::widgets;
using namespace runlens::widgets::projector;

namespace {

const QString kFixture = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/projector/projector_config.pbtxt");

std::vector<models::embeddings::EmbeddingSetPtr> fixtureSets()
{
    return importers::embeddings::readProjectorFolder(kFixture).sets;
}

bool waitForPca(ProjectorPanel& panel)
{
    return QTest::qWaitFor([&] { return !panel.isComputing() && panel.pca().has_value(); }, 10000);
}

bool waitForTsne(ProjectorPanel& panel)
{
    return QTest::qWaitFor([&] { return !panel.isTsneRunning(); }, 120000);
}

/// Share of the shown points whose nearest point in the t-SNE layout has the same class (metadata column 0).
double sameClassNearest(const ProjectorPanel& panel)
{
    const models::embeddings::EmbeddingSetPtr view = panel.viewSet();
    const std::vector<float>& y = panel.tsneEmbedding();
    const int n = view->rows;
    int same = 0;
    for (int i = 0; i < n; ++i) {
        int best = -1;
        double bestDistance = 0.0;
        for (int j = 0; j < n; ++j) {
            if (j == i)
                continue;
            const double dx = double(y[2 * std::size_t(i)]) - y[2 * std::size_t(j)];
            const double dy = double(y[2 * std::size_t(i) + 1]) - y[2 * std::size_t(j) + 1];
            const double distance = dx * dx + dy * dy;
            if (best < 0 || distance < bestDistance) {
                best = j;
                bestDistance = distance;
            }
        }
        same += view->cell(best, 0) == view->cell(i, 0) ? 1 : 0;
    }
    return double(same) / n;
}

models::embeddings::TsneOptions tsneIterations(int iterations)
{
    models::embeddings::TsneOptions options;
    options.iterations = iterations;
    return options;
}

} // namespace

class TestProjectorPanel : public QObject
{
    Q_OBJECT
private slots:
    void showsPcaOfTheFirstSet();
    void clickListsNeighbours();
    void searchMarksMatches();
    void coloursByColumn();
    void exportsPng();
    void switchingSetsRecomputes();
    void sameSetAgainReplacesItAndRunsNameSets();
    void tsneSeparatesClusters();
    void stopLeavesAConsistentPanel();
    void deletingThePanelDuringTsne();
    void isolateReruns();
    void largeSetsStartFromPrincipalComponents();
    void fitsHalfAScreen();
};

void TestProjectorPanel::showsPcaOfTheFirstSet()
{
    ProjectorPanel panel;
    panel.resize(1000, 700);
    panel.addEmbeddings(fixtureSets());
    QCOMPARE(panel.setCount(), 2);
    QVERIFY(waitForPca(panel));
    QCOMPARE(panel.pca()->rows, 60);
    QCOMPARE(panel.pca()->components, 10);
    QCOMPARE(panel.scatter()->pointCount(), 60);
    // The fixture has three well separated clusters: the first two components hold most of the variance.
    QVERIFY(panel.pca()->explainedVarianceRatio[0] + panel.pca()->explainedVarianceRatio[1] > 0.8);
    auto* xBox = panel.findChildren<QComboBox*>().at(1);
    QVERIFY(xBox->currentText().startsWith(QStringLiteral("PC1 (")));
}

void TestProjectorPanel::clickListsNeighbours()
{
    ProjectorPanel panel;
    panel.resize(1000, 700);
    panel.show();
    panel.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(panel));
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    ProjectorScatter* scatter = panel.scatter();
    const QPoint at = scatter->pointPosition(4).toPoint();
    const int expected = scatter->pointAt(at);
    QVERIFY(expected >= 0);
    QTest::mouseClick(scatter, Qt::LeftButton, {}, at);
    QCOMPARE(panel.selectedPoint(), expected);
    QCOMPARE(int(panel.neighbours().size()), 10);
    auto* list = panel.findChild<QListWidget*>();
    QCOMPARE(list->count(), 10);
    // Points of one class are each other's nearest: the fixture's clusters are far apart.
    const models::embeddings::EmbeddingSetPtr set = panel.currentSet();
    for (const models::embeddings::Neighbour& n : panel.neighbours())
        QCOMPARE(set->cell(n.index, 0), set->cell(expected, 0));

    panel.setDistance(models::embeddings::Distance::Euclidean);
    panel.setNeighbourCount(3);
    QCOMPARE(int(panel.neighbours().size()), 3);
    QCOMPARE(list->count(), 3);
    panel.selectPoint(-1);
    QCOMPARE(list->count(), 0);

    if (qEnvironmentVariableIsSet("RUNLENS_PROJECTOR_SCREENSHOT")) {
        panel.setSearch(QStringLiteral("class2"));
        panel.setNeighbourCount(8);
        panel.selectPoint(expected);
        QTest::mouseMove(scatter, scatter->pointPosition(expected).toPoint());
        QVERIFY(panel.grab().save(qEnvironmentVariable("RUNLENS_PROJECTOR_SCREENSHOT")));
    }
}

void TestProjectorPanel::searchMarksMatches()
{
    ProjectorPanel panel;
    panel.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(panel));
    panel.setSearch(QStringLiteral("^class1$"));
    QCOMPARE(panel.matchCount(), 20);
    panel.setSearch(QStringLiteral("CLASS[02]"));
    QCOMPARE(panel.matchCount(), 40);
    panel.setSearch(QStringLiteral("(")); // invalid: nothing marked, no crash
    QCOMPARE(panel.matchCount(), 0);
    panel.setSearch(QString());
    QCOMPARE(panel.matchCount(), 0);
}

void TestProjectorPanel::coloursByColumn()
{
    const auto sets = fixtureSets();
    const PointColors byClass = colorPoints(*sets[0], 0);
    QCOMPARE(byClass.kind, PointColors::Kind::Categorical);
    QCOMPARE(byClass.categories.size(), 3);
    QCOMPARE(byClass.colors[0], byClass.colors[3]);
    QVERIFY(byClass.colors[0] != byClass.colors[1]);
    // 60 distinct numbers: a continuous map.
    const PointColors byScore = colorPoints(*sets[0], 1);
    QCOMPARE(byScore.kind, PointColors::Kind::Continuous);
    QCOMPARE(byScore.minimum, 0.0);
    QCOMPARE(byScore.maximum, 29.5);
    QVERIFY(byScore.colors[0] != byScore.colors[59]);
    // 12 distinct words are still categories; none is uniform.
    QCOMPARE(colorPoints(*sets[1], 0).kind, PointColors::Kind::Categorical);
    QCOMPARE(colorPoints(*sets[1], -1).kind, PointColors::Kind::Uniform);
}

void TestProjectorPanel::exportsPng()
{
    ProjectorPanel panel;
    panel.resize(900, 600);
    panel.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(panel));
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("scatter.png"));
    QSignalSpy exported(&panel, &ProjectorPanel::chartExported);
    panel.setExportFileNameProvider([&](ChartExporter::Format format, const QString&) {
        return format == ChartExporter::Format::Png ? file : QString();
    });
    QVERIFY(panel.exportPng(file));
    QImage image(file);
    QVERIFY(!image.isNull());
    // Drawn at twice the widget size; the cluster colours are in it.
    QCOMPARE(image.size(), panel.scatter()->size() * 2);
    const QRgb first = colorPoints(*panel.currentSet(), 0).colors[0];
    bool found = false;
    for (int y = 0; y < image.height() && !found; ++y) {
        for (int x = 0; x < image.width() && !found; ++x)
            found = (image.pixel(x, y) & 0xffffff) == (first & 0xffffff);
    }
    QVERIFY(found);
}

void TestProjectorPanel::switchingSetsRecomputes()
{
    ProjectorPanel panel;
    panel.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(panel));
    panel.setCurrentSet(1);
    QVERIFY(waitForPca(panel));
    QCOMPARE(panel.pca()->rows, 12);
    QCOMPARE(panel.pca()->components, 4);
    panel.clear();
    QCOMPARE(panel.setCount(), 0);
    QCOMPARE(panel.scatter()->pointCount(), 0);
}

void TestProjectorPanel::sameSetAgainReplacesItAndRunsNameSets()
{
    ProjectorPanel panel;
    panel.resize(1000, 700);
    auto first = std::make_shared<models::embeddings::EmbeddingSet>();
    first->name = QStringLiteral("default");
    first->source = QStringLiteral("/runs/train/vdlrecords.1.log");
    first->rows = 3;
    first->dims = 2;
    first->values = { 0, 0, 1, 0, 0, 1 };
    auto other = std::make_shared<models::embeddings::EmbeddingSet>(*first);
    other->source = QStringLiteral("/runs/eval/vdlrecords.2.log");
    panel.addEmbeddings({ first }, QStringLiteral("train"));
    panel.addEmbeddings({ other }, QStringLiteral("eval"));
    QCOMPARE(panel.setCount(), 2);
    auto* setBox = panel.findChildren<QComboBox*>().at(0);
    QCOMPARE(setBox->itemText(0), QStringLiteral("train / default (3 × 2)"));
    QCOMPARE(setBox->itemText(1), QStringLiteral("eval / default (3 × 2)"));
    QVERIFY(waitForPca(panel));

    // The log wrote the tag again: the shown set is replaced in place and recomputed.
    auto grown = std::make_shared<models::embeddings::EmbeddingSet>(*first);
    grown->rows = 4;
    grown->values = { 0, 0, 1, 0, 0, 1, 1, 1 };
    panel.addEmbeddings({ grown }, QStringLiteral("train"));
    QCOMPARE(panel.setCount(), 2);
    QCOMPARE(setBox->currentIndex(), 0);
    QCOMPARE(setBox->itemText(0), QStringLiteral("train / default (4 × 2)"));
    QCOMPARE(panel.currentSet(), models::embeddings::EmbeddingSetPtr(grown));
    QVERIFY(waitForPca(panel));
    QCOMPARE(panel.pca()->rows, 4);
}

void TestProjectorPanel::tsneSeparatesClusters()
{
    ProjectorPanel panel;
    panel.resize(1100, 700);
    panel.show();
    panel.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(panel));
    QSignalSpy updated(&panel, &ProjectorPanel::tsneUpdated);
    QSignalSpy finished(&panel, &ProjectorPanel::tsneFinished);
    // The defaults come from TsneOptions.
    QCOMPARE(panel.tsneOptions().perplexity, models::embeddings::TsneOptions().perplexity);
    QCOMPARE(panel.tsneOptions().iterations, models::embeddings::TsneOptions().iterations);
    panel.setMethod(ProjectorPanel::Method::Tsne); // starts a run
    QCOMPARE(panel.method(), ProjectorPanel::Method::Tsne);
    QVERIFY(panel.isTsneRunning());
    QVERIFY(waitForTsne(panel));
    QCOMPARE(finished.count(), 1);
    // Animated: the scatter follows the run chunk by chunk.
    QVERIFY2(updated.count() > 3, qPrintable(QString::number(updated.count())));
    QCOMPARE(panel.tsneIteration(), 1000);
    QCOMPARE(int(panel.tsneEmbedding().size()), 120);
    QVERIFY(std::isfinite(panel.tsneKl()) && panel.tsneKl() > 0.0);
    QCOMPARE(panel.scatter()->pointCount(), 60);
    const double same = sameClassNearest(panel);
    QVERIFY2(same >= 0.95, qPrintable(QString::number(same)));
    // Search, colours and neighbours keep working on the t-SNE layout; neighbours are in the original space.
    panel.setSearch(QStringLiteral("^class1$"));
    QCOMPARE(panel.matchCount(), 20);
    panel.selectPoint(4);
    QCOMPARE(int(panel.neighbours().size()), 10);
    const models::embeddings::EmbeddingSetPtr set = panel.currentSet();
    for (const models::embeddings::Neighbour& n : panel.neighbours())
        QCOMPARE(set->cell(n.index, 0), set->cell(4, 0));
    const QPoint at = panel.scatter()->pointPosition(7).toPoint();
    QTest::mouseClick(panel.scatter(), Qt::LeftButton, {}, at);
    QCOMPARE(panel.selectedPoint(), panel.scatter()->pointAt(at));

    // Back to PCA and again to t-SNE: both layouts are kept.
    panel.setMethod(ProjectorPanel::Method::Pca);
    QVERIFY(panel.pca().has_value());
    QCOMPARE(panel.scatter()->pointCount(), 60);
    panel.setMethod(ProjectorPanel::Method::Tsne);
    QVERIFY(!panel.isTsneRunning());
    QCOMPARE(panel.tsneIteration(), 1000);

    if (qEnvironmentVariableIsSet("RUNLENS_PROJECTOR_TSNE_SCREENSHOT")) {
        panel.setSearch(QStringLiteral("class2"));
        panel.setNeighbourCount(8);
        panel.selectPoint(4);
        QTest::mouseMove(panel.scatter(), panel.scatter()->pointPosition(4).toPoint());
        QVERIFY(panel.grab().save(qEnvironmentVariable("RUNLENS_PROJECTOR_TSNE_SCREENSHOT")));
    }
}

void TestProjectorPanel::stopLeavesAConsistentPanel()
{
    ProjectorPanel panel;
    panel.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(panel));
    panel.setTsneOptions(tsneIterations(100000));
    QSignalSpy updated(&panel, &ProjectorPanel::tsneUpdated);
    panel.runTsne();
    QVERIFY(QTest::qWaitFor([&] { return updated.count() >= 3; }, 60000));
    panel.stopTsne();
    QVERIFY(waitForTsne(panel));
    QVERIFY(panel.tsneIteration() > 0 && panel.tsneIteration() < 100000);
    QCOMPARE(int(panel.tsneEmbedding().size()), 120);
    QCOMPARE(panel.scatter()->pointCount(), 60);
    QVERIFY(!panel.isComputing());
    panel.selectPoint(3);
    QCOMPARE(int(panel.neighbours().size()), 10);

    // Cancelled while the affinities are computed: no layout, nothing running, the next run works.
    panel.runTsne();
    panel.stopTsne();
    QVERIFY(waitForTsne(panel));
    QVERIFY(!panel.isComputing());

    // Switching the set in the middle of a run restarts it on the new set.
    panel.setTsneOptions(tsneIterations(400));
    panel.runTsne();
    QVERIFY(QTest::qWaitFor([&] { return panel.tsneIteration() > 0; }, 60000));
    panel.setCurrentSet(1);
    QVERIFY(panel.isTsneRunning());
    QVERIFY(waitForTsne(panel));
    QCOMPARE(panel.tsneIteration(), 400);
    QCOMPARE(int(panel.tsneEmbedding().size()), 24);
    QCOMPARE(panel.scatter()->pointCount(), 12);

    panel.setTsneOptions(tsneIterations(100000));
    panel.runTsne();
    panel.clear();
    QVERIFY(!panel.isComputing());
    QCOMPARE(panel.scatter()->pointCount(), 0);
}

void TestProjectorPanel::deletingThePanelDuringTsne()
{
    // In the middle of the iterations.
    auto* panel = new ProjectorPanel;
    panel->addEmbeddings(fixtureSets());
    panel->setTsneOptions(tsneIterations(100000));
    QSignalSpy updated(panel, &ProjectorPanel::tsneUpdated);
    panel->runTsne();
    QVERIFY(QTest::qWaitFor([&] { return updated.count() >= 2; }, 60000));
    delete panel;
    QTest::qWait(100); // progress reports still queued are dropped

    // While the affinities are computed, right after the start.
    panel = new ProjectorPanel;
    panel->addEmbeddings(fixtureSets());
    panel->runTsne();
    delete panel;
    QTest::qWait(100);

    // Through deleteLater from a running chunk's report, as a closing dock does.
    panel = new ProjectorPanel;
    panel->addEmbeddings(fixtureSets());
    panel->setTsneOptions(tsneIterations(100000));
    QPointer<ProjectorPanel> guard(panel);
    connect(panel, &ProjectorPanel::tsneUpdated, panel, [panel] { panel->deleteLater(); });
    panel->runTsne();
    QVERIFY(QTest::qWaitFor([&] { return guard.isNull(); }, 60000));
    QTest::qWait(100);
}

void TestProjectorPanel::isolateReruns()
{
    ProjectorPanel panel;
    panel.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(panel));
    QVERIFY(!panel.isolateSelection()); // nothing searched or selected
    panel.setSearch(QStringLiteral("^class1$"));
    QVERIFY(panel.isolateSelection());
    QVERIFY(panel.isIsolated());
    QVERIFY(waitForPca(panel));
    QCOMPARE(panel.pca()->rows, 20);
    QCOMPARE(panel.scatter()->pointCount(), 20);
    QCOMPARE(int(panel.viewRows().size()), 20);
    for (int row : panel.viewRows())
        QCOMPARE(panel.currentSet()->cell(row, 0), QStringLiteral("class1"));
    // Neighbours among the isolated points, listed with their index in the whole set.
    panel.selectPoint(0);
    QCOMPARE(int(panel.neighbours().size()), 10);
    auto* list = panel.findChild<QListWidget*>();
    const int first = panel.neighbours().front().index;
    QCOMPARE(list->item(0)->data(Qt::UserRole).toInt(), first);
    QVERIFY(list->item(0)->text().contains(QStringLiteral("(#%1)").arg(panel.viewRows()[std::size_t(first)])));

    panel.showAll();
    QVERIFY(!panel.isIsolated());
    QVERIFY(waitForPca(panel));
    QCOMPARE(panel.pca()->rows, 60);

    // With t-SNE: the selected point and its neighbours, laid out again.
    panel.setTsneOptions(tsneIterations(300));
    panel.runTsne();
    QVERIFY(waitForTsne(panel));
    panel.setSearch(QString());
    panel.setNeighbourCount(7);
    panel.selectPoint(5);
    QVERIFY(panel.isolateSelection());
    QCOMPARE(panel.viewSet()->rows, 8);
    QVERIFY(panel.isTsneRunning());
    QVERIFY(waitForTsne(panel));
    QCOMPARE(panel.tsneIteration(), 300);
    QCOMPARE(int(panel.tsneEmbedding().size()), 16);
    QCOMPARE(panel.scatter()->pointCount(), 8);
    QVERIFY(std::find(panel.viewRows().begin(), panel.viewRows().end(), 5) != panel.viewRows().end());
    panel.showAll();
    QVERIFY(waitForTsne(panel));
    QCOMPARE(int(panel.tsneEmbedding().size()), 120);
}

void TestProjectorPanel::largeSetsStartFromPrincipalComponents()
{
    auto set = std::make_shared<models::embeddings::EmbeddingSet>();
    set->name = QStringLiteral("large");
    set->rows = ProjectorPanel::kTsnePcaThreshold + 1;
    set->dims = ProjectorPanel::kTsneInputDims + 14;
    set->values.resize(std::size_t(set->rows) * std::size_t(set->dims));
    std::uint32_t state = 12345;
    for (float& value : set->values) {
        state = state * 1664525u + 1013904223u;
        value = float(state >> 8) / float(1u << 24);
    }
    ProjectorPanel panel;
    panel.addEmbeddings({ set });
    panel.runTsne();
    QVERIFY(panel.isTsneRunning());
    QVERIFY2(panel.statusText().contains(QStringLiteral("%1 principal components").arg(ProjectorPanel::kTsneInputDims)),
             qPrintable(panel.statusText()));
    // Stopped during the reduction or the affinities: nothing is left running and the panel stays usable.
    QTest::qWait(50);
    panel.stopTsne();
    QVERIFY(waitForTsne(panel));
    QVERIFY(!panel.isComputing());
    QVERIFY(panel.statusText().contains(QStringLiteral("t-SNE")));
    panel.setMethod(ProjectorPanel::Method::Pca);
    QVERIFY(waitForPca(panel));
    QCOMPARE(panel.pca()->rows, set->rows);
}

void TestProjectorPanel::fitsHalfAScreen()
{
    // A dock's minimum width is the window's: a panel wider than the room beside the Run Browser made the
    // window grow past a 1440-pixel screen whenever it was shown. Half of such a screen must be enough, with
    // data and without, in 2-D and 3-D.
    constexpr int kHalfScreen = 720;
    ProjectorPanel panel;
    QVERIFY2(panel.minimumSizeHint().width() <= kHalfScreen,
             qPrintable(QString::number(panel.minimumSizeHint().width())));
    panel.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(panel));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY2(panel.minimumSizeHint().width() <= kHalfScreen,
             qPrintable(QString::number(panel.minimumSizeHint().width())));
    auto* dimensions = panel.findChildren<QComboBox*>().at(4);
    QCOMPARE(dimensions->itemData(1).toInt(), 3);
    dimensions->setCurrentIndex(1);
    QCoreApplication::processEvents();
    QVERIFY2(panel.minimumSizeHint().width() <= kHalfScreen,
             qPrintable(QString::number(panel.minimumSizeHint().width())));
}

QTEST_MAIN(TestProjectorPanel)
#include "tst_projectorpanel.moc"
