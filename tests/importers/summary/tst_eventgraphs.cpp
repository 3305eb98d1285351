#include "importers/summary/eventgraphs.h"

#include "importers/core/importsession.h"
#include "importers/core/report.h"
#include "importers/core/runscanner.h"
#include "importers/graph/proto/tf_graph.pb.h"
#include "importers/summary/eventfilereader.h"
#include "importers/summary/eventfilewriter.h"
#include "importers/summary/proto/ms_summary.pb.h"
#include "importers/summary/proto/tb_event.pb.h"

#include "tests/importers/summary/pollresult.h"
#include "tests/testutils.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <string>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::summary;
using namespace runlens::models;
using namespace runlens::test;

namespace {

QByteArray serialized(const google::protobuf::MessageLite& message)
{
    const std::string bytes = message.SerializeAsString();
    return QByteArray(bytes.data(), qsizetype(bytes.size()));
}

/// A GraphDef whose nodes are named n0, n1, ... and chained by their first input.
std::string chainGraphDef(int nodes)
{
    runlens::tf::GraphDef graph;
    for (int i = 0; i < nodes; ++i) {
        runlens::tf::NodeDef* node = graph.add_node();
        node->set_name("n" + std::to_string(i));
        node->set_op(i == 0 ? "Placeholder" : "Relu");
        if (i > 0)
            node->add_input("n" + std::to_string(i - 1));
    }
    return graph.SerializeAsString();
}

runlens::tb::Event graphEvent(const std::string& graphDef, qint64 step)
{
    runlens::tb::Event event;
    event.set_wall_time(1700000000.0 + double(step));
    event.set_step(step);
    event.set_graph_def(graphDef);
    return event;
}

/// A MetaGraphDef holding `graphDef` as its field 2, after a meta_info_def (field 1) as TF writes it.
runlens::tb::Event metaGraphEvent(const std::string& graphDef, qint64 step)
{
    std::string meta;
    meta += char(0x0a); // field 1, length-delimited: an empty MetaInfoDef
    meta += char(0x00);
    meta += char(0x12); // field 2, length-delimited
    std::size_t length = graphDef.size();
    do {
        meta += char((length & 0x7f) | (length > 0x7f ? 0x80 : 0));
        length >>= 7;
    } while (length);
    meta += graphDef;
    runlens::tb::Event event;
    event.set_wall_time(1700000000.0 + double(step));
    event.set_step(step);
    event.set_meta_graph_def(meta);
    return event;
}

runlens::tb::Event scalarEvent(const std::string& tag, qint64 step, float value)
{
    runlens::tb::Event event;
    event.set_wall_time(1700000000.0 + double(step));
    event.set_step(step);
    auto* entry = event.mutable_summary()->add_value();
    entry->set_tag(tag);
    entry->set_simple_value(value);
    return event;
}

/// Writes a TensorBoard event file (creating its folder): a version record, then `events`. `offsets`
/// receives the byte offset of each event's record.
bool writeEvents(const QString& path, const std::vector<runlens::tb::Event>& events,
                 std::vector<qint64>* offsets = nullptr)
{
    EventFileWriter writer;
    if (!QDir().mkpath(QFileInfo(path).path()) || !writer.open(path) || !writer.writeFileVersion(1700000000.0))
        return false;
    for (const runlens::tb::Event& event : events) {
        if (offsets)
            offsets->push_back(writer.bytesWritten());
        if (!writer.writeRecord(serialized(event)))
            return false;
    }
    return writer.close();
}

QString torchSampleDir(const QString& samples)
{
    return samples + QStringLiteral("/graphs/torch_add_graph_event");
}

} // namespace

class TestEventGraphs : public QObject
{
    Q_OBJECT

private slots:
    void torchAddGraphThroughSession();
    void mindSporeAnfIrGraph();
    void lastGraphWins();
    void metaGraphYieldsToGraphDef();
    void graphArrivingWhileTailing();
    void damagedGraphKeepsScalars();
};

void TestEventGraphs::torchAddGraphThroughSession()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString dir = torchSampleDir(samples);
    const QStringList files = QDir(dir).entryList({ QStringLiteral("events.out.tfevents.*") }, QDir::Files);
    QCOMPARE(files.size(), 1);
    ImportSession session(RunScanner().scan(dir));
    QCOMPARE(session.artifactCount(), 1);
    QCOMPARE(session.manifest().artifacts.first().kind, ArtifactKind::TensorBoardEvents);
    QSignalSpy spy(&session, &ImportSession::graphArrived);
    session.importBlocking();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.first().at(0).toInt(), 0);
    const auto graph = spy.first().at(1).value<std::shared_ptr<const models::graph::Graph>>();
    QVERIFY(graph);
    // MANIFEST.tsv (and a python count of the GraphDef's `node` fields) says 30 nodes.
    QCOMPARE(graph->nodeCount(), 30);
    QCOMPARE(graph->format, models::graph::GraphFormat::TensorFlow);
    // torch leaves 4 inputs of prim::GetAttr nodes dangling (a python walk of the GraphDef finds them): the
    // graph reader notes it once, about the graph record (offset 88, after the 88-byte version record).
    const Diagnostics& diagnostics = session.state(0).diagnostics;
    QCOMPARE(diagnostics.size(), 1);
    QCOMPARE(diagnostics.first().severity, Severity::Info);
    QCOMPARE(diagnostics.first().file, QDir(dir).absoluteFilePath(files.first()));
    QCOMPARE(diagnostics.first().offset, qint64(88));
    QVERIFY2(diagnostics.first().message.contains(QLatin1String("4 node input")),
             qPrintable(diagnostics.first().message));
    QCOMPARE(session.state(0).status, ImportStatus::Ok);

    const QJsonObject report = infoReportJson(session.manifest(), session.states());
    const QJsonObject artifact = report[QStringLiteral("artifacts")].toArray().at(0).toObject();
    QCOMPARE(artifact[QStringLiteral("status")].toString(), QStringLiteral("ok"));
    const QJsonObject g = artifact[QStringLiteral("graph")].toObject();
    QCOMPARE(g[QStringLiteral("nodes")].toInt(), 30);
    QCOMPARE(g[QStringLiteral("format")].toString(), QString::fromLatin1(models::graph::graphFormatId(graph->format)));
    const QString text = infoReportText(session.manifest(), session.states());
    QVERIFY2(text.contains(QLatin1String(": 30 nodes,")), qPrintable(text));
}

void TestEventGraphs::mindSporeAnfIrGraph()
{
    // tests/data/graph_fixtures.README: a bare anf_ir GraphProto "2_train_network" with 3 nodes.
    const QByteArray graphProto = readFile(QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph_anf_graph_def.pb"));
    QVERIFY(!graphProto.isEmpty());
    QTemporaryDir dir;
    const QString path = dir.filePath(EventFileWriter::mindSporeFileName(1700000000));
    {
        EventFileWriter writer(SummaryFlavor::MindSpore);
        QVERIFY(writer.open(path));
        QVERIFY(writer.writeFileVersion(1700000000.0));
        runlens::ms::Event event;
        event.set_wall_time(1700000000.5);
        event.set_step(0);
        event.set_graph_def(graphProto.toStdString());
        QVERIFY(writer.writeRecord(serialized(event)));
        QVERIFY(writer.writeScalar(QStringLiteral("loss"), 1, 1700000001.0, 2.5));
        QVERIFY(writer.close());
    }
    EventFileReader reader(path, SummaryFlavor::MindSpore);
    const PollResult result = pollOnce(reader);
    QCOMPARE(result.update.status, ImportStatus::Ok);
    QVERIFY(result.update.graph);
    QCOMPARE(result.update.graph->format, models::graph::GraphFormat::AnfIr);
    QCOMPARE(result.update.graph->name, std::string("2_train_network"));
    QCOMPARE(result.update.graph->nodeCount(), 3);
    QVERIFY(result.update.graphSummary);
    QCOMPARE(result.update.graphSummary->nodes, 3);
    QCOMPARE(result.collected.series.value(QStringLiteral("loss")).size(), std::size_t(1));
    QVERIFY(result.collected.diagnostics.isEmpty());

    // Through the session too, as the MindSpore summary artifact it is.
    ImportSession session(RunScanner().scan(dir.path()));
    QCOMPARE(session.artifactCount(), 1);
    QCOMPARE(session.manifest().artifacts.first().kind, ArtifactKind::MindSporeSummary);
    QSignalSpy spy(&session, &ImportSession::graphArrived);
    session.importBlocking();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.first().at(1).value<std::shared_ptr<const models::graph::Graph>>()->nodeCount(), 3);
}

void TestEventGraphs::lastGraphWins()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(EventFileWriter::tensorBoardFileName(1700000000));
    std::vector<qint64> offsets;
    QVERIFY(writeEvents(
        path, { graphEvent(chainGraphDef(2), 0), scalarEvent("loss", 1, 1.0f), graphEvent(chainGraphDef(5), 7) },
        &offsets));
    const qint64 lastGraphOffset = offsets.back();
    EventFileReader reader(path, SummaryFlavor::TensorBoard);
    const PollResult result = pollOnce(reader);
    QCOMPARE(result.update.status, ImportStatus::Ok);
    QVERIFY(result.update.graph);
    QCOMPARE(result.update.graph->nodeCount(), 5);
    QCOMPARE(result.update.graphSummary->nodes, 5);
    QCOMPARE(result.collected.series.value(QStringLiteral("loss")).size(), std::size_t(1));
    QCOMPARE(result.collected.diagnostics.size(), 1);
    const Diagnostic& info = result.collected.diagnostics.first();
    QCOMPARE(info.severity, Severity::Info);
    QCOMPARE(info.file, QFileInfo(path).absoluteFilePath());
    QCOMPARE(info.offset, lastGraphOffset);
    QVERIFY2(info.message.contains(QLatin1String("2 graph")), qPrintable(info.message));
    QVERIFY2(info.message.contains(QLatin1String("step 7")), qPrintable(info.message));

    // Nothing new: the next poll delivers no graph again.
    const PollResult again = pollOnce(reader);
    QVERIFY(!again.update.graph);
    QVERIFY(again.collected.diagnostics.isEmpty());
}

void TestEventGraphs::metaGraphYieldsToGraphDef()
{
    QTemporaryDir dir;
    // A meta graph alone gives its graph.
    const QString metaOnly = dir.filePath(QStringLiteral("meta/events.out.tfevents.1.host"));
    QVERIFY(writeEvents(metaOnly, { metaGraphEvent(chainGraphDef(4), 0) }));
    EventFileReader metaReader(metaOnly, SummaryFlavor::TensorBoard);
    const PollResult meta = pollOnce(metaReader);
    QVERIFY(meta.update.graph);
    QCOMPARE(meta.update.graph->nodeCount(), 4);

    // A graph_def wins over a later meta graph, as in TensorBoard.
    const QString both = dir.filePath(QStringLiteral("both/events.out.tfevents.1.host"));
    QVERIFY(writeEvents(both, { graphEvent(chainGraphDef(3), 0), metaGraphEvent(chainGraphDef(6), 0) }));
    EventFileReader bothReader(both, SummaryFlavor::TensorBoard);
    const PollResult direct = pollOnce(bothReader);
    QVERIFY(direct.update.graph);
    QCOMPARE(direct.update.graph->nodeCount(), 3);
    QCOMPARE(direct.update.status, ImportStatus::Ok);
}

void TestEventGraphs::graphArrivingWhileTailing()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(EventFileWriter::tensorBoardFileName(1700000000));
    QVERIFY(writeEvents(path, { scalarEvent("loss", 1, 1.0f) }));
    EventFileReader reader(path, SummaryFlavor::TensorBoard);
    const PollResult first = pollOnce(reader);
    QVERIFY(!first.update.graph);
    {
        EventFileWriter writer;
        QVERIFY(writer.open(path, EventFileWriter::OpenMode::Append));
        QVERIFY(writer.writeRecord(serialized(graphEvent(chainGraphDef(3), 2))));
        QVERIFY(writer.close());
    }
    const PollResult second = pollOnce(reader);
    QVERIFY(second.update.graph);
    QCOMPARE(second.update.graph->nodeCount(), 3);
    QVERIFY(second.collected.diagnostics.isEmpty());
}

void TestEventGraphs::damagedGraphKeepsScalars()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(EventFileWriter::tensorBoardFileName(1700000000));
    // A NodeDef field that claims far more bytes than the graph holds.
    const std::string damaged = std::string("\x0a\xff\xff\x03", 4) + "\x0a\x02n0";
    std::vector<qint64> offsets;
    QVERIFY(writeEvents(path, { scalarEvent("loss", 1, 3.0f), graphEvent(damaged, 1), scalarEvent("loss", 2, 2.0f) },
                        &offsets));
    const qint64 graphOffset = offsets[1];
    EventFileReader reader(path, SummaryFlavor::TensorBoard);
    const PollResult result = pollOnce(reader);
    const auto& loss = result.collected.series.value(QStringLiteral("loss"));
    QCOMPARE(loss.size(), std::size_t(2));
    QCOMPARE(loss[0].value, 3.0);
    QCOMPARE(loss[1].value, 2.0);
    QVERIFY(!result.collected.diagnostics.isEmpty());
    bool named = false;
    for (const Diagnostic& diagnostic : result.collected.diagnostics) {
        QVERIFY(diagnostic.severity != Severity::Info);
        QCOMPARE(diagnostic.file, QFileInfo(path).absoluteFilePath());
        QCOMPARE(diagnostic.offset, graphOffset);
        named = named || diagnostic.message.contains(QLatin1String("step 1"));
    }
    QVERIFY(named);
    QVERIFY(!result.update.graph);
    QCOMPARE(result.update.status, ImportStatus::Partial);

    // A graph cut off inside its last node keeps the complete nodes before it.
    const QString cutPath = dir.filePath(QStringLiteral("cut/events.out.tfevents.1.host"));
    std::string cut = chainGraphDef(3);
    cut.resize(cut.size() - 2);
    offsets.clear();
    QVERIFY(writeEvents(cutPath, { graphEvent(cut, 0), scalarEvent("loss", 1, 1.0f) }, &offsets));
    EventFileReader cutReader(cutPath, SummaryFlavor::TensorBoard);
    const PollResult salvaged = pollOnce(cutReader);
    QVERIFY(salvaged.update.graph);
    QCOMPARE(salvaged.update.graph->nodeCount(), 2);
    QCOMPARE(salvaged.collected.series.value(QStringLiteral("loss")).size(), std::size_t(1));
    QCOMPARE(salvaged.collected.count(Severity::Warning), 1);
    QCOMPARE(salvaged.collected.diagnostics.first().offset, offsets[0]);
    QCOMPARE(salvaged.update.status, ImportStatus::Partial);
}

QTEST_GUILESS_MAIN(TestEventGraphs)
#include "tst_eventgraphs.moc"
