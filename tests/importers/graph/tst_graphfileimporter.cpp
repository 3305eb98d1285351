#include "importers/graph/graphfileimporter.h"

#include "importers/core/importsession.h"
#include "importers/core/report.h"
#include "importers/core/runscanner.h"
#include "importers/graph/dotgraphreader.h"

#include "tests/testutils.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;

namespace {

QString fixture(const char* name)
{
    return QStringLiteral(RUNLENS_TEST_DATA_DIR) + QLatin1Char('/') + QLatin1String(name);
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestGraphFileImporter : public QObject
{
    Q_OBJECT

private slots:
    void nestedClustersFixture();
    void sessionDeliversGraphs();
    void damagedGraphIsFailedWithDiagnostic();
};

void TestGraphFileImporter::nestedClustersFixture()
{
    const QString path = fixture("graph_nested_clusters.dot");
    const QByteArray text = readAll(path);
    QVERIFY(!text.isEmpty());
    const GraphResult result = DotGraphReader::read(std::string_view(text.constData(), text.size()), path);
    QVERIFY(result.graph);
    const Graph& g = *result.graph;
    QCOMPARE(g.nodes.size(), std::size_t(4));
    QCOMPARE(g.edges.size(), std::size_t(4));
    const Node& matmul = g.nodes[std::size_t(g.find("matmul"))];
    // Cluster labels become scope components; a '/' inside a label does not split it.
    QCOMPARE(matmul.scope, std::string("encoder/layer_0"));
    QCOMPARE(matmul.opType, std::string("CNode"));
    QCOMPARE(matmul.name, std::string("q_proj"));
    QCOMPARE(matmul.inputs.size(), std::size_t(2));
    QCOMPARE(matmul.inputs[0].name, std::string("0"));
    QCOMPARE(matmul.inputs[0].producer, g.find("input"));
    QCOMPARE(matmul.inputs[1].producer, g.find("bias"));
    QCOMPARE(g.nodes[std::size_t(g.find("bias"))].kind, NodeKind::Parameter);
    const Node& add = g.nodes[std::size_t(g.find("add"))];
    QCOMPARE(add.scope, std::string("encoder"));
    QCOMPARE(add.name, std::string("residual add"));
    QCOMPARE(add.inputs.size(), std::size_t(2));
    QVERIFY(!add.inputs[0].control);
    QVERIFY(add.inputs[1].control);
    const Node& input = g.nodes[std::size_t(g.find("input"))];
    QCOMPARE(input.scope, std::string());
    QCOMPARE(input.name, std::string("x"));
    QCOMPARE(input.kind, NodeKind::Input);
    const GraphSummary summary = summarizeGraph(g);
    QCOMPARE(summary.groups, 2); // encoder, encoder/layer_0
    QCOMPARE(summary.maxDepth, 2);
    QCOMPARE(summary.edges, 4);
}

void TestGraphFileImporter::sessionDeliversGraphs()
{
    QTemporaryDir dir;
    QVERIFY(QFile::copy(fixture("graph_nested_clusters.dot"), dir.filePath(QStringLiteral("model.dot"))));
    ImportSession session(RunScanner().scan(dir.path()));
    QCOMPARE(session.artifactCount(), 1);
    QCOMPARE(session.manifest().artifacts.first().kind, ArtifactKind::GraphDot);
    QSignalSpy spy(&session, &ImportSession::graphArrived);
    session.importBlocking();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.first().at(0).toInt(), 0);
    const auto graph = spy.first().at(1).value<std::shared_ptr<const Graph>>();
    QVERIFY(graph);
    QCOMPARE(graph->nodeCount(), 4);
    QCOMPARE(session.state(0).status, ImportStatus::Ok);
    QVERIFY(session.state(0).graph);

    const QJsonObject report = infoReportJson(session.manifest(), session.states());
    const QJsonObject artifact = report[QStringLiteral("artifacts")].toArray().at(0).toObject();
    QCOMPARE(artifact[QStringLiteral("status")].toString(), QStringLiteral("ok"));
    const QJsonObject g = artifact[QStringLiteral("graph")].toObject();
    QCOMPARE(g[QStringLiteral("nodes")].toInt(), 4);
    QCOMPARE(g[QStringLiteral("edges")].toInt(), 4);
    QCOMPARE(g[QStringLiteral("groups")].toInt(), 2);
    QCOMPARE(g[QStringLiteral("max_depth")].toInt(), 2);
    QCOMPARE(g[QStringLiteral("format")].toString(), QStringLiteral("dot"));
    QCOMPARE(g[QStringLiteral("subgraphs")].toInt(), 1);
    const QJsonObject types = g[QStringLiteral("op_types")].toObject();
    QCOMPARE(types[QStringLiteral("CNode")].toInt(), 1);
    QCOMPARE(types[QStringLiteral("placeholder")].toInt(), 1);

    const QString text = infoReportText(session.manifest(), session.states());
    QVERIFY2(text.contains(QLatin1String("graph (dot): 4 nodes, 4 edges, 2 groups, depth 2")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("op types: ")));
}

void TestGraphFileImporter::damagedGraphIsFailedWithDiagnostic()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.dot"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("digraph g { a -> ; }");
    file.close();
    GraphFileImporter importer(path, ArtifactKind::GraphDot);
    const ImportUpdate update = importer.poll(ImportControl());
    QCOMPARE(update.status, ImportStatus::Failed);
    QVERIFY(!update.graph);
    QVERIFY(!update.diagnostics.isEmpty());
    QCOMPARE(update.diagnostics.first().file, path);
    QCOMPARE(update.diagnostics.first().severity, Severity::Error);
}

QTEST_GUILESS_MAIN(TestGraphFileImporter)
#include "tst_graphfileimporter.moc"
