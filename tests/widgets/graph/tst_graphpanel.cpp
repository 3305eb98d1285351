#include "tests/models/trace/analysistestdata.h"
#include "tests/widgets/graph/graphviewtestdata.h"
#include "widgets/graph/graphpanel.h"
#include "widgets/graph/graphview.h"

#include <QComboBox>
#include <QListWidget>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::models::graph;
using namespace runlens::widgets::graph;

namespace {

/// The colour covering most of an item's box in the view's picture.
QRgb dominantColour(const GraphView& view, const QImage& image, int item)
{
    const int box = view.scene().boxOf(item);
    if (box < 0)
        return 0;
    const QRectF sceneRect = view.scene().boxes[std::size_t(box)].rect;
    const QRect rect = QRectF(view.mapFromScene(sceneRect.topLeft()), view.mapFromScene(sceneRect.bottomRight()))
                           .toRect()
                           .adjusted(3, 3, -3, -3)
                           .intersected(image.rect());
    QHash<QRgb, int> counts;
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        for (int x = rect.left(); x <= rect.right(); ++x)
            ++counts[image.pixel(x, y)];
    }
    QRgb best = 0;
    int bestCount = 0;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.value() > bestCount) {
            best = it.key();
            bestCount = it.value();
        }
    }
    return best;
}

int childByLabel(const ScopeTree& tree, int container, const std::string& label)
{
    for (const int id : tree.item(container).children) {
        if (tree.item(id).label == label)
            return id;
    }
    return -1;
}

} // namespace

class TestGraphPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("RunLensTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_graphpanel"));
        QSettings().clear();
    }

    void searchResultRevealsNode()
    {
        GraphPanel panel;
        panel.resize(1000, 700);
        panel.show();
        panel.addGraph(test::smallModel());
        QTRY_VERIFY(panel.tree() && !panel.view()->isLayoutPending());
        const auto tree = panel.tree();
        QCOMPARE(panel.search(QStringLiteral("softmax")), 3);
        QVERIFY(panel.resultList()->isVisible());
        QListWidget* list = panel.resultList();
        const int target = list->item(1)->data(Qt::UserRole).toInt();
        QVERIFY(QString::fromStdString(tree->graph().nodes[std::size_t(tree->item(target).node)].fullName())
                    .contains("mid"));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(1)).center());
        QTRY_VERIFY(!panel.view()->isLayoutPending() && panel.view()->scene().boxOf(target) >= 0);
        QCOMPARE(panel.view()->selectedItem(), target);
        for (const int ancestor : tree->ancestors(target))
            QVERIFY(panel.view()->expansionState().isExpanded(ancestor));
        QCOMPARE(panel.search(QStringLiteral("([")), 0); // invalid only as a regex: a plain substring here
        QCOMPARE(panel.search(QStringLiteral("Gelu")), 3);
    }

    void profilerTimeColoursMatchedBoxes()
    {
        GraphPanel panel;
        panel.resize(1000, 700);
        panel.show();
        panel.addGraph(test::smallModel());
        QTRY_VERIFY(panel.tree() && !panel.view()->isLayoutPending());
        auto* color = panel.findChild<QComboBox*>(QStringLiteral("graphColor"));
        QVERIFY(color);
        const int profileIndex = color->findData(int(GraphView::ColorMode::ProfilerTime));
        QVERIFY(profileIndex >= 0);
        auto* model = qobject_cast<QStandardItemModel*>(color->model());
        QVERIFY(!model->item(profileIndex)->isEnabled()); // no trace yet

        // Ops of the "enc" block ran for 1 ms each, one op of "mid" for 0.1 ms, nothing of "dec".
        test::AnalysisTraceBuilder t;
        std::int64_t at = 0;
        for (const char* op : { "model/enc/attn/q", "model/enc/attn/k", "model/enc/mlp/fc1" }) {
            t.slice(t.gpu(), at, 1'000'000, op, models::trace::EventKind::Kernel);
            at += 2'000'000;
        }
        t.slice(t.gpu(), at, 100'000, "fc1", models::trace::EventKind::Kernel); // ambiguous short name: unmatched
        t.slice(t.gpu(), at + 200'000, 100'000, "model/mid/mlp/fc1", models::trace::EventKind::Kernel);
        QSignalSpy profiled(&panel, &GraphPanel::profileChanged);
        panel.setProfile(t.finish());
        QVERIFY(model->item(profileIndex)->isEnabled());
        QTRY_VERIFY(panel.profile() != nullptr);
        QCOMPARE(profiled.count(), 1);

        const auto tree = panel.tree();
        const int modelGroup = childByLabel(*tree, ScopeTree::root(), "model");
        const int enc = childByLabel(*tree, modelGroup, "enc");
        const int mid = childByLabel(*tree, modelGroup, "mid");
        const int dec = childByLabel(*tree, modelGroup, "dec");
        QVERIFY(enc > 0 && mid > 0 && dec > 0);
        QCOMPARE(panel.profile()->time(tree.get(), enc), 3'000'000);
        QCOMPARE(panel.profile()->time(tree.get(), mid), 100'000);
        QCOMPARE(panel.profile()->time(tree.get(), dec), 0);
        QCOMPARE(panel.profile()->total, 3'100'000);

        ExpansionState state;
        state.setExpanded(modelGroup, true);
        panel.view()->setExpansionState(state);
        color->setCurrentIndex(profileIndex);
        QCOMPARE(panel.view()->colorMode(), GraphView::ColorMode::ProfilerTime);
        QTRY_VERIFY(!panel.view()->isLayoutPending() && panel.view()->scene().boxOf(dec) >= 0);
        panel.view()->fitToView();
        const QImage image = panel.view()->grab().toImage().convertToFormat(QImage::Format_RGB32);
        // enc holds the largest shown time: the hot end of the scale; dec has none: neutral.
        QCOMPARE(QColor(dominantColour(*panel.view(), image, enc)), GraphView::heatColor(1.0));
        QCOMPARE(QColor(dominantColour(*panel.view(), image, dec)), GraphView::noTimeColor());
        const QColor midColour(dominantColour(*panel.view(), image, mid));
        QVERIFY(midColour != GraphView::noTimeColor() && midColour != GraphView::heatColor(1.0));

        // Without the trace the mode is withdrawn and the boxes go back to op type colours.
        panel.setProfile(nullptr);
        QVERIFY(!model->item(profileIndex)->isEnabled());
        QCOMPARE(panel.view()->colorMode(), GraphView::ColorMode::OpType);
        QVERIFY(panel.profile() == nullptr);
    }

    void exportsSvgAndPng()
    {
        GraphPanel panel;
        panel.resize(800, 600);
        panel.addGraph(test::smallModel());
        QTRY_VERIFY(panel.tree() && !panel.view()->isLayoutPending());
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("g.svg"));
        const QString png = dir.filePath(QStringLiteral("g.png"));
        QString error;
        QVERIFY2(panel.exportTo(svg, &error), qPrintable(error));
        QVERIFY2(panel.exportTo(png, &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains(">softmax<")); // the small model opens up completely
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 100);
        QVERIFY(!panel.exportTo(dir.filePath(QStringLiteral("g.gif")), &error));
        QVERIFY(error.contains(QStringLiteral("g.gif")));
    }

    void exportWithoutWindowOpensTopLevels()
    {
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("cli.svg"));
        QString error;
        QVERIFY2(GraphPanel::exportGraph(test::smallModel(), svg, &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        // The small model's groups are all opened (it stays under the item bound): its ops are drawn.
        QVERIFY(text.contains(">softmax<"));
        QVERIFY(text.contains(">fc2<"));
        QVERIFY(!GraphPanel::exportGraph(test::smallModel(), dir.filePath(QStringLiteral("cli.bmp")), &error));
    }

    void opensOnTheRichestHierarchy()
    {
        GraphPanel panel;
        panel.resize(800, 600);
        // A flat FX dot arrives first, then the scoped export of the same model, then another flat one.
        test::GraphBuilder flat;
        flat.node("x", "placeholder", {}, NodeKind::Input);
        for (int i = 0; i < 40; ++i)
            flat.node("op_" + std::to_string(i), "call_module", { { i == 0 ? "x" : "op_" + std::to_string(i - 1) } });
        panel.addGraph(flat.finish());
        QCOMPARE(panel.currentGraphIndex(), 0);
        panel.addGraph(test::smallModel("/nonexistent/runs/model.onnx"));
        QCOMPARE(panel.currentGraphIndex(), 1);
        panel.addGraph(flat.finish());
        QCOMPARE(panel.currentGraphIndex(), 1);
        QTRY_VERIFY(panel.tree() && panel.currentGraphPath() == QStringLiteral("/nonexistent/runs/model.onnx"));

        // Once the user picked one, later arrivals leave it.
        auto* choice = panel.findChild<QComboBox*>(QStringLiteral("graphChoice"));
        QVERIFY(choice);
        choice->setCurrentIndex(0);
        emit choice->activated(0);
        panel.addGraph(test::smallModel("/nonexistent/runs/other.onnx"));
        QCOMPARE(panel.currentGraphIndex(), 0);

        // selectGraph (a restored session) pins its choice as well.
        panel.clear();
        panel.addGraph(flat.finish());
        QVERIFY(!panel.selectGraph(QStringLiteral("missing.onnx")));
        panel.addGraph(test::smallModel("/nonexistent/runs/model.onnx"));
        QCOMPARE(panel.currentGraphIndex(), 1);
        panel.clear();
        auto flatFile = std::make_shared<Graph>(*flat.finish());
        flatFile->path = QStringLiteral("/nonexistent/runs/fx.dot");
        panel.addGraph(flatFile);
        QVERIFY(panel.selectGraph(QStringLiteral("fx.dot")));
        panel.addGraph(test::smallModel("/nonexistent/runs/model.onnx"));
        QCOMPARE(panel.currentGraphIndex(), 0);
    }

    void stateRememberedPerFile()
    {
        const QString path = QStringLiteral("/nonexistent/runs/model.onnx");
        int model = -1;
        {
            GraphPanel panel;
            panel.resize(800, 600);
            panel.addGraph(test::smallModel(path.toStdString()));
            QTRY_VERIFY(panel.tree() && !panel.view()->isLayoutPending());
            model = panel.tree()->findKey("g:model");
            // A small graph opens up on its first visit.
            QCOMPARE(panel.view()->expansionState(), GraphView::openingState(*panel.tree(), 60));
            QVERIFY(panel.view()->expansionState().expanded().size() > 1);
            ExpansionState onlyModel;
            onlyModel.setExpanded(model, true);
            panel.view()->setExpansionState(onlyModel);
            QTRY_VERIFY(!panel.view()->isLayoutPending());
            panel.view()->setViewport(0.75, QPointF(120, 80));
        }
        GraphPanel panel;
        panel.resize(800, 600);
        panel.addGraph(test::smallModel(path.toStdString()));
        QTRY_VERIFY(panel.tree() && !panel.view()->isLayoutPending());
        QCOMPARE(panel.view()->expansionState().expanded(), std::set<int> { model });
        QCOMPARE(panel.view()->zoom(), 0.75);
        QVERIFY((panel.view()->viewCentre() - QPointF(120, 80)).manhattanLength() < 1);

        GraphPanel other;
        other.addGraph(test::smallModel("/nonexistent/runs/other.onnx"));
        QTRY_VERIFY(other.tree());
        QCOMPARE(other.view()->expansionState(), GraphView::openingState(*other.tree(), 60));
    }
};

QTEST_MAIN(TestGraphPanel)
#include "tst_graphpanel.moc"
