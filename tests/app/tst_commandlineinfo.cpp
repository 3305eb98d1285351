#include "tests/app/commandlinetestutils.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace runlens;
using namespace runlens::test::cli;

// `runlens info` on each kind of file: what its JSON and text reports say, checked against the files and
// their oracles.
class TestCommandLineInfo : public QObject
{
    Q_OBJECT
private slots:
    void infoReportsTensorStatistics()
    {
        QTemporaryDir dir;
        // float32 [1, -2, 0, NaN, 4.5, 0] as numpy writes it; then one +Inf among ones.
        const auto npy = [&dir](const QString& name, const std::vector<float>& values) {
            QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': ("
                + QByteArray::number(qsizetype(values.size())) + ",), }";
            while ((10 + header.size() + 1) % 64)
                header += ' ';
            header += '\n';
            QByteArray bytes("\x93NUMPY\x01\x00", 8);
            bytes += char(header.size() & 0xff);
            bytes += char(header.size() >> 8);
            bytes += header;
            bytes.append(reinterpret_cast<const char*>(values.data()), qsizetype(values.size() * 4));
            QFile file(dir.filePath(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(bytes);
        };
        npy(QStringLiteral("a.npy"), { 1.0f, -2.0f, 0.0f, std::nanf(""), 4.5f, 0.0f });
        npy(QStringLiteral("b.npy"), { 1.0f, std::numeric_limits<float>::infinity(), 1.0f });
        const Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
        QCOMPARE(artifacts.size(), 2);
        const QJsonObject a = artifacts[0][QStringLiteral("tensor")].toObject();
        QCOMPARE(a[QStringLiteral("dtype")].toString(), QStringLiteral("float32"));
        QCOMPARE(a[QStringLiteral("shape")].toArray(), QJsonArray { 6 });
        QCOMPARE(a[QStringLiteral("min")].toDouble(), -2.0);
        QCOMPARE(a[QStringLiteral("max")].toDouble(), 4.5);
        QVERIFY(qAbs(a[QStringLiteral("mean")].toDouble() - 0.7) < 1e-12);
        QCOMPARE(a[QStringLiteral("nan")].toInt(), 1);
        QCOMPARE(a[QStringLiteral("zeros")].toInt(), 2);
        QCOMPARE(a[QStringLiteral("posinf")].toInt(), 0);
        const QJsonObject b = artifacts[1][QStringLiteral("tensor")].toObject();
        QCOMPARE(b[QStringLiteral("posinf")].toInt(), 1);
        // JSON has no infinity: a maximum of +Inf is written as null, the count says why.
        QVERIFY(b[QStringLiteral("max")].isNull());
        QCOMPARE(b[QStringLiteral("min")].toDouble(), 1.0);

        const Result text = run({ QStringLiteral("info"), dir.filePath(QStringLiteral("a.npy")) });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("tensor: float32[6]") && text.out.contains("NaN 1"), text.out.constData());
    }

    void infoReportsSafetensorsMetadata()
    {
        QTemporaryDir dir;
        // One F32 [2] entry and a __metadata__ map, as safetensors lays them out: u64 header length, header.
        const QByteArray header = "{\"__metadata__\":{\"format\":\"pt\",\"step\":\"12\"},"
                                  "\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}";
        QByteArray bytes(8, '\0');
        qToLittleEndian<quint64>(quint64(header.size()), bytes.data());
        bytes += header;
        const float values[2] = { 1.5f, -3.0f };
        bytes.append(reinterpret_cast<const char*>(values), 8);
        QFile file(dir.filePath(QStringLiteral("model.safetensors")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();

        const Result r = run({ QStringLiteral("info"), file.fileName(), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject a
            = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray()[0].toObject();
        const QJsonObject metadata = a[QStringLiteral("metadata")].toObject();
        QCOMPARE(metadata[QStringLiteral("format")].toString(), QStringLiteral("pt"));
        QCOMPARE(metadata[QStringLiteral("step")].toString(), QStringLiteral("12"));
        QCOMPARE(
            a[QStringLiteral("tensors")].toObject()[QStringLiteral("w")].toObject()[QStringLiteral("min")].toDouble(),
            -3.0);

        const Result text = run({ QStringLiteral("info"), file.fileName() });
        QVERIFY2(text.out.contains("metadata format: pt"), text.out.constData());
    }

    void infoReportsTorchSaveFiles()
    {
        // Fixtures written by tests/data/torchsave/make_pt_fixtures.py with torch.save.
        const QString single = QStringLiteral(RUNLENS_TEST_DATA_DIR "/torchsave/single.pt");
        const Result one = run({ QStringLiteral("info"), single, QStringLiteral("--json") });
        QCOMPARE(one.exitCode, 0);
        const QJsonObject a
            = QJsonDocument::fromJson(one.out).object()[QStringLiteral("artifacts")].toArray()[0].toObject();
        QCOMPARE(a[QStringLiteral("kind")].toString(), QStringLiteral("tensor-pt"));
        // arange(12) * 0.5 - 1 as float32[3, 4]
        const QJsonObject tensor = a[QStringLiteral("tensor")].toObject();
        QCOMPARE(tensor[QStringLiteral("min")].toDouble(), -1.0);
        QCOMPARE(tensor[QStringLiteral("max")].toDouble(), 4.5);

        const QString checkpoint = QStringLiteral(RUNLENS_TEST_DATA_DIR "/torchsave/checkpoint.pt");
        const Result nested = run({ QStringLiteral("info"), checkpoint, QStringLiteral("--json") });
        QCOMPARE(nested.exitCode, 0);
        const QJsonObject c
            = QJsonDocument::fromJson(nested.out).object()[QStringLiteral("artifacts")].toArray()[0].toObject();
        QCOMPARE(c[QStringLiteral("metadata")].toObject()[QStringLiteral("epoch")].toString(), QStringLiteral("3"));
        const QJsonObject tracked
            = c[QStringLiteral("tensors")].toObject()[QStringLiteral("model.bn.num_batches_tracked")].toObject();
        QCOMPARE(tracked[QStringLiteral("max")].toDouble(), 5.0);
    }

    void infoReportsVisualDlScalars()
    {
        // One VisualDL record: 8-byte little-endian length, then Record{values: Value{id 7, tag "loss",
        // timestamp 1000 ms, value 0.5}} encoded by hand from VisualDL's field numbers.
        const QByteArray value = QByteArray::fromHex("0807") + QByteArray::fromHex("12046c6f7373")
            + QByteArray::fromHex("18e807") + QByteArray::fromHex("250000003f");
        const QByteArray record = QByteArray::fromHex("0a") + char(value.size()) + value;
        QByteArray bytes(8, '\0');
        bytes[0] = char(record.size());
        bytes += record;
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("vdlrecords.1700000000.log")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        const Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
        QCOMPARE(artifacts.size(), 1);
        QCOMPARE(artifacts[0][QStringLiteral("kind")].toString(), QStringLiteral("visualdl-log"));
        const QJsonObject loss
            = artifacts[0][QStringLiteral("scalars")][QStringLiteral("tags")][QStringLiteral("loss")].toObject();
        QCOMPARE(loss[QStringLiteral("points")].toInt(), 1);
        QCOMPARE(loss[QStringLiteral("first_step")].toInt(), 7);
    }

    void infoReportsPaddleGraphs()
    {
        // A Paddle program (our generated CNN) and a VisualDL add_graph file: both listed in the graph section.
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QStringLiteral(RUNLENS_TEST_DATA_DIR "/paddle/cnn/inference.pdmodel"),
                            dir.filePath(QStringLiteral("inference.pdmodel"))));
        QVERIFY(QFile::copy(QStringLiteral(RUNLENS_TEST_DATA_DIR "/paddle/vdlgraph/vdlgraph.1700000000.log"),
                            dir.filePath(QStringLiteral("vdlgraph.1700000000.log"))));
        const Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
        QCOMPARE(artifacts.size(), 2);
        QMap<QString, QJsonObject> graphs;
        for (const QJsonValue& v : artifacts)
            graphs.insert(v[QStringLiteral("kind")].toString(), v[QStringLiteral("graph")].toObject());
        const QJsonObject paddle = graphs.value(QStringLiteral("graph-paddle"));
        QCOMPARE(paddle[QStringLiteral("format")].toString(), QStringLiteral("paddle"));
        QCOMPARE(paddle[QStringLiteral("nodes")].toInt(), 24); // paddle_oracle.py: 24 ops in 3 blocks
        QCOMPARE(paddle[QStringLiteral("subgraphs")].toInt(), 3);
        const QJsonObject vdl = graphs.value(QStringLiteral("graph-visualdl"));
        QCOMPARE(vdl[QStringLiteral("format")].toString(), QStringLiteral("visualdl-graph"));
        QCOMPARE(vdl[QStringLiteral("nodes")].toInt(), 13);
        QCOMPARE(vdl[QStringLiteral("groups")].toInt(), 6);
    }

    void infoReportsMindIrGraphs()
    {
        // MindIR saved with its weights apart: the graph file is read, the `_variables` data file is not an
        // artifact of its own.
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph/mindir/lenet_split_graph.mindir"),
                            dir.filePath(QStringLiteral("lenet_split_graph.mindir"))));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("lenet_split_variables")));
        QVERIFY(QFile::copy(QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph/mindir/lenet_split_variables/data_0"),
                            dir.filePath(QStringLiteral("lenet_split_variables/data_0"))));
        const Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
        QCOMPARE(artifacts.size(), 1);
        QCOMPARE(artifacts[0][QStringLiteral("kind")].toString(), QStringLiteral("graph-mindir"));
        const QJsonObject graph = artifacts[0][QStringLiteral("graph")].toObject();
        QCOMPARE(graph[QStringLiteral("format")].toString(), QStringLiteral("mindir"));
        QCOMPARE(graph[QStringLiteral("nodes")].toInt(), 13); // mindir_oracle.py: 11 nodes + 2 in the function
        QCOMPARE(graph[QStringLiteral("subgraphs")].toInt(), 2);
    }

    void infoReportsTfLiteGraphs()
    {
        // A TFLite model from tflite-micro (one subgraph) and our control-flow one (WHILE/IF bodies); the
        // counts are those tflite_oracle.py reads with flatc (3 and 4+1+2+1+1 operators).
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph/tflite/hello_world_int8.tflite"),
                            dir.filePath(QStringLiteral("hello_world_int8.tflite"))));
        QVERIFY(QFile::copy(QStringLiteral(RUNLENS_TEST_DATA_DIR "/graph/tflite/control_flow.tflite"),
                            dir.filePath(QStringLiteral("control_flow.tflite"))));
        const Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
        QCOMPARE(artifacts.size(), 2);
        QMap<QString, QJsonObject> graphs;
        for (const QJsonValue& v : artifacts) {
            QCOMPARE(v[QStringLiteral("kind")].toString(), QStringLiteral("graph-tflite"));
            QCOMPARE(v[QStringLiteral("status")].toString(), QStringLiteral("ok"));
            graphs.insert(QFileInfo(v[QStringLiteral("path")].toString()).fileName(),
                          v[QStringLiteral("graph")].toObject());
        }
        const QJsonObject hello = graphs.value(QStringLiteral("hello_world_int8.tflite"));
        QCOMPARE(hello[QStringLiteral("format")].toString(), QStringLiteral("tflite"));
        QCOMPARE(hello[QStringLiteral("nodes")].toInt(), 3);
        QCOMPARE(hello[QStringLiteral("subgraphs")].toInt(), 1);
        QCOMPARE(hello[QStringLiteral("implicit_nodes")].toInt(), 8); // 6 weights, 1 input, 1 output
        const QJsonObject flow = graphs.value(QStringLiteral("control_flow.tflite"));
        QCOMPARE(flow[QStringLiteral("nodes")].toInt(), 9);
        QCOMPARE(flow[QStringLiteral("subgraphs")].toInt(), 5);
    }

    void infoReportsMemoryPeaks()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString trace
            = samples + QStringLiteral("/traces/kineto/2022_memory_rank1_of_2/df_index_resolver.json.gz");
        // The peaks, their times and the ops running then, from the file by an independent script.
        RUNLENS_PYTHON_ORACLE(
            oracle,
            { QStringLiteral(RUNLENS_TEST_DATA_DIR "/memory/memory_oracle.py"), QStringLiteral("kineto"), trace });
        QMap<QString, QJsonObject> expected;
        for (const QJsonValue v :
             QJsonDocument::fromJson(oracle.toUtf8()).object()[QStringLiteral("devices")].toArray()) {
            const QJsonObject d = v.toObject();
            const int type = d[QStringLiteral("type")].toInt();
            expected.insert(
                type == 0 ? QStringLiteral("cpu") : QStringLiteral("cuda:%1").arg(d[QStringLiteral("id")].toInt()), d);
        }
        QCOMPARE(expected.size(), 2);

        const Result r = run({ QStringLiteral("info"), trace, QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject a
            = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray()[0].toObject();
        const QJsonArray devices = a[QStringLiteral("memory")][QStringLiteral("devices")].toArray();
        QCOMPARE(devices.size(), expected.size());
        for (const QJsonValue v : devices) {
            const QJsonObject d = v.toObject();
            const QString name = d[QStringLiteral("device")].toString();
            QVERIFY2(expected.contains(name), qPrintable(name));
            const QJsonObject e = expected.value(name);
            QCOMPARE(d[QStringLiteral("peak_bytes")].toDouble(), e[QStringLiteral("peak")].toDouble());
            QCOMPARE(qint64(d[QStringLiteral("peak_time_ns")].toDouble()),
                     qint64(e[QStringLiteral("peak_ns")].toDouble()));
            QCOMPARE(d[QStringLiteral("peak_op")].toString(), e[QStringLiteral("peak_op")].toString());
            QCOMPARE(d[QStringLiteral("rank")].toInt(), 1);
            QCOMPARE(d[QStringLiteral("oom_count")].toInt(), 0);
        }

        const Result text = run({ QStringLiteral("info"), trace });
        QVERIFY2(text.out.contains("memory cuda:1: peak") && text.out.contains("in aten::empty"), text.out.constData());
        // A memory timeline file: its peak (the sum of the categories) is the device's.
        const QString timeline = samples + QStringLiteral("/traces/memory_timeline/memory_timeline.raw.gz");
        RUNLENS_PYTHON_ORACLE(
            timelineOracle,
            { QStringLiteral(RUNLENS_TEST_DATA_DIR "/memory/memory_oracle.py"), QStringLiteral("timeline"), timeline });
        const QJsonObject peak = QJsonDocument::fromJson(timelineOracle.toUtf8()).object();
        const Result t = run({ QStringLiteral("info"), timeline, QStringLiteral("--json") });
        const QJsonObject m = QJsonDocument::fromJson(t.out).object()[QStringLiteral("artifacts")][0].toObject();
        QCOMPARE(m[QStringLiteral("kind")].toString(), QStringLiteral("memory-timeline"));
        QCOMPARE(m[QStringLiteral("memory")][QStringLiteral("devices")][0][QStringLiteral("peak_bytes")].toDouble(),
                 peak[QStringLiteral("peak")].toDouble());
    }

    void infoReportsProfilerFolders()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString folder = samples + QStringLiteral("/profiler/mindspore/profiler_misc");
        // Steps per rank: the rows of each step trace file but its average row ("-"), counted by python.
        RUNLENS_PYTHON_ORACLE(
            oracle,
            { QStringLiteral("-c"),
              QStringLiteral("import csv,glob,json,re,sys\n"
                             "out={}\n"
                             "for p in glob.glob(sys.argv[1]+'/step_trace_raw_*_detail_time.csv'):\n"
                             "  rows=[r for r in csv.DictReader(open(p)) if r['step_num'].strip()!='-']\n"
                             "  out[re.search(r'raw_(\\d+)_',p).group(1)]=len(rows)\n"
                             "print(json.dumps(out))"),
              folder });
        const QJsonObject steps = QJsonDocument::fromJson(oracle.toUtf8()).object();
        QVERIFY(!steps.isEmpty());

        const Result r = run({ QStringLiteral("info"), folder, QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        QJsonObject profiler;
        int sections = 0;
        for (const QJsonValue a : QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray()) {
            if (a.toObject().contains(QStringLiteral("profiler"))) {
                profiler = a[QStringLiteral("profiler")].toObject();
                ++sections;
            }
        }
        // The run's profiler tables are read together and reported once.
        QCOMPARE(sections, 1);
        const QJsonArray ranks = profiler[QStringLiteral("ranks")].toArray();
        QCOMPARE(ranks.size(), steps.size());
        for (const QJsonValue rank : ranks) {
            const QString id = QString::number(rank[QStringLiteral("rank")].toInt());
            QVERIFY2(steps.contains(id), qPrintable(id));
            QCOMPARE(rank[QStringLiteral("steps")][QStringLiteral("count")].toInt(), steps[id].toInt());
        }
        const QJsonObject cluster = profiler[QStringLiteral("cluster")].toObject();
        QCOMPARE(cluster[QStringLiteral("ranks")].toArray().size(), steps.size());
        QVERIFY(!cluster[QStringLiteral("slowest_rank")].isNull());
        QVERIFY(!profiler[QStringLiteral("pipelines")].toArray().isEmpty());
    }

    void infoReportsSummaryValues()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        // The sample facts: 5 PR curves of one tag at steps 0..4, and an add_hparams session with 2
        // metrics that ended successfully.
        const Result pr
            = run({ QStringLiteral("info"), samples + QStringLiteral("/summaries/tensorboard/torch2_pr_curve"),
                    QStringLiteral("--json") });
        QCOMPARE(pr.exitCode, 0);
        const QJsonArray prArtifacts = QJsonDocument::fromJson(pr.out).object()[QStringLiteral("artifacts")].toArray();
        QCOMPARE(prArtifacts.size(), 1);
        const QJsonObject curves = prArtifacts[0][QStringLiteral("pr_curves")][QStringLiteral("tags")].toObject();
        QCOMPARE(curves.size(), 1);
        const QJsonObject curve = curves.begin().value().toObject();
        QCOMPARE(curve[QStringLiteral("count")].toInt(), 5);
        // `points` is the documented name; `count` stays for readers of earlier versions.
        QCOMPARE(curve[QStringLiteral("points")].toInt(), 5);
        QCOMPARE(curve[QStringLiteral("first_step")].toInt(), 0);
        QCOMPARE(curve[QStringLiteral("last_step")].toInt(), 4);

        const Result hp
            = run({ QStringLiteral("info"), samples + QStringLiteral("/summaries/tensorboard/torch2_hparams"),
                    QStringLiteral("--json") });
        QCOMPARE(hp.exitCode, 0);
        QJsonObject hparams;
        for (const QJsonValue a : QJsonDocument::fromJson(hp.out).object()[QStringLiteral("artifacts")].toArray()) {
            if (a.toObject().contains(QStringLiteral("hparams")))
                hparams = a[QStringLiteral("hparams")].toObject();
        }
        QCOMPARE(hparams[QStringLiteral("metrics")].toArray().size(), 2);
        QCOMPARE(hparams[QStringLiteral("status")].toString(), QStringLiteral("success"));
        QVERIFY(!hparams[QStringLiteral("values")].toObject().isEmpty());
        // The text form lists them too.
        const Result text
            = run({ QStringLiteral("info"), samples + QStringLiteral("/summaries/tensorboard/torch2_pr_curve") });
        QVERIFY2(text.out.contains("pr_curves Evaluations/PR_Curve: 5 kept, steps 0..4"), text.out.constData());
    }

    void infoReportsAudio()
    {
        // Both TensorBoard audio encodings in one file (tests/data/audio/make_audio_fixtures.py).
        QTemporaryDir dir;
        const QString name = QStringLiteral("events.out.tfevents.1700000000.fixture.1.0");
        QVERIFY(QFile::copy(QStringLiteral(RUNLENS_TEST_DATA_DIR "/audio/tb/") + name, dir.filePath(name)));
        const Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
        QCOMPARE(artifacts.size(), 1);
        const QJsonObject tags = artifacts[0][QStringLiteral("audio")][QStringLiteral("tags")].toObject();
        QCOMPARE(tags.size(), 2);
        const QJsonObject legacy = tags[QStringLiteral("speech/legacy")].toObject();
        QCOMPARE(legacy[QStringLiteral("count")].toInt(), 3);
        QCOMPARE(legacy[QStringLiteral("points")].toInt(), 3);
        QCOMPARE(legacy[QStringLiteral("sample_rate")].toDouble(), 16000.0);
        QCOMPARE(legacy[QStringLiteral("channels")].toInt(), 1);
        QCOMPARE(legacy[QStringLiteral("first_step")].toInt(), 0);
        QCOMPARE(legacy[QStringLiteral("last_step")].toInt(), 20);
        const QJsonObject tf2 = tags[QStringLiteral("speech/tf2")].toObject();
        QCOMPARE(tf2[QStringLiteral("count")].toInt(), 2);
        QCOMPARE(tf2[QStringLiteral("sample_rate")].toDouble(), 8000.0);
        QCOMPARE(tf2[QStringLiteral("channels")].toInt(), 2);
        QCOMPARE(tf2[QStringLiteral("first_step")].toInt(), 5);
        QCOMPARE(tf2[QStringLiteral("last_step")].toInt(), 15);
    }

    void infoReportsRocCurvesAndSummaryPoints()
    {
        // VisualDL's own ROC demo log: six tags of one ROC curve each at step 0, no samples needed. Every
        // summary section gives `points` beside the older `count`.
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QStringLiteral(RUNLENS_TEST_DATA_DIR "/visualdl/roc/vdlrecords.1609220805.log"),
                            dir.filePath(QStringLiteral("vdlrecords.1609220805.log"))));
        const Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
        QCOMPARE(artifacts.size(), 1);
        const QJsonObject artifact = artifacts[0].toObject();
        QCOMPARE(artifact[QStringLiteral("kind")].toString(), QStringLiteral("visualdl-log"));
        QCOMPARE(artifact[QStringLiteral("status")].toString(), QStringLiteral("ok"));
        QVERIFY(!artifact.contains(QStringLiteral("pr_curves")));
        const QJsonObject tags = artifact[QStringLiteral("roc_curves")][QStringLiteral("tags")].toObject();
        QCOMPARE(tags.size(), 6);
        const QJsonObject bocai = tags[QStringLiteral("vegetables_cls/bocai_roc_curve")].toObject();
        QCOMPARE(bocai[QStringLiteral("points")].toInt(), 1);
        QCOMPARE(bocai[QStringLiteral("count")].toInt(), 1);
        QCOMPARE(bocai[QStringLiteral("first_step")].toInt(), 0);
        QCOMPARE(bocai[QStringLiteral("last_step")].toInt(), 0);
        // ROC curves are read now: no diagnostic says they are only counted.
        for (const QJsonValue d : artifact[QStringLiteral("diagnostics")].toArray())
            QVERIFY2(!d[QStringLiteral("message")].toString().contains(QLatin1String("ROC")),
                     qPrintable(d[QStringLiteral("message")].toString()));

        const Result text = run({ QStringLiteral("info"), dir.path() });
        QVERIFY2(text.out.contains("roc_curves vegetables_cls/bocai_roc_curve: 1 kept, steps 0..0"),
                 text.out.constData());
    }

    void infoJsonEmbeddings()
    {
        // The projector folder torch's add_embedding lays out: one artifact, its sets under "embeddings";
        // the tables beside the config are read through it, not listed as metrics tables.
        const QString folder = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/projector");
        const QJsonObject sets = projectorEmbeddings(folder);
        QCOMPARE(sets.size(), 2);
        const QJsonObject features = sets[QStringLiteral("features:00000")].toObject();
        QCOMPARE(features[QStringLiteral("points")].toInt(), 60);
        QCOMPARE(features[QStringLiteral("dims")].toInt(), 16);
        QCOMPARE(features[QStringLiteral("metadata_columns")].toArray(),
                 (QJsonArray { QStringLiteral("class"), QStringLiteral("score") }));
        QCOMPARE(features[QStringLiteral("sprite")].toBool(), true);
        const QJsonObject words = sets[QStringLiteral("words:00003")].toObject();
        QCOMPARE(words[QStringLiteral("points")].toInt(), 12);
        QCOMPARE(words[QStringLiteral("sprite")].toBool(), false);
        QCOMPARE(words[QStringLiteral("metadata_columns")].toArray(), (QJsonArray { QStringLiteral("label") }));

        const Result text = run({ QStringLiteral("info"), folder });
        QVERIFY2(text.out.contains("embeddings features:00000: 60 points x 16 dimensions"), text.out.constData());
    }

    void infoJsonCheckpointEmbeddings()
    {
        // A projector config naming variables of the run's TensorFlow checkpoint by tensor_name: the
        // tensors are read from the bundle; its .index and data files are not listed as artifacts.
        const QString folder = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/checkpoint");
        const QJsonObject sets = projectorEmbeddings(folder);
        QCOMPARE(sets.keys(),
                 (QStringList { QStringLiteral("embedding/weights"), QStringLiteral("word_embedding/embeddings") }));
        const QJsonObject weights = sets[QStringLiteral("embedding/weights")].toObject();
        QCOMPARE(weights[QStringLiteral("points")].toInt(), 60);
        QCOMPARE(weights[QStringLiteral("dims")].toInt(), 16);
        QCOMPARE(weights[QStringLiteral("metadata_columns")].toArray(),
                 (QJsonArray { QStringLiteral("cluster"), QStringLiteral("index") }));
        const QJsonObject words = sets[QStringLiteral("word_embedding/embeddings")].toObject();
        QCOMPARE(words[QStringLiteral("points")].toInt(), 24);
        QCOMPARE(words[QStringLiteral("dims")].toInt(), 5);
    }

    void infoJsonVisualDlEmbeddings()
    {
        // VisualDL logs with add_embeddings values: each log lists its sets (one per tag) under "embeddings",
        // and no diagnostic says embeddings are only counted.
        const QString folder = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/visualdl");
        const Result r = run({ QStringLiteral("info"), folder, QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
        QMap<QString, QJsonObject> byRun;
        for (const QJsonValue a : artifacts) {
            if (a[QStringLiteral("kind")].toString() == QLatin1String("visualdl-log"))
                byRun.insert(a[QStringLiteral("run")].toString(), a.toObject());
        }
        QCOMPARE(byRun.keys(), (QStringList { QStringLiteral("header"), QStringLiteral("hidi") }));
        for (const QJsonObject& artifact : std::as_const(byRun)) {
            QCOMPARE(artifact[QStringLiteral("status")].toString(), QStringLiteral("ok"));
            for (const QJsonValue d : artifact[QStringLiteral("diagnostics")].toArray())
                QVERIFY2(!d[QStringLiteral("message")].toString().contains(QLatin1String("embeddings")),
                         qPrintable(d[QStringLiteral("message")].toString()));
        }
        const QJsonObject hidi = byRun[QStringLiteral("hidi")][QStringLiteral("embeddings")].toObject();
        QCOMPARE(hidi.keys(), QStringList { QStringLiteral("default") });
        const QJsonObject demo = hidi[QStringLiteral("default")].toObject();
        QCOMPARE(demo[QStringLiteral("points")].toInt(), 40);
        QCOMPARE(demo[QStringLiteral("dims")].toInt(), 25);
        QCOMPARE(demo[QStringLiteral("metadata_columns")].toArray(), (QJsonArray { QStringLiteral("label") }));
        QCOMPARE(demo[QStringLiteral("sprite")].toBool(), false);
        const QJsonObject header = byRun[QStringLiteral("header")][QStringLiteral("embeddings")].toObject();
        QCOMPARE(header.size(), 2);
        const QJsonObject labelled = header[QStringLiteral("default")].toObject();
        QCOMPARE(labelled[QStringLiteral("points")].toInt(), 5);
        QCOMPARE(labelled[QStringLiteral("dims")].toInt(), 3);
        QCOMPARE(labelled[QStringLiteral("metadata_columns")].toArray(),
                 (QJsonArray { QStringLiteral("label_a"), QStringLiteral("label_b") }));
        QCOMPARE(header[QStringLiteral("words")].toObject()[QStringLiteral("points")].toInt(), 4);

        const Result text = run({ QStringLiteral("info"), folder });
        QVERIFY2(text.out.contains("embeddings default: 40 points x 25 dimensions"), text.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCommandLineInfo)
#include "tst_commandlineinfo.moc"
