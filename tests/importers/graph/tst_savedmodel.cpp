#include "importers/core/filesniffer.h"
#include "importers/graph/graphreader.h"
#include "importers/graph/graphweights.h"
#include "importers/graph/proto/tf_saved_model.pb.h"
#include "importers/graph/savedmodelreader.h"
#include "importers/graph/tfcheckpointindex.h"
#include "models/core/crc32c.h"
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

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;

using namespace runlens::test::graph;

namespace {

const QString kDir = QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph/savedmodel");
const QString kTf1 = kDir + QStringLiteral("/half_plus_two_tf1/saved_model.pb");
const QString kTf2 = kDir + QStringLiteral("/half_plus_two_tf2/saved_model.pb");
const QString kTwo = kDir + QStringLiteral("/two_metagraphs/saved_model.pb");
const QString kMeta = kDir + QStringLiteral("/session_bundle/export.meta");

std::string metadata(const Graph& graph, const std::string& key)
{
    for (const Attribute& a : graph.metadata)
        if (a.name == key)
            return a.value;
    return "<none>";
}

int subgraphNamed(const Graph& graph, const std::string& name)
{
    for (std::size_t i = 0; i < graph.subgraphs.size(); ++i)
        if (graph.subgraphs[i].name == name)
            return int(i);
    return -1;
}

/// The oracle's shape (null: unknown rank) and dtype against a port type.
void compareType(const TensorType& type, const QJsonObject& expected, const QString& what)
{
    QVERIFY2(type.dtype == expected.value("dtype").toString().toStdString(),
             qPrintable(what + ": " + QString::fromStdString(type.dtype)));
    const QJsonValue shape = expected.value("shape");
    QCOMPARE(type.rankKnown, !shape.isNull());
    if (shape.isNull())
        return;
    const QJsonArray dims = shape.toArray();
    QCOMPARE(int(type.dims.size()), int(dims.size()));
    for (int i = 0; i < dims.size(); ++i)
        QCOMPARE(type.dims[std::size_t(i)], std::int64_t(dims[i].toInt()));
}

std::string joined(const QJsonArray& tags)
{
    std::string out;
    for (const QJsonValue& t : tags) {
        if (!out.empty())
            out += ',';
        out += t.toString().toStdString();
    }
    return out.empty() ? std::string("untagged") : out;
}

QByteArray varint(quint64 v)
{
    QByteArray out;
    do {
        out.append(char((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
        v >>= 7;
    } while (v);
    return out;
}

QByteArray le32(quint32 v)
{
    QByteArray out;
    for (int i = 0; i < 4; ++i)
        out.append(char((v >> (8 * i)) & 0xff));
    return out;
}

/// One uncompressed table block (every entry a restart-free continuation of none) with its type byte and
/// masked CRC-32C trailer, as TensorFlow's table builder writes it.
QByteArray tableBlock(const std::vector<std::pair<std::string, std::string>>& entries)
{
    QByteArray block;
    for (const auto& [key, value] : entries)
        block += varint(0) + varint(key.size()) + varint(value.size()) + QByteArray::fromStdString(key)
            + QByteArray::fromStdString(value);
    block += le32(0) + le32(1);
    const char type = 0;
    const std::uint32_t crc
        = models::crc32cExtend(models::crc32c(block.constData(), std::size_t(block.size())), &type, 1);
    return block + type + le32(models::maskCrc32c(crc));
}

/// A checkpoint `.index` listing `entries` (sorted by key) after a header of one shard.
QByteArray checkpointIndex(const std::vector<std::pair<std::string, tf::BundleEntryProto>>& entries, bool bigEndian)
{
    tf::BundleHeaderProto header;
    header.set_num_shards(1);
    header.set_endianness(bigEndian ? 1 : 0);
    std::vector<std::pair<std::string, std::string>> rows { { "", header.SerializeAsString() } };
    for (const auto& [key, entry] : entries)
        rows.emplace_back(key, entry.SerializeAsString());
    const QByteArray data = tableBlock(rows);
    const QByteArray meta = tableBlock({});
    const qint64 dataSize = data.size() - 5;
    const QByteArray index
        = tableBlock({ { rows.back().first, (varint(0) + varint(quint64(dataSize))).toStdString() } });
    QByteArray footer = varint(quint64(data.size())) + varint(quint64(meta.size() - 5))
        + varint(quint64(data.size() + meta.size())) + varint(quint64(index.size() - 5));
    footer += QByteArray(40 - footer.size(), '\0');
    footer += le32(0x8b80fb57u) + le32(0xdb477524u);
    return data + meta + index + footer;
}

tf::BundleEntryProto entry(int dtype, std::initializer_list<std::int64_t> dims, std::int64_t offset, std::int64_t size)
{
    tf::BundleEntryProto e;
    e.set_dtype(tf::DataType(dtype));
    for (const std::int64_t d : dims)
        e.mutable_shape()->add_dim()->set_size(d);
    e.set_offset(offset);
    e.set_size(size);
    return e;
}

} // namespace

class TestSavedModel : public QObject
{
    Q_OBJECT
private slots:
    void againstOracle_data();
    void againstOracle();
    void variablesLocated();
    void sniffing_data();
    void sniffing();
    void truncatedKeepsNodes();
    void hostileSnappy();
    void readsProjectorCheckpointIndex();
    void weightsInTensorsPanel_data();
    void weightsInTensorsPanel();
    void hostileCheckpointEntries();
};

void TestSavedModel::againstOracle_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("tf1 half_plus_two") << kTf1;
    QTest::newRow("tf2 half_plus_two") << kTf2;
    QTest::newRow("train before serve") << kTwo;
    QTest::newRow("session bundle .meta") << kMeta;
}

// tests/data/graph/savedmodel/savedmodel_oracle.py parses the same file with google.protobuf.
void TestSavedModel::againstOracle()
{
    QFETCH(QString, path);
    RUNLENS_PYTHON_ORACLE(output, { kDir + QStringLiteral("/savedmodel_oracle.py"), path });
    const QJsonObject oracle = QJsonDocument::fromJson(output.toUtf8()).object();
    QVERIFY2(!oracle.isEmpty(), qPrintable(output));

    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphTfSavedModel);
    QVERIFY2(result.graph, qPrintable(result.diagnostics.isEmpty() ? QString() : result.diagnostics.first().message));
    for (const Diagnostic& d : result.diagnostics)
        QVERIFY2(d.severity == Severity::Info, qPrintable(d.message));
    const Graph& graph = *result.graph;
    QCOMPARE(graph.format, GraphFormat::TensorFlow);

    const QJsonArray metas = oracle.value("meta_graphs").toArray();
    QVERIFY(!metas.isEmpty());
    int shown = 0;
    for (int i = 0; i < metas.size(); ++i) {
        if (metas[i].toObject().value("tags").toArray().contains(QJsonValue("serve"))) {
            shown = i;
            break;
        }
    }
    const QJsonObject main = metas[shown].toObject();
    QCOMPARE(metadata(graph, "tags"), joined(main.value("tags").toArray()));
    if (!oracle.value("schema_version").isNull())
        QCOMPARE(metadata(graph, "saved_model_schema_version"), std::to_string(oracle.value("schema_version").toInt()));
    if (!main.value("tensorflow_version").toString().isEmpty())
        QCOMPARE(metadata(graph, "tensorflow_version"), main.value("tensorflow_version").toString().toStdString());

    // Every meta graph: the shown one is subgraph 0, the others are named by their tags.
    for (int i = 0; i < metas.size(); ++i) {
        const QJsonObject meta = metas[i].toObject();
        const int subgraph = i == shown ? 0 : subgraphNamed(graph, joined(meta.value("tags").toArray()));
        QVERIFY2(subgraph >= 0, qPrintable(QString::fromStdString(joined(meta.value("tags").toArray()))));
        QCOMPARE(graph.nodeCount(subgraph), meta.value("nodes").toInt());
        const std::string prefix = i == shown ? std::string() : "[" + joined(meta.value("tags").toArray()) + "]/";
        // Library functions are reachable as subgraphs, and the nodes calling them are Calls.
        const QJsonObject functions = meta.value("functions").toObject();
        for (auto it = functions.begin(); it != functions.end(); ++it) {
            const int f = subgraphNamed(graph, it.key().toStdString());
            QVERIFY2(f > 0, qPrintable(it.key()));
            QCOMPARE(graph.nodeCount(f), it.value().toInt());
        }
        for (const QJsonValue& call : meta.value("calls").toArray()) {
            const int index = graph.find(prefix + call.toString().toStdString());
            QVERIFY2(index >= 0, qPrintable(call.toString()));
            const Node& node = graph.nodes[std::size_t(index)];
            QCOMPARE(node.kind, NodeKind::Call);
            QVERIFY(node.callee > 0);
            QVERIFY(functions.contains(QString::fromStdString(graph.subgraphs[std::size_t(node.callee)].name)));
        }
        // Signatures: outputs are Output nodes fed by the tensor they name, inputs mark their placeholders.
        const QJsonObject signatures = meta.value("signatures").toObject();
        for (auto sig = signatures.begin(); sig != signatures.end(); ++sig) {
            const QJsonObject outputs = sig.value().toObject().value("outputs").toObject();
            for (auto out = outputs.begin(); out != outputs.end(); ++out) {
                const std::string id = prefix + sig.key().toStdString() + ":" + out.key().toStdString();
                const int index = graph.find(id);
                QVERIFY2(index >= 0, id.c_str());
                const Node& node = graph.nodes[std::size_t(index)];
                QCOMPARE(node.kind, NodeKind::Output);
                QVERIFY(node.implicit);
                QCOMPARE(node.inputs.size(), std::size_t(1));
                compareType(node.inputs[0].type, out.value().toObject(), QString::fromStdString(id));
                const QString tensor = out.value().toObject().value("name").toString();
                const int producer = graph.find(prefix + tensor.section(QLatin1Char(':'), 0, 0).toStdString());
                QCOMPARE(node.inputs[0].producer, producer);
                if (producer >= 0)
                    QCOMPARE(node.inputs[0].producerSlot, tensor.section(QLatin1Char(':'), 1).toInt());
            }
            const QJsonObject inputs = sig.value().toObject().value("inputs").toObject();
            for (auto in = inputs.begin(); in != inputs.end(); ++in) {
                const std::string label = sig.key().toStdString() + ":" + in.key().toStdString();
                const QString tensor = in.value().toObject().value("name").toString();
                const int index = graph.find(prefix + tensor.section(QLatin1Char(':'), 0, 0).toStdString());
                if (index < 0) {
                    const int implicit = graph.find(prefix + label);
                    QVERIFY2(implicit >= 0, label.c_str());
                    QCOMPARE(graph.nodes[std::size_t(implicit)].kind, NodeKind::Input);
                    compareType(graph.nodes[std::size_t(implicit)].outputs[0].type, in.value().toObject(),
                                QString::fromStdString(label));
                    continue;
                }
                const Node& node = graph.nodes[std::size_t(index)];
                bool marked = false;
                for (const Attribute& a : node.attributes)
                    marked = marked || (a.name == "signature input" && a.value.rfind(label + " ", 0) == 0);
                QVERIFY2(marked, label.c_str());
            }
            if (i == shown)
                QVERIFY(metadata(graph, "signature " + sig.key().toStdString()) != "<none>");
        }
    }
}

// half_plus_two computes y = 0.5 * x + 2: its checkpoint holds a = 0.5 and b = 2.0, which the located bytes
// must be.
void TestSavedModel::variablesLocated()
{
    const GraphResult result = GraphReader::read(kTf1, ArtifactKind::GraphTfSavedModel);
    QVERIFY(result.graph);
    const Graph& graph = *result.graph;
    QVERIFY2(metadata(graph, "checkpoint").find("variables/variables.index: ") == 0,
             metadata(graph, "checkpoint").c_str());
    const QByteArray data
        = readAll(kDir + QStringLiteral("/half_plus_two_tf1/variables/variables.data-00000-of-00001"));
    QVERIFY(!data.isEmpty());
    const std::pair<const char*, float> expected[] = { { "a", 0.5f }, { "b", 2.0f } };
    for (const auto& [name, value] : expected) {
        const int index = graph.find(name);
        QVERIFY(index >= 0);
        const Node& node = graph.nodes[std::size_t(index)];
        QCOMPARE(node.kind, NodeKind::Parameter);
        QVERIFY2(node.data.has_value(), name);
        QCOMPARE(node.data->file, std::string("variables/variables.data-00000-of-00001"));
        QCOMPARE(node.data->type.dtype, std::string("float32"));
        QCOMPARE(node.data->length, std::int64_t(4));
        QVERIFY(node.data->offset >= 0 && node.data->offset + node.data->length <= data.size());
        float stored = 0;
        std::memcpy(&stored, data.constData() + node.data->offset, sizeof stored);
        QCOMPARE(stored, value);
    }
    // The TF2 checkpoint names object paths; they are listed, and their bytes fit in the data file.
    const GraphResult tf2 = GraphReader::read(kTf2, ArtifactKind::GraphTfSavedModel);
    QVERIFY(tf2.graph);
    const qint64 dataSize
        = QFileInfo(kDir + QStringLiteral("/half_plus_two_tf2/variables/variables.data-00000-of-00001")).size();
    int listed = 0;
    for (const Attribute& a : tf2.graph->metadata) {
        if (a.name.rfind("variable ", 0) != 0)
            continue;
        ++listed;
        const std::size_t at = a.value.rfind(" at ");
        QVERIFY(at != std::string::npos);
        QVERIFY(std::stoll(a.value.substr(at + 4)) <= dataSize);
    }
    QVERIFY(listed > 0);
}

void TestSavedModel::sniffing_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<bool>("taken");
    QTest::newRow("saved_model.pb") << kTf2 << "saved_model.pb" << true;
    QTest::newRow("Saved_Model.pb") << kTf1 << "Saved_Model.pb" << true;
    QTest::newRow("export.meta") << kMeta << "export.meta" << true;
    QTest::newRow("model.ckpt-100.meta") << kMeta << "model.ckpt-100.meta" << true;
    // Another tool's .meta: a SavedModel (field 1 is a varint) and the variables' data are not MetaGraphDefs.
    QTest::newRow("savedmodel named .meta") << kTf1 << "x.meta" << false;
    QTest::newRow("checkpoint data named .meta")
        << kDir + QStringLiteral("/half_plus_two_tf2/variables/variables.data-00000-of-00001") << "x.meta" << false;
    QTest::newRow("text .meta") << kDir + QStringLiteral("/README.md") << "notes.meta" << false;
}

void TestSavedModel::sniffing()
{
    QFETCH(QString, source);
    QFETCH(QString, fileName);
    QFETCH(bool, taken);
    const QByteArray bytes = readAll(source);
    QVERIFY(!bytes.isEmpty());
    QVERIFY(FileSniffer::worthReading(fileName.toStdString()));
    const SniffResult sniffed
        = FileSniffer::sniff(fileName.toStdString(), "run", bytes.left(4096).toStdString(), bytes.size());
    QCOMPARE(sniffed.kind == ArtifactKind::GraphTfSavedModel, taken);
    QVERIFY(artifactKindImported(ArtifactKind::GraphTfSavedModel));
    QVERIFY(GraphReader::supports(ArtifactKind::GraphTfSavedModel));
}

// A SavedModel cut in the middle of its meta graph keeps the nodes written before the cut, with a warning.
void TestSavedModel::truncatedKeepsNodes()
{
    const QByteArray bytes = readAll(kTf1);
    const QByteArray cut = bytes.left(bytes.size() / 2);
    const GraphResult result = SavedModelReader::readSavedModel(
        std::string_view(cut.constData(), std::size_t(cut.size())), QStringLiteral("saved_model.pb"));
    QVERIFY(result.graph);
    QVERIFY(result.graph->nodeCount() > 0);
    const GraphResult whole = GraphReader::read(kTf1, ArtifactKind::GraphTfSavedModel);
    QVERIFY(result.graph->nodeCount() < whole.graph->nodeCount());
    bool warned = false;
    for (const Diagnostic& d : result.diagnostics)
        warned = warned || (d.severity == Severity::Warning && d.message.contains(QStringLiteral("cut off")));
    QVERIFY(warned);
}

void TestSavedModel::hostileSnappy()
{
    std::string out;
    // Literal "ab", then a copy of 4 bytes at offset 2 (overlapping): "ababab".
    const std::string good("\x06\x04"
                           "ab\x01\x02",
                           6);
    QVERIFY(snappyUncompress(good, out, 64));
    QCOMPARE(out, std::string("ababab"));
    // A copy reaching before the start, a length beyond the announced size, an announced size beyond the limit.
    QVERIFY(!snappyUncompress(std::string("\x06\x04"
                                          "ab\x01\x09",
                                          6),
                              out, 64));
    QVERIFY(!snappyUncompress(std::string("\x02\x04"
                                          "ab\x01\x02",
                                          6),
                              out, 64));
    QVERIFY(!snappyUncompress(std::string("\xff\xff\xff\xff\x0f", 5), out, 64));
    // A checkpoint index of garbage says why and lists nothing.
    const TfCheckpointIndex garbage = readTfCheckpointIndex(std::string(200, '\x5a'));
    QVERIFY(!garbage.error.empty());
    QVERIFY(garbage.entries.empty());
}

void TestSavedModel::readsProjectorCheckpointIndex()
{
    // The projector fixture's index, written from the documented table layout by a script (several data
    // blocks, an empty metaindex, the header under the empty key): the same reader lists it.
    QFile file(QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/checkpoint/model.ckpt-100.index"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    const TfCheckpointIndex index = readTfCheckpointIndex(std::string_view(bytes.constData(), bytes.size()));
    QVERIFY2(index.error.empty(), index.error.c_str());
    QCOMPARE(index.shards, 1);
    std::vector<std::string> keys;
    for (const TfCheckpointEntry& e : index.entries)
        keys.push_back(e.key);
    QCOMPARE(keys,
             (std::vector<std::string> { "embedding/bias", "embedding/weights", "global_step",
                                         "word_embedding/embeddings/.ATTRIBUTES/VARIABLE_VALUE" }));
    const TfCheckpointEntry& weights = index.entries[1];
    QCOMPARE(weights.type.text(), std::string("float32[60,16]"));
    QCOMPARE(weights.offset, std::int64_t(0));
    QCOMPARE(weights.size, std::int64_t(60 * 16 * 4));
    QVERIFY(weights.maskedCrc32c != 0);
    QCOMPARE(index.entries[3].type.text(), std::string("float64[24,5]"));
    QCOMPARE(index.entries[2].type.text(), std::string("int64[]"));
}

void TestSavedModel::weightsInTensorsPanel_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("tf1 variables by op name") << kTf1;
    QTest::newRow("tf2 variables by object path") << kTf2;
}

// Every whole numeric checkpoint entry is listed in the Tensors panel, with the values numpy reads from the
// data shard at the offset checkpoint_oracle.py found in the index (its own table and Snappy reading). An
// entry is listed by the variable op it belongs to (TF1: the key is the op's name; TF2: the object graph
// leads from the key's object path to the variable), which shows in the graph; else by its key.
void TestSavedModel::weightsInTensorsPanel()
{
    QFETCH(QString, path);
    const QString prefix = QFileInfo(path).absolutePath() + QStringLiteral("/variables/variables");
    RUNLENS_PYTHON_ORACLE(output, { kDir + QStringLiteral("/checkpoint_oracle.py"), prefix, path });
    const QJsonObject listed = QJsonDocument::fromJson(output.toUtf8()).object().value("listed").toObject();
    QVERIFY2(!listed.isEmpty(), qPrintable(output));

    const GraphResult result = GraphReader::read(path, ArtifactKind::GraphTfSavedModel);
    QVERIFY(result.graph);
    const Graph& graph = *result.graph;
    const QList<models::tensor::TensorSeries> series = graphWeightSeries(graph);
    QCOMPARE(series.size(), listed.size());
    QMap<QString, QJsonObject> byName;
    for (auto it = listed.begin(); it != listed.end(); ++it)
        byName.insert(QStringLiteral("saved_model.pb: ") + it.value().toObject().value("name").toString(),
                      it.value().toObject());
    for (const models::tensor::TensorSeries& s : series) {
        QVERIFY2(byName.contains(s.name), qPrintable(s.name));
        const QString name = s.name.mid(16);
        // A node stands for it exactly when the graph has a variable of that name.
        const Node* node = findNode(graph, name.toStdString());
        QCOMPARE(s.nodeKey, node && node->kind == NodeKind::Parameter ? name : QString());
        QCOMPARE(s.versions.front().path,
                 QFileInfo(prefix + QStringLiteral(".data-00000-of-00001")).absoluteFilePath());
        compareWithOracle(s, byName.value(s.name));
        if (QTest::currentTestFailed())
            return;
    }
}

// Checkpoint entries whose bytes are not plain elements of their shape and type are not listed: a size that
// is not elements x element size, dims whose product overflows, a string, a slice of a partitioned variable,
// bytes past the end of the shard, and every entry of a checkpoint written big-endian. Nothing crashes.
void TestSavedModel::hostileCheckpointEntries()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QFile::copy(kTf2, dir.filePath(QStringLiteral("saved_model.pb"))));
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("variables")));
    QFile data(dir.filePath(QStringLiteral("variables/variables.data-00000-of-00001")));
    QVERIFY(data.open(QIODevice::WriteOnly) && data.write(QByteArray(16, '\x3f')) == 16);
    data.close();
    constexpr int kFloat = 1, kString = 7;
    tf::BundleEntryProto sliced = entry(kFloat, { 2 }, 0, 8);
    sliced.add_slices()->add_extent()->set_start(0);
    const std::vector<std::pair<std::string, tf::BundleEntryProto>> entries {
        { "a/.ATTRIBUTES/VARIABLE_VALUE", entry(kFloat, {}, 0, 8) },
        { "bad_length", entry(kFloat, { 3 }, 0, 8) },
        { "good", entry(kFloat, { 2 }, 8, 8) },
        { "huge", entry(kFloat, { std::int64_t(1) << 62, 4 }, 0, 8) },
        { "past_the_end", entry(kFloat, { 2 }, 12, 8) },
        { "sliced", sliced },
        { "text", entry(kString, { 1 }, 0, 8) },
    };
    const auto listedNames = [&](bool bigEndian) {
        QFile index(dir.filePath(QStringLiteral("variables/variables.index")));
        const QByteArray bytes = checkpointIndex(entries, bigEndian);
        if (!index.open(QIODevice::WriteOnly) || index.write(bytes) != bytes.size())
            return QStringList { QStringLiteral("<not written>") };
        index.close();
        const GraphResult result
            = GraphReader::read(dir.filePath(QStringLiteral("saved_model.pb")), ArtifactKind::GraphTfSavedModel);
        if (!result.graph)
            return QStringList { QStringLiteral("<no graph>") };
        if (metadata(*result.graph, "variable bad_length") == "<none>")
            return QStringList { QStringLiteral("<index not read>") };
        QStringList names;
        for (const models::tensor::TensorSeries& s : graphWeightSeries(*result.graph))
            names << s.name;
        // The object graph leads "a/..." to the variable op "a": Node Details says where its 8 bytes are.
        const Node* a = findNode(*result.graph, "a");
        if (!a || !a->data || a->data->length != 8 || a->data->encoding != "bytes")
            names << QStringLiteral("<a not located as bytes>");
        return names;
    };
    QCOMPARE(listedNames(false), QStringList { QStringLiteral("saved_model.pb: good") });
    QCOMPARE(listedNames(true), QStringList());
}

QTEST_GUILESS_MAIN(TestSavedModel)
#include "tst_savedmodel.moc"
