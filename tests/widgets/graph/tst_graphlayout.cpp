#include "models/graph/graphvizlock.h"
#include "tests/widgets/graph/graphviewtestdata.h"
#include "widgets/graph/graphlayout.h"

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

GroupLayout layoutRoot(const ScopeTree& tree, const QString& rankDir)
{
    std::vector<QSizeF> sizes(tree.item(ScopeTree::root()).children.size(), QSizeF(80, 30));
    const std::lock_guard<std::mutex> lock(graphvizMutex());
    return GraphLayoutEngine::runDot(tree, ScopeTree::root(), sizes, rankDir);
}

LayoutRequest request(const std::shared_ptr<const ScopeTree>& tree, const ExpansionState& state)
{
    LayoutRequest r;
    r.tree = tree;
    r.state = state;
    for (const int id : tree->visibleItems(state))
        r.collapsedSizes.insert(id, QSizeF(100, 36));
    return r;
}

} // namespace

class TestGraphLayout : public QObject
{
    Q_OBJECT

private slots:
    void chainTopToBottom()
    {
        test::GraphBuilder b;
        b.node("a", "A").node("b", "B", { { "a" } }).node("c", "C", { { "b" } });
        const auto tree = ScopeTree::build(b.finish());
        const GroupLayout layout = layoutRoot(*tree, QStringLiteral("TB"));
        QVERIFY(!layout.failed);
        QCOMPARE(layout.childRects.size(), std::size_t(3));
        const QRectF a = layout.childRects[0], bRect = layout.childRects[1], c = layout.childRects[2];
        QCOMPARE(a.size(), QSizeF(80, 30)); // fixed sizes are kept
        QVERIFY(a.bottom() < bRect.top());
        QVERIFY(bRect.bottom() < c.top());
        QVERIFY(QRectF(QPointF(0, 0), layout.size).adjusted(-1, -1, 1, 1).contains(a.united(c)));
        QCOMPARE(layout.edges.size(), std::size_t(2));
        for (const auto& edge : layout.edges) {
            QVERIFY(edge.hasArrow);
            const LiftedEdge& lifted = tree->edgesOf(ScopeTree::root())[std::size_t(edge.edge)];
            const QRectF from = layout.childRects[lifted.from == tree->itemOfNode(0) ? 0 : 1];
            const QRectF to = layout.childRects[lifted.to == tree->itemOfNode(1) ? 1 : 2];
            // The spline leaves the producer's bottom and the arrow ends at the consumer's top.
            QVERIFY(qAbs(edge.path.pointAtPercent(0).y() - from.bottom()) < 2);
            QVERIFY(qAbs(edge.arrowTip.y() - to.top()) < 2);
        }
    }

    void leftToRight()
    {
        test::GraphBuilder b;
        b.node("a", "A").node("b", "B", { { "a" } });
        const auto tree = ScopeTree::build(b.finish());
        const GroupLayout layout = layoutRoot(*tree, QStringLiteral("LR"));
        QVERIFY(layout.childRects[0].right() < layout.childRects[1].left());
        QVERIFY(qAbs(layout.childRects[0].center().y() - layout.childRects[1].center().y()) < 1);
    }

    void isolatedChildrenFormABlock()
    {
        test::GraphBuilder b;
        for (int i = 0; i < 48; ++i)
            b.node("c" + std::to_string(i), "Op" + std::to_string(i));
        const auto tree = ScopeTree::build(b.finish());
        const GroupLayout layout = layoutRoot(*tree, QStringLiteral("TB"));
        QCOMPARE(layout.childRects.size(), std::size_t(48));
        QVERIFY(layout.edges.empty()); // the helper chains are not drawn
        // 48 boxes of 80x30 in one row would be ~5000 pt wide; stacked they are far narrower.
        QVERIFY2(layout.size.width() < 2000, qPrintable(QString::number(layout.size.width())));
        QVERIFY(layout.size.height() > 60);
        for (std::size_t i = 0; i < layout.childRects.size(); ++i)
            for (std::size_t j = i + 1; j < layout.childRects.size(); ++j)
                QVERIFY(!layout.childRects[i].intersects(layout.childRects[j]));
    }

    void expansionRelaysOutOnlyTheGroupAndItsAncestors()
    {
        const auto tree = ScopeTree::build(test::smallModel());
        const int model = child(*tree, ScopeTree::root(), "model");
        const int enc = child(*tree, model, "enc");
        const int dec = child(*tree, model, "dec");
        QVERIFY(enc > 0 && dec > 0);
        LayoutCache cache;
        ExpansionState state;
        LayoutResult first = GraphLayoutEngine::layoutNow(request(tree, state), cache);
        QCOMPARE(first.dotRuns, 1);
        QCOMPARE(first.groups.size(), std::size_t(1));

        state.setExpanded(model, true);
        state.setExpanded(enc, true);
        LayoutResult second = GraphLayoutEngine::layoutNow(request(tree, state), cache);
        QCOMPARE(second.dotRuns, 3); // enc, model, root
        // The expanded child is a box of its own laid-out size plus the frame.
        const GroupLayout& modelLayout = *second.groups.at(model);
        const auto& children = tree->item(model).children;
        const std::size_t encIndex = std::size_t(std::find(children.begin(), children.end(), enc) - children.begin());
        QCOMPARE(modelLayout.childRects[encIndex].size(), second.frame.frameSize(second.groups.at(enc)->size));

        state.setExpanded(dec, true);
        LayoutResult third = GraphLayoutEngine::layoutNow(request(tree, state), cache);
        QCOMPARE(third.dotRuns, 3); // dec, model, root; enc comes from the cache
        QCOMPARE(third.groups.at(enc), second.groups.at(enc));

        LayoutResult again = GraphLayoutEngine::layoutNow(request(tree, state), cache);
        QCOMPARE(again.dotRuns, 0);
    }

    void asynchronousPass()
    {
        const auto tree = ScopeTree::build(test::smallModel());
        GraphLayoutEngine engine;
        QFuture<LayoutResult> future = engine.layout(request(tree, {}));
        future.waitForFinished();
        const LayoutResult result = future.result();
        QCOMPARE(result.tree, tree);
        QVERIFY(result.groups.count(ScopeTree::root()));
        QCOMPARE(result.groups.at(ScopeTree::root())->childRects.size(), tree->item(ScopeTree::root()).children.size());
    }
};

QTEST_GUILESS_MAIN(TestGraphLayout)
#include "tst_graphlayout.moc"
