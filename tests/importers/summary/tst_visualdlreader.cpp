#include "importers/summary/visualdlreader.h"

#include "importers/core/artifactimporter.h"
#include "importers/core/importsession.h"
#include "importers/core/runscanner.h"
#include "importers/summary/proto/vdl_record.pb.h"
#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"

#include "tests/importers/summary/pollresult.h"
#include "tests/importers/summary/visualdltestrecords.h"
#include "tests/pythonoracle.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::summary;
using namespace runlens::models;
using namespace runlens::models::scalars;
using namespace runlens::models::summary;
using namespace runlens::test;

using namespace runlens::test::vdl;

class TestVisualDlReader : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void scalarsOfTwoTags()
    {
        const QString file = path(QStringLiteral("vdlrecords.1700000000.log"));
        QByteArray bytes;
        {
            // LogWriter(display_name=...) writes a meta_data value first.
            Record meta;
            addValue(meta, "meta_data_tag", 0, 1700000000000)->mutable_meta_data()->set_display_name("baseline");
            bytes += framed(meta);
        }
        for (int step = 0; step < 100; ++step) {
            const qint64 ms = 1700000000000 + qint64(step) * 1001;
            bytes += scalarRecord("train/loss", step, ms, 1.0f / float(step + 1));
            bytes += scalarRecord("train/acc", step, ms + 7, float(step) * 0.01f);
        }
        QVERIFY(writeFile(file, bytes));

        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        Collected got;
        got.add(update);
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(!update.mayGrow);
        QCOMPARE(update.recordsRead, 201);
        QCOMPARE(update.bytesRead, QFileInfo(file).size());
        QCOMPARE(reader.offset(), QFileInfo(file).size());
        QVERIFY2(got.diagnostics.isEmpty(), qPrintable(got.diagnostics.value(0).message));
        QCOMPARE(reader.displayName(), QStringLiteral("baseline"));
        QCOMPARE(got.tagOrder, (QStringList { QStringLiteral("train/loss"), QStringLiteral("train/acc") }));
        QCOMPARE(got.metadataBatches, 2);
        const auto& loss = got.series.value(QStringLiteral("train/loss"));
        const auto& acc = got.series.value(QStringLiteral("train/acc"));
        QCOMPARE(loss.size(), std::size_t(100));
        QCOMPARE(acc.size(), std::size_t(100));
        for (int step = 0; step < 100; ++step) {
            const auto i = std::size_t(step);
            const qint64 ms = 1700000000000 + qint64(step) * 1001;
            QCOMPARE(loss[i].step, qint64(step));
            QCOMPARE(loss[i].value, double(1.0f / float(step + 1)));
            // Milliseconds on disk, seconds in the model.
            QCOMPARE(loss[i].wallTime, double(ms) / 1000.0);
            QCOMPARE(acc[i].step, qint64(step));
            QCOMPARE(acc[i].value, double(float(step) * 0.01f));
            QCOMPARE(acc[i].wallTime, double(ms + 7) / 1000.0);
        }

        // Nothing new: a second poll delivers nothing and stays Ok.
        const ImportUpdate again = reader.poll({});
        QVERIFY(again.scalars.empty());
        QCOMPARE(again.recordsRead, 0);
        QCOMPARE(again.status, ImportStatus::Ok);
    }

    void handEncodedRecord()
    {
        // Bytes written from VisualDL's field numbers, independent of our .proto: Record.values = 1;
        // Value.id = 1 (varint), tag = 2 (bytes), timestamp = 3 (varint), value = 4 (fixed32 float).
        const QByteArray value = QByteArray::fromHex("0807" // id = 7
                                                     "120178" // tag = "x"
                                                     "18dc0b" // timestamp = 1500
                                                     "2500002040"); // value = 2.5f
        const QByteArray record = QByteArray("\x0a", 1) + char(value.size()) + value;
        const QString file = path(QStringLiteral("vdlrecords.hand.log"));
        QVERIFY(writeFile(file, framed(record)));
        VisualDlReader reader(file);
        Collected got;
        got.add(reader.poll({}));
        QCOMPARE(got.series.size(), 1);
        const auto& x = got.series.value(QStringLiteral("x"));
        QCOMPARE(x.size(), std::size_t(1));
        QCOMPARE(x[0].step, qint64(7));
        QCOMPARE(x[0].wallTime, 1.5);
        QCOMPARE(x[0].value, 2.5);
    }

    void otherKindsAreCountedAndAnnouncedOnce()
    {
        const QString file = path(QStringLiteral("vdlrecords.others.log"));
        QByteArray bytes;
        bytes += scalarRecord("loss", 0, 1700000000000, 3.0f);
        auto opaque = [](const std::string& tag, qint64 step, auto set) {
            Record record;
            set(addValue(record, tag, step, 1700000000000 + step));
            return ::framed(record);
        };
        bytes += opaque("speech", 0, [](Record::Value* v) { v->set_tag_value("t"); });
        bytes += opaque("flags", 0, [](Record::Value* v) { v->set_hparam("x"); });
        bytes += opaque("speech", 1, [](Record::Value* v) { v->set_tag_value("t"); });
        bytes += opaque("hp", 0, [](Record::Value* v) { v->set_hparam("y"); });
        bytes += histogramRecord("fc.weight", 0); // read, so neither counted nor announced
        QVERIFY(writeFile(file, bytes));

        VisualDlReader reader(file);
        const ImportUpdate first = reader.poll({});
        Collected got;
        got.add(first);
        QCOMPARE(first.status, ImportStatus::Ok);
        QCOMPARE(first.recordsRead, 6);
        QCOMPARE(got.series.size(), 1);
        QCOMPARE(got.series.value(QStringLiteral("loss")).size(), std::size_t(1));
        QCOMPARE(reader.otherValueCount(QStringLiteral("speech")), 2);
        QCOMPARE(reader.otherValueCount(QStringLiteral("flags")), 1);
        QCOMPARE(reader.otherValueCount(QStringLiteral("hp")), 1);
        QCOMPARE(reader.otherValueCount(QStringLiteral("loss")), 0);
        QCOMPARE(reader.otherValueCount(QStringLiteral("fc.weight")), 0);
        // One Info per tag and kind, naming the tag and its count so far.
        QCOMPARE(got.count(Severity::Info), 3);
        QCOMPARE(got.diagnostics.size(), 3);
        bool tagValuesSeen = false;
        for (const Diagnostic& d : std::as_const(got.diagnostics)) {
            QCOMPARE(d.file, QFileInfo(file).absoluteFilePath());
            QVERIFY2(!d.message.contains(QStringLiteral("fc.weight")), qPrintable(d.message));
            if (d.message.contains(QStringLiteral("\"speech\""))) {
                tagValuesSeen = true;
                QVERIFY2(d.message.contains(QStringLiteral("tagged values")), qPrintable(d.message));
                QVERIFY2(d.message.contains(QStringLiteral("2 value")), qPrintable(d.message));
            }
        }
        QVERIFY(tagValuesSeen);

        // More of the same kinds later: counted, not announced again; a new kind on a known tag is.
        QByteArray more = opaque("speech", 2, [](Record::Value* v) { v->set_tag_value("t"); })
            + opaque("flags", 1, [](Record::Value* v) { v->set_hparam("x"); })
            + opaque("speech", 2, [](Record::Value* v) { v->set_hparam("e"); });
        QVERIFY(writeFile(file, more, true));
        const ImportUpdate second = reader.poll({});
        QCOMPARE(second.recordsRead, 3);
        QCOMPARE(second.diagnostics.size(), 1);
        QCOMPARE(second.diagnostics[0].severity, Severity::Info);
        QVERIFY2(second.diagnostics[0].message.contains(QStringLiteral("hyper-parameters")),
                 qPrintable(second.diagnostics[0].message));
        QCOMPARE(reader.otherValueCount(QStringLiteral("speech")), 4);
        QCOMPARE(reader.otherValueCount(QStringLiteral("flags")), 2);
        QCOMPARE(second.status, ImportStatus::Ok);
        QVERIFY(!second.summaries); // no value of a read kind in this poll
    }

    void fixtureWrittenLikeVisualDl()
    {
        // Written by tests/data/visualdl/make_visualdl_fixture.py from VisualDL's field numbers by hand, with
        // numpy's histogram and VisualDL's compute_curve redone in Python; expected.json holds its values.
        const QString file = QStringLiteral(RUNLENS_TEST_DATA_DIR "/visualdl/vdlrecords.1700000000.log");
        QFile expectedFile(QStringLiteral(RUNLENS_TEST_DATA_DIR "/visualdl/expected.json"));
        QVERIFY(expectedFile.open(QIODevice::ReadOnly));
        const QJsonObject expected = QJsonDocument::fromJson(expectedFile.readAll()).object();
        QVERIFY(!expected.isEmpty());

        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        Collected got;
        got.add(update);
        Summaries summaries;
        summaries.add(update);
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY2(got.diagnostics.isEmpty(), qPrintable(got.diagnostics.value(0).message));
        QCOMPARE(reader.displayName(), expected[QStringLiteral("display_name")].toString());

        const QJsonArray loss = expected[QStringLiteral("scalars")][QStringLiteral("train/loss")].toArray();
        const auto& points = got.series.value(QStringLiteral("train/loss"));
        QCOMPARE(points.size(), std::size_t(loss.size()));
        for (qsizetype i = 0; i < loss.size(); ++i) {
            QCOMPARE(points[std::size_t(i)].step, loss[i][QStringLiteral("step")].toInteger());
            QCOMPARE(points[std::size_t(i)].value, loss[i][QStringLiteral("value")].toDouble());
        }

        QCOMPARE(summaries.histograms.keys(), QStringList { QStringLiteral("fc.weight") });
        const HistogramSeries& weights = summaries.histograms.first();
        QCOMPARE(weights.metadata.pluginName, QStringLiteral("histograms"));
        const QJsonArray wantHistograms = expected[QStringLiteral("histograms")][QStringLiteral("fc.weight")].toArray();
        QCOMPARE(weights.items.size(), std::size_t(wantHistograms.size()));
        QCOMPARE(weights.seen, qint64(wantHistograms.size()));
        QCOMPARE(weights.preempted, qint64(0));
        for (qsizetype i = 0; i < wantHistograms.size(); ++i) {
            const QJsonObject want = wantHistograms[i].toObject();
            const Histogram& h = weights.items[std::size_t(i)];
            QCOMPARE(h.step, want[QStringLiteral("step")].toInteger());
            QCOMPARE(h.wallTime, want[QStringLiteral("wall_time")].toDouble());
            QCOMPARE(h.min, want[QStringLiteral("min")].toDouble());
            QCOMPARE(h.max, want[QStringLiteral("max")].toDouble());
            QCOMPARE(h.count, want[QStringLiteral("count")].toDouble());
            QVERIFY(std::isnan(h.sum)); // VisualDL does not record it
            const QJsonArray buckets = want[QStringLiteral("buckets")].toArray();
            QCOMPARE(h.buckets.size(), std::size_t(buckets.size()));
            for (qsizetype b = 0; b < buckets.size(); ++b) {
                const std::vector<double> bucket = doublesOf(buckets[b]);
                QCOMPARE(h.buckets[std::size_t(b)].left, bucket[0]);
                QCOMPARE(h.buckets[std::size_t(b)].right, bucket[1]);
                QCOMPARE(h.buckets[std::size_t(b)].count, bucket[2]);
            }
        }

        QCOMPARE(summaries.images.keys(), QStringList { QStringLiteral("input/sample") });
        const ImageSeries& images = summaries.images.first();
        QCOMPARE(images.metadata.pluginName, QStringLiteral("images"));
        const QJsonArray wantImages = expected[QStringLiteral("images")][QStringLiteral("input/sample")].toArray();
        QCOMPARE(images.items.size(), std::size_t(wantImages.size()));
        for (qsizetype i = 0; i < wantImages.size(); ++i) {
            const SummaryImage& image = images.items[std::size_t(i)];
            QCOMPARE(image.step, wantImages[i][QStringLiteral("step")].toInteger());
            QCOMPARE(image.wallTime, wantImages[i][QStringLiteral("wall_time")].toDouble());
            QCOMPARE(image.encoded.size(), 1);
            QCOMPARE(image.encoded[0],
                     QByteArray::fromHex(wantImages[i][QStringLiteral("png_hex")].toString().toLatin1()));
            // The bytes handed over are the PNG as written: a panel decodes them at the writer's size.
            const QImage decoded = QImage::fromData(image.encoded[0]);
            QCOMPARE(decoded.width(), wantImages[i][QStringLiteral("width")].toInt());
            QCOMPARE(decoded.height(), wantImages[i][QStringLiteral("height")].toInt());
            QCOMPARE(qGray(decoded.pixel(2, 1)), (int(image.step) + 3) % 256);
        }

        QCOMPARE(summaries.texts.keys(), QStringList { QStringLiteral("notes") });
        const TextSeries& texts = summaries.texts.first();
        QCOMPARE(texts.metadata.pluginName, QStringLiteral("text"));
        const QJsonArray wantTexts = expected[QStringLiteral("texts")][QStringLiteral("notes")].toArray();
        QCOMPARE(texts.items.size(), std::size_t(wantTexts.size()));
        for (qsizetype i = 0; i < wantTexts.size(); ++i) {
            const SummaryText& text = texts.items[std::size_t(i)];
            QCOMPARE(text.step, wantTexts[i][QStringLiteral("step")].toInteger());
            QVERIFY(text.shape.empty()); // one text: rank 0
            QCOMPARE(text.cells, QStringList { wantTexts[i][QStringLiteral("text")].toString() });
        }

        QCOMPARE(summaries.prCurves.keys(), QStringList { QStringLiteral("pr/eval") });
        const PrCurveSeries& curves = summaries.prCurves.first();
        QCOMPARE(curves.metadata.pluginName, QStringLiteral("pr_curves"));
        const QJsonArray wantCurves = expected[QStringLiteral("pr_curves")][QStringLiteral("pr/eval")].toArray();
        QCOMPARE(curves.items.size(), std::size_t(wantCurves.size()));
        for (qsizetype i = 0; i < wantCurves.size(); ++i) {
            const QJsonObject want = wantCurves[i].toObject();
            const PrCurve& curve = curves.items[std::size_t(i)];
            QCOMPARE(curve.step, want[QStringLiteral("step")].toInteger());
            QCOMPARE(curve.wallTime, want[QStringLiteral("wall_time")].toDouble());
            QCOMPARE(curve.truePositives, doublesOf(want[QStringLiteral("tp")]));
            QCOMPARE(curve.falsePositives, doublesOf(want[QStringLiteral("fp")]));
            QCOMPARE(curve.trueNegatives, doublesOf(want[QStringLiteral("tn")]));
            QCOMPARE(curve.falseNegatives, doublesOf(want[QStringLiteral("fn")]));
            QCOMPARE(curve.precision, doublesOf(want[QStringLiteral("precision")]));
            QCOMPARE(curve.recall, doublesOf(want[QStringLiteral("recall")]));
            // compute_curve's bucket i is the threshold i / (N - 1), as TensorBoard's.
            QCOMPARE(curve.thresholdCount(), 11);
            QCOMPARE(curve.threshold(10), 1.0);
        }
    }

    void rocCurvesOfVisualDlsDemoLog()
    {
        // VisualDL's own ROC demo log (tests/data/visualdl/roc/ORIGIN.md), compared with an oracle that
        // decodes the wire format itself.
        const QString file = QStringLiteral(RUNLENS_TEST_DATA_DIR "/visualdl/roc/vdlrecords.1609220805.log");
        RUNLENS_PYTHON_ORACLE(output, { QStringLiteral(RUNLENS_TEST_DATA_DIR "/visualdl/roc/roc_oracle.py"), file });
        const QJsonObject expected = QJsonDocument::fromJson(output.toUtf8()).object();
        QCOMPARE(expected.size(), 6);

        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        Summaries got;
        got.add(update);
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(update.diagnostics.isEmpty()); // read, so no longer announced as counted only
        QVERIFY(got.prCurves.isEmpty());
        QCOMPARE(got.rocCurves.keys(), expected.keys());
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            const PrCurveSeries& series = got.rocCurves[it.key()];
            QCOMPARE(series.metadata.pluginName, QStringLiteral("roc_curves"));
            const QJsonArray want = it.value().toArray();
            QCOMPARE(series.items.size(), std::size_t(want.size()));
            for (qsizetype k = 0; k < want.size(); ++k) {
                const PrCurve& curve = series.items[std::size_t(k)];
                const QJsonObject w = want[k].toObject();
                QCOMPARE(curve.step, qint64(w[QStringLiteral("step")].toInteger()));
                QCOMPARE(curve.truePositives, doublesOf(w[QStringLiteral("tp")]));
                QCOMPARE(curve.falsePositives, doublesOf(w[QStringLiteral("fp")]));
                QCOMPARE(curve.trueNegatives, doublesOf(w[QStringLiteral("tn")]));
                QCOMPARE(curve.falseNegatives, doublesOf(w[QStringLiteral("fn")]));
                QCOMPARE(curve.thresholdCount(), 100);
                // Recall is TP / (TP + FN) from the counts, not VisualDL's stored tpr.
                for (int i = 0; i < curve.thresholdCount(); ++i) {
                    const double positives = curve.truePositives[std::size_t(i)] + curve.falseNegatives[std::size_t(i)];
                    QCOMPARE(curve.recall[std::size_t(i)], curve.truePositives[std::size_t(i)] / positives);
                }
            }
        }
        QCOMPARE(reader.otherValueCount(QStringLiteral("vegetables_cls/bocai_roc_curve")), 0);
    }

    void malformedRocCurvesAreSkipped()
    {
        const QString file = path(QStringLiteral("vdlrecords.badroc.log"));
        QByteArray bytes;
        {
            Record record;
            auto* c = addValue(record, "roc", 0, 1700000000000)->mutable_roc_curve();
            c->add_tp(3);
            c->add_fp(2); // TN and FN missing
            c->add_tpr(1.0);
            bytes += framed(record);
        }
        {
            Record record;
            addValue(record, "roc", 1, 1700000000001)->mutable_roc_curve(); // no thresholds
            bytes += framed(record);
        }
        {
            Record record;
            auto* c = addValue(record, "roc", 2, 1700000000002)->mutable_roc_curve();
            for (int i = 0; i < 3; ++i) {
                c->add_tp(4 - 2 * i);
                c->add_fp(6 - 3 * i);
                c->add_tn(3 * i);
                c->add_fn(2 * i);
                c->add_tpr(99.0); // VisualDL's stored ratio is ignored
                c->add_fpr(99.0);
            }
            bytes += framed(record);
        }
        QVERIFY(writeFile(file, bytes));
        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        Summaries got;
        got.add(update);
        QCOMPARE(update.status, ImportStatus::Partial);
        QCOMPARE(update.diagnostics.size(), 2);
        QVERIFY2(update.diagnostics[0].message.contains(QStringLiteral("ROC curve")),
                 qPrintable(update.diagnostics[0].message));
        const PrCurveSeries roc = got.rocCurves.value(QStringLiteral("roc"));
        QCOMPARE(stepsOf(roc), (std::vector<qint64> { 2 }));
        const PrCurve& curve = roc.items[0];
        QCOMPARE(curve.recall, (std::vector<double> { 1.0, 0.5, 0.0 }));
        QCOMPARE(curve.precision, (std::vector<double> { 0.4, 2.0 / 5.0, 0.0 }));
    }

    void histogramsFromRecords()
    {
        const QString file = path(QStringLiteral("vdlrecords.histograms.log"));
        QVERIFY(writeFile(file, histogramRecord("w", 0) + histogramRecord("w", 10) + histogramRecord("b", 10)));
        VisualDlReader reader(file);
        Summaries got;
        const ImportUpdate update = reader.poll({});
        got.add(update);
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(update.scalars.empty());
        QVERIFY(update.diagnostics.isEmpty());
        QCOMPARE(got.batches, 1);
        // Series in the order their tags first changed in the poll.
        QCOMPARE(update.summaries->histograms.size(), std::size_t(2));
        QCOMPARE(update.summaries->histograms[0].tag, QStringLiteral("w"));
        QCOMPARE(update.summaries->histograms[1].tag, QStringLiteral("b"));
        QVERIFY(update.summaries->images.empty());
        const HistogramSeries& w = got.histograms.value(QStringLiteral("w"));
        QCOMPARE(stepsOf(w), (std::vector<qint64> { 0, 10 }));
        const Histogram& h = w.items[1];
        QCOMPARE(h.wallTime, 1700000000.010);
        QCOMPARE(h.buckets.size(), std::size_t(4));
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(h.buckets[std::size_t(i)].left, double(i));
            QCOMPARE(h.buckets[std::size_t(i)].count, double(10 + i));
        }
        QCOMPARE(h.buckets[0].right, 1.0);
        QCOMPARE(h.buckets[3].right, 5.0);
        QCOMPARE(h.min, 0.0);
        QCOMPARE(h.max, 5.0);
        QCOMPARE(h.count, 10.0 + 11.0 + 12.0 + 13.0);
        QCOMPARE(h.bucketTotal(), h.count);
        QCOMPARE(h.nanCount, qint64(0));
    }

    void textsAndPrCurvesFromRecords()
    {
        const QString file = path(QStringLiteral("vdlrecords.textpr.log"));
        QVERIFY(writeFile(file,
                          textRecord("notes", 3, "| a | b |\n|---|---|\n| 1 | 2 |") + prCurveRecord("pr", 3, 5)
                              + textRecord("notes", 4, "") + prCurveRecord("pr", 4, 5)));
        VisualDlReader reader(file);
        Summaries got;
        const ImportUpdate update = reader.poll({});
        got.add(update);
        QCOMPARE(update.status, ImportStatus::Ok);
        const TextSeries& notes = got.texts.value(QStringLiteral("notes"));
        QCOMPARE(stepsOf(notes), (std::vector<qint64> { 3, 4 }));
        QCOMPARE(notes.items[0].cells, QStringList { QStringLiteral("| a | b |\n|---|---|\n| 1 | 2 |") });
        QCOMPARE(notes.items[1].cells, QStringList { QString() });
        QCOMPARE(notes.items[0].wallTime, 1700000000.003);
        const PrCurveSeries& pr = got.prCurves.value(QStringLiteral("pr"));
        QCOMPARE(stepsOf(pr), (std::vector<qint64> { 3, 4 }));
        const PrCurve& curve = pr.items[1];
        QCOMPARE(curve.thresholdCount(), 5);
        for (int i = 0; i < 5; ++i) {
            const auto k = std::size_t(i);
            QCOMPARE(curve.truePositives[k], double(100 - i));
            QCOMPARE(curve.falsePositives[k], double(50 - i));
            QCOMPARE(curve.trueNegatives[k], double(i));
            QCOMPARE(curve.falseNegatives[k], double(i + 4));
            QCOMPARE(curve.precision[k], double(100 - i) / double(150 - 2 * i));
            QCOMPARE(curve.recall[k], double(100 - i) / 104.0);
            QCOMPARE(curve.threshold(i), double(i) / 4.0);
        }
    }

    void reservoirLimitIsHonoured()
    {
        const QString file = path(QStringLiteral("vdlrecords.limit.log"));
        QByteArray bytes;
        for (int step = 0; step < 60; ++step)
            bytes += histogramRecord("w", step) + imageRecord("img", step) + textRecord("t", step, "x");
        QVERIFY(writeFile(file, bytes));
        SummaryLimits limits;
        limits.histograms = 7;
        limits.images = 4;
        limits.texts = 0; // keep all
        VisualDlReader reader(file, limits);
        QCOMPARE(reader.limits().histograms, 7);
        Summaries got;
        got.add(reader.poll({}));
        auto check = [](const auto& series, std::size_t capacity, const char* what) {
            QVERIFY2(series.items.size() == capacity, what);
            QVERIFY2(series.seen == 60, what);
            QVERIFY2(series.items.back().step == 59, what); // the latest is always kept
            const std::vector<qint64> steps = stepsOf(series);
            QVERIFY2(std::is_sorted(steps.begin(), steps.end()), what);
            QVERIFY2(std::set<qint64>(steps.begin(), steps.end()).size() == steps.size(), what);
            QVERIFY2(steps.front() >= 0, what);
        };
        check(got.histograms.value(QStringLiteral("w")), 7, "histograms");
        check(got.images.value(QStringLiteral("img")), 4, "images");
        check(got.texts.value(QStringLiteral("t")), 60, "texts");
        // The kept values are the ones written at their steps, not copies of the latest.
        for (const Histogram& h : got.histograms.value(QStringLiteral("w")).items)
            QCOMPARE(h.buckets[0].count, double(h.step));
        for (const SummaryImage& image : got.images.value(QStringLiteral("img")).items)
            QCOMPARE(image.encoded.value(0), imageBytes(image.step));
        // A uniform sample: with 7 of 60 kept, not simply the first or the last ones.
        const std::vector<qint64> steps = stepsOf(got.histograms.value(QStringLiteral("w")));
        QVERIFY(steps != (std::vector<qint64> { 0, 1, 2, 3, 4, 5, 59 }));
        QVERIFY(steps != (std::vector<qint64> { 53, 54, 55, 56, 57, 58, 59 }));
    }

    void stepRegressionPreempts()
    {
        // A job restarted from its step-5 checkpoint writes steps 5.. again: what it wrote from 5 on goes.
        const QString file = path(QStringLiteral("vdlrecords.preempt.log"));
        QByteArray bytes;
        for (int step = 0; step < 10; ++step)
            bytes += histogramRecord("w", step) + prCurveRecord("pr", step, 3);
        for (int step = 5; step < 7; ++step)
            bytes += histogramRecord("w", step, 1800000000000 + step); // the second attempt, a day later
        QVERIFY(writeFile(file, bytes));
        VisualDlReader reader(file);
        Summaries got;
        const ImportUpdate update = reader.poll({});
        got.add(update);
        QCOMPARE(update.status, ImportStatus::Ok);
        const HistogramSeries& w = got.histograms.value(QStringLiteral("w"));
        QCOMPARE(stepsOf(w), (std::vector<qint64> { 0, 1, 2, 3, 4, 5, 6 }));
        QCOMPARE(w.preempted, qint64(5)); // steps 5..9 of the first attempt
        // TensorBoard re-estimates `seen` linearly: 10 seen, half of the kept removed -> 5, then 2 more.
        QCOMPARE(w.seen, qint64(7));
        // Steps 0..4 are the first attempt's, 5 and 6 the second's.
        QCOMPARE(w.items[4].wallTime, 1700000000.004);
        QCOMPARE(w.items[5].wallTime, 1800000000.005);
        QCOMPARE(w.items[6].wallTime, 1800000000.006);
        QCOMPARE(w.items[6].buckets[0].count, 6.0);
        // Untouched by the regression of another tag.
        QCOMPARE(got.prCurves.value(QStringLiteral("pr")).items.size(), std::size_t(10));
        QCOMPARE(got.prCurves.value(QStringLiteral("pr")).preempted, qint64(0));

        // A later regression in a later poll adds to the count.
        QVERIFY(writeFile(file, histogramRecord("w", 2), true));
        got.add(reader.poll({}));
        QCOMPARE(stepsOf(got.histograms.value(QStringLiteral("w"))), (std::vector<qint64> { 0, 1, 2 }));
        QCOMPARE(got.histograms.value(QStringLiteral("w")).preempted, qint64(5 + 5));
    }

    void corruptImageBytesAreDelivered()
    {
        const QString file = path(QStringLiteral("vdlrecords.badimage.log"));
        Record record;
        addValue(record, "img", 1, 1700000000001)
            ->mutable_image()
            ->set_encoded_image_string(std::string("\0\1junk", 6));
        Record empty;
        addValue(empty, "img", 2, 1700000000002)->mutable_image();
        QVERIFY(writeFile(file, framed(record) + framed(empty)));
        VisualDlReader reader(file);
        Summaries got;
        const ImportUpdate update = reader.poll({});
        got.add(update);
        // Decoding is the panel's business: it names what it cannot show. The reader keeps the bytes.
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(update.diagnostics.isEmpty());
        const ImageSeries& img = got.images.value(QStringLiteral("img"));
        QCOMPARE(stepsOf(img), (std::vector<qint64> { 1, 2 }));
        QCOMPARE(img.items[0].encoded, QList<QByteArray> { QByteArray("\0\1junk", 6) });
        QCOMPARE(img.items[1].encoded, QList<QByteArray> { QByteArray() });
        QCOMPARE(img.items[0].width, 0); // not declared by VisualDL
    }

    void malformedValuesAreSkippedWithAWarning()
    {
        const QString file = path(QStringLiteral("vdlrecords.malformed.log"));
        QByteArray bytes = histogramRecord("w", 0);
        const qint64 badHistogramAt = bytes.size();
        {
            Record record;
            auto* h = addValue(record, "w", 1, 1700000000001)->mutable_histogram();
            h->add_hist(1.0);
            h->add_hist(2.0);
            h->add_bin_edges(0.0);
            h->add_bin_edges(1.0); // one edge short
            bytes += framed(record);
        }
        const qint64 decreasingAt = bytes.size();
        {
            Record record;
            auto* h = addValue(record, "w", 2, 1700000000002)->mutable_histogram();
            h->add_hist(1.0);
            h->add_bin_edges(1.0);
            h->add_bin_edges(0.0);
            bytes += framed(record);
        }
        const qint64 badCurveAt = bytes.size();
        {
            Record record;
            auto* c = addValue(record, "pr", 0, 1700000000000)->mutable_pr_curve();
            c->add_tp(1);
            c->add_precision(1.0);
            c->add_recall(1.0); // FP, TN and FN missing
            bytes += framed(record);
        }
        bytes += histogramRecord("w", 3) + prCurveRecord("pr", 1, 2);
        QVERIFY(writeFile(file, bytes));

        VisualDlReader reader(file);
        Summaries got;
        const ImportUpdate update = reader.poll({});
        got.add(update);
        QCOMPARE(update.status, ImportStatus::Partial);
        QCOMPARE(update.recordsRead, 6);
        QCOMPARE(update.diagnostics.size(), 3);
        const QList<qint64> offsets { badHistogramAt, decreasingAt, badCurveAt };
        for (int i = 0; i < 3; ++i) {
            const Diagnostic& d = update.diagnostics[i];
            QCOMPARE(d.severity, Severity::Warning);
            QCOMPARE(d.file, QFileInfo(file).absoluteFilePath());
            QCOMPARE(d.offset, offsets[i]);
        }
        QVERIFY2(update.diagnostics[0].message.contains(QStringLiteral("\"w\"")),
                 qPrintable(update.diagnostics[0].message));
        QVERIFY2(update.diagnostics[0].message.contains(QStringLiteral("step 1")),
                 qPrintable(update.diagnostics[0].message));
        QVERIFY2(update.diagnostics[0].message.contains(QStringLiteral("2 counts but 2 bucket edges")),
                 qPrintable(update.diagnostics[0].message));
        QVERIFY2(update.diagnostics[2].message.contains(QStringLiteral("\"pr\"")),
                 qPrintable(update.diagnostics[2].message));
        // What could be read is kept.
        QCOMPARE(stepsOf(got.histograms.value(QStringLiteral("w"))), (std::vector<qint64> { 0, 3 }));
        QCOMPARE(stepsOf(got.prCurves.value(QStringLiteral("pr"))), (std::vector<qint64> { 1 }));
    }

    void liveTailDeliversTheGrownSeries()
    {
        const QString file = path(QStringLiteral("vdlrecords.tail.log"));
        QByteArray bytes;
        for (int step = 0; step < 3; ++step)
            bytes += histogramRecord("w", step) + imageRecord("img", step);
        bytes += textRecord("t", 0, "first");
        const QByteArray unfinished = histogramRecord("w", 3);
        QVERIFY(writeFile(file, bytes + unfinished.left(unfinished.size() - 4)));

        SummaryLimits limits;
        limits.images = 2;
        VisualDlReader reader(file, limits);
        const ImportUpdate first = reader.poll({});
        QVERIFY(first.mayGrow);
        QVERIFY(first.summaries);
        QCOMPARE(stepsOf(first.summaries->histograms.at(0)), (std::vector<qint64> { 0, 1, 2 }));
        QCOMPARE(first.summaries->images.at(0).items.size(), std::size_t(2));
        QCOMPARE(first.summaries->texts.size(), std::size_t(1));

        // The writer finishes the record and adds more: the next poll hands over each changed tag whole.
        QVERIFY(writeFile(file, unfinished.right(4) + histogramRecord("w", 4) + imageRecord("img", 3), true));
        const ImportUpdate second = reader.poll({});
        QVERIFY(!second.mayGrow);
        QCOMPARE(second.recordsRead, 3);
        QVERIFY(second.summaries);
        QCOMPARE(second.summaries->histograms.size(), std::size_t(1));
        const HistogramSeries& w = second.summaries->histograms[0];
        QCOMPARE(stepsOf(w), (std::vector<qint64> { 0, 1, 2, 3, 4 }));
        QCOMPARE(w.seen, qint64(5));
        QCOMPARE(w.items[3].buckets[0].count, 3.0);
        QCOMPARE(second.summaries->images.size(), std::size_t(1));
        const ImageSeries& img = second.summaries->images[0];
        QCOMPARE(img.items.size(), std::size_t(2)); // still bounded
        QCOMPARE(img.items.back().step, qint64(3));
        QCOMPARE(img.seen, qint64(4));
        QVERIFY(second.summaries->texts.empty()); // unchanged: the store keeps what it had

        // Nothing new: no batch at all.
        const ImportUpdate third = reader.poll({});
        QVERIFY(!third.summaries);

        // Through the store, the replace semantics leave one copy of each kept value.
        SummaryStore store;
        store.update(QStringLiteral("run"), file, *first.summaries);
        store.update(QStringLiteral("run"), file, *second.summaries);
        QCOMPARE(stepsOf(store.histograms(QStringLiteral("run"), QStringLiteral("w"))),
                 (std::vector<qint64> { 0, 1, 2, 3, 4 }));
        QCOMPARE(store.texts(QStringLiteral("run"), QStringLiteral("t")).items.size(), std::size_t(1));
        QCOMPARE(store.images(QStringLiteral("run"), QStringLiteral("img")).items.size(), std::size_t(2));
    }

    void defaultLimits()
    {
        VisualDlReader reader(path(QStringLiteral("vdlrecords.defaults.log")));
        QCOMPARE(reader.limits().histograms, SummaryLimits {}.histograms);
        QCOMPARE(reader.limits().images, SummaryLimits {}.images);
        QCOMPARE(reader.limits().prCurves, SummaryLimits {}.prCurves);
    }

    void truncatedLastRecordIsTailed_data()
    {
        QTest::addColumn<int>("keep"); // bytes of the last record present at the first poll
        QTest::newRow("inside the length") << 5;
        QTest::newRow("length only") << 8;
        QTest::newRow("inside the payload") << 12;
    }

    void truncatedLastRecordIsTailed()
    {
        QFETCH(int, keep);
        QByteArray complete;
        QList<qint64> ends;
        for (int step = 0; step < 10; ++step) {
            complete += scalarRecord("loss", step, 1700000000000 + step, 10.0f - float(step));
            ends.append(complete.size());
        }
        const qint64 lastStart = ends[8];
        const QString file = path(QStringLiteral("vdlrecords.live%1.log").arg(keep));
        QVERIFY(writeFile(file, complete.left(lastStart + keep)));

        VisualDlReader reader(file);
        const ImportUpdate first = reader.poll({});
        Collected got;
        got.add(first);
        QVERIFY(first.mayGrow);
        QCOMPARE(first.status, ImportStatus::Ok); // an unfinished record is not damage
        QVERIFY(first.diagnostics.isEmpty());
        QCOMPARE(got.series.value(QStringLiteral("loss")).size(), std::size_t(9));
        QCOMPARE(reader.offset(), lastStart);

        // The writer finishes the record: the next poll yields exactly the missing point.
        QVERIFY(writeFile(file, complete.mid(lastStart + keep), true));
        const ImportUpdate second = reader.poll({});
        QVERIFY(!second.mayGrow);
        QCOMPARE(second.recordsRead, 1);
        QCOMPARE(second.scalars.size(), std::size_t(1));
        QCOMPARE(second.scalars[0].points.size(), std::size_t(1));
        QCOMPARE(second.scalars[0].points[0].step, qint64(9));
        QCOMPARE(second.scalars[0].points[0].value, 1.0);
        QVERIFY(!second.scalars[0].metadata); // metadata came with the tag's first batch
        QCOMPARE(reader.offset(), qint64(complete.size()));
    }

    void hugeLengthStopsWithError()
    {
        QByteArray bytes;
        for (int step = 0; step < 5; ++step)
            bytes += scalarRecord("loss", step, 1700000000000 + step, float(step));
        const qint64 badOffset = bytes.size();
        bytes += le64(std::uint64_t(1) << 40) + QByteArray(64, 'x');
        bytes += scalarRecord("loss", 5, 1700000000005, 5.0f); // unreachable without trustworthy framing
        const QString file = path(QStringLiteral("vdlrecords.huge.log"));
        QVERIFY(writeFile(file, bytes));

        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        Collected got;
        got.add(update);
        QCOMPARE(got.series.value(QStringLiteral("loss")).size(), std::size_t(5));
        QCOMPARE(update.status, ImportStatus::Partial);
        QVERIFY(!update.mayGrow);
        QVERIFY(reader.isDead());
        QCOMPARE(got.count(Severity::Error), 1);
        const Diagnostic& error = got.diagnostics.first();
        QCOMPARE(error.offset, badOffset);
        QCOMPARE(error.file, QFileInfo(file).absoluteFilePath());
        QVERIFY2(error.message.contains(QStringLiteral("1099511627776")), qPrintable(error.message));

        const ImportUpdate again = reader.poll({});
        QVERIFY(again.scalars.empty());
        QVERIFY(again.diagnostics.isEmpty());
        QCOMPARE(again.status, ImportStatus::Partial);
    }

    void lengthAboveTheLimitAtTheStartFails()
    {
        const QString file = path(QStringLiteral("vdlrecords.notvdl.log"));
        QVERIFY(writeFile(file, QByteArray("2024-01-01 12:00:00 epoch 1 loss 0.5\n")));
        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Failed);
        QCOMPARE(update.diagnostics.size(), 1);
        QCOMPARE(update.diagnostics[0].severity, Severity::Error);
        QCOMPARE(update.diagnostics[0].offset, 0);
    }

    void undecodablePayloadIsSkipped()
    {
        QByteArray bytes = scalarRecord("loss", 0, 1000, 1.0f);
        const qint64 badOffset = bytes.size();
        bytes += framed(QByteArray("\x0a\x7f\x01", 3)); // values claims 127 bytes, 1 follows
        bytes += scalarRecord("loss", 1, 2000, 2.0f);
        const QString file = path(QStringLiteral("vdlrecords.bad.log"));
        QVERIFY(writeFile(file, bytes));

        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        Collected got;
        got.add(update);
        QCOMPARE(update.status, ImportStatus::Partial);
        QCOMPARE(update.recordsRead, 3);
        QCOMPARE(got.series.value(QStringLiteral("loss")).size(), std::size_t(2));
        QCOMPARE(got.count(Severity::Warning), 1);
        QCOMPARE(got.diagnostics.first().offset, badOffset);
    }

    void emptyFile()
    {
        const QString file = path(QStringLiteral("vdlrecords.empty.log"));
        QVERIFY(writeFile(file, QByteArray()));
        VisualDlReader reader(file);
        const ImportUpdate update = reader.poll({});
        QCOMPARE(update.status, ImportStatus::Ok);
        QVERIFY(update.scalars.empty());
        QVERIFY(update.diagnostics.isEmpty());
        QVERIFY(!update.mayGrow);
        QCOMPARE(update.recordsRead, 0);

        // A writer that starts later is picked up by the next poll.
        QVERIFY(writeFile(file, scalarRecord("loss", 3, 4000, 0.25f), true));
        const ImportUpdate later = reader.poll({});
        QCOMPARE(later.scalars.size(), std::size_t(1));
        QCOMPARE(later.scalars[0].points.size(), std::size_t(1));
        QCOMPARE(later.scalars[0].points[0].wallTime, 4.0);
    }

    void missingAndShrunkFiles()
    {
        VisualDlReader missing(path(QStringLiteral("vdlrecords.missing.log")));
        const ImportUpdate update = missing.poll({});
        QCOMPARE(update.status, ImportStatus::Failed);
        QCOMPARE(update.diagnostics.size(), 1);
        QVERIFY(missing.isDead());

        const QString file = path(QStringLiteral("vdlrecords.shrink.log"));
        QVERIFY(writeFile(file, scalarRecord("loss", 0, 1000, 1.0f) + scalarRecord("loss", 1, 2000, 2.0f)));
        VisualDlReader reader(file);
        QCOMPARE(reader.poll({}).status, ImportStatus::Ok);
        QVERIFY(writeFile(file, scalarRecord("loss", 0, 1000, 1.0f)));
        const ImportUpdate shrunk = reader.poll({});
        QCOMPARE(shrunk.status, ImportStatus::Partial);
        QCOMPARE(shrunk.diagnostics.size(), 1);
        QCOMPARE(shrunk.diagnostics[0].severity, Severity::Error);
    }

    void scannedAndImportedThroughTheSession()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("paddle_run")));
        QByteArray bytes;
        for (int step = 0; step < 20; ++step)
            bytes += scalarRecord("eval/acc", step * 10, 1700000000000 + step, float(step) / 20.0f);
        bytes += histogramRecord("conv1.w", 0);
        bytes += histogramRecord("conv1.w", 5);
        bytes += textRecord("config", 0, "lr: 0.1");
        QVERIFY(writeFile(dir.filePath(QStringLiteral("paddle_run/vdlrecords.1700000000.log")), bytes));

        const RunManifest manifest = RunScanner().scan(dir.path());
        QCOMPARE(manifest.artifacts.size(), 1);
        QCOMPARE(manifest.artifacts[0].kind, ArtifactKind::VisualDlLog);
        ImportSession session(manifest);
        ScalarStore store;
        SummaryStore summaries;
        connect(&session, &ImportSession::scalarsArrived, &store, &ScalarStore::append);
        connect(&session, &ImportSession::summariesArrived, &summaries, &SummaryStore::update);
        session.importBlocking();
        QCOMPARE(session.state(0).status, ImportStatus::Ok);
        const TagStatistics stats = session.state(0).scalarTags.value(QStringLiteral("eval/acc"));
        QCOMPARE(stats.points, 20);
        QCOMPARE(stats.firstStep, 0);
        QCOMPARE(stats.lastStep, 190);
        const ScalarSeries* series = store.series(QStringLiteral("paddle_run"), QStringLiteral("eval/acc"));
        QVERIFY(series);
        QCOMPARE(series->points.size(), std::size_t(20));
        QCOMPARE(series->points[5].value, double(5.0f / 20.0f));
        QVERIFY(session.state(0).diagnostics.isEmpty());
        QCOMPARE(summaries.runs(), QStringList { QStringLiteral("paddle_run") });
        const HistogramSeries conv = summaries.histograms(QStringLiteral("paddle_run"), QStringLiteral("conv1.w"));
        QCOMPARE(stepsOf(conv), (std::vector<qint64> { 0, 5 }));
        QCOMPARE(conv.items[1].count, 5.0 + 6.0 + 7.0 + 8.0);
        QCOMPARE(summaries.texts(QStringLiteral("paddle_run"), QStringLiteral("config")).items.at(0).cells,
                 QStringList { QStringLiteral("lr: 0.1") });
        // What `runlens info` counts per kind and tag.
        QCOMPARE(
            session.state(0).summaryTags.value(QStringLiteral("histograms")).value(QStringLiteral("conv1.w")).points,
            2);
        QCOMPARE(session.state(0).summaryTags.value(QStringLiteral("texts")).value(QStringLiteral("config")).points, 1);
    }

    void registeredForItsKind()
    {
        Artifact artifact;
        artifact.kind = ArtifactKind::VisualDlLog;
        artifact.path = path(QStringLiteral("vdlrecords.1.log"));
        QVERIFY(dynamic_cast<VisualDlReader*>(createImporter(artifact).get()) != nullptr);
        QVERIFY(artifactKindImported(ArtifactKind::VisualDlLog));
    }
};

QTEST_GUILESS_MAIN(TestVisualDlReader)
#include "tst_visualdlreader.moc"
