#include "tests/widgets/graph/graphviewtestdata.h"
#include "widgets/graph/graphview.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::models::graph;
using namespace runlens::widgets::graph;

namespace {

int child(const ScopeTree& tree, int container, const std::string& label)
{
    for (const int id : tree.item(container).children) {
        if (tree.item(id).label == label)
            return id;
    }
    return -1;
}

bool shows(const GraphView& view, int item)
{
    const auto items = view.shownItems();
    return std::find(items.begin(), items.end(), item) != items.end();
}

QPoint centreOf(const GraphView& view, int item)
{
    const int box = view.scene().boxOf(item);
    return view.mapFromScene(view.scene().boxes[std::size_t(box)].rect.center()).toPoint();
}

QPoint titleOf(const GraphView& view, int item)
{
    const QRectF rect = view.scene().boxes[std::size_t(view.scene().boxOf(item))].rect;
    return view.mapFromScene(QPointF(rect.center().x(), rect.top() + 8)).toPoint();
}

} // namespace

class TestGraphView : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const ScopeTree> m_tree;
    int m_model = -1;
    int m_enc = -1;
    int m_attn = -1;

private slots:
    void initTestCase()
    {
        m_tree = ScopeTree::build(test::smallModel());
        m_model = child(*m_tree, ScopeTree::root(), "model");
        m_enc = child(*m_tree, m_model, "enc");
        m_attn = child(*m_tree, m_enc, "attn");
        QVERIFY(m_attn > 0);
    }

    void gatheredInputsStartCollapsed()
    {
        test::GraphBuilder b;
        std::vector<test::GraphBuilder::In> features;
        for (int i = 0; i < 20; ++i) {
            b.node("feature_" + std::to_string(i), "Input", {}, models::graph::NodeKind::Input);
            features.push_back({ "feature_" + std::to_string(i) });
        }
        b.node("model/concat", "Concat", features);
        const auto tree = models::graph::ScopeTree::build(b.finish());
        const models::graph::ExpansionState state = GraphView::openingState(*tree, 60);
        int inputs = -1;
        int model = -1;
        for (const int id : tree->item(models::graph::ScopeTree::root()).children)
            (tree->item(id).gathersInputs ? inputs : model) = id;
        QVERIFY(inputs > 0 && model > 0);
        QVERIFY(!state.isExpanded(inputs)); // 20 inputs would fit, but they are not what the graph is about
        QVERIFY(state.isExpanded(model));
    }

    void doubleClickAndEnterExpandAndCollapse()
    {
        GraphView view;
        view.resize(900, 700);
        view.show();
        view.setTree(m_tree);
        QTRY_VERIFY(!view.isLayoutPending() && !view.scene().isEmpty());
        QCOMPARE(view.shownItems().size(), m_tree->item(ScopeTree::root()).children.size());
        QVERIFY(shows(view, m_model));
        QVERIFY(!shows(view, m_enc));

        QTest::mouseDClick(&view, Qt::LeftButton, {}, centreOf(view, m_model));
        QTRY_VERIFY(!view.isLayoutPending() && shows(view, m_enc));
        QVERIFY(view.expansionState().isExpanded(m_model));
        QCOMPARE(view.selectedItem(), m_model);
        for (const int id : m_tree->item(m_model).children)
            QVERIFY(shows(view, id));
        QVERIFY(!shows(view, m_attn));

        // Select enc with a click, expand it with Enter.
        view.fitToView();
        QTest::mouseClick(&view, Qt::LeftButton, {}, centreOf(view, m_enc));
        QCOMPARE(view.selectedItem(), m_enc);
        QTest::keyClick(&view, Qt::Key_Return);
        QTRY_VERIFY(!view.isLayoutPending() && shows(view, m_attn));

        // Double-click on the model frame's title collapses it again.
        view.fitToView();
        QTest::mouseDClick(&view, Qt::LeftButton, {}, titleOf(view, m_model));
        QTRY_VERIFY(!view.isLayoutPending() && !shows(view, m_enc));
        QVERIFY(!view.expansionState().isExpanded(m_model));
        QVERIFY(view.expansionState().isExpanded(m_enc)); // remembered for the next expansion
    }

    void revealExpandsAncestorsAndCentres()
    {
        GraphView view;
        view.resize(800, 600);
        view.show();
        view.setTree(m_tree);
        QTRY_VERIFY(!view.isLayoutPending());
        const int softmax = m_tree->itemOfNode(m_tree->graph().find("model/enc/attn/softmax"));
        view.revealItem(softmax);
        QTRY_VERIFY(!view.isLayoutPending() && shows(view, softmax));
        QCOMPARE(view.selectedItem(), softmax);
        for (const int ancestor : m_tree->ancestors(softmax))
            QVERIFY(view.expansionState().isExpanded(ancestor));
        const QPoint centre = centreOf(view, softmax);
        QVERIFY(qAbs(centre.x() - 400) <= 2);
        QVERIFY(qAbs(centre.y() - 300) <= 2);
    }

    void tracesUpstreamAndDownstream()
    {
        GraphView view;
        view.resize(800, 600);
        view.setTree(m_tree);
        view.expandAllBelow(m_model, 1000);
        QTRY_VERIFY(!view.isLayoutPending());
        const auto item = [this](const char* name) { return m_tree->itemOfNode(m_tree->graph().find(name)); };
        view.setSelectedItem(item("model/mid/mlp/act"));
        QCOMPARE(view.upstreamItems(), (std::unordered_set<int> { item("model/mid/mlp/fc1") }));
        QCOMPARE(view.downstreamItems(), (std::unordered_set<int> { item("model/mid/mlp/fc2") }));
        view.setHighlightDepth(3);
        QVERIFY(view.upstreamItems().count(item("model/mid/add1")));
        QVERIFY(view.downstreamItems().count(item("model/mid/add2")));
        QVERIFY(view.downstreamItems().count(item("model/dec/attn/q"))); // act -> fc2 -> add2 -> q
        QVERIFY(!view.downstreamItems().count(item("model/dec/mlp/fc1"))); // four steps away
        // A collapsed group stands for the ops inside it.
        const int mid = child(*m_tree, m_model, "mid");
        view.setExpanded(mid, false);
        QTRY_VERIFY(!view.isLayoutPending());
        view.setSelectedItem(item("model/dec/attn/q"));
        view.setHighlightDepth(1);
        QCOMPARE(view.upstreamItems(), (std::unordered_set<int> { mid }));
    }

    void expandAllIsBounded()
    {
        GraphView view;
        view.resize(800, 600);
        view.setTree(m_tree);
        QSignalSpy messages(&view, &GraphView::message);
        const int wouldShow = view.expandAllBelow(m_model, 10);
        QVERIFY(wouldShow > 10);
        QCOMPARE(messages.count(), 1);
        QVERIFY(!view.expansionState().isExpanded(m_model));
        view.expandAllBelow(m_model, 1000);
        QTRY_VERIFY(!view.isLayoutPending());
        QCOMPARE(int(view.shownItems().size()), m_tree->itemCount() - 1);
        view.collapseAllBelow(m_model);
        QTRY_VERIFY(!view.isLayoutPending());
        QVERIFY(view.expansionState().expanded().empty());
    }

    void zoomAtCursorAndFit()
    {
        GraphView view;
        view.resize(800, 600);
        view.show();
        view.setTree(m_tree);
        QTRY_VERIFY(!view.isLayoutPending());
        const double before = view.zoom();
        const QPointF anchor(200, 150);
        const QPointF sceneAnchor = view.mapToScene(anchor);
        QWheelEvent wheel(anchor, view.mapToGlobal(anchor), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(view.zoom() > before);
        QVERIFY((view.mapToScene(anchor) - sceneAnchor).manhattanLength() < 1e-6);
        QTest::keyClick(&view, Qt::Key_Space);
        const QRectF bounds = view.scene().bounds;
        const QRectF onScreen(view.mapFromScene(bounds.topLeft()), view.mapFromScene(bounds.bottomRight()));
        QVERIFY(QRectF(view.rect()).contains(onScreen));
        QVERIFY(onScreen.width() > view.width() * 0.9 || onScreen.height() > view.height() * 0.9
                || view.zoom() == 1.5); // small pictures are not blown up beyond 150 %
    }

    void itemColorsOverrideTheColouring()
    {
        GraphView view;
        view.resize(640, 480);
        view.setTree(m_tree, GraphView::openingState(*m_tree, 60));
        QTRY_VERIFY(!view.isLayoutPending());
        view.fitToView();
        int op = -1;
        for (const int id : view.shownItems()) {
            if (m_tree->item(id).kind == ScopeItemKind::Op && op < 0)
                op = id;
        }
        QVERIFY(op > 0);
        const QColor before = view.itemFill(op);
        const QColor marked(3, 201, 7);
        std::vector<QColor> colors(std::size_t(m_tree->itemCount()));
        colors[std::size_t(op)] = marked;
        view.setItemColors(colors);
        QCOMPARE(view.itemFill(op), marked);
        // Items without a colour keep the colour mode's.
        const int other = view.shownItems().back() == op ? view.shownItems().front() : view.shownItems().back();
        QVERIFY(view.itemFill(other) != marked);
        const QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
        int painted = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                painted += QColor(image.pixel(x, y)) == marked ? 1 : 0;
        QVERIFY2(painted > 20, qPrintable(QString::number(painted)));
        // A new tree starts without them.
        view.setTree(m_tree);
        QCOMPARE(view.itemFill(op), before);
    }

    void collapsedPictureIsNotEmpty()
    {
        GraphView view;
        view.resize(640, 480);
        view.setTree(m_tree);
        QTRY_VERIFY(!view.isLayoutPending());
        view.fitToView();
        const QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
        const QRgb background = image.pixel(2, 2);
        int painted = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                painted += image.pixel(x, y) != background ? 1 : 0;
        QVERIFY2(painted > image.width() * image.height() / 100, qPrintable(QString::number(painted)));
    }
};

QTEST_MAIN(TestGraphView)
#include "tst_graphview.moc"
