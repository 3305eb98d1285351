// Paddle 3 PIR programs (inference.json): against a Python oracle that walks the same JSON, the hierarchy and
// details, parameters located in the .pdiparams beside the program, sniffing, and hostile programs.

#include "importers/core/filesniffer.h"
#include "importers/graph/graphreader.h"
#include "importers/graph/paddlegraphreader.h"
#include "importers/graph/paddlepirreader.h"

#include "tests/importers/graph/graphtesthelpers.h"
#include "tests/pythonoracle.h"

#include <QFile>
#include <QJsonArray>
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

const QString kProgram = QStringLiteral(RUNLENS_TEST_DATA_DIR "/paddle/pir/inference.json");
const QString kDesignExample = QStringLiteral(RUNLENS_TEST_DATA_DIR "/paddle/pir/design_example.json");

const Node* nodeNamed(const Graph& graph, const std::string& opType, int nth = 0)
{
    for (const Node& node : graph.nodes) {
        if (node.opType == opType && nth-- == 0)
            return &node;
    }
    return nullptr;
}

/// JSON written with single quotes, so the tests' programs need no escaping.
QByteArray json(const char* text)
{
    return QByteArray(text).replace('\'', '"');
}

GraphResult readText(const QByteArray& json)
{
    return PaddleGraphReader::read(json.toStdString(), QStringLiteral("/nowhere/inference.json"));
}

} // namespace

class TestPaddlePir : public QObject
{
    Q_OBJECT

private slots:
    void againstOracle_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("generated CNN with if and while") << kProgram;
        QTest::newRow("Paddle's design example") << kDesignExample;
    }

    void againstOracle()
    {
        QFETCH(QString, path);
        const test::PythonRun run = test::runPythonScript(QStringLiteral("paddle/pir_oracle.py"), { path });
        RUNLENS_VERIFY_PYTHON(run);
        const QJsonObject oracle = QJsonDocument::fromJson(run.output.toUtf8()).object();
        QVERIFY2(!oracle.isEmpty(), qPrintable(run.output));

        const GraphResult result = GraphReader::read(path, ArtifactKind::GraphPaddle);
        QVERIFY(result.graph);
        const Graph& graph = *result.graph;
        QCOMPARE(graph.nodeCount(), oracle.value(QStringLiteral("ops")).toInt());
        QCOMPARE(int(graph.edges.size()), oracle.value(QStringLiteral("edges")).toInt());
        QCOMPARE(int(graph.subgraphs.size()) - 1, oracle.value(QStringLiteral("bodies")).toInt());
        QStringList parameters;
        for (const Node& node : graph.nodes) {
            if (node.kind == NodeKind::Parameter)
                parameters << QString::fromStdString(node.name);
        }
        parameters.sort();
        QStringList expected;
        for (const QJsonValue p : oracle.value(QStringLiteral("parameters")).toArray())
            expected << p.toString();
        QCOMPARE(parameters, expected);
        std::map<std::string, int> types;
        for (const Node& node : graph.nodes) {
            if (!node.implicit)
                ++types[node.opType];
        }
        const QJsonObject wantTypes = oracle.value(QStringLiteral("op_types")).toObject();
        QCOMPARE(int(types.size()), int(wantTypes.size()));
        for (auto it = wantTypes.begin(); it != wantTypes.end(); ++it)
            QCOMPARE(types[it.key().toStdString()], it.value().toInt());
        QVERIFY(!hasDiagnostic(result, Severity::Warning, QStringLiteral("operand")));
    }

    void designExampleDetails()
    {
        const GraphResult result = GraphReader::read(kDesignExample, ArtifactKind::GraphPaddle);
        QVERIFY(result.graph);
        const Graph& graph = *result.graph;
        QCOMPARE(graph.format, GraphFormat::Paddle);
        // The ops reading fc_0's parameters sit in its layer, with the weights.
        const Node* matmul = nodeNamed(graph, "pd_op.matmul");
        QVERIFY(matmul);
        QCOMPARE(matmul->scope, std::string("fc_0"));
        QCOMPARE(matmul->name, std::string("matmul"));
        QCOMPARE(matmul->inputs.size(), std::size_t(2));
        QCOMPARE(matmul->inputs[0].type.text(), std::string("float32[?,30]"));
        QCOMPARE(matmul->inputs[1].type.text(), std::string("float32[30,30]"));
        QCOMPARE(graph.nodes[std::size_t(matmul->inputs[1].producer)].name, std::string("fc_0.w_0"));
        bool transposeX = false;
        for (const Attribute& a : matmul->attributes)
            transposeX = transposeX || (a.name == "transpose_x" && a.value == "false");
        QVERIFY(transposeX);
        const Node* data = nodeNamed(graph, "pd_op.data");
        QVERIFY(data);
        QCOMPARE(data->kind, NodeKind::Input);
        QCOMPARE(data->name, std::string("A"));
        const Node* fetch = nodeNamed(graph, "pd_op.fetch");
        QVERIFY(fetch);
        QCOMPARE(fetch->kind, NodeKind::Output);
        QCOMPARE(fetch->name, std::string("fetch_name_0"));
        // No parameter file beside it: the note says which one was looked for.
        QVERIFY(hasDiagnostic(result, Severity::Info, QStringLiteral("design_example.pdiparams")));
    }

    void bodiesAndParameters()
    {
        const GraphResult result = GraphReader::read(kProgram, ArtifactKind::GraphPaddle);
        QVERIFY(result.graph);
        const Graph& graph = *result.graph;
        const Node* branch = nodeNamed(graph, "pd_op.if");
        QVERIFY(branch);
        QCOMPARE(branch->bodies.size(), std::size_t(2));
        const Subgraph& thenBody = graph.subgraphs[std::size_t(branch->bodies[0])];
        QCOMPARE(int(thenBody.nodes.size()), 2);
        const Node& scale = graph.nodes[std::size_t(thenBody.nodes.front())];
        QCOMPARE(scale.opType, std::string("pd_op.scale"));
        QVERIFY2(scale.scope.find("if_") != std::string::npos, scale.scope.c_str());
        // The while body's increment reads the loop's block argument: no producer, no unresolved warning.
        const Node* increment = nodeNamed(graph, "pd_op.increment");
        QVERIFY(increment);
        QCOMPARE(increment->inputs.at(0).producer, -1);
        QVERIFY(increment->scope.find("while_") != std::string::npos);

        // Parameters located in the .pdiparams beside the program, in name order.
        QVERIFY(
            hasDiagnostic(result, Severity::Info, QStringLiteral("4 parameter(s) are located in inference.pdiparams")));
        const int filter = graph.find("conv2d_0.w_0");
        QVERIFY(filter >= 0);
        const Node& weight = graph.nodes[std::size_t(filter)];
        QVERIFY(weight.data);
        QCOMPARE(weight.data->file, std::string("inference.pdiparams"));
        QCOMPARE(weight.data->length, std::int64_t(4 * 3 * 3 * 3 * 4));
        QCOMPARE(weight.scope, std::string("conv2d_0"));
        const Node* conv = nodeNamed(graph, "pd_op.conv2d");
        QVERIFY(conv);
        QCOMPARE(conv->scope, std::string("conv2d_0"));
    }

    void sniffing()
    {
        const QByteArray bytes = readAll(kProgram);
        QVERIFY(!bytes.isEmpty());
        const SniffResult sniffed
            = FileSniffer::sniff("inference.json", "run", bytes.left(4096).toStdString(), bytes.size());
        QCOMPARE(artifactKindId(sniffed.kind), artifactKindId(ArtifactKind::GraphPaddle));
        // Another JSON with a base_code is not taken.
        const std::string other = R"({"base_code": {"magic": "onnx"}, "program": {}})";
        QVERIFY(FileSniffer::sniff("inference.json", "run", other, qint64(other.size())).kind
                != ArtifactKind::GraphPaddle);
        QVERIFY(looksLikePaddlePir(R"(  {"base_code" : {"magic" : "pir", "version": 1}})"));
        QVERIFY(!looksLikePaddlePir(R"({"magic": "pir"})"));
    }

    void hostilePrograms()
    {
        // Not JSON past the signature, the wrong magic, no program: errors naming what is wrong.
        GraphResult r = readText(json("{'base_code':{'magic':'pir'},'program':{'regions':[{'blocks':[{'ops':[{"));
        QVERIFY(!r.graph);
        QVERIFY(hasDiagnostic(r, Severity::Error, QStringLiteral("Not a valid JSON document")));
        r = PaddlePirReader::read(json("{'base_code':{'magic':'xyz'},'program':{'regions':[]}}").toStdString(),
                                  QStringLiteral("x.json"));
        QVERIFY(!r.graph);
        QVERIFY(hasDiagnostic(r, Severity::Error, QStringLiteral("magic \"pir\"")));
        r = readText(json("{'base_code':{'magic':'pir'}}"));
        QVERIFY(!r.graph);

        // Operands naming values nobody made: kept as unlinked inputs, with a warning.
        r = readText(json("{'base_code':{'magic':'pir'},'program':{'regions':[{'blocks':[{'ops':["
                          "{'#':'1.relu','I':[{'%':41},{'%':0},'x',{'#':-3}],'O':[{'%':1}]},"
                          "{'#':'1.relu','I':[{'%':1}],'O':{'%':2}},"
                          "{'#':'p','A':[],'O':[]}]}]}]}}"));
        QVERIFY(r.graph);
        QCOMPARE(r.graph->nodeCount(), 2);
        QVERIFY(hasDiagnostic(r, Severity::Warning, QStringLiteral("1 operand(s) name values")));

        // Regions nested 40 deep: the deeper bodies are left out with a warning, nothing recurses without end.
        QByteArray nested = json("{'#':'1.relu','I':[],'O':[]}");
        for (int i = 0; i < 40; ++i)
            nested = json("{'#':'1.if','I':[],'O':[],'regions':[{'blocks':[{'ops':[") + nested + "]}]}]}";
        r = readText(json("{'base_code':{'magic':'pir'},'program':{'regions':[{'blocks':[{'ops':[") + nested
                     + "]}]}]}}");
        QVERIFY(r.graph);
        QVERIFY(hasDiagnostic(r, Severity::Warning, QStringLiteral("nest regions deeper than 16")));
        QVERIFY(r.graph->nodeCount() <= 18);
    }
};

QTEST_GUILESS_MAIN(TestPaddlePir)
#include "tst_paddlepir.moc"
