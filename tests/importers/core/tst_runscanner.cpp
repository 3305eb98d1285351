#include "core/filesniffer.h"
#include "core/runscanner.h"
#include "summary/crc32c.h"
#include "summary/eventfilewriter.h"

#include "testutils.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <zlib.h>

#include <atomic>
#include <map>

#include <sys/stat.h>
#include <unistd.h>

using namespace runlens;
using summary::EventFileWriter;
using summary::SummaryFlavor;

namespace {

// --- Byte builders ---------------------------------------------------------------------------------------------

QByteArray le64(quint64 value)
{
    QByteArray out(8, '\0');
    qToLittleEndian(value, out.data());
    return out;
}

QByteArray le32(quint32 value)
{
    QByteArray out(4, '\0');
    qToLittleEndian(value, out.data());
    return out;
}

QByteArray varint(quint64 value)
{
    QByteArray out;
    do {
        quint8 byte = value & 0x7f;
        value >>= 7;
        if (value)
            byte |= 0x80;
        out.append(char(byte));
    } while (value);
    return out;
}

QByteArray protoBytes(int field, const QByteArray& payload)
{
    return varint(quint64(field) << 3 | 2) + varint(quint64(payload.size())) + payload;
}

QByteArray protoVarint(int field, quint64 value)
{
    return varint(quint64(field) << 3) + varint(value);
}

QByteArray protoDouble(int field, double value)
{
    QByteArray out = varint(quint64(field) << 3 | 1);
    QByteArray bits(8, '\0');
    qToLittleEndian(value, bits.data());
    return out + bits;
}

/// One TFRecord: length, masked CRC of the length, payload, masked CRC of the payload.
QByteArray tfRecord(const QByteArray& payload)
{
    const QByteArray length = le64(quint64(payload.size()));
    return length + le32(summary::maskedCrc32c(length.constData(), 8)) + payload
        + le32(summary::maskedCrc32c(payload.constData(), std::size_t(payload.size())));
}

/// An Event (TensorBoard and MindSpore share the numbering): wall_time, then a version string.
QByteArray versionEvent(const QByteArray& version)
{
    return protoDouble(1, 1700000000.0) + protoBytes(3, version);
}

QByteArray gzipped(const QByteArray& data)
{
    z_stream stream {};
    deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(int(deflateBound(&stream, uLong(data.size()))) + 32, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    stream.avail_in = uInt(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(qsizetype(stream.total_out));
    deflateEnd(&stream);
    return out;
}

QByteArray npyBytes()
{
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
    while ((10 + header.size() + 1) % 64 != 0)
        header.append(' ');
    header.append('\n');
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out.append(char(header.size() & 0xff)).append(char(header.size() >> 8));
    return out + header + QByteArray(8, '\0');
}

/// A zip local file header for one stored member (enough for the sniffer; not a complete archive).
QByteArray zipWithMember(const QByteArray& member, const QByteArray& content)
{
    QByteArray out("PK\x03\x04", 4);
    out += QByteArray(22, '\0');
    out.append(char(member.size() & 0xff)).append(char(member.size() >> 8));
    out += QByteArray(2, '\0');
    return out + member + content;
}

QByteArray safetensorsBytes(const QByteArray& header)
{
    return le64(quint64(header.size())) + header + QByteArray(16, '\0');
}

QByteArray kinetoHeader(int rank, int devicePadding)
{
    QByteArray json = "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n";
    for (int i = 0; i < devicePadding; ++i) {
        json += QByteArray("    {\"id\": ") + QByteArray::number(i)
            + ", \"name\": \"NVIDIA A100-SXM4-80GB\", \"totalGlobalMem\": 85031714816, \"computeMajor\": 8},\n";
    }
    json += "    {\"id\": 99}\n  ],\n";
    if (rank >= 0)
        json += "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " + QByteArray::number(rank)
            + ", \"world_size\": 64},\n";
    json += "  \"traceEvents\": [\n  {\"ph\": \"X\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 1, "
            "\"dur\": 2}\n";
    json += "]}\n";
    return json;
}

QByteArray onnxBytes()
{
    const QByteArray node = protoBytes(1, "x") + protoBytes(2, "y") + protoBytes(4, "Relu");
    const QByteArray graph = protoBytes(1, node) + protoBytes(2, "g");
    return protoVarint(1, 7) + protoBytes(2, "pytorch") + protoBytes(3, "1.13.1") + protoBytes(7, graph)
        + protoBytes(8, protoVarint(2, 13));
}

QByteArray anfModelBytes()
{
    const QByteArray input = protoBytes(1, "x") + protoVarint(2, 0);
    const QByteArray node = protoBytes(1, input) + protoBytes(2, "1") + protoBytes(3, "Conv2D");
    const QByteArray graph = protoBytes(1, node) + protoBytes(2, "kernel_graph_0");
    return protoVarint(1, 1) + protoBytes(2, "") + protoVarint(3, 1) + protoBytes(4, graph);
}

QByteArray anfBareGraphBytes()
{
    const QByteArray input = protoBytes(1, "args1") + protoVarint(2, 0);
    const QByteArray node = protoBytes(1, input) + protoBytes(2, "1") + protoBytes(3, "OneHot")
        + protoBytes(4, "Default/network-WithLossCell");
    return protoBytes(1, node) + protoBytes(2, "kernel_graph_0");
}

QByteArray tfGraphDefBytes()
{
    const QByteArray attr = protoBytes(1, "dtype") + protoBytes(2, protoVarint(6, 1));
    const QByteArray node = protoBytes(1, "input") + protoBytes(2, "Placeholder") + protoBytes(5, attr);
    const QByteArray node2 = protoBytes(1, "relu") + protoBytes(2, "Relu") + protoBytes(3, "input");
    return protoBytes(1, node) + protoBytes(1, node2) + protoBytes(4, protoVarint(1, 27));
}

// --- Files and trees -------------------------------------------------------------------------------------------

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return file.write(bytes) == bytes.size();
}

bool writeEvents(const QString& path, SummaryFlavor flavor = SummaryFlavor::TensorBoard)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    EventFileWriter writer(flavor);
    if (!writer.open(path))
        return false;
    writer.writeFileVersion(1700000000.0);
    for (int step = 0; step < 3; ++step)
        writer.writeScalar(QStringLiteral("loss"), step, 1700000000.0 + step, 1.0 / (step + 1));
    return writer.close();
}

QString tbName(int counter = 0)
{
    return EventFileWriter::tensorBoardFileName(1700000000, QStringLiteral("host"), 42, counter);
}

const Artifact* findArtifact(const RunManifest& manifest, const QString& relativePath)
{
    for (const Artifact& artifact : manifest.artifacts) {
        if (artifact.relativePath == relativePath)
            return &artifact;
    }
    return nullptr;
}

bool hasDiagnostic(const RunManifest& manifest, Severity severity, const QString& pathPart)
{
    for (const Diagnostic& diagnostic : manifest.diagnostics) {
        if (diagnostic.severity == severity && diagnostic.file.contains(pathPart)
            && diagnostic.message.contains(pathPart))
            return true;
    }
    return false;
}

QString dump(const RunManifest& manifest)
{
    QStringList lines;
    for (const Artifact& artifact : manifest.artifacts)
        lines << QStringLiteral("%1 [%2] run=%3 rank=%4")
                     .arg(artifact.relativePath, artifactKindId(artifact.kind), artifact.run,
                          artifact.rank ? QString::number(*artifact.rank) : QStringLiteral("-"));
    for (const Diagnostic& diagnostic : manifest.diagnostics)
        lines << severityId(diagnostic.severity) + QStringLiteral(": ") + diagnostic.message;
    return lines.join(QLatin1Char('\n'));
}

/// Listing of a tree with sizes and modification times (hidden entries included, links not followed).
QStringList snapshot(const QString& root)
{
    QStringList out;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        struct stat st
        {
        };
        ::lstat(QFile::encodeName(info.filePath()).constData(), &st);
        out << QStringLiteral("%1 %2 %3.%4")
                   .arg(info.filePath())
                   .arg(qint64(st.st_size))
                   .arg(qint64(st.st_mtim.tv_sec))
                   .arg(qint64(st.st_mtim.tv_nsec));
    }
    out.sort();
    return out;
}

} // namespace

class TestRunScanner : public QObject
{
    Q_OBJECT

private slots:
    void classify_data();
    void classify();
    void rankFromName_data();
    void rankFromName();
    void worthReading_data();
    void worthReading();

    void groupsRunsLikeTensorBoardAndMindInsight();
    void rootWithEventsOwnsItsSubfolders();
    void fillsPathsSizesAndTimes();
    void parsesRanks();
    void depthLimit_data();
    void depthLimit();
    void entryLimit();
    void symlinkLoopsTerminate();
    void symlinkedFileListedOnce();
    void unreadableEntriesAreReported();
    void garbageNamedLikeEventsIsNotEvents();
    void hiddenEntriesAreSkipped();
    void includeUnknown();
    void singleFile();
    void missingPath();
    void cancellationAndProgress();
    void scanNeverWrites();

    void samplesConformance_data();
    void samplesConformance();
    void survivesTruncatedAndCorruptHeads();

private:
    const RunManifest& samplesManifest(const QString& root);
    std::optional<RunManifest> m_samples;
};

void TestRunScanner::classify_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");

    const QByteArray tbVersion = tfRecord(versionEvent("brain.Event:2"));
    const QByteArray msVersion = tfRecord(versionEvent("MindSpore.Event:1"));
    const QByteArray summaryRecord = tfRecord(protoDouble(1, 1.0) + protoVarint(2, 3) + protoBytes(5, "x"));
    const QByteArray lineageRecord = tfRecord(protoDouble(1, 1.0) + protoBytes(6, protoBytes(1, "opt")));

    // Summary streams: framing verified, the first record's version string decides, names break ties.
    QTest::newRow("tfevents") << tbName() << tbVersion + summaryRecord << "tensorboard-events";
    QTest::newRow("tfevents v2 suffix") << tbName() + QStringLiteral(".v2") << tbVersion << "tensorboard-events";
    QTest::newRow("tfevents profile-empty")
        << tbName() + QStringLiteral(".profile-empty") << tbVersion << "tensorboard-events";
    QTest::newRow("tfevents without version record") << tbName() << summaryRecord << "tensorboard-events";
    QTest::newRow("tb content, no name") << "eventlog" << tbVersion << "tensorboard-events";
    QTest::newRow("ms content, no name") << "eventlog" << msVersion << "mindspore-summary";
    QTest::newRow("ms content wins over tfevents name") << tbName() << msVersion << "mindspore-summary";
    QTest::newRow("_MS") << "events.out.events.summary.1700000000.0.host_MS" << msVersion + summaryRecord
                         << "mindspore-summary";
    QTest::newRow("_MS old naming") << "test.summary.1700000000.host_MS" << summaryRecord << "mindspore-summary";
    QTest::newRow("_lineage") << "events.out.events.summary.1700000000.0.host_lineage" << lineageRecord
                              << "mindspore-lineage";
    QTest::newRow("partial first record") << tbName() << tbVersion.left(14) << "tensorboard-events";
    QTest::newRow("tfrecord dataset") << "train.tfrecord" << summaryRecord << "unknown";
    QTest::newRow("tfevents garbage") << tbName() << QByteArray("this is not a record at all, only text\n")
                                      << "unknown";
    QByteArray badCrc = tbVersion;
    badCrc[9] = char(badCrc[9] ^ 0x55);
    QTest::newRow("tfevents bad length crc") << tbName() << badCrc << "unknown";
    QTest::newRow("tfevents empty") << tbName() << QByteArray() << "unknown";

    // VisualDL: 8-byte length framing without CRCs, only with its file name.
    const QByteArray vdlPayload = protoBytes(1, protoBytes(2, "loss") + protoVarint(1, 3));
    QTest::newRow("vdlrecords") << "vdlrecords.1700000000.log" << le64(quint64(vdlPayload.size())) + vdlPayload
                                << "visualdl-log";
    QTest::newRow("vdlrecords garbage") << "vdlrecords.1700000000.log" << QByteArray("2024-01-01 training log\n")
                                        << "unknown";
    QTest::newRow("vdl framing, other name")
        << "data.log2" << le64(quint64(vdlPayload.size())) + vdlPayload << "unknown";

    // Tensors.
    QTest::newRow("npy") << "w.npy" << npyBytes() << "tensor-npy";
    QTest::newRow("npy without extension") << "tensor" << npyBytes() << "tensor-npy";
    QTest::newRow("npy name, text content") << "w.npy" << QByteArray("1 2 3\n") << "unknown";
    QTest::newRow("npz by name") << "state.npz" << zipWithMember("conv1.weight.npy", npyBytes()) << "tensor-npz";
    QTest::newRow("npz by member") << "state.zip" << zipWithMember("conv1.weight.npy", npyBytes()) << "tensor-npz";
    QTest::newRow("zip of other things") << "model.zip" << zipWithMember("archive/data.pkl", "x") << "unknown";
    QTest::newRow("safetensors") << "model.safetensors"
                                 << safetensorsBytes(R"({"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})")
                                 << "tensor-safetensors";
    QTest::newRow("safetensors no extension")
        << "weights" << safetensorsBytes(R"({"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})")
        << "tensor-safetensors";
    QTest::newRow("safetensors header too long")
        << "model.safetensors" << le64(1 << 20) + QByteArray("{}") << "unknown";

    // Chrome traces and memory timelines, plain and gzip.
    QTest::newRow("kineto object") << "w.pt.trace.json" << kinetoHeader(-1, 1) << "chrome-trace";
    QTest::newRow("kineto gzip") << "w.pt.trace.json.gz" << gzipped(kinetoHeader(3, 4)) << "chrome-trace";
    QTest::newRow("kineto gzip, no .json") << "trace.gz" << gzipped(kinetoHeader(-1, 1)) << "chrome-trace";
    QTest::newRow("tf trace viewer") << "trace.json"
                                     << QByteArray(R"({"displayTimeUnit":"ns","metadata":{"highres-ticks":true},)"
                                                   R"("traceEvents":[{"ph":"X","ts":1,"dur":2,"pid":0,"tid":0},{}]})")
                                     << "chrome-trace";
    QTest::newRow("top-level array") << "worker0.pt.trace.json"
                                     << QByteArray("[\n\n  {\n    \"ph\": \"X\", \"cat\": \"Operator\",\n    \"name\": "
                                                   "\"aten::empty\", \"pid\": 1, \"tid\": \"2\",\n    \"ts\": 16, "
                                                   "\"dur\": 13\n  }\n]")
                                     << "chrome-trace";
    QTest::newRow("array with BOM") << "t.json" << QByteArray("\xEF\xBB\xBF[{\"name\":\"a\",\"ph\":\"B\",\"ts\":0}]")
                                    << "chrome-trace";
    QTest::newRow("traceEvents nested, not top-level")
        << "config.json" << QByteArray(R"({"a":{"traceEvents":[]},"b":1})") << "unknown";
    QTest::newRow("plain json") << "run_facts.json" << QByteArray(R"({"steps": 60, "notes": ["x"]})") << "unknown";
    QTest::newRow("array of objects without ph") << "rows.json" << QByteArray(R"([{"name":"a","ts":1}])") << "unknown";
    QTest::newRow("memory raw gz") << "memory_timeline.raw.gz"
                                   << gzipped("[[-1, 1, 37888, 7], [-1, 1, 512, 7], [12, 2, 1024, 4]]")
                                   << "memory-timeline";
    QTest::newRow("memory raw json") << "mem.raw.json" << QByteArray("[[1, 2, 3, 4], [5, 6, -7, 0]]")
                                     << "memory-timeline";
    QTest::newRow("number triples") << "points.json" << QByteArray("[[1, 2, 3], [4, 5, 6]]") << "unknown";
    QTest::newRow("gzip garbage") << "x.json.gz" << QByteArray("\x1f\x8b\x08\x00garbage", 12) << "unknown";

    // MindSpore profiler output by its documented names (and content: text or JSON).
    QTest::newRow("profiler json") << "profiler/flops_summary_0.json"
                                   << QByteArray(R"({"FLOPs": 8167.7, "FLOPS": 9868.9, "FLOPS_Utilization": 3.7})")
                                   << "profiler-json";
    QTest::newRow("profiler info") << "profiler/profiler_info_3.json" << QByteArray(R"({"rank_id": 3})")
                                   << "profiler-json";
    QTest::newRow("ms timeline display") << "profiler/ascend_timeline_display_0.json"
                                         << QByteArray(R"([{"name": "GetNext", "ph": "X", "tid": "0", "ts": 0.0}])")
                                         << "chrome-trace";
    QTest::newRow("profiler csv") << "profiler/step_trace_raw_0_detail_time.csv"
                                  << QByteArray("step_num,start_point,end_point,total\n1,2,3,4\n") << "profiler-table";
    QTest::newRow("profiler txt") << "profiler/output_timeline_data_1.txt"
                                  << QByteArray("op_name, stream_id, start_time(ms), duration(ms)\nA,1,2,3\n")
                                  << "profiler-table";
    QTest::newRow("2.x generic name in profiler folder")
        << "h_1_2_ascend_ms/ASCEND_PROFILER_OUTPUT/kernel_details.csv" << QByteArray("Step Id,Name,Type\n0,a,b\n")
        << "profiler-table";
    QTest::newRow("generic name elsewhere")
        << "results/kernel_details.csv" << QByteArray("Step Id,Name,Type\n0,a,b\n") << "table";
    QTest::newRow("profiler name, binary content")
        << "profiler/flops_0.txt" << QByteArray("\x00\x01\x02\x03", 4) << "unknown";

    // Tables.
    QTest::newRow("csv header") << "metrics.csv" << QByteArray("step,loss,lr\n0,2.3,0.1\n") << "table";
    QTest::newRow("tsv header") << "metrics.tsv" << QByteArray("step\tloss\n0\t2.3\n") << "table";
    QTest::newRow("csv without header") << "numbers.csv" << QByteArray("0,2.3,0.1\n1,2.2,0.1\n") << "unknown";

    // Graphs as text.
    QTest::newRow("dot") << "g.dot" << QByteArray("digraph G {\n a -> b;\n}\n") << "graph-dot";
    QTest::newRow("dot strict graph") << "g.gv" << QByteArray("strict graph {\n a -- b\n}\n") << "graph-dot";
    QTest::newRow("dot after comments") << "graph.txt"
                                        << QByteArray("/* made by hand */\n// more\ndigraph \"my net\" {\n a -> b\n}\n")
                                        << "graph-dot";
    QTest::newRow("onnx printable graph is not dot")
        << "model.onnx.txt" << QByteArray("graph torch_jit (\n  %image[FLOAT, 1x28]\n) {\n}\n") << "unknown";
    QTest::newRow("torchscript") << "jit.graph.txt"
                                 << QByteArray("graph(%self.1 : __torch__.LeNet,\n      %x : Float(2, 1)):\n  %3 : int "
                                               "= prim::Constant[value=1]()\n  return (%3)\n")
                                 << "graph-torchscript";
    QTest::newRow("fx") << "fx.graph.txt" << QByteArray("graph():\n    %x : [#users=1] = placeholder[target=x]\n")
                        << "graph-torchscript";
    QTest::newRow("ms ir 2.x") << "18_execute_0161.ir"
                               << QByteArray("# IR entry: @19_1___main___Net_construct_304\n# Total subgraphs: 3\n")
                               << "graph-mindspore-ir";
    QTest::newRow("ms ir 1.x") << "00_parse_0000.ir"
                               << QByteArray("#IR entry      : @1_construct_wrapper.21\n#attrs         :\n")
                               << "graph-mindspore-ir";
    QTest::newRow("ms ir fragment") << "fragment.ir"
                                    << QByteArray("  %20(equivoutput) = Conv2D(%17, %19) {instance name: conv2d}\n")
                                    << "graph-mindspore-ir";
    QTest::newRow("ms dat") << "00_parse_0000.dat"
                            << QByteArray(
                                   "# [No.1] 1_construct_wrapper.21\nfuncgraph fg_21(\n  %para1 : Tensor(F32)[]\n")
                            << "graph-mindspore-ir";
    QTest::newRow("graphdef pbtxt") << "graph.pbtxt"
                                    << QByteArray("node {\n  name: \"x\"\n  op: \"Placeholder\"\n}\nversions {\n}\n")
                                    << "graph-tensorflow";
    QTest::newRow("pbtxt of something else")
        << "projector_config.pbtxt" << QByteArray("embeddings {\n  tensor_name: \"a\"\n}\n") << "unknown";
    QTest::newRow("plain text") << "notes.txt" << QByteArray("loss went down, then up\n") << "unknown";

    // Graphs as protobuf.
    QTest::newRow("onnx") << "model.onnx" << onnxBytes() << "graph-onnx";
    QTest::newRow("onnx without extension") << "model" << onnxBytes() << "graph-onnx";
    QTest::newRow("onnx name, garbage") << "model.onnx" << QByteArray("\x01\x02garbage", 9) << "unknown";
    QTest::newRow("anf_ir model") << "graph_0.pb" << anfModelBytes() << "graph-anf-ir";
    QTest::newRow("ms debugger graph") << "lenet.pb" << anfBareGraphBytes() << "graph-anf-ir";
    QTest::newRow("tf graphdef") << "frozen.pb" << tfGraphDefBytes() << "graph-tensorflow";
    QTest::newRow("graphdef shape named ms_output")
        << "ms_output_trace_code_graph_0.pb" << tfGraphDefBytes() << "graph-anf-ir";
    QTest::newRow("memory_usage pb") << "memory_usage_0.pb" << anfBareGraphBytes() << "unknown";
    QTest::newRow("graph-like bytes without .pb") << "blob" << tfGraphDefBytes() << "unknown";
}

void TestRunScanner::classify()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const QByteArray head = bytes.left(qsizetype(FileSniffer::kHeadSize));
    QCOMPARE(artifactKindId(RunScanner::classify(name, head, bytes.size())), expected);
}

void TestRunScanner::rankFromName_data()
{
    QTest::addColumn<QString>("component");
    QTest::addColumn<int>("rank"); // -1: none

    QTest::newRow("rank_N") << "rank_3" << 3;
    QTest::newRow("rank-N") << "rank-12" << 12;
    QTest::newRow("rankN") << "rank7" << 7;
    QTest::newRow("upper case") << "RANK_0" << 0;
    QTest::newRow("mixed case") << "Rank5" << 5;
    QTest::newRow("prefix of a file name") << "rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz" << 34;
    QTest::newRow("after separator") << "worker_rank2" << 2;
    QTest::newRow("inside a word") << "frank3" << -1;
    QTest::newRow("rank_size") << "rank_size" << -1;
    QTest::newRow("ranks") << "ranks" << -1;
    QTest::newRow("no digits") << "rank_" << -1;
    QTest::newRow("too long") << "rank_12345678901" << -1;
}

void TestRunScanner::rankFromName()
{
    QFETCH(QString, component);
    QFETCH(int, rank);
    const QByteArray bytes = component.toUtf8();
    const std::optional<int> got = FileSniffer::rankFromName(std::string_view(bytes.constData(), bytes.size()));
    QCOMPARE(got.value_or(-1), rank);
}

void TestRunScanner::worthReading_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("worth");

    QTest::newRow("event file") << "events.out.tfevents.1700000000.host.1.0" << true;
    QTest::newRow("ms summary") << "events.out.events.summary.1700000000.0.host_MS" << true;
    QTest::newRow("no extension") << "blob" << true;
    QTest::newRow("numeric extension") << "data.0" << true;
    QTest::newRow("json.gz") << "w.pt.trace.json.gz" << true;
    QTest::newRow("raw.gz") << "memory_timeline.raw.gz" << true;
    QTest::newRow("txt") << "fx.graph.txt" << true;
    QTest::newRow("vdl log") << "vdlrecords.1700000000.log" << true;
    QTest::newRow("python") << "train.py" << false;
    QTest::newRow("image") << "plot.PNG" << false;
    QTest::newRow("checkpoint") << "model.pt" << false;
    QTest::newRow("training log") << "train.log" << false;
    QTest::newRow("tar.gz") << "logs.tar.gz" << false;
    QTest::newRow("event file that looks like python") << "events.out.tfevents.1.host.py" << true;
}

void TestRunScanner::worthReading()
{
    QFETCH(QString, name);
    QFETCH(bool, worth);
    const QByteArray bytes = name.toUtf8();
    QCOMPARE(FileSniffer::worthReading(std::string_view(bytes.constData(), bytes.size())), worth);
}

void TestRunScanner::groupsRunsLikeTensorBoardAndMindInsight()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString root = dir.path();
    QVERIFY(writeEvents(root + QStringLiteral("/exp1/") + tbName()));
    QVERIFY(writeFile(root + QStringLiteral("/exp1/graph/model.onnx"), onnxBytes()));
    QVERIFY(writeEvents(root + QStringLiteral("/hparams_search/") + tbName(0)));
    QVERIFY(writeEvents(root + QStringLiteral("/hparams_search/1771595857.3236299/") + tbName(1)));
    QVERIFY(writeFile(root + QStringLiteral("/dumps/step_0/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/metrics.csv"), "step,loss\n0,1\n"));
    QVERIFY(writeEvents(root + QStringLiteral("/ms/")
                            + EventFileWriter::mindSporeFileName(1700000000, 0, QStringLiteral("h")),
                        SummaryFlavor::MindSpore));
    QVERIFY(writeFile(root + QStringLiteral("/ms/events.out.events.summary.1700000000.0.h_lineage"),
                      tfRecord(protoDouble(1, 1.0) + protoBytes(6, protoBytes(1, "opt")))));
    QVERIFY(writeFile(root + QStringLiteral("/ms/deeper/not_a_run/graph.dot"), "digraph g { a -> b }"));

    const RunManifest manifest = RunScanner().scan(root);
    const QString listing = dump(manifest);

    const std::map<QString, QString> expectedRuns = {
        { QStringLiteral("exp1/") + tbName(), QStringLiteral("exp1") },
        { QStringLiteral("exp1/graph/model.onnx"), QStringLiteral("exp1") },
        { QStringLiteral("hparams_search/") + tbName(0), QStringLiteral("hparams_search") },
        { QStringLiteral("hparams_search/1771595857.3236299/") + tbName(1),
          QStringLiteral("hparams_search/1771595857.3236299") },
        { QStringLiteral("dumps/step_0/w.npy"), QStringLiteral("dumps") },
        { QStringLiteral("metrics.csv"), QStringLiteral(".") },
        { QStringLiteral("ms/") + EventFileWriter::mindSporeFileName(1700000000, 0, QStringLiteral("h")),
          QStringLiteral("ms") },
        { QStringLiteral("ms/events.out.events.summary.1700000000.0.h_lineage"), QStringLiteral("ms") },
        { QStringLiteral("ms/deeper/not_a_run/graph.dot"), QStringLiteral("ms") },
    };
    QCOMPARE(manifest.artifacts.size(), qsizetype(expectedRuns.size()));
    for (const auto& [path, run] : expectedRuns) {
        const Artifact* artifact = findArtifact(manifest, path);
        QVERIFY2(artifact, qPrintable(path + QStringLiteral(" missing in\n") + listing));
        QVERIFY2(artifact->run == run,
                 qPrintable(path + QStringLiteral(" -> ") + artifact->run + QStringLiteral("\n") + listing));
    }
    QCOMPARE(findArtifact(manifest, QStringLiteral("ms/events.out.events.summary.1700000000.0.h_lineage"))->kind,
             ArtifactKind::MindSporeLineage);

    // Sorted by run, then relative path; runs() lists each run once.
    for (qsizetype i = 1; i < manifest.artifacts.size(); ++i) {
        const Artifact& a = manifest.artifacts[i - 1];
        const Artifact& b = manifest.artifacts[i];
        QVERIFY2(a.run < b.run || (a.run == b.run && a.relativePath < b.relativePath), qPrintable(listing));
    }
    QCOMPARE(manifest.runs(),
             (QStringList { QStringLiteral("."), QStringLiteral("dumps"), QStringLiteral("exp1"),
                            QStringLiteral("hparams_search"), QStringLiteral("hparams_search/1771595857.3236299"),
                            QStringLiteral("ms") }));
    QVERIFY(!manifest.truncated);
    QVERIFY2(manifest.diagnostics.isEmpty(), qPrintable(listing));
}

void TestRunScanner::rootWithEventsOwnsItsSubfolders()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeEvents(root + QLatin1Char('/') + tbName()));
    QVERIFY(writeFile(root + QStringLiteral("/tensors/a/w.npy"), npyBytes()));
    QVERIFY(writeEvents(root + QStringLiteral("/sub/run2/") + tbName()));
    QVERIFY(writeFile(root + QStringLiteral("/sub/run2/dump/w.npy"), npyBytes()));

    const RunManifest manifest = RunScanner().scan(root);
    QCOMPARE(manifest.artifacts.size(), 4);
    QCOMPARE(findArtifact(manifest, tbName())->run, QStringLiteral("."));
    QCOMPARE(findArtifact(manifest, QStringLiteral("tensors/a/w.npy"))->run, QStringLiteral("."));
    QCOMPARE(findArtifact(manifest, QStringLiteral("sub/run2/") + tbName())->run, QStringLiteral("sub/run2"));
    QCOMPARE(findArtifact(manifest, QStringLiteral("sub/run2/dump/w.npy"))->run, QStringLiteral("sub/run2"));
    QCOMPARE(manifest.runs(), (QStringList { QStringLiteral("."), QStringLiteral("sub/run2") }));
}

void TestRunScanner::fillsPathsSizesAndTimes()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    const QString file = root + QStringLiteral("/a b/ünï/w.npy");
    QVERIFY(writeFile(file, npyBytes()));

    const RunManifest manifest = RunScanner().scan(root + QStringLiteral("/./"));
    QCOMPARE(manifest.root, QDir::cleanPath(root));
    QCOMPARE(manifest.artifacts.size(), 1);
    const Artifact& artifact = manifest.artifacts.front();
    QCOMPARE(artifact.relativePath, QStringLiteral("a b/ünï/w.npy"));
    QCOMPARE(artifact.path, QDir::cleanPath(file));
    QCOMPARE(artifact.size, QFileInfo(file).size());
    QCOMPARE(artifact.modified.toMSecsSinceEpoch(), QFileInfo(file).lastModified().toMSecsSinceEpoch());
    QCOMPARE(manifest.indexOfPath(QDir::cleanPath(file)), 0);
    QVERIFY(manifest.entriesVisited >= 3);
}

void TestRunScanner::parsesRanks()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeFile(root + QStringLiteral("/dump/rank_0/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/dump/rank-1/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/dump/Rank2/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/dump/RANK_3/net/0/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/dump/ranks/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/traces/rank_7/w.pt.trace.json"), kinetoHeader(5, 1)));
    QVERIFY(writeFile(root + QStringLiteral("/traces/long/w.pt.trace.json"), kinetoHeader(9, 60)));
    QVERIFY(kinetoHeader(9, 60).indexOf("distributedInfo") > qsizetype(FileSniffer::kHeadSize));
    QVERIFY(writeFile(root + QStringLiteral("/traces/long/w2.pt.trace.json.gz"), gzipped(kinetoHeader(11, 600))));
    QVERIFY(writeFile(root + QStringLiteral("/traces/rank-4.Jul_15.pt.trace.json"), kinetoHeader(-1, 1)));
    // A log array ahead of the Kineto keys: the first 4 KiB cannot tell, a second, longer read does.
    QByteArray logFirst
        = "{\"INFO\": [" + QByteArray(6000, 'x').replace('x', "\"line\", ") + "\"end\"]," + kinetoHeader(13, 1).mid(1);
    QVERIFY(writeFile(root + QStringLiteral("/traces/meta/w.json"), logFirst));
    QCOMPARE(RunScanner::classify(QStringLiteral("w.json"), logFirst.left(4096), logFirst.size()),
             ArtifactKind::Unknown);
    QVERIFY(writeFile(root + QStringLiteral("/traces/single.pt.trace.json"), kinetoHeader(-1, 1)));
    QVERIFY(writeFile(root + QStringLiteral("/profiler/profiler_info_6.json"), R"({"rank_id": 6})"));
    QVERIFY(writeFile(root + QStringLiteral("/profiler/step_trace_raw_10_detail_time.csv"), "step_num,total\n1,2\n"));

    const RunManifest manifest = RunScanner().scan(root);
    const QString listing = dump(manifest);
    const std::map<QString, int> expected = {
        { QStringLiteral("dump/rank_0/w.npy"), 0 },
        { QStringLiteral("dump/rank-1/w.npy"), 1 },
        { QStringLiteral("dump/Rank2/w.npy"), 2 },
        { QStringLiteral("dump/RANK_3/net/0/w.npy"), 3 },
        { QStringLiteral("dump/ranks/w.npy"), -1 },
        { QStringLiteral("traces/rank_7/w.pt.trace.json"), 5 }, // the file's own distributedInfo wins
        { QStringLiteral("traces/long/w.pt.trace.json"), 9 }, // past the first 4 KiB
        { QStringLiteral("traces/long/w2.pt.trace.json.gz"), 11 },
        { QStringLiteral("traces/rank-4.Jul_15.pt.trace.json"), 4 },
        { QStringLiteral("traces/meta/w.json"), 13 },
        { QStringLiteral("traces/single.pt.trace.json"), -1 },
        { QStringLiteral("profiler/profiler_info_6.json"), 6 },
        { QStringLiteral("profiler/step_trace_raw_10_detail_time.csv"), 10 },
    };
    QCOMPARE(manifest.artifacts.size(), qsizetype(expected.size()));
    for (const auto& [path, rank] : expected) {
        const Artifact* artifact = findArtifact(manifest, path);
        QVERIFY2(artifact, qPrintable(path + QStringLiteral(" missing in\n") + listing));
        QVERIFY2(artifact->rank.value_or(-1) == rank, qPrintable(path + QStringLiteral("\n") + listing));
    }

    // The opened folder's own name counts too.
    const RunManifest inside = RunScanner().scan(root + QStringLiteral("/dump/rank-1"));
    QCOMPARE(inside.artifacts.size(), 1);
    QCOMPARE(inside.artifacts.front().rank.value_or(-1), 1);
}

void TestRunScanner::depthLimit_data()
{
    QTest::addColumn<int>("maxDepth");
    QTest::addColumn<int>("expectedFiles");
    QTest::addColumn<bool>("expectDiagnostic");

    // One file at the root and one in each of d1 .. d1/.../d10.
    QTest::newRow("0") << 0 << 1 << true;
    QTest::newRow("1") << 1 << 2 << true;
    QTest::newRow("3") << 3 << 4 << true;
    QTest::newRow("default 8") << RunScanner::Options().maxDepth << 9 << true;
    QTest::newRow("10") << 10 << 11 << false;
}

void TestRunScanner::depthLimit()
{
    QFETCH(int, maxDepth);
    QFETCH(int, expectedFiles);
    QFETCH(bool, expectDiagnostic);

    QTemporaryDir dir;
    QString path = dir.path();
    QVERIFY(writeFile(path + QStringLiteral("/w.npy"), npyBytes()));
    for (int level = 1; level <= 10; ++level) {
        path += QStringLiteral("/d%1").arg(level);
        QVERIFY(writeFile(path + QStringLiteral("/w.npy"), npyBytes()));
    }
    RunScanner::Options options;
    options.maxDepth = maxDepth;
    const RunManifest manifest = RunScanner(options).scan(dir.path());
    QCOMPARE(manifest.artifacts.size(), qsizetype(expectedFiles));
    QVERIFY(!manifest.truncated);
    if (expectDiagnostic) {
        QCOMPARE(manifest.diagnostics.size(), 1);
        const Diagnostic& diagnostic = manifest.diagnostics.front();
        QCOMPARE(diagnostic.severity, Severity::Info);
        QVERIFY2(diagnostic.file.endsWith(QStringLiteral("/d%1").arg(maxDepth + 1)), qPrintable(diagnostic.file));
        QVERIFY(diagnostic.message.contains(diagnostic.file));
    } else {
        QVERIFY(manifest.diagnostics.isEmpty());
    }
}

void TestRunScanner::entryLimit()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    for (int i = 0; i < 30; ++i)
        QVERIFY(writeFile(root + QStringLiteral("/sub/w%1.npy").arg(i), npyBytes()));

    RunScanner::Options options;
    options.maxEntries = 20;
    const RunManifest limited = RunScanner(options).scan(root);
    QVERIFY(limited.truncated);
    QCOMPARE(limited.entriesVisited, 20);
    QCOMPARE(limited.artifacts.size(), 19); // "sub" itself is one entry
    QVERIFY(hasDiagnostic(limited, Severity::Warning, QDir::cleanPath(root)));

    options.maxEntries = 31; // exactly enough
    const RunManifest exact = RunScanner(options).scan(root);
    QVERIFY(!exact.truncated);
    QCOMPARE(exact.entriesVisited, 31);
    QCOMPARE(exact.artifacts.size(), 30);
    QVERIFY(exact.diagnostics.isEmpty());
}

void TestRunScanner::symlinkLoopsTerminate()
{
    QTemporaryDir dir;
    QTemporaryDir outside;
    const QString root = dir.path();
    QVERIFY(writeFile(root + QStringLiteral("/a/w.npy"), npyBytes()));
    QVERIFY(QFile::link(root, root + QStringLiteral("/a/loop"))); // back to the root
    QVERIFY(QFile::link(root + QStringLiteral("/a"), root + QStringLiteral("/b"))); // a second way into a
    QVERIFY(writeFile(outside.path() + QStringLiteral("/ext/x.npy"), npyBytes()));
    QVERIFY(QFile::link(outside.path() + QStringLiteral("/ext"), outside.path() + QStringLiteral("/ext/self")));
    QVERIFY(QFile::link(outside.path() + QStringLiteral("/ext"), root + QStringLiteral("/linked")));
    QVERIFY(QFile::link(root + QStringLiteral("/nowhere"), root + QStringLiteral("/dangling")));

    const RunManifest manifest = RunScanner().scan(root);
    const QString listing = dump(manifest);
    QCOMPARE(manifest.artifacts.size(), 2);
    QVERIFY2(findArtifact(manifest, QStringLiteral("a/w.npy")), qPrintable(listing));
    QVERIFY2(findArtifact(manifest, QStringLiteral("linked/x.npy")), qPrintable(listing)); // followed once
    QVERIFY(!manifest.truncated);
    QVERIFY2(hasDiagnostic(manifest, Severity::Warning, QStringLiteral("/a/loop")), qPrintable(listing));
    QVERIFY2(hasDiagnostic(manifest, Severity::Warning, QStringLiteral("/linked/self")), qPrintable(listing));
    QVERIFY2(hasDiagnostic(manifest, Severity::Info, QStringLiteral("/b")), qPrintable(listing));
}

void TestRunScanner::symlinkedFileListedOnce()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeEvents(root + QStringLiteral("/run/") + tbName()));
    QVERIFY(QFile::link(root + QStringLiteral("/run/") + tbName(), root + QStringLiteral("/run/latest")));
    QTemporaryDir outside;
    QVERIFY(writeFile(outside.path() + QStringLiteral("/w.npy"), npyBytes()));
    QVERIFY(QFile::link(outside.path() + QStringLiteral("/w.npy"), root + QStringLiteral("/run/w.npy")));

    const RunManifest manifest = RunScanner().scan(root);
    QCOMPARE(manifest.artifacts.size(), 2);
    QVERIFY(findArtifact(manifest, QStringLiteral("run/") + tbName()));
    QVERIFY(findArtifact(manifest, QStringLiteral("run/w.npy"))); // a link to a file outside is listed
}

void TestRunScanner::unreadableEntriesAreReported()
{
    if (::geteuid() == 0)
        QSKIP("Running as root: permission bits do not stop root from reading, so no unreadable folder can be made");

    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeFile(root + QStringLiteral("/ok/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/locked/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/ok/secret.npy"), npyBytes()));
    const QByteArray locked = QFile::encodeName(root + QStringLiteral("/locked"));
    const QByteArray secret = QFile::encodeName(root + QStringLiteral("/ok/secret.npy"));
    QCOMPARE(::chmod(locked.constData(), 0), 0);
    QCOMPARE(::chmod(secret.constData(), 0), 0);

    const RunManifest manifest = RunScanner().scan(root);
    ::chmod(locked.constData(), 0755);
    ::chmod(secret.constData(), 0644);

    const QString listing = dump(manifest);
    QCOMPARE(manifest.artifacts.size(), 1);
    QVERIFY(findArtifact(manifest, QStringLiteral("ok/w.npy")));
    QVERIFY2(hasDiagnostic(manifest, Severity::Warning, root + QStringLiteral("/locked")), qPrintable(listing));
    QVERIFY2(hasDiagnostic(manifest, Severity::Warning, root + QStringLiteral("/ok/secret.npy")), qPrintable(listing));
}

void TestRunScanner::garbageNamedLikeEventsIsNotEvents()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeFile(root + QStringLiteral("/run/") + tbName(), "not a TFRecord, just some bytes\n"));
    QVERIFY(writeFile(root + QStringLiteral("/run/") + tbName(1), QByteArray()));
    QVERIFY(writeFile(root + QStringLiteral("/run/model.onnx"), "<html>not found</html>"));

    const RunManifest manifest = RunScanner().scan(root);
    const QString listing = dump(manifest);
    QVERIFY2(manifest.artifacts.isEmpty(), qPrintable(listing));
    QVERIFY2(hasDiagnostic(manifest, Severity::Warning, tbName()), qPrintable(listing));
    QVERIFY2(hasDiagnostic(manifest, Severity::Info, tbName(1)), qPrintable(listing)); // empty: not written yet
    QVERIFY2(hasDiagnostic(manifest, Severity::Warning, QStringLiteral("model.onnx")), qPrintable(listing));

    RunScanner::Options options;
    options.includeUnknown = true;
    const RunManifest all = RunScanner(options).scan(root);
    QCOMPARE(all.artifacts.size(), 3);
    for (const Artifact& artifact : all.artifacts)
        QCOMPARE(artifact.kind, ArtifactKind::Unknown);
}

void TestRunScanner::hiddenEntriesAreSkipped()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeEvents(root + QStringLiteral("/.git/objects/") + tbName()));
    QVERIFY(writeFile(root + QStringLiteral("/run/.ipynb_checkpoints/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/run/._w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/run/w.npy"), npyBytes()));

    const RunManifest manifest = RunScanner().scan(root);
    QCOMPARE(manifest.artifacts.size(), 1);
    QCOMPARE(manifest.artifacts.front().relativePath, QStringLiteral("run/w.npy"));

    // A hidden folder opened on purpose is scanned.
    const RunManifest hidden = RunScanner().scan(root + QStringLiteral("/.git"));
    QCOMPARE(hidden.artifacts.size(), 1);
    QCOMPARE(hidden.artifacts.front().run, QStringLiteral("objects"));
}

void TestRunScanner::includeUnknown()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeFile(root + QStringLiteral("/train.py"), "print(1)\n"));
    QVERIFY(writeFile(root + QStringLiteral("/notes.txt"), "hello\n"));
    QVERIFY(writeFile(root + QStringLiteral("/w.npy"), npyBytes()));

    QCOMPARE(RunScanner().scan(root).artifacts.size(), 1);
    RunScanner::Options options;
    options.includeUnknown = true;
    const RunManifest all = RunScanner(options).scan(root);
    QCOMPARE(all.artifacts.size(), 3);
    QCOMPARE(findArtifact(all, QStringLiteral("train.py"))->kind, ArtifactKind::Unknown);
    QCOMPARE(findArtifact(all, QStringLiteral("train.py"))->size, 9);
    QCOMPARE(findArtifact(all, QStringLiteral("w.npy"))->kind, ArtifactKind::TensorNpy);
}

void TestRunScanner::singleFile()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    const QString events = root + QStringLiteral("/rank_2/") + tbName();
    QVERIFY(writeEvents(events));
    QVERIFY(writeFile(root + QStringLiteral("/rank_2/other.npy"), npyBytes()));

    const RunManifest manifest = RunScanner().scan(events);
    QCOMPARE(manifest.root, root + QStringLiteral("/rank_2"));
    QCOMPARE(manifest.artifacts.size(), 1);
    const Artifact& artifact = manifest.artifacts.front();
    QCOMPARE(artifact.kind, ArtifactKind::TensorBoardEvents);
    QCOMPARE(artifact.path, events);
    QCOMPARE(artifact.relativePath, tbName());
    QCOMPARE(artifact.run, QStringLiteral("."));
    QCOMPARE(artifact.rank.value_or(-1), 2);
    QCOMPARE(artifact.size, QFileInfo(events).size());
    QVERIFY(manifest.diagnostics.isEmpty());

    // A file the user picked is read whatever its name says.
    QVERIFY(writeFile(root + QStringLiteral("/trace.log"), kinetoHeader(1, 1)));
    const RunManifest renamed = RunScanner().scan(root + QStringLiteral("/trace.log"));
    QCOMPARE(renamed.artifacts.size(), 1);
    QCOMPARE(renamed.artifacts.front().kind, ArtifactKind::ChromeTrace);

    QVERIFY(writeFile(root + QStringLiteral("/notes.txt"), "hello\n"));
    const RunManifest unknown = RunScanner().scan(root + QStringLiteral("/notes.txt"));
    QVERIFY(unknown.artifacts.isEmpty());
    QVERIFY(hasDiagnostic(unknown, Severity::Warning, QStringLiteral("notes.txt")));
}

void TestRunScanner::missingPath()
{
    QTemporaryDir dir;
    const QString missing = dir.path() + QStringLiteral("/does-not-exist");
    const RunManifest manifest = RunScanner().scan(missing);
    QVERIFY(manifest.artifacts.isEmpty());
    QVERIFY(hasDiagnostic(manifest, Severity::Error, missing));
    QVERIFY(hasDiagnostic(RunScanner().scan(QString()), Severity::Error, QString()));
}

void TestRunScanner::cancellationAndProgress()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    for (int i = 0; i < 20; ++i)
        QVERIFY(writeFile(root + QStringLiteral("/d%1/w.npy").arg(i), npyBytes()));

    QList<int> reports;
    ImportControl control;
    control.progress = [&](int permille) { reports.append(permille); };
    const RunManifest full = RunScanner().scan(root, control);
    QCOMPARE(full.artifacts.size(), 20);
    QVERIFY(reports.size() >= 3);
    QCOMPARE(reports.constFirst(), 0);
    QCOMPARE(reports.constLast(), 1000);
    QVERIFY(std::is_sorted(reports.cbegin(), reports.cend()));

    std::atomic_bool cancel { true };
    control.cancel = &cancel;
    const RunManifest canceled = RunScanner().scan(root, control);
    QVERIFY(canceled.truncated);
    QVERIFY(canceled.artifacts.isEmpty());
    QVERIFY(hasDiagnostic(canceled, Severity::Info, QDir::cleanPath(root)));
}

void TestRunScanner::scanNeverWrites()
{
    QTemporaryDir dir;
    const QString root = dir.path();
    QVERIFY(writeEvents(root + QStringLiteral("/run/") + tbName()));
    QVERIFY(writeFile(root + QStringLiteral("/run/trace.pt.trace.json.gz"), gzipped(kinetoHeader(2, 100))));
    QVERIFY(writeFile(root + QStringLiteral("/run/w.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/run/.hidden/x.npy"), npyBytes()));
    QVERIFY(writeFile(root + QStringLiteral("/run/train.py"), "pass\n"));
    QVERIFY(QFile::link(root + QStringLiteral("/run"), root + QStringLiteral("/alias")));

    const QStringList before = snapshot(root);
    RunScanner::Options options;
    options.includeUnknown = true;
    const RunManifest manifest = RunScanner(options).scan(root);
    QVERIFY(!manifest.artifacts.isEmpty());
    QCOMPARE(snapshot(root), before);
}

// --- Conformance with the real sample files ----------------------------------------------------------------------

const RunManifest& TestRunScanner::samplesManifest(const QString& root)
{
    if (!m_samples)
        m_samples = RunScanner().scan(root);
    return *m_samples;
}

void TestRunScanner::samplesConformance_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("kind"); // "" = must not be listed
    QTest::addColumn<QString>("run");
    QTest::addColumn<int>("rank");

    struct Row
    {
        const char* path;
        const char* kind;
        const char* run;
        int rank;
    };
    // Runs follow the samples root: event folders are runs, everything else goes to its top folder.
    static const Row rows[] = {
        // TensorBoard events from torch 2.x, TF2 (.v2), stable-baselines3, add_hparams sub-run, add_graph.
        { "summaries/tensorboard/torch2_scalars/events.out.tfevents.1771594466.zyzkings.21024.0", "tensorboard-events",
          "summaries/tensorboard/torch2_scalars", -1 },
        { "summaries/tensorboard/torch2_images/events.out.tfevents.1771595107.zyzkings.11980.0", "tensorboard-events",
          "summaries/tensorboard/torch2_images", -1 },
        { "summaries/tensorboard/torch2_pr_curve/events.out.tfevents.1771596445.zyzkings.30376.0", "tensorboard-events",
          "summaries/tensorboard/torch2_pr_curve", -1 },
        { "summaries/tensorboard/torch2_hparams/events.out.tfevents.1771595857.zyzkings.1216.0", "tensorboard-events",
          "summaries/tensorboard/torch2_hparams", -1 },
        { "summaries/tensorboard/torch2_hparams/events.out.tfevents.1771595857.zyzkings.1216.1", "tensorboard-events",
          "summaries/tensorboard/torch2_hparams", -1 },
        { "summaries/tensorboard/tf2_tensor_scalars/events.out.tfevents.1585499054.Jaakkos-Mac-mini.local.11684.5.v2",
          "tensorboard-events", "summaries/tensorboard/tf2_tensor_scalars", -1 },
        { "summaries/tensorboard/sb3_ppo/events.out.tfevents.1616744700.94ca43182e2d.702.0", "tensorboard-events",
          "summaries/tensorboard/sb3_ppo", -1 },
        { "graphs/torch_add_graph_event/events.out.tfevents.1771596179.zyzkings.9384.0", "tensorboard-events",
          "graphs/torch_add_graph_event", -1 },
        { "runs/pytorch_cnn_baseline/tb/events.out.tfevents.1795321629.vm.1522.0", "tensorboard-events",
          "runs/pytorch_cnn_baseline/tb", -1 },
        // MindSpore summaries: valid, truncated tail, bad payload CRC, nested, lineage.
        { "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_MS",
          "mindspore-summary", "summaries/mindspore_generated/run_a", -1 },
        { "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_lineage",
          "mindspore-lineage", "summaries/mindspore_generated/run_a", -1 },
        { "summaries/mindspore_generated/run_a/nested_not_scanned/events.out.events.summary.1700000100.0.helperhost_MS",
          "mindspore-summary", "summaries/mindspore_generated/run_a/nested_not_scanned", -1 },
        { "summaries/mindspore_generated/run_truncated/events.out.events.summary.1700000200.0.helperhost_MS",
          "mindspore-summary", "summaries/mindspore_generated/run_truncated", -1 },
        { "summaries/mindspore_generated/run_bad_crc/events.out.events.summary.1700000300.0.helperhost_MS",
          "mindspore-summary", "summaries/mindspore_generated/run_bad_crc", -1 },
        // Kineto and legacy torch traces, plain and gzip; ranks from distributedInfo.
        { "traces/kineto/2020_toplevel_array/worker0.pt.trace.json.gz", "chrome-trace", "traces", -1 },
        { "traces/kineto/2021_resnet50_v100/worker0.1623143089861.pt.trace.json.gz", "chrome-trace", "traces", -1 },
        { "traces/kineto/2021_fixture_computeProperties/gpu_metrics_input.json", "chrome-trace", "traces", -1 },
        { "traces/kineto/2022_memory_rank1_of_2/df_index_resolver.json.gz", "chrome-trace", "traces", 1 },
        { "traces/kineto/2024_nccl_rank0_of_2/nccl_data.json.gz", "chrome-trace", "traces", 0 },
        { "traces/kineto/ns_resolution/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", "chrome-trace", "traces", 0 },
        { "traces/kineto/amd_mi250/mi250_minitoy_train_ROCm6_2_kineto.json.gz", "chrome-trace", "traces", -1 },
        { "traces/kineto/triton/triton_example.json.gz", "chrome-trace", "traces", -1 },
        { "traces/kineto/cpu_only_rank34_of_300/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", "chrome-trace",
          "traces", 34 },
        { "traces/memory_timeline/memory_timeline.raw.gz", "memory-timeline", "traces", -1 },
        { "runs/pytorch_cnn_baseline/profiler/worker0.1795321630770.pt.trace.json", "chrome-trace", "runs", -1 },
        { "runs/pytorch_cnn_baseline/profiler/worker0.1795321630770.pt.trace.json.gz", "chrome-trace", "runs", -1 },
        { "runs/pytorch_cnn_baseline/profiler/worker0.1795321630770.pt.trace.kinetofmt.json", "chrome-trace", "runs",
          -1 },
        { "runs/pytorch_cnn_baseline/profiler/worker0.1795321632690.pt.trace.kinetofmt.json", "chrome-trace", "runs",
          -1 },
        // Graphs.
        { "graphs/onnx/light_resnet50.onnx", "graph-onnx", "graphs", -1 },
        { "graphs/onnx/light_inception_v1.onnx", "graph-onnx", "graphs", -1 },
        { "graphs/onnx/mnist-8.onnx", "graph-onnx", "graphs", -1 },
        { "graphs/onnx/test_loop11/model.onnx", "graph-onnx", "graphs", -1 },
        { "graphs/onnx/test_attention_4d_expanded/model.onnx", "graph-onnx", "graphs", -1 },
        { "runs/pytorch_cnn_baseline/graph/model.onnx", "graph-onnx", "runs", -1 },
        { "graphs/tensorflow/resnet_8_simple.pbtxt", "graph-tensorflow", "graphs", -1 },
        { "graphs/tensorflow/graphdef_foo.pbtxt", "graph-tensorflow", "graphs", -1 },
        { "graphs/mindspore_debug_graph_pb/lenet.pb", "graph-anf-ir", "graphs", -1 },
        { "graphs/mindspore_dot/ir.dot", "graph-dot", "graphs", -1 },
        { "graphs/mindspore_dot/cf.dot", "graph-dot", "graphs", -1 },
        { "graphs/dot/example.dot", "graph-dot", "graphs", -1 },
        { "runs/pytorch_cnn_baseline/graph/fx.graph.dot", "graph-dot", "runs", -1 },
        { "runs/pytorch_cnn_baseline/graph/model.onnx.dot", "graph-dot", "runs", -1 },
        { "graphs/mindspore_ir/mindir.md.ex1_18_execute_0161.ir", "graph-mindspore-ir", "graphs", -1 },
        { "graphs/mindspore_ir/mindir.md.ex6_analyze_fail_biasadd_shape.ir", "graph-mindspore-ir", "graphs", -1 },
        { "graphs/mindspore_ir/read_ir_files.md.ex1_ms1x_format.ir", "graph-mindspore-ir", "graphs", -1 },
        { "graphs/mindspore_ir/read_ir_files.md.ex3_ms1x_format.dat", "graph-mindspore-ir", "graphs", -1 },
        { "graphs/mindspore_ir/recompute.md.ex2_fragment_no_recompute.ir", "graph-mindspore-ir", "graphs", -1 },
        { "graphs/mindspore_ir/dump.md.ex4_fragment_kernel_graph_conv2d.ir", "graph-mindspore-ir", "graphs", -1 },
        { "graphs/torchscript/TestJit.test_alexnet.expect", "graph-torchscript", "graphs", -1 },
        { "runs/pytorch_cnn_baseline/graph/jit_trace.graph.txt", "graph-torchscript", "runs", -1 },
        { "runs/pytorch_cnn_baseline/graph/jit_trace.inlined_graph.txt", "graph-torchscript", "runs", -1 },
        { "runs/pytorch_cnn_baseline/graph/fx.graph.txt", "graph-torchscript", "runs", -1 },
        // Tensors.
        { "runs/pytorch_cnn_baseline/dump/step_0/conv1.weight.npy", "tensor-npy", "runs", -1 },
        { "runs/pytorch_cnn_baseline/dump/step_30/fc1.weight_fp16.npy", "tensor-npy", "runs", -1 },
        { "runs/pytorch_cnn_baseline/dump/step_59/batch.target.npy", "tensor-npy", "runs", -1 },
        { "runs/pytorch_cnn_baseline/state_dict.npz", "tensor-npz", "runs", -1 },
        { "runs/pytorch_cnn_baseline/state_dict.compressed.npz", "tensor-npz", "runs", -1 },
        // MindSpore profiler folders; ranks from the `_{rank}` suffixes.
        { "profiler/mindspore/run_1_profiler/aicore_intermediate_1_detail.csv", "profiler-table", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/aicore_intermediate_1_type.csv", "profiler-table", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/flops_1.txt", "profiler-table", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/framework_raw_1.csv", "profiler-table", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/min_cycle_counter_1.txt", "profiler-table", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/minddata_pipeline_raw_1.csv", "profiler-table", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/output_op_compute_time_1.txt", "profiler-table", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/output_op_compute_time_detail_1.txt", "profiler-table", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/output_timeline_data_1.txt", "profiler-table", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/step_trace_raw_1_detail_time.csv", "profiler-table", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/pipeline_profiling_1.json", "profiler-json", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/step_trace_point_info.json", "profiler-json", "profiler", -1 },
        { "profiler/mindspore/run_1_profiler/timeline_summary_1.json", "profiler-json", "profiler", 1 },
        { "profiler/mindspore/run_1_profiler/timeline_display_1.json", "chrome-trace", "profiler", -1 },
        { "profiler/mindspore/profiler_misc/ascend_timeline_display_0.json", "chrome-trace", "profiler", -1 },
        { "profiler/mindspore/profiler_misc/gpu_timeline_display_0.json", "chrome-trace", "profiler", -1 },
        { "profiler/mindspore/profiler_misc/ascend_timeline_summary_0.json", "profiler-json", "profiler", 0 },
        { "profiler/mindspore/profiler_misc/gpu_timeline_summary_0.json", "profiler-json", "profiler", 0 },
        { "profiler/mindspore/profiler_misc/dynamic_shape_info_0.json", "profiler-json", "profiler", 0 },
        { "profiler/mindspore/profiler_misc/flops_scope_0.json", "profiler-json", "profiler", 0 },
        { "profiler/mindspore/profiler_misc/flops_summary_0.json", "profiler-json", "profiler", 0 },
        { "profiler/mindspore/profiler_misc/minddata_cpu_utilization_0.json", "profiler-json", "profiler", 0 },
        { "profiler/mindspore/profiler_misc/pipeline_profiling_0.json", "profiler-json", "profiler", 0 },
        { "profiler/mindspore/profiler_misc/device_queue_profiling_0.txt", "profiler-table", "profiler", 0 },
        { "profiler/mindspore/profiler_misc/flops_0.txt", "profiler-table", "profiler", 0 },
        { "profiler/mindspore/profiler_misc/step_trace_raw_10_detail_time.csv", "profiler-table", "profiler", 10 },
        { "profiler/mindspore/minddata_pipeline_fixture/minddata_pipeline_raw_3.csv", "profiler-table", "profiler", 3 },
        { "profiler/mindspore/minddata_pipeline_fixture/framework_raw_0.csv", "profiler-table", "profiler", 0 },
        // Tables written by the training script, and the samples' own manifest (a TSV with a header).
        { "runs/pytorch_cnn_baseline/metrics.csv", "table", "runs", -1 },
        { "MANIFEST.tsv", "table", ".", -1 },
        // Files of no kind: left out.
        { "README.md", "", "", -1 },
        { "runs/pytorch_cnn_baseline/run_facts.json", "", "", -1 },
        { "runs/pytorch_cnn_baseline/graph/model.onnx.txt", "", "", -1 },
        { "runs/pytorch_cnn_baseline/graph/fx.code.py", "", "", -1 },
        { "runs/pytorch_cnn_baseline/profiler/key_averages.txt", "", "", -1 },
        { "runs/pytorch_cnn_baseline/profiler/stacks.self_cpu.txt", "", "", -1 },
    };
    for (const Row& row : rows)
        QTest::newRow(row.path) << QString::fromUtf8(row.path) << QString::fromUtf8(row.kind)
                                << QString::fromUtf8(row.run) << row.rank;
}

void TestRunScanner::samplesConformance()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    QFETCH(QString, path);
    QFETCH(QString, kind);
    QFETCH(QString, run);
    QFETCH(int, rank);

    const QString absolute = samples + QLatin1Char('/') + path;
    QVERIFY2(QFileInfo::exists(absolute), qPrintable(absolute));
    const RunManifest& manifest = samplesManifest(samples);
    const Artifact* artifact = findArtifact(manifest, path);
    if (kind.isEmpty()) {
        if (artifact)
            QFAIL(qPrintable(path + QStringLiteral(" listed as ") + artifactKindId(artifact->kind)));
        return;
    }
    QVERIFY2(artifact, qPrintable(path + QStringLiteral(" not listed")));
    QCOMPARE(artifactKindId(artifact->kind), kind);
    QCOMPARE(artifact->run, run);
    QCOMPARE(artifact->rank.value_or(-1), rank);
    QCOMPARE(artifact->size, QFileInfo(absolute).size());

    // The static classifier agrees with the scan when given the same head.
    QFile file(absolute);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray head = file.read(qint64(FileSniffer::kHeadSize));
    QCOMPARE(artifactKindId(RunScanner::classify(path, head, file.size())), kind);

    // Opening the file alone gives the same kind.
    const RunManifest single = RunScanner().scan(absolute);
    QCOMPARE(single.artifacts.size(), 1);
    QCOMPARE(artifactKindId(single.artifacts.front().kind), kind);
}

void TestRunScanner::survivesTruncatedAndCorruptHeads()
{
    // Every prefix of every kind of head, and the same heads with bytes flipped: the sniffer reads only what it
    // was given (the sanitizer build checks that) and never calls a cut head anything but its kind or unknown.
    QList<QPair<QString, QByteArray>> heads = {
        { tbName(), tfRecord(versionEvent("brain.Event:2")) },
        { QStringLiteral("x.summary.1_MS"), tfRecord(versionEvent("MindSpore.Event:1")) },
        { QStringLiteral("vdlrecords.1.log"), le64(6) + protoBytes(1, "abcd") },
        { QStringLiteral("w.npy"), npyBytes() },
        { QStringLiteral("s.npz"), zipWithMember("a.npy", npyBytes()) },
        { QStringLiteral("m.safetensors"), safetensorsBytes(R"({"w":{"dtype":"F32","data_offsets":[0,4]}})") },
        { QStringLiteral("t.json"), kinetoHeader(3, 2) },
        { QStringLiteral("t.json.gz"), gzipped(kinetoHeader(3, 2)) },
        { QStringLiteral("m.raw.gz"), gzipped("[[1, 2, 3, 4], [5, 6, 7, 8]]") },
        { QStringLiteral("model.onnx"), onnxBytes() },
        { QStringLiteral("g.pb"), anfModelBytes() },
        { QStringLiteral("d.pb"), anfBareGraphBytes() },
        { QStringLiteral("f.pb"), tfGraphDefBytes() },
        { QStringLiteral("g.dot"), "digraph \"a\" { a -> b }" },
        { QStringLiteral("profiler/flops_summary_0.json"), R"({"FLOPs": 1})" },
    };
    const QString samples = runlens::test::samplesDir();
    if (!samples.isEmpty()) {
        QDirIterator it(samples, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            if (path.endsWith(QStringLiteral(".npy")) && !path.contains(QStringLiteral("step_0/conv1.weight")))
                continue;
            QFile file(path);
            if (file.open(QIODevice::ReadOnly))
                heads.append({ QDir(samples).relativeFilePath(path), file.read(qint64(FileSniffer::kHeadSize)) });
        }
    }
    quint32 seed = 12345;
    auto next = [&seed]() {
        seed = seed * 1664525u + 1013904223u;
        return seed >> 8;
    };
    for (const auto& [name, full] : heads) {
        const ArtifactKind kind = RunScanner::classify(name, full, full.size() + 100000);
        for (qsizetype length = 0; length <= full.size(); length += length < 64 ? 1 : 97) {
            // Copies: a view into the larger buffer would hide reads past the end from the sanitizer.
            const QByteArray prefix(full.constData(), length);
            const ArtifactKind cut = RunScanner::classify(name, prefix, full.size() + 100000);
            QVERIFY2(cut == kind || cut == ArtifactKind::Unknown,
                     qPrintable(QStringLiteral("%1 cut at %2: %3 instead of %4")
                                    .arg(name)
                                    .arg(length)
                                    .arg(artifactKindId(cut), artifactKindId(kind))));
        }
        for (int round = 0; round < 50; ++round) {
            QByteArray corrupt = full;
            for (int flips = 0; flips < 4 && !corrupt.isEmpty(); ++flips)
                corrupt[qsizetype(next() % quint32(corrupt.size()))] = char(next());
            RunScanner::classify(name, corrupt, corrupt.size());
        }
    }
}

QTEST_GUILESS_MAIN(TestRunScanner)

#include "tst_runscanner.moc"
