#include "importers/accuracy/dumpcompare.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::accuracy;
using namespace runlens::models::accuracy;

namespace {

const QString kRuns = QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/runs");

void compareValue(const QString& what, const QJsonValue& actual, const QJsonValue& expected)
{
    if (expected.isNull()) {
        QVERIFY2(actual.isNull(), qPrintable(what + QStringLiteral(": expected null, got %1").arg(actual.toDouble())));
        return;
    }
    QVERIFY2(!actual.isNull(), qPrintable(what + QStringLiteral(": expected %1, got null").arg(expected.toDouble())));
    const double e = expected.toDouble();
    QVERIFY2(std::abs(actual.toDouble() - e) <= 1e-9 * std::max(1.0, std::abs(e)),
             qPrintable(
                 what + QStringLiteral(": expected %1, got %2").arg(e, 0, 'g', 17).arg(actual.toDouble(), 0, 'g', 17)));
}

/// Copies one generated msprobe dump folder (dump.json, construct.json, dump_tensor_data/) to `to`.
bool copyDump(const QString& run, const QString& to)
{
    const QString from = kRuns + QLatin1Char('/') + run + QStringLiteral("/msprobe/step0/rank");
    if (!QDir().mkpath(to + QStringLiteral("/dump_tensor_data")))
        return false;
    for (const QString& name : QDir(from).entryList(QDir::Files))
        if (!QFile::copy(from + QLatin1Char('/') + name, to + QLatin1Char('/') + name))
            return false;
    const QDir tensors(from + QStringLiteral("/dump_tensor_data"));
    for (const QString& name : tensors.entryList(QDir::Files))
        if (!QFile::copy(tensors.filePath(name), to + QStringLiteral("/dump_tensor_data/") + name))
            return false;
    return true;
}

CompareResult compare(const QString& bench, const QString& target, const NameMapping& mapping = {})
{
    CompareOptions options;
    options.mapping = mapping;
    QString error;
    const std::optional<CompareResult> result = compareDumps(bench, target, options, &error);
    if (!result)
        qWarning() << error;
    return result.value_or(CompareResult {});
}

} // namespace

class TestDumpCompare : public QObject
{
    Q_OBJECT

private slots:
    // The same model in float32 and with layers.2 in float16, or with a perturbed layers.0 weight, dumped as
    // msprobe .pt files, as step_N npy files, and as checkpoints: the first divergent op is the half or
    // perturbed layer, and every metric equals the numpy oracle's.
    void generatedRuns_data()
    {
        QTest::addColumn<QString>("bench");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("firstName");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<int>("matched");
        QTest::newRow("msprobe pt, half") << "fp32/msprobe"
                                          << "fp16/msprobe"
                                          << "Module.layers.2.Linear.forward.0.output.0"
                                          << "outputs fail while inputs pass" << 16;
        QTest::newRow("msprobe pt, perturbed") << "fp32/msprobe"
                                               << "perturbed/msprobe"
                                               << "Module.layers.0.Linear.forward.0.output.0"
                                               << "a parameter differs" << 16;
        QTest::newRow("npy, half") << "fp32/npy"
                                   << "fp16/npy"
                                   << "layers.2.output"
                                   << "outputs fail while inputs pass" << 16;
        QTest::newRow("npy, perturbed") << "fp32/npy"
                                        << "perturbed/npy"
                                        << "layers.0.output"
                                        << "a parameter differs" << 16;
        QTest::newRow("checkpoint pt") << "fp32/model.pt"
                                       << "perturbed/model.pt"
                                       << "0.weight"
                                       << "a parameter differs" << 6;
        QTest::newRow("checkpoint npz vs pt") << "fp32/model.npz"
                                              << "perturbed/model.pt"
                                              << "0.weight"
                                              << "a parameter differs" << 6;
    }
    void generatedRuns()
    {
        QFETCH(QString, bench);
        QFETCH(QString, target);
        QFETCH(QString, firstName);
        QFETCH(QString, reason);
        QFETCH(int, matched);
        const CompareResult result = compare(kRuns + QLatin1Char('/') + bench, kRuns + QLatin1Char('/') + target);
        QCOMPARE(result.mode, CompareMode::Tensor);
        const CompareSummary s = result.summary();
        QCOMPARE(s.matched, matched);
        QCOMPARE(s.unmatchedBench, 0);
        QCOMPARE(s.unmatchedTarget, 0);
        QVERIFY(result.firstDivergence);
        QCOMPARE(result.firstDivergence->name, firstName);
        QCOMPARE(result.firstDivergence->reason, reason);
        QVERIFY(result.rows[result.firstDivergence->row].introduced);
        if (target.startsWith(QLatin1String("fp16"))) {
            // The half layer underflows: its small outputs fall below float16's smallest normal number.
            const CompareRow& half = result.rows[result.firstDivergence->row];
            QVERIFY(half.tensor.underflow > 0);
            QCOMPARE(half.targetDtype.contains(QLatin1String("float16")), true);
        }

        // Every metric of every row against numpy on the same files.
        QStringList args { QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/accuracy_oracle.py"),
                           QStringLiteral("pairs") };
        for (const CompareRow& row : result.rows)
            args << row.benchSource << row.targetSource; // checkpoint tensors as "file:member"
        const test::PythonRun run = test::runPython(args);
        if (run.status == test::PythonRun::Status::Unavailable)
            QSKIP(qPrintable(run.message));
        QVERIFY2(run.ok(), qPrintable(run.message));
        const QJsonArray expected = QJsonDocument::fromJson(run.output.toUtf8()).array();
        const QJsonArray rows = compareResultToJson(result).value(QLatin1String("rows")).toArray();
        QCOMPARE(expected.size(), rows.size());
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const QJsonObject e = expected[i].toObject();
            const QJsonObject a = rows[i].toObject();
            const QString name = a.value(QLatin1String("name")).toString();
            for (const char* key : { "cosine", "max_abs", "max_rel", "mean_abs", "rmse", "rel_euclidean", "within_1e-3",
                                     "within_5e-3", "underflow", "overflow", "nan_mismatch" })
                compareValue(name + QLatin1Char(' ') + QLatin1String(key), a.value(QLatin1String(key)),
                             e.value(QLatin1String(key)));
        }
    }

    // The checkpoints' rows hold the same values as the npy dump's parameters: the perturbed weight is the
    // only one that differs, by 0.5 in one element.
    void checkpointValues()
    {
        const CompareResult result
            = compare(kRuns + QStringLiteral("/fp32/model.pt"), kRuns + QStringLiteral("/perturbed/model.pt"));
        for (const CompareRow& row : result.rows) {
            if (row.name == QLatin1String("0.weight")) {
                QCOMPARE(row.verdict, Verdict::Error);
                QVERIFY(std::abs(*row.tensor.maxAbs - 0.5) < 1e-6);
            } else {
                QCOMPARE(row.verdict, Verdict::Pass);
                QCOMPARE(*row.tensor.maxAbs, 0.0);
            }
        }
    }

    // The PanGu pair: PyTorch bench, MindSpore target, statistics mode, matched through the built-in API
    // table and a mapping of module paths; the differences checked by python from the two dump.json files.
    void msprobeCrossFramework()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString bench = samples + QStringLiteral("/accuracy/msprobe/pytorch_data");
        const QString target = samples + QStringLiteral("/accuracy/msprobe/mindspore_data");
        RUNLENS_REQUIRE_SAMPLE_FILE(bench + QStringLiteral("/dump.json"));
        QFile mappingFile(QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/pangu_ms_to_pt.yaml"));
        QVERIFY(mappingFile.open(QIODevice::ReadOnly));
        QString error;
        const std::optional<NameMapping> mapping = NameMapping::parse(mappingFile.readAll(), &error);
        QVERIFY2(mapping, qPrintable(error));
        const CompareResult result = compare(bench, target, *mapping);
        QCOMPARE(result.mode, CompareMode::Statistics);

        QHash<QString, const CompareRow*> byTarget;
        QStringList unmatchedTarget;
        QJsonArray names;
        for (const CompareRow& row : result.rows) {
            if (row.verdict == Verdict::Unmatched) {
                if (!row.targetName.isEmpty())
                    unmatchedTarget << row.targetName;
                continue;
            }
            byTarget.insert(row.targetName, &row);
            names.append(QJsonArray { row.benchName, row.targetName });
        }
        // API names across frameworks, module paths through the mapping.
        QCOMPARE(byTarget.value(QStringLiteral("Mint.cos.0.forward.output.0"))->benchName,
                 QStringLiteral("Torch.cos.0.forward.output.0"));
        QCOMPARE(byTarget.value(QStringLiteral("Primitive.norm.RmsNorm.0.forward.output.0"))->benchName,
                 QStringLiteral("NPU.npu_rms_norm.0.forward.output.0"));
        QCOMPARE(byTarget.value(QStringLiteral("Functional.flash_attention_score.0.backward.input.0"))->benchName,
                 QStringLiteral("NPU.npu_fusion_attention.0.backward.input.0"));
        QCOMPARE(byTarget.value(QStringLiteral("Mint.logical_or.0.forward.output.0"))->benchName,
                 QStringLiteral("Tensor.__or__.0.forward.output.0"));
        const CompareRow* attention
            = byTarget.value(QStringLiteral("Cell.network_with_loss.module.language_model.encoder.layers.0.attention."
                                            "ParallelAttention.forward.0.output.0"));
        QVERIFY(attention);
        QCOMPARE(attention->benchName,
                 QStringLiteral("Module.module.module.language_model.encoder.layers.0.self_attention.ParallelAttention."
                                "forward.0.output.0"));
        // The call MindSpore makes and PyTorch does not is listed, not dropped.
        QVERIFY(unmatchedTarget.contains(QStringLiteral("Tensor.__bool__.1.forward.output.0")));
        const CompareSummary s = result.summary();
        QCOMPARE(s.matched, int(names.size()));
        // msprobe's default pairs (msprobeRules) plus what the mapping adds: the logical_or, RmsNorm and flash
        // attention calls (3 + 4 + 10 rows) and the module rows whose paths it renames (5).
        QCOMPARE(s.matched, 30);
        // A None on one side pairs with nothing else (msprobe joins on the shape text, "None" against "[]").
        QVERIFY(!byTarget.contains(QStringLiteral("Distributed.all_reduce.0.forward.input.group")));
        // Tensor.__add__.0 is another call on each side (a scalar in PyTorch, a [5, 2] tensor in MindSpore):
        // the same name with other shapes is not paired, both are listed.
        QVERIFY(!byTarget.contains(QStringLiteral("Tensor.__add__.0.forward.input.0")));
        QVERIFY(unmatchedTarget.contains(QStringLiteral("Tensor.__add__.0.forward.input.0")));
        QVERIFY(s.unmatchedBench > 0);

        QTemporaryDir dir;
        QFile namesFile(dir.filePath(QStringLiteral("names.json")));
        QVERIFY(namesFile.open(QIODevice::WriteOnly));
        namesFile.write(QJsonDocument(names).toJson());
        namesFile.close();
        const test::PythonRun run = test::runPython(
            { QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/accuracy_oracle.py"), QStringLiteral("stats"),
              bench + QStringLiteral("/dump.json"), target + QStringLiteral("/dump.json"), namesFile.fileName() });
        if (run.status == test::PythonRun::Status::Unavailable)
            QSKIP(qPrintable(run.message));
        QVERIFY2(run.ok(), qPrintable(run.message));
        const QJsonArray expected = QJsonDocument::fromJson(run.output.toUtf8()).array();
        QCOMPARE(expected.size(), names.size());
        const QJsonArray rows = compareResultToJson(result).value(QLatin1String("rows")).toArray();
        for (qsizetype i = 0; i < expected.size(); ++i) {
            const QJsonObject a = rows[i].toObject();
            const QJsonObject e = expected[i].toObject();
            const QString name = a.value(QLatin1String("name")).toString();
            compareValue(name + QStringLiteral(" max_abs"), a.value(QLatin1String("max_abs")),
                         e.value(QLatin1String("max_abs")));
            compareValue(name + QStringLiteral(" max_rel"), a.value(QLatin1String("max_rel")),
                         e.value(QLatin1String("max_rel")));
        }
    }

    // The PanGu pair without a mapping file pairs exactly the rows msprobe's rules pair (an independent python
    // reading of both dump.json files: the API compare `-am` with the built-in table, and the cell compare
    // `-cm`, Cell -> Module; join on name and shape text, the dtype classes across frameworks).
    void msprobeRules()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString bench = samples + QStringLiteral("/accuracy/msprobe/pytorch_data");
        const QString target = samples + QStringLiteral("/accuracy/msprobe/mindspore_data");
        RUNLENS_REQUIRE_SAMPLE_FILE(bench + QStringLiteral("/dump.json"));
        const CompareResult result = compare(bench, target);
        QStringList ours;
        for (const CompareRow& row : result.rows)
            if (row.verdict != Verdict::Unmatched)
                ours << row.benchName + QStringLiteral(" <- ") + row.targetName;
        // 8 of 44 MindSpore rows: Tensor.__add__.1 (3), Distributed.all_reduce.0 (input.0, output.0 and the
        // None output.1) and Mint.cos.0 -> Torch.cos.0 (2). The rest stays unmatched, as msprobe leaves it:
        // * Tensor.__add__.0 is another call on each side (a 0-d tensor and an int in PyTorch, [5, 2] and [2]
        //   in MindSpore): same name, other shapes; Tensor.__bool__.1 and Mint.logical_or have no PyTorch row
        //   of that name (PyTorch dumped Tensor.__or__);
        // * all_reduce's group is None in PyTorch and a str in MindSpore;
        // * Primitive.norm.RmsNorm and Functional.flash_attention_score are not in msprobe's built-in table
        //   (the fused kernels are NPU.npu_rms_norm and NPU.npu_fusion_attention in PyTorch): a mapping file
        //   pairs them (msprobeCrossFramework);
        // * the cells' paths differ from the modules' (network_with_loss.module vs module.module, attention vs
        //   self_attention, FusedRMSNorm vs RMSNorm), so Cell -> Module alone pairs none of them.
        QCOMPARE(ours.size(), 8);
        const CompareSummary s = result.summary();
        QCOMPARE(s.matched, 8);
        QCOMPARE(s.unmatchedTarget, 36);
        QCOMPARE(s.unmatchedBench, 63);

        const test::PythonRun run
            = test::runPython({ QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/msprobe_match_oracle.py"),
                                bench + QStringLiteral("/dump.json"), target + QStringLiteral("/dump.json"),
                                QStringLiteral(RUNLENS_TEST_DATA_DIR "/../../models/accuracy/apimapping.json") });
        if (run.status == test::PythonRun::Status::Unavailable)
            QSKIP(qPrintable(run.message));
        QVERIFY2(run.ok(), qPrintable(run.message));
        const QJsonObject expected = QJsonDocument::fromJson(run.output.toUtf8()).object();
        QCOMPARE(expected.value(QLatin1String("target_rows")).toInt(), s.matched + s.unmatchedTarget);
        QCOMPARE(expected.value(QLatin1String("bench_rows")).toInt(), s.matched + s.unmatchedBench);
        QStringList theirs;
        for (const char* mode : { "api", "cell" })
            for (const QJsonValue& pair : expected.value(QLatin1String(mode)).toArray()) {
                const QString p = pair[0].toString() + QStringLiteral(" <- ") + pair[1].toString();
                if (!theirs.contains(p))
                    theirs << p;
            }
        std::sort(ours.begin(), ours.end());
        std::sort(theirs.begin(), theirs.end());
        QCOMPARE(ours, theirs);
    }

    // The same pair through a mapping file in msprobe's api_mapping form: the listed slots of the two APIs
    // pair on top of msprobe's default 8 rows: flash attention's query, key, value and output 0 forward, and
    // slot 0 of each backward side (6), logical_or's two inputs and output (3).
    void msprobeApiMappingFile()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString bench = samples + QStringLiteral("/accuracy/msprobe/pytorch_data");
        const QString target = samples + QStringLiteral("/accuracy/msprobe/mindspore_data");
        RUNLENS_REQUIRE_SAMPLE_FILE(bench + QStringLiteral("/dump.json"));
        QFile mappingFile(QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/pangu_api_mapping.yaml"));
        QVERIFY(mappingFile.open(QIODevice::ReadOnly));
        QString error;
        const std::optional<NameMapping> mapping = NameMapping::parse(mappingFile.readAll(), &error);
        QVERIFY2(mapping, qPrintable(error));
        const CompareResult result = compare(bench, target, *mapping);
        QHash<QString, QString> pairs;
        for (const CompareRow& row : result.rows)
            if (row.verdict != Verdict::Unmatched)
                pairs.insert(row.targetName, row.benchName);
        QCOMPARE(result.summary().matched, 8 + 6 + 3);
        QCOMPARE(pairs.value(QStringLiteral("Functional.flash_attention_score.0.forward.input.2")),
                 QStringLiteral("NPU.npu_fusion_attention.0.forward.input.2"));
        QCOMPARE(pairs.value(QStringLiteral("Functional.flash_attention_score.0.backward.output.0")),
                 QStringLiteral("NPU.npu_fusion_attention.0.backward.output.0"));
        QVERIFY(!pairs.contains(QStringLiteral("Functional.flash_attention_score.0.forward.input.3")));
        QVERIFY(!pairs.contains(QStringLiteral("Functional.flash_attention_score.0.backward.output.1")));
        QCOMPARE(pairs.value(QStringLiteral("Mint.logical_or.0.forward.output.0")),
                 QStringLiteral("Tensor.__or__.0.forward.output.0"));
    }

    // Two dump roots with several ranks and steps: each dump pairs with the same stepN/rankM of the other
    // side, rows named by it; a rank only one side has is reported and its rows listed unmatched; the
    // summary counts every pair. Naming one rank folder compares just that one.
    void everyRankCompared()
    {
        QTemporaryDir dir;
        const QString bench = dir.filePath(QStringLiteral("bench"));
        const QString target = dir.filePath(QStringLiteral("target"));
        QVERIFY(copyDump(QStringLiteral("fp32"), bench + QStringLiteral("/step0/rank0")));
        QVERIFY(copyDump(QStringLiteral("fp32"), bench + QStringLiteral("/step0/rank1")));
        QVERIFY(copyDump(QStringLiteral("fp32"), bench + QStringLiteral("/step0/rank2")));
        QVERIFY(copyDump(QStringLiteral("fp32"), bench + QStringLiteral("/step1/rank0")));
        QVERIFY(copyDump(QStringLiteral("fp32"), target + QStringLiteral("/step0/rank0")));
        QVERIFY(copyDump(QStringLiteral("fp16"), target + QStringLiteral("/step0/rank1")));
        QVERIFY(copyDump(QStringLiteral("perturbed"), target + QStringLiteral("/step1/rank0")));

        const CompareResult result = compare(bench, target);
        QCOMPARE(result.mode, CompareMode::Tensor);
        const CompareSummary s = result.summary();
        QCOMPARE(s.matched, 3 * 16);
        QCOMPARE(s.unmatchedBench, 16);
        QCOMPARE(s.unmatchedTarget, 0);
        QVERIFY2(result.messages.join(QLatin1Char('\n')).contains(QLatin1String("step0/rank2 is only in the bench")),
                 qPrintable(result.messages.join(QLatin1Char('\n'))));
        // The half layer of rank 1 is where the numbers part first, in dump order.
        QVERIFY(result.firstDivergence);
        QCOMPARE(result.firstDivergence->name, QStringLiteral("step0/rank1/Module.layers.2.Linear.forward.0.output.0"));
        QHash<QString, int> perGroup;
        for (const CompareRow& row : result.rows) {
            ++perGroup[row.group + QLatin1Char(' ') + verdictId(row.verdict)];
            QVERIFY2(row.name.startsWith(row.group + QLatin1Char('/')), qPrintable(row.name));
            if (row.verdict != Verdict::Unmatched)
                QCOMPARE(row.benchName, row.targetName); // the same rank's row, never another rank's
        }
        QCOMPARE(perGroup.value(QStringLiteral("step0/rank0 pass")), 16); // identical dumps
        QCOMPARE(perGroup.value(QStringLiteral("step0/rank2 unmatched")), 16);
        const CompareRow* perturbed = nullptr;
        for (const CompareRow& row : result.rows)
            if (row.name == QLatin1String("step1/rank0/Module.layers.0.Linear.forward.0.parameters.weight"))
                perturbed = &row;
        QVERIFY(perturbed);
        QCOMPARE(perturbed->verdict, Verdict::Error);

        // JSON: the documented keys, plus the step and rank of each row.
        const QJsonObject json = compareResultToJson(result);
        QCOMPARE(json.value(QLatin1String("summary")).toObject().value(QLatin1String("matched")).toInt(), 48);
        int rank1 = 0;
        for (const QJsonValue& v : json.value(QLatin1String("rows")).toArray()) {
            const QJsonObject row = v.toObject();
            QVERIFY(row.value(QLatin1String("step")).isDouble());
            QVERIFY(row.value(QLatin1String("rank")).isDouble());
            if (row.value(QLatin1String("rank")).toInt() == 1)
                ++rank1;
        }
        QCOMPARE(rank1, 16);
        QVERIFY(compareResultToCsv(result).section(QLatin1Char('\n'), 1, 1).endsWith(QLatin1String(",0,0")));

        // One rank folder against a root: it pairs with the root's dump of the same step and rank.
        const CompareResult one = compare(bench, target + QStringLiteral("/step0/rank1"));
        QCOMPARE(one.summary().matched, 16);
        QCOMPARE(one.summary().unmatchedBench, 3 * 16);
        QCOMPARE(one.firstDivergence->name, QStringLiteral("step0/rank1/Module.layers.2.Linear.forward.0.output.0"));
        // Two rank folders: just those, named as before.
        const CompareResult pair
            = compare(bench + QStringLiteral("/step0/rank1"), target + QStringLiteral("/step0/rank1"));
        QCOMPARE(pair.summary().matched, 16);
        QCOMPARE(pair.summary().unmatchedBench, 0);
        QCOMPARE(pair.firstDivergence->name, QStringLiteral("Module.layers.2.Linear.forward.0.output.0"));
        QVERIFY(compareResultToJson(pair)
                    .value(QLatin1String("rows"))
                    .toArray()
                    .first()
                    .toObject()
                    .value(QLatin1String("rank"))
                    .isNull());
    }

    // Damaged tensor files inside an msprobe dump: each pair that cannot be read gets verdict none and a
    // message naming the file; the other pairs are still compared. A pickle naming a global outside the
    // weights-only allow-list is refused, never run.
    void damagedTensorFiles_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("truncated") << "truncated";
        QTest::newRow("garbage") << "garbage";
        QTest::newRow("hostile") << "hostile";
        QTest::newRow("missing") << "missing";
    }
    void damagedTensorFiles()
    {
        QFETCH(QString, damage);
        QTemporaryDir dir;
        const QString source = kRuns + QStringLiteral("/fp16/msprobe/step0/rank");
        const QString copy = dir.filePath(QStringLiteral("step0/rank"));
        QVERIFY(QDir().mkpath(copy + QStringLiteral("/dump_tensor_data")));
        for (const QString& name : QDir(source).entryList(QDir::Files))
            QVERIFY(QFile::copy(source + QLatin1Char('/') + name, copy + QLatin1Char('/') + name));
        const QDir tensors(source + QStringLiteral("/dump_tensor_data"));
        for (const QString& name : tensors.entryList(QDir::Files))
            QVERIFY(QFile::copy(tensors.filePath(name), copy + QStringLiteral("/dump_tensor_data/") + name));
        const QString victim = copy + QStringLiteral("/dump_tensor_data/Module.layers.2.Linear.forward.0.output.0.pt");
        QFile::setPermissions(victim, QFile::ReadOwner | QFile::WriteOwner);
        QByteArray bytes;
        {
            QFile f(victim);
            QVERIFY(f.open(QIODevice::ReadOnly));
            bytes = f.readAll();
        }
        QVERIFY(QFile::remove(victim));
        if (damage == QLatin1String("truncated"))
            bytes.truncate(bytes.size() / 2);
        else if (damage == QLatin1String("garbage"))
            bytes = QByteArray(bytes.size(), '\x5a');
        else if (damage == QLatin1String("hostile")) {
            QFile hostile(QStringLiteral(RUNLENS_TEST_DATA_DIR "/torchsave/forbidden_global.pt"));
            QVERIFY(hostile.open(QIODevice::ReadOnly));
            bytes = hostile.readAll();
        }
        if (damage != QLatin1String("missing")) {
            QFile f(victim);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        const CompareResult result = compare(kRuns + QStringLiteral("/fp32/msprobe"), dir.path());
        QCOMPARE(result.summary().matched, 16);
        int none = 0;
        for (const CompareRow& row : result.rows) {
            if (row.targetName == QLatin1String("Module.layers.2.Linear.forward.0.output.0")) {
                QCOMPARE(row.verdict, Verdict::None);
                if (damage != QLatin1String("missing"))
                    QVERIFY2(row.note.contains(QLatin1String("Module.layers.2.Linear.forward.0.output.0.pt")),
                             qPrintable(row.note));
                ++none;
            } else {
                QVERIFY(row.verdict != Verdict::None);
            }
        }
        QCOMPARE(none, 1);
        if (damage == QLatin1String("hostile")) {
            bool refused = false;
            for (const QString& m : result.messages)
                refused = refused || (m.contains(QLatin1String("os.system")) && m.contains(QLatin1String("refused")));
            QVERIFY2(refused, qPrintable(result.messages.join(QLatin1Char('\n'))));
        }
        // The error is now first seen at the next op's input, the same tensor: found there, not lost.
        QVERIFY(result.firstDivergence);
        QCOMPARE(result.firstDivergence->name, QStringLiteral("Module.layers.3.ReLU.forward.0.input.0"));
        QCOMPARE(result.firstDivergence->reason, QStringLiteral("inputs already differ"));
    }

    void damagedMappingFiles()
    {
        QString error;
        QVERIFY(!NameMapping::parse("{\"modules\": {\"a\": ", &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!NameMapping::parse("modules:\n  a b c\n", &error));
        QVERIFY(error.contains(QLatin1String("2")));
        QVERIFY(NameMapping::parse(QByteArray("\x00\x01\x02: \xff\xfe", 7), &error));
        QVERIFY(NameMapping::parse("", &error)->isEmpty());
        const QByteArray huge = QByteArray("rows:\n") + QByteArray(200000, 'a') + QByteArray(": b\n");
        QCOMPARE(NameMapping::parse(huge, &error)->rows.size(), 1);

        // msprobe's api_mapping list: cut at every offset it reads or refuses with a message, never crashes;
        // garbage and hostile forms are refused with a message naming what is wrong.
        QFile listFile(QStringLiteral(RUNLENS_TEST_DATA_DIR "/accuracy/pangu_api_mapping.yaml"));
        QVERIFY(listFile.open(QIODevice::ReadOnly));
        const QByteArray list = listFile.readAll();
        for (qsizetype cut = 0; cut < list.size(); ++cut) {
            error.clear();
            if (!NameMapping::parse(list.left(cut), &error))
                QVERIFY2(!error.isEmpty(), qPrintable(QString::number(cut)));
        }
        QVERIFY(!NameMapping::parse("- ms_api: a\n  pt_api: b\n  ms_args: [0, 1]\n  pt_args: [0]\n", &error));
        QVERIFY2(error.contains(QLatin1String("length")), qPrintable(error));
        QVERIFY(!NameMapping::parse(QByteArray("- \x01\x02\xff: \x00\x00", 10), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!NameMapping::parse("- ms_api: a\n  pt_api: b\n  ms_args: [0, \"; rm -rf /\"]\n  pt_args: [0, 1]\n",
                                    &error));
        QVERIFY(!error.isEmpty());
        QByteArray many;
        for (int i = 0; i < 20000; ++i)
            many += "- ms_api: Functional.f" + QByteArray::number(i)
                + "\n  pt_api: Torch.f\n  ms_args: [0]\n  pt_args: [0]\n";
        QCOMPARE(NameMapping::parse(many, &error)->apiArguments.size(), 20000);
        const QByteArray longList = "- ms_api: a\n  pt_api: b\n  ms_args: [" + QByteArray(300000, '1') + "]\n";
        QVERIFY(!NameMapping::parse(longList, &error));
    }

    // msprobe's md5 summary mode (CRC-32 per tensor): equal passes, different is an error; statistics mode
    // reads the bare NaN/Infinity tokens msprobe writes.
    void md5AndStatisticsModes()
    {
        QTemporaryDir dir;
        auto write = [&](const QString& name, const QByteArray& json) {
            QDir().mkpath(dir.filePath(name));
            QFile f(dir.filePath(name + QStringLiteral("/dump.json")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(json);
        };
        const QByteArray md5Bench = R"({"task": "statistics", "level": "L1", "framework": "pytorch", "data": {
            "Functional.relu.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32",
              "shape": [4], "Max": 1, "Min": 0, "Mean": 0.5, "Norm": 1, "md5": "0a0b0c0d"}], "input_kwargs": {},
              "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "Max": 1, "Min": 0,
              "Mean": 0.5, "Norm": 1, "md5": "11111111"}]}}})";
        QByteArray md5Target = md5Bench;
        md5Target.replace("11111111", "22222222");
        write(QStringLiteral("md5b"), md5Bench);
        write(QStringLiteral("md5t"), md5Target);
        CompareResult md5 = compare(dir.filePath(QStringLiteral("md5b")), dir.filePath(QStringLiteral("md5t")));
        QCOMPARE(md5.mode, CompareMode::Md5);
        QCOMPARE(md5.rows.size(), 2);
        QCOMPARE(md5.rows[0].verdict, Verdict::Pass);
        QCOMPARE(md5.rows[1].verdict, Verdict::Error);
        QCOMPARE(md5.firstDivergence->name, QStringLiteral("Functional.relu.0.forward.output.0"));
        QCOMPARE(md5.firstDivergence->reason, QStringLiteral("outputs fail while inputs pass"));

        QByteArray statsBench = md5Bench;
        statsBench.replace(R"(, "md5": "0a0b0c0d")", "").replace(R"(, "md5": "11111111")", "");
        const qsizetype output = statsBench.indexOf("\"output\"");
        QVERIFY(output > 0);
        const QByteArray statsTarget = statsBench.left(output)
            + R"("output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4], "Max": Infinity,
                 "Min": 0, "Mean": NaN, "Norm": Infinity}]}}})";
        write(QStringLiteral("sb"), statsBench);
        write(QStringLiteral("st"), statsTarget);
        const CompareResult stats = compare(dir.filePath(QStringLiteral("sb")), dir.filePath(QStringLiteral("st")));
        QCOMPARE(stats.mode, CompareMode::Statistics);
        QCOMPARE(stats.rows.size(), 2);
        QCOMPARE(stats.rows[0].verdict, Verdict::Pass);
        QCOMPARE(stats.rows[1].verdict, Verdict::Error); // Max became infinite
        const QJsonObject row = compareResultToJson(stats).value(QLatin1String("rows")).toArray().at(1).toObject();
        QVERIFY(row.value(QLatin1String("max_abs")).isNull()); // every difference is NaN or infinite
        QVERIFY(row.value(QLatin1String("cosine")).isNull());
    }

    void unreadableSides()
    {
        QString error;
        QVERIFY(!compareDumps(QStringLiteral("/no/such/dump"), kRuns + QStringLiteral("/fp32/npy"), {}, &error));
        QVERIFY(error.contains(QLatin1String("/no/such/dump")));
        QTemporaryDir empty;
        QVERIFY(!readDumpSide(empty.path()).side);
    }

    void progressAndRowsAsTheyCome()
    {
        const DumpSideResult b = readDumpSide(kRuns + QStringLiteral("/fp32/npy"));
        const DumpSideResult t = readDumpSide(kRuns + QStringLiteral("/fp16/npy"));
        QVERIFY(b.side && t.side);
        QList<int> progress;
        ImportControl control;
        control.progress = [&](int permille) { progress << permille; };
        QStringList seen;
        const std::optional<CompareResult> result
            = compareDumpSides(*b.side, *t.side, {}, control, [&](const CompareRow& row) { seen << row.name; });
        QVERIFY(result);
        QCOMPARE(seen.size(), 16);
        QCOMPARE(seen.front(), QStringLiteral("layers.0.input"));
        QVERIFY(std::is_sorted(progress.begin(), progress.end()));
        QCOMPARE(progress.back(), 1000);
    }

    // Pairs compared on several threads give the rows of one thread, byte for byte, delivered in the same order.
    void threadsGiveTheSameRows_data()
    {
        QTest::addColumn<QString>("target");
        QTest::newRow("fp16") << QStringLiteral("fp16");
        QTest::newRow("perturbed") << QStringLiteral("perturbed");
    }

    void threadsGiveTheSameRows()
    {
        QFETCH(QString, target);
        const DumpSideResult b = readDumpSide(kRuns + QStringLiteral("/fp32/npy"));
        const DumpSideResult t = readDumpSide(kRuns + QLatin1Char('/') + target + QStringLiteral("/npy"));
        QVERIFY(b.side && t.side);
        QByteArray reference;
        QStringList referenceOrder;
        for (int threads : { 1, 2, 4, 16 }) {
            CompareOptions options;
            options.threads = threads;
            QStringList seen;
            const std::optional<CompareResult> result
                = compareDumpSides(*b.side, *t.side, options, {}, [&](const CompareRow& row) { seen << row.name; });
            QVERIFY(result);
            const QByteArray json = QJsonDocument(compareResultToJson(*result)).toJson();
            if (threads == 1) {
                reference = json;
                referenceOrder = seen;
                QCOMPARE(seen.size(), 16);
                continue;
            }
            QCOMPARE(seen, referenceOrder);
            QCOMPARE(json, reference);
        }
    }

    void cancelledWhileWorkersRun()
    {
        std::atomic_bool cancel { false };
        ImportControl control;
        control.cancel = &cancel;
        const DumpSideResult b = readDumpSide(kRuns + QStringLiteral("/fp32/npy"));
        QVERIFY(b.side);
        CompareOptions options;
        options.threads = 4;
        int rows = 0;
        QVERIFY(!compareDumpSides(*b.side, *b.side, options, control, [&](const CompareRow&) {
            if (++rows == 3)
                cancel = true;
        }));
        QCOMPARE(rows, 3);
    }

    void cancelled()
    {
        std::atomic_bool cancel { true };
        ImportControl control;
        control.cancel = &cancel;
        const DumpSideResult b = readDumpSide(kRuns + QStringLiteral("/fp32/npy"));
        QVERIFY(b.side);
        QVERIFY(!compareDumpSides(*b.side, *b.side, {}, control));
    }
};

QTEST_GUILESS_MAIN(TestDumpCompare)
#include "tst_dumpcompare.moc"
