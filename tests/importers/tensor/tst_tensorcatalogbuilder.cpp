#include "importers/core/runscanner.h"
#include "importers/tensor/tensorcatalogbuilder.h"
#include "models/tensor/dumpnaming.h"
#include "models/tensor/tensorstatistics.h"
#include "tests/importers/tensor/tensortestutils.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::tensor;
using namespace runlens::models;
using namespace runlens::models::tensor;

namespace {

using runlens::test::writeFile;

/// A float32 .npy of `count` elements holding `first`, `first + 1`, ...
QByteArray floatNpy(int count, float first, const QByteArray& shape = {})
{
    const QByteArray dict = "{'descr': '<f4', 'fortran_order': False, 'shape': ("
        + (shape.isEmpty() ? QByteArray::number(count) + ',' : shape) + "), }";
    QByteArray out = runlens::test::npyFile(dict, 0);
    for (int i = 0; i < count; ++i) {
        const float v = first + float(i);
        out.append(reinterpret_cast<const char*>(&v), 4);
    }
    return out;
}

TensorCatalog scanAndBuild(const QString& root)
{
    return TensorCatalogBuilder::build(RunScanner().scan(root));
}

QStringList seriesNames(const TensorCatalog& catalog)
{
    QStringList out;
    for (const TensorSeries& s : catalog.series())
        out << s.name;
    return out;
}

} // namespace

class TestTensorCatalogBuilder : public QObject
{
    Q_OBJECT

private slots:
    void samplesMatchNumpy()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString run = samples + QStringLiteral("/runs/pytorch_cnn_baseline");
        const TensorCatalog catalog = scanAndBuild(run);
        QVERIFY2(catalog.diagnostics().isEmpty(),
                 qPrintable(catalog.diagnostics().isEmpty() ? QString() : catalog.diagnostics().first().toString()));

        QStringList files;
        QDirIterator it(run, { QStringLiteral("*.npy"), QStringLiteral("*.npz") }, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
        RUNLENS_PYTHON_ORACLE(minMax,
                              QStringList { QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/tensor_minmax.py") } + files);
        const QStringList lines = minMax.split(u'\n', Qt::SkipEmptyParts);
        QVERIFY(lines.size() >= 100);
        int seen = 0;
        for (const QString& line : lines) {
            const QStringList f = line.split(u'\t');
            QCOMPARE(f.size(), 5);
            const auto [series, version] = catalog.findLocation(f[0]);
            QVERIFY2(series >= 0, qPrintable(f[0]));
            const TensorInfo& info = catalog.series()[series].versions[version];
            QCOMPARE(QString::fromLatin1(dtypeName(info.dtype)), f[1]);
            QStringList shape;
            for (const std::int64_t d : info.shape)
                shape << QString::number(d);
            QCOMPARE(shape.join(u','), f[2]);
            const TensorResult opened = info.source->open();
            QVERIFY2(opened.tensor, qPrintable(opened.error));
            QVERIFY(opened.tensor->isContiguous());
            const TensorStatistics stats
                = computeStatistics(opened.tensor->data->data() + opened.tensor->offset, opened.tensor->elementCount(),
                                    info.dtype, opened.tensor->swap, {});
            QCOMPARE(stats.min, f[3].toDouble());
            QCOMPARE(stats.max, f[4].toDouble());
            ++seen;
        }
        QVERIFY(seen >= 100);

        // One series per tensor, with its three steps, module and role.
        const int weight = catalog.indexOf(QStringLiteral("conv1.weight"));
        QVERIFY(weight >= 0);
        const TensorSeries& conv1 = catalog.series()[weight];
        QCOMPARE(conv1.steps(), (QList<int> { 0, 30, 59 }));
        QCOMPARE(conv1.nodeKey, QStringLiteral("conv1"));
        QCOMPARE(conv1.kind, QStringLiteral("weight"));
        QVERIFY(catalog.findNodeKey(QStringLiteral("conv1")).contains(weight));
        QCOMPARE(catalog.steps(), (QList<int> { 0, 30, 59 }));
        // Archive members are series of their own, linked to the module their key names.
        const int stored = catalog.indexOf(QStringLiteral("state_dict.npz/conv1.weight"));
        QVERIFY2(stored >= 0, qPrintable(seriesNames(catalog).join(u',')));
        QCOMPARE(catalog.series()[stored].nodeKey, QStringLiteral("conv1"));
        QCOMPARE(catalog.series()[stored].versions.first().format, QStringLiteral("npz"));
        QVERIFY(catalog.findNodeKey(QStringLiteral("conv1")).contains(stored));
        const int deflated = catalog.indexOf(QStringLiteral("state_dict.compressed.npz/conv1.weight"));
        QVERIFY(deflated >= 0);
        QCOMPARE(catalog.series()[deflated].versions.first().source->isImmediate(), false);
        const int fp16 = catalog.indexOf(QStringLiteral("fc1.weight_fp16"));
        QVERIFY(fp16 >= 0);
        QCOMPARE(catalog.series()[fp16].versions.first().dtype, DType::Float16);
    }

    void stepFoldersOpenedAsRunsStillGroup()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("dump/step_0/fc.weight.npy")), floatNpy(2, 0));
        writeFile(dir.filePath(QStringLiteral("dump/step_5/fc.weight.npy")), floatNpy(2, 1));
        // Opened on the dump folder, each step folder is a run to the scanner; the tensor is one series.
        const TensorCatalog catalog = scanAndBuild(dir.filePath(QStringLiteral("dump")));
        QCOMPARE(seriesNames(catalog), QStringList { QStringLiteral("fc.weight") });
        QCOMPARE(catalog.series().first().steps(), (QList<int> { 0, 5 }));
        QCOMPARE(catalog.series().first().run, QStringLiteral("."));
    }

    void mindsporeDumpsGroupByIteration()
    {
        QTemporaryDir dir;
        const QString net = dir.filePath(QStringLiteral("dump/rank_1/Net/0/"));
        // Task, stream and timestamp differ between iterations; the tensor is the same.
        writeFile(net + QStringLiteral("0/Conv2D.Conv2D-op12.0.0.1623124369613540.output.0.DefaultFormat.npy"),
                  floatNpy(4, 0));
        writeFile(net + QStringLiteral("1/Conv2D.Conv2D-op12.3.1.1623124369999999.output.0.DefaultFormat.npy"),
                  floatNpy(4, 10));
        writeFile(net + QStringLiteral("1/Conv2D.Conv2D-op12.3.1.1623124369999999.input.1.NCHW.float16.npy"),
                  floatNpy(2, 5));
        const TensorCatalog catalog = scanAndBuild(dir.path());
        QCOMPARE(catalog.series().size(), 2);
        const int out = catalog.indexOf(QStringLiteral("Conv2D-op12 output 0"));
        QVERIFY2(out >= 0, qPrintable(seriesNames(catalog).join(u',')));
        const TensorSeries& s = catalog.series()[out];
        QCOMPARE(s.steps(), (QList<int> { 0, 1 }));
        QCOMPARE(s.opType, QStringLiteral("Conv2D"));
        QCOMPARE(s.io, models::graph::DumpIo::Output);
        QCOMPARE(s.slot, 0);
        QCOMPARE(s.rank, 1);
        QCOMPARE(catalog.findNodeKey(QStringLiteral("Conv2D-op12")).size(), 2);
        const TensorResult second = s.atStep(1)->source->open();
        QVERIFY2(second.tensor, qPrintable(second.error));
        QCOMPARE(second.tensor->value({ 3 }), 13.0);
        const int in = catalog.indexOf(QStringLiteral("Conv2D-op12 input 1"));
        QVERIFY(in >= 0);
        QCOMPARE(catalog.series()[in].io, models::graph::DumpIo::Input);
    }

    void checkpointStepsFromFileNames()
    {
        QCOMPARE(stepOfFileName(QStringLiteral("model_step_500.npz")), 500);
        QCOMPARE(stepOfFileName(QStringLiteral("checkpoint-12.safetensors")), 12);
        QCOMPARE(stepOfFileName(QStringLiteral("ckpt300.npy")), 300);
        QCOMPARE(stepOfFileName(QStringLiteral("stepper.npy")), -1);
        QCOMPARE(stepOfFileName(QStringLiteral("layer2.npy")), -1);

        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("ckpt/emb_step_100.npy")), floatNpy(3, 0));
        writeFile(dir.filePath(QStringLiteral("ckpt/emb_step_200.npy")), floatNpy(3, 1));
        const TensorCatalog catalog = scanAndBuild(dir.path());
        QCOMPARE(seriesNames(catalog), QStringList { QStringLiteral("emb_step") });
        QCOMPARE(catalog.series().first().steps(), (QList<int> { 100, 200 }));
    }

    void safetensorsCheckpointsAcrossSteps()
    {
        QTemporaryDir dir;
        for (const int step : { 200, 100 }) {
            QByteArray header = "{\"__metadata__\":{\"format\":\"pt\"},\"encoder.w\":{\"dtype\":\"F32\","
                                "\"shape\":[2],\"data_offsets\":[0,8]}}";
            while (header.size() % 8)
                header += ' ';
            QByteArray bytes(8, '\0');
            const quint64 length = quint64(header.size());
            std::memcpy(bytes.data(), &length, 8);
            bytes += header;
            const float values[2] = { float(step), -1.0f };
            bytes.append(reinterpret_cast<const char*>(values), 8);
            writeFile(dir.filePath(QStringLiteral("ckpt-%1.safetensors").arg(step)), bytes);
        }
        const TensorCatalog catalog = scanAndBuild(dir.path());
        QCOMPARE(seriesNames(catalog), QStringList { QStringLiteral("ckpt.safetensors/encoder.w") });
        const TensorSeries& s = catalog.series().first();
        QCOMPARE(s.steps(), (QList<int> { 100, 200 }));
        QCOMPARE(s.nodeKey, QStringLiteral("encoder"));
        QCOMPARE(s.kind, QStringLiteral("w"));
        QCOMPARE(s.versions.last().format, QStringLiteral("safetensors"));
        QVERIFY(s.versions.last().fileMetadata);
        QCOMPARE(s.versions.last().fileMetadata->value(QStringLiteral("format")), QStringLiteral("pt"));
        const TensorResult opened = s.versions.last().source->open();
        QVERIFY2(opened.tensor, qPrintable(opened.error));
        QCOMPARE(opened.tensor->value({ 0 }), 200.0);
    }

    void sameNameInTwoFoldersStaysApart()
    {
        QTemporaryDir dir;
        const QStringList files { QStringLiteral("a/step_1/fc.weight.npy"), QStringLiteral("b/step_1/fc.weight.npy"),
                                  QStringLiteral("b/step_2/fc.weight.npy") };
        for (int i = 0; i < files.size(); ++i)
            writeFile(dir.filePath(files[i]), floatNpy(2, float(i)));

        // Folders the scanner takes for two runs: the same name in each.
        TensorCatalog catalog = scanAndBuild(dir.path());
        QCOMPARE(catalog.series().size(), 2);
        QCOMPARE(catalog.series()[0].name, catalog.series()[1].name);
        QVERIFY(catalog.series()[0].run != catalog.series()[1].run);

        // One run holding both folders: the names say which folder.
        catalog = TensorCatalogBuilder::build(runlens::test::npyManifest(dir.path(), files));
        QStringList names = seriesNames(catalog);
        names.sort();
        QCOMPARE(names, (QStringList { QStringLiteral("a/fc.weight"), QStringLiteral("b/fc.weight") }));
        const int b = catalog.indexOf(QStringLiteral("b/fc.weight"));
        QCOMPARE(catalog.series()[b].steps(), (QList<int> { 1, 2 }));
        QCOMPARE(catalog.tensorCount(), 3);
        QCOMPARE(catalog.findLocation(dir.filePath(files[2])), std::make_pair(b, 1));
    }

    // msprobe tensor-mode dumps: each `.pt` (PyTorch) or `.npy` (MindSpore) file of dump_tensor_data/ is a
    // series named by its row, its step and rank from the step*/rank* folders, and opens with the values the
    // file holds (numpy on the same file).
    void msprobeTensorFiles()
    {
        QTemporaryDir dir;
        const QString runs = QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/runs");
        auto copyDump = [&](const QString& from, const QString& to) {
            QVERIFY(QDir().mkpath(to + QStringLiteral("/dump_tensor_data")));
            for (const QString& name : QDir(from).entryList(QDir::Files))
                QVERIFY(QFile::copy(from + QLatin1Char('/') + name, to + QLatin1Char('/') + name));
            const QDir tensors(from + QStringLiteral("/dump_tensor_data"));
            for (const QString& name : tensors.entryList(QDir::Files))
                QVERIFY(QFile::copy(tensors.filePath(name), to + QStringLiteral("/dump_tensor_data/") + name));
        };
        const QString root = dir.filePath(QStringLiteral("dump"));
        copyDump(runs + QStringLiteral("/fp32/msprobe/step0/rank"), root + QStringLiteral("/step0/rank0"));
        copyDump(runs + QStringLiteral("/fp16/msprobe/step0/rank"), root + QStringLiteral("/step0/rank1"));
        copyDump(runs + QStringLiteral("/perturbed/msprobe/step0/rank"), root + QStringLiteral("/step1/rank0"));
        // A MindSpore rank: its .npy files (here the npy dump's layers.2 output under msprobe's name).
        const QString msRank = root + QStringLiteral("/step0/rank2/dump_tensor_data/");
        QVERIFY(QDir().mkpath(msRank));
        QVERIFY(QFile::copy(runs + QStringLiteral("/fp16/npy/step_0/layers.2.output.npy"),
                            msRank + QStringLiteral("Cell.layers.2.Dense.forward.0.output.0.npy")));

        const TensorCatalog catalog = scanAndBuild(root);
        QVERIFY2(catalog.diagnostics().isEmpty(),
                 qPrintable(catalog.diagnostics().isEmpty() ? QString() : catalog.diagnostics().first().toString()));
        const QString output = QStringLiteral("Module.layers.2.Linear.forward.0.output.0");
        QHash<int, QList<int>> stepsByRank;
        const TensorSeries* half = nullptr;
        const TensorSeries* mindspore = nullptr;
        for (const TensorSeries& s : catalog.series()) {
            // Named by their row, not by their folder: the rank tells the ranks' series apart.
            QVERIFY2(!s.name.contains(QLatin1Char('/')), qPrintable(s.name));
            if (s.name == output) {
                for (const TensorInfo& v : s.versions)
                    stepsByRank[s.rank] << v.step;
                if (s.rank == 1)
                    half = &s;
            }
            if (s.name == QLatin1String("Cell.layers.2.Dense.forward.0.output.0"))
                mindspore = &s;
        }
        QCOMPARE(catalog.series().size(), 16 * 2 + 1);
        QCOMPARE(stepsByRank.value(0), QList<int>({ 0, 1 }));
        QCOMPARE(stepsByRank.value(1), QList<int>({ 0 }));
        QVERIFY(half && mindspore);
        QCOMPARE(half->nodeKey, QStringLiteral("Module.layers.2.Linear.forward.0"));
        QCOMPARE(half->versions.front().dtype, DType::Float16);
        QCOMPARE(mindspore->rank, 2);

        // The half rank's output opens with the values torch.load reads from the same file.
        const QString file = root + QStringLiteral("/step0/rank1/dump_tensor_data/") + output + QStringLiteral(".pt");
        RUNLENS_PYTHON_ORACLE(values,
                              QStringList { QStringLiteral("-c"),
                                            QStringLiteral("import sys, json, torch\n"
                                                           "t = torch.load(sys.argv[1]).float().flatten()\n"
                                                           "print(json.dumps(t.tolist()))"),
                                            file });
        const QJsonArray expected = QJsonDocument::fromJson(values.toUtf8()).array();
        const TensorResult opened = half->versions.front().source->open();
        QVERIFY2(opened.tensor, qPrintable(opened.error));
        const Tensor& t = *opened.tensor;
        QCOMPARE(t.shape, (std::vector<std::int64_t> { 4, 16 }));
        QCOMPARE(qsizetype(t.elementCount()), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i)
            QCOMPARE(t.value({ i / 16, i % 16 }), expected[i].toDouble());

        // The files are entries of the dump index too, by the entry that dumped them.
        const TensorCatalogBuilder::WithDumps both = TensorCatalogBuilder::buildWithDumps(RunScanner().scan(root));
        QCOMPARE(both.dumps.entries().size(), 16 * 3 + 1);
    }

    void damagedFilesBecomeDiagnostics()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("step_0/good.act.npy")), floatNpy(2, 0));
        QByteArray cut = floatNpy(2, 0);
        cut.truncate(20);
        writeFile(dir.filePath(QStringLiteral("step_0/cut.act.npy")), cut);
        writeFile(dir.filePath(QStringLiteral("step_0/text.act.npy")),
                  runlens::test::npyFile("{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }", 12));
        const TensorCatalog catalog = scanAndBuild(dir.path());
        QCOMPARE(seriesNames(catalog), QStringList { QStringLiteral("good.act") });
        QCOMPARE(catalog.diagnostics().size(), 2);
        QStringList files;
        for (const Diagnostic& d : catalog.diagnostics())
            files << QFileInfo(d.file).fileName();
        files.sort();
        QCOMPARE(files, (QStringList { QStringLiteral("cut.act.npy"), QStringLiteral("text.act.npy") }));
    }

    void cancelStopsEarly()
    {
        QTemporaryDir dir;
        for (int i = 0; i < 5; ++i)
            writeFile(dir.filePath(QStringLiteral("step_%1/x.act.npy").arg(i)), floatNpy(1, 0));
        const RunManifest manifest = RunScanner().scan(dir.path());
        std::atomic_bool cancel { true };
        ImportControl control;
        control.cancel = &cancel;
        QVERIFY(TensorCatalogBuilder::build(manifest, control).isEmpty());
        QCOMPARE(TensorCatalogBuilder::build(manifest).tensorCount(), 5);
    }
};

QTEST_GUILESS_MAIN(TestTensorCatalogBuilder)
#include "tst_tensorcatalogbuilder.moc"
