#include "importers/core/runscanner.h"
#include "importers/tensor/dumpindexer.h"
#include "importers/tensor/tensorcatalogbuilder.h"
#include "tests/importers/tensor/tensortestutils.h"
#include "tests/testutils.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::tensor;
using namespace runlens::models;
using namespace runlens::models::graph;
using namespace runlens::models::tensor;

Q_DECLARE_METATYPE(runlens::models::graph::DumpIo)

namespace {

using runlens::test::npyManifest;
using runlens::test::writeFile;

QStringList roles(const DumpIndex& index, const QList<int>& found)
{
    QStringList out;
    for (const int i : found)
        out << QStringLiteral("%1:%2:%3")
                   .arg(index.entries()[i].step)
                   .arg(index.entries()[i].role(), index.entries()[i].typeText());
    return out;
}

} // namespace

class TestDumpIndexer : public QObject
{
    Q_OBJECT

private slots:
    void fileNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("opType");
        QTest::addColumn<DumpIo>("io");
        QTest::addColumn<int>("slot");
        QTest::addColumn<QString>("kind");
        QTest::newRow("mindspore with dtype")
            << "Conv2D.Conv2D-op12.0.0.1623124369613540.output.0.DefaultFormat.float16.npy"
            << "Conv2D-op12"
            << "Conv2D" << DumpIo::Output << 0 << "output";
        QTest::newRow("mindspore input 2") << "MatMul.MatMul-op5.3.1.1623124369613540.input.2.NCHW.npy"
                                           << "MatMul-op5"
                                           << "MatMul" << DumpIo::Input << 2 << "input";
        QTest::newRow("mindspore parameter") << "Parameter.data-1.0.0.1623124369.output.0.DefaultFormat.npy"
                                             << "data-1"
                                             << "Parameter" << DumpIo::Output << 0 << "output";
        QTest::newRow("mindspore full name")
            << "Conv2D.Default_network-LeNet5_conv1-Conv2d_Conv2D-op12.2.0.99.input.0.DefaultFormat.float32.npy"
            << "Default_network-LeNet5_conv1-Conv2d_Conv2D-op12"
            << "Conv2D" << DumpIo::Input << 0 << "input";
        QTest::newRow("torch module") << "conv1.weight.npy"
                                      << "conv1"
                                      << "" << DumpIo::Other << -1 << "weight";
        QTest::newRow("torch nested") << "layer1.0.conv1.weight_grad.npy"
                                      << "layer1.0.conv1"
                                      << "" << DumpIo::Other << -1 << "weight_grad";
        QTest::newRow("torch batch") << "batch.input.npy"
                                     << "batch"
                                     << "" << DumpIo::Other << -1 << "input";
        QTest::newRow("bare") << "tensor.npy"
                              << "tensor"
                              << "" << DumpIo::Other << -1 << "";
    }

    void fileNames()
    {
        QFETCH(QString, name);
        const DumpFileName parsed = parseDumpFileName(name);
        QTEST(parsed.nodeKey, "key");
        QTEST(parsed.opType, "opType");
        QTEST(parsed.io, "io");
        QTEST(parsed.slot, "slot");
        QTEST(parsed.kind, "kind");
    }

    void steps_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("step");
        QTest::newRow("step_N") << "dump/step_30/conv1.act.npy" << 30;
        QTest::newRow("iteration_N") << "iteration_7/x.npy" << 7;
        QTest::newRow("mindspore") << "rank_0/Net/0/5/Conv2D.Conv2D-op1.0.0.1.output.0.F.npy" << 5;
        QTest::newRow("nearest wins") << "step_1/sub/step_2/x.npy" << 2;
        QTest::newRow("mindspore net folder opened") << "0/12/Add.Add-op3.0.0.1.output.0.F.npy" << 12;
        QTest::newRow("one number is no iteration") << "rank_0/Net/1/x.npy" << -1;
        QTest::newRow("none") << "x.npy" << -1;
        QTest::newRow("file name is no folder") << "dump/step_3.npy" << -1;
        QTest::newRow("iter-N") << "iter-12/x.npy" << 12;
        QTest::newRow("not a whole step word") << "stepper_3/x.npy" << -1;
    }

    void steps()
    {
        QFETCH(QString, path);
        QTEST(stepOfFolders(path), "step");
    }

    void generatedFolders()
    {
        QTemporaryDir dir;
        const QByteArray f16 = test::npyFile("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }", 12);
        const QByteArray f32 = test::npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", 16);
        const QByteArray i64 = test::npyFile("{'descr': '<i8', 'fortran_order': False, 'shape': (), }", 8);
        const QStringList files = {
            QStringLiteral("rank_0/Net/0/3/Conv2D.Conv2D-op12.0.0.1623124369613540.output.0.DefaultFormat.float16.npy"),
            QStringLiteral("rank_0/Net/0/3/Conv2D.Conv2D-op12.0.0.1623124369613540.input.1.DefaultFormat.float32.npy"),
            QStringLiteral("rank_0/Net/0/3/Conv2D.Conv2D-op12.0.0.1623124369613540.input.0.DefaultFormat.float32.npy"),
            QStringLiteral("rank_0/Net/0/4/Conv2D.Conv2D-op12.0.0.1623124369999999.output.0.DefaultFormat.float16.npy"),
            QStringLiteral("rank_0/Net/0/4/Add.Add-op3.0.0.1623124369999999.output.0.DefaultFormat.npy"),
            QStringLiteral("dump/step_5/layer1.0.conv1.weight.npy"),
            QStringLiteral("dump/step_5/layer1.0.conv1.act.npy"),
            QStringLiteral("dump/iteration_6/fc.step.npy"),
        };
        const QList<QByteArray> contents = { f16, f32, f32, f16, f32.left(f32.size() - 3), f16, f32, i64 };
        for (int i = 0; i < files.size(); ++i)
            writeFile(dir.filePath(files[i]), contents[i]);

        const DumpIndex index = DumpIndexer::index(npyManifest(dir.path(), files));
        QCOMPARE(index.entries().size(), 7);
        QCOMPARE(index.diagnostics().size(), 1);
        QCOMPARE(index.diagnostics().front().file, dir.filePath(files[4]));
        QVERIFY(index.diagnostics().front().message.contains(QLatin1String("truncated")));

        QCOMPARE(
            roles(index, index.find(QStringLiteral("Conv2D-op12"))),
            (QStringList { QStringLiteral("3:input 0:float32[4]"), QStringLiteral("3:input 1:float32[4]"),
                           QStringLiteral("3:output 0:float16[2,3]"), QStringLiteral("4:output 0:float16[2,3]") }));
        QCOMPARE(roles(index, index.findForScope(QStringLiteral("layer1/0/conv1"))),
                 (QStringList { QStringLiteral("5:act:float32[4]"), QStringLiteral("5:weight:float16[2,3]") }));
        QCOMPARE(roles(index, index.find(QStringLiteral("fc"))), QStringList { QStringLiteral("6:step:int64[]") });
        QVERIFY(index.find(QStringLiteral("Add-op3")).isEmpty());
        const DumpEntry& output = index.entries()[index.find(QStringLiteral("Conv2D-op12")).at(2)];
        QCOMPARE(output.opType, QStringLiteral("Conv2D"));
        QCOMPARE(output.dataOffset, f16.size() - 12);
        QCOMPARE(output.dataSize, 12);

        // Built with the catalog from the same header reads, the index is the same, entry for entry.
        const TensorCatalogBuilder::WithDumps both
            = TensorCatalogBuilder::buildWithDumps(npyManifest(dir.path(), files));
        QCOMPARE(both.dumps.entries().size(), index.entries().size());
        for (qsizetype i = 0; i < index.entries().size(); ++i) {
            const DumpEntry& a = index.entries()[i];
            const DumpEntry& b = both.dumps.entries()[i];
            QCOMPARE(b.path, a.path);
            QCOMPARE(b.step, a.step);
            QCOMPARE(b.role(), a.role());
            QCOMPARE(b.nodeKey, a.nodeKey);
            QCOMPARE(b.typeText(), a.typeText());
            QCOMPARE(b.dataOffset, a.dataOffset);
        }
        QCOMPARE(both.dumps.diagnostics().size(), 1);
        QCOMPARE(both.dumps.diagnostics().front().message, index.diagnostics().front().message);
        QCOMPARE(both.catalog.isEmpty(), false);

        std::atomic_bool cancel = true;
        ImportControl control;
        control.cancel = &cancel;
        QVERIFY(DumpIndexer::index(npyManifest(dir.path(), files), control).isEmpty());
    }

    void sampleRun()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString root = samples + QStringLiteral("/runs/pytorch_cnn_baseline");
        const RunManifest manifest = RunScanner().scan(root);
        const DumpIndex index = DumpIndexer::index(manifest);
        QVERIFY(index.diagnostics().isEmpty());

        // Every .npy under dump/ is indexed, with the step of its folder.
        QStringList paths;
        QMap<int, int> perStep;
        for (const DumpEntry& entry : index.entries()) {
            paths << entry.path;
            ++perStep[entry.step];
        }
        int onDisk = 0;
        for (const QString& step : { QStringLiteral("step_0"), QStringLiteral("step_30"), QStringLiteral("step_59") }) {
            const int count
                = int(QDir(root + QStringLiteral("/dump/") + step).entryList({ QStringLiteral("*.npy") }).size());
            QCOMPARE(perStep.value(step.mid(5).toInt()), count);
            onDisk += count;
        }
        QCOMPARE(index.entries().size(), onDisk);

        const QList<int> conv1 = index.findForScope(QStringLiteral("conv1"));
        QStringList conv1Roles;
        for (const int i : conv1)
            if (index.entries()[i].step == 0)
                conv1Roles << index.entries()[i].role();
        QCOMPARE(conv1Roles,
                 (QStringList { QStringLiteral("act"), QStringLiteral("bias"), QStringLiteral("bias_grad"),
                                QStringLiteral("weight"), QStringLiteral("weight_grad") }));

        // Types and shapes against numpy.
        const test::PythonRun described = test::runNpyOracle(QStringList { QStringLiteral("describe") } + paths);
        RUNLENS_VERIFY_PYTHON(described);
        const QStringList lines = described.output.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), paths.size());
        for (int i = 0; i < lines.size(); ++i) {
            const QStringList f = lines[i].split(QLatin1Char('\t'));
            QCOMPARE(f[0], index.entries()[i].path);
            QCOMPARE(index.entries()[i].typeText(), QStringLiteral("%1[%2]").arg(f[1], f[2]));
        }
    }
};

QTEST_GUILESS_MAIN(TestDumpIndexer)
#include "tst_dumpindexer.moc"
