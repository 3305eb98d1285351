#include "importers/graph/mindsporeirreader.h"

#include "tests/testutils.h"

#include <QFile>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;

namespace {

std::string readSample(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll().toStdString();
}

/// The node whose display name is `name` (first one), or nullptr.
const Node* byName(const Graph& g, const std::string& name)
{
    for (const Node& n : g.nodes) {
        if (n.name == name)
            return &n;
    }
    return nullptr;
}

bool hasSource(const Node& n, const std::string& file, int line)
{
    for (const SourceLocation& s : n.sources) {
        if (s.file == file && s.line == line)
            return true;
    }
    return false;
}

} // namespace

class TestMindSporeIrReader : public QObject
{
    Q_OBJECT

private slots:
    void ir2x();
    void ir1x();
    void dat1x();
    void kernelGraphExcerpt();
    void recomputeExcerpt();
    void analyzeFail();
    void unknownLinesAreCounted();
    void monadsAreControlInputs();
};

void TestMindSporeIrReader::ir2x()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/graphs/mindspore_ir/mindir.md.ex1_18_execute_0161.ir");
    const GraphResult result = MindSporeIrReader::read(readSample(path), path);
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    // "# IR entry: @19_1___main___Net_construct_304", three `subgraph @` blocks.
    QCOMPARE(g.subgraphs.size(), std::size_t(3));
    QCOMPARE(g.subgraphs[0].name, std::string("19_1___main___Net_construct_304"));
    QCOMPARE(g.nodeCount(0), 8);
    QCOMPARE(g.nodeCount(1), 3);
    QCOMPARE(g.nodeCount(2), 1);
    // %0(CNode_310$a) = PrimFunc_Sub(%para1_x, Tensor(...)) / # Fullname with scope: (Default/Sub-op1)
    const Node* sub = byName(g, "Sub-op1");
    QVERIFY(sub);
    QCOMPARE(sub->opType, std::string("Sub"));
    QCOMPARE(sub->scope, std::string("Default"));
    QCOMPARE(sub->fullName(), std::string("Default/Sub-op1"));
    QCOMPARE(sub->inputs.size(), std::size_t(2));
    QCOMPARE(g.nodes[std::size_t(sub->inputs[0].producer)].kind, NodeKind::Parameter);
    QCOMPARE(g.nodes[std::size_t(sub->inputs[0].producer)].name, std::string("x"));
    QCOMPARE(g.nodes[std::size_t(sub->inputs[1].producer)].kind, NodeKind::Constant);
    QCOMPARE(sub->inputs[0].type.text(), std::string("float32[]"));
    QCOMPARE(sub->outputs.front().type.text(), std::string("float32[]"));
    // Five "# In file" lines; innermost (the last printed) first.
    QCOMPARE(sub->sources.size(), std::size_t(5));
    QCOMPARE(sub->sources.front().file,
             std::string("/workspace/mindspore/build/package/mindspore/ops/auto_generate/gen_ops_def.py"));
    QCOMPARE(sub->sources.front().line, 5294);
    QVERIFY(hasSource(*sub, "t6.py", 16));
    QCOMPARE(sub->sources.back().line, 15);
    QCOMPARE(sub->sources.back().text, std::string("def construct(self, x, y):"));
    // %2 = PrimFunc_Cast(%1, I64(30)) : (...) -> (<Tensor[Bool], ()>)
    const Node* cast = byName(g, "Cast-op1");
    QVERIFY(cast);
    QCOMPARE(cast->outputs.front().type.text(), std::string("bool[]"));
    QCOMPARE(cast->inputs[1].type.dtype, std::string("int64"));
    // %6 = %5[@FuncUnion(...)]() calls through the Switch's value.
    const Node* call = nullptr;
    for (const Node& n : g.nodes) {
        if (n.kind == NodeKind::Call && n.subgraph == 0)
            call = &n;
    }
    QVERIFY(call);
    QCOMPARE(g.nodes[std::size_t(call->inputs.front().producer)].opType, std::string("Switch"));
    // Subgraph parameters and returns.
    QCOMPARE(g.subgraphs[1].parameters.size(), std::size_t(2));
    QVERIFY(g.subgraphs[1].output >= 0);
    QCOMPARE(g.nodes[std::size_t(g.subgraphs[1].output)].opType, std::string("Return"));
    const Node* div = byName(g, "Div-op1");
    QVERIFY(div);
    QCOMPARE(div->inputs[0].producer, g.subgraphs[1].parameters[1]);
    for (const Diagnostic& d : result.diagnostics)
        QVERIFY2(d.severity == Severity::Info, qPrintable(d.toString()));
}

void TestMindSporeIrReader::ir1x()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/graphs/mindspore_ir/read_ir_files.md.ex1_ms1x_format.ir");
    const GraphResult result = MindSporeIrReader::read(readSample(path), path);
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    // "#IR entry      : @1_construct_wrapper.21" is the last block of the file but the main graph.
    QCOMPARE(g.subgraphs.size(), std::size_t(3));
    QCOMPARE(g.subgraphs[0].name, std::string("1_construct_wrapper.21"));
    QCOMPARE(g.nodeCount(), 5 + 2 + 2);
    // %2([CNode]5) = call @3_func.23(%0, %1) / # In file train.py(36)/
    const Node* call = byName(g, "[CNode]5");
    QVERIFY(call);
    QCOMPARE(call->kind, NodeKind::Call);
    QVERIFY(call->callee >= 0);
    QCOMPARE(g.subgraphs[std::size_t(call->callee)].name, std::string("3_func.23"));
    QVERIFY(hasSource(*call, "train.py", 36));
    QCOMPARE(call->sources.front().text, std::string("c = self.mul(b, self.func(a, b))"));
    const Node* a = byName(g, "a");
    QVERIFY(a);
    QCOMPARE(a->opType, std::string("Sub"));
    QCOMPARE(a->outputs.front().type.text(), std::string("float32[]"));
    bool instance = false;
    for (const Attribute& attr : a->attributes)
        instance = instance || (attr.name == "instance name" && attr.value == "sub");
    QVERIFY(instance);
    // The wrapper calls @2_construct.22 with the header parameters %para1_x and %para2_y.
    const Node* wrapperCall = byName(g, "[CNode]2");
    QVERIFY(wrapperCall);
    QCOMPARE(wrapperCall->subgraph, 0);
    QCOMPARE(g.nodes[std::size_t(wrapperCall->inputs[0].producer)].name, std::string("x"));
}

void TestMindSporeIrReader::dat1x()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/graphs/mindspore_ir/read_ir_files.md.ex3_ms1x_format.dat");
    const GraphResult result = MindSporeIrReader::read(readSample(path), path);
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    // "# [No.1] 1_construct_wrapper.21" ... three funcgraphs with 2, 5 and 2 cnodes.
    QCOMPARE(g.subgraphs.size(), std::size_t(3));
    QCOMPARE(g.subgraphs[0].name, std::string("1_construct_wrapper.21"));
    QCOMPARE(g.nodeCount(), 9);
    // %1 : Tensor(F32)[] = FuncGraph::fg_22(%para1, %para2) ... # fg_22=2_construct.22 #scope: Default
    const Node* call = byName(g, "[CNode]2");
    QVERIFY(call);
    QCOMPARE(call->kind, NodeKind::Call);
    QCOMPARE(g.subgraphs[std::size_t(call->callee)].name, std::string("2_construct.22"));
    QCOMPARE(call->scope, std::string("Default"));
    QCOMPARE(g.nodes[std::size_t(call->inputs[0].producer)].name, std::string("x"));
    const Node* a = byName(g, "a");
    QVERIFY(a);
    QCOMPARE(a->opType, std::string("Sub"));
    QVERIFY(hasSource(*a, "train.py", 34));
    QCOMPARE(a->outputs.front().type.text(), std::string("float32[]"));
}

void TestMindSporeIrReader::kernelGraphExcerpt()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/graphs/mindspore_ir/dump.md.ex4_fragment_kernel_graph_conv2d.ir");
    const GraphResult result = MindSporeIrReader::read(readSample(path), path);
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    QCOMPARE(g.nodeCount(), 1);
    const Node& conv = g.nodes[std::size_t(g.subgraphs[0].nodes.front())];
    QCOMPARE(conv.opType, std::string("Conv2D"));
    // ": full_name_with_scope: (Default/network-WithLossCell/_backbone-AlexNet/conv3-Conv2d/Conv2D-op12)"
    QCOMPARE(conv.scope, std::string("Default/network-WithLossCell/_backbone-AlexNet/conv3-Conv2d"));
    QCOMPARE(conv.name, std::string("Conv2D-op12"));
    QVERIFY(hasSource(conv, "./tain_alexnet.py", 175));
    QCOMPARE(conv.inputs.size(), std::size_t(2));
    QCOMPARE(conv.inputs[1].type.text(), std::string("float32[384,256,3,3]"));
    QCOMPARE(conv.outputs.front().type.text(), std::string("float32[32,384,13,13]"));
    // The attribute block wraps over three lines in the excerpt; it is joined.
    bool outChannel = false;
    for (const Attribute& a : conv.attributes)
        outChannel = outChannel || (a.name == "out_channel" && a.value == "384");
    QVERIFY(outChannel);
}

void TestMindSporeIrReader::recomputeExcerpt()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/graphs/mindspore_ir/recompute.md.ex2_fragment_no_recompute.ir");
    const GraphResult result = MindSporeIrReader::read(readSample(path), path);
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    QCOMPARE(g.nodeCount(), 3);
    const Node* grad = byName(g, "BatchMatMul-op38");
    QVERIFY(grad);
    QCOMPARE(grad->scope,
             std::string("Gradients/Default/network-Grad/net-Net/blocks-CellList/0-Block/Grad_BatchMatMul"));
    const Node* forward = byName(g, "RealDiv-op0");
    QVERIFY(forward);
    QCOMPARE(forward->scope, std::string("Default/network-Grad/net-Net/blocks-CellList/0-Block"));
    // %41 uses %38 from the same excerpt; %37 and %40 are outside it.
    const Node* mm = byName(g, "BatchMatMul-op0");
    QVERIFY(mm);
    QCOMPARE(mm->inputs[0].producer, g.find(forward->id));
}

void TestMindSporeIrReader::analyzeFail()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/graphs/mindspore_ir/mindir.md.ex6_analyze_fail_biasadd_shape.ir");
    const GraphResult result = MindSporeIrReader::read(readSample(path), path);
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    QCOMPARE(g.subgraphs.size(), std::size_t(3));
    // "#------------------------> N" marks three failing nodes.
    int failing = 0;
    for (const Node& n : g.nodes) {
        for (const Attribute& a : n.attributes)
            failing += a.name == "evaluation" ? 1 : 0;
    }
    QCOMPARE(failing, 3);
    // "#scope: (Default)" is a scope without the node's own name.
    const Node* x = byName(g, "x");
    QVERIFY(x);
    QCOMPARE(x->scope, std::string("Default"));
    QVERIFY(hasSource(*x, "t2.py", 15));
}

void TestMindSporeIrReader::unknownLinesAreCounted()
{
    std::string text = "subgraph @g(%para1_a) {\n"
                       "  %0(b) = Add(%para1_a, %para1_a)\n"
                       "      : (<Tensor[Float32], (2)>, <Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)\n"
                       "  this line means nothing\n"
                       "  neither ?? does this one\n"
                       "  Return(%0)\n"
                       "}\n";
    const GraphResult result = MindSporeIrReader::read(text, QStringLiteral("hand.ir"));
    QVERIFY(result.graph);
    QCOMPARE(result.graph->nodeCount(), 2);
    QCOMPARE(result.diagnostics.size(), 1);
    QCOMPARE(result.diagnostics.first().file, QStringLiteral("hand.ir"));
    QCOMPARE(result.diagnostics.first().line, 4);
    QVERIFY(result.diagnostics.first().message.contains(QLatin1String("2 line")));
    const GraphResult nothing = MindSporeIrReader::read("just some text\n", QStringLiteral("x.ir"));
    QVERIFY(!nothing.graph);
    QCOMPARE(nothing.diagnostics.first().severity, Severity::Error);
}

void TestMindSporeIrReader::monadsAreControlInputs()
{
    std::string text
        = "subgraph @g(%para1_w) {\n"
          "  %0(w) = Load(%para1_w, U)\n"
          "      : (<Ref[Tensor[Float32]], (2), ref_key=w>, <UMonad, NoShape>) -> (<Tensor[Float32], (2)>)\n"
          "      # Fullname with scope: (Default/net/Load-op3)\n"
          "  Return(%0)\n"
          "}\n";
    const GraphResult result = MindSporeIrReader::read(text, QStringLiteral("monad.ir"));
    QVERIFY(result.graph);
    const Node* load = byName(*result.graph, "Load-op3");
    QVERIFY(load);
    QCOMPARE(load->scope, std::string("Default/net"));
    QCOMPARE(load->inputs.size(), std::size_t(2));
    QVERIFY(!load->inputs[0].control);
    QCOMPARE(load->inputs[0].type.text(), std::string("float32[2]"));
    QVERIFY(load->inputs[1].control);
    QCOMPARE(load->outputs.front().type.text(), std::string("float32[2]"));
}

QTEST_GUILESS_MAIN(TestMindSporeIrReader)
#include "tst_mindsporeirreader.moc"
