#include "widgets/projector/orbitview.h"
#include "widgets/projector/projectorpanel.h"
#include "widgets/projector/projectorscatter.h"
#include "widgets/projector/projectorscatter3d.h"
#include "widgets/projector/spritesheet.h"

#include "importers/embeddings/projectorreader.h"

#include <QComboBox>
#include <QListWidget>
#include <QStackedWidget>
#include <QtTest>

#include <cmath>

using namespace runlens;
using namespace runlens::widgets::projector;

namespace {

const QString kFixtureDir = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/projector");

std::vector<models::embeddings::EmbeddingSetPtr> fixtureSets()
{
    return importers::embeddings::readProjectorFolder(kFixtureDir + QStringLiteral("/projector_config.pbtxt")).sets;
}

bool waitForPca(ProjectorPanel& panel)
{
    return QTest::qWaitFor([&] { return !panel.isComputing() && panel.pca().has_value(); }, 10000);
}

/// Where a picture of the panel goes when RUNLENS_PROJECTOR_PICTURES names a folder (for looking at it).
void keepPicture(QWidget& widget, const QString& name)
{
    const QString folder = qEnvironmentVariable("RUNLENS_PROJECTOR_PICTURES");
    if (!folder.isEmpty())
        QVERIFY(widget.grab().save(QDir(folder).filePath(name)));
}

int nonWhitePixels(const QImage& image)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            count += (image.pixel(x, y) & 0xffffff) != 0xffffff ? 1 : 0;
    return count;
}

} // namespace

class TestProjector3d : public QObject
{
    Q_OBJECT
private slots:
    void axisPointsProjectWhereExpected();
    void dragRotatesAboutTheScreenAxes();
    void pickingPrefersTheNearerPoint();
    void scatterPicksItsPoints();
    void spriteCellsAreCutFromTheSheet();
    void panelSwitchesToThreeDAndBack();
    void tsneRunsInThreeDimensions();
    void spritesDrawnAndToggled();
    void stateRoundTrip();
};

void TestProjector3d::axisPointsProjectWhereExpected()
{
    OrbitView view;
    view.fit({ -2.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.0f }); // centre 0, radius 2
    QCOMPARE(view.radius(), 2.0f);
    view.setRotation(QQuaternion());
    const QSize size(200, 100); // 50 pixels per unit: half the shorter side
    const QVector3D onX(2.0f, 0.0f, 0.0f);
    const double k = OrbitView::kFocal / OrbitView::kDistance; // depth of a point on the picture plane
    OrbitView::Projected p = view.project(onX, size);
    QVERIFY(p.visible);
    QCOMPARE(p.depth, OrbitView::kDistance);
    QVERIFY(std::abs(p.position.x() - (100.0 + k * 50.0)) < 1e-4);
    QVERIFY(std::abs(p.position.y() - 50.0) < 1e-4);

    // A quarter turn about +y takes +x to -z: straight behind the centre, farther away.
    view.setRotation(QQuaternion::fromAxisAndAngle(0, 1, 0, 90));
    p = view.project(onX, size);
    QVERIFY(std::abs(p.position.x() - 100.0) < 1e-4);
    QVERIFY(std::abs(p.position.y() - 50.0) < 1e-4);
    QVERIFY(std::abs(p.depth - (OrbitView::kDistance + 1.0f)) < 1e-5);

    // A quarter turn about +z takes +x to +y: straight above the centre (screen y grows downwards).
    view.setRotation(QQuaternion::fromAxisAndAngle(0, 0, 1, 90));
    p = view.project(onX, size);
    QVERIFY(std::abs(p.position.x() - 100.0) < 1e-4);
    QVERIFY(std::abs(p.position.y() - (50.0 - k * 50.0)) < 1e-4);

    // Zoom scales the offset from the centre; pan moves everything by as many pixels.
    view.zoomBy(2.0);
    view.panBy(QPointF(10, 5), size);
    p = view.project(onX, size);
    QVERIFY(std::abs(p.position.x() - 110.0) < 1e-4);
    QVERIFY(std::abs(p.position.y() - (55.0 - 2.0 * k * 50.0)) < 1e-4);

    // Perspective: the nearer of two points at the same height is drawn farther from the centre.
    view.reset();
    view.setRotation(QQuaternion());
    const QPointF nearPoint = view.project(QVector3D(1.0f, 0.0f, 1.0f), size).position;
    const QPointF farPoint = view.project(QVector3D(1.0f, 0.0f, -1.0f), size).position;
    QVERIFY(nearPoint.x() > farPoint.x());
}

void TestProjector3d::dragRotatesAboutTheScreenAxes()
{
    OrbitView view;
    view.fit({ -1.0f, -1.0f, -1.0f, 1.0f, 1.0f, 1.0f });
    view.setRotation(QQuaternion());
    const QSize size(400, 400);
    const QVector3D front(0.0f, 0.0f, view.radius()); // the point nearest to the camera
    // 0.4 degrees per pixel: 225 pixels to the right is a quarter turn, and the front point moves right.
    view.rotateBy(QPointF(225, 0), size);
    QVector3D v = view.toView(front);
    QVERIFY(std::abs(v.x() - 1.0f) < 1e-5 && std::abs(v.z()) < 1e-5);
    // Dragging down turns the front of the scene down.
    view.setRotation(QQuaternion());
    view.rotateBy(QPointF(0, 225), size);
    v = view.toView(front);
    QVERIFY(std::abs(v.y() + 1.0f) < 1e-5 && std::abs(v.z()) < 1e-5);
}

void TestProjector3d::pickingPrefersTheNearerPoint()
{
    std::vector<OrbitView::Projected> projected(4);
    projected[0] = { QPointF(10, 10), 3.5f, true };
    projected[1] = { QPointF(50, 50), 3.2f, true };
    projected[2] = { QPointF(50, 50), 2.4f, true }; // on top of 1, nearer to the camera
    projected[3] = { QPointF(80, 80), 2.0f, false }; // behind the camera
    QCOMPARE(pickNearest(projected, QPointF(11, 12), 6.0), 0);
    QCOMPARE(pickNearest(projected, QPointF(51, 50), 6.0), 2);
    QCOMPARE(pickNearest(projected, QPointF(80, 80), 6.0), -1);
    QCOMPARE(pickNearest(projected, QPointF(30, 30), 6.0), -1);
}

void TestProjector3d::scatterPicksItsPoints()
{
    ProjectorScatter3d scatter;
    scatter.resize(400, 300);
    // Points 3 and 4 are one behind the other on the camera's axis.
    scatter.setPoints({ 1, 0, 0, 0, 1, 0, -1, -1, 0, 0, 0, 1, 0, 0, -1 });
    scatter.view().setRotation(QQuaternion());
    for (int i = 0; i < 3; ++i)
        QCOMPARE(scatter.pointAt(scatter.pointPosition(i) + QPointF(2, -1)), i);
    QCOMPARE(scatter.pointAt(QPointF(200, 150)), 3);
    scatter.view().setRotation(QQuaternion::fromAxisAndAngle(0, 1, 0, 180));
    QCOMPARE(scatter.pointAt(QPointF(200, 150)), 4);
    QCOMPARE(scatter.pointAt(QPointF(5, 5)), -1);

    // A click picks; a drag rotates and does not.
    QSignalSpy clicked(&scatter, &ProjectorScatter3d::pointClicked);
    const QPoint at = scatter.pointPosition(1).toPoint();
    QTest::mouseClick(&scatter, Qt::LeftButton, {}, at);
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked.at(0).at(0).toInt(), 1);
    const QQuaternion before = scatter.view().rotation();
    QTest::mousePress(&scatter, Qt::LeftButton, {}, at);
    QMouseEvent move(QEvent::MouseMove, QPointF(at + QPoint(40, 0)), scatter.mapToGlobal(QPointF(at + QPoint(40, 0))),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&scatter, &move);
    QTest::mouseRelease(&scatter, Qt::LeftButton, {}, at + QPoint(40, 0));
    QCOMPARE(clicked.size(), 1);
    QVERIFY(!qFuzzyCompare(scatter.view().rotation(), before));
}

void TestProjector3d::spriteCellsAreCutFromTheSheet()
{
    // A sheet of 3 x 2 cells of 4 x 5 pixels, each pixel telling its cell and place.
    QImage image(12, 10, QImage::Format_ARGB32);
    for (int y = 0; y < 10; ++y)
        for (int x = 0; x < 12; ++x)
            image.setPixel(x, y, qRgb(x * 20, y * 20, (y / 5) * 3 + x / 4));
    const SpriteSheet sheet(image, QSize(4, 5));
    QCOMPARE(sheet.columns(), 3);
    QCOMPARE(sheet.capacity(), 6);
    QCOMPARE(sheet.cellRect(4), QRect(4, 5, 4, 5));
    QVERIFY(sheet.cellRect(6).isEmpty());
    QVERIFY(sheet.cellRect(-1).isEmpty());
    for (int cell = 0; cell < 6; ++cell) {
        const QImage thumbnail = sheet.cell(cell);
        QCOMPARE(thumbnail.size(), QSize(4, 5));
        for (int y = 0; y < 5; ++y)
            for (int x = 0; x < 4; ++x)
                QCOMPARE(thumbnail.pixel(x, y), qRgb(((cell % 3) * 4 + x) * 20, ((cell / 3) * 5 + y) * 20, cell));
    }

    // The fixture's sheet as torch's add_embedding wrote it: 60 images of 8 x 8, 8 to a row.
    const std::vector<models::embeddings::EmbeddingSetPtr> sets = fixtureSets();
    QVERIFY(!sets.empty() && sets.front()->hasSprite());
    const SpriteSheet fixture = SpriteSheet::load(sets.front()->spritePath, sets.front()->spriteImageSize);
    QVERIFY(!fixture.isNull());
    QCOMPARE(fixture.columns(), 8);
    QVERIFY(fixture.capacity() >= sets.front()->rows);
    const QImage original(sets.front()->spritePath);
    for (int cell : { 0, 7, 8, 59 }) {
        const QImage thumbnail = fixture.cell(cell);
        const QPoint origin((cell % 8) * 8, (cell / 8) * 8);
        for (int y = 0; y < 8; ++y)
            for (int x = 0; x < 8; ++x)
                QCOMPARE(thumbnail.pixel(x, y), original.pixel(origin + QPoint(x, y)));
    }
}

void TestProjector3d::panelSwitchesToThreeDAndBack()
{
    ProjectorPanel panel;
    panel.resize(1100, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(panel));
    auto* stack = panel.findChild<QStackedWidget*>();
    QVERIFY(stack);
    QCOMPARE(stack->currentWidget(), static_cast<QWidget*>(panel.scatter()));

    panel.setThreeD(true);
    QVERIFY(panel.isThreeD());
    QCOMPARE(stack->currentWidget(), static_cast<QWidget*>(panel.scatter3d()));
    ProjectorScatter3d* scatter = panel.scatter3d();
    QCOMPARE(scatter->pointCount(), 60);
    // PC1, PC2 and PC3 on the three axes.
    const int i = 7;
    QVERIFY(std::abs(
                scatter->view().toView({ panel.pca()->at(i, 0), panel.pca()->at(i, 1), panel.pca()->at(i, 2) }).length()
                - scatter->view()
                      .toView(QVector3D(panel.pca()->at(i, 0), panel.pca()->at(i, 1), panel.pca()->at(i, 2)))
                      .length())
            < 1e-6);

    // Search, selection and neighbours reach the 3-D view; a click there selects.
    panel.setSearch(QStringLiteral("class1"));
    QVERIFY(panel.matchCount() > 0);
    QTest::qWait(50);
    const QPoint at = scatter->pointPosition(i).toPoint();
    QCOMPARE(scatter->pointAt(at), i);
    QTest::mouseClick(scatter, Qt::LeftButton, {}, at);
    QCOMPARE(panel.selectedPoint(), i);
    QCOMPARE(int(panel.neighbours().size()), 10);
    const QImage picture = scatter->render(scatter->size());
    QVERIFY(nonWhitePixels(picture) > 500);
    keepPicture(panel, QStringLiteral("projector-3d.png"));

    // Back to 2-D: the same points, the selection kept.
    panel.setThreeD(false);
    QCOMPARE(stack->currentWidget(), static_cast<QWidget*>(panel.scatter()));
    QCOMPARE(panel.scatter()->pointCount(), 60);
    QCOMPARE(panel.selectedPoint(), i);
    QCOMPARE(panel.saveState().value(QStringLiteral("dimensions")).toInt(), 2);
}

void TestProjector3d::tsneRunsInThreeDimensions()
{
    ProjectorPanel panel;
    panel.resize(1000, 700);
    panel.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(panel));
    models::embeddings::TsneOptions options;
    options.iterations = 300;
    panel.setTsneOptions(options);
    panel.setThreeD(true);
    panel.setMethod(ProjectorPanel::Method::Tsne);
    QVERIFY(QTest::qWaitFor([&] { return !panel.isTsneRunning(); }, 120000));
    QCOMPARE(panel.tsneDimensions(), 3);
    QCOMPARE(panel.tsneEmbedding().size(), std::size_t(60 * 3));
    QCOMPARE(panel.scatter3d()->pointCount(), 60);
    // Back to 2-D: a run of its own with two output dimensions.
    panel.setThreeD(false);
    QVERIFY(QTest::qWaitFor([&] { return !panel.isTsneRunning(); }, 120000));
    QCOMPARE(panel.tsneDimensions(), 2);
    QCOMPARE(panel.scatter()->pointCount(), 60);
}

void TestProjector3d::spritesDrawnAndToggled()
{
    ProjectorPanel panel;
    panel.resize(1100, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(panel));
    QVERIFY(!panel.spriteSheet().isNull());
    QVERIFY(panel.spritesShown());
    QVERIFY(panel.scatter()->showsSprites());
    // Point 12 alone matches (scores are 0.5 apart): its thumbnail is drawn last, enlarged, on top.
    const int i = 12;
    panel.setSearch(QStringLiteral("^6\\.0$"));
    QCOMPARE(panel.matchCount(), 1);
    keepPicture(panel, QStringLiteral("projector-2d-sprites.png"));
    QTest::qWait(20); // pending layout changes settle the scatter's size
    const QSize size = panel.scatter()->size();
    const QImage withSprites = panel.scatter()->render(size);
    const QPoint centre = panel.scatter()->pointPosition(i).toPoint();
    const QImage cell = panel.spriteSheet().cell(i).convertToFormat(QImage::Format_RGB32);
    QSet<QRgb> cellColors;
    for (int y = 0; y < cell.height(); ++y)
        for (int x = 0; x < cell.width(); ++x)
            cellColors.insert(cell.pixel(x, y));
    for (const QPoint offset : { QPoint(0, 0), QPoint(-3, -3), QPoint(3, 2) })
        QVERIFY(cellColors.contains(withSprites.pixel(centre + offset)));
    panel.setSearch(QString());

    panel.setSpritesShown(false);
    QVERIFY(!panel.scatter()->showsSprites());
    QVERIFY(!panel.scatter3d()->showsSprites());
    QVERIFY(panel.scatter()->render(size) != withSprites);

    // In 3-D too.
    panel.setSpritesShown(true);
    panel.setThreeD(true);
    QVERIFY(panel.scatter3d()->showsSprites());
    QTest::qWait(50);
    keepPicture(panel, QStringLiteral("projector-3d-sprites.png"));

    // The second set has no sprite: the toggle stays but draws dots.
    panel.setCurrentSet(1);
    QVERIFY(panel.spriteSheet().isNull());
    QVERIFY(!panel.scatter3d()->showsSprites());
}

void TestProjector3d::stateRoundTrip()
{
    ProjectorPanel panel;
    QCOMPARE(panel.saveState().value(QStringLiteral("dimensions")).toInt(), 2);
    QCOMPARE(panel.saveState().value(QStringLiteral("sprites")).toBool(), true);
    panel.restoreState({ { QStringLiteral("dimensions"), 3 }, { QStringLiteral("sprites"), false } });
    QVERIFY(panel.isThreeD());
    QVERIFY(!panel.spritesShown());
    ProjectorPanel other;
    other.restoreState(panel.saveState());
    QVERIFY(other.isThreeD());
    QVERIFY(!other.spritesShown());
    // Without a set, the 3-D choice waits for one: the first set comes up in 3-D.
    other.addEmbeddings(fixtureSets());
    QVERIFY(waitForPca(other));
    QCOMPARE(other.scatter3d()->pointCount(), 60);
}

QTEST_MAIN(TestProjector3d)
#include "tst_projector3d.moc"
