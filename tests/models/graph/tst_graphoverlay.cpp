#include "models/graph/graphoverlay.h"
#include "models/graph/scopetree.h"
#include "tests/models/graph/graphtestdata.h"
#include "tests/models/trace/analysistestdata.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::models::graph;
using models::trace::EventKind;
using runlens::test::AnalysisTraceBuilder;
using runlens::test::GraphBuilder;

namespace {

int nodeIndex(const Graph& graph, const std::string& id)
{
    return graph.find(id);
}

} // namespace

class TestGraphOverlay : public QObject
{
    Q_OBJECT

private slots:
    void stripsOpSuffixOnly()
    {
        QCOMPARE(stripOpSuffix("Conv2D-op29"), std::string_view("Conv2D"));
        QCOMPARE(stripOpSuffix("a/b/Relu-op7"), std::string_view("a/b/Relu"));
        QCOMPARE(stripOpSuffix("Conv2D-opx"), std::string_view("Conv2D-opx"));
        QCOMPARE(stripOpSuffix("Conv2D-op"), std::string_view("Conv2D-op"));
        QCOMPARE(stripOpSuffix("Add"), std::string_view("Add"));
    }

    void fullNameFromArgsResolvesAmbiguousNames()
    {
        // Two nodes share the short name: only args.fullname can tell them apart.
        GraphBuilder g;
        g.node("Default/net/Conv2D-op29", "Conv2D").node("Default/other/Conv2D-op29", "Conv2D");
        const auto graph = g.finish();
        AnalysisTraceBuilder t;
        t.slice(t.gpu(), 0, 100, "Conv2D-op29", EventKind::Other, "{\"fullname\": \"Default/other/Conv2D-op29\"}");
        t.slice(t.gpu(), 200, 30, "Conv2D-op29", EventKind::Other, "{\"fullname\": \"Default/net/Conv2D-op29\"}");
        t.slice(t.gpu(), 300, 5, "Conv2D-op29", EventKind::Other, "{\"fullname\": \"Default/other/Conv2D-op29\"}");
        const auto store = t.finish();
        const GraphOverlay overlay = GraphOverlay::compute(*graph, *store);
        QCOMPARE(overlay.nodeTime[std::size_t(nodeIndex(*graph, "Default/net/Conv2D-op29"))], 30);
        QCOMPARE(overlay.nodeTime[std::size_t(nodeIndex(*graph, "Default/other/Conv2D-op29"))], 105);
        QCOMPARE(overlay.matchedNodes, 2);
        QCOMPARE(overlay.strippedNodes, 0);
        QCOMPARE(overlay.matchedTime, 135);
        QCOMPARE(overlay.opTime, 135);
    }

    void nameMatchesFullOrShortName()
    {
        GraphBuilder g;
        g.node("layer1/conv/Conv", "Conv").node("layer1/Relu", "Relu").node("block/dense/MatMul", "MatMul");
        const auto graph = g.finish();
        AnalysisTraceBuilder t;
        // ONNX Runtime style: leading slash and _kernel_time suffix; no args at all.
        t.slice(t.cpu(), 0, 40, "/layer1/conv/Conv_kernel_time", EventKind::CpuOp);
        // TF style: the node name (here unique) alone.
        t.slice(t.gpu(), 50, 7, "Relu", EventKind::Kernel);
        // The full name as the slice name.
        t.slice(t.gpu(), 60, 11, "block/dense/MatMul", EventKind::Kernel);
        // A runtime call of the same name is not an op: neither matched nor counted.
        t.slice(t.cpu(), 100, 1000, "Relu", EventKind::Runtime);
        const auto store = t.finish();
        const GraphOverlay overlay = GraphOverlay::compute(*graph, *store);
        QCOMPARE(overlay.nodeTime[0], 40);
        QCOMPARE(overlay.nodeTime[1], 7);
        QCOMPARE(overlay.nodeTime[2], 11);
        QCOMPARE(overlay.matchedNodes, 3);
        QCOMPARE(overlay.opTime, 58);
        QCOMPARE(overlay.opSlices, std::uint64_t(3));
    }

    void stripsOpNOnlyWhenExactFails()
    {
        GraphBuilder g;
        g.node("Default/net/MatMul-op7", "MatMul")
            .node("Default/net/Add-op8", "Add")
            .node("Default/net/Add-op9", "Add");
        const auto graph = g.finish();
        AnalysisTraceBuilder t;
        // Another compilation numbered the ops differently.
        t.slice(t.gpu(), 0, 20, "MatMul-op12", EventKind::Other, "{\"fullname\": \"Default/net/MatMul-op12\"}");
        // Exact match wins over the stripped one.
        t.slice(t.gpu(), 30, 3, "Add-op9", EventKind::Other, "{\"fullname\": \"Default/net/Add-op9\"}");
        // Stripped, "Add" has two candidates: left unmatched rather than guessed.
        t.slice(t.gpu(), 40, 9, "Add-op15", EventKind::Other, "{\"fullname\": \"Default/net/Add-op15\"}");
        const auto store = t.finish();
        const GraphOverlay overlay = GraphOverlay::compute(*graph, *store);
        QCOMPARE(overlay.nodeTime[0], 20);
        QCOMPARE(overlay.nodeTime[1], 0);
        QCOMPARE(overlay.nodeTime[2], 3);
        QCOMPARE(overlay.matchedNodes, 2);
        QCOMPARE(overlay.strippedNodes, 1);
        QCOMPARE(overlay.matchedTime, 23);
        QCOMPARE(overlay.opTime, 32);
        QVERIFY(overlay.summary(*graph).contains(QStringLiteral("2 of 3")));
    }

    void directNameMatchDoesNotConsultArgs()
    {
        GraphBuilder g;
        g.node("Default/a/Relu-op3", "ReLU").node("Default/b/Add-op4", "Add");
        const auto graph = g.finish();
        AnalysisTraceBuilder t;
        // The name names a node on its own: its args are not looked at (large traces keep them unparsed).
        t.slice(t.gpu(), 0, 8, "Relu-op3", EventKind::Other, "{\"fullname\": \"Default/b/Add-op4\"}");
        // Args without a fullname, then the same name again: matched by the stripped name both times.
        t.slice(t.gpu(), 10, 2, "Add-op77", EventKind::Other, "{\"type\": \"Add\"}");
        t.slice(t.gpu(), 20, 3, "Add-op77", EventKind::Other, "{\"type\": \"Add\"}");
        const auto store = t.finish();
        const GraphOverlay overlay = GraphOverlay::compute(*graph, *store);
        QCOMPARE(overlay.nodeTime[0], 8);
        QCOMPARE(overlay.nodeTime[1], 5);
        QCOMPARE(overlay.strippedNodes, 1);
        QCOMPARE(overlay.matchedSlices, std::uint64_t(3));
    }

    void aggregatesToGroups()
    {
        GraphBuilder g;
        g.node("net/a/Conv", "Conv").node("net/a/Relu", "Relu", { { "net/a/Conv" } });
        g.node("net/b/MatMul", "MatMul", { { "net/a/Relu" } }).node("out/Add", "Add", { { "net/b/MatMul" } });
        const auto graph = g.finish();
        AnalysisTraceBuilder t;
        t.slice(t.gpu(), 0, 10, "net/a/Conv", EventKind::Kernel);
        t.slice(t.gpu(), 20, 5, "net/a/Relu", EventKind::Kernel);
        t.slice(t.gpu(), 30, 100, "net/b/MatMul", EventKind::Kernel);
        t.slice(t.gpu(), 200, 1, "out/Add", EventKind::Kernel);
        const auto store = t.finish();
        const GraphOverlay overlay = GraphOverlay::compute(*graph, *store);
        const auto tree = ScopeTree::build(graph);
        const std::vector<std::int64_t> times = overlay.itemTimes(*tree);
        QCOMPARE(int(times.size()), tree->itemCount());
        QCOMPARE(times[std::size_t(ScopeTree::root())], 116);
        const int groupA = tree->item(tree->itemOfNode(0)).parent;
        QCOMPARE(tree->item(groupA).key.substr(2), std::string("net/a"));
        QVERIFY(groupA > 0);
        QCOMPARE(times[std::size_t(groupA)], 15);
        const int net = tree->item(groupA).parent;
        QCOMPARE(times[std::size_t(net)], 115);
        QCOMPARE(times[std::size_t(tree->itemOfNode(2))], 100);
    }

    void noMatchLeavesEverythingAtZero()
    {
        GraphBuilder g;
        g.node("Default/Conv2D-op1", "Conv2D");
        const auto graph = g.finish();
        AnalysisTraceBuilder t;
        t.slice(t.gpu(), 0, 50, "Unknown-op1", EventKind::Other, "{\"fullname\": \"Default/Unknown-op1\"}");
        t.slice(t.gpu(), 60, 50, "BiasAdd", EventKind::Kernel);
        const auto store = t.finish();
        const GraphOverlay overlay = GraphOverlay::compute(*graph, *store);
        QCOMPARE(overlay.nodeTime[0], 0);
        QCOMPARE(overlay.matchedNodes, 0);
        QCOMPARE(overlay.matchedTime, 0);
        QCOMPARE(overlay.opTime, 100);
        const auto tree = ScopeTree::build(graph);
        for (const std::int64_t time : overlay.itemTimes(*tree))
            QCOMPARE(time, 0);
    }
};

QTEST_GUILESS_MAIN(TestGraphOverlay)
#include "tst_graphoverlay.moc"
