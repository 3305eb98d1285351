#include "importers/core/filesniffer.h"
#include "importers/graph/graphreader.h"
#include "importers/graph/graphweights.h"
#include "importers/graph/tflitegraphreader.h"
#include "models/graph/graph.h"

#include "tests/importers/graph/graphtesthelpers.h"
#include "tests/pythonoracle.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <map>
#include <set>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;

using namespace runlens::test::graph;

namespace {

const QString kDir = QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph/tflite/");
const QString kSchema = QStringLiteral(RUNLENS_TEST_DATA_DIR "/../../importers/graph/schema/tflite.fbs");

std::string metadata(const Graph& graph, const std::string& name)
{
    for (const Attribute& a : graph.metadata) {
        if (a.name == name)
            return a.value;
    }
    return "<none>";
}

GraphResult readModel(const QByteArray& bytes, const QString& name = QStringLiteral("model.tflite"))
{
    return TfLiteGraphReader::read(std::string_view(bytes.constData(), std::size_t(bytes.size())), name);
}

bool hasError(const Diagnostics& diagnostics)
{
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == Severity::Error)
            return true;
    }
    return false;
}

} // namespace

class TestTfLiteGraph : public QObject
{
    Q_OBJECT

private slots:
    void againstOracle_data();
    void againstOracle();
    void quantizedDenseModel();
    void controlFlowSubgraphs();
    void customOpsAndDeprecatedCodes();
    void sniffing_data();
    void sniffing();
    void refusesDamagedFiles_data();
    void refusesDamagedFiles();
    void badReferencesAreReported();
    void weightsInTensorsPanel_data();
    void weightsInTensorsPanel();
};

void TestTfLiteGraph::againstOracle_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("hello_world_int8") << QStringLiteral("hello_world_int8.tflite");
    QTest::newRow("micro_speech_quantized") << QStringLiteral("micro_speech_quantized.tflite");
    QTest::newRow("audio_preprocessor_int8") << QStringLiteral("audio_preprocessor_int8.tflite");
    QTest::newRow("trained_lstm") << QStringLiteral("trained_lstm.tflite");
    QTest::newRow("control_flow") << QStringLiteral("control_flow.tflite");
    QTest::newRow("offset_buffers") << QStringLiteral("offset_buffers.tflite");
}

// tests/data/graph/tflite/tflite_oracle.py decodes the model with `flatc --json` and counts what it printed.
void TestTfLiteGraph::againstOracle()
{
    QFETCH(QString, file);
    const QString path = kDir + file;
    const test::PythonRun run
        = test::runPythonScript(QStringLiteral("graph/tflite/tflite_oracle.py"), { path, kSchema });
    RUNLENS_VERIFY_PYTHON(run);
    const QJsonObject oracle = QJsonDocument::fromJson(run.output.toUtf8()).object();
    QVERIFY2(!oracle.isEmpty(), qPrintable(run.output));

    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphTfLite);
    QVERIFY(result.graph);
    for (const Diagnostic& d : result.diagnostics)
        QVERIFY2(d.severity == Severity::Info, qPrintable(d.message));
    const Graph& graph = *result.graph;
    QCOMPARE(graph.format, GraphFormat::TfLite);
    const QJsonArray subgraphs = oracle.value("subgraphs").toArray();
    QCOMPARE(int(graph.subgraphs.size()), subgraphs.size());
    const bool signed_ = !oracle.value("signatures").toArray().isEmpty();
    if (signed_)
        QCOMPARE(metadata(graph, "signatures"), oracle.value("signatures").toArray().at(0).toString().toStdString());

    int total = 0;
    for (int s = 0; s < subgraphs.size(); ++s) {
        const QJsonObject expected = subgraphs.at(s).toObject();
        total += expected.value("operators").toInt();
        QCOMPARE(graph.nodeCount(s), expected.value("operators").toInt());

        std::map<std::string, int> types;
        std::map<std::string, const Node*> weights;
        std::vector<const Node*> ops;
        int inputs = 0;
        int outputs = 0;
        for (const int index : graph.subgraphs[std::size_t(s)].nodes) {
            const Node& node = graph.nodes[std::size_t(index)];
            if (!node.implicit) {
                ++types[node.opType];
                ops.push_back(&node);
            } else if (node.kind == NodeKind::Parameter) {
                weights[node.outputs.at(0).name] = &node;
            } else if (node.kind == NodeKind::Input) {
                ++inputs;
            } else if (node.kind == NodeKind::Output) {
                ++outputs;
            }
        }
        const QJsonObject opTypes = expected.value("op_types").toObject();
        QCOMPARE(int(types.size()), opTypes.size());
        for (auto it = opTypes.begin(); it != opTypes.end(); ++it)
            QCOMPARE(types[it.key().toStdString()], it.value().toInt());
        QCOMPARE(inputs, expected.value("inputs").toArray().size());
        QCOMPARE(outputs, expected.value("outputs").toArray().size());

        // Every port carries its tensor's dtype and shape, as flatc printed them.
        const QJsonObject tensors = expected.value("tensors").toObject();
        const QJsonArray firstOutputs = expected.value("first_outputs").toArray();
        QCOMPARE(int(ops.size()), firstOutputs.size());
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const Node& op = *ops[i];
            QCOMPARE(op.outputs.at(0).name, firstOutputs.at(int(i)).toString().toStdString());
            for (const auto* ports : { &op.inputs, &op.outputs }) {
                for (const Port& port : *ports) {
                    if (port.name.empty())
                        continue; // an optional input left out
                    const QJsonObject t = tensors.value(QString::fromStdString(port.name)).toObject();
                    QVERIFY2(!t.isEmpty(), port.name.c_str());
                    QCOMPARE(QString::fromStdString(port.type.dtype), t.value("type").toString());
                    const QJsonArray shape = t.value("shape").toArray();
                    QCOMPARE(int(port.type.dims.size()), shape.size());
                    for (int d = 0; d < shape.size(); ++d)
                        QCOMPARE(port.type.dims[std::size_t(d)], std::int64_t(shape.at(d).toInt()));
                }
            }
        }

        // Constant tensors are located in the file: their bytes are exactly the buffer flatc printed.
        const QJsonObject expectedWeights = expected.value("weights").toObject();
        QCOMPARE(int(weights.size()), expectedWeights.size());
        const QByteArray bytes = readAll(path);
        for (auto it = expectedWeights.begin(); it != expectedWeights.end(); ++it) {
            const auto found = weights.find(it.key().toStdString());
            QVERIFY2(found != weights.end(), qPrintable(it.key()));
            const Node& weight = *found->second;
            const int length = it.value().toInt();
            if (length == 0) {
                QVERIFY(!weight.data.has_value());
                QCOMPARE(weight.opType, std::string("Variable"));
                continue;
            }
            QVERIFY(weight.data.has_value());
            QCOMPARE(weight.data->length, std::int64_t(length));
            QVERIFY(weight.data->offset > 0 && weight.data->offset + length <= bytes.size());
            // Raw exactly when the oracle read the buffer as elements of the tensor's type and shape.
            const bool plain = expected.value("listed").toObject().contains(it.key());
            QCOMPARE(weight.data->encoding, std::string(plain ? "raw" : "bytes"));
        }
    }
    QCOMPARE(graph.nodeCount(), total);
}

void TestTfLiteGraph::quantizedDenseModel()
{
    const GraphResult result = GraphReader::read(kDir + "hello_world_int8.tflite", ArtifactKind::GraphTfLite);
    QVERIFY(result.graph);
    const Graph& graph = *result.graph;
    QCOMPARE(metadata(graph, "description"), std::string("MLIR Converted."));
    QCOMPARE(metadata(graph, "schema version"), std::string("3"));
    QCOMPARE(metadata(graph, "metadata:min_runtime_version"), std::string("1.14.0"));

    // An op is known by its first output; its scope comes from the part before the first ';'.
    const Node* dense = findNode(graph, "sequential/dense/MatMul;sequential/dense/Relu;sequential/dense/BiasAdd");
    QVERIFY(dense);
    QCOMPARE(dense->opType, std::string("FULLY_CONNECTED"));
    QCOMPARE(dense->scope, std::string("sequential/dense"));
    QCOMPARE(dense->outputs.at(0).type.text(), std::string("int8[?,16]"));
    QCOMPARE(attribute(*dense, "version"), std::string("4"));
    QCOMPARE(attribute(*dense, "input 0 quantization"), std::string("scale 0.0244801, zero point -128"));

    // Weights fold into the layer that reads them, quantized and located.
    int inScope = 0;
    for (const Port& port : dense->inputs) {
        QVERIFY(port.producer >= 0);
        const Node& producer = graph.nodes[std::size_t(port.producer)];
        if (producer.kind == NodeKind::Parameter) {
            QCOMPARE(producer.scope, std::string("sequential/dense"));
            QVERIFY(producer.data.has_value());
            ++inScope;
        }
    }
    QCOMPARE(inScope, 2);

    // Signature names label the model's boundary.
    const Node* input = findNode(graph, "serving_default_dense_input:0");
    QVERIFY(input);
    QCOMPARE(input->kind, NodeKind::Input);
    QCOMPARE(input->name, std::string("dense_input"));
    QCOMPARE(attribute(*input, "signature"), std::string("serving_default: dense_input"));
    QCOMPARE(attribute(*input, "quantization"), std::string("scale 0.0244801, zero point -128"));
    const Node* output = findNode(graph, "output:StatefulPartitionedCall:0");
    QVERIFY(output);
    QCOMPARE(output->name, std::string("dense_2"));
    QVERIFY(output->inputs.at(0).producer >= 0);
    QCOMPARE(graph.nodes[std::size_t(output->inputs.at(0).producer)].opType, std::string("FULLY_CONNECTED"));

    const GraphSummary summary = summarizeGraph(graph);
    QCOMPARE(summary.nodes, 3);
    QCOMPARE(summary.edges, 2); // dense -> dense_1 -> dense_2
    QVERIFY(summary.groups >= 3);
}

void TestTfLiteGraph::controlFlowSubgraphs()
{
    const GraphResult result = GraphReader::read(kDir + "control_flow.tflite", ArtifactKind::GraphTfLite);
    QVERIFY(result.graph);
    const Graph& graph = *result.graph;
    QCOMPARE(int(graph.subgraphs.size()), 5);
    QCOMPARE(graph.subgraphs[1].name, std::string("while_cond"));

    const Node* loop = findNode(graph, "model/loop/while");
    QVERIFY(loop);
    QCOMPARE(loop->opType, std::string("WHILE"));
    QCOMPARE(attribute(*loop, "cond_subgraph"), std::string("while_cond"));
    QCOMPARE(attribute(*loop, "body_subgraph"), std::string("while_body"));
    QCOMPARE(loop->bodies, (std::vector<int> { 1, 2 }));
    QCOMPARE(graph.subgraphs[2].owner, graph.find("model/loop/while"));
    const Node* branch = findNode(graph, "model/branch/cond");
    QVERIFY(branch);
    QCOMPARE(branch->bodies, (std::vector<int> { 3, 4 }));
    QCOMPARE(attribute(*branch, "else_subgraph"), std::string("else_branch"));

    // Body nodes are scoped under their subgraph; the body's inputs are its own.
    const Node* mul = findNode(graph, "while_body/while_body/scale/mul");
    QVERIFY(mul);
    QCOMPARE(mul->subgraph, 2);
    QCOMPARE(mul->scope, std::string("while_body/while_body/scale"));
    QCOMPARE(attribute(*mul, "version"), std::string("2"));
    QCOMPARE(mul->outputs.at(0).type.text(), std::string("float32[1,4]"));
    const Node& factor = graph.nodes[std::size_t(mul->inputs.at(1).producer)];
    QCOMPARE(factor.opType, std::string("Constant"));
    QCOMPARE(factor.data->length, std::int64_t(16));
    QCOMPARE(factor.data->type.text(), std::string("float32[4]"));
    // The located bytes are the four floats 0.5, 1, 2, 3 the fixture holds.
    const QByteArray bytes = readAll(kDir + "control_flow.tflite");
    float values[4];
    std::memcpy(values, bytes.constData() + factor.data->offset, sizeof values);
    QCOMPARE(values[0], 0.5f);
    QCOMPARE(values[3], 3.0f);
    const Node& x = graph.nodes[std::size_t(mul->inputs.at(0).producer)];
    QCOMPARE(x.kind, NodeKind::Input);
    QCOMPARE(x.subgraph, 2);

    // Dynamic dimensions come from the shape signature.
    const Node* input = findNode(graph, "serving_default_x:0");
    QVERIFY(input);
    QCOMPARE(input->outputs.at(0).type.text(), std::string("float32[?,4]"));
    QCOMPARE(input->name, std::string("x"));
}

void TestTfLiteGraph::customOpsAndDeprecatedCodes()
{
    // micro_speech predates the 32-bit builtin_code: only deprecated_builtin_code is set.
    const GraphResult speech = GraphReader::read(kDir + "micro_speech_quantized.tflite", ArtifactKind::GraphTfLite);
    QVERIFY(speech.graph);
    const Node* conv = findNode(*speech.graph, "Relu");
    QVERIFY(conv);
    QCOMPARE(conv->opType, std::string("DEPTHWISE_CONV_2D"));
    QCOMPARE(conv->outputs.at(0).type.text(), std::string("int8[1,25,20,8]"));

    const GraphResult audio = GraphReader::read(kDir + "audio_preprocessor_int8.tflite", ArtifactKind::GraphTfLite);
    QVERIFY(audio.graph);
    std::set<std::string> types;
    for (const Node& node : audio.graph->nodes)
        types.insert(node.opType);
    QVERIFY(types.count("SignalWindow"));
    QVERIFY(types.count("SignalFilterBankLog"));
    QVERIFY(types.count("STRIDED_SLICE"));

    QCOMPARE(tfliteBuiltinName(0), std::string("ADD"));
    QCOMPARE(tfliteBuiltinName(127), std::string("PLACEHOLDER_FOR_GREATER_OP_CODES"));
    QCOMPARE(tfliteBuiltinName(209), std::string("STABLEHLO_CASE"));
    QCOMPARE(tfliteBuiltinName(100000), std::string("BUILTIN_100000"));
    QCOMPARE(tfliteTypeName(9), std::string("int8"));
    QCOMPARE(tfliteTypeName(99), std::string("type99"));
}

void TestTfLiteGraph::sniffing_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("validHead");
    QTest::addColumn<int>("kind");
    QTest::newRow("tflite extension") << QStringLiteral("model.tflite") << true << int(ArtifactKind::GraphTfLite);
    QTest::newRow("identifier, other name") << QStringLiteral("model.bin") << true << int(ArtifactKind::GraphTfLite);
    QTest::newRow("identifier, no extension") << QStringLiteral("model") << true << int(ArtifactKind::GraphTfLite);
    QTest::newRow("tflite name, garbage") << QStringLiteral("broken.tflite") << false << int(ArtifactKind::GraphTfLite);
    QTest::newRow("no identifier, other name") << QStringLiteral("model.dat") << false << int(ArtifactKind::Unknown);
}

void TestTfLiteGraph::sniffing()
{
    QFETCH(QString, name);
    QFETCH(bool, validHead);
    QFETCH(int, kind);
    QVERIFY(FileSniffer::worthReading(name.toStdString()));
    QByteArray head = readAll(kDir + "hello_world_int8.tflite");
    static const char kOther[] = "\x10\x00\x00\x00XXXXsomething else entirely";
    if (!validHead)
        head = QByteArray(kOther, qsizetype(sizeof kOther - 1));
    const SniffResult sniffed = FileSniffer::sniff(
        name.toStdString(), "run", std::string_view(head.constData(), std::size_t(head.size())), head.size());
    QCOMPARE(int(sniffed.kind), kind);
}

void TestTfLiteGraph::refusesDamagedFiles_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const QByteArray good = readAll(kDir + "hello_world_int8.tflite");
    QTest::newRow("empty") << QByteArray() << QStringLiteral("too short");
    QTest::newRow("no identifier") << QByteArray(64, 'x') << QStringLiteral("TFL3");
    QTest::newRow("truncated") << good.left(good.size() / 2) << QStringLiteral("fails verification");
    QByteArray root = good;
    root[0] = char(0xf0);
    root[1] = char(0xff);
    QTest::newRow("root outside") << root << QStringLiteral("fails verification");
    // Every offset of the first 256 bytes stomped: any of them may break the flatbuffer; none may crash.
    QByteArray stomped = good;
    for (int i = 8; i < 256; i += 4)
        stomped[i] = char(0x7f);
    QTest::newRow("stomped") << stomped << QStringLiteral("fails verification");
}

void TestTfLiteGraph::refusesDamagedFiles()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    const GraphResult result = readModel(bytes, QStringLiteral("/runs/a/broken.tflite"));
    QVERIFY(!result.graph);
    QVERIFY(hasError(result.diagnostics));
    const Diagnostic& d = result.diagnostics.front();
    QCOMPARE(d.file, QStringLiteral("/runs/a/broken.tflite"));
    QVERIFY2(d.message.contains(message), qPrintable(d.message));
}

void TestTfLiteGraph::badReferencesAreReported()
{
    // Tensor, opcode and subgraph indices out of range pass the verifier (they are plain numbers): the
    // reader checks them, keeps the graph and says what was wrong.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString json = dir.filePath(QStringLiteral("bad.json"));
    {
        QFile file(json);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({ "version": 3,
            "operator_codes": [ { "builtin_code": "WHILE", "deprecated_builtin_code": 119 } ],
            "subgraphs": [ { "tensors": [ { "name": "a", "shape": [2] }, { "name": "w", "shape": [2], "buffer": 9 } ],
                             "inputs": [0, 7], "outputs": [0],
                             "operators": [ { "opcode_index": 0, "inputs": [0, 1, 5], "outputs": [0],
                                              "builtin_options_type": "WhileOptions",
                                              "builtin_options": { "cond_subgraph_index": 4, "body_subgraph_index": -2 } },
                                            { "opcode_index": 3, "inputs": [], "outputs": [] } ] } ],
            "buffers": [ {} ] })");
    }
    QProcess flatc;
    flatc.start(QStringLiteral("flatc"),
                { QStringLiteral("--binary"), QStringLiteral("-o"), dir.path(), kSchema, json });
    if (!flatc.waitForFinished(60000) || flatc.exitCode() != 0)
        QSKIP("flatc (flatbuffers-compiler) is needed to write this model");
    const GraphResult result = GraphReader::read(dir.filePath(QStringLiteral("bad.tflite")), ArtifactKind::GraphTfLite);
    QVERIFY(result.graph);
    QCOMPARE(result.graph->nodeCount(), 2);
    QStringList messages;
    for (const Diagnostic& d : result.diagnostics)
        messages << d.message;
    const QString all = messages.join('\n');
    QVERIFY2(all.contains(QStringLiteral("2 tensor reference(s)")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("1 operator(s) name an operator code")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("2 control-flow or call reference(s)")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("1 tensor(s) name a buffer")), qPrintable(all));
    std::multiset<std::string> types;
    for (const Node& node : result.graph->nodes) {
        if (!node.implicit)
            types.insert(node.opType);
    }
    QCOMPARE(types, (std::multiset<std::string> { "WHILE", "opcode_3" }));
}

void TestTfLiteGraph::weightsInTensorsPanel_data()
{
    againstOracle_data();
}

// The Tensors panel lists each constant whose buffer holds plain little-endian elements of its type and
// shape, with the values numpy reads from the buffer flatc printed (or, for offset buffers, from the file at
// the offset flatc printed). Quantized constants are listed with their stored type; "wrong_length" in
// offset_buffers.tflite has 8 bytes for a float32 [3] and is not listed.
void TestTfLiteGraph::weightsInTensorsPanel()
{
    QFETCH(QString, file);
    const QString path = kDir + file;
    const test::PythonRun run
        = test::runPythonScript(QStringLiteral("graph/tflite/tflite_oracle.py"), { path, kSchema });
    RUNLENS_VERIFY_PYTHON(run);
    const QJsonArray subgraphs = QJsonDocument::fromJson(run.output.toUtf8()).object().value("subgraphs").toArray();
    QVERIFY(!subgraphs.isEmpty());
    int expected = 0;
    for (const QJsonValue s : subgraphs)
        expected += s.toObject().value("listed").toObject().size();

    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphTfLite);
    QVERIFY(result.graph);
    const Graph& graph = *result.graph;
    const QList<models::tensor::TensorSeries> series = graphWeightSeries(graph);
    QCOMPARE(series.size(), expected);
    for (const models::tensor::TensorSeries& s : series) {
        QCOMPARE(s.name, file + QStringLiteral(": ") + s.nodeKey);
        const Node* node = findNode(graph, s.nodeKey.toStdString());
        QVERIFY2(node, qPrintable(s.nodeKey));
        const std::string& tensor = node->outputs.at(0).name;
        const QJsonObject want = subgraphs.at(node->subgraph)
                                     .toObject()
                                     .value("listed")
                                     .toObject()
                                     .value(QString::fromStdString(tensor))
                                     .toObject();
        QVERIFY2(!want.isEmpty(), tensor.c_str());
        QCOMPARE(std::string(models::tensor::dtypeName(s.versions.front().dtype)), node->data->type.dtype);
        compareWithOracle(s, want);
        if (QTest::currentTestFailed())
            return;
    }
    if (file == QStringLiteral("offset_buffers.tflite")) {
        // The quantized kernel is listed as its stored int8 elements; Node Details gives scale and zero point.
        const Node* kernel = findNode(graph, "dense/kernel_int8");
        QVERIFY(kernel);
        QVERIFY2(attribute(*kernel, "quantization").find("zero point -3") != std::string::npos,
                 attribute(*kernel, "quantization").c_str());
        const Node* wrong = findNode(graph, "wrong_length");
        QVERIFY(wrong && wrong->data);
        QCOMPARE(wrong->data->length, std::int64_t(8));
        QCOMPARE(weightValuesLocation(graph, *wrong), QString());
    }
}

QTEST_GUILESS_MAIN(TestTfLiteGraph)
#include "tst_tflitegraph.moc"
