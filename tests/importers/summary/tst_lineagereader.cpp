#include "importers/core/artifactimporter.h"
#include "importers/core/report.h"
#include "importers/summary/lineagereader.h"
#include "importers/summary/proto/ms_lineage.pb.h"
#include "importers/summary/recordreader.h"

#include "tests/testutils.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::summary;
using namespace runlens::models;
using namespace runlens::models::summary;
namespace pb = runlens::ms::lineage;

namespace {

QByteArray record(const pb::LineageEvent& event)
{
    const std::string bytes = event.SerializeAsString();
    return importers::summary::tfrecord::framed(QByteArrayView(bytes.data(), qsizetype(bytes.size())));
}

bool writeFile(const QString& path, const QByteArray& bytes, bool append = false)
{
    QFile file(path);
    if (!file.open(append ? QIODevice::Append : (QIODevice::WriteOnly | QIODevice::Truncate)))
        return false;
    return file.write(bytes) == bytes.size();
}

pb::LineageEvent trainEvent(const std::string& optimizer, float learningRate, int batchSize)
{
    pb::LineageEvent event;
    event.set_wall_time(1700000000.0);
    auto* hyper = event.mutable_train_lineage()->mutable_hyper_parameters();
    hyper->set_optimizer(optimizer);
    hyper->set_learning_rate(learningRate);
    hyper->set_batch_size(batchSize);
    return event;
}

pb::LineageEvent evaluationEvent(const std::string& metricJson)
{
    pb::LineageEvent event;
    event.set_wall_time(1700000001.0);
    event.mutable_evaluation_lineage()->set_metric(metricJson);
    return event;
}

int countSeverity(const Diagnostics& diagnostics, Severity severity)
{
    return int(std::count_if(diagnostics.begin(), diagnostics.end(),
                             [&](const Diagnostic& d) { return d.severity == severity; }));
}

} // namespace

class TestLineageReader : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Expected values from tests/data/summary/lineage_sample_decode.py (an independent wire-format walker).
    void sampleFile()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString file = samples
            + QStringLiteral("/summaries/mindspore_generated/run_a/"
                             "events.out.events.summary.1700000000.0.helperhost_lineage");
        LineageReader reader(file);
        const ImportUpdate update = reader.poll({});
        QVERIFY2(update.diagnostics.isEmpty(), qPrintable(update.diagnostics.value(0).toString()));
        QCOMPARE(update.status, ImportStatus::Ok);
        QCOMPARE(update.recordsRead, 3);
        QCOMPARE(update.bytesRead, 434);
        QVERIFY(!update.mayGrow);
        QVERIFY(update.lineage);
        const RunLineage& lineage = *update.lineage;

        QVERIFY(lineage.train);
        const RunLineage::Train& t = *lineage.train;
        QCOMPARE(t.optimizer, QStringLiteral("Momentum"));
        QCOMPARE(float(*t.learningRate), 0.009999999776482582f);
        QCOMPARE(*t.learningRate, 0.01); // the float's shortest decimal form
        QCOMPARE(t.lossFunction, QStringLiteral("SoftmaxCrossEntropyWithLogits"));
        QCOMPARE(t.epoch, 1);
        QCOMPARE(t.parallelMode, QStringLiteral("stand_alone"));
        QCOMPARE(t.deviceNum, 1);
        QCOMPARE(t.batchSize, 32);
        QCOMPARE(t.trainDatasetPath, QStringLiteral("/data/mnist/train"));
        QCOMPARE(t.trainDatasetSize, 1875);
        QCOMPARE(t.network, QStringLiteral("LeNet5"));
        QCOMPARE(float(*t.loss), 0.11999999731779099f);
        QCOMPARE(t.modelPath, QStringLiteral("/ckpt/lenet-1_1875.ckpt"));
        QCOMPARE(t.modelSize, 494084);

        QVERIFY(lineage.evaluation);
        QCOMPARE(lineage.evaluation->metrics.size(), 1);
        QCOMPARE(lineage.evaluation->metrics.value(QStringLiteral("Accuracy")), 0.9712);
        QCOMPARE(lineage.evaluation->validDatasetPath, QStringLiteral("/data/mnist/test"));
        QCOMPARE(lineage.evaluation->validDatasetSize, 312);

        // The batch node's child is the source: pipeline order puts it first.
        QVERIFY(lineage.datasetGraph);
        QCOMPARE(lineage.datasetGraph->size(), 2);
        const DatasetOp& source = lineage.datasetGraph->at(0);
        QCOMPARE(source.type, QStringLiteral("MnistDataset"));
        QCOMPARE(source.parameters.value(QStringLiteral("dataset_dir")), QStringLiteral("/data/mnist/train"));
        QCOMPARE(source.parameters.size(), 1);
        const DatasetOp& batch = lineage.datasetGraph->at(1);
        QCOMPARE(batch.type, QStringLiteral("BatchDataset"));
        QCOMPARE(batch.parameters.value(QStringLiteral("batch_size")), QStringLiteral("32"));
        QCOMPARE(batch.parameters.value(QStringLiteral("drop_remainder")), QStringLiteral("true"));
        QCOMPARE(batch.parameters.value(QStringLiteral("op_module")), QStringLiteral("minddata.dataengine.datasets"));
        QVERIFY(!batch.parameters.contains(QStringLiteral("op_type")));
        QVERIFY(!lineage.userDefined);

        const QVariantMap map = lineage.toVariantMap();
        QCOMPARE(map.value(QStringLiteral("optimizer")).toString(), QStringLiteral("Momentum"));
        QCOMPARE(map.value(QStringLiteral("metric/Accuracy")).toDouble(), 0.9712);
        QCOMPARE(map.value(QStringLiteral("dataset_pipeline")).toString(),
                 QStringLiteral("MnistDataset -> BatchDataset"));

        // Nothing new: a second poll delivers nothing.
        const ImportUpdate again = reader.poll({});
        QVERIFY(!again.lineage);
        QCOMPARE(again.recordsRead, 0);
    }

    void latestOfEachKindWins()
    {
        const QString file = path(QStringLiteral("latest_lineage"));
        pb::LineageEvent second = trainEvent("Adam", 0.001f, 64);
        second.mutable_train_lineage()->mutable_algorithm()->set_network("ResNet50");
        QByteArray bytes = record(trainEvent("Momentum", 0.1f, 32)) + record(evaluationEvent("{\"Accuracy\": 0.5}"));
        pb::LineageEvent firstTrainWithModel = trainEvent("SGD", 0.5f, 16);
        firstTrainWithModel.mutable_train_lineage()->mutable_model()->set_path("/old.ckpt");
        bytes += record(firstTrainWithModel) + record(second) + record(evaluationEvent("{\"Accuracy\": 0.75}"));
        QVERIFY(writeFile(file, bytes));

        LineageReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        QCOMPARE(update.recordsRead, 5);
        QVERIFY(update.lineage && update.lineage->train && update.lineage->evaluation);
        const RunLineage::Train& t = *update.lineage->train;
        QCOMPARE(t.optimizer, QStringLiteral("Adam"));
        QCOMPARE(*t.learningRate, 0.001);
        QCOMPARE(t.batchSize, 64);
        QCOMPARE(t.network, QStringLiteral("ResNet50"));
        // The latest record replaces the earlier one whole: nothing of it leaks through.
        QVERIFY(!t.modelPath);
        QCOMPARE(update.lineage->evaluation->metrics.value(QStringLiteral("Accuracy")), 0.75);
        QVERIFY(!update.lineage->datasetGraph);
    }

    void metricJson_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<int>("warnings");
        QTest::newRow("two numbers") << QByteArray("{\"Accuracy\": 0.9712, \"Loss\": 0.25}")
                                     << QStringList { "Accuracy", "Loss" } << QList<double> { 0.9712, 0.25 } << 0;
        QTest::newRow("integer") << QByteArray("{\"Top5\": 1}") << QStringList { "Top5" } << QList<double> { 1.0 } << 0;
        // Python's json.dumps writes NaN/Infinity bare; a string that merely says NaN stays text.
        QTest::newRow("python non-finite") << QByteArray("{\"a\": NaN, \"b\": -Infinity, \"note\": \"NaN ok\"}")
                                           << QStringList { "a", "b" } << QList<double> { qQNaN(), -qInf() } << 1;
        QTest::newRow("non-number member") << QByteArray("{\"Accuracy\": 0.5, \"per_class\": [0.1, 0.2]}")
                                           << QStringList { "Accuracy" } << QList<double> { 0.5 } << 1;
        QTest::newRow("not json") << QByteArray("accuracy=0.5") << QStringList {} << QList<double> {} << 1;
        QTest::newRow("array") << QByteArray("[0.5]") << QStringList {} << QList<double> {} << 1;
    }

    void metricJson()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, names);
        QFETCH(QList<double>, values);
        QFETCH(int, warnings);
        const QString file = path(QStringLiteral("metric_lineage"));
        pb::LineageEvent event = evaluationEvent(json.toStdString());
        event.mutable_evaluation_lineage()->mutable_valid_dataset()->set_valid_dataset_path("/data/valid");
        QVERIFY(writeFile(file, record(event)));
        LineageReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(countSeverity(update.diagnostics, Severity::Warning), warnings);
        QCOMPARE(update.status, warnings ? ImportStatus::Partial : ImportStatus::Ok);
        QVERIFY(update.lineage && update.lineage->evaluation);
        const RunLineage::Evaluation& e = *update.lineage->evaluation;
        QCOMPARE(e.metrics.keys(), names);
        for (int i = 0; i < names.size(); ++i) {
            const double got = e.metrics.value(names[i]);
            if (std::isnan(values[i]))
                QVERIFY(std::isnan(got));
            else
                QCOMPARE(got, values[i]);
        }
        QCOMPARE(e.validDatasetPath, QStringLiteral("/data/valid"));
        for (const Diagnostic& d : update.diagnostics)
            QCOMPARE(d.offset, 0);
    }

    void longMetricTextIsReadInOnePass()
    {
        // 8 MB of blanks between a key and its value: quoting Python's NaN copied the rest of the text once per
        // byte (32 TB of copying); one pass reads it at once.
        const std::string metric = "{\"Accuracy\":" + std::string(8 << 20, ' ') + "NaN, \"Loss\": 0.25}";
        const QString file = path(QStringLiteral("long_metric_lineage"));
        QVERIFY(writeFile(file, record(evaluationEvent(metric))));
        LineageReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(update.lineage && update.lineage->evaluation);
        QVERIFY(std::isnan(update.lineage->evaluation->metrics.value(QStringLiteral("Accuracy"))));
        QCOMPARE(update.lineage->evaluation->metrics.value(QStringLiteral("Loss")), 0.25);
    }

    void badDataCrcSkipsRecord()
    {
        const QString file = path(QStringLiteral("crc_lineage"));
        const QByteArray first = record(trainEvent("Momentum", 0.1f, 32));
        QByteArray damaged = record(trainEvent("Adam", 0.2f, 64));
        damaged[int(importers::summary::tfrecord::kHeaderSize) + 3]
            = char(damaged[int(importers::summary::tfrecord::kHeaderSize) + 3] ^ 0x40);
        const QByteArray last = record(evaluationEvent("{\"Accuracy\": 0.5}"));
        QVERIFY(writeFile(file, first + damaged + last));

        LineageReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Partial);
        QCOMPARE(update.recordsRead, 3);
        QCOMPARE(update.diagnostics.size(), 1);
        QCOMPARE(update.diagnostics[0].severity, Severity::Warning);
        QCOMPARE(update.diagnostics[0].offset, first.size());
        QVERIFY(update.diagnostics[0].file.endsWith(QStringLiteral("crc_lineage")));
        QVERIFY(update.lineage && update.lineage->train && update.lineage->evaluation);
        // The damaged (later) training record was skipped, so the first one stands.
        QCOMPARE(update.lineage->train->optimizer, QStringLiteral("Momentum"));
        QCOMPARE(update.lineage->evaluation->metrics.value(QStringLiteral("Accuracy")), 0.5);
    }

    void badLengthCrcStops()
    {
        const QString file = path(QStringLiteral("length_lineage"));
        const QByteArray first = record(trainEvent("Momentum", 0.1f, 32));
        QByteArray second = record(evaluationEvent("{\"Accuracy\": 0.5}"));
        second[0] = char(second[0] ^ 0x01);
        QVERIFY(writeFile(file, first + second + record(trainEvent("Adam", 0.2f, 64))));
        LineageReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Partial);
        QCOMPARE(countSeverity(update.diagnostics, Severity::Error), 1);
        QCOMPARE(update.diagnostics[0].offset, first.size());
        QVERIFY(update.lineage && update.lineage->train);
        QCOMPARE(update.lineage->train->optimizer, QStringLiteral("Momentum"));
        QVERIFY(!update.lineage->evaluation);

        // Not a record file at all: failed, one error, no crash.
        const QString junk = path(QStringLiteral("junk_lineage"));
        QVERIFY(writeFile(junk, QByteArray(64, 'x')));
        LineageReader junkReader(junk);
        const ImportUpdate bad = junkReader.poll({});
        QCOMPARE(bad.status, ImportStatus::Failed);
        QCOMPARE(countSeverity(bad.diagnostics, Severity::Error), 1);
        QVERIFY(!bad.lineage);
    }

    void truncatedKeepsWhatWasRead()
    {
        const QString file = path(QStringLiteral("growing_lineage"));
        const QByteArray first = record(trainEvent("Momentum", 0.1f, 32));
        const QByteArray second = record(evaluationEvent("{\"Accuracy\": 0.5}"));
        QVERIFY(writeFile(file, first + second.left(second.size() - 7)));

        LineageReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(update.mayGrow);
        QCOMPARE(update.recordsRead, 1);
        QCOMPARE(reader.offset(), first.size());
        QVERIFY(update.lineage && update.lineage->train);
        QVERIFY(!update.lineage->evaluation);

        // The writer finishes the record: the next poll completes it and delivers the whole lineage again.
        QVERIFY(writeFile(file, second.right(7), true));
        const ImportUpdate more = reader.poll({});
        QVERIFY(!more.mayGrow);
        QCOMPARE(more.recordsRead, 1);
        QVERIFY(more.lineage && more.lineage->train && more.lineage->evaluation);
        QCOMPARE(more.lineage->train->optimizer, QStringLiteral("Momentum"));
        QCOMPARE(more.lineage->evaluation->metrics.value(QStringLiteral("Accuracy")), 0.5);
    }

    void userDefinedAndDatasetGraph()
    {
        const QString file = path(QStringLiteral("user_lineage"));
        pb::LineageEvent user;
        user.set_wall_time(1.0);
        auto* info = user.mutable_user_defined_info();
        auto* item = info->add_user_info();
        (*item->mutable_map_str())["comment"] = "baseline";
        (*info->add_user_info()->mutable_map_int32())["seed"] = 42;
        (*info->add_user_info()->mutable_map_double())["dropout"] = 0.25;
        pb::UserDefinedInfo& nested = (*info->add_user_info()->mutable_map_dict())["augment"];
        (*nested.mutable_map_str())["crop"] = "random";

        pb::LineageEvent graph;
        graph.set_wall_time(2.0);
        auto* map = graph.mutable_dataset_graph();
        (*map->mutable_parameter()->mutable_mapstr())["op_type"] = "MapDataset";
        auto* mapOperation = map->add_operations()->mutable_operationparam();
        (*mapOperation->mutable_mapstr())["tensor_op_name"] = "Decode";
        auto* source = map->add_children();
        (*source->mutable_parameter()->mutable_mapstr())["op_type"] = "ImageFolderDataset";
        (*source->mutable_parameter()->mutable_mapstrlist())["extensions"].add_strvalue(".jpg");
        (*source->mutable_parameter()->mutable_mapdouble())["ratio"] = 0.5;
        (*source->mutable_sampler()->mutable_operationparam()->mutable_mapstr())["sampler_name"] = "RandomSampler";
        QVERIFY(writeFile(file, record(user) + record(graph)));

        LineageReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(update.lineage && update.lineage->userDefined && update.lineage->datasetGraph);
        const QMap<QString, QVariant>& values = *update.lineage->userDefined;
        QCOMPARE(values.size(), 4);
        QCOMPARE(values.value(QStringLiteral("comment")).toString(), QStringLiteral("baseline"));
        QCOMPARE(values.value(QStringLiteral("seed")).toLongLong(), 42);
        QCOMPARE(values.value(QStringLiteral("dropout")).toDouble(), 0.25);
        QCOMPARE(values.value(QStringLiteral("augment/crop")).toString(), QStringLiteral("random"));

        const QList<DatasetOp>& ops = *update.lineage->datasetGraph;
        QCOMPARE(ops.size(), 2);
        QCOMPARE(ops[0].type, QStringLiteral("ImageFolderDataset"));
        QCOMPARE(ops[0].parameters.value(QStringLiteral("extensions")), QStringLiteral("[.jpg]"));
        QCOMPARE(ops[0].parameters.value(QStringLiteral("ratio")), QStringLiteral("0.5"));
        QCOMPARE(ops[0].parameters.value(QStringLiteral("sampler")), QStringLiteral("sampler_name=RandomSampler"));
        QCOMPARE(ops[1].type, QStringLiteral("MapDataset"));
        QCOMPARE(ops[1].parameters.value(QStringLiteral("operations")), QStringLiteral("{tensor_op_name=Decode}"));

        const QVariantMap map2 = update.lineage->toVariantMap();
        QCOMPARE(map2.value(QStringLiteral("user/augment/crop")).toString(), QStringLiteral("random"));
        QCOMPARE(map2.value(QStringLiteral("user/seed")).toLongLong(), 42);
        QCOMPARE(map2.value(QStringLiteral("dataset_pipeline")).toString(),
                 QStringLiteral("ImageFolderDataset -> MapDataset"));
    }

    void variantMapKeys()
    {
        RunLineage lineage;
        QVERIFY(lineage.isEmpty());
        QVERIFY(lineage.toVariantMap().isEmpty());
        RunLineage::Train t;
        t.optimizer = QStringLiteral("Momentum");
        t.learningRate = 0.01;
        t.lossFunction = QStringLiteral("CE");
        t.epoch = 10;
        t.parallelMode = QStringLiteral("data_parallel");
        t.deviceNum = 8;
        t.batchSize = 32;
        t.trainDatasetPath = QStringLiteral("/train");
        t.trainDatasetSize = 100;
        t.network = QStringLiteral("LeNet5");
        t.loss = 0.5;
        t.modelPath = QStringLiteral("/m.ckpt");
        t.modelSize = 1234;
        lineage.train = t;
        RunLineage::Evaluation e;
        e.metrics.insert(QStringLiteral("accuracy"), 0.9);
        e.validDatasetPath = QStringLiteral("/valid");
        e.validDatasetSize = 20;
        lineage.evaluation = e;
        lineage.datasetGraph = QList<DatasetOp> { DatasetOp { QStringLiteral("MnistDataset"), {} } };
        lineage.userDefined = QMap<QString, QVariant> { { QStringLiteral("seed"), 7 } };
        QVERIFY(!lineage.isEmpty());

        const QVariantMap map = lineage.toVariantMap();
        const QStringList expected { "batch_size",
                                     "dataset_pipeline",
                                     "device_num",
                                     "epoch",
                                     "learning_rate",
                                     "loss",
                                     "loss_function",
                                     "metric/accuracy",
                                     "model_path",
                                     "model_size",
                                     "network",
                                     "optimizer",
                                     "parallel_mode",
                                     "train_dataset_path",
                                     "train_dataset_size",
                                     "user/seed",
                                     "valid_dataset_path",
                                     "valid_dataset_size" };
        QCOMPARE(map.keys(), expected);
        QCOMPARE(map.value(QStringLiteral("learning_rate")).toDouble(), 0.01);
        QCOMPARE(map.value(QStringLiteral("device_num")).toLongLong(), 8);
        QCOMPARE(map.value(QStringLiteral("metric/accuracy")).toDouble(), 0.9);

        // Absent values have no key.
        RunLineage partial;
        partial.train = RunLineage::Train {};
        partial.train->optimizer = QStringLiteral("Adam");
        QCOMPARE(partial.toVariantMap().keys(), QStringList { "optimizer" });
    }

    void registeredAndReported()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        Artifact artifact;
        artifact.path = samples
            + QStringLiteral("/summaries/mindspore_generated/run_a/"
                             "events.out.events.summary.1700000000.0.helperhost_lineage");
        artifact.relativePath = QStringLiteral("run_a/lineage");
        artifact.kind = ArtifactKind::MindSporeLineage;
        artifact.run = QStringLiteral("run_a");
        QVERIFY(artifactKindImported(ArtifactKind::MindSporeLineage));
        const std::unique_ptr<ArtifactImporter> importer = createImporter(artifact);
        QVERIFY(importer);
        const ImportUpdate update = importer->poll({});
        QVERIFY(update.lineage);

        RunManifest manifest;
        manifest.root = samples;
        manifest.artifacts.append(artifact);
        ArtifactState state;
        state.status = update.status;
        state.lineage = update.lineage;
        const std::vector<ArtifactState> states { state };
        const QJsonObject json = infoReportJson(manifest, states);
        const QJsonObject lineage = json.value(QStringLiteral("artifacts"))
                                        .toArray()
                                        .at(0)
                                        .toObject()
                                        .value(QStringLiteral("lineage"))
                                        .toObject();
        QCOMPARE(lineage.value(QStringLiteral("optimizer")).toString(), QStringLiteral("Momentum"));
        QCOMPARE(lineage.value(QStringLiteral("batch_size")).toDouble(), 32.0);
        QCOMPARE(lineage.value(QStringLiteral("metric/Accuracy")).toDouble(), 0.9712);
        const QString text = infoReportText(manifest, states);
        QVERIFY2(text.contains(QStringLiteral("lineage optimizer: Momentum")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("lineage learning_rate: 0.01\n")), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestLineageReader)
#include "tst_lineagereader.moc"
