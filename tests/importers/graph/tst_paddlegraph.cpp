#include "importers/core/filesniffer.h"
#include "importers/graph/graphreader.h"
#include "importers/graph/paddlegraphreader.h"
#include "importers/graph/visualdlgraphreader.h"
#include "models/graph/graph.h"

#include "tests/importers/graph/graphtesthelpers.h"
#include "tests/pythonoracle.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <map>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;

using namespace runlens::test::graph;

namespace {

const QString kCnn = QStringLiteral(RUNLENS_TEST_DATA_DIR "/paddle/cnn/inference.pdmodel");
const QString kMobileNet = QStringLiteral(RUNLENS_TEST_DATA_DIR "/paddle/visualdl_demo/__model__");
const QString kVdlGraph = QStringLiteral(RUNLENS_TEST_DATA_DIR "/paddle/vdlgraph/vdlgraph.1700000000.log");

} // namespace

class TestPaddleGraph : public QObject
{
    Q_OBJECT

private slots:
    void againstOracle_data();
    void againstOracle();
    void cnnHierarchyAndDetails();
    void mobileNetFromVisualDl();
    void visualDlLayerGraph();
    void visualDlAgainstJson();
    void sniffing_data();
    void sniffing();
    void blockCyclesAndMissingBlocks();
    void truncatedKeepsOps();
};

void TestPaddleGraph::againstOracle_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("cnn with while and cond") << kCnn;
    QTest::newRow("visualdl demo mobilenet __model__") << kMobileNet;
}

// tests/data/paddle/paddle_oracle.py decodes the program by hand from the wire format.
void TestPaddleGraph::againstOracle()
{
    QFETCH(QString, path);
    const test::PythonRun run = test::runPythonScript(QStringLiteral("paddle/paddle_oracle.py"), { path });
    RUNLENS_VERIFY_PYTHON(run);
    const QJsonObject oracle = QJsonDocument::fromJson(run.output.toUtf8()).object();
    QVERIFY2(!oracle.isEmpty(), qPrintable(run.output));

    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphPaddle);
    QVERIFY(result.graph);
    const Graph& graph = *result.graph;
    QCOMPARE(graph.format, GraphFormat::Paddle);
    QCOMPARE(graph.nodeCount(), oracle.value("ops").toInt());
    QCOMPARE(int(graph.subgraphs.size()), oracle.value("blocks").toInt());
    QCOMPARE(countKind(graph, NodeKind::Parameter), oracle.value("parameters").toInt());
    QCOMPARE(countKind(graph, NodeKind::Input), oracle.value("inputs").toInt());
    const GraphSummary summary = summarizeGraph(graph);
    QCOMPARE(summary.edges, oracle.value("op_edges").toInt());
    QCOMPARE(summary.allEdges, oracle.value("all_edges").toInt());
    QCOMPARE(int(graph.edges.size()), oracle.value("all_edges").toInt());

    std::map<std::string, int> types;
    for (const Node& node : graph.nodes) {
        if (!node.implicit)
            ++types[node.opType];
    }
    const QJsonObject expected = oracle.value("op_types").toObject();
    QCOMPARE(int(types.size()), expected.size());
    for (auto it = expected.begin(); it != expected.end(); ++it)
        QCOMPARE(types[it.key().toStdString()], it.value().toInt());
    for (const Diagnostic& d : result.diagnostics)
        QVERIFY2(d.severity == Severity::Info, qPrintable(d.message));
}

void TestPaddleGraph::cnnHierarchyAndDetails()
{
    const GraphResult result = GraphReader::read(kCnn, ArtifactKind::GraphPaddle);
    QVERIFY(result.graph);
    const Graph& graph = *result.graph;

    // `name.tmp_N` prefixes group a layer's ops with the weights they read.
    const Node* conv = findNode(graph, "conv2d_0.tmp_0");
    QVERIFY(conv);
    QCOMPARE(conv->opType, std::string("conv2d"));
    QCOMPARE(conv->name, std::string("conv2d"));
    QCOMPARE(conv->scope, std::string("conv2d_0"));
    QCOMPARE(attribute(*conv, "strides"), std::string("[1, 1]"));
    QCOMPARE(attribute(*conv, "data_format"), std::string("NCHW"));
    QCOMPARE(attribute(*conv, "input:Filter"), std::string("[conv2d_0.w_0]"));
    QCOMPARE(conv->outputs.at(0).type.text(), std::string("float32[?,16,32,32]"));
    QVERIFY(!conv->sources.empty());
    QCOMPARE(conv->sources.front().file, std::string("cnn.py"));
    QCOMPARE(conv->sources.front().line, 12);

    const Node* weight = findNode(graph, "conv2d_0.w_0");
    QVERIFY(weight);
    QCOMPARE(weight->kind, NodeKind::Parameter);
    QVERIFY(weight->implicit);
    QCOMPARE(weight->scope, std::string("conv2d_0"));
    QVERIFY(weight->data.has_value());
    QCOMPARE(weight->data->type.text(), std::string("float32[16,3,3,3]"));
    // Its values are in the parameter file beside the model (tst_paddleparams checks where).
    QCOMPARE(weight->data->file, std::string("inference.pdiparams"));
    QVERIFY(weight->data->offset > 0);

    // batch_norm writes its moving mean in place: its Mean input is the parameter, not the op itself.
    const Node* bn = findNode(graph, "batch_norm_0.tmp_2");
    QVERIFY(bn);
    QCOMPARE(bn->scope, std::string("batch_norm_0"));
    for (const Port& port : bn->inputs) {
        QVERIFY(port.producer >= 0);
        QVERIFY(port.producer != graph.find("batch_norm_0.tmp_2"));
    }
    // Its result (Y) is its first output, whatever the order of the slots in the file.
    QCOMPARE(bn->outputs.at(0).name, std::string("batch_norm_0.tmp_2"));
    QCOMPARE(bn->outputs.at(0).type.text(), std::string("float32[?,16,32,32]"));
    QCOMPARE(attribute(*bn, "is_test"), std::string("true"));

    // A scope of one op is no group.
    const Node* relu = findNode(graph, "relu_0.tmp_0");
    QVERIFY(relu);
    QCOMPARE(relu->scope, std::string());
    const Node* matmul = findNode(graph, "linear_0.tmp_0");
    QVERIFY(matmul);
    QCOMPARE(matmul->scope, std::string("linear_0"));
    QCOMPARE(matmul->opType, std::string("matmul_v2"));

    // The while op owns block 1; its body reads the tensor assigned before the loop.
    int whileIndex = -1;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
        if (graph.nodes[i].opType == "while")
            whileIndex = int(i);
    }
    QVERIFY(whileIndex >= 0);
    const Node& loop = graph.nodes[std::size_t(whileIndex)];
    QCOMPARE(loop.bodies.size(), std::size_t(1));
    const Subgraph& body = graph.subgraphs[std::size_t(loop.bodies.front())];
    QCOMPARE(body.owner, whileIndex);
    QCOMPARE(int(body.nodes.size()), 4);
    const Node& scale = graph.nodes[std::size_t(body.nodes.front())];
    QCOMPARE(scale.opType, std::string("scale"));
    QCOMPARE(scale.scope, std::string("while/block_1"));
    QCOMPARE(graph.nodes[std::size_t(scale.inputs.at(0).producer)].opType, std::string("assign"));

    const Node* feed = findNode(graph, "image");
    QVERIFY(feed);
    QCOMPARE(feed->opType, std::string("feed"));
    QVERIFY(feed->inputs.at(0).producer < 0);

    bool paramsNote = false;
    for (const Diagnostic& d : result.diagnostics)
        paramsNote = paramsNote || d.message.contains(QLatin1String("inference.pdiparams"));
    QVERIFY(paramsNote);
}

void TestPaddleGraph::mobileNetFromVisualDl()
{
    const GraphResult result = GraphReader::read(kMobileNet, ArtifactKind::GraphPaddle);
    QVERIFY(result.graph);
    const Graph& graph = *result.graph;
    const Node* conv = findNode(graph, "conv2d_0.tmp_0");
    QVERIFY(conv);
    // The fluid-era weight name has no `.` path: it folds into the layer that reads it.
    const Node* weights = findNode(graph, "conv1_weights");
    QVERIFY(weights);
    QCOMPARE(weights->scope, conv->scope);
    QCOMPARE(conv->scope, std::string("conv2d_0"));
    QCOMPARE(weights->outputs.at(0).type.text(), std::string("float32[32,3,3,3]"));
    // op_callstack: innermost frame first.
    QVERIFY(!conv->sources.empty());
    QVERIFY(QString::fromStdString(conv->sources.front().file).endsWith(QLatin1String("framework.py")));
    QCOMPARE(conv->sources.size(), std::size_t(7));
    QCOMPARE(conv->sources.back().file, std::string("generate.py"));
    QCOMPARE(conv->sources.back().line, 27);
    QCOMPARE(conv->sources.back().text, std::string("infer()"));
    const GraphSummary summary = summarizeGraph(graph);
    QVERIFY(summary.groups >= 27);
}

void TestPaddleGraph::visualDlLayerGraph()
{
    const GraphResult result = GraphReader::read(kVdlGraph, ArtifactKind::GraphVisualDl);
    QVERIFY(result.graph);
    const Graph& graph = *result.graph;
    QCOMPARE(graph.format, GraphFormat::VisualDlGraph);
    QCOMPARE(graph.nodeCount(), 13);
    const Node* conv = findNode(graph, "MyNet[model]/Conv2D[conv1]/conv2d_0");
    QVERIFY(conv);
    QCOMPARE(conv->scope, std::string("MyNet[model]/Conv2D[conv1]"));
    QCOMPARE(conv->name, std::string("conv2d_0"));
    QCOMPARE(conv->opType, std::string("conv2d"));
    QCOMPARE(attribute(*conv, "paddings"), std::string("[2,2]"));
    const Node* weight = findNode(graph, "conv2d_0.w_0");
    QVERIFY(weight);
    QCOMPARE(weight->kind, NodeKind::Parameter);
    QCOMPARE(weight->scope, std::string("MyNet[model]/Conv2D[conv1]"));
    QCOMPARE(weight->outputs.at(0).type.text(), std::string("float32[20,1,5,5]"));
    const Node* relu = findNode(graph, "MyNet[model]/relu_0");
    QVERIFY(relu);
    QCOMPARE(relu->inputs.at(0).producer, graph.find("MyNet[model]/Conv2D[conv1]/elementwise_add_0"));
    // One group per layer: the model and its five sublayers.
    const GraphSummary summary = summarizeGraph(graph);
    QCOMPARE(summary.groups, 6);
    QCOMPARE(summary.maxDepth, 2);
}

// python json over the same file: ops are the leaf nodes; an edge for every input variable some other op writes
// or that is a parameter (persistable, no writer).
void TestPaddleGraph::visualDlAgainstJson()
{
    const QString code = QStringLiteral(
        "import json,sys\n"
        "d=json.load(open(sys.argv[1]))\n"
        "ops=[n for n in d['nodes'] if n['is_leaf_node'] and n['name']!='/']\n"
        "v={x['name']:x for x in d['vars']}\n"
        "writer={}\n"
        "for n in ops:\n"
        "  for a in n['output_vars'].values():\n"
        "    for x in a: writer[x]=n['name']\n"
        "edges=0; op_edges=0; params=set()\n"
        "for n in ops:\n"
        "  for a in n['input_vars'].values():\n"
        "    for x in a:\n"
        "      if 'FEED' in v[x]['type'] or 'FETCH' in v[x]['type']: continue\n"
        "      edges+=1\n"
        "      if x in writer and writer[x]!=n['name']: op_edges+=1\n"
        "      else: params.add(x)\n"
        "print(json.dumps({'ops':len(ops),'edges':edges,'op_edges':op_edges,'params':len(params)}))\n");
    const test::PythonRun run = test::runPython({ QStringLiteral("-c"), code, kVdlGraph });
    RUNLENS_VERIFY_PYTHON(run);
    const QJsonObject oracle = QJsonDocument::fromJson(run.output.toUtf8()).object();
    const GraphResult result = GraphReader::read(kVdlGraph, ArtifactKind::GraphVisualDl);
    QVERIFY(result.graph);
    const GraphSummary summary = summarizeGraph(*result.graph);
    QCOMPARE(summary.nodes, oracle.value("ops").toInt());
    QCOMPARE(summary.allEdges, oracle.value("edges").toInt());
    QCOMPARE(summary.edges, oracle.value("op_edges").toInt());
    QCOMPARE(countKind(*result.graph, NodeKind::Parameter), oracle.value("params").toInt());
}

void TestPaddleGraph::sniffing_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<ArtifactKind>("kind");
    QTest::newRow("__model__") << kMobileNet << "__model__" << ArtifactKind::GraphPaddle;
    QTest::newRow("pdmodel") << kCnn << "inference.pdmodel" << ArtifactKind::GraphPaddle;
    QTest::newRow("program renamed") << kCnn << "program" << ArtifactKind::GraphPaddle;
    QTest::newRow("vdlgraph") << kVdlGraph << "vdlgraph.1700000000.log" << ArtifactKind::GraphVisualDl;
    QTest::newRow("vdlgraph with suffix") << kVdlGraph << "vdlgraph.1700000000.log.host" << ArtifactKind::GraphVisualDl;
}

void TestPaddleGraph::sniffing()
{
    QFETCH(QString, source);
    QFETCH(QString, fileName);
    QFETCH(ArtifactKind, kind);
    const QByteArray bytes = readAll(source);
    QVERIFY(!bytes.isEmpty());
    QVERIFY(FileSniffer::worthReading(fileName.toStdString()));
    const std::string head = bytes.left(4096).toStdString();
    const SniffResult sniffed = FileSniffer::sniff(fileName.toStdString(), "run", head, bytes.size());
    QCOMPARE(artifactKindId(sniffed.kind), artifactKindId(kind));
    QVERIFY(artifactKindImported(kind));
    QVERIFY(GraphReader::supports(kind));
}

// A block referring to itself or to its ancestor, one shared by two ops and one that does not exist are left out
// with a warning; the ops around them are read.
void TestPaddleGraph::blockCyclesAndMissingBlocks()
{
    // Hand-written ProgramDesc: block 0 { op "while" sub_block=1 }, block 1 { op "while" sub_block=0, op "cond"
    // sub_block=1, op "x" sub_block=7 }.
    auto field = [](int number, const QByteArray& payload) {
        QByteArray out;
        out.append(char(number << 3 | 2));
        out.append(char(payload.size()));
        return out + payload;
    };
    auto varintField = [](int number, int value) {
        QByteArray out;
        out.append(char(number << 3));
        out.append(char(value));
        return out;
    };
    auto op = [&](const char* type, int block) {
        const QByteArray attr = field(1, "sub_block") + varintField(2, 8) + varintField(12, block);
        return field(4, field(3, type) + field(4, attr));
    };
    const QByteArray block0 = varintField(1, 0) + op("while", 1);
    const QByteArray block1 = varintField(1, 1) + op("while", 0) + op("cond", 1) + op("x", 7);
    const QByteArray program = field(1, block0) + field(1, block1);
    const GraphResult result = PaddleGraphReader::read(program.toStdString(), QStringLiteral("cycle.pdmodel"));
    QVERIFY(result.graph);
    QCOMPARE(result.graph->nodeCount(), 4);
    QCOMPARE(int(result.graph->subgraphs.size()), 2);
    bool warned = false;
    for (const Diagnostic& d : result.diagnostics)
        warned = warned || (d.severity == Severity::Warning && d.message.contains(QLatin1String("3 sub-block")));
    QVERIFY(warned);
}

void TestPaddleGraph::truncatedKeepsOps()
{
    const QByteArray bytes = readAll(kMobileNet);
    const QByteArray cut = bytes.left(bytes.size() / 2);
    const GraphResult result = PaddleGraphReader::read(cut.toStdString(), kMobileNet);
    QVERIFY(result.graph);
    QVERIFY(result.graph->nodeCount() > 10);
    QVERIFY(result.graph->nodeCount() < 88);
    QCOMPARE(result.diagnostics.front().severity, Severity::Warning);
    const GraphResult garbage = PaddleGraphReader::read("\x0a\xff\xff\xff\xff\x0f garbage", kMobileNet);
    QVERIFY(!garbage.graph);
}

QTEST_GUILESS_MAIN(TestPaddleGraph)
#include "tst_paddlegraph.moc"
