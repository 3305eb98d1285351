#include "importers/demo/demorun.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace runlens;
using namespace runlens::importers::demo;

namespace {

struct Result
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

QSet<QString> keySet(const QJsonObject& object)
{
    const QStringList keys = object.keys();
    return QSet<QString>(keys.begin(), keys.end());
}

Result run(const QStringList& arguments, int timeoutMs = 120000)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), QDir::tempPath() + QStringLiteral("/runlens-test-config"));
    // The trace index cache goes to a test folder, never the user's cache.
    env.insert(QStringLiteral("XDG_CACHE_HOME"), QDir::tempPath() + QStringLiteral("/runlens-test-cache"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(RUNLENS_EXECUTABLE), arguments);
    Result r;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        return r;
    }
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.out = process.readAllStandardOutput();
    r.err = process.readAllStandardError();
    return r;
}

/// Names and modification times of everything below `dir`, to prove nothing was written there.
QStringList listing(const QString& dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        out << it.filePath() + QLatin1Char(' ') + QString::number(it.fileInfo().size()) + QLatin1Char(' ')
                + QString::number(it.fileInfo().lastModified().toMSecsSinceEpoch());
    }
    out.sort();
    return out;
}

/// The "embeddings" of the one artifact `runlens info --json FOLDER` lists, when that artifact is a projector
/// read without trouble; empty otherwise (the caller's comparisons then fail).
QJsonObject projectorEmbeddings(const QString& folder)
{
    const Result r = run({ QStringLiteral("info"), folder, QStringLiteral("--json") });
    const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
    if (r.exitCode != 0 || artifacts.size() != 1)
        return {};
    const QJsonObject artifact = artifacts[0].toObject();
    if (artifact[QStringLiteral("kind")].toString() != QLatin1String("tensorboard-projector")
        || artifact[QStringLiteral("status")].toString() != QLatin1String("ok"))
        return {};
    return artifact[QStringLiteral("embeddings")].toObject();
}

} // namespace

class TestCommandLine : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_demo = m_dir.filePath(QStringLiteral("demo"));
        const ::Result r = run({ QStringLiteral("demo"), m_demo });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QDir(m_demo).exists(QStringLiteral("baseline")));
        m_listing = listing(m_demo);
        QVERIFY(!m_listing.isEmpty());
    }

    void scanJson()
    {
        const ::Result r = run({ QStringLiteral("scan"), m_demo, QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root.value(QStringLiteral("root")).toString(), QDir(m_demo).absolutePath());
        const QJsonArray artifacts = root.value(QStringLiteral("artifacts")).toArray();
        // An event file per run; the first run also has a profiler trace, a graph and tensor dumps.
        QStringList runs;
        QSet<QString> kinds;
        for (const QJsonValue& v : artifacts) {
            const QString kind = v[QStringLiteral("kind")].toString();
            kinds << kind;
            if (kind == QLatin1String("tensorboard-events"))
                runs << v[QStringLiteral("run")].toString();
            else
                QCOMPARE(v[QStringLiteral("run")].toString(), DemoRun::runNames().first());
        }
        runs.sort();
        QCOMPARE(runs, DemoRun::runNames());
        QCOMPARE(kinds,
                 (QSet<QString> { QStringLiteral("tensorboard-events"), QStringLiteral("chrome-trace"),
                                  QStringLiteral("graph-dot"), QStringLiteral("tensor-npy") }));
    }

    void infoJsonFollowsTheContract()
    {
        const ::Result r = run({ QStringLiteral("info"), m_demo, QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonArray artifacts = root.value(QStringLiteral("artifacts")).toArray();
        int eventFiles = 0;
        for (const QJsonValue& v : artifacts) {
            const QJsonObject a = v.toObject();
            for (const char* key : { "path", "kind", "run", "rank", "status", "diagnostics" })
                QVERIFY2(a.contains(QLatin1String(key)), key);
            QVERIFY(a.value(QStringLiteral("rank")).isNull());
            QCOMPARE(a.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
            QVERIFY(a.value(QStringLiteral("diagnostics")).toArray().isEmpty());
            const QString kind = a.value(QStringLiteral("kind")).toString();
            // Only the sections that apply: a trace has no scalars, an event file no trace.
            const char* section = kind == QLatin1String("chrome-trace") ? "trace"
                : kind == QLatin1String("graph-dot")                    ? "graph"
                : kind == QLatin1String("tensor-npy")                   ? "tensor"
                                                                        : "scalars";
            QVERIFY2(a.contains(QLatin1String(section)), section);
            if (kind != QLatin1String("tensorboard-events")) {
                QVERIFY(!a.contains(QStringLiteral("scalars")));
                continue;
            }
            ++eventFiles;
            const QJsonObject tags = a[QStringLiteral("scalars")][QStringLiteral("tags")].toObject();
            QCOMPARE(tags.keys(), DemoRun::tags());
            const QJsonObject loss = tags.value(QStringLiteral("train/loss")).toObject();
            QCOMPARE(loss.value(QStringLiteral("points")).toInt(), DemoRun::kSteps);
            QCOMPARE(loss.value(QStringLiteral("first_step")).toInt(), 0);
            QCOMPARE(loss.value(QStringLiteral("last_step")).toInt(), DemoRun::kSteps - 1);
            QCOMPARE(tags[QStringLiteral("eval/loss")][QStringLiteral("points")].toInt(),
                     DemoRun::kSteps / DemoRun::kEvalEvery);
        }
        QCOMPARE(eventFiles, DemoRun::runNames().size());
        QCOMPARE(listing(m_demo), m_listing);
    }

    void infoReportsBadFiles()
    {
        QTemporaryDir dir;
        QFile bad(dir.filePath(QStringLiteral("events.out.tfevents.1.host")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(QByteArray(64, 'x'));
        bad.close();
        const ::Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
        QVERIFY(r.exitCode == 0 || r.exitCode == 1);
        QCOMPARE(r.exitCode == -1, false);
        // Content, not the name, decides: garbage named like an event file is not imported as one.
        const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
        for (const QJsonValue& v : artifacts)
            QVERIFY(v[QStringLiteral("kind")].toString() != QLatin1String("tensorboard-events"));
    }

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
        const ::Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
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

        const ::Result text = run({ QStringLiteral("info"), dir.filePath(QStringLiteral("a.npy")) });
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

        const ::Result r = run({ QStringLiteral("info"), file.fileName(), QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject a
            = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray()[0].toObject();
        const QJsonObject metadata = a[QStringLiteral("metadata")].toObject();
        QCOMPARE(metadata[QStringLiteral("format")].toString(), QStringLiteral("pt"));
        QCOMPARE(metadata[QStringLiteral("step")].toString(), QStringLiteral("12"));
        QCOMPARE(
            a[QStringLiteral("tensors")].toObject()[QStringLiteral("w")].toObject()[QStringLiteral("min")].toDouble(),
            -3.0);

        const ::Result text = run({ QStringLiteral("info"), file.fileName() });
        QVERIFY2(text.out.contains("metadata format: pt"), text.out.constData());
    }

    void infoReportsTorchSaveFiles()
    {
        // Fixtures written by tests/data/torchsave/make_pt_fixtures.py with torch.save.
        const QString single = QStringLiteral(RUNLENS_TEST_DATA_DIR "/torchsave/single.pt");
        const ::Result one = run({ QStringLiteral("info"), single, QStringLiteral("--json") });
        QCOMPARE(one.exitCode, 0);
        const QJsonObject a
            = QJsonDocument::fromJson(one.out).object()[QStringLiteral("artifacts")].toArray()[0].toObject();
        QCOMPARE(a[QStringLiteral("kind")].toString(), QStringLiteral("tensor-pt"));
        // arange(12) * 0.5 - 1 as float32[3, 4]
        const QJsonObject tensor = a[QStringLiteral("tensor")].toObject();
        QCOMPARE(tensor[QStringLiteral("min")].toDouble(), -1.0);
        QCOMPARE(tensor[QStringLiteral("max")].toDouble(), 4.5);

        const QString checkpoint = QStringLiteral(RUNLENS_TEST_DATA_DIR "/torchsave/checkpoint.pt");
        const ::Result nested = run({ QStringLiteral("info"), checkpoint, QStringLiteral("--json") });
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
        const ::Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
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
        const ::Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
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
        const ::Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
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
        const ::Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
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

        const ::Result r = run({ QStringLiteral("info"), trace, QStringLiteral("--json") });
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

        const ::Result text = run({ QStringLiteral("info"), trace });
        QVERIFY2(text.out.contains("memory cuda:1: peak") && text.out.contains("in aten::empty"), text.out.constData());
        // A memory timeline file: its peak (the sum of the categories) is the device's.
        const QString timeline = samples + QStringLiteral("/traces/memory_timeline/memory_timeline.raw.gz");
        RUNLENS_PYTHON_ORACLE(
            timelineOracle,
            { QStringLiteral(RUNLENS_TEST_DATA_DIR "/memory/memory_oracle.py"), QStringLiteral("timeline"), timeline });
        const QJsonObject peak = QJsonDocument::fromJson(timelineOracle.toUtf8()).object();
        const ::Result t = run({ QStringLiteral("info"), timeline, QStringLiteral("--json") });
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

        const ::Result r = run({ QStringLiteral("info"), folder, QStringLiteral("--json") });
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
        const ::Result pr
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

        const ::Result hp
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
        const ::Result text
            = run({ QStringLiteral("info"), samples + QStringLiteral("/summaries/tensorboard/torch2_pr_curve") });
        QVERIFY2(text.out.contains("pr_curves Evaluations/PR_Curve: 5 kept, steps 0..4"), text.out.constData());
    }

    void infoReportsAudio()
    {
        // Both TensorBoard audio encodings in one file (tests/data/audio/make_audio_fixtures.py).
        QTemporaryDir dir;
        const QString name = QStringLiteral("events.out.tfevents.1700000000.fixture.1.0");
        QVERIFY(QFile::copy(QStringLiteral(RUNLENS_TEST_DATA_DIR "/audio/tb/") + name, dir.filePath(name)));
        const ::Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
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
        const ::Result r = run({ QStringLiteral("info"), dir.path(), QStringLiteral("--json") });
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

        const ::Result text = run({ QStringLiteral("info"), dir.path() });
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

        const ::Result text = run({ QStringLiteral("info"), folder });
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
        const ::Result r = run({ QStringLiteral("info"), folder, QStringLiteral("--json") });
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

        const ::Result text = run({ QStringLiteral("info"), folder });
        QVERIFY2(text.out.contains("embeddings default: 40 points x 25 dimensions"), text.out.constData());
    }

    void exportDistributionsCsv()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        // The CNN sample writes a histogram of conv2.weight every 5 steps from 0 to 55.
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("d.csv"));
        const ::Result r = run({ QStringLiteral("export"), samples + QStringLiteral("/runs/pytorch_cnn_baseline/tb"),
                                 QStringLiteral("--chart"), QStringLiteral("distributions:weights/conv2.weight"),
                                 QStringLiteral("--out"), csv });
        QCOMPARE(r.exitCode, 0);
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 13);
        const QStringList header = lines[0].split(u',');
        const int p0 = int(header.indexOf(QStringLiteral("p0")));
        const int p50 = int(header.indexOf(QStringLiteral("p50")));
        const int p100 = int(header.indexOf(QStringLiteral("p100")));
        QVERIFY(p0 > 0 && p50 > p0 && p100 > p50);
        for (int i = 1; i < lines.size(); ++i) {
            const QStringList cells = lines[i].split(u',');
            QCOMPARE(cells[1].toInt(), (i - 1) * 5);
            QVERIFY(cells[p0].toDouble() <= cells[p50].toDouble());
            QVERIFY(cells[p50].toDouble() <= cells[p100].toDouble());
        }
        // An unknown tag names the tags there are.
        const ::Result missing
            = run({ QStringLiteral("export"), samples + QStringLiteral("/runs/pytorch_cnn_baseline/tb"),
                    QStringLiteral("--chart"), QStringLiteral("distributions:nope"), QStringLiteral("--out"),
                    dir.filePath(QStringLiteral("x.png")) });
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("weights/conv2.weight"), missing.err.constData());
    }

    void exportFormats_data()
    {
        QTest::addColumn<QString>("extension");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("png") << QStringLiteral("png") << QByteArray("\x89PNG");
        QTest::newRow("svg") << QStringLiteral("svg") << QByteArray("<?xml");
        QTest::newRow("pdf") << QStringLiteral("pdf") << QByteArray("%PDF");
        QTest::newRow("csv") << QStringLiteral("csv") << QByteArray();
    }

    void exportFormats()
    {
        QFETCH(QString, extension);
        QFETCH(QByteArray, magic);
        const QString out = m_dir.filePath(QStringLiteral("loss.") + extension);
        const ::Result r = run({ QStringLiteral("export"), m_demo, QStringLiteral("--chart"),
                                 QStringLiteral("scalars:train/loss"), QStringLiteral("--out"), out });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray content = file.readAll();
        QVERIFY(content.size() > 100);
        if (!magic.isEmpty())
            QVERIFY(content.startsWith(magic));
        if (extension == QLatin1String("png")) {
            QImage image;
            QVERIFY(image.loadFromData(content, "PNG"));
            QVERIFY(image.width() > 100 && image.height() > 100);
        }
        if (extension == QLatin1String("svg"))
            QVERIFY(content.contains("<svg"));
        if (extension == QLatin1String("csv")) {
            const QList<QByteArray> lines = content.trimmed().split('\n');
            // A header, then one row per point of each run.
            QCOMPARE(lines.size(), 1 + DemoRun::kSteps * DemoRun::runNames().size());
        }
        QCOMPARE(listing(m_demo), m_listing);
    }

    void exportUnknownTagFails()
    {
        const ::Result r
            = run({ QStringLiteral("export"), m_demo, QStringLiteral("--chart"), QStringLiteral("scalars:nope"),
                    QStringLiteral("--out"), m_dir.filePath(QStringLiteral("x.png")) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("nope"));
        QVERIFY(r.err.contains("train/loss")); // lists what is there
    }

    void missingPathIsAnError()
    {
        const ::Result r = run({ QStringLiteral("info"), m_dir.filePath(QStringLiteral("does-not-exist")) });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("does-not-exist"));
        // Without a window nobody could close a message box: the screenshot mode says so and stops.
        QTemporaryDir out;
        const ::Result shot = run({ QStringLiteral("--screenshot"), out.filePath(QStringLiteral("s.png")),
                                    m_dir.filePath(QStringLiteral("does-not-exist")) });
        QCOMPARE(shot.exitCode, 2);
        QVERIFY(shot.err.contains("does-not-exist"));
        QVERIFY(!QFileInfo::exists(out.filePath(QStringLiteral("s.png"))));
    }

    void screenshot()
    {
        const QString out = m_dir.filePath(QStringLiteral("window.png"));
        const ::Result r = run({ QStringLiteral("--screenshot"), out, m_demo });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QImage image(out);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 800 && image.height() >= 600);
        // The window is not blank: a good share of pixels differ from the most common colour.
        QHash<QRgb, int> counts;
        for (int y = 0; y < image.height(); y += 4) {
            for (int x = 0; x < image.width(); x += 4)
                ++counts[image.pixel(x, y)];
        }
        int top = 0;
        int total = 0;
        for (int c : counts) {
            top = std::max(top, c);
            total += c;
        }
        QVERIFY(top < total * 0.9);
        QCOMPARE(listing(m_demo), m_listing);
    }

    void adviseJsonFollowsTheContract()
    {
        const ::Result r = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        for (const char* key : { "findings", "rules", "summary" })
            QVERIFY2(root.contains(QLatin1String(key)), key);

        // Every built-in rule (the rule files of the source tree) has a status.
        QStringList expectedIds;
        QMap<QString, double> recommended;
        const QDir rulesDir(QStringLiteral(RUNLENS_TEST_DATA_DIR "/../../resources/rules"));
        for (const QString& name : rulesDir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
            QFile file(rulesDir.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            for (const QJsonValue& rule :
                 QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("rules")).toArray()) {
                const QString id = rule[QStringLiteral("id")].toString();
                expectedIds << id;
                recommended.insert(id, rule[QStringLiteral("condition")][QStringLiteral("recommended")].toDouble());
            }
        }
        QVERIFY(!expectedIds.isEmpty());
        QStringList ids;
        QMap<QString, int> findingsPerRule;
        for (const QJsonValue& v : root.value(QStringLiteral("rules")).toArray()) {
            const QJsonObject rule = v.toObject();
            for (const char* key : { "id", "evaluated", "reason", "findings", "threshold", "recommended", "enabled" })
                QVERIFY2(rule.contains(QLatin1String(key)), key);
            const QString id = rule.value(QStringLiteral("id")).toString();
            ids << id;
            QVERIFY(rule.value(QStringLiteral("evaluated")).isBool());
            QVERIFY(rule.value(QStringLiteral("enabled")).toBool());
            QVERIFY(rule.value(QStringLiteral("reason")).isString());
            QCOMPARE(rule.value(QStringLiteral("evaluated")).toBool(),
                     rule.value(QStringLiteral("reason")).toString().isEmpty());
            QCOMPARE(rule.value(QStringLiteral("recommended")).toDouble(), recommended.value(id));
            QCOMPARE(rule.value(QStringLiteral("threshold")).toDouble(), recommended.value(id));
            findingsPerRule.insert(id, rule.value(QStringLiteral("findings")).toInt());
        }
        QCOMPARE(ids, expectedIds);

        // The demo's trace has no communication: the rules over it say why they were not evaluated.
        bool traceRuleSkipped = false;
        for (const QJsonValue& v : root.value(QStringLiteral("rules")).toArray())
            traceRuleSkipped = traceRuleSkipped
                || (v[QStringLiteral("metric")].toString().startsWith(QLatin1String("trace."))
                    && !v[QStringLiteral("evaluated")].toBool());
        QVERIFY(traceRuleSkipped);

        const QStringList severities { QStringLiteral("info"), QStringLiteral("warning"), QStringLiteral("error") };
        const QStringList categories { QStringLiteral("accuracy"), QStringLiteral("performance"),
                                       QStringLiteral("memory"), QStringLiteral("distributed"),
                                       QStringLiteral("data") };
        QMap<QString, int> bySeverity;
        QMap<QString, int> counted;
        for (const QJsonValue& v : root.value(QStringLiteral("findings")).toArray()) {
            const QJsonObject f = v.toObject();
            for (const char* key :
                 { "rule", "severity", "category", "scope", "value", "threshold", "message", "advice", "evidence" })
                QVERIFY2(f.contains(QLatin1String(key)), key);
            QVERIFY(severities.contains(f.value(QStringLiteral("severity")).toString()));
            QVERIFY(categories.contains(f.value(QStringLiteral("category")).toString()));
            const QJsonObject scope = f.value(QStringLiteral("scope")).toObject();
            for (const char* key : { "run", "rank", "step", "layer", "node", "tensor", "op" })
                QVERIFY2(scope.contains(QLatin1String(key)), key);
            QVERIFY(DemoRun::runNames().contains(scope.value(QStringLiteral("run")).toString()));
            QVERIFY(f.value(QStringLiteral("threshold")).isDouble());
            QVERIFY(!f.value(QStringLiteral("message")).toString().isEmpty());
            for (const QJsonValue& locator : f.value(QStringLiteral("evidence")).toArray())
                QVERIFY(locator.toString().startsWith(QLatin1String("runlens://")));
            ++bySeverity[f.value(QStringLiteral("severity")).toString()];
            ++counted[f.value(QStringLiteral("rule")).toString()];
        }
        for (auto it = counted.cbegin(); it != counted.cend(); ++it)
            QCOMPARE(findingsPerRule.value(it.key()), it.value());
        const QJsonObject summary = root.value(QStringLiteral("summary")).toObject();
        QCOMPARE(summary.value(QStringLiteral("errors")).toInt(-1), bySeverity.value(QStringLiteral("error")));
        QCOMPARE(summary.value(QStringLiteral("warnings")).toInt(-1), bySeverity.value(QStringLiteral("warning")));
        QCOMPARE(summary.value(QStringLiteral("infos")).toInt(-1), bySeverity.value(QStringLiteral("info")));
        QCOMPARE(listing(m_demo), m_listing);
    }

    void adviseRuleFileChangesAThreshold()
    {
        // Any positive loss decreases by less than 100 % between two windows, so with that threshold the
        // rule fires on the train/loss curve of every demo run; and no positive loss falls by more than 100 %
        // from its start, so with that converged_fall no demo run counts as converged.
        const QString rules = writeRules(
            QStringLiteral("strict.json"),
            { QJsonObject { { QStringLiteral("id"), QStringLiteral("loss-not-decreasing") },
                            { QStringLiteral("threshold"), 100 },
                            { QStringLiteral("params"), QJsonObject { { QStringLiteral("converged_fall"), 101 } } },
                            { QStringLiteral("severity"), QStringLiteral("error") } } });
        const ::Result r
            = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--json"), QStringLiteral("--rules"), rules });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QJsonObject status;
        for (const QJsonValue& v : root.value(QStringLiteral("rules")).toArray()) {
            if (v[QStringLiteral("id")].toString() == QLatin1String("loss-not-decreasing"))
                status = v.toObject();
        }
        QCOMPARE(status.value(QStringLiteral("threshold")).toDouble(), 100.0);
        QVERIFY(status.value(QStringLiteral("evaluated")).toBool());
        QStringList runs;
        for (const QJsonValue& v : root.value(QStringLiteral("findings")).toArray()) {
            if (v[QStringLiteral("rule")].toString() != QLatin1String("loss-not-decreasing"))
                continue;
            QCOMPARE(v[QStringLiteral("severity")].toString(), QStringLiteral("error"));
            QCOMPARE(v[QStringLiteral("threshold")].toDouble(), 100.0);
            QVERIFY(v[QStringLiteral("value")].toDouble() < 100.0);
            if (v[QStringLiteral("message")].toString().contains(QLatin1String("train/loss")))
                runs << v[QStringLiteral("scope")][QStringLiteral("run")].toString();
        }
        runs.sort();
        QCOMPARE(runs, DemoRun::runNames());
        QCOMPARE(root[QStringLiteral("summary")][QStringLiteral("errors")].toInt(),
                 status[QStringLiteral("findings")].toInt()
                     + countErrorsBesides(root, QStringLiteral("loss-not-decreasing")));

        // The text report names the rule and its new severity.
        const ::Result text = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--rules"), rules });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("[error] Loss is not decreasing (loss-not-decreasing, accuracy)"),
                 text.out.constData());
    }

    void adviseFailOnSetsTheExitCode()
    {
        const QString strict
            = writeRules(QStringLiteral("fail.json"),
                         { QJsonObject { { QStringLiteral("id"), QStringLiteral("loss-not-decreasing") },
                                         { QStringLiteral("threshold"), 100 },
                                         { QStringLiteral("severity"), QStringLiteral("warning") } } });
        auto advise = [this](const QStringList& more) {
            return run(QStringList { QStringLiteral("advise"), m_demo } + more).exitCode;
        };
        QCOMPARE(advise({ QStringLiteral("--rules"), strict, QStringLiteral("--fail-on"), QStringLiteral("warning") }),
                 1);
        QCOMPARE(advise({ QStringLiteral("--rules"), strict }), 0);

        // Every rule disabled: nothing can be found, whatever the level.
        const ::Result all = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--json") });
        QJsonArray off;
        for (const QJsonValue& v : QJsonDocument::fromJson(all.out).object().value(QStringLiteral("rules")).toArray())
            off.append(QJsonObject { { QStringLiteral("id"), v[QStringLiteral("id")].toString() },
                                     { QStringLiteral("enabled"), false } });
        QVERIFY(!off.isEmpty());
        const QString quiet = writeRules(QStringLiteral("quiet.json"), off);
        const ::Result none
            = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--json"), QStringLiteral("--rules"), quiet,
                    QStringLiteral("--fail-on"), QStringLiteral("warning") });
        QCOMPARE(none.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(none.out).object();
        QVERIFY(root.value(QStringLiteral("findings")).toArray().isEmpty());
        for (const QJsonValue& v : root.value(QStringLiteral("rules")).toArray()) {
            QVERIFY(!v[QStringLiteral("enabled")].toBool());
            QCOMPARE(v[QStringLiteral("reason")].toString(), QStringLiteral("disabled"));
        }
        // Only the strict rule on, as a warning: a warning gate fails, an error gate does not.
        const QString only = writeRules(QStringLiteral("only.json"),
                                        { QJsonObject { { QStringLiteral("id"), QStringLiteral("loss-not-decreasing") },
                                                        { QStringLiteral("enabled"), true } } });
        const QStringList onlyStrict { QStringLiteral("--rules"), quiet, QStringLiteral("--rules"), only,
                                       QStringLiteral("--rules"), strict };
        QCOMPARE(advise(onlyStrict + QStringList { QStringLiteral("--fail-on"), QStringLiteral("warning") }), 1);
        QCOMPARE(advise(onlyStrict + QStringList { QStringLiteral("--fail-on"), QStringLiteral("error") }), 0);
        QCOMPARE(advise({ QStringLiteral("--fail-on"), QStringLiteral("fatal") }), 2);
    }

    void adviseRejectsBadInput()
    {
        const QString broken = m_dir.filePath(QStringLiteral("broken rules.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{ \"rules\": [ { \"id\": ");
        file.close();
        Result r = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--rules"), broken });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(broken.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());

        const QString missing = m_dir.filePath(QStringLiteral("no-such-rules.json"));
        r = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--rules"), missing });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(missing.toUtf8()), r.err.constData());

        // A readable file with one bad entry: the entry is reported, naming file and rule, and the rest runs.
        const QString outside = writeRules(QStringLiteral("outside.json"),
                                           { QJsonObject { { QStringLiteral("id"), QStringLiteral("loss-spike") },
                                                           { QStringLiteral("threshold"), -5 } } });
        r = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--json"), QStringLiteral("--rules"), outside });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(outside.toUtf8()) && r.err.contains("loss-spike"), r.err.constData());
        QVERIFY(QJsonDocument::fromJson(r.out).isObject());

        r = run({ QStringLiteral("advise"), m_dir.filePath(QStringLiteral("does-not-exist")) });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("does-not-exist"));
        r = run({ QStringLiteral("advise") });
        QCOMPARE(r.exitCode, 2);
        // A CI gate must tell a typo from a finding.
        r = run({ QStringLiteral("advise"), m_demo, QStringLiteral("--fail-onn"), QStringLiteral("error") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("fail-onn"));
    }

    // `runlens compare --json` on the generated float32 and float16 runs: exactly the documented keys, the half
    // layer as the first divergence, non-finite and absent values as null.
    void compareJsonFollowsTheContract()
    {
        const QString runs = QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/runs");
        const ::Result r = run({ QStringLiteral("compare"), runs + QStringLiteral("/fp32/msprobe"),
                                 runs + QStringLiteral("/fp16/msprobe"), QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(keySet(root),
                 QSet<QString>({ "bench", "target", "mode", "summary", "first_divergence", "rows", "findings" }));
        QCOMPARE(root.value(QLatin1String("mode")).toString(), QStringLiteral("tensor"));
        const QJsonObject summary = root.value(QLatin1String("summary")).toObject();
        QCOMPARE(keySet(summary),
                 QSet<QString>({ "matched", "unmatched_bench", "unmatched_target", "pass", "warning", "error" }));
        QCOMPARE(summary.value(QLatin1String("matched")).toInt(), 16);
        QCOMPARE(summary.value(QLatin1String("pass")).toInt() + summary.value(QLatin1String("warning")).toInt()
                     + summary.value(QLatin1String("error")).toInt(),
                 16);
        const QJsonObject first = root.value(QLatin1String("first_divergence")).toObject();
        QCOMPARE(keySet(first), QSet<QString>({ "name", "kind", "index", "reason" }));
        QCOMPARE(first.value(QLatin1String("name")).toString(),
                 QStringLiteral("Module.layers.2.Linear.forward.0.output.0"));
        QCOMPARE(first.value(QLatin1String("kind")).toString(), QStringLiteral("output"));
        QCOMPARE(first.value(QLatin1String("index")).toInt(), 0);
        const QSet<QString> rowKeys { "name",      "bench_name", "target_name",   "kind",        "index",
                                      "dtype",     "shape",      "cosine",        "max_abs",     "max_rel",
                                      "mean_abs",  "rmse",       "rel_euclidean", "within_1e-3", "within_5e-3",
                                      "underflow", "overflow",   "nan_mismatch",  "verdict",     "introduced",
                                      "step",      "rank" };
        const QJsonArray rows = root.value(QLatin1String("rows")).toArray();
        QCOMPARE(rows.size(), 16);
        int introduced = 0;
        for (const QJsonValue& value : rows) {
            const QJsonObject row = value.toObject();
            QCOMPARE(keySet(row), rowKeys);
            QCOMPARE(row.value(QLatin1String("dtype")).toArray().size(), 2);
            QCOMPARE(row.value(QLatin1String("shape")).toArray().size(), 2);
            QVERIFY(QStringList({ "pass", "warning", "error", "none", "unmatched" })
                        .contains(row.value(QLatin1String("verdict")).toString()));
            QVERIFY(row.value(QLatin1String("introduced")).isBool());
            introduced += row.value(QLatin1String("introduced")).toBool();
            if (row.value(QLatin1String("name")).toString() == first.value(QLatin1String("name")).toString()) {
                QVERIFY(row.value(QLatin1String("underflow")).toInt() > 0);
                QCOMPARE(row.value(QLatin1String("dtype")).toArray().at(1).toString(), QStringLiteral("torch.float16"));
            }
        }
        QCOMPARE(introduced, 1);

        // The Advisor's comparison rules, as `advise` writes findings: the difference is introduced at the half
        // layer (a warning), which underflows; each finding opens its row in the Accuracy panel.
        QHash<QString, QJsonObject> findings;
        for (const QJsonValue& value : root.value(QLatin1String("findings")).toArray())
            findings.insert(value.toObject().value(QLatin1String("rule")).toString(), value.toObject());
        QCOMPARE(QSet<QString>(findings.keyBegin(), findings.keyEnd()),
                 QSet<QString>(
                     { "comparison-difference-introduced", "comparison-half-underflow", "comparison-dtype-differs" }));
        const QString half = first.value(QLatin1String("name")).toString();
        for (const QJsonObject& finding : std::as_const(findings)) {
            QCOMPARE(keySet(finding),
                     QSet<QString>({ "rule", "severity", "category", "title", "scope", "value", "threshold",
                                     "comparator", "unit", "message", "advice", "evidence", "occurrences" }));
            const QJsonObject scope = finding.value(QLatin1String("scope")).toObject();
            QCOMPARE(scope.value(QLatin1String("comparison")).toString(), QStringLiteral("fp32 vs fp16"));
            QCOMPARE(scope.value(QLatin1String("tensor")).toString(), half);
            QCOMPARE(finding.value(QLatin1String("evidence")).toArray().first().toString(),
                     QStringLiteral("runlens://compare?name=") + half);
        }
        const QJsonObject underflow = findings.value(QStringLiteral("comparison-half-underflow"));
        QCOMPARE(underflow.value(QLatin1String("severity")).toString(), QStringLiteral("warning"));
        QCOMPARE(underflow.value(QLatin1String("unit")).toString(), QStringLiteral("percent"));
        QVERIFY(underflow.value(QLatin1String("message"))
                    .toString()
                    .startsWith(QStringLiteral("Half precision underflow at ") + half));

        // Checkpoints of two formats: the perturbed weight is where they part.
        const ::Result ckpt = run({ QStringLiteral("compare"), runs + QStringLiteral("/fp32/model.pt"),
                                    runs + QStringLiteral("/perturbed/model.npz"), QStringLiteral("--json") });
        QVERIFY2(ckpt.exitCode == 0, ckpt.err.constData());
        const QJsonObject c = QJsonDocument::fromJson(ckpt.out).object();
        QCOMPARE(c.value(QLatin1String("first_divergence")).toObject().value(QLatin1String("name")).toString(),
                 QStringLiteral("0.weight"));
    }

    void compareOutputsAndExitCodes()
    {
        const QString runs = QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/runs");
        const QString bench = runs + QStringLiteral("/fp32/npy");
        auto compare = [&](const QString& target, const QStringList& more) {
            return run(QStringList { QStringLiteral("compare"), bench, runs + target } + more);
        };
        // The float16 run has warnings only, the perturbed one an error.
        QCOMPARE(
            compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--fail-on"), QStringLiteral("warning") }).exitCode,
            1);
        QCOMPARE(
            compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--fail-on"), QStringLiteral("error") }).exitCode, 0);
        QCOMPARE(compare(QStringLiteral("/perturbed/npy"), { QStringLiteral("--fail-on"), QStringLiteral("error") })
                     .exitCode,
                 1);
        QCOMPARE(
            compare(QStringLiteral("/fp32/npy"), { QStringLiteral("--fail-on"), QStringLiteral("warning") }).exitCode,
            0);
        QCOMPARE(compare(QStringLiteral("/perturbed/npy"), {}).exitCode, 0);

        const ::Result csv = compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--csv") });
        QCOMPARE(csv.exitCode, 0);
        const QList<QByteArray> lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 17);
        QVERIFY(lines.front().startsWith("name,bench_name,target_name,kind,index"));
        const ::Result md = compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--md") });
        QVERIFY(md.out.contains("layers.2.output"));
        QVERIFY(md.out.contains("| name |"));
        QVERIFY2(md.out.contains("## Findings\n\n- **Numbers part at an op** (Warning): The numbers begin to part at "
                                 "layers.2.output"),
                 md.out.constData());
        const ::Result text = compare(QStringLiteral("/fp16/npy"), {});
        QVERIFY2(text.out.contains("layers.2.output"), text.out.constData());
        QVERIFY2(text.out.contains(
                     "Findings:\n  [warning] Numbers part at an op: The numbers begin to part at layers.2.output"),
                 text.out.constData());
        QVERIFY(text.out.contains("[warning] Half precision underflow: Half precision underflow at layers.2.output: "));
        // A run against itself has nothing to say.
        QVERIFY(compare(QStringLiteral("/fp32/npy"), {}).out.endsWith("Findings:\n  none\n"));

        QCOMPARE(
            compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--fail-on"), QStringLiteral("fatal") }).exitCode, 2);
        QCOMPARE(run({ QStringLiteral("compare"), bench }).exitCode, 2);
        Result missing = run({ QStringLiteral("compare"), bench, m_dir.filePath(QStringLiteral("nowhere")) });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("nowhere"));
        const QString badMapping = m_dir.filePath(QStringLiteral("bad-mapping.yaml"));
        QFile f(badMapping);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("sections:\n  a: b\n");
        f.close();
        missing = compare(QStringLiteral("/fp16/npy"), { QStringLiteral("--mapping"), badMapping });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("bad-mapping.yaml"));
    }

    void adviseHealthyRunHasNoAccuracyFinding()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString healthy = samples + QStringLiteral("/runs/pytorch_cnn_baseline");
        RUNLENS_REQUIRE_SAMPLE_FILE(healthy);
        const ::Result r = run({ QStringLiteral("advise"), healthy, QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QVERIFY(root.contains(QStringLiteral("findings")));
        for (const QJsonValue& v : root.value(QStringLiteral("findings")).toArray())
            QVERIFY2(v[QStringLiteral("category")].toString() != QLatin1String("accuracy"),
                     qPrintable(v[QStringLiteral("rule")].toString() + QStringLiteral(": ")
                                + v[QStringLiteral("message")].toString()));
    }

    void jobFolderIsOneRunEverywhere()
    {
        // A job folder (tb/, profiler/, dump/step_N/, graph/, metrics.csv, state_dict.npz) is one run, named
        // after the folder by scan, info and advise alike, as the window names it.
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString job = samples + QStringLiteral("/runs/pytorch_cnn_baseline");
        RUNLENS_REQUIRE_SAMPLE_FILE(job);
        const QString name = QStringLiteral("pytorch_cnn_baseline");

        const ::Result scanText = run({ QStringLiteral("scan"), job });
        QCOMPARE(scanText.exitCode, 0);
        QStringList runLines;
        for (const QByteArray& line : scanText.out.split('\n')) {
            if (line.startsWith("run "))
                runLines << QString::fromUtf8(line);
        }
        QCOMPARE(runLines.size(), 1);
        QVERIFY2(runLines.first().startsWith(QStringLiteral("run ") + name + QStringLiteral(" (")),
                 qPrintable(runLines.first()));

        const ::Result scanJson = run({ QStringLiteral("scan"), job, QStringLiteral("--json") });
        QCOMPARE(scanJson.exitCode, 0);
        const QJsonObject scan = QJsonDocument::fromJson(scanJson.out).object();
        const QJsonArray runs = scan.value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first()[QStringLiteral("name")].toString(), QStringLiteral("."));
        QCOMPARE(runs.first()[QStringLiteral("display_name")].toString(), name);
        for (const QJsonValue& v : scan.value(QStringLiteral("artifacts")).toArray())
            QCOMPARE(v[QStringLiteral("run_display_name")].toString(), name);

        const ::Result info = run({ QStringLiteral("info"), job });
        QVERIFY2(info.exitCode == 0, info.err.constData());
        int artifactLines = 0;
        for (const QByteArray& line : info.out.split('\n')) {
            if (line.contains("  run ")) {
                ++artifactLines;
                QVERIFY2(line.contains(QStringLiteral("  run %1  ").arg(name).toUtf8()), line.constData());
            }
        }
        QVERIFY(artifactLines > 100);

        const ::Result advise = run({ QStringLiteral("advise"), job, QStringLiteral("--json") });
        QVERIFY2(advise.exitCode == 0, advise.err.constData());
        const QJsonArray findings
            = QJsonDocument::fromJson(advise.out).object().value(QStringLiteral("findings")).toArray();
        for (const QJsonValue& v : findings) {
            const QJsonObject scope = v[QStringLiteral("scope")].toObject();
            if (scope.value(QStringLiteral("run")).isNull())
                continue;
            QCOMPARE(scope.value(QStringLiteral("run")).toString(), QStringLiteral("."));
            QCOMPARE(scope.value(QStringLiteral("run_display_name")).toString(), name);
            const QString message = v[QStringLiteral("message")].toString();
            for (const char* other : { "run .", "run tb", "run dump", "run graph", "run profiler" })
                QVERIFY2(!message.contains(QLatin1String(other)), qPrintable(message));
        }
        // export --run takes the name scan shows too.
        QTemporaryDir dir;
        const ::Result exported = run({ QStringLiteral("export"), job, QStringLiteral("--chart"),
                                        QStringLiteral("distributions:weights/conv2.weight"), QStringLiteral("--run"),
                                        name, QStringLiteral("--out"), dir.filePath(QStringLiteral("d.csv")) });
        QVERIFY2(exported.exitCode == 0, exported.err.constData());

        const ::Result adviseText = run({ QStringLiteral("advise"), job });
        QVERIFY2(adviseText.exitCode == 0, adviseText.err.constData());
        for (const char* other : { "run .", "run tb,", "run dump", "run graph", "run profiler" })
            QVERIFY2(!adviseText.out.contains(other), adviseText.out.constData());
    }

private:
    QString writeRules(const QString& name, const QJsonArray& entries)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(QJsonDocument(QJsonObject { { QStringLiteral("rules"), entries } }).toJson());
        return path;
    }

    static int countErrorsBesides(const QJsonObject& root, const QString& ruleId)
    {
        int count = 0;
        for (const QJsonValue& v : root.value(QStringLiteral("findings")).toArray())
            count += v[QStringLiteral("severity")].toString() == QLatin1String("error")
                && v[QStringLiteral("rule")].toString() != ruleId;
        return count;
    }

    QTemporaryDir m_dir;
    QString m_demo;
    QStringList m_listing;
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
