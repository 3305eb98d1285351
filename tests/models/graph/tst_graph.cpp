#include "models/graph/graph.h"

#include "tests/models/graph/graphtestdata.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::models::graph;
using runlens::test::GraphBuilder;

namespace {

/// A flat FX-style graph: many nodes, no scopes.
std::shared_ptr<const Graph> flatGraph(int nodes)
{
    GraphBuilder b;
    b.node("x", "placeholder", {}, NodeKind::Input);
    std::string previous = "x";
    for (int i = 0; i < nodes; ++i) {
        const std::string id = "op_" + std::to_string(i);
        b.node(id, "call_module", { { previous } });
        previous = id;
    }
    return b.finish();
}

/// A module-scoped export: `layers` blocks of two ops under model/layerN.
std::shared_ptr<const Graph> scopedGraph(int layers, bool deeper = false)
{
    GraphBuilder b;
    b.node("input", "Input", {}, NodeKind::Input);
    std::string previous = "input";
    for (int i = 0; i < layers; ++i) {
        const std::string scope = "model/layer" + std::to_string(i) + (deeper ? "/block/inner" : "");
        b.node(scope + "/conv", "Conv", { { previous } });
        b.node(scope + "/relu", "Relu", { { scope + "/conv" } });
        previous = scope + "/relu";
    }
    return b.finish();
}

} // namespace

class TestGraph : public QObject
{
    Q_OBJECT

private slots:
    void scoreCountsGroupsDepthAndNodes()
    {
        const HierarchyScore flat = hierarchyScore(*flatGraph(50));
        QCOMPARE(flat.groups, 0);
        QCOMPARE(flat.maxDepth, 0);
        QCOMPARE(flat.nodes, 51);
        QVERIFY(!flat.structured());

        const HierarchyScore scoped = hierarchyScore(*scopedGraph(3));
        // model, model/layer0..2
        QCOMPARE(scoped.groups, 4);
        QCOMPARE(scoped.maxDepth, 2);
        QCOMPARE(scoped.nodes, 7);
        QVERIFY(scoped.structured());
    }

    void scopedBeatsFlatWhateverTheSize()
    {
        const HierarchyScore flat = hierarchyScore(*flatGraph(2000));
        const HierarchyScore scoped = hierarchyScore(*scopedGraph(2));
        QVERIFY(scoped.richerThan(flat));
        QVERIFY(!flat.richerThan(scoped));
    }

    void moreStructureWins()
    {
        const HierarchyScore few = hierarchyScore(*scopedGraph(2));
        const HierarchyScore many = hierarchyScore(*scopedGraph(6));
        const HierarchyScore deep = hierarchyScore(*scopedGraph(2, true));
        QVERIFY(many.richerThan(few));
        QVERIFY(deep.richerThan(few)); // more groups (block, inner) and deeper
        // Equal structure: the bigger graph; equal in everything: neither.
        HierarchyScore bigger = few;
        ++bigger.nodes;
        QVERIFY(bigger.richerThan(few));
        QVERIFY(!few.richerThan(few));
    }

    void aModelBeatsADrawingOfIt()
    {
        // A dot export of an ONNX model has more groups (its value nodes sit in the op scopes) but says less.
        auto drawing = std::make_shared<Graph>(*scopedGraph(6, true));
        drawing->format = GraphFormat::Dot;
        auto model = std::make_shared<Graph>(*scopedGraph(3));
        model->format = GraphFormat::Onnx;
        const HierarchyScore drawn = hierarchyScore(*drawing);
        QVERIFY(drawn.drawing);
        QVERIFY(hierarchyScore(*model).richerThan(drawn));
        // A structured drawing still beats a flat model.
        auto flat = std::make_shared<Graph>(*flatGraph(100));
        flat->format = GraphFormat::TorchScript;
        QVERIFY(drawn.richerThan(hierarchyScore(*flat)));
    }

    void oneGroupIsNotAHierarchy()
    {
        // Everything under a single "model/" says no more than a flat graph: the bigger flat one wins.
        GraphBuilder b;
        b.node("model/a", "Add");
        b.node("model/b", "Add", { { "model/a" } });
        const HierarchyScore single = hierarchyScore(*b.finish());
        QCOMPARE(single.groups, 1);
        QVERIFY(!single.structured());
        QVERIFY(hierarchyScore(*flatGraph(10)).richerThan(single));
    }
};

QTEST_GUILESS_MAIN(TestGraph)
#include "tst_graph.moc"
