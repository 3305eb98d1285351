#include "importers/summary/eventfilereader.h"
#include "importers/summary/eventfilewriter.h"
#include "importers/summary/proto/ms_summary.pb.h"
#include "importers/summary/proto/tb_event.pb.h"
#include "importers/summary/proto/tb_hparams.pb.h"
#include "importers/summary/proto/tb_tensor.pb.h"
#include "importers/summary/summaryvalues.h"
#include "models/tensor/dtype.h"

#include <QBuffer>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

#include <cfloat>
#include <cmath>
#include <cstring>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::summary;
using namespace runlens::models;
using namespace runlens::models::summary;

namespace {

QByteArray serialized(const google::protobuf::MessageLite& message)
{
    const std::string bytes = message.SerializeAsString();
    return QByteArray(bytes.data(), qsizetype(bytes.size()));
}

runlens::tb::Event tbEvent(qint64 step)
{
    runlens::tb::Event event;
    event.set_wall_time(1700000000.0 + double(step));
    event.set_step(step);
    return event;
}

runlens::tb::Summary::Value* addValue(runlens::tb::Event& event, const std::string& tag, const std::string& plugin = {})
{
    auto* value = event.mutable_summary()->add_value();
    value->set_tag(tag);
    if (!plugin.empty())
        value->mutable_metadata()->mutable_plugin_data()->set_plugin_name(plugin);
    return value;
}

void setShape(runlens::tb::TensorProto* tensor, std::initializer_list<qint64> dims)
{
    for (const qint64 d : dims)
        tensor->mutable_tensor_shape()->add_dim()->set_size(d);
}

QByteArray png(int width, int height, QRgb colour)
{
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(colour);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

/// Everything the reader delivered over its polls: the last series of each tag (batches replace).
struct Delivered
{
    QMap<QString, HistogramSeries> histograms;
    QMap<QString, ImageSeries> images;
    QMap<QString, TextSeries> texts;
    QMap<QString, PrCurveSeries> prCurves;
    QMap<QString, TensorSeries> tensors;
    std::optional<HParams> hparams;
    Diagnostics diagnostics;
    ImportStatus status = ImportStatus::Ok;
    int batches = 0;

    void add(const ImportUpdate& update)
    {
        diagnostics += update.diagnostics;
        status = update.status;
        if (!update.summaries)
            return;
        ++batches;
        for (const auto& s : update.summaries->histograms)
            histograms[s.tag] = s;
        for (const auto& s : update.summaries->images)
            images[s.tag] = s;
        for (const auto& s : update.summaries->texts)
            texts[s.tag] = s;
        for (const auto& s : update.summaries->prCurves)
            prCurves[s.tag] = s;
        for (const auto& s : update.summaries->tensors)
            tensors[s.tag] = s;
        if (update.summaries->hparams)
            hparams = update.summaries->hparams;
    }
};

std::vector<double> valuesOf(const models::tensor::Tensor& t)
{
    std::vector<double> out;
    for (qint64 i = 0; i < t.elementCount(); ++i)
        out.push_back(models::tensor::loadElement(t.data->data() + t.offset + i * models::tensor::itemSize(t.dtype),
                                                  t.dtype, t.swap));
    return out;
}

} // namespace

class TestSummaryValues : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_files = 0;

    /// A new TensorBoard or MindSpore file holding `events` after its version record.
    template<typename Event> QString write(const std::vector<Event>& events, SummaryFlavor flavor)
    {
        const QString path = m_dir.filePath(QStringLiteral("f%1.tfevents").arg(++m_files));
        EventFileWriter writer(flavor);
        if (!writer.open(path) || !writer.writeFileVersion(1700000000.0))
            return {};
        for (const Event& event : events)
            writer.writeRecord(serialized(event));
        writer.close();
        return path;
    }

    Delivered read(const QString& path, SummaryFlavor flavor, SummaryLimits limits = {})
    {
        EventFileReader reader(path, flavor, limits);
        Delivered delivered;
        delivered.add(reader.poll(ImportControl()));
        return delivered;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void tf2HistogramTensors()
    {
        // Metadata on the first value only, as writers do; content as packed float64 bytes, then as double_val.
        std::vector<runlens::tb::Event> events;
        const double rows[2][3][3]
            = { { { -1, 0, 4 }, { 0, 1, 6 }, { 1, 2, 0 } }, { { -2, 0, 1 }, { 0, 2, 9 }, { 2, 4, 2 } } };
        for (int step = 0; step < 2; ++step) {
            auto event = tbEvent(step * 10);
            auto* value = addValue(event, "w/hist", step == 0 ? "histograms" : "");
            auto* tensor = value->mutable_tensor();
            tensor->set_dtype(runlens::tb::DT_DOUBLE);
            setShape(tensor, { 3, 3 });
            if (step == 0)
                tensor->set_tensor_content(std::string(reinterpret_cast<const char*>(rows[0]), sizeof(rows[0])));
            else
                for (const auto& row : rows[1])
                    for (const double v : row)
                        tensor->add_double_val(v);
            events.push_back(event);
        }
        const ::Delivered d = read(write(events, SummaryFlavor::TensorBoard), SummaryFlavor::TensorBoard);
        QCOMPARE(d.status, ImportStatus::Ok);
        QVERIFY(d.histograms.contains(QStringLiteral("w/hist")));
        const HistogramSeries s = d.histograms[QStringLiteral("w/hist")];
        QCOMPARE(s.metadata.pluginName, QStringLiteral("histograms"));
        QCOMPARE(int(s.items.size()), 2);
        QCOMPARE(s.items[0].step, 0);
        QCOMPARE(s.items[1].step, 10);
        QCOMPARE(int(s.items[0].buckets.size()), 3);
        QCOMPARE(s.items[0].buckets[1].left, 0.0);
        QCOMPARE(s.items[0].buckets[1].right, 1.0);
        QCOMPARE(s.items[0].buckets[1].count, 6.0);
        QCOMPARE(s.items[0].count, 10.0);
        // The last bucket is empty: the edges of the counted values bound the histogram.
        QCOMPARE(s.items[0].min, -1.0);
        QCOMPARE(s.items[0].max, 1.0);
        QCOMPARE(s.items[1].count, 12.0);
        QCOMPARE(s.items[1].max, 4.0);
        QVERIFY(std::isnan(s.items[1].sum));
        // Median of step 10: 6 of 12 values; 1 below 0, then 5 of the 9 in (0, 2]: 0 + 2 * 5/9.
        QCOMPARE(s.items[1].percentile(0.5), 2.0 * 5.0 / 9.0);
    }

    void legacyHistogramEdges()
    {
        // torch writes ±DBL_MAX outer limits and empty end buckets; min/max bound what is kept.
        auto event = tbEvent(3);
        auto* histo = addValue(event, "legacy")->mutable_histo();
        histo->set_min(-0.5);
        histo->set_max(2.5);
        histo->set_num(7);
        histo->set_sum(4);
        histo->set_sum_squares(9);
        const double limits[] = { -1, 0, 1, 2, 3, DBL_MAX };
        const double counts[] = { 0, 2, 3, 0, 2, 0 };
        for (int i = 0; i < 6; ++i) {
            histo->add_bucket_limit(limits[i]);
            histo->add_bucket(counts[i]);
        }
        const ::Delivered d
            = read(write(std::vector { event }, SummaryFlavor::TensorBoard), SummaryFlavor::TensorBoard);
        const Histogram h = d.histograms[QStringLiteral("legacy")].items.at(0);
        QCOMPARE(int(h.buckets.size()), 4);
        QCOMPARE(h.buckets[0].left, -0.5); // min, not the previous limit -1
        QCOMPARE(h.buckets[0].right, 0.0);
        QCOMPARE(h.buckets[2].count, 0.0); // an inner empty bucket stays
        QCOMPARE(h.buckets[3].left, 2.0);
        QCOMPARE(h.buckets[3].right, 2.5); // max, not the limit 3
        QCOMPARE(h.bucketTotal(), 7.0);
        QCOMPARE(h.count, 7.0);
        QCOMPARE(h.sumSquares, 9.0);

        // Counts that do not pair with limits: reported once, naming the tag, and the file is partial.
        auto bad = tbEvent(4);
        auto* badHisto = addValue(bad, "legacy")->mutable_histo();
        badHisto->add_bucket_limit(1);
        const ::Delivered broken
            = read(write(std::vector { event, bad, bad }, SummaryFlavor::TensorBoard), SummaryFlavor::TensorBoard);
        QCOMPARE(broken.status, ImportStatus::Partial);
        QCOMPARE(broken.diagnostics.size(), 1);
        QVERIFY2(broken.diagnostics[0].message.contains(QStringLiteral("\"legacy\" at step 4")),
                 qPrintable(broken.diagnostics[0].message));
        QCOMPARE(int(broken.histograms[QStringLiteral("legacy")].items.size()), 1);
    }

    void mindSporeHistogramImageAndTensor()
    {
        std::vector<runlens::ms::Event> events;
        const QByteArray tile = png(16, 8, qRgb(10, 200, 30));
        for (int step = 1; step <= 2; ++step) {
            runlens::ms::Event event;
            event.set_wall_time(1700000000.0 + step);
            event.set_step(step);
            auto* h = event.mutable_summary()->add_value();
            h->set_tag("conv1.weight[:Histogram]");
            auto* histogram = h->mutable_histogram();
            // Written out of order: the reader sorts by left edge.
            auto* b2 = histogram->add_buckets();
            b2->set_left(0.5);
            b2->set_width(0.5);
            b2->set_count(3 * step);
            auto* b1 = histogram->add_buckets();
            b1->set_left(0.0);
            b1->set_width(0.5);
            b1->set_count(1);
            histogram->set_nan_count(step == 2 ? 2 : 0);
            histogram->set_pos_inf_count(1);
            histogram->set_min(0.1);
            histogram->set_max(0.9);
            histogram->set_sum(2.0);
            histogram->set_count(1 + 3 * step + 1 + (step == 2 ? 2 : 0));
            auto* i = event.mutable_summary()->add_value();
            i->set_tag("input[:Image]");
            i->mutable_image()->set_width(16);
            i->mutable_image()->set_height(8);
            i->mutable_image()->set_colorspace(3);
            i->mutable_image()->set_encoded_image(tile.toStdString());
            auto* t = event.mutable_summary()->add_value();
            t->set_tag("fc.bias[:Tensor]");
            t->mutable_tensor()->add_dims(2);
            t->mutable_tensor()->add_dims(3);
            t->mutable_tensor()->set_data_type(11);
            for (int k = 0; k < 6; ++k)
                t->mutable_tensor()->add_float_data(float(k) * 0.5f + float(step));
            events.push_back(event);
        }
        // A tensor whose values do not fill its shape.
        runlens::ms::Event bad;
        bad.set_wall_time(1700000009.0);
        bad.set_step(3);
        auto* t = bad.mutable_summary()->add_value();
        t->set_tag("fc.bias[:Tensor]");
        t->mutable_tensor()->add_dims(4);
        t->mutable_tensor()->add_float_data(1.0f);
        events.push_back(bad);

        const ::Delivered d = read(write(events, SummaryFlavor::MindSpore), SummaryFlavor::MindSpore);
        QCOMPARE(d.status, ImportStatus::Partial);
        QCOMPARE(d.diagnostics.size(), 1);
        QVERIFY2(d.diagnostics[0].message.contains(QStringLiteral("holds 4 elements but 1 values")),
                 qPrintable(d.diagnostics[0].message));

        const HistogramSeries hs = d.histograms[QStringLiteral("conv1.weight[:Histogram]")];
        QCOMPARE(int(hs.items.size()), 2);
        const Histogram& h2 = hs.items[1];
        QCOMPARE(h2.buckets[0].left, 0.0);
        QCOMPARE(h2.buckets[0].count, 1.0);
        QCOMPARE(h2.buckets[1].right, 1.0);
        QCOMPARE(h2.buckets[1].count, 6.0);
        QCOMPARE(h2.nanCount, 2);
        QCOMPARE(h2.posInfCount, 1);
        QCOMPARE(h2.count, 7.0); // finite values only
        QCOMPARE(h2.min, 0.1);

        const ImageSeries is = d.images[QStringLiteral("input[:Image]")];
        QCOMPARE(int(is.items.size()), 2);
        QCOMPARE(is.items[0].colorspace, 3);
        QCOMPARE(is.items[0].encoded.size(), 1);
        QCOMPARE(is.items[0].encoded[0], tile);
        QCOMPARE(QImage::fromData(is.items[1].encoded[0]).pixel(3, 3), qRgb(10, 200, 30));

        const TensorSeries ts = d.tensors[QStringLiteral("fc.bias[:Tensor]")];
        QCOMPARE(int(ts.items.size()), 2);
        QCOMPARE(ts.items[1].tensor.shape, (std::vector<std::int64_t> { 2, 3 }));
        QCOMPARE(ts.items[1].tensor.dtype, models::tensor::DType::Float32);
        QCOMPARE(valuesOf(ts.items[1].tensor), (std::vector<double> { 2.0, 2.5, 3.0, 3.5, 4.0, 4.5 }));
        QCOMPARE(ts.items[1].tensor.value({ 1, 2 }), 4.5);
    }

    void imagesTextsAndPrCurves()
    {
        const QByteArray red = png(4, 3, qRgb(255, 0, 0));
        const QByteArray blue = png(4, 3, qRgb(0, 0, 255));
        std::vector<runlens::tb::Event> events;
        // Legacy image with bytes that are no image at all: delivered as written; the panel says so.
        auto legacy = tbEvent(1);
        auto* image = addValue(legacy, "noise")->mutable_image();
        image->set_width(4);
        image->set_height(3);
        image->set_encoded_image_string("not a png");
        events.push_back(legacy);
        // TF2 images: [width, height, png, png].
        auto tf2 = tbEvent(2);
        auto* tensor = addValue(tf2, "samples", "images")->mutable_tensor();
        tensor->set_dtype(runlens::tb::DT_STRING);
        setShape(tensor, { 4 });
        for (const std::string& s : { std::string("4"), std::string("3"), red.toStdString(), blue.toStdString() })
            tensor->add_string_val(s);
        events.push_back(tf2);
        // A table of text, rank 2.
        auto text = tbEvent(2);
        auto* textTensor = addValue(text, "config", "text")->mutable_tensor();
        textTensor->set_dtype(runlens::tb::DT_STRING);
        setShape(textTensor, { 2, 2 });
        for (const char* s : { "lr", "0.1", "batch", "**32**" })
            textTensor->add_string_val(s);
        events.push_back(text);
        // A PR curve [6, 3] from float_val, and one of the wrong shape.
        auto pr = tbEvent(5);
        auto* prTensor = addValue(pr, "pr", "pr_curves")->mutable_tensor();
        prTensor->set_dtype(runlens::tb::DT_FLOAT);
        setShape(prTensor, { 6, 3 });
        const float rows[6][3]
            = { { 10, 6, 0 }, { 10, 2, 0 }, { 0, 8, 10 }, { 0, 4, 10 }, { 0.5f, 0.75f, 0 }, { 1, 0.6f, 0 } };
        for (const auto& row : rows)
            for (const float v : row)
                prTensor->add_float_val(v);
        events.push_back(pr);
        auto badPr = tbEvent(6);
        auto* badTensor = addValue(badPr, "pr")->mutable_tensor();
        badTensor->set_dtype(runlens::tb::DT_FLOAT);
        setShape(badTensor, { 5, 3 });
        badTensor->add_float_val(1);
        events.push_back(badPr);

        const ::Delivered d = read(write(events, SummaryFlavor::TensorBoard), SummaryFlavor::TensorBoard);
        const SummaryImage noise = d.images[QStringLiteral("noise")].items.at(0);
        QCOMPARE(noise.encoded.at(0), QByteArray("not a png"));
        QCOMPARE(noise.width, 4);
        const SummaryImage samples = d.images[QStringLiteral("samples")].items.at(0);
        QCOMPARE(samples.width, 4);
        QCOMPARE(samples.height, 3);
        QCOMPARE(samples.encoded, (QList<QByteArray> { red, blue }));

        const SummaryText table = d.texts[QStringLiteral("config")].items.at(0);
        QCOMPARE(table.shape, (std::vector<qint64> { 2, 2 }));
        QCOMPARE(table.cells, (QStringList { "lr", "0.1", "batch", "**32**" }));

        const PrCurveSeries curves = d.prCurves[QStringLiteral("pr")];
        QCOMPARE(int(curves.items.size()), 1);
        const PrCurve& c = curves.items[0];
        QCOMPARE(c.thresholdCount(), 3);
        QCOMPARE(c.truePositives, (std::vector<double> { 10, 6, 0 }));
        QCOMPARE(c.falseNegatives, (std::vector<double> { 0, 4, 10 }));
        QCOMPARE(c.precision[1], double(0.75f));
        QCOMPARE(c.recall[1], double(0.6f));
        QCOMPARE(c.threshold(1), 0.5);
        QCOMPARE(d.diagnostics.size(), 1);
        QVERIFY2(d.diagnostics[0].message.contains(QStringLiteral("[6, N], not [5, 3]")),
                 qPrintable(d.diagnostics[0].message));
    }

    void declaredShapesAreCheckedBeforeTheyAreMade()
    {
        // One recorded value repeated to a declared shape: a few bytes each, gigabytes once expanded.
        auto event = tbEvent(1);
        auto* text = addValue(event, "huge_text", "text")->mutable_tensor();
        text->set_dtype(runlens::tb::DT_STRING);
        setShape(text, { 1'000'000'000 });
        text->add_string_val("x");
        auto* wide = addValue(event, "wide_text", "text")->mutable_tensor();
        wide->set_dtype(runlens::tb::DT_STRING);
        setShape(wide, { 50'000 });
        wide->add_string_val(std::string(1024, 'y'));
        auto* fine = addValue(event, "repeated_text", "text")->mutable_tensor();
        fine->set_dtype(runlens::tb::DT_STRING);
        setShape(fine, { 3 });
        fine->add_string_val("same");
        auto* histogram = addValue(event, "huge_histogram", "histograms")->mutable_tensor();
        histogram->set_dtype(runlens::tb::DT_DOUBLE);
        setShape(histogram, { 3'000'000, 3 });
        histogram->add_double_val(1.0);
        auto* pr = addValue(event, "huge_pr", "pr_curves")->mutable_tensor();
        pr->set_dtype(runlens::tb::DT_FLOAT);
        setShape(pr, { 6, 1'000'000 });
        pr->add_float_val(0.5f);
        const QString path = write(std::vector { event }, SummaryFlavor::TensorBoard);
        const ::Delivered d = read(path, SummaryFlavor::TensorBoard);

        QCOMPARE(d.status, ImportStatus::Partial);
        QCOMPARE(d.texts[QStringLiteral("repeated_text")].items.at(0).cells, (QStringList { "same", "same", "same" }));
        QVERIFY(d.texts[QStringLiteral("huge_text")].items.empty());
        QVERIFY(d.texts[QStringLiteral("wide_text")].items.empty());
        QVERIFY(d.histograms[QStringLiteral("huge_histogram")].items.empty());
        QVERIFY(d.prCurves[QStringLiteral("huge_pr")].items.empty());
        QCOMPARE(d.diagnostics.size(), 4);
        const char* const expected[] = { "strings, more than the", "bytes, more than the", "buckets, more than the",
                                         "thresholds, more than the" };
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(d.diagnostics[i].file, path);
            QVERIFY(d.diagnostics[i].offset > 0);
            QVERIFY2(d.diagnostics[i].message.contains(QLatin1String(expected[i])),
                     qPrintable(d.diagnostics[i].message));
        }
    }

    void valuesAreSpentOnTheBudget()
    {
        runlens::tb::TensorProto splat;
        splat.set_dtype(runlens::tb::DT_DOUBLE);
        setShape(&splat, { 1000, 1000 });
        splat.add_double_val(0.0);
        ImportLimits limits = ImportLimits::forInputSize(100);
        limits.maxBytes = 20'000'000; // two of these 8 MB tensors, not three
        ImportBudget budget(limits);
        models::tensor::Tensor t;
        QVERIFY(importers::summary::values::numericTensor(splat, &t, &budget).isEmpty());
        QCOMPARE(t.elementCount(), 1'000'000);
        QVERIFY(importers::summary::values::numericTensor(splat, &t, &budget).isEmpty());
        const QString why = importers::summary::values::numericTensor(splat, &t, &budget);
        QVERIFY2(why.contains(QStringLiteral("bytes one import of this file may hold")), qPrintable(why));
        QVERIFY(budget.exceeded());
        // Without a budget only the per-value cap applies.
        QVERIFY(importers::summary::values::numericTensor(splat, &t).isEmpty());
    }

    void hparamsPluginData()
    {
        // torch's add_hparams: experiment, session start and session end, each a metadata-only value.
        runlens::tb::HParamsPluginData experiment;
        auto* e = experiment.mutable_experiment();
        auto* lr = e->add_hparam_infos();
        lr->set_name("lr");
        lr->set_type(3);
        lr->mutable_domain_interval()->set_min_value(0.001);
        lr->mutable_domain_interval()->set_max_value(1);
        auto* opt = e->add_hparam_infos();
        opt->set_name("optimizer");
        opt->set_type(1);
        opt->mutable_domain_discrete()->add_values()->set_string_value("SGD");
        opt->mutable_domain_discrete()->add_values()->set_string_value("Adam");
        e->add_metric_infos()->mutable_name()->set_tag("hparam/accuracy");
        runlens::tb::HParamsPluginData start;
        auto* s = start.mutable_session_start_info();
        auto* v1 = s->add_hparams();
        v1->set_key("lr");
        v1->mutable_value()->set_number_value(0.1);
        auto* v2 = s->add_hparams();
        v2->set_key("optimizer");
        v2->mutable_value()->set_string_value("SGD");
        auto* v3 = s->add_hparams();
        v3->set_key("augment");
        v3->mutable_value()->set_bool_value(true);
        s->set_group_name("g1");
        s->set_start_time_secs(1700000000.5);
        runlens::tb::HParamsPluginData end;
        end.mutable_session_end_info()->set_status(1);
        end.mutable_session_end_info()->set_end_time_secs(1700000100.0);

        std::vector<runlens::tb::Event> events;
        const std::pair<const char*, const runlens::tb::HParamsPluginData*> parts[]
            = { { "_hparams_/experiment", &experiment },
                { "_hparams_/session_start_info", &start },
                { "_hparams_/session_end_info", &end } };
        for (const auto& [tag, data] : parts) {
            auto event = tbEvent(0);
            auto* value = addValue(event, tag, "hparams");
            value->mutable_metadata()->mutable_plugin_data()->set_content(data->SerializeAsString());
            events.push_back(event);
        }
        const ::Delivered d = read(write(events, SummaryFlavor::TensorBoard), SummaryFlavor::TensorBoard);
        QVERIFY(d.hparams);
        const HParams& h = *d.hparams;
        QCOMPARE(h.hparamInfos.size(), 2);
        QCOMPARE(h.hparamInfos[0].type, QStringLiteral("float64"));
        QCOMPARE(h.hparamInfos[0].domainMax, 1.0);
        QCOMPARE(h.hparamInfos[1].domainValues, (QVariantList { QStringLiteral("SGD"), QStringLiteral("Adam") }));
        QCOMPARE(h.metricInfos.size(), 1);
        QCOMPARE(h.metricInfos[0].tag, QStringLiteral("hparam/accuracy"));
        QCOMPARE(h.values.value(QStringLiteral("lr")).toDouble(), 0.1);
        QCOMPARE(h.values.value(QStringLiteral("optimizer")).toString(), QStringLiteral("SGD"));
        QCOMPARE(h.values.value(QStringLiteral("augment")).typeId(), QMetaType::Bool);
        QCOMPARE(h.groupName, QStringLiteral("g1"));
        QCOMPARE(h.status, QStringLiteral("success"));
        QCOMPARE(h.endTime, 1700000100.0);
        QVERIFY(d.histograms.isEmpty() && d.tensors.isEmpty());
    }

    void tensorsOfNoPlugin()
    {
        auto event = tbEvent(7);
        auto* tensor = addValue(event, "activations")->mutable_tensor();
        tensor->set_dtype(runlens::tb::DT_INT32);
        setShape(tensor, { 2, 2 });
        tensor->add_int_val(5); // a shorter list repeats its last value
        tensor->add_int_val(-3);
        auto strings = tbEvent(7);
        auto* text = addValue(strings, "names")->mutable_tensor();
        text->set_dtype(runlens::tb::DT_STRING);
        text->add_string_val("x");
        const ::Delivered d
            = read(write(std::vector { event, strings }, SummaryFlavor::TensorBoard), SummaryFlavor::TensorBoard);
        QCOMPARE(d.status, ImportStatus::Ok);
        QCOMPARE(d.tensors.size(), 1);
        const models::tensor::Tensor t = d.tensors[QStringLiteral("activations")].items.at(0).tensor;
        QCOMPARE(t.dtype, models::tensor::DType::Int32);
        QCOMPARE(t.name, QStringLiteral("activations"));
        QCOMPARE(valuesOf(t), (std::vector<double> { 5, -3, -3, -3 }));
    }

    void reservoirAndPreemption()
    {
        // 50 histograms into a reservoir of 10: the latest is kept, the rest is a sample in step order.
        std::vector<runlens::tb::Event> events;
        auto histogramAt = [](qint64 step) {
            auto event = tbEvent(step);
            auto* histo = addValue(event, "h")->mutable_histo();
            histo->set_min(0);
            histo->set_max(1);
            histo->set_num(double(step + 1));
            histo->add_bucket_limit(1);
            histo->add_bucket(double(step + 1));
            return event;
        };
        for (qint64 step = 0; step < 50; ++step)
            events.push_back(histogramAt(step));
        SummaryLimits limits;
        limits.histograms = 10;
        const QString path = write(events, SummaryFlavor::TensorBoard);
        const ::Delivered d = read(path, SummaryFlavor::TensorBoard, limits);
        const HistogramSeries s = d.histograms[QStringLiteral("h")];
        QCOMPARE(int(s.items.size()), 10);
        QCOMPARE(s.seen, 50);
        QCOMPARE(s.items.back().step, 49);
        QVERIFY(std::is_sorted(s.items.begin(), s.items.end(),
                               [](const Histogram& a, const Histogram& b) { return a.step < b.step; }));
        QVERIFY2(s.items.front().step < 40, "an early step survives the sampling");
        // Reading again gives the same sample.
        const ::Delivered again = read(path, SummaryFlavor::TensorBoard, limits);
        for (int i = 0; i < 10; ++i)
            QCOMPARE(again.histograms[QStringLiteral("h")].items[std::size_t(i)].step, s.items[std::size_t(i)].step);

        // A restart from step 5 replaces what was written after it.
        std::vector<runlens::tb::Event> restarted;
        for (qint64 step = 0; step < 10; ++step)
            restarted.push_back(histogramAt(step));
        for (qint64 step = 5; step < 7; ++step)
            restarted.push_back(histogramAt(step));
        const ::Delivered r = read(write(restarted, SummaryFlavor::TensorBoard), SummaryFlavor::TensorBoard);
        const HistogramSeries rs = r.histograms[QStringLiteral("h")];
        std::vector<qint64> steps;
        for (const Histogram& h : rs.items)
            steps.push_back(h.step);
        QCOMPARE(steps, (std::vector<qint64> { 0, 1, 2, 3, 4, 5, 6 }));
        QCOMPARE(rs.preempted, 5);
    }

    void liveTailDeliversWholeSeries()
    {
        const QString path = m_dir.filePath(QStringLiteral("growing.tfevents"));
        EventFileWriter writer(SummaryFlavor::TensorBoard);
        QVERIFY(writer.open(path));
        QVERIFY(writer.writeFileVersion(1700000000.0));
        auto textAt = [](qint64 step) {
            auto event = tbEvent(step);
            auto* tensor = addValue(event, "notes", step == 0 ? "text" : "")->mutable_tensor();
            tensor->set_dtype(runlens::tb::DT_STRING);
            tensor->add_string_val(QStringLiteral("step %1").arg(step).toStdString());
            return event;
        };
        QVERIFY(writer.writeRecord(serialized(textAt(0))));
        writer.flush();
        EventFileReader reader(path, SummaryFlavor::TensorBoard);
        ImportUpdate first = reader.poll(ImportControl());
        QVERIFY(first.summaries);
        QCOMPARE(int(first.summaries->texts.at(0).items.size()), 1);
        QVERIFY2(!reader.poll(ImportControl()).summaries, "nothing new, nothing delivered");
        QVERIFY(writer.writeRecord(serialized(textAt(1))));
        writer.flush();
        ImportUpdate second = reader.poll(ImportControl());
        QVERIFY(second.summaries);
        const TextSeries& texts = second.summaries->texts.at(0);
        QCOMPARE(int(texts.items.size()), 2);
        QCOMPARE(texts.items[0].cells, QStringList { QStringLiteral("step 0") });
        QCOMPARE(texts.items[1].cells, QStringList { QStringLiteral("step 1") });
        QCOMPARE(texts.metadata.pluginName, QStringLiteral("text"));
    }
};

QTEST_GUILESS_MAIN(TestSummaryValues)
#include "tst_summaryvalues.moc"
