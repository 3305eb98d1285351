#include "importers/summary/eventfilereader.h"
#include "models/core/crc32c.h"

#include "tests/importers/summary/pollresult.h"
#include "tests/testutils.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QtTest>

#include <cmath>
#include <cstdint>

using namespace runlens;
using namespace runlens::importers::summary;
using namespace runlens::models;
using namespace runlens::models::scalars;
using namespace runlens::test;

namespace {

SummaryFlavor flavorOf(const QString& path)
{
    return path.endsWith(QLatin1String("_MS")) || path.endsWith(QLatin1String("_lineage")) ? SummaryFlavor::MindSpore
                                                                                           : SummaryFlavor::TensorBoard;
}

std::uint64_t loadLe64(const QByteArray& bytes, qint64 at)
{
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i)
        value = (value << 8) | std::uint8_t(bytes[at + i]);
    return value;
}

std::uint32_t loadLe32(const QByteArray& bytes, qint64 at)
{
    std::uint32_t value = 0;
    for (int i = 3; i >= 0; --i)
        value = (value << 8) | std::uint8_t(bytes[at + i]);
    return value;
}

QString sample(const QString& root, const char* relative)
{
    return root + QLatin1Char('/') + QString::fromLatin1(relative);
}

const char* const kSb3 = "summaries/tensorboard/sb3_ppo/events.out.tfevents.1616744700.94ca43182e2d.702.0";
const char* const kTorch2Scalars
    = "summaries/tensorboard/torch2_scalars/events.out.tfevents.1771594466.zyzkings.21024.0";
const char* const kTf2
    = "summaries/tensorboard/tf2_tensor_scalars/events.out.tfevents.1585499054.Jaakkos-Mac-mini.local.11684.5.v2";
const char* const kHparamsParent
    = "summaries/tensorboard/torch2_hparams/events.out.tfevents.1771595857.zyzkings.1216.0";
const char* const kHparamsSub = "summaries/tensorboard/torch2_hparams/events.out.tfevents.1771595857.zyzkings.1216.1";
const char* const kMsRunA = "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_MS";
const char* const kMsTruncated
    = "summaries/mindspore_generated/run_truncated/events.out.events.summary.1700000200.0.helperhost_MS";
const char* const kMsBadCrc
    = "summaries/mindspore_generated/run_bad_crc/events.out.events.summary.1700000300.0.helperhost_MS";
const char* const kCnnEvents = "runs/pytorch_cnn_baseline/tb/events.out.tfevents.1795321629.vm.1522.0";

} // namespace

Q_DECLARE_METATYPE(runlens::models::ImportStatus)

// Conformance of EventFileReader with the real summary files of ../shared/samples.
class TestSummarySamples : public QObject
{
    Q_OBJECT

private slots:
    void everySampleLoads()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            const QString file = it.next();
            const QString name = it.fileName();
            if (!name.contains(QLatin1String("tfevents")) && !name.endsWith(QLatin1String("_MS"))
                && !name.endsWith(QLatin1String("_lineage")))
                continue;
            ++files;
            EventFileReader reader(file, flavorOf(file));
            const PollResult result = pollOnce(reader);
            const QByteArray context = file.toUtf8();
            QVERIFY2(result.update.status == ImportStatus::Ok || result.update.status == ImportStatus::Partial,
                     context.constData());
            QVERIFY2(result.collected.count(Severity::Error) == 0, context.constData());
            QVERIFY2(!reader.isDead(), context.constData());
            QVERIFY2(result.collected.metadataBatches == result.collected.series.size(), context.constData());
            if (!result.update.mayGrow)
                QCOMPARE(reader.offset(), QFileInfo(file).size());
            // Nothing more to read: a second poll delivers nothing new.
            const PollResult again = pollOnce(reader);
            QVERIFY2(again.update.scalars.empty() && again.update.diagnostics.isEmpty(), context.constData());
        }
        QVERIFY2(files >= 13, "the sample corpus should hold at least 13 summary files");
    }

    void samples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("tags");
        QTest::addColumn<int>("points");
        QTest::addColumn<ImportStatus>("status");
        QTest::addColumn<bool>("mayGrow");
        QTest::addColumn<int>("warnings");
        QTest::addColumn<QString>("fileVersion");
        QTest::addColumn<int>("graphNodes"); ///< nodes of the graph the file carries, 0 for none

        const QString brain = QStringLiteral("brain.Event:2");
        const QString mindSpore = QStringLiteral("MindSpore.Event:1");
        // MANIFEST.tsv: 11,716 records, file_version:1, summary:11715, 12 tags.
        QTest::newRow("sb3 ppo") << kSb3 << 12 << 11715 << ImportStatus::Ok << false << 0 << brain << 0;
        // MANIFEST.tsv: simple_value:200, tags=2.
        QTest::newRow("torch2 scalars") << kTorch2Scalars << 2 << 200 << ImportStatus::Ok << false << 0 << brain << 0;
        // MANIFEST.tsv: values=tensor:100, plugins=scalars:100, tags=1.
        QTest::newRow("tf2 tensor scalars") << kTf2 << 1 << 100 << ImportStatus::Ok << false << 0 << brain << 0;
        // MANIFEST.tsv: parent run holds only file_version + source_metadata.
        QTest::newRow("hparams parent") << kHparamsParent << 0 << 0 << ImportStatus::Ok << false << 0 << brain << 0;
        // MANIFEST.tsv: 3 metadata-only hparams values + 2 simple_value metrics.
        QTest::newRow("hparams sub-run") << kHparamsSub << 2 << 2 << ImportStatus::Ok << false << 0 << brain << 0;
        QTest::newRow("torch2 images")
            << "summaries/tensorboard/torch2_images/events.out.tfevents.1771595107.zyzkings.11980.0" << 0 << 0
            << ImportStatus::Ok << false << 0 << brain << 0;
        QTest::newRow("torch2 pr curve")
            << "summaries/tensorboard/torch2_pr_curve/events.out.tfevents.1771596445.zyzkings.30376.0" << 0 << 0
            << ImportStatus::Ok << false << 0 << brain << 0;
        // Files with graphs: node counts and dangling inputs counted by a python walk of the graph's protobuf
        // fields. The graph reader notes (as information, not a problem) inputs or outputs that name nothing in
        // the graph (torch's prim::GetAttr inputs, the generated MindSpore graph's output "228").
        // MANIFEST.tsv: graph_def: 30 nodes (4 dangling inputs).
        QTest::newRow("graph only") << "graphs/torch_add_graph_event/events.out.tfevents.1771596179.zyzkings.9384.0"
                                    << 0 << 0 << ImportStatus::Ok << false << 0 << brain << 30;
        // run_facts.json: 60 steps; 15 scalar tags (train/*, perf/*, grad_norm/* per layer).
        QTest::newRow("cnn baseline") << kCnnEvents << 15 << 15 * 60 << ImportStatus::Ok << false << 0 << brain
                                      << 59; // 10 dangling inputs
        // mindinsight.md section 7: 20 steps of scalars (loss, learning_rate).
        QTest::newRow("mindspore run_a") << kMsRunA << 2 << 40 << ImportStatus::Ok << false << 0 << mindSpore << 20;
        QTest::newRow("mindspore nested") << "summaries/mindspore_generated/run_a/nested_not_scanned/"
                                             "events.out.events.summary.1700000100.0.helperhost_MS"
                                          << 2 << 40 << ImportStatus::Ok << false << 0 << mindSpore << 20;
        QTest::newRow("mindspore lineage")
            << "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_lineage" << 0 << 0
            << ImportStatus::Ok << false << 0 << QString() << 0;
        // A truncated copy: the last event (step 20) is incomplete; not corruption.
        QTest::newRow("mindspore truncated")
            << kMsTruncated << 2 << 38 << ImportStatus::Ok << true << 0 << mindSpore << 20;
        // One payload CRC is wrong (the record still decodes): that record is skipped.
        QTest::newRow("mindspore bad crc")
            << kMsBadCrc << 2 << 38 << ImportStatus::Partial << false << 1 << mindSpore << 20;
    }

    void samples()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        QFETCH(QString, file);
        QFETCH(int, tags);
        QFETCH(int, points);
        QFETCH(ImportStatus, status);
        QFETCH(bool, mayGrow);
        QFETCH(int, warnings);
        QFETCH(QString, fileVersion);
        QFETCH(int, graphNodes);

        const QString full = root + QLatin1Char('/') + file;
        EventFileReader reader(full, flavorOf(full));
        const PollResult result = pollOnce(reader);
        QCOMPARE(result.collected.series.size(), tags);
        QCOMPARE(result.collected.totalPoints(), qint64(points));
        QCOMPARE(result.update.status, status);
        QCOMPARE(result.update.mayGrow, mayGrow);
        QCOMPARE(result.collected.count(Severity::Warning), warnings);
        QCOMPARE(result.collected.count(Severity::Error), 0);
        QCOMPARE(reader.fileVersion(), fileVersion);
        QCOMPARE(result.update.graph ? result.update.graph->nodeCount() : 0, graphNodes);
        QCOMPARE(result.update.graphSummary ? result.update.graphSummary->nodes : 0, graphNodes);
        QCOMPARE(result.update.bytesRead, reader.offset());
        for (const Diagnostic& diagnostic : result.collected.diagnostics) {
            QCOMPARE(diagnostic.file, QFileInfo(full).absoluteFilePath());
            QVERIFY(diagnostic.offset >= 0);
            QVERIFY(!diagnostic.message.isEmpty());
        }
    }

    void sb3Details()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        EventFileReader reader(sample(root, kSb3), SummaryFlavor::TensorBoard);
        const Collected c = pollOnce(reader).collected;
        // The rollout/time tags are logged from the first rollout on, the train/* ones from the first update.
        for (const auto& [tag, points] : c.series.asKeyValueRange()) {
            const bool fromStart = tag.startsWith(QLatin1String("rollout/")) || tag == QLatin1String("time/fps");
            QCOMPARE(qint64(points.size()), fromStart ? 977 : 976);
            QCOMPARE(points.front().step, fromStart ? 2048 : 4096);
            QCOMPARE(points.back().step, 2000896);
            for (std::size_t i = 1; i < points.size(); ++i)
                QVERIFY(points[i].step > points[i - 1].step);
            QVERIFY(c.metadata.value(tag).pluginName.isEmpty()); // legacy simple_value
        }
    }

    void torch2ScalarsDetails()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        EventFileReader reader(sample(root, kTorch2Scalars), SummaryFlavor::TensorBoard);
        const Collected c = pollOnce(reader).collected;
        QCOMPARE(c.tagOrder, (QStringList { QStringLiteral("Metrics/Loss"), QStringLiteral("Metrics/Accuracy") }));
        for (const auto& points : c.series) {
            QCOMPARE(points.size(), std::size_t(100));
            for (std::size_t i = 0; i < points.size(); ++i)
                QCOMPARE(points[i].step, qint64(i)); // step 0 is absent on the wire
        }
    }

    void tf2TensorScalars()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        EventFileReader reader(sample(root, kTf2), SummaryFlavor::TensorBoard);
        const Collected c = pollOnce(reader).collected;
        const auto& points = c.series.value(QStringLiteral("my_metric"));
        QCOMPARE(points.size(), std::size_t(100));
        for (std::size_t i = 0; i < points.size(); ++i) {
            QCOMPARE(points[i].step, qint64(i));
            QCOMPARE(points[i].value, 0.5 * double(i)); // the go-tensorboard fixture logs step / 2
            QVERIFY(points[i].wallTime > 1585499054.0 && points[i].wallTime < 1585499054.0 + 3600);
        }
        QCOMPARE(c.metadata.value(QStringLiteral("my_metric")).pluginName, QStringLiteral("scalars"));
    }

    void hparamsSubRun()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        EventFileReader reader(sample(root, kHparamsSub), SummaryFlavor::TensorBoard);
        const Collected c = pollOnce(reader).collected;
        QCOMPARE(
            c.series.keys(),
            (QStringList { QStringLiteral("hparam/Final_Val_Accuracy"), QStringLiteral("hparam/Final_Val_Loss") }));
        for (const auto& points : c.series)
            QCOMPARE(points.size(), std::size_t(1));
    }

    void mindSporeVariants()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        EventFileReader valid(sample(root, kMsRunA), SummaryFlavor::MindSpore);
        const Collected a = pollOnce(valid).collected;
        QCOMPARE(a.series.keys(), (QStringList { QStringLiteral("learning_rate"), QStringLiteral("loss") }));
        for (const auto& points : a.series) {
            QCOMPARE(points.size(), std::size_t(20));
            for (std::size_t i = 1; i < points.size(); ++i)
                QVERIFY(points[i].step > points[i - 1].step);
        }
        QCOMPARE(a.metadata.value(QStringLiteral("loss")).pluginName, QStringLiteral("scalars"));

        // Truncated copy: a prefix of run_a, waiting at the start of the incomplete record.
        const QString truncatedPath = sample(root, kMsTruncated);
        EventFileReader truncated(truncatedPath, SummaryFlavor::MindSpore);
        const PollResult t = pollOnce(truncated);
        QVERIFY(t.update.mayGrow);
        // The incomplete tail is not reported; only the graph's dangling output is.
        QCOMPARE(t.collected.diagnostics.size(), 1);
        QVERIFY(t.collected.diagnostics.first().message.contains(QLatin1String("graph")));
        QVERIFY(!truncated.isDead());
        for (const auto& [tag, points] : t.collected.series.asKeyValueRange()) {
            const auto& full = a.series.value(tag);
            QCOMPARE(points.size(), full.size() - 1);
            for (std::size_t i = 0; i < points.size(); ++i)
                QCOMPARE(points[i].value, full[i].value);
        }
        const QByteArray truncatedBytes = readFile(truncatedPath);
        const qint64 waitAt = truncated.offset();
        QVERIFY(waitAt < truncatedBytes.size());
        QVERIFY(qint64(loadLe64(truncatedBytes, waitAt)) + 16 > truncatedBytes.size() - waitAt);

        // Bad payload CRC: exactly one step is missing from both tags, and the diagnostic points at a
        // record whose stored CRC really does not match.
        const QString badPath = sample(root, kMsBadCrc);
        EventFileReader bad(badPath, SummaryFlavor::MindSpore);
        const PollResult b = pollOnce(bad);
        QCOMPARE(b.update.status, ImportStatus::Partial);
        // The CRC problem comes first; the graph's dangling output (reported once the graph is decoded) last.
        QCOMPARE(b.collected.diagnostics.size(), 2);
        const Diagnostic& diagnostic = b.collected.diagnostics.first();
        QCOMPARE(diagnostic.severity, Severity::Warning);
        const QByteArray badBytes = readFile(badPath);
        const qint64 at = diagnostic.offset;
        QVERIFY(at > 0 && at + 16 <= badBytes.size());
        const auto length = qint64(loadLe64(badBytes, at));
        QCOMPARE(maskedCrc32c(badBytes.constData() + at, 8), loadLe32(badBytes, at + 8));
        QVERIFY(maskedCrc32c(badBytes.constData() + at + 12, std::size_t(length))
                != loadLe32(badBytes, at + 12 + length));
        qint64 missingStep = -1;
        for (const auto& [tag, points] : b.collected.series.asKeyValueRange()) {
            const auto& full = a.series.value(tag);
            QCOMPARE(points.size(), full.size() - 1);
            std::size_t j = 0;
            for (std::size_t i = 0; i < full.size(); ++i) {
                if (j < points.size() && points[j].step == full[i].step) {
                    QCOMPARE(points[j].value, full[i].value);
                    ++j;
                } else {
                    QVERIFY(missingStep == -1 || missingStep == full[i].step);
                    missingStep = full[i].step;
                }
            }
        }
        QVERIFY(missingStep > 0);
    }

    void cnnBaselineMatchesCsv()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        EventFileReader reader(sample(root, kCnnEvents), SummaryFlavor::TensorBoard);
        const Collected c = pollOnce(reader).collected;

        QFile csv(sample(root, "runs/pytorch_cnn_baseline/metrics.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
        const QList<QByteArray> header = csv.readLine().trimmed().split(',');
        QList<QList<QByteArray>> rows;
        while (!csv.atEnd()) {
            const QByteArray line = csv.readLine().trimmed();
            if (!line.isEmpty())
                rows.append(line.split(','));
        }
        QCOMPARE(rows.size(), 60); // run_facts.json: "steps": 60

        struct Column
        {
            const char* name;
            const char* tag;
            double absoluteTolerance; // the csv rounds timings to 3 decimals
        };
        const Column columns[] = { { "loss", "train/loss", 0.0 },
                                   { "lr", "train/lr", 0.0 },
                                   { "grad_norm", "train/grad_norm", 0.0 },
                                   { "data_ms", "perf/data_ms", 0.0006 },
                                   { "step_ms", "perf/step_ms", 0.0006 } };
        const int stepColumn = int(header.indexOf("step"));
        const int wallColumn = int(header.indexOf("wall_time"));
        QVERIFY(stepColumn >= 0 && wallColumn >= 0);
        for (const Column& column : columns) {
            const int index = int(header.indexOf(column.name));
            QVERIFY2(index >= 0, column.name);
            const auto& points = c.series.value(QString::fromLatin1(column.tag));
            QCOMPARE(points.size(), std::size_t(rows.size()));
            for (int i = 0; i < rows.size(); ++i) {
                const double expected = rows[i][index].toDouble();
                const ScalarPoint& point = points[std::size_t(i)];
                QCOMPARE(point.step, rows[i][stepColumn].toLongLong());
                // Values are stored as float32: allow its rounding on top of the csv's.
                const double tolerance = std::abs(expected) * 1e-6 + column.absoluteTolerance;
                QVERIFY2(std::abs(point.value - expected) <= tolerance,
                         qPrintable(QStringLiteral("%1 step %2: %3 vs %4")
                                        .arg(QLatin1String(column.tag))
                                        .arg(point.step)
                                        .arg(point.value)
                                        .arg(expected)));
                // The csv takes its own clock reading next to the writer's.
                QVERIFY(std::abs(point.wallTime - rows[i][wallColumn].toDouble()) < 0.05);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestSummarySamples)
#include "tst_summarysamples.moc"
