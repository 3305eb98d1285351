#include "importers/core/filesniffer.h"
#include "importers/core/runscanner.h"

#include "tests/importers/core/artifactbytes.h"
#include "tests/testutils.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QtTest>

using namespace runlens;
using namespace runlens::test;
using namespace runlens::importers;
using namespace runlens::models;

class TestFileSniffer : public QObject
{
    Q_OBJECT

private slots:
    void classify_data();
    void classify();
    void rankFromName_data();
    void rankFromName();
    void worthReading_data();
    void worthReading();
    void survivesTruncatedAndCorruptHeads();
};

void TestFileSniffer::classify_data()
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
    QTest::newRow("zip of other things") << "model.zip" << zipWithMember("docs/readme.txt", "x") << "unknown";
    QTest::newRow("torch.save zip") << "model.zip" << zipWithMember("archive/data.pkl", "x") << "tensor-pt";
    QTest::newRow("raw .bin dump that starts like ONNX")
        << "conv1.output.bin" << QByteArray("\x08\x07\x12\x04test\x3a\x00", 10) << "unknown";
    QTest::newRow("torch.save zip named .bin")
        << "pytorch_model.bin" << zipWithMember("pytorch_model/data.pkl", "x") << "tensor-pt";
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
    // A text-format protobuf that is no graph: TensorBoard's projector config, known by its name.
    QTest::newRow("projector config pbtxt")
        << "projector_config.pbtxt" << QByteArray("embeddings {\n  tensor_name: \"a\"\n}\n") << "tensorboard-projector";
    // The tables add_embedding writes beside it are read through the config, never as metrics tables.
    QTest::newRow("projector metadata.tsv with a header")
        << "metadata.tsv" << QByteArray("class\tscore\nclass0\t0.5\nclass1\t1.0\n") << "unknown";
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

void TestFileSniffer::classify()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const QByteArray head = bytes.left(qsizetype(FileSniffer::kHeadSize));
    QCOMPARE(artifactKindId(RunScanner::classify(name, head, bytes.size())), expected);
}

void TestFileSniffer::rankFromName_data()
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

void TestFileSniffer::rankFromName()
{
    QFETCH(QString, component);
    QFETCH(int, rank);
    const QByteArray bytes = component.toUtf8();
    const std::optional<int> got = FileSniffer::rankFromName(std::string_view(bytes.constData(), bytes.size()));
    QCOMPARE(got.value_or(-1), rank);
}

void TestFileSniffer::worthReading_data()
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
    QTest::newRow("checkpoint") << "model.ckpt" << false;
    QTest::newRow("torch.save checkpoint") << "model.pt" << true;
    QTest::newRow("training log") << "train.log" << false;
    QTest::newRow("tar.gz") << "logs.tar.gz" << false;
    QTest::newRow("event file that looks like python") << "events.out.tfevents.1.host.py" << true;
}

void TestFileSniffer::worthReading()
{
    QFETCH(QString, name);
    QFETCH(bool, worth);
    const QByteArray bytes = name.toUtf8();
    QCOMPARE(FileSniffer::worthReading(std::string_view(bytes.constData(), bytes.size())), worth);
}

void TestFileSniffer::survivesTruncatedAndCorruptHeads()
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

QTEST_GUILESS_MAIN(TestFileSniffer)

#include "tst_filesniffer.moc"
