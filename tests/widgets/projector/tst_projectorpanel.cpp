#include "widgets/projector/projectorpanel.h"

#include "importers/embeddings/projectorreader.h"
#include "widgets/projector/pointcolors.h"
#include "widgets/projector/projectorscatter.h"

#include <QComboBox>
#include <QListWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

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

QTEST_MAIN(TestProjectorPanel)
#include "tst_projectorpanel.moc"
