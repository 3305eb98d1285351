#include "importers/core/filesniffer.h"
#include "importers/graph/graphreader.h"
#include "importers/graph/graphweights.h"
#include "importers/graph/mindirgraphreader.h"
#include "models/graph/graph.h"

#include "tests/importers/graph/graphtesthelpers.h"
#include "tests/pythonoracle.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;

using namespace runlens::test::graph;

namespace {

const QString kLenet = QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph/mindir/lenet.mindir");
const QString kSplit = QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph/mindir/lenet_split_graph.mindir");

} // namespace

class TestMindIrGraph : public QObject
{
    Q_OBJECT

private slots:
    void againstOracle_data();
    void againstOracle();
    void hierarchyAndDetails();
    void sniffing_data();
    void sniffing();
    void truncatedKeepsNodes();
    void hostileReferences();
    void weightsInTensorsPanel_data();
    void weightsInTensorsPanel();
    void hostileWeightLengths();
};

void TestMindIrGraph::againstOracle_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("weights inside") << kLenet;
    QTest::newRow("weights in _variables/data_0") << kSplit;
}

// tests/data/graph/mindir/mindir_oracle.py parses the file with protobuf's python runtime and finds the weights'
// byte ranges by walking the wire format.
void TestMindIrGraph::againstOracle()
{
    QFETCH(QString, path);
    const test::PythonRun run = test::runPythonScript(QStringLiteral("graph/mindir/mindir_oracle.py"), { path });
    RUNLENS_VERIFY_PYTHON(run);
    const QJsonObject oracle = QJsonDocument::fromJson(run.output.toUtf8()).object();
    QVERIFY2(!oracle.isEmpty(), qPrintable(run.output));

    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphMindIr);
    QVERIFY(result.graph);
    const Graph& graph = *result.graph;
    for (const Diagnostic& d : result.diagnostics)
        QVERIFY2(d.severity == Severity::Info, qPrintable(d.message));
    QCOMPARE(graph.format, GraphFormat::MindIr);
    QCOMPARE(graph.nodeCount(), oracle.value("nodes").toInt());
    QCOMPARE(int(graph.subgraphs.size()), oracle.value("subgraphs").toInt());
    const QJsonArray functions = oracle.value("functions").toArray();
    for (int i = 0; i < functions.size(); ++i)
        QCOMPARE(QString::fromStdString(graph.subgraphs[std::size_t(i + 1)].name), functions[i].toString());
    QCOMPARE(countKind(graph, NodeKind::Input), oracle.value("inputs").toInt());
    const GraphSummary summary = summarizeGraph(graph);
    QCOMPARE(summary.edges, oracle.value("op_edges").toInt());
    QCOMPARE(summary.allEdges, oracle.value("all_edges").toInt());

    std::map<std::string, int> types;
    for (const Node& node : graph.nodes) {
        if (!node.implicit)
            ++types[node.opType];
    }
    const QJsonObject expectedTypes = oracle.value("op_types").toObject();
    QCOMPARE(int(types.size()), expectedTypes.size());
    for (auto it = expectedTypes.begin(); it != expectedTypes.end(); ++it)
        QCOMPARE(types[it.key().toStdString()], it.value().toInt());

    // Weights: shape, dtype and where the bytes are, without having copied them.
    const QJsonObject parameters = oracle.value("parameters").toObject();
    QCOMPARE(countKind(graph, NodeKind::Parameter), parameters.size());
    for (auto it = parameters.begin(); it != parameters.end(); ++it) {
        const Node* node = findNode(graph, it.key().toStdString());
        QVERIFY2(node, qPrintable(it.key()));
        QCOMPARE(node->kind, NodeKind::Parameter);
        const QJsonObject p = it.value().toObject();
        QVERIFY(node->data.has_value());
        const TensorLocation& data = *node->data;
        QCOMPARE(QString::fromStdString(data.type.dtype), p.value("dtype").toString());
        QCOMPARE(int(data.type.dims.size()), p.value("dims").toArray().size());
        for (int k = 0; k < int(data.type.dims.size()); ++k)
            QCOMPARE(data.type.dims[std::size_t(k)], p.value("dims").toArray()[k].toInteger());
        QCOMPARE(node->outputs.at(0).type.text(), data.type.text());
        QCOMPARE(QString::fromStdString(data.file), p.value("file").toString());
        QCOMPARE(data.offset, p.value("offset").toInteger());
        QCOMPARE(data.length, p.value("length").toInteger());
        QCOMPARE(data.encoding, std::string("raw"));
    }

    // Calls of a function graph name it as their callee.
    const QJsonObject calls = oracle.value("calls").toObject();
    QCOMPARE(countKind(graph, NodeKind::Call), calls.size());
    for (auto it = calls.begin(); it != calls.end(); ++it) {
        const Node* node = findNode(graph, it.key().toStdString());
        QVERIFY2(node, qPrintable(it.key()));
        QCOMPARE(node->kind, NodeKind::Call);
        QVERIFY(node->callee > 0);
        QCOMPARE(QString::fromStdString(graph.subgraphs[std::size_t(node->callee)].name), it.value().toString());
    }
    // Primitive attributes show on the nodes that use them.
    const QJsonObject attributes = oracle.value("primitive_attributes").toObject();
    for (auto it = attributes.begin(); it != attributes.end(); ++it) {
        std::string id = it.key().toStdString();
        if (graph.find(id) < 0) // a function's node: scoped under the function
            id = graph.subgraphs.at(1).name + "/" + id;
        const Node* node = findNode(graph, id);
        QVERIFY2(node, qPrintable(it.key()));
        const QJsonObject names = it.value().toObject();
        for (auto a = names.begin(); a != names.end(); ++a)
            QVERIFY2(attribute(*node, a.key().toStdString()) != "<none>", qPrintable(it.key() + " " + a.key()));
    }
    for (const Attribute& m : graph.metadata) {
        if (m.name == "ir_version")
            QCOMPARE(QString::fromStdString(m.value), oracle.value("ir_version").toString());
        if (m.name == "producer")
            QVERIFY(QString::fromStdString(m.value).startsWith(oracle.value("producer").toString()));
    }
}

void TestMindIrGraph::hierarchyAndDetails()
{
    const GraphResult result = GraphReader::read(kLenet, ArtifactKind::GraphMindIr);
    QVERIFY(result.graph);
    const Graph& graph = *result.graph;

    // Scopes come from `domain`, the node's full name with scope.
    const Node* conv = findNode(graph, "Default/network-LeNet5/conv1-Conv2d/Conv2D-op0");
    QVERIFY(conv);
    QCOMPARE(conv->opType, std::string("Conv2D"));
    QCOMPARE(conv->scope, std::string("Default/network-LeNet5/conv1-Conv2d"));
    QCOMPARE(conv->name, std::string("Conv2D-op0"));
    QCOMPARE(attribute(*conv, "kernel_size"), std::string("(5, 5)"));
    QCOMPARE(attribute(*conv, "pad_mode"), std::string("valid"));
    QCOMPARE(attribute(*conv, "out_channel"), std::string("6"));
    QCOMPARE(attribute(*conv, "input_names"), std::string("[x, w]"));
    QCOMPARE(attribute(*conv, "instance_name"), std::string("conv1.conv2d"));
    QCOMPARE(conv->outputs.at(0).type.text(), std::string("float32[1,6,28,28]"));
    QCOMPARE(conv->inputs.size(), std::size_t(2));
    QCOMPARE(conv->inputs[0].type.text(), std::string("float32[1,1,32,32]"));

    // The weight folds into the layer that reads it.
    const Node* weight = findNode(graph, "conv1.weight");
    QVERIFY(weight);
    QCOMPARE(weight->scope, conv->scope);
    QCOMPARE(conv->inputs[1].producer, graph.find("conv1.weight"));

    const Node* matmul = findNode(graph, "5_construct.13/Default/network-LeNet5/fc-Dense/MatMul-op7");
    QVERIFY(matmul);
    QCOMPARE(matmul->subgraph, 1);
    QCOMPARE(attribute(*matmul, "transpose_b"), std::string("true"));

    const Node* reshapeShape = nullptr;
    for (const Node& node : graph.nodes) {
        if (node.kind == NodeKind::Constant)
            reshapeShape = &node;
    }
    QVERIFY(reshapeShape);
    QCOMPARE(attribute(*reshapeShape, "value"), std::string("(1, 400)"));
    QCOMPARE(reshapeShape->scope, std::string("Default/network-LeNet5/flatten-Flatten"));

    const Node* fc1 = findNode(graph, "Default/network-LeNet5/fc1-Dense/construct-op9");
    QVERIFY(fc1);
    QCOMPARE(fc1->kind, NodeKind::Call);
    QCOMPARE(fc1->outputs.at(0).type.text(), std::string("float32[1,32]"));
    QCOMPARE(graph.subgraphs[1].parameters.size(), std::size_t(3));
    QVERIFY(graph.subgraphs[1].output >= 0);

    const GraphSummary summary = summarizeGraph(graph);
    QVERIFY(summary.groups >= 6);
    QCOMPARE(summary.maxDepth, 4);
}

void TestMindIrGraph::sniffing_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<ArtifactKind>("kind");
    QTest::newRow(".mindir") << kLenet << "lenet.mindir" << ArtifactKind::GraphMindIr;
    QTest::newRow("_graph.mindir") << kSplit << "lenet_split_graph.mindir" << ArtifactKind::GraphMindIr;
    QTest::newRow("renamed, producer MindSpore") << kLenet << "model" << ArtifactKind::GraphMindIr;
    QTest::newRow("ONNX named .mindir") << QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph_functions.onnx")
                                        << "functions.mindir" << ArtifactKind::GraphOnnx;
}

void TestMindIrGraph::sniffing()
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

// Cut inside the weights (which follow the nodes in the file): the nodes are kept, the functions and primitives
// that come after the top graph are lost and said so.
void TestMindIrGraph::truncatedKeepsNodes()
{
    const QByteArray bytes = readAll(kLenet);
    const QByteArray cut = bytes.left(bytes.size() / 2);
    const GraphResult result = MindIrGraphReader::read(cut.toStdString(), kLenet);
    QVERIFY(result.graph);
    QCOMPARE(result.graph->nodeCount(), 11);
    QCOMPARE(result.diagnostics.front().severity, Severity::Warning);
    const Node* conv = findNode(*result.graph, "Default/network-LeNet5/conv1-Conv2d/Conv2D-op0");
    QVERIFY(conv);
    QCOMPARE(conv->opType, std::string("Conv2D"));
    const GraphResult garbage = MindIrGraphReader::read("\x0a\xff\xff\xff\xff\x0f garbage", kLenet);
    QVERIFY(!garbage.graph);
    QVERIFY(!garbage.diagnostics.isEmpty());
}

// A node calling itself, an input naming nothing and a negative external offset: read, with warnings.
void TestMindIrGraph::hostileReferences()
{
    auto field = [](int number, const QByteArray& payload) {
        QByteArray out;
        out.append(char(number << 3 | 2));
        out.append(char(payload.size()));
        return out + payload;
    };
    auto varintField = [](int number, qint64 value) {
        QByteArray out;
        out.append(char(number << 3));
        auto v = quint64(value);
        do {
            out.append(char((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
            v >>= 7;
        } while (v);
        return out;
    };
    const QByteArray self = field(1, "g:n") + field(2, "g:n") + field(3, "g:n") + field(4, "REF::g");
    const QByteArray dangling = field(1, "g:nothing") + field(2, "g:m") + field(3, "g:m") + field(4, "REF::Foo:3");
    const QByteArray external = field(1, "loc") + varintField(2, -5) + varintField(3, 4);
    const QByteArray parameter = field(7, "g:w") + varintField(2, 1) + field(12, external);
    const QByteArray graph = field(1, self) + field(1, dangling) + field(2, "g") + field(3, parameter);
    const QByteArray model = field(1, "0.1.1") + field(2, "MindSpore") + field(7, graph);
    const GraphResult result = MindIrGraphReader::read(model.toStdString(), QStringLiteral("hostile.mindir"));
    QVERIFY(result.graph);
    QCOMPARE(result.graph->nodeCount(), 2);
    const Node* n = findNode(*result.graph, "n");
    QVERIFY(n);
    QCOMPARE(n->inputs.at(0).producer, result.graph->find("n"));
    const Node* m = findNode(*result.graph, "m");
    QVERIFY(m);
    QCOMPARE(m->opType, std::string("Foo"));
    int warnings = 0;
    for (const Diagnostic& d : result.diagnostics)
        warnings += d.severity == Severity::Warning ? 1 : 0;
    QCOMPARE(warnings, 3); // unknown primitive, unresolved input, bad external data
}

void TestMindIrGraph::weightsInTensorsPanel_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("raw_data in the model") << kLenet;
    QTest::newRow("external data files") << kSplit;
}

// The Tensors panel lists every parameter whose bytes are plain little-endian elements, and its values are
// the ones numpy reads where mindir_oracle.py found them (raw_data by walking the wire format, external data
// at the offset the ExternalDataProto gives).
void TestMindIrGraph::weightsInTensorsPanel()
{
    QFETCH(QString, path);
    const test::PythonRun run = test::runPythonScript(QStringLiteral("graph/mindir/mindir_oracle.py"), { path });
    RUNLENS_VERIFY_PYTHON(run);
    const QJsonObject listed = QJsonDocument::fromJson(run.output.toUtf8()).object().value("listed").toObject();
    QVERIFY(!listed.isEmpty());

    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphMindIr);
    QVERIFY(result.graph);
    const QList<models::tensor::TensorSeries> series = graphWeightSeries(*result.graph);
    QCOMPARE(series.size(), listed.size());
    const QString prefix = QFileInfo(path).fileName() + QStringLiteral(": ");
    for (const models::tensor::TensorSeries& s : series) {
        QVERIFY2(s.name.startsWith(prefix), qPrintable(s.name));
        const QString weight = s.name.mid(prefix.size());
        QVERIFY2(listed.contains(weight), qPrintable(weight));
        QCOMPARE(s.nodeKey, weight);
        QCOMPARE(s.kind, QStringLiteral("weight"));
        test::graph::compareWithOracle(s, listed.value(weight).toObject());
        if (QTest::currentTestFailed())
            return;
    }
}

// Parameters whose bytes are not plain elements of their dims and type (a length that is not elements x
// element size, dims overflowing, strings, compressed, external data too short, a big-endian model) keep
// their location but are not listed; nothing crashes.
void TestMindIrGraph::hostileWeightLengths()
{
    auto varint = [](quint64 v) {
        QByteArray out;
        do {
            out.append(char((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
            v >>= 7;
        } while (v);
        return out;
    };
    auto field = [&](int number, const QByteArray& payload) {
        return varint(quint64(number << 3 | 2)) + varint(quint64(payload.size())) + payload;
    };
    auto number = [&](int n, qint64 value) { return varint(quint64(n << 3)) + varint(quint64(value)); };
    const QByteArray eight(8, '\x11');
    auto parameter = [&](const char* name, std::initializer_list<qint64> dims, int type, const QByteArray& rest) {
        QByteArray p = field(7, QByteArray("g:") + name) + number(2, type);
        for (const qint64 d : dims)
            p += number(1, d);
        return field(3, p + rest);
    };
    const QByteArray external = field(1, "w.bin") + number(2, 0) + number(3, 8);
    const QByteArray graph = field(2, "g") + parameter("good", { 2 }, 1, field(9, eight))
        + parameter("short", { 3 }, 1, field(9, eight)) + parameter("huge", { qint64(1) << 62, 4 }, 1, field(9, eight))
        + parameter("text", { 2 }, 8, field(9, eight)) + parameter("packed", { 2 }, 1, field(9, eight) + number(16, 1))
        + parameter("external_short", { 3 }, 1, field(12, external))
        + parameter("external_good", { 2 }, 1, field(12, external));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile bin(dir.filePath(QStringLiteral("w.bin")));
    QVERIFY(bin.open(QIODevice::WriteOnly) && bin.write(eight) == 8);
    bin.close();
    const auto listedNames = [&](const QByteArray& model) {
        QFile file(dir.filePath(QStringLiteral("hostile.mindir")));
        if (!file.open(QIODevice::WriteOnly) || file.write(model) != model.size())
            return QStringList { QStringLiteral("<not written>") };
        file.close();
        const GraphResult result = GraphReader::read(file.fileName(), ArtifactKind::GraphMindIr);
        if (!result.graph)
            return QStringList { QStringLiteral("<no graph>") };
        QStringList names;
        for (const models::tensor::TensorSeries& s : graphWeightSeries(*result.graph))
            names << s.name;
        // Node Details still says where every parameter's bytes are.
        for (const char* name : { "good", "short", "huge", "text", "packed", "external_short" }) {
            const Node* node = findNode(*result.graph, name);
            if (!node || !node->data || node->data->offset < 0)
                names << QStringLiteral("<%1 not located>").arg(QLatin1String(name));
        }
        return names;
    };
    QCOMPARE(listedNames(field(1, "0.1.1") + field(7, graph)),
             QStringList({ QStringLiteral("hostile.mindir: good"), QStringLiteral("hostile.mindir: external_good") }));
    // Saved on a big-endian machine: the same elements in the other byte order are not listed.
    QCOMPARE(listedNames(field(1, "0.1.1") + field(7, graph) + number(10, 0)), QStringList());
}

QTEST_GUILESS_MAIN(TestMindIrGraph)
#include "tst_mindirgraph.moc"
