#include "importers/core/artifactimporter.h"
#include "importers/core/filesniffer.h"
#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/loggers/flatjson.h"
#include "importers/loggers/loggerruns.h"
#include "importers/loggers/metricstable.h"
#include "models/scalars/scalarstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::models;
using namespace runlens::models::scalars;

namespace {

const QString kData = QStringLiteral(RUNLENS_TEST_DATA_DIR "/loggers/");
const QString kWandb = QStringLiteral("wandb/wandb/offline-run-20240115_102345-abc123de/files/");
const QString kMlflow = QStringLiteral("mlflow/mlruns/0/5f2a9c1b3d4e4f6a8b7c6d5e4f3a2b1c/meta.yaml");
const QString kWandbRunFile = QStringLiteral("wandb-binary/wandb/offline-run-20261127_101010-abc123/run-abc123.wandb");

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

ArtifactKind sniffFile(const QString& path)
{
    const QByteArray head = readAll(path).left(int(FileSniffer::kHeadSize));
    const QFileInfo info(path);
    const QByteArray name = info.fileName().toUtf8();
    const QByteArray dir = info.absolutePath().toUtf8();
    if (!FileSniffer::worthReading(std::string_view(name.constData(), std::size_t(name.size()))))
        return ArtifactKind::Unknown;
    return FileSniffer::sniff(std::string_view(name.constData(), std::size_t(name.size())),
                              std::string_view(dir.constData(), std::size_t(dir.size())),
                              std::string_view(head.constData(), std::size_t(head.size())), info.size())
        .kind;
}

/// Every poll of a file's importer until it stops growing, merged.
ImportUpdate importAll(const QString& path, ArtifactKind kind)
{
    Artifact artifact;
    artifact.path = path;
    artifact.kind = kind;
    const auto importer = createImporter(artifact);
    if (!importer)
        return {};
    return importer->poll({});
}

const TagPoints* findTag(const ScalarBatch& batch, const QString& tag)
{
    for (const TagPoints& points : batch) {
        if (points.tag == tag)
            return &points;
    }
    return nullptr;
}

double oracleValue(const QJsonValue& value)
{
    if (value.isString()) {
        const QString text = value.toString();
        if (text == QLatin1String("nan"))
            return std::nan("");
        return text.startsWith(QLatin1Char('-')) ? -INFINITY : INFINITY;
    }
    return value.toDouble();
}

bool sameValue(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b))
        return a == b;
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

} // namespace

class TestLoggerImporter : public QObject
{
    Q_OBJECT
private slots:
    void sniff_data();
    void sniff();
    void againstPythonOracle();
    void hyperParameters();
    void columnsByHeader();
    void tailsAppendedLines();
    void sessionTailsATableLikeAnEventFile();
    void runNames();
    void newestTrainerStateOnly();
    void numbers();
    void wandbRunFileAgainstOracle();
    void wandbRunFileNamesItsRun();
    void wandbRunFileSupersedesJsonLines();
    void wandbRunFileTailsRecords();
    void wandbRunFileDamage();
};

void TestLoggerImporter::sniff_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("kind");
    QTest::newRow("lightning") << "lightning/lightning_logs/version_0/metrics.csv"
                               << "table";
    QTest::newRow("lightning hparams (read beside)") << "lightning/lightning_logs/version_0/hparams.yaml"
                                                     << "unknown";
    QTest::newRow("keras") << "keras/history.csv"
                           << "table";
    QTest::newRow("plain csv") << "plain/metrics.csv"
                               << "table";
    QTest::newRow("plain jsonl") << "plain/metrics.jsonl"
                                 << "table";
    QTest::newRow("trainer state") << "hf/out/trainer_state.json"
                                   << "trainer-state";
    QTest::newRow("mlflow run") << kMlflow << "mlflow-run";
    QTest::newRow("mlflow experiment") << "mlflow/mlruns/0/meta.yaml"
                                       << "unknown";
    QTest::newRow("mlflow metric file") << "mlflow/mlruns/0/5f2a9c1b3d4e4f6a8b7c6d5e4f3a2b1c/metrics/loss"
                                        << "unknown";
    QTest::newRow("wandb history") << kWandb + "wandb-history.jsonl"
                                   << "table";
    QTest::newRow("wandb events") << kWandb + "wandb-events.jsonl"
                                  << "table";
    QTest::newRow("wandb summary (read beside)") << kWandb + "wandb-summary.json"
                                                 << "unknown";
    QTest::newRow("nvidia-smi") << "gpu/nvidia-smi.csv"
                                << "gpu-metrics-log";
    QTest::newRow("nvidia-smi nounits") << "gpu/nvidia-smi-nounits.csv"
                                        << "gpu-metrics-log";
    QTest::newRow("nvidia-smi noheader") << "gpu/nvidia-smi-noheader.csv"
                                         << "gpu-metrics-log";
    QTest::newRow("dcgmi") << "gpu/dcgmi-dmon.txt"
                           << "gpu-metrics-log";
}

void TestLoggerImporter::sniff()
{
    QFETCH(QString, file);
    QFETCH(QString, kind);
    QCOMPARE(artifactKindId(sniffFile(kData + file)), kind);
}

void TestLoggerImporter::againstPythonOracle()
{
    if (!QFileInfo::exists(QStringLiteral("/usr/bin/python3")))
        QSKIP("/usr/bin/python3 is not installed");
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"), { kData + QStringLiteral("oracle.py") });
    QVERIFY(python.waitForFinished(60000));
    QCOMPARE(python.exitCode(), 0);
    const QJsonObject oracle = QJsonDocument::fromJson(python.readAllStandardOutput()).object();
    QCOMPARE(oracle.size(), 12);
    for (auto file = oracle.begin(); file != oracle.end(); ++file) {
        const QString path = kData + file.key();
        const ImportUpdate update = importAll(path, sniffFile(path));
        QVERIFY2(update.status != ImportStatus::Failed, qPrintable(file.key()));
        const QJsonObject tags = file.value().toObject();
        QCOMPARE(qsizetype(update.scalars.size()), tags.size());
        for (auto tag = tags.begin(); tag != tags.end(); ++tag) {
            const TagPoints* points = findTag(update.scalars, tag.key());
            QVERIFY2(points, qPrintable(file.key() + QStringLiteral(": ") + tag.key()));
            const QJsonArray expected = tag.value().toArray();
            QCOMPARE(qsizetype(points->points.size()), expected.size());
            for (qsizetype i = 0; i < expected.size(); ++i) {
                const QJsonArray row = expected[i].toArray();
                const ScalarPoint& point = points->points[std::size_t(i)];
                const QString where = file.key() + QLatin1Char(' ') + tag.key() + QLatin1Char(' ') + QString::number(i);
                QVERIFY2(point.step == qint64(row[0].toDouble()), qPrintable(where));
                QVERIFY2(std::abs(point.wallTime - row[1].toDouble()) < 1e-3, qPrintable(where));
                QVERIFY2(sameValue(point.value, oracleValue(row[2])), qPrintable(where));
            }
        }
    }
}

void TestLoggerImporter::hyperParameters()
{
    const ImportUpdate lightning
        = importAll(kData + "lightning/lightning_logs/version_0/metrics.csv", ArtifactKind::Table);
    QVERIFY(lightning.summaries && lightning.summaries->hparams);
    const QVariantMap lh = lightning.summaries->hparams->values;
    QCOMPARE(lh.value("batch_size").toDouble(), 64.0);
    QCOMPARE(lh.value("learning_rate").toDouble(), 0.001);
    QCOMPARE(lh.value("optimizer").toString(), QStringLiteral("adam"));
    QVERIFY(!lh.contains("hidden_dims")); // a list: named in a note instead
    QVERIFY(std::any_of(lightning.diagnostics.begin(), lightning.diagnostics.end(),
                        [](const Diagnostic& d) { return d.message.contains("hidden_dims"); }));

    const ImportUpdate wandb = importAll(kData + kWandb + "wandb-history.jsonl", ArtifactKind::Table);
    QVERIFY(wandb.summaries && wandb.summaries->hparams);
    const QVariantMap wh = wandb.summaries->hparams->values;
    QCOMPARE(wh.value("lr").toDouble(), 0.001);
    QCOMPARE(wh.value("batch_size").toDouble(), 32.0);
    QCOMPARE(wh.value("optimizer").toString(), QStringLiteral("sgd"));
    QCOMPARE(wh.value("summary/acc").toDouble(), 0.873);
    QVERIFY(!wh.contains("_wandb"));
    // The events file of a run with a history carries no copy of them.
    const ImportUpdate events = importAll(kData + kWandb + "wandb-events.jsonl", ArtifactKind::Table);
    QVERIFY(!events.summaries);

    const ImportUpdate mlflow = importAll(kData + kMlflow, ArtifactKind::MlflowRun);
    QVERIFY(mlflow.summaries && mlflow.summaries->hparams);
    const QVariantMap mh = mlflow.summaries->hparams->values;
    QCOMPARE(mh.value("lr").toDouble(), 0.001);
    QCOMPARE(mh.value("optimizer").toString(), QStringLiteral("adam"));
    QCOMPARE(mh.value("mlflow.run_name").toString(), QStringLiteral("bright-fox-42"));
    QCOMPARE(mh.value("tag/team").toString(), QStringLiteral("vision"));
    QVERIFY(!mh.contains("tag/mlflow.runName"));

    const ImportUpdate hf = importAll(kData + "hf/out/trainer_state.json", ArtifactKind::TrainerState);
    QVERIFY(hf.summaries && hf.summaries->hparams);
    const QVariantMap fh = hf.summaries->hparams->values;
    QCOMPARE(fh.value("best_metric").toDouble(), 0.8125);
    QCOMPARE(fh.value("best_model_checkpoint").toString(), QStringLiteral("out/checkpoint-20"));
    QCOMPARE(fh.value("train_batch_size").toDouble(), 8.0);
    QVERIFY(!fh.contains("is_world_process_zero"));
    QCOMPARE(mh.value("mlflow.status").toString(), QStringLiteral("FINISHED"));
}

void TestLoggerImporter::columnsByHeader()
{
    // The text column is named once and left out; an empty cell is a missing value, not a zero.
    const ImportUpdate plain = importAll(kData + "plain/metrics.csv", ArtifactKind::Table);
    QVERIFY(!findTag(plain.scalars, "phase"));
    QVERIFY(std::any_of(plain.diagnostics.begin(), plain.diagnostics.end(),
                        [](const Diagnostic& d) { return d.message.contains("\"phase\""); }));
    QCOMPARE(findTag(plain.scalars, "grad_norm")->points.size(), std::size_t(3));
    QVERIFY(!findTag(plain.scalars, "iteration"));
    QVERIFY(!findTag(plain.scalars, "time"));
    // Lightning's epoch column is a metric beside the step; Keras' is the step.
    const ImportUpdate lightning
        = importAll(kData + "lightning/lightning_logs/version_0/metrics.csv", ArtifactKind::Table);
    QVERIFY(findTag(lightning.scalars, "epoch"));
    QVERIFY(!findTag(lightning.scalars, "step"));
    const ImportUpdate keras = importAll(kData + "keras/history.csv", ArtifactKind::Table);
    QVERIFY(!findTag(keras.scalars, "epoch"));
    QCOMPARE(findTag(keras.scalars, "loss")->points.back().step, qint64(2));

    // The name alone makes nothing a table: a metrics.csv without a header is not one.
    QTemporaryDir dir;
    QFile headless(dir.filePath("metrics.csv"));
    QVERIFY(headless.open(QIODevice::WriteOnly));
    headless.write("0,1.5\n1,1.25\n");
    headless.close();
    QCOMPARE(sniffFile(headless.fileName()), ArtifactKind::Unknown);
    // Nor is a JSON lines file of something else.
    QFile other(dir.filePath("records.jsonl"));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write("{\"name\": \"a\", \"size\": 3}\n{\"name\": \"b\", \"size\": 4}\n");
    other.close();
    QCOMPARE(sniffFile(other.fileName()), ArtifactKind::Unknown);
    // Without a step column a table with a time column counts its rows as steps, said once.
    QFile nostep(dir.filePath("losses.csv"));
    QVERIFY(nostep.open(QIODevice::WriteOnly));
    nostep.write("time,loss,acc\n1705314225,1.5,0.25\n1705314230,1.25,0.5\n");
    nostep.close();
    const ImportUpdate rows = importAll(nostep.fileName(), sniffFile(nostep.fileName()));
    QCOMPARE(findTag(rows.scalars, "acc")->points.back().step, qint64(1));
    QCOMPARE(findTag(rows.scalars, "acc")->points.back().wallTime, 1705314230.0);
    QCOMPARE(rows.diagnostics.size(), 1);
    // A `time` column of seconds per step is a metric, not the wall time; a byte-order mark is not a name.
    QFile durations(dir.filePath("steps.csv"));
    QVERIFY(durations.open(QIODevice::WriteOnly));
    durations.write("\xef\xbb\xbfstep,time,\xe6\x8d\x9f\xe5\xa4\xb1\n0,0.25,1.5\n1,0.5,1.25\n");
    durations.close();
    const ImportUpdate timed = importAll(durations.fileName(), sniffFile(durations.fileName()));
    QCOMPARE(findTag(timed.scalars, "time")->points.size(), std::size_t(2));
    QCOMPARE(findTag(timed.scalars, "time")->points.back().wallTime, 0.0);
    QCOMPARE(findTag(timed.scalars, QStringLiteral("损失"))->points.back().value, 1.25);
    // With neither it is a data set, not a log: listed, no scalars.
    QFile dataset(dir.filePath("train.csv"));
    QVERIFY(dataset.open(QIODevice::WriteOnly));
    dataset.write("id,label,text\n1,0,good\n2,1,bad\n");
    dataset.close();
    const ImportUpdate data = importAll(dataset.fileName(), sniffFile(dataset.fileName()));
    QCOMPARE(data.status, ImportStatus::Unsupported);
    QVERIFY(data.scalars.empty());
}

void TestLoggerImporter::tailsAppendedLines()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("metrics.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("step,loss\n0,2.5\n1,2.2");
    file.flush();
    Artifact artifact;
    artifact.path = path;
    artifact.kind = ArtifactKind::Table;
    const auto importer = createImporter(artifact);
    ImportUpdate first = importer->poll({});
    QVERIFY(first.mayGrow); // "1,2.2" has no line break yet: waited for
    QCOMPARE(findTag(first.scalars, "loss")->points.size(), std::size_t(1));
    file.write("5\n2,1.9\n");
    file.flush();
    ImportUpdate second = importer->poll({});
    QVERIFY(!second.mayGrow);
    const TagPoints* loss = findTag(second.scalars, "loss");
    QCOMPARE(loss->points.size(), std::size_t(2));
    QCOMPARE(loss->points[0].step, qint64(1));
    QCOMPARE(loss->points[0].value, 2.25);
    QCOMPARE(loss->points[1].value, 1.9);
    QVERIFY(!second.summaries); // side files are read once
    ImportUpdate third = importer->poll({});
    QVERIFY(third.scalars.empty());

    // Lightning rewrites the file under a wider header when a metric appears: read again from the start.
    file.close();
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("step,loss,val_acc\n0,2.5,\n1,2.25,\n2,1.9,0.5\n");
    file.close();
    ImportUpdate rewritten = importer->poll({});
    QCOMPARE(findTag(rewritten.scalars, "loss")->points.size(), std::size_t(3));
    QCOMPARE(findTag(rewritten.scalars, "loss")->points.front().step, qint64(0));
    QCOMPARE(findTag(rewritten.scalars, "val_acc")->points.size(), std::size_t(1));
}

void TestLoggerImporter::sessionTailsATableLikeAnEventFile()
{
    QTemporaryDir dir;
    QFile file(dir.filePath("metrics.jsonl"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"step\": 0, \"loss\": 2.5}\n{\"step\": 1, \"loss\": 2.0}\n");
    file.flush();
    ImportSession session(RunScanner().scan(dir.path()));
    ScalarStore store;
    connect(&session, &ImportSession::scalarsArrived, &store, &ScalarStore::append);
    QSignalSpy finished(&session, &ImportSession::finished);
    session.setLiveTail(true, 100);
    session.start();
    QVERIFY(finished.wait(10000));
    QCOMPARE(store.pointCount(), 2);
    // Half a line is waited for; once complete it arrives.
    file.write("{\"step\": 2, \"loss\": 1.5}\n{\"step\": 3, ");
    file.flush();
    QTRY_COMPARE_WITH_TIMEOUT(store.pointCount(), 3, 3000);
    QTRY_VERIFY_WITH_TIMEOUT(!session.isBusy(), 2000);
    QVERIFY(session.state(0).growing);
    file.write("\"loss\": 1.25}\n");
    file.close();
    QTRY_COMPARE_WITH_TIMEOUT(store.pointCount(), 4, 3000);
    QCOMPARE(store.series(QStringLiteral("."), QStringLiteral("loss"))->points.back().value, 1.25);
    QCOMPARE(session.state(0).status, ImportStatus::Ok);
}

void TestLoggerImporter::runNames()
{
    const RunManifest mlflow = RunScanner().scan(kData + "mlflow");
    QStringList runs = mlflow.runs();
    QCOMPARE(runs, QStringList { "mlruns/0/bright-fox-42" });
    const RunManifest wandb = RunScanner().scan(kData + "wandb");
    QCOMPARE(wandb.runs(), QStringList { "wandb/offline-run-20240115_102345-abc123de" });
    const RunManifest lightning = RunScanner().scan(kData + "lightning");
    QCOMPARE(lightning.runs(), QStringList { "lightning_logs/version_0" });
    const RunManifest hf = RunScanner().scan(kData + "hf");
    QCOMPARE(hf.runs(), QStringList { "out" });
}

void TestLoggerImporter::newestTrainerStateOnly()
{
    // The output folder's state supersedes the checkpoints' (all in run "out"), and a later checkpoint an earlier.
    const QString checkpoint = kData + "hf/out/checkpoint-10/trainer_state.json";
    QCOMPARE(sniffFile(checkpoint), ArtifactKind::TrainerState);
    const ImportUpdate superseded = importAll(checkpoint, ArtifactKind::TrainerState);
    QVERIFY(superseded.scalars.empty());
    QCOMPARE(superseded.status, ImportStatus::Ok);
    QCOMPARE(superseded.diagnostics.size(), 1);
    QVERIFY(superseded.diagnostics[0].message.contains("hf/out/trainer_state.json"));

    QTemporaryDir dir;
    for (const char* name : { "checkpoint-5", "checkpoint-10", "checkpoint-9" }) {
        QVERIFY(QDir(dir.path()).mkpath(name));
        QVERIFY(QFile::copy(checkpoint, dir.filePath(QString::fromLatin1(name) + "/trainer_state.json")));
    }
    QVERIFY(importAll(dir.filePath("checkpoint-9/trainer_state.json"), ArtifactKind::TrainerState).scalars.empty());
    QVERIFY(!importAll(dir.filePath("checkpoint-10/trainer_state.json"), ArtifactKind::TrainerState).scalars.empty());
}

void TestLoggerImporter::numbers()
{
    using importers::loggers::MetricsTableParser;
    QCOMPARE(*MetricsTableParser::parseNumber("45 %", true), 45.0);
    QCOMPARE(*MetricsTableParser::parseNumber("250.12 W", true), 250.12);
    QVERIFY(!MetricsTableParser::parseNumber("250.12 W", false));
    QVERIFY(!MetricsTableParser::parseNumber("[N/A]", true));
    QVERIFY(!MetricsTableParser::parseNumber("", false));
    QVERIFY(std::isnan(*MetricsTableParser::parseNumber("NaN", false)));
    QCOMPARE(*MetricsTableParser::parseNumber("-Infinity", false), -INFINITY);
    QCOMPARE(*MetricsTableParser::parseWallTime("1705314225500"), 1705314225.5);
    QCOMPARE(*MetricsTableParser::parseWallTime("2024-01-15T10:23:45Z"), 1705314225.0);
    // A stray closing bracket once made the element list grow without end.
    QCOMPARE(importers::loggers::jsonArrayElements("[{\"step\": 1}, }, {}]", 0).size(), std::size_t(1));
    QCOMPARE(importers::loggers::wandbSystemTag("system.gpu.3.powerWatts"), QStringLiteral("system/gpu3_power_W"));
    QCOMPARE(importers::loggers::mlflowSystemTag("system/gpu_1_power_usage_watts").first,
             QStringLiteral("system/gpu1_power_W"));
}

namespace {

QJsonObject wandbOracle(const QString& path)
{
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"), { kData + QStringLiteral("wandb_oracle.py"), path });
    if (!python.waitForFinished(60000) || python.exitCode() != 0)
        return {};
    return QJsonDocument::fromJson(python.readAllStandardOutput()).object();
}

/// The scalars of `update` equal the oracle's, point by point; `limit` keeps only the oracle's first points.
void compareScalars(const ScalarBatch& scalars, const QJsonObject& tags)
{
    QCOMPARE(qsizetype(scalars.size()), tags.size());
    for (auto tag = tags.begin(); tag != tags.end(); ++tag) {
        const TagPoints* points = findTag(scalars, tag.key());
        QVERIFY2(points, qPrintable(tag.key()));
        const QJsonArray expected = tag.value().toArray();
        QCOMPARE(qsizetype(points->points.size()), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            const QJsonArray row = expected[i].toArray();
            const ScalarPoint& point = points->points[std::size_t(i)];
            const QString where = tag.key() + QLatin1Char(' ') + QString::number(i);
            QVERIFY2(point.step == qint64(row[0].toDouble()), qPrintable(where));
            QVERIFY2(std::abs(point.wallTime - row[1].toDouble()) < 1e-3, qPrintable(where));
            QVERIFY2(sameValue(point.value, oracleValue(row[2])), qPrintable(where));
        }
    }
}

ScalarBatch merged(const ScalarBatch& a, const ScalarBatch& b)
{
    ScalarBatch out = a;
    for (const TagPoints& tag : b) {
        auto found = std::find_if(out.begin(), out.end(), [&](const TagPoints& t) { return t.tag == tag.tag; });
        if (found == out.end())
            out.push_back(tag);
        else
            found->points.insert(found->points.end(), tag.points.begin(), tag.points.end());
    }
    return out;
}

} // namespace

void TestLoggerImporter::wandbRunFileAgainstOracle()
{
    if (!QFileInfo::exists(QStringLiteral("/usr/bin/python3")))
        QSKIP("/usr/bin/python3 is not installed");
    const QString path = kData + kWandbRunFile;
    const QJsonObject oracle = wandbOracle(path);
    QVERIFY(!oracle.isEmpty());
    // The fixture exercises every fragment type: one history record spans three blocks.
    QCOMPARE(oracle.value("fragments").toObject().value("3").toInt(), 1);
    QCOMPARE(sniffFile(path), ArtifactKind::WandbRun);
    const ImportUpdate update = importAll(path, ArtifactKind::WandbRun);
    QCOMPARE(update.status, ImportStatus::Ok);
    QVERIFY(!update.mayGrow);
    compareScalars(update.scalars, oracle.value("scalars").toObject());
    QVERIFY(findTag(update.scalars, "system/gpu0_util_percent"));
    QVERIFY(findTag(update.scalars, "eval/loss"));
    QVERIFY(!findTag(update.scalars, "_runtime"));

    QVERIFY(update.summaries && update.summaries->hparams);
    const QVariantMap values = update.summaries->hparams->values;
    const QJsonObject expected = oracle.value("hparams").toObject();
    QCOMPARE(values.size(), expected.size());
    for (auto it = expected.begin(); it != expected.end(); ++it) {
        QVERIFY2(values.contains(it.key()), qPrintable(it.key()));
        if (it.value().isString())
            QCOMPARE(values.value(it.key()).toString(), it.value().toString());
        else
            QCOMPARE(values.value(it.key()).toDouble(), it.value().toDouble());
    }
    QCOMPARE(update.summaries->hparams->status, QStringLiteral("success"));
    QCOMPARE(update.summaries->hparams->startTime, 1795774210.0);
    QCOMPARE(update.summaries->hparams->endTime, 1795774210.0 + 100);
    // The list and W&B's own settings are named, not shown.
    QVERIFY(!values.contains("layers") && !values.contains("_wandb"));
    QVERIFY(std::any_of(update.diagnostics.begin(), update.diagnostics.end(),
                        [](const Diagnostic& d) { return d.message.contains("layers"); }));

    const QByteArray head = readAll(path).left(int(FileSniffer::kHeadSize));
    QCOMPARE(QString::fromStdString(FileSniffer::sniff("run-abc123.wandb", "",
                                                       std::string_view(head.constData(), std::size_t(head.size())),
                                                       head.size())
                                        .runName),
             oracle.value("display_name").toString());
}

void TestLoggerImporter::wandbRunFileNamesItsRun()
{
    const RunManifest manifest = RunScanner().scan(kData + "wandb-binary");
    QCOMPARE(manifest.runs(), QStringList { "wandb/bright-fox-7" });
    QCOMPARE(manifest.artifacts.size(), 1);
    QCOMPARE(manifest.artifacts.first().kind, ArtifactKind::WandbRun);
}

void TestLoggerImporter::wandbRunFileSupersedesJsonLines()
{
    // A run folder of a client that wrote both: the JSON lines copies are listed but not read twice.
    QTemporaryDir dir;
    const QString run = dir.filePath("wandb/offline-run-20261127_101010-abc123");
    QVERIFY(QDir().mkpath(run + "/files"));
    QVERIFY(QFile::copy(kData + kWandbRunFile, run + "/run-abc123.wandb"));
    for (const char* name : { "wandb-history.jsonl", "wandb-events.jsonl", "wandb-summary.json", "config.yaml" })
        QVERIFY(QFile::copy(kData + kWandb + name, run + "/files/" + name));
    const RunManifest manifest = RunScanner().scan(dir.path());
    QCOMPARE(manifest.runs(), QStringList { "wandb/bright-fox-7" });
    for (const char* name : { "wandb-history.jsonl", "wandb-events.jsonl" }) {
        const ImportUpdate json = importAll(run + "/files/" + name, ArtifactKind::Table);
        QVERIFY(json.scalars.empty());
        QVERIFY(!json.summaries);
        QCOMPARE(json.diagnostics.size(), 1);
        QCOMPARE(json.diagnostics.first().severity, Severity::Info);
        QVERIFY(json.diagnostics.first().message.contains("run-abc123.wandb"));
    }
}

void TestLoggerImporter::wandbRunFileTailsRecords()
{
    if (!QFileInfo::exists(QStringLiteral("/usr/bin/python3")))
        QSKIP("/usr/bin/python3 is not installed");
    const QByteArray whole = readAll(kData + kWandbRunFile);
    QTemporaryDir dir;
    const QString path = dir.filePath("run-abc123.wandb");
    // Cut inside the record that spans three blocks, then inside an ordinary record, then the rest.
    const qsizetype cuts[] = { 40000, 76000, whole.size() };
    Artifact artifact;
    artifact.path = path;
    artifact.kind = ArtifactKind::WandbRun;
    const auto importer = createImporter(artifact);
    QVERIFY(importer);
    ScalarBatch all;
    qsizetype written = 0;
    for (const qsizetype cut : cuts) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::Append));
        QCOMPARE(file.write(whole.mid(written, cut - written)), cut - written);
        file.close();
        written = cut;
        const ImportUpdate update = importer->poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        QCOMPARE(update.mayGrow, cut < whole.size());
        all = merged(all, update.scalars);
    }
    compareScalars(all, wandbOracle(kData + kWandbRunFile).value("scalars").toObject());
}

void TestLoggerImporter::wandbRunFileDamage()
{
    const QByteArray whole = readAll(kData + kWandbRunFile);
    QTemporaryDir dir;
    auto import = [&](const QByteArray& bytes) {
        const QString path = dir.filePath("run-x.wandb");
        QFile::remove(path);
        QFile file(path);
        file.open(QIODevice::WriteOnly);
        file.write(bytes);
        file.close();
        return ::importAll(path, ArtifactKind::WandbRun);
    };
    // A bad header: nothing is read, and the message says what the file lacks.
    QByteArray header = whole;
    header[4] = 'X';
    const ImportUpdate bad = import(header);
    QCOMPARE(bad.status, ImportStatus::Failed);
    QVERIFY(bad.diagnostics.first().message.contains("header"));
    // A flipped byte in the middle of the first block: that block's rest is lost, the blocks after it are read.
    QByteArray flipped = whole;
    flipped[3000] = char(flipped[3000] ^ 0x40);
    const ImportUpdate partial = import(flipped);
    QCOMPARE(partial.status, ImportStatus::Partial);
    QVERIFY(partial.diagnostics.first().message.contains("checksum"));
    QVERIFY(partial.diagnostics.first().offset > 0 && partial.diagnostics.first().offset < 32768);
    const TagPoints* loss = findTag(partial.scalars, "loss");
    QVERIFY(loss && loss->points.size() > 10 && loss->points.size() < 50);
    QCOMPARE(loss->points.front().step, 0);
    QCOMPARE(loss->points.back().step, 49);
    QVERIFY(partial.summaries && partial.summaries->hparams);
}

QTEST_GUILESS_MAIN(TestLoggerImporter)
#include "tst_loggerimporter.moc"
