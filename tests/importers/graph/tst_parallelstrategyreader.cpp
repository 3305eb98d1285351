#include "importers/graph/graphreader.h"
#include "importers/graph/parallelstrategyreader.h"

#include "importers/core/filesniffer.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;

namespace {

QString dataPath(const char* name)
{
    return QStringLiteral(RUNLENS_TEST_DATA_DIR "/") + QLatin1String(name);
}

const Node* nodeNamed(const Graph& graph, std::string_view name)
{
    for (const Node& node : graph.nodes) {
        if (node.name == name)
            return &node;
    }
    return nullptr;
}

std::string attribute(const Node& node, std::string_view name)
{
    for (const Attribute& a : node.attributes) {
        if (a.name == name)
            return a.value;
    }
    return {};
}

bool hasError(const Diagnostics& diagnostics)
{
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == Severity::Error && !d.message.isEmpty())
            return true;
    }
    return false;
}

} // namespace

class TestParallelStrategyReader : public QObject
{
    Q_OBJECT

private slots:
    void profilerStrategy()
    {
        const GraphResult result
            = GraphReader::read(dataPath("graph_parallel_strategy_1.json"), ArtifactKind::GraphParallelStrategy);
        QVERIFY(result.graph);
        QVERIFY(result.diagnostics.isEmpty());
        const Graph& graph = *result.graph;
        QCOMPARE(graph.format, GraphFormat::ParallelStrategy);
        QCOMPARE(graph.nodeCount(), 3);
        const Node* matmul = nodeNamed(graph, "MatMul-op1");
        QVERIFY(matmul);
        QCOMPARE(matmul->opType, std::string("MatMul"));
        QCOMPARE(matmul->scope, std::string("Default/network-WithLossCell/_backbone-Net/dense1-Dense"));
        // The strategy leads the attributes; gen_strategy, equal to it, is not repeated.
        QCOMPARE(matmul->attributes.front().name, std::string("strategy"));
        QCOMPARE(attribute(*matmul, "strategy"), std::string("[[2,1],[1,4]]"));
        QCOMPARE(attribute(*matmul, "gen_strategy"), std::string());
        QCOMPARE(attribute(*matmul, "transpose_b"), std::string("true"));
        QCOMPARE(attribute(*matmul, "stage"), std::string("1"));
        QCOMPARE(matmul->stage, 1);
        QCOMPARE(matmul->outputs.front().type.text(), std::string("float32[32,64]"));
        // Inputs resolve to the parameters and to other ops.
        QCOMPARE(int(matmul->inputs.size()), 2);
        QCOMPARE(graph.nodes[std::size_t(matmul->inputs[1].producer)].kind, NodeKind::Parameter);
        const Node* relu = nodeNamed(graph, "ReLU-op2");
        QVERIFY(relu);
        QCOMPARE(&graph.nodes[std::size_t(relu->inputs[0].producer)], matmul);
        QCOMPARE(attribute(*relu, "strategy"), std::string("[[8,1]]"));
        const Node* allReduce = nodeNamed(graph, "AllReduce-op3");
        QVERIFY(allReduce);
        QCOMPARE(attribute(*allReduce, "group_ranks"), std::string("0-1-2-3"));
        QCOMPARE(attribute(*allReduce, "role"), std::string("redistribution"));
        bool rank = false;
        for (const Attribute& m : graph.metadata)
            rank = rank || (m.name == "rank" && m.value == "1");
        QVERIFY(rank);
    }

    void strategyCheckpoint()
    {
        const GraphResult result
            = GraphReader::read(dataPath("graph_strategy.json"), ArtifactKind::GraphParallelStrategy);
        QVERIFY(result.graph);
        QVERIFY(result.diagnostics.isEmpty());
        const Graph& graph = *result.graph;
        QCOMPARE(graph.nodeCount(), 4);
        const Node* first = nodeNamed(graph, "MatMul-op0");
        QVERIFY(first);
        QCOMPARE(first->opType, std::string("MatMul"));
        QCOMPARE(first->scope, std::string("Default/network-WithLossCell/_backbone-Net/dense1-Dense"));
        QCOMPARE(attribute(*first, "strategy"), std::string("[[2,1],[1,4]]"));
        QCOMPARE(first->stage, 0);
        const Node* second = nodeNamed(graph, "MatMul-op2");
        QVERIFY(second);
        QCOMPARE(second->stage, 1);
        const Node* weight = nodeNamed(graph, "network.dense1.weight");
        QVERIFY(weight);
        QCOMPARE(weight->kind, NodeKind::Parameter);
        QCOMPARE(attribute(*weight, "dev_matrix"), std::string("[2,4]"));
        QCOMPARE(attribute(*weight, "tensor_map"), std::string("[-1,0]"));
    }

    void scannerClassifiesThem_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("directory");
        QTest::addColumn<int>("headSize");
        const QString profiler = dataPath("graph_parallel_strategy_1.json");
        QTest::newRow("profiler") << profiler << "parallel_strategy_1.json"
                                  << "job/profiler" << 4096;
        QTest::newRow("profiler, other name") << profiler << "rank1.json"
                                              << "job" << 4096;
        // A graph of megabytes hides "graph" from a config-first head: the name decides.
        QTest::newRow("profiler, head cut") << profiler << "parallel_strategy_1.json"
                                            << "job/profiler" << 120;
        QTest::newRow("checkpoint") << dataPath("graph_strategy.json") << "strategy.json"
                                    << "job" << 4096;
        QTest::newRow("checkpoint, other name") << dataPath("graph_strategy.json") << "ckpt_layout.json"
                                                << "job" << 4096;
    }

    void scannerClassifiesThem()
    {
        QFETCH(QString, source);
        QFETCH(QString, name);
        QFETCH(QString, directory);
        QFETCH(int, headSize);
        QFile file(source);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        const QByteArray head = bytes.left(headSize);
        const QByteArray fileName = name.toUtf8();
        const QByteArray folder = directory.toUtf8();
        const SniffResult result = FileSniffer::sniff(std::string_view(fileName.constData(), fileName.size()),
                                                      std::string_view(folder.constData(), folder.size()),
                                                      std::string_view(head.constData(), head.size()), bytes.size());
        QCOMPARE(result.kind, ArtifactKind::GraphParallelStrategy);
    }

    void badInputsSayWhy_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("graph");
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("not json") << QByteArray("config graph") << false;
        QTest::newRow("array") << QByteArray("[1,2]") << false;
        QTest::newRow("other object") << QByteArray(R"({"a": 1})") << false;
        QTest::newRow("truncated") << QByteArray(R"({"config":{"rankId":0},"graph":{"node":[{"name":"1",)") << false;
        QTest::newRow("graph not object") << QByteArray(R"({"config":{},"graph":3})") << true;
        QTest::newRow("nodes of wrong types")
            << QByteArray(R"({"graph":{"node":[1,"x",{"opType":"A"},{"name":"2"}]}})") << true;
        QTest::newRow("strategy items of wrong types")
            << QByteArray(R"({"current_stage":0,"parallel_strategy_item":{"a":1,"b":{"stage":"x"}}})") << true;
    }

    void deepValuesAreCut()
    {
        const QByteArray bytes = R"({"parallel_strategy_item":{"a":{"stage":0,"parallel_strategy":)"
            + QByteArray(200, '[') + QByteArray(200, ']') + "}}}";
        const GraphResult result = ParallelStrategyReader::read(std::string_view(bytes.constData(), bytes.size()),
                                                                QStringLiteral("strategy.json"));
        QVERIFY(result.graph);
        const std::string strategy = attribute(result.graph->nodes.front(), "strategy");
        QVERIFY(strategy.size() < 100);
        QVERIFY(strategy.find("\u2026") != std::string::npos);
    }

    void badInputsSayWhy()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, graph);
        const GraphResult result = ParallelStrategyReader::read(std::string_view(bytes.constData(), bytes.size()),
                                                                QStringLiteral("parallel_strategy_0.json"));
        QCOMPARE(bool(result.graph), graph);
        if (!graph)
            QVERIFY(hasError(result.diagnostics));
        else
            QVERIFY(!result.diagnostics.isEmpty()); // something was skipped or missing, and it is said
    }
};

QTEST_GUILESS_MAIN(TestParallelStrategyReader)
#include "tst_parallelstrategyreader.moc"
