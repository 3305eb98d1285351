// The msprobe dump reader on the real dumps of ../shared/samples/accuracy/msprobe, against the Python oracle.

#include "tests/importers/accuracy/msprobetestoracle.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include "importers/accuracy/msprobedumpreader.h"
#include "importers/accuracy/msprobeimporter.h"
#include "importers/core/artifactimporter.h"
#include "importers/core/filesniffer.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::accuracy;
using namespace runlens::models;
using namespace runlens::models::accuracy;
using namespace runlens::test::msprobe;

class TestMsprobeSamples : public QObject
{
    Q_OBJECT

private slots:
    void samples_data();
    void samples();
    void samplesAgree();
};

void TestMsprobeSamples::samples_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("framework");
    QTest::newRow("pytorch") << "accuracy/msprobe/pytorch_data"
                             << "pytorch";
    QTest::newRow("mindspore") << "accuracy/msprobe/mindspore_data"
                               << "mindspore";
}

void TestMsprobeSamples::samples()
{
    QFETCH(QString, folder);
    QFETCH(QString, framework);
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QLatin1Char('/') + folder;
    RUNLENS_REQUIRE_SAMPLE_FILE(path + QStringLiteral("/dump.json"));
    RUNLENS_REQUIRE_SAMPLE_FILE(path + QStringLiteral("/construct.json"));
    RUNLENS_REQUIRE_SAMPLE_FILE(path + QStringLiteral("/stack.json"));

    const MsprobeReadResult result = readMsprobeDump(path);
    QVERIFY2(result.status == ImportStatus::Ok, qPrintable(diagnosticsText(result.diagnostics)));
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(diagnosticsText(result.diagnostics)));
    const MsprobeDump& dump = *result.dump;
    QCOMPARE(dumpFrameworkId(dump.framework), framework);
    QCOMPARE(dump.task, DumpTask::Statistics);
    QCOMPARE(dump.level, DumpLevel::Mix);
    QCOMPARE(dump.folder, QFileInfo(path).absoluteFilePath());
    QVERIFY(dump.tensorFiles.isEmpty());

    bool ok = false;
    const QJsonObject oracle = runOracle(path, &ok);
    if (!ok) {
        const test::PythonRun run = test::runPythonScript(QStringLiteral("accuracy/msprobe_oracle.py"), { path });
        RUNLENS_VERIFY_PYTHON(run);
        QFAIL("the oracle printed no JSON object");
    }
    compareWithOracle(dump, oracle);

    // Counts and the forward/backward split, from the oracle's reading.
    int forward = 0;
    int backward = 0;
    for (const QJsonValue& entry : oracle.value(QStringLiteral("entries")).toArray()) {
        const QString direction
            = entry.toObject().value(QStringLiteral("parts")).toObject().value(QStringLiteral("direction")).toString();
        forward += direction == QLatin1String("forward") ? 1 : 0;
        backward += direction == QLatin1String("backward") ? 1 : 0;
    }
    QCOMPARE(dump.countDirection(Direction::Forward), forward);
    QCOMPARE(dump.countDirection(Direction::Backward), backward);
    QVERIFY(forward > 5);
    QVERIFY(backward >= 1);

    // A few entries by name: the flash attention pair, the all_reduce with its group argument.
    if (framework == QLatin1String("pytorch")) {
        const DumpEntry* attention = dump.entry(QStringLiteral("NPU.npu_fusion_attention.0.backward"));
        QVERIFY(attention);
        QCOMPARE(attention->name.kind, EntryKind::Npu);
        QCOMPARE(attention->name.api, QStringLiteral("npu_fusion_attention"));
        QCOMPARE(attention->name.direction, Direction::Backward);
        // Only forward calls have stacks; the backward one shows its forward twin's.
        QVERIFY(!dump.stackIndex.contains(attention->name.full));
        QCOMPARE(dump.stackOf(attention->name.full),
                 dump.stackOf(QStringLiteral("NPU.npu_fusion_attention.0.forward")));
        QVERIFY(dump.stackOf(attention->name.full));
        const DumpEntry* reduce = dump.entry(QStringLiteral("Distributed.all_reduce.0.forward"));
        QVERIFY(reduce);
        QCOMPARE(reduce->name.kind, EntryKind::Distributed);
        QCOMPARE(dump.parentOf(reduce->name.full),
                 QStringLiteral("Module.module.module.language_model.embedding.word_embeddings.VocabParallelEmbedding."
                                "forward.0"));
        const DumpEntry* layer = dump.entry(
            QStringLiteral("Module.module.module.language_model.encoder.layers.0.ParallelTransformerLayer.forward.0"));
        QVERIFY(layer);
        QCOMPARE(layer->name.modulePath, QStringLiteral("module.module.language_model.encoder.layers.0"));
        QCOMPARE(layer->name.className, QStringLiteral("ParallelTransformerLayer"));
    } else {
        const DumpEntry* norm = dump.entry(QStringLiteral("Primitive.norm.RmsNorm.0.forward"));
        QVERIFY(norm);
        QCOMPARE(norm->name.api, QStringLiteral("norm.RmsNorm"));
        QCOMPARE(dump.parentOf(norm->name.full),
                 QStringLiteral("Cell.network_with_loss.module.language_model.encoder.layers.0.input_norm.FusedRMSNorm."
                                "forward.0"));
        const DumpEntry* cellBackward = dump.entry(QStringLiteral(
            "Cell.network_with_loss.module.language_model.encoder.layers.0.input_norm.FusedRMSNorm.backward.0"));
        QVERIFY(cellBackward);
        QCOMPARE(cellBackward->name.kind, EntryKind::Cell);
        QCOMPARE(cellBackward->name.className, QStringLiteral("FusedRMSNorm"));
        QCOMPARE(cellBackward->name.direction, Direction::Backward);
        for (const DumpRow& row : cellBackward->rows)
            QVERIFY(!row.requiresGrad); // MindSpore records have none
    }
    // Top-level APIs have an empty parent in construct.json.
    QVERIFY(dump.hasParentRecord(QStringLiteral("Tensor.__add__.0.forward")));
    QCOMPARE(dump.parentOf(QStringLiteral("Tensor.__add__.0.forward")), QString());
}

void TestMsprobeSamples::samplesAgree()
{
    // The same model under both frameworks: the first call's input statistics agree across the pair.
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString pt = samples + QStringLiteral("/accuracy/msprobe/pytorch_data");
    const QString ms = samples + QStringLiteral("/accuracy/msprobe/mindspore_data");
    RUNLENS_REQUIRE_SAMPLE_FILE(pt + QStringLiteral("/dump.json"));
    RUNLENS_REQUIRE_SAMPLE_FILE(ms + QStringLiteral("/dump.json"));
    const MsprobeReadResult a = readMsprobeDump(pt + QStringLiteral("/dump.json"));
    const MsprobeReadResult b = readMsprobeDump(ms);
    QCOMPARE(a.status, ImportStatus::Ok);
    QCOMPARE(b.status, ImportStatus::Ok);
    QVERIFY(a.dump->entry(QStringLiteral("Tensor.__add__.0.forward")));
    QVERIFY(b.dump->entry(QStringLiteral("Tensor.__add__.0.forward")));
    QCOMPARE(a.dump->entries.first().rows.first().name, QStringLiteral("Tensor.__add__.0.forward.input.0"));
    QCOMPARE(b.dump->entries.first().rows.first().name, QStringLiteral("Tensor.__add__.0.forward.input.0"));
}

QTEST_GUILESS_MAIN(TestMsprobeSamples)
#include "tst_msprobesamples.moc"
