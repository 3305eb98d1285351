#include "models/graph/scopetree.h"
#include "tests/models/graph/graphtestdata.h"

#include <QtTest>

using namespace runlens;
using namespace runlens::models::graph;
using runlens::test::GraphBuilder;

namespace {

int child(const ScopeTree& tree, int container, const std::string& label)
{
    for (const int id : tree.item(container).children) {
        if (tree.item(id).label == label)
            return id;
    }
    return -1;
}

std::vector<std::string> labels(const ScopeTree& tree, int container)
{
    std::vector<std::string> result;
    for (const int id : tree.item(container).children)
        result.push_back(tree.item(id).label);
    return result;
}

const LiftedEdge* edge(const ScopeTree& tree, int container, int from, int to)
{
    for (const LiftedEdge& e : tree.edgesOf(container)) {
        if (e.from == from && e.to == to)
            return &e;
    }
    return nullptr;
}

} // namespace

class TestScopeTree : public QObject
{
    Q_OBJECT

private slots:
    void groupsFromScopes()
    {
        GraphBuilder b;
        b.node("in", "Input", {}, NodeKind::Input)
            .node("net/block1/conv", "Conv", { { "in" } })
            .node("net/block1/relu", "Relu", { { "net/block1/conv" } })
            .node("net/head/fc", "Gemm", { { "net/block1/relu" } });
        const auto tree = ScopeTree::build(b.finish());
        QCOMPARE(labels(*tree, ScopeTree::root()), (std::vector<std::string> { "in", "net" }));
        const int net = child(*tree, ScopeTree::root(), "net");
        QCOMPARE(labels(*tree, net), (std::vector<std::string> { "block1", "head" }));
        const int block1 = child(*tree, net, "block1");
        QCOMPARE(tree->item(block1).opCount, 2);
        QCOMPARE(tree->item(net).opCount, 3);
        QCOMPARE(tree->maxDepth(), 3);
        QCOMPARE(tree->groupCount(), 3);
        const int conv = tree->itemOfNode(1);
        QCOMPARE(tree->item(conv).label, std::string("conv"));
        QCOMPARE(tree->ancestors(conv), (std::vector<int> { ScopeTree::root(), net, block1 }));
        QCOMPARE(tree->findKey("g:net/block1"), block1);
    }

    void opAndScopeClash()
    {
        // "A" is an op and also the scope of "A/B": like TensorBoard, the op goes inside as "(A)".
        GraphBuilder b;
        b.node("A", "MatMul").node("A/B", "Add", { { "A" } }).node("C", "Relu", { { "A/B" } });
        const auto tree = ScopeTree::build(b.finish());
        const int a = child(*tree, ScopeTree::root(), "A");
        QVERIFY(a > 0);
        QCOMPARE(tree->item(a).kind, ScopeItemKind::Group);
        QCOMPARE(labels(*tree, a), (std::vector<std::string> { "(A)", "B" }));
        QCOMPARE(tree->item(tree->itemOfNode(0)).parent, a);
        // A/(A) -> A/B stays inside A; A/B -> C is lifted to the root between group A and op C.
        QVERIFY(edge(*tree, a, tree->itemOfNode(0), tree->itemOfNode(1)));
        QVERIFY(edge(*tree, ScopeTree::root(), a, tree->itemOfNode(2)));
    }

    void seriesOfSameTypeAndShape()
    {
        GraphBuilder b;
        b.node("x", "Input", {}, NodeKind::Input);
        for (int i = 0; i < 6; ++i)
            b.node("s/conv" + std::to_string(i), "Conv2D", { { "x", { 1, 3, 8, 8 } } });
        for (int i = 0; i < 4; ++i)
            b.node("s/relu" + std::to_string(i), "Relu", { { "x", { 1, 3, 8, 8 } } });
        // Same type, other input shape: not part of the series.
        b.node("s/convBig", "Conv2D", { { "x", { 1, 3, 16, 16 } } });
        const auto tree = ScopeTree::build(b.finish());
        const int s = child(*tree, ScopeTree::root(), "s");
        const int series = child(*tree, s, "Conv2D[6]");
        QVERIFY(series > 0);
        QCOMPARE(tree->item(series).kind, ScopeItemKind::Series);
        QCOMPARE(int(tree->item(series).children.size()), 6);
        QCOMPARE(tree->item(series).opCount, 6);
        QCOMPARE(int(tree->item(s).children.size()), 1 + 4 + 1);
        QVERIFY(child(*tree, s, "convBig") > 0);
        // x feeds all six convs: one lifted edge of multiplicity 6 into the series, at the root level.
        const LiftedEdge* lifted = edge(*tree, ScopeTree::root(), tree->itemOfNode(0), s);
        QVERIFY(lifted);
        QCOMPARE(lifted->count, 6 + 4 + 1);
        QCOMPARE(lifted->label, std::string("11 tensors")); // 8x8 and 16x16 inputs

        ScopeTree::Options noSeries;
        noSeries.groupSeries = false;
        const auto flat = ScopeTree::build(tree->graphPtr(), noSeries);
        QCOMPARE(int(flat->item(child(*flat, ScopeTree::root(), "s")).children.size()), 11);
    }

    void chainsAreNotSeriesButParallelBranchesAre()
    {
        GraphBuilder b;
        b.node("x", "Input", {}, NodeKind::Input);
        std::string last = "x";
        for (int i = 0; i < 6; ++i) { // a chain of alike ops, like the BatchNorms of a flat ResNet
            b.node("bn" + std::to_string(i), "BatchNorm", { { last, { 1, 8 } } });
            last = "bn" + std::to_string(i);
        }
        std::vector<GraphBuilder::In> branches;
        for (int i = 0; i < 5; ++i) { // five branches from different producers into one Concat
            b.node("src" + std::to_string(i), "Relu", { { last, { 1, 8 } } });
            b.node("branch" + std::to_string(i), "Conv", { { "src" + std::to_string(i), { 2, 8 } } });
            branches.push_back({ "branch" + std::to_string(i) });
        }
        b.node("concat", "Concat", branches);
        const auto tree = ScopeTree::build(b.finish());
        for (int i = 0; i < 6; ++i)
            QCOMPARE(tree->item(tree->itemOfNode(1 + i)).parent, ScopeTree::root());
        const int convs = child(*tree, ScopeTree::root(), "Conv[5]");
        QVERIFY(convs > 0);
        // The five Relus read one producer: a fan-out series.
        QVERIFY(child(*tree, ScopeTree::root(), "Relu[5]") > 0);
        QCOMPARE(int(tree->item(ScopeTree::root()).children.size()), 1 + 6 + 2 + 1);
    }

    void numberedGroupSeries()
    {
        GraphBuilder b;
        b.node("x", "Input", {}, NodeKind::Input);
        for (int i = 1; i <= 8; ++i) // parallel heads reading one input: a series
            b.node("net/conv_" + std::to_string(i) + "/op", "Conv", { { "x" } });
        b.node("net/conv_x/op", "Conv", { { "x" } });
        b.node("net/other_1/op", "Conv", { { "x" } });
        std::string last = "x";
        for (int i = 1; i <= 6; ++i) { // chained layers: no series, the chain stays visible
            b.node("net/layer_" + std::to_string(i) + "/op", "Conv", { { last } });
            last = "net/layer_" + std::to_string(i) + "/op";
        }
        const auto tree = ScopeTree::build(b.finish());
        const int net = child(*tree, ScopeTree::root(), "net");
        const int series = child(*tree, net, "conv_[1-8]");
        QVERIFY(series > 0);
        QCOMPARE(int(tree->item(series).children.size()), 8);
        QCOMPARE(tree->item(tree->item(series).children.front()).label, std::string("conv_1"));
        QVERIFY(child(*tree, net, "conv_x") > 0);
        QVERIFY(child(*tree, net, "other_1") > 0);
        for (int i = 1; i <= 6; ++i)
            QVERIFY(child(*tree, net, "layer_" + std::to_string(i)) > 0);
    }

    void constantsAndWeightsFold()
    {
        GraphBuilder b;
        b.node("x", "Input", {}, NodeKind::Input)
            .node("w", "Parameter", {}, NodeKind::Parameter)
            .node("k", "Const", {})
            .node("conv", "Conv", { { "x" }, { "w" } })
            .node("add", "Add", { { "conv" }, { "k" } })
            .node("unused", "Parameter", {}, NodeKind::Parameter)
            .node("shape", "Constant", {}, NodeKind::Constant)
            .node("fill", "ConstantOfShape", { { "shape" } })
            .node("mul", "Mul", { { "add" }, { "fill" } })
            .node("reshaped", "Reshape", { { "mul" }, { "shape" } });
        const auto tree = ScopeTree::build(b.finish());
        QCOMPARE(labels(*tree, ScopeTree::root()),
                 (std::vector<std::string> { "x", "conv", "add", "unused", "mul", "reshaped" }));
        // A weight materialised from a constant shape folds as a whole; its shape input ends up at mul.
        QVERIFY(tree->isFolded(6) && tree->isFolded(7));
        QCOMPARE(tree->item(tree->itemOfNode(8)).folded, std::vector<int> { 7 });
        QCOMPARE(tree->itemOfNode(6), tree->itemOfNode(9)); // the shape's first direct consumer that is shown
        const int conv = tree->itemOfNode(3);
        const int add = tree->itemOfNode(4);
        QCOMPARE(tree->item(conv).folded, std::vector<int> { 1 });
        QCOMPARE(tree->item(add).folded, std::vector<int> { 2 });
        QVERIFY(tree->isFolded(1));
        QVERIFY(!tree->isFolded(5));
        QCOMPARE(tree->itemOfNode(1), conv);
        // No boxes and no edges for folded weights: x->conv, conv->add, add->mul, mul->reshaped.
        QCOMPARE(int(tree->edgesOf(ScopeTree::root()).size()), 4);

        ScopeTree::Options keep;
        keep.foldConstants = false;
        const auto unfolded = ScopeTree::build(tree->graphPtr(), keep);
        QCOMPARE(int(unfolded->item(ScopeTree::root()).children.size()), 10);
    }

    void edgesLiftedToLowestCommonGroup()
    {
        GraphBuilder b;
        b.node("m/a/x", "Op", {})
            .node("m/a/y", "Op", { { "m/a/x", { 4 } } })
            .node("m/b/z", "Op", { { "m/a/y", { 4 } } })
            .node("m/b/w", "Op", { { "m/a/y", { 4 } } })
            .node("out", "Op", { { "m/b/z", { 2 } }, { "m/b/w", { 3 } } });
        const auto tree = ScopeTree::build(b.finish());
        const int m = child(*tree, ScopeTree::root(), "m");
        const int a = child(*tree, m, "a");
        const int bGroup = child(*tree, m, "b");
        const int out = tree->itemOfNode(4);
        QVERIFY(edge(*tree, a, tree->itemOfNode(0), tree->itemOfNode(1)));
        const LiftedEdge* ab = edge(*tree, m, a, bGroup);
        QVERIFY(ab);
        QCOMPARE(ab->count, 2);
        QCOMPARE(ab->label, std::string("float32[4]"));
        const LiftedEdge* mOut = edge(*tree, ScopeTree::root(), m, out);
        QVERIFY(mOut);
        QCOMPARE(mOut->count, 2);
        QCOMPARE(mOut->label, std::string("2 tensors"));
        QCOMPARE(int(tree->edgesOf(bGroup).size()), 0);
        QCOMPARE(int(tree->edgesOf(m).size()), 1);
        // Node-level neighbourhoods ignore the hierarchy.
        const auto down = tree->neighbourhood(tree->itemOfNode(1), 2, true);
        QCOMPARE(int(down.size()), 3);
        QCOMPARE(tree->neighbourhood(tree->itemOfNode(1), 1, false), std::vector<int> { tree->itemOfNode(0) });
    }

    void bigGroupsSplitIntoSections()
    {
        GraphBuilder b;
        b.node("big/op0", "Op0");
        for (int i = 1; i < 700; ++i)
            b.node("big/op" + std::to_string(i), "Op" + std::to_string(i), { { "big/op" + std::to_string(i - 1) } });
        const auto tree = ScopeTree::build(b.finish());
        const int big = child(*tree, ScopeTree::root(), "big");
        const auto& sections = tree->item(big).children;
        QCOMPARE(int(sections.size()), 3);
        int total = 0;
        for (const int section : sections) {
            QCOMPARE(tree->item(section).kind, ScopeItemKind::Section);
            QVERIFY(tree->item(section).children.size() <= 300);
            total += int(tree->item(section).children.size());
        }
        QCOMPARE(total, 700);
        QCOMPARE(tree->item(sections[0]).label, std::string("section 1 of 3"));
        // The chain crosses section borders twice.
        QCOMPARE(int(tree->edgesOf(big).size()), 2);
        QVERIFY(edge(*tree, big, sections[0], sections[1]));
        QCOMPARE(tree->item(tree->itemOfNode(0)).parent, sections[0]);
        QCOMPARE(tree->item(tree->itemOfNode(699)).parent, sections[2]);
    }

    void manyGraphInputsGatherIntoOneGroup()
    {
        // A model fed 300 features (or exported with every weight as a graph input): the inputs go into one
        // "Inputs" group instead of numbered sections that would hide the model among them.
        GraphBuilder b;
        std::vector<GraphBuilder::In> features;
        for (int i = 0; i < 300; ++i) {
            b.node("feature_" + std::to_string(i), "Input", {}, NodeKind::Input);
            features.push_back({ "feature_" + std::to_string(i) });
        }
        b.node("embed/concat", "Concat", features);
        b.node("head/relu", "Relu", { { "embed/concat" } });
        const auto tree = ScopeTree::build(b.finish());
        const std::vector<std::string> top = labels(*tree, ScopeTree::root());
        QCOMPARE(top, (std::vector<std::string> { "Inputs", "embed", "head" }));
        const int inputs = child(*tree, ScopeTree::root(), "Inputs");
        QCOMPARE(tree->item(inputs).kind, ScopeItemKind::Group);
        QVERIFY(tree->item(inputs).gathersInputs);
        QCOMPARE(int(tree->item(inputs).children.size()), 300);
        QCOMPARE(tree->item(inputs).opCount, 300);
        QCOMPARE(tree->findKey(tree->item(inputs).key), inputs);
        QCOMPARE(tree->item(tree->itemOfNode(0)).parent, inputs);
        for (int id = 0; id < tree->itemCount(); ++id)
            QVERIFY(tree->item(id).kind != ScopeItemKind::Section);
        // The 300 edges into the model are one lifted edge.
        const LiftedEdge* into = edge(*tree, ScopeTree::root(), inputs, child(*tree, ScopeTree::root(), "embed"));
        QVERIFY(into);
        QCOMPARE(into->count, 300);

        // A few inputs stay where they are.
        GraphBuilder small;
        small.node("ids", "Input", {}, NodeKind::Input);
        small.node("mask", "Input", {}, NodeKind::Input);
        small.node("model/embed", "Gather", { { "ids" }, { "mask" } });
        const auto plain = ScopeTree::build(small.finish());
        QCOMPARE(labels(*plain, ScopeTree::root()), (std::vector<std::string> { "ids", "mask", "model" }));
    }

    void gradientAndRecomputeScopesStayDistinct()
    {
        GraphBuilder b;
        b.node("Default/net/conv", "Conv2D")
            .node("recompute_Default/net/conv", "Conv2D", { { "Default/net/conv" } })
            .node("Gradients/Default/net/gradConv", "Conv2DBackpropInput", { { "recompute_Default/net/conv" } })
            .node("Default/optimizer-Adam/update", "Adam", { { "Gradients/Default/net/gradConv" } });
        const auto tree = ScopeTree::build(b.finish());
        QCOMPARE(labels(*tree, ScopeTree::root()),
                 (std::vector<std::string> { "Default", "recompute_Default", "Gradients" }));
        QCOMPARE(tree->item(tree->itemOfNode(0)).role, ScopeRole::Forward);
        QCOMPARE(tree->item(tree->itemOfNode(1)).role, ScopeRole::Recompute);
        QCOMPARE(tree->item(tree->itemOfNode(2)).role, ScopeRole::Gradient);
        QCOMPARE(tree->item(tree->itemOfNode(3)).role, ScopeRole::Optimizer);
    }

    void readableModeBypassesAndHides()
    {
        GraphBuilder b;
        b.node("p", "Parameter", {}, NodeKind::Parameter)
            .node("u", "UMonad", {})
            .node("load", "Load", { { "p" }, { "u" } })
            .node("a", "Relu", {})
            .node("tuple", "MakeTuple", { { "a" }, { "load" } })
            .node("item", "TupleGetItem", { { "tuple" } })
            .node("dep", "Depend", { { "item" }, { "u" } })
            .node("c", "MatMul", { { "dep" }, { "load" } })
            .node("Gradients/gc", "MatMul", { { "c" } })
            .node("st", "UpdateState", { { "u" }, { "c" } })
            .node("d", "Add", { { "st" }, { "c" } });
        const auto graph = b.finish();
        ScopeTree::Options readable;
        readable.readable = true;
        const auto tree = ScopeTree::build(graph, readable);
        QCOMPARE(labels(*tree, ScopeTree::root()), (std::vector<std::string> { "u", "a", "c", "d" }));
        const int c = tree->itemOfNode(7);
        // MakeTuple -> TupleGetItem -> Depend collapse to a -> c; Load makes p a weight of c.
        QVERIFY(edge(*tree, ScopeTree::root(), tree->itemOfNode(3), c));
        QVERIFY(tree->isFolded(0));
        QCOMPARE(tree->item(c).folded, std::vector<int> { 0 });
        QVERIFY(edge(*tree, ScopeTree::root(), c, tree->itemOfNode(10)));
        QCOMPARE(tree->itemOfNode(8), -1); // gradients hidden
        QCOMPARE(tree->itemOfNode(2), -1); // Load bypassed

        const auto full = ScopeTree::build(graph);
        QCOMPARE(int(full->item(ScopeTree::root()).children.size()),
                 10); // all but p (folded into Load), gc in Gradients
    }

    void longChainsOfBypassedOpsDoNotRecurse()
    {
        // 300,000 Depend ops in a chain between two real ops: each is resolved to the first op without a
        // call per link (a hostile or huge MindSpore graph would overflow the stack).
        GraphBuilder b;
        b.node("first", "Relu");
        std::string previous = "first";
        for (int i = 0; i < 300000; ++i) {
            const std::string name = "dep" + std::to_string(i);
            b.node(name, "Depend", { { previous } });
            previous = name;
        }
        b.node("last", "MatMul", { { previous } });
        const auto graph = b.finish();
        ScopeTree::Options readable;
        readable.readable = true;
        const auto tree = ScopeTree::build(graph, readable);
        const int first = tree->itemOfNode(0);
        const int last = tree->itemOfNode(300001);
        QVERIFY(first >= 0 && last >= 0);
        QVERIFY(edge(*tree, ScopeTree::root(), first, last));
    }

    void visibilityFollowsExpansion()
    {
        GraphBuilder b;
        b.node("a/b/x", "Op").node("a/b/y", "Op", { { "a/b/x" } }).node("a/z", "Op", { { "a/b/y" } });
        const auto tree = ScopeTree::build(b.finish());
        const int a = child(*tree, ScopeTree::root(), "a");
        const int bGroup = child(*tree, a, "b");
        const int x = tree->itemOfNode(0);
        ExpansionState state;
        QCOMPARE(tree->visibleItems(state), std::vector<int> { a });
        QCOMPARE(tree->visibleAncestor(x, state), a);
        state.setExpanded(a, true);
        QCOMPARE(tree->visibleItems(state), (std::vector<int> { a, bGroup, tree->itemOfNode(2) }));
        QCOMPARE(tree->visibleAncestor(x, state), bGroup);
        state.setExpanded(bGroup, true);
        QCOMPARE(tree->visibleItems(state).size(), std::size_t(5));
        QVERIFY(tree->isVisible(x, state));
        state.setExpanded(a, false); // b stays expanded inside a collapsed a
        QCOMPARE(tree->visibleItems(state), std::vector<int> { a });
        QCOMPARE(tree->itemsBelow(a), 4);
    }

    void search()
    {
        GraphBuilder b;
        b.node("enc/attn/q_proj", "MatMul").node("enc/attn/k_proj", "MatMul").node("enc/ffn/act", "Gelu");
        auto graph = std::const_pointer_cast<Graph>(b.finish());
        graph->nodes[2].attributes.push_back({ "approximate", "tanh" });
        const auto tree = ScopeTree::build(graph);
        ScopeTree::SearchOptions options;
        QCOMPARE(tree->search("q_proj", options), std::vector<int> { tree->itemOfNode(0) });
        QCOMPARE(tree->search("matmul", options).size(), std::size_t(2));
        QCOMPARE(tree->search("approximate=tanh", options), std::vector<int> { tree->itemOfNode(2) });
        options.attributes = false;
        QVERIFY(tree->search("tanh", options).empty());
        options.regex = true;
        QCOMPARE(tree->search("^enc/attn/[qk]_proj$", options).size(), std::size_t(2));
        QCOMPARE(tree->search("^enc/ffn$", options), std::vector<int> { tree->findKey("g:enc/ffn") });
        QString error;
        QVERIFY(tree->search("([", options, &error).empty());
        QVERIFY(!error.isEmpty());
    }

    void emptyGraph()
    {
        const auto tree = ScopeTree::build(std::make_shared<Graph>());
        QCOMPARE(tree->itemCount(), 1);
        QVERIFY(tree->visibleItems({}).empty());
        QCOMPARE(tree->itemOfNode(0), -1);
    }
};

QTEST_GUILESS_MAIN(TestScopeTree)
#include "tst_scopetree.moc"
