#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/demo/demomodel.h"
#include "importers/demo/demorun.h"
#include "importers/demo/demotensors.h"
#include "importers/demo/demotrace.h"
#include "importers/tensor/tensorcatalogbuilder.h"
#include "models/graph/graph.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <memory>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::demo;
using namespace runlens::models;

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Relative path -> contents of every file below `dir`.
QMap<QString, QByteArray> contents(const QString& dir)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        out.insert(QDir(dir).relativeFilePath(it.filePath()), readAll(it.filePath()));
    }
    return out;
}

} // namespace

/// The demo run fills every panel: besides its scalar runs it holds a profiler trace, a model graph and
/// weight dumps, and all of them import cleanly. The trace and the dumps are checked against their own bytes
/// (parsed here with QJsonDocument and by hand) rather than against what the importers say alone.
class TestDemoRun : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(DemoRun::write(m_dir.path(), &error), qPrintable(error));
        m_manifest = RunScanner().scan(m_dir.path());
        m_session = std::make_unique<ImportSession>(m_manifest);
        connect(m_session.get(), &ImportSession::graphArrived, this,
                [this](int, std::shared_ptr<const models::graph::Graph> graph) { m_graph = std::move(graph); });
        m_session->importBlocking();
        const QString profiler = m_dir.filePath(QStringLiteral("baseline/profiler"));
        const QStringList traces = QDir(profiler).entryList({ QStringLiteral("*.pt.trace.json") }, QDir::Files);
        QCOMPARE(traces.size(), 1);
        m_tracePath = QDir(profiler).filePath(traces.first());
        QJsonParseError parseError;
        m_trace = QJsonDocument::fromJson(readAll(m_tracePath), &parseError).object();
        QCOMPARE(parseError.error, QJsonParseError::NoError);
    }

    void sameFolderEveryTime()
    {
        QTemporaryDir again;
        QVERIFY(DemoRun::write(again.path()));
        const QMap<QString, QByteArray> first = contents(m_dir.path());
        QCOMPARE(contents(again.path()), first);
        qint64 bytes = 0;
        for (const QByteArray& data : first)
            bytes += data.size();
        QVERIFY2(bytes < 15 * 1024 * 1024, qPrintable(QString::number(bytes)));
    }

    void scannerFindsEveryArtifact()
    {
        QVERIFY2(m_manifest.diagnostics.isEmpty(), qPrintable(m_manifest.diagnostics.value(0).message));
        QMap<ArtifactKind, int> kinds;
        for (const Artifact& artifact : m_manifest.artifacts) {
            ++kinds[artifact.kind];
            // Everything but the second run's event file belongs to the profiled first run.
            if (artifact.kind != ArtifactKind::TensorBoardEvents)
                QCOMPARE(artifact.run, DemoRun::runNames().first());
        }
        QCOMPARE(kinds.value(ArtifactKind::TensorBoardEvents), DemoRun::runNames().size());
        QCOMPARE(kinds.value(ArtifactKind::ChromeTrace), 1);
        QCOMPARE(kinds.value(ArtifactKind::GraphDot), 1);
        QCOMPARE(kinds.value(ArtifactKind::TensorNpy),
                 int(importers::demo::DemoTensors::names().size()
                     * importers::demo::DemoTensors::steps().size()));
        QCOMPARE(kinds.size(), 4);
        QCOMPARE(m_manifest.runs(), DemoRun::runNames());
    }

    void everythingImportsWithoutDiagnostics()
    {
        QCOMPARE(int(m_session->states().size()), int(m_manifest.artifacts.size()));
        for (int i = 0; i < m_session->artifactCount(); ++i) {
            const ArtifactState& state = m_session->state(i);
            const QString path = m_manifest.artifacts[i].relativePath;
            QVERIFY2(state.status == ImportStatus::Ok, qPrintable(path));
            QVERIFY2(state.diagnostics.isEmpty(),
                     qPrintable(path + QStringLiteral(": ") + state.diagnostics.value(0).message));
        }
    }

    void traceHasStepsKernelsAndMemory()
    {
        const int index = m_manifest.indexOfPath(m_tracePath);
        QVERIFY(index >= 0);
        const ArtifactState& state = m_session->state(index);
        QVERIFY(state.trace.has_value());

        // Count in the file itself what the importer should have found.
        const QJsonArray events = m_trace.value(QStringLiteral("traceEvents")).toArray();
        QStringList steps;
        QHash<qint64, QJsonObject> launches;
        QList<QJsonObject> kernels;
        QList<QJsonObject> memory;
        int dataLoader = 0;
        int memcpy = 0;
        for (const QJsonValue& value : events) {
            const QJsonObject e = value.toObject();
            const QString name = e.value(QStringLiteral("name")).toString();
            const QString cat = e.value(QStringLiteral("cat")).toString();
            if (name.startsWith(QLatin1String("ProfilerStep#")))
                steps << name;
            if (name.startsWith(QLatin1String("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__")))
                ++dataLoader;
            if (cat == QLatin1String("cuda_runtime") && name == QLatin1String("cudaLaunchKernel"))
                launches.insert(e[QStringLiteral("args")][QStringLiteral("correlation")].toInteger(), e);
            if (cat == QLatin1String("kernel"))
                kernels << e;
            if (cat == QLatin1String("gpu_memcpy"))
                ++memcpy;
            if (name == QLatin1String("[memory]"))
                memory << e;
        }
        QStringList expectedSteps;
        for (int s = 0; s < importers::demo::DemoTrace::kProfilerSteps; ++s)
            expectedSteps << QStringLiteral("ProfilerStep#%1").arg(importers::demo::DemoTrace::kFirstStep + s);
        QCOMPARE(steps, expectedSteps);
        QCOMPARE(dataLoader, importers::demo::DemoTrace::kProfilerSteps);
        QVERIFY(memcpy >= importers::demo::DemoTrace::kProfilerSteps);

        // Every kernel has its launch: same correlation and External id, launched before it started.
        QVERIFY(kernels.size() > 100);
        for (const QJsonObject& kernel : kernels) {
            const QJsonObject args = kernel.value(QStringLiteral("args")).toObject();
            const QJsonObject launch = launches.value(args.value(QStringLiteral("correlation")).toInteger());
            QVERIFY(!launch.isEmpty());
            QCOMPARE(launch[QStringLiteral("args")][QStringLiteral("External id")].toInteger(),
                     args.value(QStringLiteral("External id")).toInteger());
            QVERIFY(launch.value(QStringLiteral("ts")).toDouble() < kernel.value(QStringLiteral("ts")).toDouble());
            QCOMPARE(kernel.value(QStringLiteral("tid")).toInt(), args.value(QStringLiteral("stream")).toInt());
        }
        QCOMPARE(launches.size(), kernels.size());

        // Each memory event's total is the previous total plus its bytes, per device; the curve has a peak.
        QHash<int, qint64> totals;
        qint64 peak = 0;
        for (const QJsonObject& e : memory) {
            const QJsonObject args = e.value(QStringLiteral("args")).toObject();
            for (const char* key : { "Total Allocated", "Total Reserved", "Bytes", "Addr", "Device Type", "Device Id" })
                QVERIFY2(args.contains(QLatin1String(key)), key);
            const int device = args.value(QStringLiteral("Device Type")).toInt();
            const qint64 total = args.value(QStringLiteral("Total Allocated")).toInteger();
            if (totals.contains(device))
                QCOMPARE(total, totals.value(device) + args.value(QStringLiteral("Bytes")).toInteger());
            totals[device] = total;
            if (device == 1) {
                peak = std::max(peak, total);
                QVERIFY(args.value(QStringLiteral("Total Reserved")).toInteger() >= total);
            }
        }
        QCOMPARE(totals.size(), 2); // the CPU batch and the CUDA device

        const models::trace::TraceSummary& summary = *state.trace;
        QCOMPARE(summary.steps, importers::demo::DemoTrace::kProfilerSteps);
        QCOMPARE(qint64(summary.byKind.value(QStringLiteral("kernel"))), qint64(kernels.size()));
        QCOMPARE(qint64(summary.memoryEvents), qint64(memory.size()));
        // One flow (a start and its finish) from each launch and each copy to what it started.
        QCOMPARE(qint64(summary.flows), qint64(kernels.size() + memcpy));

        QVERIFY(state.memory.has_value());
        const auto cuda = std::find_if(state.memory->begin(), state.memory->end(), [](const MemoryDeviceSummary& d) {
            return d.device == QLatin1String("cuda:0");
        });
        QVERIFY(cuda != state.memory->end());
        QCOMPARE(cuda->peakBytes, peak);
        QCOMPARE(cuda->capacity, importers::demo::DemoTrace::kDeviceMemory);
        QVERIFY(!cuda->peakOp.isEmpty());
        // A real peak: well above what the step starts and ends with.
        QVERIFY(peak > 100 * 1024 * 1024);
        QVERIFY(totals.value(1) < peak / 10);

        const QJsonArray devices = m_trace.value(QStringLiteral("deviceProperties")).toArray();
        QCOMPARE(devices.size(), 1);
        QCOMPARE(devices[0][QStringLiteral("totalGlobalMem")].toInteger(),
                 importers::demo::DemoTrace::kDeviceMemory);
    }

    void graphHasScopes()
    {
        int index = -1;
        for (int i = 0; i < m_manifest.artifacts.size(); ++i)
            if (m_manifest.artifacts[i].kind == ArtifactKind::GraphDot)
                index = i;
        QVERIFY(index >= 0);
        const ArtifactState& state = m_session->state(index);
        QVERIFY(state.graph.has_value());
        // layer1, layer1/0, layer1/1, layer2, layer2/0, layer2/0/downsample, layer2/1.
        QCOMPARE(state.graph->groups, 7);
        QCOMPARE(state.graph->maxDepth, 3);

        QVERIFY(m_graph);
        QHash<QString, const models::graph::Node*> byName;
        for (const models::graph::Node& node : m_graph->nodes)
            byName.insert(QString::fromStdString(node.fullName()), &node);
        for (const importers::demo::DemoModel::Layer& layer : importers::demo::DemoModel::layers()) {
            const models::graph::Node* node = byName.value(layer.node);
            QVERIFY2(node, qPrintable(layer.node));
            QCOMPARE(QString::fromStdString(node->opType), importers::demo::DemoModel::opType(layer.type));
        }
        const models::graph::Node* conv = byName.value(QStringLiteral("layer1/0/conv1"));
        QVERIFY(conv);
        QCOMPARE(conv->scope, std::string("layer1/0"));
        QCOMPARE(conv->name, std::string("conv1"));
        const models::graph::Node* weight = byName.value(QStringLiteral("layer1/0/conv1.weight"));
        QVERIFY(weight);
        QCOMPARE(weight->kind, models::graph::NodeKind::Parameter);
        // The weight feeds the convolution, whose input is the stem's ReLU.
        QStringList producers;
        for (const models::graph::Port& port : conv->inputs)
            producers << QString::fromStdString(m_graph->nodes[std::size_t(port.producer)].fullName());
        producers.sort();
        QCOMPARE(producers, (QStringList { QStringLiteral("layer1/0/conv1.weight"), QStringLiteral("relu") }));
    }

    void tensorCatalogHasSeriesWithSteps()
    {
        const models::tensor::TensorCatalog catalog = importers::tensor::TensorCatalogBuilder::build(m_manifest);
        QVERIFY(catalog.diagnostics().isEmpty());
        QCOMPARE(catalog.steps(), importers::demo::DemoTensors::steps());
        for (const QString& name : importers::demo::DemoTensors::names()) {
            const int index = catalog.indexOf(name);
            QVERIFY2(index >= 0, qPrintable(name));
            const models::tensor::TensorSeries& series = catalog.series()[index];
            QCOMPARE(series.steps(), importers::demo::DemoTensors::steps());
            QCOMPARE(series.run, DemoRun::runNames().first());
        }
        // The graph's convolution finds its weights, '/' and '.' alike.
        const QList<int> found = catalog.findNodeKey(QStringLiteral("layer1/0/conv1"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(catalog.series()[found.first()].name, QStringLiteral("layer1.0.conv1.weight"));
    }

    void dumpsAreNpyVersionOneAndChangeOverSteps()
    {
        const QDir dump(m_dir.filePath(QStringLiteral("baseline/dump")));
        QByteArray previous;
        for (const int step : importers::demo::DemoTensors::steps()) {
            const QByteArray bytes = readAll(dump.filePath(QStringLiteral("step_%1/conv1.weight.npy").arg(step)));
            // The format as numpy documents it: magic, version 1.0, a little-endian header length, a
            // Python dict padded so the data starts on a 64-byte boundary, then the raw values.
            QVERIFY(bytes.startsWith(QByteArray("\x93NUMPY\x01\x00", 8)));
            const int headerLength = qFromLittleEndian<quint16>(bytes.constData() + 8);
            QCOMPARE((10 + headerLength) % 64, 0);
            const QByteArray header = bytes.mid(10, headerLength);
            QVERIFY(header.endsWith('\n'));
            QVERIFY2(header.contains("'descr': '<f4'"), header.constData());
            QVERIFY2(header.contains("'fortran_order': False"), header.constData());
            QVERIFY2(header.contains("'shape': (16, 3, 3, 3)"), header.constData());
            const QByteArray data = bytes.mid(10 + headerLength);
            QCOMPARE(data.size(), 16 * 3 * 3 * 3 * 4);
            QVERIFY(data != previous);
            previous = data;
        }
        const QByteArray bias = readAll(dump.filePath(QStringLiteral("step_0/fc.bias.npy")));
        QVERIFY(bias.contains("'shape': (10,)"));
    }

private:
    QTemporaryDir m_dir;
    RunManifest m_manifest;
    std::unique_ptr<ImportSession> m_session;
    std::shared_ptr<const models::graph::Graph> m_graph;
    QString m_tracePath;
    QJsonObject m_trace;
};

QTEST_GUILESS_MAIN(TestDemoRun)
#include "tst_demorun.moc"
