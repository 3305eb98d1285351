#include "importers/summary/summaryvalues.h"

#include "importers/summary/proto/ms_summary.pb.h"
#include "importers/summary/proto/tb_hparams.pb.h"
#include "importers/summary/proto/tb_summary.pb.h"
#include "importers/summary/proto/tb_tensor.pb.h"
#include "importers/summary/summarytr.h"
#include "models/summary/wavdecode.h"
#include "models/tensor/dtype.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace runlens::importers::summary::values {

namespace {

QString fromUtf8(const std::string& bytes)
{
    return QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
}

std::optional<models::tensor::DType> dtypeOf(int dtype)
{
    switch (dtype) {
    case tb::DT_FLOAT:
        return models::tensor::DType::Float32;
    case tb::DT_DOUBLE:
        return models::tensor::DType::Float64;
    case tb::DT_HALF:
        return models::tensor::DType::Float16;
    case tb::DT_BFLOAT16:
        return models::tensor::DType::BFloat16;
    case tb::DT_INT8:
        return models::tensor::DType::Int8;
    case tb::DT_INT16:
        return models::tensor::DType::Int16;
    case tb::DT_INT32:
        return models::tensor::DType::Int32;
    case tb::DT_INT64:
        return models::tensor::DType::Int64;
    case tb::DT_UINT8:
        return models::tensor::DType::UInt8;
    case tb::DT_UINT16:
        return models::tensor::DType::UInt16;
    case tb::DT_UINT32:
        return models::tensor::DType::UInt32;
    case tb::DT_UINT64:
        return models::tensor::DType::UInt64;
    case tb::DT_BOOL:
        return models::tensor::DType::Bool;
    default:
        return std::nullopt;
    }
}

QString dtypeText(int dtype)
{
    const std::string& name = tb::DataType_Name(tb::DataType(dtype));
    return name.empty() ? QString::number(dtype) : fromUtf8(name);
}

/// The shape of a TensorBoard tensor; false when a dimension is negative or the product overflows.
bool shapeOf(const tb::TensorProto& proto, std::vector<std::int64_t>* shape, qint64* count)
{
    shape->clear();
    *count = 1;
    for (const auto& dim : proto.tensor_shape().dim()) {
        if (dim.size() < 0)
            return false;
        shape->push_back(dim.size());
        if (dim.size() > 0 && *count > std::numeric_limits<qint64>::max() / dim.size())
            return false;
        *count *= dim.size();
    }
    return true;
}

/// Stores `value` as `count` little-endian-native elements of type T (the fields list fewer values
/// than the shape holds when the last repeats).
template<typename T, typename Field, typename Convert>
bool fillFrom(const Field& field, qint64 count, std::vector<std::byte>* bytes, Convert convert)
{
    if (field.empty())
        return count == 0;
    bytes->resize(std::size_t(count) * sizeof(T));
    for (qint64 i = 0; i < count; ++i) {
        const T value = convert(field.Get(int(std::min<qint64>(i, field.size() - 1))));
        std::memcpy(bytes->data() + i * qint64(sizeof(T)), &value, sizeof(T));
    }
    return true;
}

template<typename T> T identity(T value)
{
    return value;
}

/// Spends `bytes` on `budget` (when there is one); why the value is refused when that passes it.
QString spend(ImportBudget* budget, qint64 bytes)
{
    if (!budget || budget->spendBytes(bytes))
        return {};
    return SummaryTr::tr("its %L1 bytes would pass the %L2 bytes one import of this file may hold")
        .arg(bytes)
        .arg(budget->limits().maxBytes);
}

QString stringTensor(const tb::TensorProto& proto, std::vector<std::int64_t>* shape, QStringList* cells,
                     ImportBudget* budget)
{
    if (proto.dtype() != tb::DT_STRING)
        return SummaryTr::tr("it is a %1 tensor, not a string tensor").arg(dtypeText(proto.dtype()));
    qint64 count = 0;
    if (!shapeOf(proto, shape, &count))
        return SummaryTr::tr("its shape is invalid");
    if (count != proto.string_val_size() && !(count > 0 && proto.string_val_size() == 1))
        return SummaryTr::tr("its shape holds %1 strings but %2 are recorded").arg(count).arg(proto.string_val_size());
    if (count > kMaxTextCells)
        return SummaryTr::tr("it has %L1 strings, more than the %L2 kept").arg(count).arg(kMaxTextCells);
    // One recorded string stands for every cell: the size is what the cells would hold once expanded.
    qint64 bytes = 0;
    for (const std::string& text : proto.string_val())
        bytes += qint64(text.size());
    if (count > 1 && proto.string_val_size() == 1)
        bytes *= count; // count <= kMaxTextCells and the string is shorter than the file: no overflow
    if (bytes > kMaxTextBytes)
        return SummaryTr::tr("its strings hold %L1 bytes, more than the %L2 kept").arg(bytes).arg(kMaxTextBytes);
    if (QString why = spend(budget, 2 * bytes + count * qint64(sizeof(QString))); !why.isEmpty())
        return why;
    cells->clear();
    cells->reserve(qsizetype(count));
    if (proto.string_val_size() == 1) {
        const QString shared = fromUtf8(proto.string_val(0)); // the cells share its data
        for (qint64 i = 0; i < count; ++i)
            cells->append(shared);
    } else {
        for (const std::string& text : proto.string_val())
            cells->append(fromUtf8(text));
    }
    return {};
}

} // namespace

QString numericTensor(const tb::TensorProto& proto, models::tensor::Tensor* out, ImportBudget* budget)
{
    const std::optional<models::tensor::DType> type = dtypeOf(proto.dtype());
    if (!type)
        return SummaryTr::tr("its type %1 is not numeric").arg(dtypeText(proto.dtype()));
    std::vector<std::int64_t> shape;
    qint64 count = 0;
    if (!shapeOf(proto, &shape, &count))
        return SummaryTr::tr("its shape is invalid");
    if (count > kMaxTensorElements)
        return SummaryTr::tr("it has %L1 elements, more than the %L2 kept").arg(count).arg(kMaxTensorElements);
    const int item = models::tensor::itemSize(*type);
    if (QString why = spend(budget, count * item); !why.isEmpty())
        return why;
    std::vector<std::byte> bytes;
    const std::string& content = proto.tensor_content();
    bool ok = true;
    if (!content.empty()) {
        if (qint64(content.size()) != count * item)
            return SummaryTr::tr("its %1 bytes of content do not match its shape %2 of %3")
                .arg(content.size())
                .arg(models::tensor::shapeText(shape), dtypeText(proto.dtype()));
        bytes.resize(content.size());
        std::memcpy(bytes.data(), content.data(), content.size());
    } else {
        switch (*type) {
        case models::tensor::DType::Float32:
            ok = fillFrom<float>(proto.float_val(), count, &bytes, identity<float>);
            break;
        case models::tensor::DType::Float64:
            ok = fillFrom<double>(proto.double_val(), count, &bytes, identity<double>);
            break;
        case models::tensor::DType::Float16:
        case models::tensor::DType::BFloat16:
            ok = fillFrom<std::uint16_t>(proto.half_val(), count, &bytes,
                                         [](std::int32_t v) { return std::uint16_t(v & 0xffff); });
            break;
        case models::tensor::DType::Int8:
            ok = fillFrom<std::int8_t>(proto.int_val(), count, &bytes, [](std::int32_t v) { return std::int8_t(v); });
            break;
        case models::tensor::DType::UInt8:
            ok = fillFrom<std::uint8_t>(proto.int_val(), count, &bytes, [](std::int32_t v) { return std::uint8_t(v); });
            break;
        case models::tensor::DType::Int16:
            ok = fillFrom<std::int16_t>(proto.int_val(), count, &bytes, [](std::int32_t v) { return std::int16_t(v); });
            break;
        case models::tensor::DType::UInt16:
            ok = fillFrom<std::uint16_t>(proto.int_val(), count, &bytes,
                                         [](std::int32_t v) { return std::uint16_t(v); });
            break;
        case models::tensor::DType::Int32:
            ok = fillFrom<std::int32_t>(proto.int_val(), count, &bytes, identity<std::int32_t>);
            break;
        case models::tensor::DType::Int64:
            ok = fillFrom<std::int64_t>(proto.int64_val(), count, &bytes, identity<std::int64_t>);
            break;
        case models::tensor::DType::UInt32:
            ok = fillFrom<std::uint32_t>(proto.uint32_val(), count, &bytes, identity<std::uint32_t>);
            break;
        case models::tensor::DType::UInt64:
            ok = fillFrom<std::uint64_t>(proto.uint64_val(), count, &bytes, identity<std::uint64_t>);
            break;
        case models::tensor::DType::Bool:
            ok = fillFrom<std::uint8_t>(proto.bool_val(), count, &bytes, [](bool v) { return std::uint8_t(v); });
            break;
        default:
            ok = false;
        }
        if (!ok)
            return SummaryTr::tr("its shape %1 holds %2 elements but no values are recorded")
                .arg(models::tensor::shapeText(shape))
                .arg(count);
    }
    models::tensor::Tensor result;
    result.dtype = *type;
    result.shape = std::move(shape);
    result.strides = models::tensor::Tensor::contiguousStrides(result.shape, item);
    // Event files are little-endian whatever machine wrote them; the typed fields were stored natively.
    result.swap = !content.empty() && std::endian::native == std::endian::big;
    result.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
    *out = std::move(result);
    return {};
}

std::vector<double> tensorValues(const models::tensor::Tensor& t)
{
    std::vector<double> values;
    const qint64 count = t.elementCount();
    if (!t.data || count <= 0)
        return values;
    values.reserve(std::size_t(count));
    std::vector<std::int64_t> index(t.shape.size(), 0);
    const std::byte* base = t.data->data();
    for (qint64 i = 0; i < count; ++i) {
        std::int64_t at = t.offset;
        for (std::size_t k = 0; k < index.size(); ++k)
            at += index[k] * t.strides[k];
        values.push_back(models::tensor::loadElement(base + at, t.dtype, t.swap));
        for (int k = int(index.size()) - 1; k >= 0; --k) {
            if (++index[std::size_t(k)] < t.shape[std::size_t(k)])
                break;
            index[std::size_t(k)] = 0;
        }
    }
    return values;
}

bool tensorScalar(const tb::TensorProto& proto, double* value)
{
    for (const auto& dim : proto.tensor_shape().dim()) {
        if (dim.size() != 1)
            return false;
    }
    models::tensor::Tensor t;
    if (!numericTensor(proto, &t).isEmpty() || t.elementCount() != 1)
        return false;
    *value = models::tensor::loadElement(t.data->data(), t.dtype, t.swap);
    return true;
}

QString histogramFromProto(const tb::HistogramProto& proto, models::summary::Histogram* out, ImportBudget* budget)
{
    if (proto.bucket_size() != proto.bucket_limit_size())
        return SummaryTr::tr("it has %1 bucket counts for %2 bucket limits")
            .arg(proto.bucket_size())
            .arg(proto.bucket_limit_size());
    if (proto.bucket_size() > kMaxHistogramBuckets)
        return SummaryTr::tr("it has %L1 buckets, more than the %L2 kept")
            .arg(proto.bucket_size())
            .arg(kMaxHistogramBuckets);
    if (QString why = spend(budget, qint64(proto.bucket_size()) * qint64(sizeof(models::summary::HistogramBucket)));
        !why.isEmpty())
        return why;
    models::summary::Histogram h;
    h.min = proto.min();
    h.max = proto.max();
    h.count = proto.num();
    h.sum = proto.sum();
    h.sumSquares = proto.sum_squares();
    int first = 0;
    int last = proto.bucket_size() - 1;
    while (first <= last && proto.bucket(first) == 0.0)
        ++first;
    while (last >= first && proto.bucket(last) == 0.0)
        --last;
    for (int i = first; i <= last; ++i) {
        // Writers give the outermost buckets limits of ±DBL_MAX: the recorded min and max bound them.
        models::summary::HistogramBucket bucket;
        bucket.right = proto.bucket_limit(i);
        if (i == first && std::isfinite(h.min))
            bucket.left = std::min(h.min, bucket.right);
        else
            bucket.left = i > 0 ? proto.bucket_limit(i - 1) : bucket.right;
        if (i == last && std::isfinite(h.max))
            bucket.right = std::clamp(h.max, bucket.left, bucket.right);
        bucket.count = proto.bucket(i);
        h.buckets.push_back(bucket);
    }
    *out = std::move(h);
    return {};
}

QString histogramFromTensor(const tb::TensorProto& proto, models::summary::Histogram* out, ImportBudget* budget)
{
    // The declared shape is checked before numericTensor() makes the elements: [k, 3] rows, k capped.
    std::vector<std::int64_t> shape;
    qint64 count = 0;
    if (shapeOf(proto, &shape, &count)) {
        if (count / 3 > kMaxHistogramBuckets)
            return SummaryTr::tr("it has %L1 buckets, more than the %L2 kept").arg(count / 3).arg(kMaxHistogramBuckets);
        if (QString why = spend(budget, count / 3 * qint64(sizeof(models::summary::HistogramBucket))); !why.isEmpty())
            return why;
    }
    models::tensor::Tensor t;
    if (QString why = numericTensor(proto, &t, budget); !why.isEmpty())
        return why;
    // An empty histogram is written as shape [0, 3] (or [0]).
    if (t.elementCount() == 0) {
        *out = models::summary::Histogram();
        return {};
    }
    if (t.rank() != 2 || t.shape[1] != 3)
        return SummaryTr::tr("a histogram tensor must have the shape [k, 3], not %1")
            .arg(models::tensor::shapeText(t.shape));
    const std::vector<double> v = tensorValues(t);
    models::summary::Histogram h;
    for (std::size_t row = 0; row + 2 < v.size(); row += 3)
        h.buckets.push_back(models::summary::HistogramBucket { v[row], v[row + 1], v[row + 2] });
    // TF2 histograms record buckets only: the edges bound min and max.
    h.count = h.bucketTotal();
    h.min = h.lowestEdge();
    h.max = h.highestEdge();
    *out = std::move(h);
    return {};
}

QString histogramFromMindSpore(const ms::Summary_Histogram& proto, models::summary::Histogram* out,
                               ImportBudget* budget)
{
    if (proto.buckets_size() > kMaxHistogramBuckets)
        return SummaryTr::tr("it has %L1 buckets, more than the %L2 kept")
            .arg(proto.buckets_size())
            .arg(kMaxHistogramBuckets);
    if (QString why = spend(budget, qint64(proto.buckets_size()) * qint64(sizeof(models::summary::HistogramBucket)));
        !why.isEmpty())
        return why;
    models::summary::Histogram h;
    h.nanCount = proto.nan_count();
    h.posInfCount = proto.pos_inf_count();
    h.negInfCount = proto.neg_inf_count();
    if (proto.has_min())
        h.min = proto.min();
    if (proto.has_max())
        h.max = proto.max();
    if (proto.has_sum())
        h.sum = proto.sum();
    for (const auto& bucket : proto.buckets()) {
        if (bucket.width() < 0.0 || bucket.count() < 0)
            return SummaryTr::tr("a bucket has a negative width or count");
        h.buckets.push_back(
            models::summary::HistogramBucket { bucket.left(), bucket.left() + bucket.width(), double(bucket.count()) });
    }
    std::sort(h.buckets.begin(), h.buckets.end(),
              [](const models::summary::HistogramBucket& a, const models::summary::HistogramBucket& b) {
                  return a.left < b.left;
              });
    // MindSpore's count includes NaN and infinities; ours counts the finite values the buckets hold.
    h.count = h.bucketTotal();
    *out = std::move(h);
    return {};
}

QString imagesFromTensor(const tb::TensorProto& proto, models::summary::SummaryImage* out, ImportBudget* budget)
{
    if (proto.dtype() != tb::DT_STRING)
        return SummaryTr::tr("it is a %1 tensor, not a string tensor").arg(dtypeText(proto.dtype()));
    if (proto.string_val_size() < 2)
        return SummaryTr::tr("an image tensor must start with the width and the height");
    bool widthOk = false;
    bool heightOk = false;
    const int width = fromUtf8(proto.string_val(0)).toInt(&widthOk);
    const int height = fromUtf8(proto.string_val(1)).toInt(&heightOk);
    if (!widthOk || !heightOk || width < 0 || height < 0)
        return SummaryTr::tr("its first two strings are not the image width and height");
    qint64 encodedBytes = 0;
    for (int i = 2; i < proto.string_val_size(); ++i)
        encodedBytes += qint64(proto.string_val(i).size());
    if (QString why = spend(budget, encodedBytes); !why.isEmpty())
        return why;
    models::summary::SummaryImage image;
    image.width = width;
    image.height = height;
    for (int i = 2; i < proto.string_val_size(); ++i)
        image.encoded.append(QByteArray(proto.string_val(i).data(), qsizetype(proto.string_val(i).size())));
    *out = std::move(image);
    return {};
}

void completeAudioFormat(models::summary::SummaryAudio* audio)
{
    if (audio->clips.isEmpty())
        return;
    // The WAV header is what a player goes by; writers' own fields can be wrong (VisualDL's length_frames
    // counts bytes), so the header wins where it can be read.
    models::summary::wav::Header header;
    if (!models::summary::wav::readHeader(audio->clips.front().encoded, &header).isEmpty())
        return;
    audio->sampleRate = header.sampleRate;
    audio->channels = header.channels;
    audio->frames = header.frames;
    if (audio->contentType.isEmpty())
        audio->contentType = QStringLiteral("audio/wav");
}

QString audioFromTensor(const tb::TensorProto& proto, models::summary::SummaryAudio* out, ImportBudget* budget)
{
    if (proto.dtype() != tb::DT_STRING)
        return SummaryTr::tr("it is a %1 tensor, not a string tensor").arg(dtypeText(proto.dtype()));
    std::vector<std::int64_t> shape;
    qint64 count = 0;
    if (!shapeOf(proto, &shape, &count))
        return SummaryTr::tr("its shape is not valid");
    // [k, 2]: (WAV bytes, label) rows; [k]: clips without labels.
    const bool labelled = shape.size() == 2 && shape[1] == 2;
    if (!labelled && shape.size() != 1)
        return SummaryTr::tr("an audio tensor has the shape [clips, 2] or [clips]");
    if (count != proto.string_val_size())
        return SummaryTr::tr("it declares %L1 strings but holds %L2").arg(count).arg(proto.string_val_size());
    qint64 bytes = 0;
    for (const std::string& value : proto.string_val())
        bytes += qint64(value.size());
    if (QString why = spend(budget, bytes); !why.isEmpty())
        return why;
    models::summary::SummaryAudio audio;
    const int stride = labelled ? 2 : 1;
    for (int i = 0; i + stride <= proto.string_val_size(); i += stride) {
        const std::string& wav = proto.string_val(i);
        models::summary::AudioClip clip;
        clip.encoded = QByteArray(wav.data(), qsizetype(wav.size()));
        if (labelled)
            clip.label = fromUtf8(proto.string_val(i + 1));
        audio.clips.append(std::move(clip));
    }
    audio.contentType = QStringLiteral("audio/wav"); // the only encoding the plugin has
    completeAudioFormat(&audio);
    *out = std::move(audio);
    return {};
}

QString textFromTensor(const tb::TensorProto& proto, models::summary::SummaryText* out, ImportBudget* budget)
{
    models::summary::SummaryText text;
    std::vector<std::int64_t> shape;
    if (QString why = stringTensor(proto, &shape, &text.cells, budget); !why.isEmpty())
        return why;
    text.shape.assign(shape.begin(), shape.end());
    *out = std::move(text);
    return {};
}

QString prCurveFromTensor(const tb::TensorProto& proto, models::summary::PrCurve* out, ImportBudget* budget)
{
    std::vector<std::int64_t> shape;
    qint64 count = 0;
    if (shapeOf(proto, &shape, &count)) {
        if (count / 6 > kMaxPrCurveThresholds)
            return SummaryTr::tr("it has %L1 thresholds, more than the %L2 kept")
                .arg(count / 6)
                .arg(kMaxPrCurveThresholds);
        if (QString why = spend(budget, count * qint64(sizeof(double))); !why.isEmpty())
            return why;
    }
    models::tensor::Tensor t;
    if (QString why = numericTensor(proto, &t, budget); !why.isEmpty())
        return why;
    if (t.rank() != 2 || t.shape[0] != 6)
        return SummaryTr::tr("a PR curve tensor must have the shape [6, N], not %1")
            .arg(models::tensor::shapeText(t.shape));
    const std::vector<double> v = tensorValues(t);
    const std::size_t n = std::size_t(t.shape[1]);
    models::summary::PrCurve curve;
    std::vector<double>* rows[] = { &curve.truePositives,  &curve.falsePositives, &curve.trueNegatives,
                                    &curve.falseNegatives, &curve.precision,      &curve.recall };
    for (std::size_t row = 0; row < 6; ++row)
        rows[row]->assign(v.begin() + std::ptrdiff_t(row * n), v.begin() + std::ptrdiff_t((row + 1) * n));
    *out = std::move(curve);
    return {};
}

namespace {

QVariant paramValue(const tb::ParamValue& value)
{
    if (value.has_number_value())
        return value.number_value();
    if (value.has_string_value())
        return fromUtf8(value.string_value());
    if (value.has_bool_value())
        return value.bool_value();
    if (value.has_list_value()) {
        QVariantList list;
        for (const tb::ParamValue& item : value.list_value().values())
            list << paramValue(item);
        return list;
    }
    return {};
}

} // namespace

QString hparamsFromPluginData(const std::string& content, models::summary::HParams* out)
{
    tb::HParamsPluginData data;
    if (!data.ParseFromString(content))
        return SummaryTr::tr("its hyper-parameters plugin data cannot be decoded");
    if (data.has_experiment()) {
        const tb::HParamsExperiment& e = data.experiment();
        out->experimentName = fromUtf8(e.name());
        out->experimentDescription = fromUtf8(e.description());
        out->hparamInfos.clear();
        for (const tb::HParamsInfo& info : e.hparam_infos()) {
            models::summary::HParamInfo h;
            h.name = fromUtf8(info.name());
            h.displayName = fromUtf8(info.display_name());
            h.description = fromUtf8(info.description());
            static const char* const kTypes[] = { "", "string", "bool", "float64" };
            h.type = info.type() >= 0 && info.type() < 4 ? QString::fromLatin1(kTypes[info.type()]) : QString();
            if (info.has_domain_discrete()) {
                for (const tb::ParamValue& value : info.domain_discrete().values())
                    h.domainValues << paramValue(value);
            }
            if (info.has_domain_interval()) {
                h.domainMin = info.domain_interval().min_value();
                h.domainMax = info.domain_interval().max_value();
            }
            out->hparamInfos << h;
        }
        out->metricInfos.clear();
        for (const tb::HParamsMetricInfo& info : e.metric_infos()) {
            models::summary::MetricInfo m;
            m.tag = fromUtf8(info.name().tag());
            m.group = fromUtf8(info.name().group());
            m.displayName = fromUtf8(info.display_name());
            m.description = fromUtf8(info.description());
            out->metricInfos << m;
        }
    }
    if (data.has_session_start_info()) {
        const tb::HParamsSessionStart& s = data.session_start_info();
        for (const tb::HParamsEntry& entry : s.hparams())
            out->values.insert(fromUtf8(entry.key()), paramValue(entry.value()));
        out->modelUri = fromUtf8(s.model_uri());
        out->groupName = fromUtf8(s.group_name());
        if (s.start_time_secs() != 0.0)
            out->startTime = s.start_time_secs();
    }
    if (data.has_session_end_info()) {
        const tb::HParamsSessionEnd& e = data.session_end_info();
        static const char* const kStatus[] = { "unknown", "success", "failure", "running" };
        out->status = QString::fromLatin1(e.status() >= 0 && e.status() < 4 ? kStatus[e.status()] : "unknown");
        if (e.end_time_secs() != 0.0)
            out->endTime = e.end_time_secs();
    }
    return {};
}

QString mindSporeTensor(const ms::TensorProto& proto, models::tensor::Tensor* out, ImportBudget* budget)
{
    std::vector<std::int64_t> shape;
    qint64 count = 1;
    for (const std::int64_t dim : proto.dims()) {
        if (dim < 0 || (dim > 0 && count > std::numeric_limits<qint64>::max() / dim))
            return SummaryTr::tr("its shape is invalid");
        shape.push_back(dim);
        count *= dim;
    }
    if (count > kMaxTensorElements)
        return SummaryTr::tr("it has %L1 elements, more than the %L2 kept").arg(count).arg(kMaxTensorElements);
    if (count != proto.float_data_size())
        return SummaryTr::tr("its shape %1 holds %2 elements but %3 values are recorded")
            .arg(models::tensor::shapeText(shape))
            .arg(count)
            .arg(proto.float_data_size());
    if (QString why = spend(budget, count * qint64(sizeof(float))); !why.isEmpty())
        return why;
    std::vector<std::byte> bytes(std::size_t(count) * sizeof(float));
    if (count > 0)
        std::memcpy(bytes.data(), proto.float_data().data(), bytes.size());
    models::tensor::Tensor t;
    t.dtype = models::tensor::DType::Float32;
    t.shape = std::move(shape);
    t.strides = models::tensor::Tensor::contiguousStrides(t.shape, 4);
    t.data = std::make_shared<models::tensor::MemoryTensorData>(std::move(bytes));
    *out = std::move(t);
    return {};
}

} // namespace runlens::importers::summary::values
