#include "isolatedbatch.h"
#include "mutators.h"
#include "testutils.h"

#include "core/artifactimporter.h"
#include "core/filesniffer.h"
#include "core/profilerimporter.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <memory>
#include <new>
#include <optional>

// Every importer, fed damaged copies of small real files through the import boundary (createImporter()->poll(),
// or the run's ProfilerImporter for MindSpore profiler tables): cut at many offsets, bits flipped, bytes
// overwritten and, for each format, the lengths and counts its reader trusts inflated with checksums made to
// match. Each batch runs in a child process with an address-space limit and an alarm, so a crash, a hang or an
// allocation of gigabytes is a failure naming the seed, the mutation and the offset instead of the end of the
// test run. What must hold: the importer returns, and a status other than Ok comes with a diagnostic naming the
// file, every diagnostic offset inside the file.

using namespace runlens;
using namespace runlens::test;

namespace {

enum class Source { Samples, TestData, Inline };

/// One format: where its seed comes from, how it is cut small, what it is called in the run folder, how it is
/// read, and the damage only this format can be given.
struct SeedRow
{
    const char* name;
    Source source;
    const char* path; ///< below the samples or tests/data; for Inline the content itself
    const char* fileName; ///< as written in the case folder (readers and the sniffer look at names)
    ArtifactKind kind;
    bool profilerFolder = false; ///< read by a run's ProfilerImporter rather than createImporter()
    std::function<QByteArray(const QByteArray&)> cut = {};
    std::function<Mutations(const QByteArray& seed, std::uint64_t rowSeed)> hostile = {};
};

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

Mutations jsonHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out += jsonWrongTypes(seed, 16);
    out.append(jsonNesting(seed, 100000));
    out.append(textNesting(seed, QByteArray(), QByteArray("["), QByteArray(), 100000,
                           QStringLiteral("unclosed arrays x100000 at the start")));
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
        { "memory timeline", Source::Samples, "traces/memory_timeline/memory_timeline.raw.gz",
          "memory_timeline.raw.json", ArtifactKind::MemoryTimeline, false, memoryTimelineExcerpt, jsonHostile },
        { "memory timeline gz", Source::Samples, "traces/memory_timeline/memory_timeline.raw.gz",
          "memory_timeline.raw.gz", ArtifactKind::MemoryTimeline, false,
          [](const QByteArray& s) { return gzipCompress(memoryTimelineExcerpt(s)); },
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

/// Rows × families that fail today, each with the defect that makes it fail. A fix that makes one pass turns
/// it into an unexpected pass (a failure): remove its line then.
const QMap<QString, QString>& expectedFailures()
{
    static const QString gzipOffsets
        = QStringLiteral("diagnostic offsets of a .gz input count decompressed bytes, not bytes of the file");
    static const QString npzOffsets
        = QStringLiteral("npzfile: the offset of a damaged member's local header is taken from the central "
                         "directory and reported although it lies beyond the file");
    static const QString msJson = QStringLiteral("mindsporememory: nlohmann::json exceptions (number overflow, "
                                                 "type_error) escape poll()");
    static const QString msEmpty
        = QStringLiteral("mindsporememory: a table with a header and no usable row fails without a diagnostic");
    static const QMap<QString, QString> failures {
        { QStringLiteral("chrome trace json.gz/truncate"), gzipOffsets },
        { QStringLiteral("chrome trace json.gz/bitflip"), gzipOffsets },
        { QStringLiteral("chrome trace json.gz/stomp"), gzipOffsets },
        { QStringLiteral("chrome trace json.gz/hostile"), gzipOffsets },
        { QStringLiteral("memory timeline gz/truncate"), gzipOffsets },
        { QStringLiteral("memory timeline gz/bitflip"), gzipOffsets },
        { QStringLiteral("memory timeline gz/stomp"), gzipOffsets },
        { QStringLiteral("memory timeline gz/hostile"), gzipOffsets },
        { QStringLiteral("onnx loop/hostile"),
          QStringLiteral("onnxgraphreader: 100000 nodes of one name hang (quadratic naming/attribute text)") },
        { QStringLiteral("onnx attention/hostile"),
          QStringLiteral("onnxgraphreader: 100000 nodes of one name hang (quadratic naming/attribute text)") },
        { QStringLiteral("tf graphdef binary as written/seed"),
          QStringLiteral("tfgraphreader looksLikeText(): a binary GraphDef whose first node's length byte is a "
                         "letter is parsed as text") },
        { QStringLiteral("tf graphdef binary/hostile"),
          QStringLiteral("tfgraphreader: Builder::uniqueId() is quadratic on 100000 nodes of one name") },
        { QStringLiteral("tf graphdef pbtxt/hostile"),
          QStringLiteral("tfgraphreader: TextFormat::Parser without a recursion limit overflows the stack") },
        { QStringLiteral("tf graphdef pbtxt resnet/hostile"),
          QStringLiteral("tfgraphreader: TextFormat::Parser without a recursion limit overflows the stack") },
        { QStringLiteral("mindspore ir/hostile"),
          QStringLiteral("mindsporeirreader: 100000 nodes of one name hang (quadratic)") },
        { QStringLiteral("mindspore ir kernel graph/hostile"),
          QStringLiteral("mindsporeirreader: 100000 nodes of one name hang (quadratic)") },
        { QStringLiteral("torchscript/hostile"),
          QStringLiteral("torchscriptreader: matchingBracket() per node is quadratic on 100000 nodes") },
        { QStringLiteral("torchscript jit trace/hostile"),
          QStringLiteral("torchscriptreader: matchingBracket() per node is quadratic on 100000 nodes") },
        { QStringLiteral("npz stored/bitflip"), npzOffsets },
        { QStringLiteral("npz stored/stomp"), npzOffsets },
        { QStringLiteral("npz stored/hostile"), npzOffsets },
        { QStringLiteral("mindspore memory summary/stomp"), msJson },
        { QStringLiteral("mindspore memory summary/hostile"), msJson },
        { QStringLiteral("mindspore memory details/stomp"), msJson },
        { QStringLiteral("mindspore memory details/hostile"), msJson },
        { QStringLiteral("mindspore cpu memory record/truncate"), msEmpty },
        { QStringLiteral("mindspore operator memory/truncate"), msEmpty },
    };
    return failures;
}

// ---------------------------------------------------------------------------------------------------------------

/// Reads `bytes` as the row's file through the import boundary and says what is wrong, or nothing. Runs in
/// the child.
QString importCase(const SeedRow& row, const QString& folder, const QByteArray& bytes, bool pristine)
{
    const QString directory = row.profilerFolder ? folder + QStringLiteral("/profiler") : folder;
    QDir().mkpath(directory);
    const QString path = directory + QLatin1Char('/') + QLatin1String(row.fileName);
    // A new file each time rather than rewriting the old one in place: nothing may still map the old one.
    QFile::remove(path);
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            return QStringLiteral("cannot write %1").arg(path);
    }
    Artifact artifact;
    artifact.path = path;
    artifact.relativePath = QFileInfo(path).fileName();
    artifact.kind = row.kind;
    artifact.run = QStringLiteral(".");
    artifact.size = bytes.size();
    artifact.modified = QFileInfo(path).lastModified();

    std::unique_ptr<ArtifactImporter> importer;
    if (row.profilerFolder) {
        auto profiler = std::make_unique<ProfilerImporter>(folder);
        profiler->addPath(path);
        importer = std::move(profiler);
    } else {
        importer = createImporter(artifact, {});
    }
    if (!importer)
        return QStringLiteral("no importer for %1").arg(artifactKindId(row.kind));

    QStringList problems;
    const std::atomic_bool cancel { false };
    ImportControl control;
    control.cancel = &cancel;
    for (int pollCount = 0; pollCount < 2; ++pollCount) {
        ImportUpdate update;
        try {
            update = importer->poll(control);
        } catch (const std::bad_alloc&) {
            return QStringLiteral("std::bad_alloc escaped poll()");
        } catch (const std::exception& e) {
            return QStringLiteral("exception escaped poll(): %1").arg(QString::fromLocal8Bit(e.what()));
        }
        bool named = false;
        for (const Diagnostic& d : std::as_const(update.diagnostics)) {
            named = named || d.file == path || d.message.contains(path);
            if (d.offset > bytes.size())
                problems << QStringLiteral("diagnostic offset %1 beyond the file's %2 bytes: %3")
                                .arg(d.offset)
                                .arg(bytes.size())
                                .arg(d.toString());
        }
        if (pristine && (update.status == ImportStatus::Failed || update.status == ImportStatus::Unsupported))
            problems << QStringLiteral("the undamaged seed does not import (%1): %2")
                            .arg(importStatusId(update.status), update.diagnostics.value(0).toString());
        if (update.status != ImportStatus::Ok && !named)
            problems << QStringLiteral("status %1 without a diagnostic naming the file%2")
                            .arg(importStatusId(update.status),
                                 update.diagnostics.isEmpty()
                                     ? QString()
                                     : QStringLiteral(" (first: %1)").arg(update.diagnostics.first().toString()));
        if (!update.mayGrow || !problems.isEmpty())
            break;
    }
    return problems.join(QStringLiteral("; "));
}

QString describe(const BatchResult& result, const Mutations& cases, const QString& row, const QString& family)
{
    QStringList lines;
    constexpr int kListed = 6;
    for (const CaseFailure& failure : result.failures.mid(0, kListed)) {
        const QString name = failure.index >= 0 && failure.index < cases.size() ? cases[failure.index].name
                                                                                : QStringLiteral("(before any case)");
        QString line = QStringLiteral("  [%1 / %2] %3: %4").arg(row, family, name, failure.what);
        if (!failure.stack.isEmpty())
            line += QStringLiteral("\n      at ") + failure.stack.join(QStringLiteral("\n      at "));
        lines << line;
    }
    if (result.failures.size() > kListed)
        lines << QStringLiteral("  [%1 / %2] and %3 more").arg(row, family).arg(result.failures.size() - kListed);
    if (result.notRun > 0)
        lines << QStringLiteral("  [%1 / %2] %3 cases not run after that").arg(row, family).arg(result.notRun);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestCorruptInput : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void corruptInput_data();
    void corruptInput();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_samples;
};

void TestCorruptInput::initTestCase()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_samples = samplesDir();
}

void TestCorruptInput::corruptInput_data()
{
    QTest::addColumn<int>("row");
    const std::vector<SeedRow> rows = seedRows();
    for (size_t i = 0; i < rows.size(); ++i)
        QTest::newRow(rows[i].name) << int(i);
}

void TestCorruptInput::corruptInput()
{
    QFETCH(int, row);
    const std::vector<SeedRow> rows = seedRows();
    const SeedRow& seedRow = rows[size_t(row)];
    const QString rowName = QLatin1String(seedRow.name);

    QByteArray seed;
    switch (seedRow.source) {
    case Source::Inline:
        seed = QByteArray(seedRow.path);
        break;
    case Source::Samples:
    case Source::TestData: {
        QString root = QStringLiteral(RUNLENS_TEST_DATA_DIR);
        if (seedRow.source == Source::Samples) {
            if (m_samples.isEmpty()) {
                if (qEnvironmentVariableIntValue("RUNLENS_REQUIRE_SAMPLES"))
                    QFAIL("RUNLENS_REQUIRE_SAMPLES is set but ../shared/samples is not present");
                QSKIP("../shared/samples is not present next to the checkout; this seed comes from there");
            }
            root = m_samples;
        }
        QFile file(root + QLatin1Char('/') + QLatin1String(seedRow.path));
        // With the corpus present a missing seed is a failure: a format would silently go untested.
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(QStringLiteral("seed missing: %1").arg(file.fileName())));
        seed = file.readAll();
        break;
    }
    }
    if (seedRow.cut)
        seed = seedRow.cut(seed);
    QVERIFY2(!seed.isEmpty(), "the seed is empty after cutting");
    QVERIFY2(seed.size() <= 64 * 1024,
             qPrintable(QStringLiteral("seed of %1 bytes: keep seeds small").arg(seed.size())));

    // The seed is what it claims to be: the sniffer classifies it as the row's kind.
    const SniffResult sniffed = FileSniffer::sniff(
        seedRow.fileName, seedRow.profilerFolder ? "profiler" : "",
        std::string_view(seed.constData(), size_t(std::min<qsizetype>(seed.size(), FileSniffer::kHeadSize))),
        seed.size());
    QCOMPARE(artifactKindId(sniffed.kind), artifactKindId(seedRow.kind));

    const std::uint64_t rowSeed = stableHash(seedRow.name);
    struct Family
    {
        QString name;
        Mutations cases;
        bool pristine = false;
    };
    QList<Family> families;
    families.append({ QStringLiteral("seed"), { { QStringLiteral("undamaged"), [seed] { return seed; } } }, true });
    families.append({ QStringLiteral("truncate"), truncations(seed) });
    families.append({ QStringLiteral("bitflip"), bitFlips(seed, rowSeed, 96) });
    families.append({ QStringLiteral("stomp"), byteStomps(seed, rowSeed, 96) });
    families.append({ QStringLiteral("hostile"), seedRow.hostile ? seedRow.hostile(seed, rowSeed) : Mutations() });

    const QString folder = m_dir->filePath(QString::number(row));
    QVERIFY(QDir().mkpath(folder));
    const ChildLimits limits = defaultChildLimits();
    QStringList summary;
    QElapsedTimer clock;
    clock.start();
    QStringList unexpected;
    QList<QPair<QString, QString>> expectedFailed; // (reason, report)
    QStringList expectedPassed;
    for (const Family& family : std::as_const(families)) {
        if (family.name == QLatin1String("hostile"))
            QVERIFY2(!family.cases.isEmpty(), "no format-aware mutation could be made from this seed");
        const BatchResult result = runIsolated(
            int(family.cases.size()),
            [&](int index) { return importCase(seedRow, folder, family.cases[index].make(), family.pristine); },
            limits);
        summary << QStringLiteral("%1 %2 (%3 ms)").arg(family.cases.size()).arg(family.name).arg(clock.restart());
        const bool failed = !result.failures.isEmpty() || result.notRun > 0;
        const QString report = failed ? QStringLiteral("%1 of %2 %3 cases failed:\n%4")
                                            .arg(result.failures.size())
                                            .arg(family.cases.size())
                                            .arg(family.name, describe(result, family.cases, rowName, family.name))
                                      : QString();
        const auto expected = expectedFailures().constFind(rowName + QLatin1Char('/') + family.name);
        if (expected == expectedFailures().constEnd()) {
            if (failed) {
                // In full here: QVERIFY2 cuts long messages.
                qWarning("%s", qPrintable(report));
                unexpected << report.left(report.indexOf(QLatin1Char('\n')));
            }
        } else if (failed) {
            expectedFailed.append({ expected.value(), report });
        } else {
            expectedPassed << family.name;
        }
    }
    // Every family is run before anything is reported, so one run lists all that fails.
    for (const auto& [reason, report] : std::as_const(expectedFailed)) {
        qInfo("expected failure (%s):\n%s", qPrintable(reason), qPrintable(report));
        QEXPECT_FAIL("", qPrintable(reason), Continue);
        QVERIFY2(false, qPrintable(report));
    }
    QVERIFY2(expectedPassed.isEmpty(),
             qPrintable(QStringLiteral("now passing, remove from expectedFailures(): %1")
                            .arg(expectedPassed.join(QStringLiteral(", ")))));
    QVERIFY2(unexpected.isEmpty(), qPrintable(unexpected.join(QStringLiteral("; "))));
    qInfo("%s: %lld-byte seed, %s", seedRow.name, qlonglong(seed.size()),
          qPrintable(summary.join(QStringLiteral(", "))));
}

QTEST_GUILESS_MAIN(TestCorruptInput)
#include "tst_corruptinput.moc"
