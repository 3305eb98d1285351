#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"
#include "models/tensor/tensor.h"

#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::models;
using namespace runlens::models::scalars;
using namespace runlens::models::summary;

namespace {

/// A number of the oracle's JSON, where non-finite values are written as strings.
double number(const QJsonValue& value)
{
    if (value.isString()) {
        const QString text = value.toString();
        if (text == QLatin1String("inf"))
            return std::numeric_limits<double>::infinity();
        if (text == QLatin1String("-inf"))
            return -std::numeric_limits<double>::infinity();
        return std::numeric_limits<double>::quiet_NaN();
    }
    return value.toDouble();
}

std::vector<double> numbers(const QJsonValue& value)
{
    std::vector<double> out;
    for (const QJsonValue& item : value.toArray())
        out.push_back(number(item));
    return out;
}

std::vector<qint64> steps(const QJsonObject& tag)
{
    std::vector<qint64> out;
    for (const QJsonValue& step : tag.value(QLatin1String("steps")).toArray())
        out.push_back(qint64(step.toDouble()));
    return out;
}

template<typename Item> std::vector<qint64> steps(const SummarySeries<Item>& series)
{
    std::vector<qint64> out;
    for (const Item& item : series.items)
        out.push_back(item.step);
    return out;
}

bool isSummaryFile(const QString& name)
{
    return name.contains(QLatin1String("tfevents")) || name.endsWith(QLatin1String("_MS"));
}

/// Steps of what the store keeps of a tag of `kind`.
std::vector<qint64> keptSteps(const SummaryStore& store, SummaryKind kind, const QString& run, const QString& tag)
{
    switch (kind) {
    case SummaryKind::Histograms:
        return steps(store.histograms(run, tag));
    case SummaryKind::Images:
        return steps(store.images(run, tag));
    case SummaryKind::Texts:
        return steps(store.texts(run, tag));
    case SummaryKind::PrCurves:
        return steps(store.prCurves(run, tag));
    case SummaryKind::RocCurves:
        return steps(store.rocCurves(run, tag));
    case SummaryKind::Tensors:
        return steps(store.tensors(run, tag));
    }
    return {};
}

QJsonArray values(const QJsonObject& tag)
{
    return tag.value(QLatin1String("values")).toArray();
}

/// The tags of `file` as tests/data/summary/summary_sample_decode.py (an independent wire-format decoder)
/// prints them. A decoder that fails fails the current test (it would otherwise compare nothing).
QJsonObject oracle(const QString& file)
{
    const runlens::test::PythonRun run
        = runlens::test::runPythonScript(QStringLiteral("summary/summary_sample_decode.py"), { file });
    if (!run.ok()) {
        QTest::qFail(qPrintable(run.message), __FILE__, __LINE__);
        return {};
    }
    const QJsonObject root = QJsonDocument::fromJson(run.output.toUtf8()).object();
    if (root.value(QLatin1String("crc_errors")).toInt() != 0)
        qWarning() << "oracle saw checksum errors in" << file;
    return root.value(QLatin1String("tags")).toObject();
}

/// The single tag of a sample file, as the oracle reads it; an empty name when the file holds another
/// number of tags or a tag of another kind.
struct SingleTag
{
    QString name;
    QJsonObject oracle;
};

SingleTag singleTag(const QString& file, const QString& kind)
{
    const QJsonObject tags = oracle(file);
    if (tags.size() != 1 || tags.begin().value().toObject().value(QLatin1String("kind")).toString() != kind)
        return {};
    return { tags.begin().key(), tags.begin().value().toObject() };
}

/// A folder read through the session as the application reads it, into the stores the main window keeps.
struct Imported
{
    RunManifest manifest;
    std::unique_ptr<ImportSession> session;
    ScalarStore scalars;
    SummaryStore summaries;
    QList<QPair<QString, RunLineage>> lineages;

    int index = -1; ///< of the artifact of `file`
    QString run; ///< the run of that artifact

    /// Reads `folder` and finds the artifact of its file `file` (when given).
    explicit Imported(const QString& folder, const char* file = nullptr)
        : manifest(RunScanner().scan(folder))
        , session(std::make_unique<ImportSession>(manifest))
    {
        QObject::connect(session.get(), &ImportSession::scalarsArrived, &scalars, &ScalarStore::append);
        QObject::connect(session.get(), &ImportSession::summariesArrived, &summaries, &SummaryStore::update);
        QObject::connect(session.get(), &ImportSession::lineageArrived, &summaries, &SummaryStore::setLineage);
        QObject::connect(session.get(), &ImportSession::lineageArrived,
                         [this](const QString& run, const RunLineage& lineage) {
                             lineages.append({ run, lineage });
                         });
        session->importBlocking();
        for (int i = 0; file && i < int(manifest.artifacts.size()); ++i) {
            if (manifest.artifacts[std::size_t(i)].path.endsWith(QLatin1String(file))) {
                index = i;
                run = manifest.artifacts[std::size_t(i)].run;
            }
        }
    }

    const ArtifactState& state() const { return session->state(index); }
};

QByteArray sha256(const QByteArray& bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

const char* const kImages = "summaries/tensorboard/torch2_images";
const char* const kImagesFile = "events.out.tfevents.1771595107.zyzkings.11980.0";
const char* const kPrCurve = "summaries/tensorboard/torch2_pr_curve";
const char* const kPrCurveFile = "events.out.tfevents.1771596445.zyzkings.30376.0";
const char* const kHparams = "summaries/tensorboard/torch2_hparams";
const char* const kHparamsSubFile = "events.out.tfevents.1771595857.zyzkings.1216.1";
const char* const kCnn = "runs/pytorch_cnn_baseline/tb";
const char* const kCnnFile = "events.out.tfevents.1795321629.vm.1522.0";
const char* const kMsRunA = "summaries/mindspore_generated/run_a";
const char* const kMsRunAFile = "events.out.events.summary.1700000000.0.helperhost_MS";

} // namespace

#define REQUIRE_ORACLE()                                                                                               \
    do {                                                                                                               \
        const runlens::test::PythonRun probe = runlens::test::runPython({ QStringLiteral("-c"), QStringLiteral("") }); \
        RUNLENS_VERIFY_PYTHON(probe);                                                                                  \
    } while (false)

// Conformance of the summary values beyond scalars (images, PR curves, hyper-parameters, histograms,
// texts, MindSpore tensors and lineage) on the real samples, each value compared with what an
// independent wire-format decoder reads from the same file.
class TestSummaryValueSamples : public QObject
{
    Q_OBJECT

private slots:
    void everySummarySampleAgreesWithTheOracle()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        REQUIRE_ORACLE();
        QStringList folders;
        QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QFileInfo file(it.next());
            if (isSummaryFile(file.fileName()) && !folders.contains(file.absolutePath()))
                folders << file.absolutePath();
        }
        folders.sort();
        QVERIFY(folders.size() >= 9);
        const SummaryLimits limits;
        const QMap<QString, QPair<SummaryKind, int>> kinds {
            { QStringLiteral("histogram"), { SummaryKind::Histograms, limits.histograms } },
            { QStringLiteral("ms_histogram"), { SummaryKind::Histograms, limits.histograms } },
            { QStringLiteral("image"), { SummaryKind::Images, limits.images } },
            { QStringLiteral("text"), { SummaryKind::Texts, limits.texts } },
            { QStringLiteral("pr_curve"), { SummaryKind::PrCurves, limits.prCurves } },
            { QStringLiteral("tensor"), { SummaryKind::Tensors, limits.tensors } },
            { QStringLiteral("ms_tensor"), { SummaryKind::Tensors, limits.tensors } },
        };
        qint64 scalarPoints = 0;
        int files = 0;
        for (const QString& folder : std::as_const(folders)) {
            const ::Imported imported(folder);
            // run -> kind -> tags the oracle finds in the run's files
            QMap<QString, QMap<SummaryKind, QStringList>> expectedTags;
            for (const Artifact& artifact : imported.manifest.artifacts) {
                if (!isSummaryFile(QFileInfo(artifact.path).fileName()))
                    continue;
                ++files;
                const QJsonObject tags = oracle(artifact.path);
                for (auto tag = tags.constBegin(); tag != tags.constEnd(); ++tag) {
                    const QJsonObject want = tag.value().toObject();
                    const QString kind = want.value(QLatin1String("kind")).toString();
                    const QByteArray context = (artifact.path + QLatin1Char(' ') + tag.key()).toUtf8();
                    if (kind == QLatin1String("scalar")) {
                        const ScalarSeries* series = imported.scalars.series(artifact.run, tag.key());
                        QVERIFY2(series, context.constData());
                        const std::vector<double> wantValues = numbers(want.value(QLatin1String("values")));
                        QVERIFY2(series->points.size() == wantValues.size(), context.constData());
                        for (std::size_t i = 0; i < wantValues.size(); ++i) {
                            QVERIFY2(series->points[i].step == steps(want)[i], context.constData());
                            QVERIFY2(series->points[i].value == wantValues[i], context.constData());
                        }
                        scalarPoints += qint64(wantValues.size());
                    } else if (kinds.contains(kind)) {
                        const auto [summaryKind, limit] = kinds.value(kind);
                        expectedTags[artifact.run][summaryKind] << tag.key();
                        const std::vector<qint64> wantSteps = steps(want);
                        const std::vector<qint64> got
                            = keptSteps(imported.summaries, summaryKind, artifact.run, tag.key());
                        if (qsizetype(wantSteps.size()) <= limit) {
                            QVERIFY2(got == wantSteps, context.constData());
                        } else {
                            QVERIFY2(qsizetype(got.size()) == limit && got.back() == wantSteps.back(),
                                     context.constData());
                        }
                    } else if (kind == QLatin1String("hparams")) {
                        QVERIFY2(!imported.summaries.hparams(artifact.run).isEmpty(), context.constData());
                    }
                }
            }
            // Nothing beyond what the oracle finds.
            for (const QString& run : imported.manifest.runs()) {
                for (const auto& [kind, _] : kinds) {
                    QStringList want = expectedTags.value(run).value(kind);
                    want.sort();
                    want.removeDuplicates();
                    QCOMPARE(imported.summaries.tags(kind, run), want);
                }
            }
        }
        QVERIFY(files >= 13);
        QVERIFY(scalarPoints > 11715); // the sb3 sample alone holds that many
    }

    void torch2Images()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        REQUIRE_ORACLE();
        const QString folder = root + QLatin1Char('/') + QLatin1String(kImages);
        const auto [tag, oracleTag]
            = singleTag(folder + QLatin1Char('/') + QLatin1String(kImagesFile), QStringLiteral("image"));
        QVERIFY(!tag.isEmpty());

        const ::Imported imported(folder, kImagesFile);
        QVERIFY(imported.index >= 0);
        QCOMPARE(imported.state().status, ImportStatus::Ok);
        const QString& run = imported.run;
        QCOMPARE(imported.summaries.tags(SummaryKind::Images, run), QStringList { tag });

        const ImageSeries series = imported.summaries.images(run, tag);
        QCOMPARE(series.items.size(), std::size_t(5)); // MANIFEST.tsv: values=image:5
        QCOMPARE(steps(series), steps(oracleTag));
        QCOMPARE(series.seen, 5);
        const QJsonArray images = values(oracleTag);
        for (std::size_t i = 0; i < series.items.size(); ++i) {
            const SummaryImage& image = series.items[i];
            const QJsonObject want = images[qsizetype(i)].toObject();
            QCOMPARE(image.width, want.value(QLatin1String("width")).toInt());
            QCOMPARE(image.height, want.value(QLatin1String("height")).toInt());
            QCOMPARE(image.colorspace, want.value(QLatin1String("colorspace")).toInt());
            QCOMPARE(image.encoded.size(), 1);
            const QJsonObject bytes = want.value(QLatin1String("images")).toArray().first().toObject();
            QCOMPARE(image.encoded[0].size(), bytes.value(QLatin1String("bytes")).toInt());
            QCOMPARE(sha256(image.encoded[0]), bytes.value(QLatin1String("sha256")).toString().toLatin1());
            // The bytes decode, at the size the writer declared and the PNG header states.
            const QImage decoded = QImage::fromData(image.encoded[0]);
            QVERIFY(!decoded.isNull());
            QCOMPARE(decoded.size(), QSize(image.width, image.height));
            QCOMPARE(decoded.width(), bytes.value(QLatin1String("header_width")).toInt());
            QCOMPARE(decoded.height(), bytes.value(QLatin1String("header_height")).toInt());
        }
        // What `runlens info` counts for this file.
        const TagStatistics info = imported.state().summaryTags.value(QStringLiteral("images")).value(tag);
        QCOMPARE(info.points, 5);
        QCOMPARE(info.firstStep, steps(oracleTag).front());
        QCOMPARE(info.lastStep, steps(oracleTag).back());
        QVERIFY(!imported.state().summaryTags.contains(QStringLiteral("histograms")));
    }

    void torch2PrCurve()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        REQUIRE_ORACLE();
        const QString folder = root + QLatin1Char('/') + QLatin1String(kPrCurve);
        const auto [tag, oracleTag]
            = singleTag(folder + QLatin1Char('/') + QLatin1String(kPrCurveFile), QStringLiteral("pr_curve"));
        QVERIFY(!tag.isEmpty());

        const ::Imported imported(folder, kPrCurveFile);
        QVERIFY(imported.index >= 0);
        QCOMPARE(imported.state().status, ImportStatus::Ok);
        const QString& run = imported.run;
        const PrCurveSeries series = imported.summaries.prCurves(run, tag);
        QCOMPARE(series.metadata.pluginName, QStringLiteral("pr_curves"));
        QCOMPARE(series.items.size(), std::size_t(5));
        QCOMPARE(steps(series), steps(oracleTag));
        const QJsonArray curves = values(oracleTag);
        int compared = 0;
        for (std::size_t i = 0; i < series.items.size(); ++i) {
            const PrCurve& curve = series.items[i];
            const QJsonObject want = curves[qsizetype(i)].toObject();
            QCOMPARE(want.value(QLatin1String("shape")).toArray(), (QJsonArray { 6, 127 }));
            QCOMPARE(curve.thresholdCount(), 127);
            QCOMPARE(curve.threshold(126), 1.0);
            const QJsonArray rows = want.value(QLatin1String("rows")).toArray();
            const std::vector<double>* got[] = { &curve.truePositives,  &curve.falsePositives, &curve.trueNegatives,
                                                 &curve.falseNegatives, &curve.precision,      &curve.recall };
            for (int row = 0; row < 6; ++row) {
                const std::vector<double> wantRow = numbers(rows[row]);
                QCOMPARE(got[row]->size(), wantRow.size());
                for (std::size_t k = 0; k < wantRow.size(); ++k) {
                    if ((*got[row])[k] != wantRow[k]) {
                        QFAIL(qPrintable(QStringLiteral("step %1 row %2 entry %3: %4 instead of %5")
                                             .arg(curve.step)
                                             .arg(row)
                                             .arg(k)
                                             .arg((*got[row])[k])
                                             .arg(wantRow[k])));
                    }
                    ++compared;
                }
            }
        }
        QCOMPARE(compared, 5 * 6 * 127);
        QCOMPARE(imported.state().summaryTags.value(QStringLiteral("pr_curves")).value(tag).points, 5);
    }

    void torch2Hparams()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        REQUIRE_ORACLE();
        const QString folder = root + QLatin1Char('/') + QLatin1String(kHparams);
        const QJsonObject expected = oracle(folder + QLatin1Char('/') + QLatin1String(kHparamsSubFile));
        const QJsonObject experiment = values(expected.value(QLatin1String("_hparams_/experiment")).toObject())
                                           .first()
                                           .toObject()
                                           .value(QLatin1String("experiment"))
                                           .toObject();
        const QJsonObject start = values(expected.value(QLatin1String("_hparams_/session_start_info")).toObject())
                                      .first()
                                      .toObject()
                                      .value(QLatin1String("session_start_info"))
                                      .toObject();
        const QJsonObject end = values(expected.value(QLatin1String("_hparams_/session_end_info")).toObject())
                                    .first()
                                    .toObject()
                                    .value(QLatin1String("session_end_info"))
                                    .toObject();
        QVERIFY(!experiment.isEmpty() && !start.isEmpty() && !end.isEmpty());

        const ::Imported imported(folder, kHparamsSubFile);
        QVERIFY(imported.index >= 0);
        QCOMPARE(imported.state().status, ImportStatus::Ok);
        const QString& run = imported.run;
        QCOMPARE(imported.summaries.runsWithParameters(), QStringList { run });
        const HParams hparams = imported.summaries.hparams(run);
        QVERIFY(imported.state().hparams.has_value());

        // The session's values: numbers and strings as the session start recorded them.
        const QJsonObject wantValues = start.value(QLatin1String("hparams")).toObject();
        QCOMPARE(hparams.values.size(), wantValues.size());
        QCOMPARE(wantValues.size(), 3); // lr, batch_size, optimizer
        for (auto it = wantValues.constBegin(); it != wantValues.constEnd(); ++it) {
            QVERIFY2(hparams.values.contains(it.key()), qPrintable(it.key()));
            const QVariant got = hparams.values.value(it.key());
            if (it.value().isString()) {
                QCOMPARE(got.typeId(), QMetaType::QString);
                QCOMPARE(got.toString(), it.value().toString());
            } else {
                QCOMPARE(got.typeId(), QMetaType::Double);
                QCOMPARE(got.toDouble(), it.value().toDouble());
            }
        }
        // The experiment's declarations.
        const QJsonArray infos = experiment.value(QLatin1String("hparam_infos")).toArray();
        QCOMPARE(hparams.hparamInfos.size(), infos.size());
        static const char* const kTypes[] = { "", "string", "bool", "float64" };
        for (qsizetype i = 0; i < infos.size(); ++i) {
            const QJsonObject info = infos[i].toObject();
            QCOMPARE(hparams.hparamInfos[i].name, info.value(QLatin1String("name")).toString());
            const int type = info.value(QLatin1String("type")).toInt();
            QVERIFY(type >= 0 && type < 4);
            QCOMPARE(hparams.hparamInfos[i].type, QString::fromLatin1(kTypes[type]));
        }
        const QJsonArray metrics = experiment.value(QLatin1String("metric_infos")).toArray();
        QCOMPARE(metrics.size(), 2);
        QCOMPARE(hparams.metricInfos.size(), metrics.size());
        for (qsizetype i = 0; i < metrics.size(); ++i) {
            const QJsonObject metric = metrics[i].toObject();
            const QString tag = metric.value(QLatin1String("tag")).toString();
            QCOMPARE(hparams.metricInfos[i].tag, tag);
            QCOMPARE(hparams.metricInfos[i].group, metric.value(QLatin1String("group")).toString());
            // Each declared metric is a scalar of the sub-run, with the value the oracle reads.
            const QJsonObject scalar = expected.value(tag).toObject();
            QCOMPARE(scalar.value(QLatin1String("kind")).toString(), QStringLiteral("scalar"));
            const ScalarSeries* series = imported.scalars.series(run, tag);
            QVERIFY2(series, qPrintable(tag));
            QCOMPARE(series->points.size(), std::size_t(1));
            QCOMPARE(series->points[0].step, steps(scalar).front());
            QCOMPARE(series->points[0].value, number(values(scalar).first()));
        }
        // The session end: TensorBoard's Status enum, 1 = STATUS_SUCCESS.
        static const char* const kStatus[] = { "unknown", "success", "failure", "running" };
        const int status = end.value(QLatin1String("status")).toInt();
        QCOMPARE(status, 1);
        QCOMPARE(hparams.status, QString::fromLatin1(kStatus[status]));
        QVERIFY(imported.summaries.tags(SummaryKind::Histograms, run).isEmpty());
    }

    void cnnBaselineHistogramsAndText()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        REQUIRE_ORACLE();
        const QString folder = root + QLatin1Char('/') + QLatin1String(kCnn);
        const QJsonObject expected = oracle(folder + QLatin1Char('/') + QLatin1String(kCnnFile));
        QStringList histogramTags;
        QStringList textTags;
        for (auto it = expected.constBegin(); it != expected.constEnd(); ++it) {
            const QString kind = it.value().toObject().value(QLatin1String("kind")).toString();
            if (kind == QLatin1String("histogram"))
                histogramTags << it.key();
            else if (kind == QLatin1String("text"))
                textTags << it.key();
        }
        histogramTags.sort();
        QVERIFY(!histogramTags.isEmpty());
        QCOMPARE(textTags, QStringList { QStringLiteral("config/text_summary") });

        const ::Imported imported(folder, kCnnFile);
        QVERIFY(imported.index >= 0);
        const ArtifactState& state = imported.state();
        QCOMPARE(state.status, ImportStatus::Ok);
        const QString& run = imported.run;
        QCOMPARE(imported.summaries.tags(SummaryKind::Histograms, run), histogramTags);

        for (const QString& tag : histogramTags) {
            const QJsonObject oracleTag = expected.value(tag).toObject();
            const HistogramSeries series = imported.summaries.histograms(run, tag);
            // Histograms every 5 steps over the 60 steps of the run.
            const std::vector<qint64> wantSteps = steps(oracleTag);
            QCOMPARE(steps(series), wantSteps);
            QVERIFY(wantSteps.size() >= 10);
            for (std::size_t i = 0; i < wantSteps.size(); ++i)
                QCOMPARE(wantSteps[i], qint64(5 * i));
            const QJsonArray histograms = values(oracleTag);
            for (std::size_t i = 0; i < series.items.size(); ++i) {
                const Histogram& h = series.items[i];
                const QJsonObject want = histograms[qsizetype(i)].toObject();
                const QByteArray context = QStringLiteral("%1 step %2").arg(tag).arg(h.step).toUtf8();
                QCOMPARE(h.min, number(want.value(QLatin1String("min"))));
                QCOMPARE(h.max, number(want.value(QLatin1String("max"))));
                QCOMPARE(h.count, number(want.value(QLatin1String("num"))));
                QCOMPARE(h.sum, number(want.value(QLatin1String("sum"))));
                QCOMPARE(h.sumSquares, number(want.value(QLatin1String("sum_squares"))));
                QCOMPARE(h.nanCount, 0);
                // Every value the writer counted is in a bucket.
                QVERIFY2(h.bucketTotal() == h.count, context.constData());
                // Edges per the legacy conversion rule (trimmed empty ends, min/max bound the outer buckets).
                const QJsonArray buckets = want.value(QLatin1String("buckets")).toArray();
                QCOMPARE(h.buckets.size(), std::size_t(buckets.size()));
                for (std::size_t b = 0; b < h.buckets.size(); ++b) {
                    const std::vector<double> edge = numbers(buckets[qsizetype(b)]);
                    QVERIFY2(h.buckets[b].left == edge[0] && h.buckets[b].right == edge[1]
                                 && h.buckets[b].count == edge[2],
                             qPrintable(QStringLiteral("%1 bucket %2: (%3, %4, %5) instead of (%6, %7, %8)")
                                            .arg(QString::fromUtf8(context))
                                            .arg(b)
                                            .arg(h.buckets[b].left)
                                            .arg(h.buckets[b].right)
                                            .arg(h.buckets[b].count)
                                            .arg(edge[0])
                                            .arg(edge[1])
                                            .arg(edge[2])));
                    QVERIFY(h.buckets[b].left <= h.buckets[b].right);
                    if (b > 0)
                        QCOMPARE(h.buckets[b].left, h.buckets[b - 1].right);
                }
                QVERIFY(h.buckets.front().count > 0 && h.buckets.back().count > 0);
                QCOMPARE(h.lowestEdge(), h.min);
                QCOMPARE(h.highestEdge(), h.max);
            }
            // What `runlens info` counts for this file.
            const TagStatistics info = state.summaryTags.value(QStringLiteral("histograms")).value(tag);
            QCOMPARE(info.points, qint64(wantSteps.size()));
            QCOMPARE(info.firstStep, wantSteps.front());
            QCOMPARE(info.lastStep, wantSteps.back());
        }

        const QString textTag = textTags.first();
        const QJsonObject wantText = values(expected.value(textTag).toObject()).first().toObject();
        const TextSeries texts = imported.summaries.texts(run, textTag);
        QCOMPARE(texts.metadata.pluginName, QStringLiteral("text"));
        QCOMPARE(texts.items.size(), std::size_t(1));
        QStringList wantCells;
        for (const QJsonValue& cell : wantText.value(QLatin1String("strings")).toArray())
            wantCells << cell.toString();
        QCOMPARE(texts.items[0].cells, wantCells);
        std::vector<qint64> wantShape;
        for (const QJsonValue& dim : wantText.value(QLatin1String("shape")).toArray())
            wantShape.push_back(qint64(dim.toDouble()));
        QCOMPARE(texts.items[0].shape, wantShape);
        QVERIFY(texts.items[0].cells.first().contains(QLatin1String("cnn_baseline")));
        QCOMPARE(state.summaryTags.value(QStringLiteral("texts")).value(textTag).points, 1);
    }

    void mindSporeRunA()
    {
        RUNLENS_REQUIRE_SAMPLES(root);
        REQUIRE_ORACLE();
        const QString folder = root + QLatin1Char('/') + QLatin1String(kMsRunA);
        const QJsonObject expected = oracle(folder + QLatin1Char('/') + QLatin1String(kMsRunAFile));
        const std::vector<qint64> everyFifth { 5, 10, 15, 20 }; // mindinsight.md section 7

        const ::Imported imported(folder, kMsRunAFile);
        QVERIFY(imported.index >= 0);
        QCOMPARE(imported.state().status, ImportStatus::Ok);
        const QString& run = imported.run;

        // Histogram: buckets (left, left + width, count), NaN and infinity counts, statistics.
        const QJsonObject histogramTag = expected.value(QLatin1String("conv1.weight")).toObject();
        QCOMPARE(histogramTag.value(QLatin1String("kind")).toString(), QStringLiteral("ms_histogram"));
        QCOMPARE(steps(histogramTag), everyFifth);
        const HistogramSeries histograms = imported.summaries.histograms(run, QStringLiteral("conv1.weight"));
        QCOMPARE(steps(histograms), everyFifth);
        for (std::size_t i = 0; i < histograms.items.size(); ++i) {
            const Histogram& h = histograms.items[i];
            const QJsonObject want = values(histogramTag)[qsizetype(i)].toObject();
            std::vector<std::vector<double>> buckets;
            for (const QJsonValue& bucket : want.value(QLatin1String("buckets")).toArray())
                buckets.push_back(numbers(bucket));
            std::sort(buckets.begin(), buckets.end());
            QVERIFY(buckets.size() <= 90);
            QCOMPARE(h.buckets.size(), buckets.size());
            for (std::size_t b = 0; b < buckets.size(); ++b) {
                QCOMPARE(h.buckets[b].left, buckets[b][0]);
                QCOMPARE(h.buckets[b].right, buckets[b][0] + buckets[b][1]);
                QCOMPARE(h.buckets[b].count, buckets[b][2]);
            }
            QCOMPARE(h.nanCount, qint64(want.value(QLatin1String("nan_count")).toDouble()));
            QCOMPARE(h.posInfCount, qint64(want.value(QLatin1String("pos_inf_count")).toDouble()));
            QCOMPARE(h.negInfCount, qint64(want.value(QLatin1String("neg_inf_count")).toDouble()));
            QCOMPARE(h.min, number(want.value(QLatin1String("min"))));
            QCOMPARE(h.max, number(want.value(QLatin1String("max"))));
            QCOMPARE(h.sum, number(want.value(QLatin1String("sum"))));
            // MindSpore's count includes NaN and infinities; ours is the finite values in the buckets.
            QCOMPARE(h.count,
                     want.value(QLatin1String("count")).toDouble()
                         - double(h.nanCount + h.posInfCount + h.negInfCount));
            QCOMPARE(h.bucketTotal(), h.count);
        }

        // Image: one tiled PNG per step.
        const QJsonObject imageTag = expected.value(QLatin1String("input_data")).toObject();
        QCOMPARE(imageTag.value(QLatin1String("kind")).toString(), QStringLiteral("image"));
        const ImageSeries images = imported.summaries.images(run, QStringLiteral("input_data"));
        QCOMPARE(steps(images), everyFifth);
        QCOMPARE(steps(imageTag), everyFifth);
        for (std::size_t i = 0; i < images.items.size(); ++i) {
            const SummaryImage& image = images.items[i];
            const QJsonObject want = values(imageTag)[qsizetype(i)].toObject();
            const QJsonObject bytes = want.value(QLatin1String("images")).toArray().first().toObject();
            QCOMPARE(image.width, want.value(QLatin1String("width")).toInt());
            QCOMPARE(image.height, want.value(QLatin1String("height")).toInt());
            QCOMPARE(image.encoded.size(), 1);
            QCOMPARE(sha256(image.encoded[0]), bytes.value(QLatin1String("sha256")).toString().toLatin1());
            const QImage decoded = QImage::fromData(image.encoded[0], "PNG");
            QVERIFY(!decoded.isNull());
            QCOMPARE(decoded.size(), QSize(image.width, image.height));
        }

        // Tensor: dims and float_data.
        const QJsonObject tensorTag = expected.value(QLatin1String("fc3.bias")).toObject();
        QCOMPARE(tensorTag.value(QLatin1String("kind")).toString(), QStringLiteral("ms_tensor"));
        const TensorSeries tensors = imported.summaries.tensors(run, QStringLiteral("fc3.bias"));
        QCOMPARE(steps(tensors), everyFifth);
        QCOMPARE(steps(tensorTag), everyFifth);
        for (std::size_t i = 0; i < tensors.items.size(); ++i) {
            const models::tensor::Tensor& t = tensors.items[i].tensor;
            const QJsonObject want = values(tensorTag)[qsizetype(i)].toObject();
            std::vector<std::int64_t> dims;
            for (const QJsonValue& dim : want.value(QLatin1String("dims")).toArray())
                dims.push_back(std::int64_t(dim.toDouble()));
            QCOMPARE(t.shape, dims);
            QCOMPARE(t.shape, (std::vector<std::int64_t> { 2, 5 }));
            QCOMPARE(t.dtype, models::tensor::DType::Float32);
            QVERIFY(t.data);
            const std::vector<double> wantValues = numbers(want.value(QLatin1String("float_data")));
            QCOMPARE(t.elementCount(), qint64(wantValues.size()));
            const float* data = reinterpret_cast<const float*>(t.data->data() + t.offset);
            for (std::size_t k = 0; k < wantValues.size(); ++k)
                QCOMPARE(double(data[k]), wantValues[k]);
        }

        // The lineage file of the run. Values as tests/data/summary/lineage_sample_decode.py reads them.
        QCOMPARE(imported.lineages.size(), 1);
        QCOMPARE(imported.lineages[0].first, run);
        const RunLineage lineage = imported.summaries.lineage(run);
        QVERIFY(lineage.train && lineage.evaluation && lineage.datasetGraph);
        QCOMPARE(lineage.train->optimizer.value_or(QString()), QStringLiteral("Momentum"));
        // The float 0.009999999776482582 the file holds, in its shortest decimal form.
        QCOMPARE(float(lineage.train->learningRate.value_or(0.0)), 0.01f);
        QCOMPARE(lineage.train->learningRate.value_or(0.0), 0.01);
        QCOMPARE(lineage.train->batchSize.value_or(-1), 32);
        QCOMPARE(lineage.train->epoch.value_or(-1), 1);
        QCOMPARE(lineage.train->deviceNum.value_or(-1), 1);
        QCOMPARE(lineage.train->lossFunction.value_or(QString()), QStringLiteral("SoftmaxCrossEntropyWithLogits"));
        QCOMPARE(lineage.train->trainDatasetPath.value_or(QString()), QStringLiteral("/data/mnist/train"));
        QCOMPARE(lineage.train->trainDatasetSize.value_or(-1), 1875);
        QCOMPARE(lineage.train->network.value_or(QString()), QStringLiteral("LeNet5"));
        QCOMPARE(lineage.evaluation->metrics.value(QStringLiteral("Accuracy")), 0.9712);
        QCOMPARE(lineage.evaluation->validDatasetSize.value_or(-1), 312);
        QCOMPARE(lineage.datasetGraph->size(), 2);
        QCOMPARE(lineage.datasetGraph->at(0).type, QStringLiteral("MnistDataset"));
        QCOMPARE(lineage.datasetGraph->at(1).type, QStringLiteral("BatchDataset"));
        QCOMPARE(imported.summaries.runsWithParameters(), QStringList { run });

        // What `runlens info` counts per kind for the summary file.
        const auto& info = imported.state().summaryTags;
        QCOMPARE(info.value(QStringLiteral("histograms")).value(QStringLiteral("conv1.weight")).points, 4);
        QCOMPARE(info.value(QStringLiteral("images")).value(QStringLiteral("input_data")).points, 4);
        QCOMPARE(info.value(QStringLiteral("tensors")).value(QStringLiteral("fc3.bias")).points, 4);
        QCOMPARE(info.value(QStringLiteral("tensors")).value(QStringLiteral("fc3.bias")).lastStep, 20);
    }
};

QTEST_GUILESS_MAIN(TestSummaryValueSamples)
#include "tst_summaryvaluesamples.moc"
