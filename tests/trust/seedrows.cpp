#include "tests/trust/seedrows.h"

#include "tests/trust/framedhostile.h"
#include "tests/trust/mutatorutils.h"
#include "tests/trust/tflitehostile.h"
#include "tests/trust/wavhostile.h"

#include "tests/importers/core/artifactbytes.h"

#include "importers/embeddings/projectorreader.h"
#include "importers/graph/paddlegraphreader.h"
#include "importers/loggers/wandbrunfile.h"
#include "importers/trace/chrometracereader.h"
#include "importers/trace/tracecache.h"
#include "models/core/crc32c.h"
#include "models/trace/tracelod.h"
#include "models/trace/tracestorecodec.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <QTemporaryDir>
#include <QtEndian>

#include <cstring>
#include <limits>

#include <fcntl.h>
#include <sys/stat.h>

using namespace runlens::importers;
using namespace runlens::models;

// Small real files of every format the importers read, and the damage only each format can be given.

namespace runlens::test {

namespace {

// ---------------------------------------------------------------------------------------------------------------
// Cutting seeds small where the format allows it.

/// The first TFRecord frames of a stream that fit in `maxBytes` (at least two).
QByteArray tfRecordPrefix(const QByteArray& stream, qsizetype maxBytes)
{
    QByteArray out;
    for (const QByteArray& payload : tfRecordPayloads(stream)) {
        const QByteArray frame = tfRecordFrame(payload);
        if (out.size() + frame.size() > maxBytes && tfRecordPayloads(out).size() >= 2)
            break;
        out += frame;
    }
    return out;
}

QByteArray linePrefix(const QByteArray& text, int lines)
{
    qsizetype at = 0;
    for (int i = 0; i < lines && at >= 0; ++i) {
        at = text.indexOf('\n', at);
        if (at >= 0)
            ++at;
    }
    return at < 0 ? text : text.left(at);
}

/// A GraphDef text cut before its `nodes + 1`-th top-level node.
QByteArray pbtxtPrefix(const QByteArray& text, int nodes)
{
    qsizetype at = 0;
    for (int i = 0; i < nodes && at >= 0; ++i)
        at = text.indexOf("\nnode {", at + 1);
    return at < 0 ? text : text.left(at + 1);
}

/// The GraphDef a torch SummaryWriter.add_graph stored in an event (Event.graph_def, field 4).
QByteArray graphDefOfEvents(const QByteArray& stream)
{
    for (const QByteArray& payload : tfRecordPayloads(stream)) {
        const QByteArray graph = protobufField(payload, 4);
        if (!graph.isEmpty())
            return graph;
    }
    return {};
}

/// A binary GraphDef that does not look like text once leading whitespace is trimmed: its first nodes dropped
/// until the bytes after the first tag (0x0a, a newline) are not a letter.
QByteArray binaryGraphDef(const QByteArray& graph)
{
    for (int drop = 0; drop < 64; ++drop) {
        const QByteArray rest = protobufWithoutFirst(graph, 1, drop);
        const QByteArray head = rest.left(256).trimmed();
        const char c = head.isEmpty() ? 'a' : head[0];
        if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && c != '#')
            return rest;
    }
    return {};
}

/// torch's raw memory timeline: the first pre-existing allocations and the first events of the run.
QByteArray memoryTimelineExcerpt(const QByteArray& gzipped)
{
    const QByteArray text = gzipDecompress(gzipped);
    static const QRegularExpression tuple(QStringLiteral("\\[-?[0-9]+, [0-9]+, -?[0-9]+, -?[0-9]+\\]"));
    QStringList kept;
    int preExisting = 0;
    int events = 0;
    QRegularExpressionMatchIterator it = tuple.globalMatch(QString::fromLatin1(text));
    while (it.hasNext() && events < 80) {
        const QString t = it.next().captured();
        if (t.startsWith(QLatin1String("[-1,"))) {
            if (preExisting++ < 40)
                kept << t;
        } else {
            ++events;
            kept << t;
        }
    }
    return '[' + kept.join(QStringLiteral(", ")).toLatin1() + ']';
}

// ---------------------------------------------------------------------------------------------------------------
// Hostile variants of text formats.

/// A JSON document with an array nested `depth` deep inserted as its first value.
Mutation jsonNesting(const QByteArray& seed, int depth)
{
    return { QStringLiteral("nested arrays x%1").arg(depth), [seed, depth] {
                const qsizetype object = seed.indexOf('{');
                const qsizetype array = seed.indexOf('[');
                const QByteArray deep = QByteArray(depth, '[') + QByteArray(depth, ']');
                if (object >= 0 && (array < 0 || object < array))
                    return seed.left(object + 1) + "\"deep\":" + deep + ',' + seed.mid(object + 1);
                return seed.left(array + 1) + deep + ',' + seed.mid(array + 1);
            } };
}

/// Numbers of a JSON document replaced by values of the wrong type.
Mutations jsonWrongTypes(const QByteArray& seed, int picks)
{
    Mutations out;
    static const QRegularExpression number(QStringLiteral(":\\s*(-?[0-9][0-9.eE+-]*)"));
    QList<QPair<qsizetype, qsizetype>> spans;
    QRegularExpressionMatchIterator it = number.globalMatch(QString::fromLatin1(seed));
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        spans.append({ m.capturedStart(1), m.capturedLength(1) });
    }
    static const char* const kValues[] = { "\"x\"", "[]", "{}", "null", "true" };
    const qsizetype step = std::max<qsizetype>(1, spans.size() / picks);
    int k = 0;
    for (qsizetype i = 0; i < spans.size(); i += step) {
        const auto [start, length] = spans[i];
        const char* value = kValues[k++ % 5];
        out.append({ QStringLiteral("value@%1=%2").arg(start).arg(QLatin1String(value)), [seed, start, length, value] {
                        QByteArray bytes = seed;
                        bytes.replace(start, length, value);
                        return bytes;
                    } });
    }
    return out;
}

} // namespace

Mutations jsonHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out += jsonWrongTypes(seed, 16);
    out.append(jsonNesting(seed, 100000));
    out.append(textNesting(seed, QByteArray(), QByteArray("["), QByteArray(), 100000,
                           QStringLiteral("unclosed arrays x100000 at the start")));
    return out;
}

namespace {

/// jsonHostile, and what msprobe's own quirks invite: Python's non-finite tokens in every number, entries that
/// are not objects, and one entry repeated under the same name.
Mutations msprobeHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = jsonHostile(seed, rowSeed);
    out.append({ QStringLiteral("every statistic NaN/-Infinity"), [seed] {
                    QByteArray bytes = seed;
                    bytes.replace("\"Max\": ", "\"Max\": NaN, \"x\": ");
                    bytes.replace("\"Min\": ", "\"Min\": -Infinity, \"y\": ");
                    return bytes;
                } });
    out.append({ QStringLiteral("data holds a list"), [seed] {
                    QByteArray bytes = seed;
                    bytes.replace("\"data\": {", "\"data\": [{");
                    return bytes;
                } });
    out.append(textRepetition(seed, "\"data\": {", "\"Torch.abs.0.forward\": {\"input_args\": [1, [2, {}]]},", 100000,
                              QStringLiteral("100000 entries of one name")));
    out.append(textRepetition(seed, "\"data\": {", "\"Torch.abs.0.forward\": 7,", 1000,
                              QStringLiteral("entries that are numbers")));
    return out;
}

Mutations csvHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textRepetition(seed, "\n", "9", 1 << 20, QStringLiteral("one field of a megabyte of digits")));
    out.append(textRepetition(seed, "\n", ",", 1 << 18, QStringLiteral("a row of 262144 columns")));
    out.append(textRepetition(seed, "\n", "\"", 1, QStringLiteral("unterminated quote")));
    return out;
}

Mutations jsonLinesHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textNesting(seed, "{", "\"a\": {", "}", 100000, QStringLiteral("objects nested x100000")));
    out.append(textRepetition(seed, "\n", "{\"step\": 1e300, \"loss\": -1e-400}\n", 100000,
                              QStringLiteral("100000 lines with steps beyond int64")));
    out.append(textRepetition(seed, "\n", "\"", 1, QStringLiteral("unterminated string")));
    return out;
}

Mutations pbtxtHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textNesting(seed, "node {", " attr { key: \"a\" value { func { name: \"f\"", " } } }", 100000,
                           QStringLiteral("attr/func nested x100000")));
    out.append(textNesting(seed, "node {", " attr { key: \"a\" value { list {", " } } }", 100000,
                           QStringLiteral("attr/list nested x100000")));
    out.append(textRepetition(seed, QByteArray(), "node { name: \"n\" op: \"X\" }\n", 100000,
                              QStringLiteral("100000 nodes named n")));
    out.append(textRepetition(seed, QByteArray(), "node { name: \"m\" op: \"X\" input: \"a:2000000000\" }\n", 1,
                              QStringLiteral("input slot 2000000000")));
    return out;
}

Mutations irHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textNesting(seed, "(", "(", ")", 100000, QStringLiteral("parentheses nested x100000")));
    out.append(textNesting(seed, "{", "{", "}", 100000, QStringLiteral("braces nested x100000")));
    out.append(textRepetition(seed, "\n", "  %1(%0) = Add(%0, %0)\n", 100000, QStringLiteral("100000 nodes %1")));
    return out;
}

Mutations dotHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textNesting(seed, "{", "subgraph cluster_x {", "}", 100000, QStringLiteral("subgraphs nested x100000")));
    out.append(textRepetition(seed, "{", "n;", 100000, QStringLiteral("100000 nodes named n")));
    out.append(textRepetition(seed, "{", "a -> b;", 100000, QStringLiteral("100000 edges a -> b")));
    return out;
}

Mutations torchScriptHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textNesting(seed, "(", "(", ")", 100000, QStringLiteral("parentheses nested x100000")));
    out.append(
        textRepetition(seed, "\n", "  %n : Tensor = aten::relu(%n)\n", 100000, QStringLiteral("100000 nodes %n")));
    return out;
}

Mutations protobufHostile(const QByteArray& seed, int graphField, int nodeField)
{
    Mutations out = protobufInflations(seed);
    out += protobufRepetition(seed, graphField, nodeField, 100000);
    return out;
}

/// Paddle programs: the protobuf inflations, 100,000 copies of an op, and what only sub-blocks allow: 100,000
/// blocks each the body of an op in the one before (nesting far past any limit), and blocks that are each
/// other's bodies (a cycle between blocks, and a block that is its own body).
Mutations paddleHostile(const QByteArray& seed, std::uint64_t)
{
    Mutations out = protobufHostile(seed, 1, 4);
    auto varint = [](QByteArray& out, quint64 v) {
        do {
            out.append(char((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
            v >>= 7;
        } while (v);
    };
    auto field = [varint](int number, const QByteArray& payload) {
        QByteArray out;
        varint(out, quint64(number) << 3 | 2);
        varint(out, quint64(payload.size()));
        return out + payload;
    };
    auto number = [varint](int n, quint64 value) {
        QByteArray out;
        varint(out, quint64(n) << 3);
        varint(out, value);
        return out;
    };
    // block `idx` with one `while` op whose sub_block is `body`
    auto block = [=](int idx, int body) {
        const QByteArray attr = field(1, "sub_block") + number(2, 8) + number(12, quint64(body));
        const QByteArray op = field(3, "while") + field(1, field(1, "X") + field(2, "x")) + field(4, attr);
        return field(1, number(1, quint64(idx)) + number(2, quint64(idx ? idx - 1 : -1)) + field(4, op));
    };
    out.append({ QStringLiteral("100000 blocks each the body of the one before"), [block] {
                    QByteArray bytes;
                    for (int i = 0; i < 100000; ++i)
                        bytes += block(i, i + 1);
                    return bytes;
                } });
    out.append({ QStringLiteral("blocks that are each other's bodies, and their own"), [block] {
                    QByteArray bytes = block(0, 1);
                    bytes += block(1, 2);
                    bytes += block(2, 1);
                    bytes += block(3, 3);
                    return bytes;
                } });
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// MindSpore memory files: no real ones are in the samples, so small ones in the layout the 1.x/2.x profilers
// write (as in tst_mindsporememory).

const char kMsMemorySummary[]
    = R"({"capacity": 31.5, "allocations": 120, "deallocations": 120, "peak_mem": 2.25, "static_mem": 0.5})";
const char kMsMemoryDetails[]
    = R"({"1": {"graph_id": 1, "static_mem": 0.5, "lines": [0.75, 0.9375, 0.625], "fp_start": 0, "bp_end": 2,
"nodes": [{"node_id": 0, "name": "Conv2D-op1", "fullname": "Default/conv1/Conv2D-op1", "size": 0.25, "allocations": 1, "allocated": 0.25},
{"node_id": 1, "name": "MatMul-op2", "fullname": "Default/fc/MatMul-op2", "size": 0.1875, "allocations": 2, "allocated": 0.1875},
{"node_id": 2, "name": "ReLU-op3", "fullname": "Default/ReLU-op3", "size": 0.0, "allocations": 0, "allocated": -0.3125}],
"breakdowns": [{"tensor_name": "Conv2D-op1:0", "tensor_id": 7, "size": 0.25, "type": "output", "shape": [32, 64, 56, 56],
"format": "NC1HWC0", "data_type": "float16", "life_start": 0, "life_end": 1},
{"tensor_name": "MatMul-op2:0", "tensor_id": 8, "size": 0.125, "type": "output", "shape": "32,1000",
"format": "DefaultFormat", "data_type": "float32", "life_start": 1, "life_end": 2}]}})";
const char kMsCpuMemoryRecord[] = "Timestamp(ns),Total Allocated,Total Reserved,Total Active\n"
                                  "1700000000000000100,1024,4096,1024\n"
                                  "1700000000000000200,3072,4096,2048\n"
                                  "1700000000000000300,512,8192,512\n";
const char kMsOperatorMemory[]
    = "Name,Size(KB),Allocation Time(us),Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),"
      "Release Total Allocated(MB),Release Total Reserved(MB),Device\n"
      "Default/network/Conv2D-op12,1024,1700000000000000.5,250.25,10,20,9,20,NPU:0\n"
      "\"Default/net/Add-op1,fused\",0.5,1700000000000100,,10,20,,,NPU:0\n"
      "Default/network/MatMul-op3,2,1700000000000200,-1,10,20,9,20,NPU:1\n";

const QByteArray kTraceBombPrefix("{\"traceEvents\":[");
const QByteArray kTimelineBombPrefix("[[-1, 1, 512, 7],");

} // namespace

namespace {

// A projector config naming the torch fixture's tables by absolute path, so the damaged config alone is the
// case's file.
const char kProjectorConfig[]
    = "embeddings {\n  tensor_name: \"words:00003\"\n  metadata_path: \"" RUNLENS_TEST_DATA_DIR
      "/embeddings/projector/00003/words/metadata.tsv\"\n  tensor_path: \"" RUNLENS_TEST_DATA_DIR
      "/embeddings/projector/00003/words/tensors.tsv\"\n}\n";

Mutations projectorConfigHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations cases = textNumberInflations(seed, rowSeed);
    cases.append({ QStringLiteral("nested a million levels"),
                   [] { return QByteArray("embeddings { ") + QByteArray("a { ").repeated(1000000); } });
    cases.append({ QStringLiteral("a hundred thousand embeddings"), [seed] { return seed.repeated(100000); } });
    cases.append(
        { QStringLiteral("unterminated string"), [] { return QByteArray("embeddings { tensor_path: \"abc"); } });
    cases.append({ QStringLiteral("sprite dims huge"), [seed] {
                      return seed
                          + "embeddings { tensor_path: 'x' sprite { single_image_dim: 4294967295 "
                            "single_image_dim: 99999999999999999999 } }\n";
                  } });
    return cases;
}

/// A length-delimited protobuf field.
QByteArray pbBytes(int field, const QByteArray& payload)
{
    QByteArray out;
    detail::appendVarint(out, (std::uint64_t(field) << 3) | 2);
    detail::appendVarint(out, std::uint64_t(payload.size()));
    return out + payload;
}

/// One VisualDL log record holding one add_embeddings value (Record.values = 1, Value.tag = 2,
/// Value.embeddings = 7) whose Embeddings body is `body` (embeddings = 1, label_meta = 2).
QByteArray vdlEmbeddingsFrame(const QByteArray& body)
{
    const QByteArray payload = pbBytes(1, pbBytes(2, "emb") + pbBytes(7, body));
    QByteArray length;
    for (int i = 0; i < 8; ++i)
        length.append(char((std::uint64_t(payload.size()) >> (8 * i)) & 0xffu));
    return length + payload;
}

/// One Embedding point (label = 1, packed vectors = 2) of `dims` coordinates, each `value`.
QByteArray vdlPoint(int dims, float value, const QByteArray& label = "p")
{
    QByteArray vectors;
    for (int d = 0; d < dims; ++d) {
        char raw[4];
        std::memcpy(raw, &value, 4);
        vectors.append(raw, 4);
    }
    return pbBytes(1, pbBytes(1, label) + pbBytes(2, vectors));
}

/// The VisualDL framing and protobuf mutations of an embeddings log, and values built to cost a reader
/// memory or time: many points, no coordinates, widths that change, huge headers, lying packed lengths.
Mutations visualDlEmbeddingsHostile(const QByteArray& seed)
{
    Mutations cases = visualDlInflations(seed);
    cases.append({ QStringLiteral("a million points without coordinates"),
                   [] { return vdlEmbeddingsFrame(QByteArray::fromHex("0a00").repeated(1000000)); } });
    cases.append({ QStringLiteral("two hundred thousand points of one coordinate"),
                   [] { return vdlEmbeddingsFrame(vdlPoint(1, 1.0f).repeated(200000)); } });
    cases.append({ QStringLiteral("a point of a million coordinates, then narrow ones"),
                   [] { return vdlEmbeddingsFrame(vdlPoint(1000000, 0.5f) + vdlPoint(2, 1.0f).repeated(1000)); } });
    cases.append({ QStringLiteral("widths changing every point"), [] {
                      QByteArray body;
                      for (int i = 0; i < 5000; ++i)
                          body += vdlPoint(1 + i % 7, float(i));
                      return vdlEmbeddingsFrame(body);
                  } });
    cases.append({ QStringLiteral("not-a-number and infinite coordinates"), [] {
                      return vdlEmbeddingsFrame(vdlPoint(8, std::numeric_limits<float>::quiet_NaN()).repeated(100)
                                                + vdlPoint(8, std::numeric_limits<float>::infinity()).repeated(100));
                  } });
    cases.append({ QStringLiteral("a hundred thousand header columns"),
                   [] { return vdlEmbeddingsFrame(pbBytes(2, "column").repeated(100000) + vdlPoint(3, 1.0f)); } });
    cases.append({ QStringLiteral("a hundred thousand labels on each point"), [] {
                      const QByteArray labels = pbBytes(1, "x").repeated(100000);
                      QByteArray vectors(8, '\0');
                      return vdlEmbeddingsFrame(pbBytes(1, labels + pbBytes(2, vectors)).repeated(10));
                  } });
    cases.append({ QStringLiteral("packed coordinates claiming 2^62 bytes"), [] {
                      QByteArray point = QByteArray::fromHex("12");
                      detail::appendVarint(point, detail::kHuge62);
                      point += QByteArray(16, '\0');
                      return vdlEmbeddingsFrame(pbBytes(1, point));
                  } });
    cases.append({ QStringLiteral("embeddings record cut in its points"),
                   [] { return vdlEmbeddingsFrame(vdlPoint(4, 1.0f).repeated(50)).chopped(37); } });
    return cases;
}

/// Imports the projector `config` once: nothing may escape, and a run that is not Ok must name `damaged`.
QString pollProjector(const QString& config, const QString& damaged)
{
    importers::embeddings::ProjectorImporter importer(config);
    ImportUpdate update;
    try {
        update = importer.poll({});
    } catch (const std::exception& e) {
        return QStringLiteral("exception escaped poll(): %1").arg(QString::fromLocal8Bit(e.what()));
    }
    bool named = false;
    for (const Diagnostic& d : std::as_const(update.diagnostics))
        named = named || d.file == damaged;
    if (update.status != ImportStatus::Ok && !named)
        return QStringLiteral("status %1 without a diagnostic naming %2").arg(importStatusId(update.status), damaged);
    return {};
}

/// Reads `bytes` as the tensors.tsv of a projector folder through its importer. Runs in the child.
QString readProjectorTable(const QString& folder, const QByteArray& bytes, bool metadata)
{
    QDir().mkpath(folder);
    const QString table = folder + (metadata ? QStringLiteral("/metadata.tsv") : QStringLiteral("/tensors.tsv"));
    const QString config = folder + QStringLiteral("/projector_config.pbtxt");
    QFile::remove(table);
    QFile::remove(config);
    QFile tableFile(table);
    QFile configFile(config);
    if (!tableFile.open(QIODevice::WriteOnly) || tableFile.write(bytes) != bytes.size()
        || !configFile.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1").arg(folder);
    tableFile.close();
    const QByteArray tensors = QByteArray(RUNLENS_TEST_DATA_DIR "/embeddings/projector/00003/words/tensors.tsv");
    configFile.write("embeddings { tensor_name: 'x' tensor_path: '" + (metadata ? tensors : QByteArray("tensors.tsv"))
                     + (metadata ? QByteArray("' metadata_path: 'metadata.tsv") : QByteArray()) + "' }\n");
    configFile.close();
    return pollProjector(config, table);
}

/// Reads `bytes` as the `.index` (or the data shard) of the projector's checkpoint fixture, the other files
/// copied beside it, through the projector importer. Runs in the child.
QString readProjectorCheckpoint(const QString& folder, const QByteArray& bytes, bool shard)
{
    const QString fixture = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/checkpoint");
    const QString damaged = folder
        + (shard ? QStringLiteral("/model.ckpt-100.data-00000-of-00001") : QStringLiteral("/model.ckpt-100.index"));
    QDir().mkpath(folder);
    for (const QString& name : QDir(fixture).entryList(QDir::Files)) {
        QFile::remove(folder + QLatin1Char('/') + name);
        if (!QFile::copy(fixture + QLatin1Char('/') + name, folder + QLatin1Char('/') + name))
            return QStringLiteral("cannot copy %1 to %2").arg(name, folder);
    }
    QFile::remove(damaged);
    QFile file(damaged);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return QStringLiteral("cannot write %1").arg(damaged);
    file.close();
    return pollProjector(folder + QStringLiteral("/projector_config.pbtxt"), damaged);
}

/// The damaged-entries bundle's index (odd dtypes, 3-D and huge shapes, sizes that do not match, offsets
/// beyond the shard) in place of the fixture's, and the index written twice over.
Mutations projectorCheckpointHostile(const QByteArray& seed, std::uint64_t)
{
    Mutations cases;
    cases.append({ QStringLiteral("the damaged-entries bundle's index"), [] {
                      QFile file(
                          QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/checkpoint_cases/model.ckpt-100.index"));
                      return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
                  } });
    cases.append({ QStringLiteral("index twice over"), [seed] { return seed + seed; } });
    return cases;
}

QString readPaddleParams(const QString& folder, const QByteArray& bytes)
{
    // The parameter file beside the tiny fixture's program: the program is read and the file walked.
    QDir().mkpath(folder);
    const QString params = folder + QStringLiteral("/inference.pdiparams");
    const QString model = folder + QStringLiteral("/inference.pdmodel");
    QFile::remove(params);
    QFile::remove(model);
    QFile paramsFile(params);
    if (!paramsFile.open(QIODevice::WriteOnly) || paramsFile.write(bytes) != bytes.size()
        || !QFile::copy(QStringLiteral(RUNLENS_TEST_DATA_DIR "/paddle/tiny/inference.pdmodel"), model))
        return QStringLiteral("cannot write %1").arg(folder);
    paramsFile.close();
    QFile modelFile(model);
    if (!modelFile.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read %1").arg(model);
    const QByteArray program = modelFile.readAll();
    importers::graph::GraphResult result;
    try {
        result = importers::graph::PaddleGraphReader::read(program.toStdString(), model);
    } catch (const std::exception& e) {
        return QStringLiteral("exception escaped the reader: %1").arg(QString::fromLocal8Bit(e.what()));
    }
    if (!result.graph)
        return QStringLiteral("the intact program was not read beside a damaged parameter file");
    for (const Diagnostic& d : std::as_const(result.diagnostics)) {
        if (d.severity == Severity::Warning && d.file != params && d.message.contains(QLatin1String("parameter")))
            return QStringLiteral("a warning about the parameter file does not name it: %1").arg(d.toString());
    }
    return {};
}

} // namespace

std::vector<SeedRow> seedRows()
{
    const auto tfPrefix = [](qsizetype max) { return [max](const QByteArray& s) { return tfRecordPrefix(s, max); }; };
    const auto lines = [](int n) { return [n](const QByteArray& s) { return linePrefix(s, n); }; };
    const auto tf = [](const QByteArray& s, std::uint64_t) { return tfRecordInflations(s); };
    return {
        { "tfevents torch scalars", Source::Samples,
          "summaries/tensorboard/torch2_scalars/events.out.tfevents.1771594466.zyzkings.21024.0",
          "events.out.tfevents.1771594466.zyzkings.21024.0", ArtifactKind::TensorBoardEvents, false, tfPrefix(1500),
          tf },
        { "tfevents tf2 tensor scalars", Source::Samples,
          "summaries/tensorboard/tf2_tensor_scalars/events.out.tfevents.1585499054.Jaakkos-Mac-mini.local.11684.5.v2",
          "events.out.tfevents.1585499054.host.11684.5.v2", ArtifactKind::TensorBoardEvents, false, tfPrefix(1500),
          tf },
        { "tfevents pr curve", Source::Samples,
          "summaries/tensorboard/torch2_pr_curve/events.out.tfevents.1771596445.zyzkings.30376.0",
          "events.out.tfevents.1771596445.zyzkings.30376.0", ArtifactKind::TensorBoardEvents, false, tfPrefix(7000),
          tf },
        { "tfevents hparams",
          Source::Samples,
          "summaries/tensorboard/torch2_hparams/events.out.tfevents.1771595857.zyzkings.1216.1",
          "events.out.tfevents.1771595857.zyzkings.1216.1",
          ArtifactKind::TensorBoardEvents,
          false,
          {},
          tf },
        { "tfevents graph",
          Source::Samples,
          "graphs/torch_add_graph_event/events.out.tfevents.1771596179.zyzkings.9384.0",
          "events.out.tfevents.1771596179.zyzkings.9384.0",
          ArtifactKind::TensorBoardEvents,
          false,
          {},
          tf },
        { "mindspore summary", Source::Samples,
          "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_MS",
          "events.out.events.summary.1700000000.0.helperhost_MS", ArtifactKind::MindSporeSummary, false, tfPrefix(3000),
          tf },
        { "mindspore lineage",
          Source::Samples,
          "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_lineage",
          "events.out.events.summary.1700000000.0.helperhost_lineage",
          ArtifactKind::MindSporeLineage,
          false,
          {},
          tf },
        { "visualdl log",
          Source::TestData,
          "visualdl/vdlrecords.1700000000.log",
          "vdlrecords.1700000000.log",
          ArtifactKind::VisualDlLog,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return visualDlInflations(s); } },
        { "visualdl audio log",
          Source::TestData,
          "audio/vdl/vdlrecords.1595923424.log",
          "vdlrecords.1595923424.log",
          ArtifactKind::VisualDlLog,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return visualDlInflations(s); } },
        { "wav clip pcm16",
          Source::TestData,
          "audio/wav/pcm16_stereo.wav",
          "clip.wav",
          ArtifactKind::Unknown,
          false,
          {},
          wavHostile,
          readWav },
        { "wav clip float64",
          Source::TestData,
          "audio/wav/float64_stereo.wav",
          "clip.wav",
          ArtifactKind::Unknown,
          false,
          {},
          wavHostile,
          readWav },
        { "visualdl embeddings log",
          Source::TestData,
          "embeddings/visualdl/hidi/vdlrecords.1618468473.log",
          "vdlrecords.1618468473.log",
          ArtifactKind::VisualDlLog,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return visualDlEmbeddingsHostile(s); } },
        { "visualdl embeddings header log",
          Source::TestData,
          "embeddings/visualdl/header/vdlrecords.1700000100.log",
          "vdlrecords.1700000100.log",
          ArtifactKind::VisualDlLog,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return visualDlInflations(s); } },
        { "visualdl roc log",
          Source::TestData,
          "visualdl/roc/vdlrecords.1609220805.log",
          "vdlrecords.1609220805.log",
          ArtifactKind::VisualDlLog,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return visualDlInflations(s); } },
        { "chrome trace json",
          Source::TestData,
          "tiny.pt.trace.json",
          "worker0.1700000000.pt.trace.json",
          ArtifactKind::ChromeTrace,
          false,
          {},
          jsonHostile },
        { "chrome trace json.gz",
          Source::Samples,
          "traces/kineto/cpu_only_rank34_of_300/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
          "rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
          ArtifactKind::ChromeTrace,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return gzipInflations(s, kTraceBombPrefix); } },
        { "paddle program",
          Source::TestData,
          "paddle/cnn/inference.pdmodel",
          "inference.pdmodel",
          ArtifactKind::GraphPaddle,
          false,
          {},
          paddleHostile },
        { "paddle pir program",
          Source::TestData,
          "paddle/pir/design_example.json",
          "inference.json",
          ArtifactKind::GraphPaddle,
          false,
          {},
          jsonHostile },
        { "paddle parameters",
          Source::TestData,
          "paddle/tiny/inference.pdiparams",
          "inference.pdiparams",
          ArtifactKind::GraphPaddle,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) {
              Mutations cases;
              cases.append({ QStringLiteral("a LoD level of 2^62 bytes"), [s] {
                                QByteArray b = s;
                                const std::uint64_t levels = 1;
                                const std::uint64_t huge = std::uint64_t(1) << 62;
                                b.replace(4, 8, QByteArray(reinterpret_cast<const char*>(&levels), 8));
                                b.insert(12, QByteArray(reinterpret_cast<const char*>(&huge), 8));
                                return b;
                            } });
              cases.append({ QStringLiteral("a tensor description of 2 GB"), [s] {
                                QByteArray b = s;
                                const std::int32_t huge = 0x7fffffff;
                                b.replace(16, 4, QByteArray(reinterpret_cast<const char*>(&huge), 4));
                                return b;
                            } });
              cases.append({ QStringLiteral("every record's version 7"), [s] {
                                QByteArray b = s;
                                b[0] = 7;
                                return b;
                            } });
              return cases;
          },
          readPaddleParams },
        { "mindir model",
          Source::TestData,
          "graph/mindir/lenet_split_graph.mindir",
          "lenet_split_graph.mindir",
          ArtifactKind::GraphMindIr,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 7, 1); } },
        { "visualdl graph",
          Source::TestData,
          "paddle/vdlgraph/vdlgraph.1700000000.log",
          "vdlgraph.1700000000.log",
          ArtifactKind::GraphVisualDl,
          false,
          {},
          jsonHostile },
        // SavedModel: inflations, 100 meta graphs; MetaGraphDef: inflations, 100,000 copies of a node.
        { "tf saved model",
          Source::TestData,
          "graph/savedmodel/half_plus_two_tf2/saved_model.pb",
          "saved_model.pb",
          ArtifactKind::GraphTfSavedModel,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return protobufInflations(s) + protobufRepetition(s, 0, 2, 100); } },
        { "tf meta graph",
          Source::TestData,
          "graph/savedmodel/session_bundle/export.meta",
          "export.meta",
          ArtifactKind::GraphTfSavedModel,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 2, 1); } },
        { "tflite model",
          Source::TestData,
          "graph/tflite/hello_world_int8.tflite",
          "hello_world_int8.tflite",
          ArtifactKind::GraphTfLite,
          false,
          {},
          tfliteHostile },
        { "onnx loop",
          Source::Samples,
          "graphs/onnx/test_loop11/model.onnx",
          "model.onnx",
          ArtifactKind::GraphOnnx,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 7, 1); } },
        { "onnx attention",
          Source::Samples,
          "graphs/onnx/test_attention_4d_expanded/model.onnx",
          "model.onnx",
          ArtifactKind::GraphOnnx,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 7, 1); } },
        { "tf graphdef binary as written", Source::Samples,
          "graphs/torch_add_graph_event/events.out.tfevents.1771596179.zyzkings.9384.0", "graph_def.pb",
          ArtifactKind::GraphTensorFlow, false, graphDefOfEvents,
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 0, 1); } },
        // The same GraphDef without its first nodes, so that it starts with a node whose length byte is not a
        // letter: the binary reader is reached (see binaryGraphDef()).
        { "tf graphdef binary", Source::Samples,
          "graphs/torch_add_graph_event/events.out.tfevents.1771596179.zyzkings.9384.0", "graph_def.pb",
          ArtifactKind::GraphTensorFlow, false, [](const QByteArray& s) { return binaryGraphDef(graphDefOfEvents(s)); },
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 0, 1); } },
        { "tf graphdef pbtxt",
          Source::Samples,
          "graphs/tensorflow/graphdef_foo.pbtxt",
          "graphdef_foo.pbtxt",
          ArtifactKind::GraphTensorFlow,
          false,
          {},
          pbtxtHostile },
        { "tf graphdef pbtxt resnet", Source::Samples, "graphs/tensorflow/resnet_8_simple.pbtxt",
          "resnet_8_simple.pbtxt", ArtifactKind::GraphTensorFlow, false,
          [](const QByteArray& s) { return pbtxtPrefix(s, 12); }, pbtxtHostile },
        { "anf_ir model",
          Source::TestData,
          "graph_anf_model.pb",
          "ms_output_model.pb",
          ArtifactKind::GraphAnfIr,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 0, 0); } },
        { "anf_ir debugger graph",
          Source::Samples,
          "graphs/mindspore_debug_graph_pb/lenet.pb",
          "lenet.pb",
          ArtifactKind::GraphAnfIr,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 0, 2); } },
        { "mindspore ir",
          Source::Samples,
          "graphs/mindspore_ir/read_ir_files.md.ex1_ms1x_format.ir",
          "01_validate_0001.ir",
          ArtifactKind::GraphMindSporeIr,
          false,
          {},
          irHostile },
        { "mindspore ir kernel graph",
          Source::Samples,
          "graphs/mindspore_ir/dump.md.ex4_fragment_kernel_graph_conv2d.ir",
          "kernel_graph_0.ir",
          ArtifactKind::GraphMindSporeIr,
          false,
          {},
          irHostile },
        { "dot",
          Source::Samples,
          "graphs/dot/example.dot",
          "example.dot",
          ArtifactKind::GraphDot,
          false,
          {},
          dotHostile },
        { "dot mindspore",
          Source::Samples,
          "graphs/mindspore_dot/ir.dot",
          "ir.dot",
          ArtifactKind::GraphDot,
          false,
          {},
          dotHostile },
        { "torchscript",
          Source::Samples,
          "graphs/torchscript/TestJit.test_alexnet.expect",
          "alexnet.graph.txt",
          ArtifactKind::GraphTorchScript,
          false,
          {},
          torchScriptHostile },
        { "torchscript jit trace",
          Source::Samples,
          "runs/pytorch_cnn_baseline/graph/jit_trace.graph.txt",
          "jit_trace.graph.txt",
          ArtifactKind::GraphTorchScript,
          false,
          {},
          torchScriptHostile },
        { "parallel strategy",
          Source::TestData,
          "graph_parallel_strategy_1.json",
          "parallel_strategy_1.json",
          ArtifactKind::GraphParallelStrategy,
          false,
          {},
          jsonHostile },
        { "strategy checkpoint",
          Source::TestData,
          "graph_strategy.json",
          "strategy.json",
          ArtifactKind::GraphParallelStrategy,
          false,
          {},
          jsonHostile },
        { "npy",
          Source::Samples,
          "runs/pytorch_cnn_baseline/dump/step_0/conv1.weight.npy",
          "conv1.weight.npy",
          ArtifactKind::TensorNpy,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return npyInflations(s); } },
        { "npz stored",
          Source::TestData,
          "tensor/container_stored.npz",
          "container_stored.npz",
          ArtifactKind::TensorNpz,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return zipInflations(s); } },
        { "npz deflated",
          Source::TestData,
          "tensor/container_deflated.npz",
          "container_deflated.npz",
          ArtifactKind::TensorNpz,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return zipInflations(s); } },
        { "safetensors",
          Source::TestData,
          "tensor/container_tensors.safetensors",
          "model.safetensors",
          ArtifactKind::TensorSafetensors,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return safetensorsInflations(s); } },
        { "pt state dict",
          Source::TestData,
          "torchsave/model_state.pth",
          "model_state.pth",
          ArtifactKind::TensorPt,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return ptInflations(s); } },
        { "pt huge shape",
          Source::TestData,
          "torchsave/huge_shape.pt",
          "huge_shape.pt",
          ArtifactKind::TensorPt,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return ptInflations(s); } },
        { "pt missing storage",
          Source::TestData,
          "torchsave/missing_storage.pt",
          "missing_storage.pt",
          ArtifactKind::TensorPt,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return ptInflations(s); } },
        { "memory timeline", Source::Samples, "traces/memory_timeline/memory_timeline.raw.gz",
          "memory_timeline.raw.json", ArtifactKind::MemoryTimeline, false, memoryTimelineExcerpt, jsonHostile },
        { "memory timeline gz", Source::Samples, "traces/memory_timeline/memory_timeline.raw.gz",
          "memory_timeline.raw.gz", ArtifactKind::MemoryTimeline, false,
          [](const QByteArray& s) { return gzipped(memoryTimelineExcerpt(s)); },
          [](const QByteArray& s, std::uint64_t) { return gzipInflations(s, kTimelineBombPrefix); } },
        { "cuda snapshot pickle",
          Source::TestData,
          "memory/snapshot.pickle",
          "snapshot.pickle",
          ArtifactKind::MemorySnapshot,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return pickleInflations(s); } },
        { "mindspore memory summary",
          Source::Inline,
          kMsMemorySummary,
          "memory_usage_summary_0.json",
          ArtifactKind::ProfilerJson,
          false,
          {},
          jsonHostile },
        { "mindspore memory details",
          Source::Inline,
          kMsMemoryDetails,
          "memory_usage_details_0.json",
          ArtifactKind::ProfilerJson,
          false,
          {},
          jsonHostile },
        { "mindspore cpu memory record",
          Source::Inline,
          kMsCpuMemoryRecord,
          "cpu_ms_memory_record_0.txt",
          ArtifactKind::ProfilerCsv,
          false,
          {},
          csvHostile },
        { "mindspore operator memory",
          Source::Inline,
          kMsOperatorMemory,
          "operator_memory_0.csv",
          ArtifactKind::ProfilerCsv,
          false,
          {},
          csvHostile },
        { "profiler framework_raw",
          Source::Samples,
          "profiler/mindspore/profiler_misc/framework_raw_0.csv",
          "framework_raw_0.csv",
          ArtifactKind::ProfilerCsv,
          true,
          {},
          csvHostile },
        { "profiler aicore detail",
          Source::Samples,
          "profiler/mindspore/profiler_misc/aicore_intermediate_1_detail.csv",
          "aicore_intermediate_1_detail.csv",
          ArtifactKind::ProfilerCsv,
          true,
          {},
          csvHostile },
        { "profiler aicore type",
          Source::Samples,
          "profiler/mindspore/profiler_misc/aicore_intermediate_1_type.csv",
          "aicore_intermediate_1_type.csv",
          ArtifactKind::ProfilerCsv,
          true,
          {},
          csvHostile },
        { "profiler step trace", Source::Samples, "profiler/mindspore/profiler_misc/step_trace_raw_0_detail_time.csv",
          "step_trace_raw_0_detail_time.csv", ArtifactKind::ProfilerCsv, true, lines(12), csvHostile },
        { "msprobe dump pytorch",
          Source::Samples,
          "accuracy/msprobe/pytorch_data/dump.json",
          "dump.json",
          ArtifactKind::MsprobeDump,
          false,
          {},
          msprobeHostile },
        { "msprobe dump mindspore",
          Source::Samples,
          "accuracy/msprobe/mindspore_data/dump.json",
          "dump.json",
          ArtifactKind::MsprobeDump,
          false,
          {},
          msprobeHostile },
        { "rank digest",
          Source::TestData,
          "cluster/rank-3.rldigest",
          "rank-3.rldigest",
          ArtifactKind::RankDigest,
          false,
          {},
          rankDigestHostile },
        { "rank digest version 2",
          Source::TestData,
          "cluster-v2/rank-3.rldigest",
          "rank-3.rldigest",
          ArtifactKind::RankDigest,
          false,
          {},
          rankDigestV2Hostile },
        { "kineto trace digest",
          Source::Inline,
          kDigestTraceSeed,
          "worker1.pt.trace.json",
          ArtifactKind::ChromeTrace,
          false,
          {},
          jsonHostile,
          readTraceDigest },
        { "trace index cache", Source::TestData, "tiny.pt.trace.json", "index", ArtifactKind::ChromeTrace, false,
          [](const QByteArray& json) { return traceIndexOf(json); }, traceIndexInflations, readTraceIndex },
        { "lightning metrics.csv",
          Source::TestData,
          "loggers/lightning/lightning_logs/version_0/metrics.csv",
          "metrics.csv",
          ArtifactKind::Table,
          false,
          {},
          csvHostile },
        { "metrics jsonl",
          Source::TestData,
          "loggers/plain/metrics.jsonl",
          "metrics.jsonl",
          ArtifactKind::Table,
          false,
          {},
          jsonLinesHostile },
        { "wandb events jsonl",
          Source::TestData,
          "loggers/wandb/wandb/offline-run-20240115_102345-abc123de/files/wandb-events.jsonl",
          "wandb-events.jsonl",
          ArtifactKind::Table,
          false,
          {},
          jsonLinesHostile },
        { "tensorboard projector config",
          Source::Inline,
          kProjectorConfig,
          "projector_config.pbtxt",
          ArtifactKind::EmbeddingProjector,
          false,
          {},
          projectorConfigHostile },
        { "tensorboard projector tensors.tsv",
          Source::TestData,
          "embeddings/projector/00000/features/tensors.tsv",
          "tensors.tsv",
          ArtifactKind::EmbeddingProjector,
          false,
          {},
          [](const QByteArray& s, std::uint64_t rowSeed) {
              Mutations cases = textNumberInflations(s, rowSeed);
              cases.append({ QStringLiteral("one line of a million values"),
                             [] { return QByteArray("1\t").repeated(1000000); } });
              cases.append({ QStringLiteral("a million empty-valued lines"),
                             [] { return QByteArray("\t\t\n").repeated(1000000); } });
              return cases;
          },
          [](const QString& folder, const QByteArray& bytes) { return readProjectorTable(folder, bytes, false); } },
        { "tensorboard projector metadata.tsv",
          Source::TestData,
          "embeddings/projector/00003/words/metadata.tsv",
          "metadata.tsv",
          ArtifactKind::EmbeddingProjector,
          false,
          {},
          [](const QByteArray& s, std::uint64_t rowSeed) {
              Mutations cases = textNumberInflations(s, rowSeed);
              cases.append({ QStringLiteral("a header of a million columns"),
                             [] { return QByteArray("c\t").repeated(1000000) + "\n"; } });
              return cases;
          },
          [](const QString& folder, const QByteArray& bytes) { return readProjectorTable(folder, bytes, true); } },
        { "tensorboard projector checkpoint index",
          Source::TestData,
          "embeddings/checkpoint/model.ckpt-100.index",
          "model.ckpt-100.index",
          ArtifactKind::EmbeddingProjector,
          false,
          {},
          projectorCheckpointHostile,
          [](const QString& folder, const QByteArray& bytes) {
              return readProjectorCheckpoint(folder, bytes, false);
          } },
        { "tensorboard projector checkpoint data shard",
          Source::TestData,
          "embeddings/checkpoint/model.ckpt-100.data-00000-of-00001",
          "model.ckpt-100.data-00000-of-00001",
          ArtifactKind::EmbeddingProjector,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) {
              return Mutations { { QStringLiteral("emptied"), [] { return QByteArray(); } },
                                 { QStringLiteral("doubled"), [s] { return s + s; } } };
          },
          [](const QString& folder, const QByteArray& bytes) { return readProjectorCheckpoint(folder, bytes, true); } },
        { "wandb run file",
          Source::TestData,
          "loggers/wandb-seed/run-seed.wandb",
          "run-seed.wandb",
          ArtifactKind::WandbRun,
          false,
          {},
          wandbHostile },
        { "hugging face trainer state",
          Source::TestData,
          "loggers/hf/out/trainer_state.json",
          "trainer_state.json",
          ArtifactKind::TrainerState,
          false,
          {},
          jsonHostile },
        { "mlflow run meta.yaml",
          Source::TestData,
          "loggers/mlflow/mlruns/0/5f2a9c1b3d4e4f6a8b7c6d5e4f3a2b1c/meta.yaml",
          "meta.yaml",
          ArtifactKind::MlflowRun,
          false,
          {},
          [](const QByteArray& s, std::uint64_t rowSeed) { return textNumberInflations(s, rowSeed); } },
        { "nvidia-smi csv",
          Source::TestData,
          "loggers/gpu/nvidia-smi.csv",
          "gpu.csv",
          ArtifactKind::GpuMetricsLog,
          false,
          {},
          csvHostile },
        { "dcgmi dmon",
          Source::TestData,
          "loggers/gpu/dcgmi-dmon.txt",
          "dcgmi.txt",
          ArtifactKind::GpuMetricsLog,
          false,
          {},
          [](const QByteArray& s, std::uint64_t rowSeed) {
              Mutations out = textNumberInflations(s, rowSeed);
              out.append(textRepetition(s, "\n", "GPU 0 1 2 3 4 5\n", 100000, QStringLiteral("100000 rows")));
              out.append(
                  textRepetition(s, "\n", "GPU 99999999999999999999 1\n", 1, QStringLiteral("GPU id beyond int64")));
              return out;
          } },
        { "profiler minddata pipeline",
          Source::Samples,
          "profiler/mindspore/profiler_misc/minddata_pipeline_raw_0.csv",
          "minddata_pipeline_raw_0.csv",
          ArtifactKind::ProfilerCsv,
          true,
          {},
          csvHostile },
    };
}

} // namespace runlens::test
