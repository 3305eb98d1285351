#include "importers/graph/graphreader.h"

#include "importers/graph/anfirgraphreader.h"
#include "importers/graph/dotgraphreader.h"
#include "importers/graph/onnxgraphreader.h"
#include "importers/graph/tfgraphreader.h"

#include "tests/testutils.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace runlens;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;

Q_DECLARE_METATYPE(runlens::models::ArtifactKind)
Q_DECLARE_METATYPE(runlens::models::graph::GraphFormat)

namespace {

int worst(const Diagnostics& diagnostics)
{
    int out = -1;
    for (const Diagnostic& d : diagnostics)
        out = std::max(out, int(d.severity));
    return out;
}

/// Structural invariants every published graph keeps, whatever the format.
void checkConsistent(const Graph& g)
{
    std::set<std::string> ids;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        QVERIFY2(ids.insert(n.id).second, n.id.c_str());
        QCOMPARE(g.find(n.id), int(i));
        QVERIFY(n.subgraph >= 0 && n.subgraph < int(g.subgraphs.size()));
        for (const Port& p : n.inputs)
            QVERIFY(p.producer >= -1 && p.producer < int(g.nodes.size()));
        for (int body : n.bodies) {
            QVERIFY(body > 0 && body < int(g.subgraphs.size()));
            QCOMPARE(g.subgraphs[std::size_t(body)].owner, int(i));
        }
        if (n.callee >= 0)
            QVERIFY(n.callee < int(g.subgraphs.size()));
    }
    // Every edge resolves to two nodes and matches the input port it came from.
    int withProducer = 0;
    for (const Node& n : g.nodes) {
        for (const Port& p : n.inputs)
            withProducer += p.producer >= 0 ? 1 : 0;
    }
    QCOMPARE(int(g.edges.size()), withProducer);
    for (const Edge& e : g.edges) {
        QVERIFY(e.from >= 0 && e.from < int(g.nodes.size()));
        QVERIFY(e.to >= 0 && e.to < int(g.nodes.size()));
        QVERIFY(e.toSlot >= 0 && e.toSlot < int(g.nodes[std::size_t(e.to)].inputs.size()));
        QCOMPARE(g.nodes[std::size_t(e.to)].inputs[std::size_t(e.toSlot)].producer, e.from);
    }
    // Subgraph node lists partition the nodes.
    std::vector<int> seen(g.nodes.size(), 0);
    for (std::size_t s = 0; s < g.subgraphs.size(); ++s) {
        for (int index : g.subgraphs[s].nodes) {
            QVERIFY(index >= 0 && index < int(g.nodes.size()));
            QCOMPARE(g.nodes[std::size_t(index)].subgraph, int(s));
            ++seen[std::size_t(index)];
        }
    }
    for (int count : seen)
        QCOMPARE(count, 1);
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestGraphReader : public QObject
{
    Q_OBJECT

private slots:
    void samples_data();
    void samples();
    void onnxInitializers();
    void onnxLoopBody();
    void onnxExternalData();
    void onnxTorchMetadata();
    void onnxFunctions();
    void tfControlInputsAndSlots();
    void tfEventFileGraph();
    void anfDebuggerGraph();
    void anfModelAndGraphDef();
    void dotClustersAndLabels();
    void torchScriptText();
    void onnxSampleSizes_data();
    void onnxSampleSizes();
    void hostile_data();
    void hostile();
    void truncatedKeepsNodes_data();
    void truncatedKeepsNodes();
    void mutatedSamples_data();
    void mutatedSamples();
};

void TestGraphReader::samples_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<ArtifactKind>("kind");
    QTest::addColumn<GraphFormat>("format");
    QTest::addColumn<int>("mainNodes");
    QTest::addColumn<int>("allNodes");
    QTest::addColumn<int>("nodeEdges");
    QTest::addColumn<bool>("clean");

    // Node counts: the issue, `grep -c 'node_def {'` (library functions of resnet_8_simple), MANIFEST.tsv, python onnx
    // (len(graph.node)), `grep -c '^node {'` and `gc -n -e` (Graphviz); op-to-op edges: python onnx (inputs produced by
    // another node's output).
    const auto onnx = ArtifactKind::GraphOnnx;
    QTest::newRow("light_resnet50") << "graphs/onnx/light_resnet50.onnx" << onnx << GraphFormat::Onnx << 415 << 415
                                    << 430 << true;
    QTest::newRow("light_inception_v1") << "graphs/onnx/light_inception_v1.onnx" << onnx << GraphFormat::Onnx << 237
                                        << 237 << 263 << true;
    QTest::newRow("mnist-8") << "graphs/onnx/mnist-8.onnx" << onnx << GraphFormat::Onnx << 12 << 12 << 11 << true;
    QTest::newRow("test_loop11") << "graphs/onnx/test_loop11/model.onnx" << onnx << GraphFormat::Onnx << 1 << 10 << -1
                                 << true;
    QTest::newRow("attention_expanded") << "graphs/onnx/test_attention_4d_expanded/model.onnx" << onnx
                                        << GraphFormat::Onnx << 66 << 66 << -1 << true;
    QTest::newRow("torch export") << "runs/pytorch_cnn_baseline/graph/model.onnx" << onnx << GraphFormat::Onnx << 12
                                  << 12 << 11 << true;
    QTest::newRow("resnet_8_simple") << "graphs/tensorflow/resnet_8_simple.pbtxt" << ArtifactKind::GraphTensorFlow
                                     << GraphFormat::TensorFlow << 460 << 460 + 114 << -1 << true;
    QTest::newRow("graphdef_foo") << "graphs/tensorflow/graphdef_foo.pbtxt" << ArtifactKind::GraphTensorFlow
                                  << GraphFormat::TensorFlow << 1 << -1 << -1 << true;
    QTest::newRow("torch add_graph") << "graphs/torch_add_graph_event/events.out.tfevents.1771596179.zyzkings.9384.0"
                                     << ArtifactKind::TensorBoardEvents << GraphFormat::TensorFlow << 30 << 30 << -1
                                     << false;
    QTest::newRow("lenet debugger") << "graphs/mindspore_debug_graph_pb/lenet.pb" << ArtifactKind::GraphAnfIr
                                    << GraphFormat::AnfIrDebugger << 104 << 104 << -1 << true;
    QTest::newRow("example.dot") << "graphs/dot/example.dot" << ArtifactKind::GraphDot << GraphFormat::Dot << 25 << 25
                                 << 36 << true;
    QTest::newRow("mindspore ir.dot") << "graphs/mindspore_dot/ir.dot" << ArtifactKind::GraphDot << GraphFormat::Dot
                                      << 21 << 21 << 20 << true;
    QTest::newRow("mindspore cf.dot") << "graphs/mindspore_dot/cf.dot" << ArtifactKind::GraphDot << GraphFormat::Dot
                                      << 55 << 55 << 51 << true;
    QTest::newRow("fx.graph.dot") << "runs/pytorch_cnn_baseline/graph/fx.graph.dot" << ArtifactKind::GraphDot
                                  << GraphFormat::Dot << 24 << 24 << 23 << true;
    QTest::newRow("model.onnx.dot") << "runs/pytorch_cnn_baseline/graph/model.onnx.dot" << ArtifactKind::GraphDot
                                    << GraphFormat::Dot << 35 << 35 << 34 << true;
    // Statements with " = " after the header (grep -c); the return is an implicit output.
    const auto ts = ArtifactKind::GraphTorchScript;
    QTest::newRow("alexnet.expect") << "graphs/torchscript/TestJit.test_alexnet.expect" << ts
                                    << GraphFormat::TorchScript << 24 << 24 << -1 << true;
    QTest::newRow("jit_trace") << "runs/pytorch_cnn_baseline/graph/jit_trace.graph.txt" << ts
                               << GraphFormat::TorchScript << 24 << 24 << -1 << true;
    QTest::newRow("jit_trace inlined") << "runs/pytorch_cnn_baseline/graph/jit_trace.inlined_graph.txt" << ts
                                       << GraphFormat::TorchScript << 69 << 69 << -1 << true;
    QTest::newRow("fx") << "runs/pytorch_cnn_baseline/graph/fx.graph.txt" << ts << GraphFormat::TorchScript << 13 << 13
                        << 12 << true;
    // The file's own header says "Total number of cnodes: 12".
    QTest::newRow("18_execute.ir") << "graphs/mindspore_ir/mindir.md.ex1_18_execute_0161.ir"
                                   << ArtifactKind::GraphMindSporeIr << GraphFormat::MindSporeIr << -1 << 12 << -1
                                   << true;
}

void TestGraphReader::samples()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    QFETCH(QString, file);
    QFETCH(ArtifactKind, kind);
    QFETCH(GraphFormat, format);
    QFETCH(int, mainNodes);
    QFETCH(int, allNodes);
    QFETCH(int, nodeEdges);
    QFETCH(bool, clean);
    const QString path = samples + QLatin1Char('/') + file;
    RUNLENS_REQUIRE_SAMPLE_FILE(path);
    const GraphResult result = GraphReader::read(path, kind);
    QVERIFY2(result.graph,
             qPrintable(result.diagnostics.isEmpty() ? QString() : result.diagnostics.first().toString()));
    const Graph& g = *result.graph;
    QCOMPARE(g.format, format);
    QCOMPARE(g.path, path);
    if (mainNodes >= 0)
        QCOMPARE(g.nodeCount(0), mainNodes);
    if (allNodes >= 0)
        QCOMPARE(g.nodeCount(), allNodes);
    checkConsistent(g);
    const GraphSummary summary = summarizeGraph(g);
    if (nodeEdges >= 0)
        QCOMPARE(summary.edges, nodeEdges);
    if (clean) {
        for (const Diagnostic& d : result.diagnostics)
            QVERIFY2(d.severity == Severity::Info, qPrintable(d.toString()));
    }
    QCOMPARE(g.diagnostics.size(), result.diagnostics.size());
    if (kind == ArtifactKind::TensorBoardEvents) {
        // torch wrote four prim::GetAttr inputs that name no node (checked by decoding the record in python):
        // they stay unconnected and are reported.
        QCOMPARE(result.diagnostics.size(), 1);
        QVERIFY(result.diagnostics.first().message.startsWith(QLatin1String("4 ")));
    }
}

void TestGraphReader::onnxInitializers()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/runs/pytorch_cnn_baseline/graph/model.onnx");
    const QByteArray bytes = readAll(path);
    QVERIFY(!bytes.isEmpty());
    const GraphResult result = OnnxGraphReader::read(std::string_view(bytes.constData(), bytes.size()), path);
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    // python onnx: 10 initializers, conv1.weight float32 [6,1,5,5] with 600 raw bytes at file offset 1468.
    int parameters = 0;
    for (const Node& n : g.nodes)
        parameters += n.kind == NodeKind::Parameter && n.implicit ? 1 : 0;
    QCOMPARE(parameters, 10);
    const int weight = g.find("conv1.weight");
    QVERIFY(weight >= 0);
    const Node& w = g.nodes[std::size_t(weight)];
    QVERIFY(w.data);
    QCOMPARE(w.data->type.text(), std::string("float32[6,1,5,5]"));
    QCOMPARE(w.data->encoding, std::string("raw"));
    QCOMPARE(w.data->length, std::int64_t(600));
    QCOMPARE(w.data->offset, std::int64_t(1468));
    QVERIFY(w.data->file.empty());
    // The weight feeds the first convolution; namespaces come from the node names.
    const int conv = g.find("/conv1/Conv");
    QVERIFY(conv >= 0);
    QCOMPARE(g.nodes[std::size_t(conv)].scope, std::string("conv1"));
    QCOMPARE(g.nodes[std::size_t(conv)].name, std::string("Conv"));
    QCOMPARE(g.nodes[std::size_t(conv)].fullName(), std::string("conv1/Conv"));
    QCOMPARE(g.nodes[std::size_t(conv)].inputs.at(1).producer, weight);
    QCOMPARE(g.nodes[std::size_t(conv)].inputs.at(0).type.dtype, std::string("float32"));
}

void TestGraphReader::onnxLoopBody()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/graphs/onnx/test_loop11/model.onnx");
    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphOnnx);
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    QCOMPARE(g.subgraphs.size(), std::size_t(2));
    int loop = -1;
    for (int index : g.subgraphs[0].nodes) {
        if (g.nodes[std::size_t(index)].opType == "Loop")
            loop = index;
    }
    QVERIFY(loop >= 0);
    const Node& owner = g.nodes[std::size_t(loop)];
    QCOMPARE(owner.bodies, std::vector<int> { 1 });
    QCOMPARE(g.subgraphs[1].owner, loop);
    QCOMPARE(g.nodeCount(1), 9);
    // Body nodes sit under the owning node; the body's `x` comes from its own Constant node and the
    // body inputs (iter_count, cond_in, y_in) are its parameters.
    QCOMPARE(g.subgraphs[1].parameters.size(), std::size_t(3));
    // python onnx: the body holds two Constant ops; they are counted nodes of kind Constant.
    int constants = 0;
    for (int index : g.subgraphs[1].nodes) {
        const Node& n = g.nodes[std::size_t(index)];
        constants += n.kind == NodeKind::Constant && !n.implicit ? 1 : 0;
    }
    QCOMPARE(constants, 2);
    for (int index : g.subgraphs[1].nodes) {
        const Node& n = g.nodes[std::size_t(index)];
        QVERIFY2(n.scope.rfind(owner.fullName(), 0) == 0, n.scope.c_str());
        for (const Port& p : n.inputs) {
            if (!p.name.empty())
                QVERIFY2(p.producer >= 0, p.name.c_str());
        }
    }
}

void TestGraphReader::onnxExternalData()
{
    // Written by python onnx (save_as_external_data, one file): layer1.weight float32[4,6] at offset 0,
    // 96 bytes; layer1.bias float32[6] at offset 96, 24 bytes; input x float32[batch,4].
    const QString path = QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph_external.onnx");
    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphOnnx);
    QVERIFY(result.graph);
    QVERIFY(result.diagnostics.isEmpty());
    const Graph& g = *result.graph;
    checkConsistent(g);
    QCOMPARE(g.nodeCount(), 2);
    const Node& weight = g.nodes[std::size_t(g.find("layer1.weight"))];
    QVERIFY(weight.data);
    QCOMPARE(weight.data->file, std::string("graph_external.onnx.data"));
    QCOMPARE(weight.data->offset, std::int64_t(0));
    QCOMPARE(weight.data->length, std::int64_t(96));
    QCOMPARE(weight.data->encoding, std::string("raw"));
    QCOMPARE(weight.data->type.text(), std::string("float32[4,6]"));
    const Node& bias = g.nodes[std::size_t(g.find("layer1.bias"))];
    QCOMPARE(bias.data->offset, std::int64_t(96));
    QCOMPARE(bias.data->length, std::int64_t(24));
    const Node& matmul = g.nodes[std::size_t(g.find("/layer1/MatMul"))];
    QCOMPARE(matmul.scope, std::string("layer1"));
    QCOMPARE(matmul.inputs[0].type.text(), std::string("float32[batch,4]"));
    QCOMPARE(g.nodes[std::size_t(matmul.inputs[0].producer)].kind, NodeKind::Input);
    const Node& add = g.nodes[std::size_t(g.find("/layer1/Add"))];
    QCOMPARE(add.inputs[0].producer, g.find("/layer1/MatMul"));
    QCOMPARE(add.outputs[0].type.text(), std::string("float32[batch,6]"));
}

void TestGraphReader::onnxTorchMetadata()
{
    // tests/data/graph_fixtures.README: a node scoped by its "namespace" metadata, with a torch stack trace.
    const QString path = QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph_torch_metadata.onnx");
    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphOnnx);
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    const Node& relu = g.nodes[std::size_t(g.find("relu"))];
    QCOMPARE(relu.scope, std::string("encoder/layers.0/act"));
    QCOMPARE(relu.name, std::string("relu"));
    QCOMPARE(relu.sources.size(), std::size_t(2));
    QCOMPARE(relu.sources[0].file, std::string("blocks.py"));
    QCOMPARE(relu.sources[0].line, 40);
    QCOMPARE(relu.sources[0].text, std::string("return self.act(x)"));
    QCOMPARE(relu.sources[1].file, std::string("model.py"));
    QCOMPARE(relu.sources[1].line, 12);
    QCOMPARE(relu.inputs[0].type.text(), std::string("float32[1,8]"));
}

void TestGraphReader::onnxFunctions()
{
    // tests/data/graph_fixtures.README: custom.Block called twice.
    const QString path = QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph_functions.onnx");
    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphOnnx);
    QVERIFY(result.graph);
    QVERIFY(result.diagnostics.isEmpty());
    const Graph& g = *result.graph;
    checkConsistent(g);
    QCOMPARE(g.subgraphs.size(), std::size_t(2));
    QCOMPARE(g.subgraphs[1].name, std::string("custom.Block"));
    QCOMPARE(g.nodeCount(0), 2);
    QCOMPARE(g.nodeCount(1), 2);
    QCOMPARE(g.subgraphs[1].parameters.size(), std::size_t(2));
    for (const char* id : { "/block0/Block", "/block1/Block" }) {
        const Node& call = g.nodes[std::size_t(g.find(id))];
        QCOMPARE(call.kind, NodeKind::Call);
        QCOMPARE(call.callee, 1);
        QCOMPARE(call.opType, std::string("custom.Block"));
    }
    QCOMPARE(g.nodes[std::size_t(g.find("/block1/Block"))].inputs[0].producer, g.find("/block0/Block"));
    // Inside the body, act reads mm's output.
    const Node& act = g.nodes[std::size_t(g.find("act"))];
    QCOMPARE(act.subgraph, 1);
    QCOMPARE(act.inputs[0].producer, g.find("mm"));
}

void TestGraphReader::tfControlInputsAndSlots()
{
    // A GraphDef written by hand: `^` marks control inputs, `:1` the second output.
    const std::string text = "node { name: \"scope/a\" op: \"Split\" attr { key: \"T\" value { type: DT_FLOAT } }\n"
                             "  attr { key: \"_output_shapes\" value { list { shape { dim { size: 2 } } shape { dim "
                             "{ size: -1 } } } } } }\n"
                             "node { name: \"scope/inner/b\" op: \"Identity\" input: \"scope/a:1\" input: \"^init\" }\n"
                             "node { name: \"init\" op: \"NoOp\" }\n";
    const GraphResult result = TfGraphReader::readText(text, QStringLiteral("hand.pbtxt"));
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    checkConsistent(g);
    QCOMPARE(g.nodeCount(), 3);
    const Node& a = g.nodes[std::size_t(g.find("scope/a"))];
    QCOMPARE(a.scope, std::string("scope"));
    QCOMPARE(a.outputs.size(), std::size_t(2));
    QCOMPARE(a.outputs[0].type.text(), std::string("float32[2]"));
    QCOMPARE(a.outputs[1].type.text(), std::string("float32[?]"));
    const Node& b = g.nodes[std::size_t(g.find("scope/inner/b"))];
    QCOMPARE(b.scope, std::string("scope/inner"));
    QCOMPARE(b.inputs.size(), std::size_t(2));
    QCOMPARE(b.inputs[0].producer, g.find("scope/a"));
    QCOMPARE(b.inputs[0].producerSlot, 1);
    QVERIFY(!b.inputs[0].control);
    QCOMPARE(b.inputs[1].producer, g.find("init"));
    QVERIFY(b.inputs[1].control);
    QCOMPARE(g.edges.size(), std::size_t(2));
    // Binary round trip of the same graph through our reader of serialized GraphDefs is covered by the
    // event file sample; a text error names the line.
    const GraphResult bad = TfGraphReader::readText("this is not a graph", QStringLiteral("bad.pbtxt"));
    QVERIFY(!bad.graph);
    QVERIFY(!bad.diagnostics.isEmpty());
    QCOMPARE(bad.diagnostics.first().file, QStringLiteral("bad.pbtxt"));
    QCOMPARE(bad.diagnostics.first().line, 1);
}

void TestGraphReader::tfEventFileGraph()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path
        = samples + QStringLiteral("/runs/pytorch_cnn_baseline/tb/events.out.tfevents.1795321629.vm.1522.0");
    RUNLENS_REQUIRE_SAMPLE_FILE(path);
    const GraphResult result = readEventFileGraph(path);
    QVERIFY(result.graph);
    QVERIFY(result.graph->nodeCount() > 0);
    checkConsistent(*result.graph);
    // torch's add_graph scopes nodes by module path ("LeNet/Conv2d[conv1]/...").
    bool scoped = false;
    for (const Node& n : result.graph->nodes)
        scoped = scoped || n.scope.find('/') != std::string::npos || n.scope.find('[') != std::string::npos;
    QVERIFY(scoped);
}

void TestGraphReader::anfDebuggerGraph()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/graphs/mindspore_debug_graph_pb/lenet.pb");
    const QByteArray bytes = readAll(path);
    const GraphResult result = AnfIrGraphReader::read(std::string_view(bytes.constData(), bytes.size()), path);
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    QCOMPARE(g.format, GraphFormat::AnfIrDebugger);
    QCOMPARE(g.name, std::string("kernel_graph_0"));
    // MANIFEST.tsv / research notes: 104 nodes, 20 parameters, 37 constants.
    int parameters = 0;
    int constants = 0;
    for (const Node& n : g.nodes) {
        parameters += n.kind == NodeKind::Parameter ? 1 : 0;
        constants += n.kind == NodeKind::Constant ? 1 : 0;
    }
    QCOMPARE(parameters, 20);
    QCOMPARE(constants, 37);
    // `protoc --decode_raw`: node "1" is OneHot in the loss cell, fed by args1, cst1 and cst2.
    const Node& onehot = g.nodes[std::size_t(g.find("1"))];
    QCOMPARE(onehot.opType, std::string("OneHot"));
    QCOMPARE(onehot.scope, std::string("Default/network-WithLossCell/_loss_fn-SoftmaxCrossEntropyWithLogits"));
    QCOMPARE(onehot.name, std::string("OneHot-op0"));
    QCOMPARE(onehot.inputs.size(), std::size_t(3));
    QCOMPARE(onehot.inputs[0].producer, g.find("args1"));
    QCOMPARE(onehot.inputs[1].producer, g.find("cst1"));
    QCOMPARE(onehot.outputs.front().type.text(), std::string("float32[32,10]"));
}

void TestGraphReader::anfModelAndGraphDef()
{
    // tests/data/graph_fixtures.README describes what python protobuf wrote.
    const QString modelPath = QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph_anf_model.pb");
    const QString graphPath = QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph_anf_graph_def.pb");
    const QByteArray model = readAll(modelPath);
    const QByteArray graphDef = readAll(graphPath);
    QVERIFY(!model.isEmpty() && !graphDef.isEmpty());
    const GraphResult fromModel = AnfIrGraphReader::read(std::string_view(model.constData(), model.size()), modelPath);
    const GraphResult fromGraph
        = AnfIrGraphReader::readGraphProto(std::string_view(graphDef.constData(), graphDef.size()), graphPath);
    const GraphResult bare = AnfIrGraphReader::read(std::string_view(graphDef.constData(), graphDef.size()), graphPath);
    for (const GraphResult* result : { &fromModel, &fromGraph, &bare }) {
        QVERIFY(result->graph);
        QVERIFY(result->diagnostics.isEmpty());
        const Graph& g = *result->graph;
        checkConsistent(g);
        QCOMPARE(g.format, GraphFormat::AnfIr);
        QCOMPARE(g.name, std::string("2_train_network"));
        QCOMPARE(g.nodeCount(), 3);
        const Node& conv = g.nodes[std::size_t(g.find("1"))];
        QCOMPARE(conv.opType, std::string("Conv2D"));
        QCOMPARE(conv.scope, std::string("Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d"));
        QCOMPARE(conv.name, std::string("Conv2D-op1"));
        QCOMPARE(conv.inputs[0].producer, g.find("x"));
        QCOMPARE(conv.inputs[1].producer, g.find("conv1.weight"));
        QCOMPARE(conv.inputs[1].type.text(), std::string("float32[6,1,5,5]"));
        QCOMPARE(conv.outputs.front().type.text(), std::string("float32[32,6,28,28]"));
        bool padMode = false;
        for (const Attribute& a : conv.attributes)
            padMode = padMode || (a.name == "pad_mode" && a.value == "valid");
        QVERIFY(padMode);
        // An input named by its producer's full name resolves through the number after "op".
        const Node& add = g.nodes[std::size_t(g.find("2"))];
        QCOMPARE(add.inputs[0].producer, g.find("1"));
        const Node& constant = g.nodes[std::size_t(add.inputs[1].producer)];
        QCOMPARE(constant.kind, NodeKind::Constant);
        QCOMPARE(constant.outputs.front().type.text(), std::string("float32[2]"));
        const Node& relu = g.nodes[std::size_t(g.find("3"))];
        QCOMPARE(relu.inputs.size(), std::size_t(2));
        QVERIFY(!relu.inputs[0].control);
        QVERIFY(relu.inputs[1].control);
        QCOMPARE(g.subgraphs[0].parameters.size(), std::size_t(2));
        QCOMPARE(g.nodes[std::size_t(g.subgraphs[0].output)].inputs.front().producer, g.find("3"));
    }
    bool domain = false;
    for (const Attribute& a : fromModel.graph->metadata)
        domain = domain || (a.name == "domain" && a.value == "mindspore");
    QVERIFY(domain);
}

void TestGraphReader::dotClustersAndLabels()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    {
        const QString path = samples + QStringLiteral("/graphs/dot/example.dot");
        const GraphResult result = GraphReader::read(path, ArtifactKind::GraphDot);
        QVERIFY(result.graph);
        const Graph& g = *result.graph;
        // subgraph "cluster_ciafan.c" { label="ciafan.c"; ciafan; computefan; increment; }
        QCOMPARE(g.nodes[std::size_t(g.find("computefan"))].scope, std::string("ciafan.c"));
        // cluster_field.h has no label: its name without the prefix.
        QCOMPARE(g.nodes[std::size_t(g.find("get_sym_fields"))].scope, std::string("field.h"));
        QCOMPARE(g.nodes[std::size_t(g.find("main"))].scope, std::string("main.c"));
        QCOMPARE(g.nodes[std::size_t(g.find("fan"))].scope, std::string()); // in no cluster
    }
    {
        const QString path = samples + QStringLiteral("/graphs/mindspore_dot/ir.dot");
        const GraphResult result = GraphReader::read(path, ArtifactKind::GraphDot);
        QVERIFY(result.graph);
        const Graph& g = *result.graph;
        // node0x55c9669c66a0_0: <td ...>CNode(c)</td> in cluster label "test_f".
        const Node& c = g.nodes[std::size_t(g.find("node0x55c9669c66a0_0"))];
        QCOMPARE(c.opType, std::string("CNode"));
        QCOMPARE(c.name, std::string("c"));
        QCOMPARE(c.scope, std::string("test_f"));
        QCOMPARE(c.inputs.size(), std::size_t(3));
        for (const Port& p : c.inputs)
            QVERIFY(!p.name.empty()); // the head ports 0..2
        // No label text keeps markup.
        for (const Node& n : g.nodes)
            QVERIFY2(n.name.find('<') == std::string::npos, n.name.c_str());
    }
    {
        const QString path = samples + QStringLiteral("/runs/pytorch_cnn_baseline/graph/fx.graph.dot");
        const GraphResult result = GraphReader::read(path, ArtifactKind::GraphDot);
        QVERIFY(result.graph);
        const Graph& g = *result.graph;
        const Node& conv = g.nodes[std::size_t(g.find("conv1"))];
        QCOMPARE(conv.name, std::string("conv1"));
        QCOMPARE(conv.opType, std::string("torch.nn.modules.conv.Conv2d"));
        QCOMPARE(g.nodes[std::size_t(g.find("conv1.weight"))].kind, NodeKind::Parameter);
    }
    {
        // onnx's net_drawer names nodes "<name>/<op> (op#k)\n input0 ...": the first line is the name.
        const QString path = samples + QStringLiteral("/runs/pytorch_cnn_baseline/graph/model.onnx.dot");
        const GraphResult result = GraphReader::read(path, ArtifactKind::GraphDot);
        QVERIFY(result.graph);
        const Node* conv = nullptr;
        for (const Node& n : result.graph->nodes) {
            if (n.id.rfind("/conv1/Conv/Conv (op#0)", 0) == 0)
                conv = &n;
        }
        QVERIFY(conv);
        QCOMPARE(conv->scope, std::string("conv1/Conv"));
        QCOMPARE(conv->name, std::string("Conv"));
        QCOMPARE(conv->opType, std::string("Conv"));
        QCOMPARE(conv->inputs.size(), std::size_t(3));
    }
}

void TestGraphReader::torchScriptText()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    {
        const QString path = samples + QStringLiteral("/graphs/torchscript/TestJit.test_alexnet.expect");
        const GraphResult result = GraphReader::read(path, ArtifactKind::GraphTorchScript);
        QVERIFY(result.graph);
        const Graph& g = *result.graph;
        // graph(%1 : Double(10, 3, 224, 224) ... %17 : Double(1000)) {
        QCOMPARE(g.subgraphs[0].parameters.size(), std::size_t(17));
        QCOMPARE(g.nodes[std::size_t(g.subgraphs[0].parameters.front())].outputs.front().type.text(),
                 std::string("float64[10,3,224,224]"));
        // %19 : Double(10, 64, 55, 55), %20 : Handle = CppOp[ConvForward](%1, %2, %3)
        const Node& conv = g.nodes[std::size_t(g.find("%19"))];
        QCOMPARE(conv.opType, std::string("CppOp"));
        QCOMPARE(conv.outputs.size(), std::size_t(2));
        QCOMPARE(conv.outputs[0].type.text(), std::string("float64[10,64,55,55]"));
        QCOMPARE(conv.inputs.size(), std::size_t(3));
        QCOMPARE(conv.inputs[1].producer, g.subgraphs[0].parameters[1]);
        // %22 ... = ^Threshold(0, 0, True)(%19): parameters first, arguments last.
        const Node& threshold = g.nodes[std::size_t(g.find("%22"))];
        QCOMPARE(threshold.opType, std::string("Threshold"));
        QCOMPARE(threshold.inputs.size(), std::size_t(1));
        QCOMPARE(threshold.inputs[0].producer, g.find("%19"));
        // return (%88);
        QCOMPARE(g.nodes[std::size_t(g.subgraphs[0].output)].inputs.front().producer, g.find("%88"));
    }
    {
        const QString path = samples + QStringLiteral("/runs/pytorch_cnn_baseline/graph/jit_trace.inlined_graph.txt");
        const GraphResult result = GraphReader::read(path, ArtifactKind::GraphTorchScript);
        QVERIFY(result.graph);
        const Graph& g = *result.graph;
        // %input.1 : Float(2, 6, 28, 28, strides=...) = aten::_convolution(%x, %weight.5, %bias.5, ...),
        //     scope: __module.conv1 # /usr/lib/python3/dist-packages/torch/nn/modules/conv.py:459:0
        const Node& conv = g.nodes[std::size_t(g.find("%input.1"))];
        QCOMPARE(conv.opType, std::string("aten::_convolution"));
        QCOMPARE(conv.scope, std::string("conv1"));
        QCOMPARE(conv.outputs.front().type.text(), std::string("float32[2,6,28,28]"));
        QCOMPARE(conv.inputs.size(), std::size_t(13));
        QCOMPARE(g.nodes[std::size_t(conv.inputs[1].producer)].kind, NodeKind::Parameter);
        QCOMPARE(conv.sources.size(), std::size_t(1));
        QCOMPARE(conv.sources.front().file, std::string("/usr/lib/python3/dist-packages/torch/nn/modules/conv.py"));
        QCOMPARE(conv.sources.front().line, 459);
        QCOMPARE(g.nodes[std::size_t(g.find("%26"))].kind, NodeKind::Constant);
    }
    {
        const QString path = samples + QStringLiteral("/runs/pytorch_cnn_baseline/graph/fx.graph.txt");
        const GraphResult result = GraphReader::read(path, ArtifactKind::GraphTorchScript);
        QVERIFY(result.graph);
        const Graph& g = *result.graph;
        // %conv1 : [#users=1] = call_module[target=conv1](args = (%x,), kwargs = {})
        const Node& conv = g.nodes[std::size_t(g.find("%conv1"))];
        QCOMPARE(conv.opType, std::string("call_module"));
        QCOMPARE(conv.inputs.size(), std::size_t(1));
        QCOMPARE(conv.inputs[0].producer, g.find("%x"));
        QCOMPARE(g.nodes[std::size_t(g.find("%x"))].kind, NodeKind::Input);
        // return fc3
        QCOMPARE(g.nodes[std::size_t(g.subgraphs[0].output)].inputs.front().producer, g.find("%fc3"));
    }
}

void TestGraphReader::hostile_data()
{
    QTest::addColumn<ArtifactKind>("kind");
    QTest::addColumn<QByteArray>("bytes");
    const QByteArray garbage = QByteArray::fromHex("ffd8ffe000104a464946deadbeef0a0a0a12ff7f1a03");
    const QByteArray png = QByteArray::fromHex("89504e470d0a1a0a0000000d49484452");
    const ArtifactKind kinds[]
        = { ArtifactKind::GraphOnnx,        ArtifactKind::GraphTensorFlow, ArtifactKind::GraphAnfIr,
            ArtifactKind::GraphMindSporeIr, ArtifactKind::GraphDot,        ArtifactKind::GraphTorchScript };
    for (ArtifactKind kind : kinds) {
        const QByteArray id = artifactKindId(kind).toLatin1();
        QTest::newRow(id + " empty") << kind << QByteArray();
        QTest::newRow(id + " garbage") << kind << garbage;
        QTest::newRow(id + " wrong magic") << kind << png;
        QTest::newRow(id + " text") << kind << QByteArray("hello {{{ world ]]] %1 = = (\n");
        QTest::newRow(id + " nul") << kind << QByteArray("digraph { a -> b }\0\0\0", 21);
        QTest::newRow(id + " deep") << kind << QByteArray(5000, '{');
        QTest::newRow(id + " varint") << kind << QByteArray(64, char(0xff));
    }
}

void TestGraphReader::hostile()
{
    QFETCH(ArtifactKind, kind);
    QFETCH(QByteArray, bytes);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("hostile.bin"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    file.close();
    const GraphResult result = GraphReader::read(path, kind);
    if (!result.graph) {
        QVERIFY(!result.diagnostics.isEmpty());
        QCOMPARE(worst(result.diagnostics), int(Severity::Error));
    } else {
        checkConsistent(*result.graph);
    }
    for (const Diagnostic& d : result.diagnostics)
        QCOMPARE(d.file, path);
    // A missing file is an error naming it, not a crash.
    const QString missing = dir.filePath(QStringLiteral("missing.onnx"));
    const GraphResult none = GraphReader::read(missing, kind);
    QVERIFY(!none.graph);
    QCOMPARE(none.diagnostics.size(), 1);
    QCOMPARE(none.diagnostics.first().file, missing);
}

void TestGraphReader::truncatedKeepsNodes_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<ArtifactKind>("kind");
    QTest::newRow("onnx") << "graphs/onnx/light_resnet50.onnx" << ArtifactKind::GraphOnnx;
    QTest::newRow("anf debugger") << "graphs/mindspore_debug_graph_pb/lenet.pb" << ArtifactKind::GraphAnfIr;
    QTest::newRow("pbtxt") << "graphs/tensorflow/resnet_8_simple.pbtxt" << ArtifactKind::GraphTensorFlow;
    QTest::newRow("ir") << "graphs/mindspore_ir/mindir.md.ex1_18_execute_0161.ir" << ArtifactKind::GraphMindSporeIr;
}

void TestGraphReader::truncatedKeepsNodes()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    QFETCH(QString, file);
    QFETCH(ArtifactKind, kind);
    const QByteArray bytes = readAll(samples + QLatin1Char('/') + file);
    QVERIFY(!bytes.isEmpty());
    const GraphResult full = GraphReader::read(samples + QLatin1Char('/') + file, kind);
    QVERIFY(full.graph);
    QTemporaryDir dir;
    for (const double fraction : { 0.1, 0.5, 0.9 }) {
        const QString path = dir.filePath(QStringLiteral("cut_%1").arg(fraction));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes.left(qsizetype(bytes.size() * fraction)));
        out.close();
        const GraphResult cut = GraphReader::read(path, kind);
        for (const Diagnostic& d : cut.diagnostics)
            QCOMPARE(d.file, path);
        if (fraction >= 0.5) {
            // Half a file still yields the nodes before the cut, and says that something is missing.
            QVERIFY2(cut.graph, qPrintable(QString::number(fraction)));
            QVERIFY(cut.graph->nodeCount() > 0);
            QVERIFY(cut.graph->nodeCount() <= full.graph->nodeCount());
            QVERIFY(!cut.diagnostics.isEmpty() || kind == ArtifactKind::GraphMindSporeIr);
            checkConsistent(*cut.graph);
        }
    }
}

void TestGraphReader::mutatedSamples_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<ArtifactKind>("kind");
    QTest::newRow("onnx") << "graphs/onnx/mnist-8.onnx" << ArtifactKind::GraphOnnx;
    QTest::newRow("onnx loop") << "graphs/onnx/test_loop11/model.onnx" << ArtifactKind::GraphOnnx;
    QTest::newRow("anf debugger") << "graphs/mindspore_debug_graph_pb/lenet.pb" << ArtifactKind::GraphAnfIr;
    QTest::newRow("pbtxt") << "graphs/tensorflow/graphdef_foo.pbtxt" << ArtifactKind::GraphTensorFlow;
    QTest::newRow("ir") << "graphs/mindspore_ir/mindir.md.ex1_18_execute_0161.ir" << ArtifactKind::GraphMindSporeIr;
    QTest::newRow("dat") << "graphs/mindspore_ir/read_ir_files.md.ex3_ms1x_format.dat"
                         << ArtifactKind::GraphMindSporeIr;
    QTest::newRow("dot") << "graphs/mindspore_dot/cf.dot" << ArtifactKind::GraphDot;
    QTest::newRow("torchscript") << "graphs/torchscript/TestJit.test_alexnet.expect" << ArtifactKind::GraphTorchScript;
}

void TestGraphReader::mutatedSamples()
{
    // Damaged copies (bytes overwritten, removed, duplicated) never crash a reader, and whatever graph comes
    // back is consistent. A fixed seed keeps failures reproducible.
    RUNLENS_REQUIRE_SAMPLES(samples);
    QFETCH(QString, file);
    QFETCH(ArtifactKind, kind);
    const QByteArray original = readAll(samples + QLatin1Char('/') + file);
    QVERIFY(!original.isEmpty());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mutated"));
    // RUNLENS_GRAPH_FUZZ_ROUNDS and RUNLENS_GRAPH_FUZZ_SEED make a longer run (e.g. under the asan preset).
    const int rounds = qEnvironmentVariableIntValue("RUNLENS_GRAPH_FUZZ_ROUNDS") > 0
        ? qEnvironmentVariableIntValue("RUNLENS_GRAPH_FUZZ_ROUNDS")
        : 60;
    std::uint32_t state = qEnvironmentVariableIsSet("RUNLENS_GRAPH_FUZZ_SEED")
        ? std::uint32_t(qEnvironmentVariableIntValue("RUNLENS_GRAPH_FUZZ_SEED"))
        : 12345u;
    auto random = [&state](std::uint32_t bound) {
        state = state * 1664525u + 1013904223u;
        return (state >> 8) % bound;
    };
    for (int round = 0; round < rounds; ++round) {
        QByteArray bytes = original;
        const int edits = 1 + int(random(8));
        for (int e = 0; e < edits && !bytes.isEmpty(); ++e) {
            const qsizetype at = qsizetype(random(std::uint32_t(bytes.size())));
            switch (random(3)) {
            case 0:
                bytes[at] = char(random(256));
                break;
            case 1:
                bytes.remove(at, qsizetype(random(16)) + 1);
                break;
            default:
                bytes.insert(at, bytes.mid(at, qsizetype(random(32)) + 1));
                break;
            }
        }
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(bytes);
        out.close();
        const GraphResult result = GraphReader::read(path, kind);
        if (result.graph)
            checkConsistent(*result.graph);
        else
            QVERIFY(!result.diagnostics.isEmpty());
        for (const Diagnostic& d : result.diagnostics)
            QCOMPARE(d.file, path);
    }
}

void TestGraphReader::onnxSampleSizes_data()
{
    // Every node and edge, declarations included, as the reader made them before control-flow bodies were
    // limited and the parsed model moved to an arena: real models stay exactly as they were.
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("edges");
    QTest::addColumn<int>("subgraphs");
    QTest::newRow("light_inception_v1") << "graphs/onnx/light_inception_v1.onnx" << 357 << 383 << 1;
    QTest::newRow("light_resnet50") << "graphs/onnx/light_resnet50.onnx" << 686 << 700 << 1;
    QTest::newRow("mnist-8") << "graphs/onnx/mnist-8.onnx" << 22 << 21 << 1;
    QTest::newRow("attention_expanded") << "graphs/onnx/test_attention_4d_expanded/model.onnx" << 70 << 98 << 1;
    QTest::newRow("test_loop11") << "graphs/onnx/test_loop11/model.onnx" << 21 << 19 << 2;
}

void TestGraphReader::onnxSampleSizes()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    QFETCH(QString, file);
    QFETCH(int, nodes);
    QFETCH(int, edges);
    QFETCH(int, subgraphs);
    const QString path = samples + QLatin1Char('/') + file;
    RUNLENS_REQUIRE_SAMPLE_FILE(path);
    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphOnnx);
    QVERIFY(result.graph);
    QCOMPARE(int(result.graph->nodes.size()), nodes);
    QCOMPARE(int(result.graph->edges.size()), edges);
    QCOMPARE(int(result.graph->subgraphs.size()), subgraphs);
}

QTEST_GUILESS_MAIN(TestGraphReader)
#include "tst_graphreader.moc"
