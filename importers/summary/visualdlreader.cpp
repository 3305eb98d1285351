#include "importers/summary/visualdlreader.h"

#include "importers/embeddings/projectorreader.h"
#include "importers/summary/proto/vdl_record.pb.h"
#include "importers/summary/summarytr.h"
#include "importers/summary/summaryvalues.h"
#include "importers/summary/taginterner.h"
#include "models/summary/reservoir.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace runlens::importers::summary {

Q_LOGGING_CATEGORY(lcVisualDl, "runlens.importers.summary.visualdl", QtWarningMsg)

namespace {

constexpr qint64 kHeaderSize = 8;
/// Undecodable records are reported this often per file; further ones are only counted.
constexpr int kMaxUndecodableReports = 20;
/// Values whose arrays do not fit together are reported this often per file; further ones are only counted.
constexpr int kMaxBadValueReports = 20;
/// Cancellation and progress are checked every this many records.
constexpr qint64 kRecordsPerCheck = 8192;
/// Metadata columns kept of one embeddings value, as for projector folders.
constexpr int kMaxEmbeddingColumns = 256;

/// The kinds of values this reader counts but does not deliver.
enum class OtherKind { HParam, TagValue, Count };

QString otherKindName(OtherKind kind)
{
    const char* text = nullptr;
    switch (kind) {
    case OtherKind::HParam:
        text = QT_TRANSLATE_NOOP("runlens::summary", "hyper-parameters");
        break;
    case OtherKind::TagValue:
        text = QT_TRANSLATE_NOOP("runlens::summary", "tagged values");
        break;
    case OtherKind::Count:
        break;
    }
    return text ? SummaryTr::tr(text) : QString();
}

/// What is kept of one tag's values of one summary kind.
template<typename Item> struct Kept
{
    std::optional<models::summary::Reservoir<Item>> reservoir; ///< created with the tag's first value of this kind
    qint64 preempted = 0; ///< values removed by step regressions so far
    bool touched = false; ///< got a value in the current poll
};

struct TagState
{
    QString name;
    bool metadataDelivered = false;
    int batch = -1; ///< index of this tag's TagPoints in the current update, or -1
    Kept<models::summary::Histogram> histograms;
    Kept<models::summary::SummaryImage> images;
    Kept<models::summary::SummaryText> texts;
    Kept<models::summary::SummaryAudio> audio;
    Kept<models::summary::PrCurve> prCurves;
    Kept<models::summary::PrCurve> rocCurves;
    models::embeddings::EmbeddingSetPtr embeddings; ///< the latest add_embeddings value read
    bool embeddingsTouched = false; ///< got an embeddings value in the current poll
    std::array<qint64, std::size_t(OtherKind::Count)> others = {}; ///< values of each other kind so far
    std::uint32_t announced = 0; ///< bit per OtherKind: the Info diagnostic was given
};

QString fromUtf8(const std::string& bytes)
{
    return QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
}

/// Adds one value to a tag's reservoir of its kind, remembering the tag as changed in this poll.
template<typename Item> void keep(Kept<Item>& kept, int tag, int capacity, std::vector<int>& touched, Item item)
{
    if (!kept.reservoir)
        kept.reservoir.emplace(capacity);
    kept.preempted += kept.reservoir->add(std::move(item));
    if (!kept.touched) {
        kept.touched = true;
        touched.push_back(tag);
    }
}

template<typename Item> Item stamped(qint64 step, double wallTime)
{
    Item item;
    item.step = step;
    item.wallTime = wallTime;
    return item;
}

/// The whole kept series of each changed tag, in the order the tags first changed in this poll.
template<typename Item>
void takeSeries(std::vector<TagState>& tags, std::vector<int>& touched, Kept<Item> TagState::*member,
                const QString& pluginName, std::vector<models::summary::SummarySeries<Item>>& out)
{
    out.reserve(touched.size());
    for (const int tag : touched) {
        TagState& state = tags[std::size_t(tag)];
        Kept<Item>& kept = state.*member;
        kept.touched = false;
        models::summary::SummarySeries<Item> series;
        series.tag = state.name;
        series.metadata.pluginName = pluginName;
        series.items = kept.reservoir->items();
        series.seen = kept.reservoir->seen();
        series.preempted = kept.preempted;
        out.push_back(std::move(series));
    }
    touched.clear();
}

/// VisualDL's histogram is numpy.histogram's output: `hist` counts and `bin_edges` one longer; bucket i
/// holds (edges[i], edges[i + 1]], and numpy's default range puts the data's min and max on the outer
/// edges. Returns why the value cannot be read, or an empty string.
QString histogramFromVisualDl(const runlens::vdl::Record::Histogram& proto, models::summary::Histogram* out)
{
    const int buckets = proto.hist_size();
    if (buckets == 0 && proto.bin_edges_size() <= 1) {
        out->count = 0.0;
        return {};
    }
    if (proto.bin_edges_size() != buckets + 1)
        return SummaryTr::tr("it has %1 counts but %2 bucket edges, where one edge more than counts is expected")
            .arg(buckets)
            .arg(proto.bin_edges_size());
    if (buckets > values::kMaxHistogramBuckets)
        return SummaryTr::tr("it has %L1 buckets, more than the %L2 kept")
            .arg(buckets)
            .arg(values::kMaxHistogramBuckets);
    for (int i = 0; i <= buckets; ++i) {
        const double edge = proto.bin_edges(i);
        if (!std::isfinite(edge) || (i > 0 && edge < proto.bin_edges(i - 1)))
            return SummaryTr::tr("its bucket edges are not finite increasing numbers (edge %1 is %2)").arg(i).arg(edge);
    }
    double total = 0.0;
    out->buckets.reserve(std::size_t(buckets));
    for (int i = 0; i < buckets; ++i) {
        const double count = proto.hist(i);
        if (!std::isfinite(count) || count < 0.0)
            return SummaryTr::tr("bucket %1 has the count %2").arg(i).arg(count);
        out->buckets.push_back(models::summary::HistogramBucket { proto.bin_edges(i), proto.bin_edges(i + 1), count });
        total += count;
    }
    out->min = proto.bin_edges(0);
    out->max = proto.bin_edges(buckets);
    out->count = total;
    return {};
}

/// VisualDL's PR curve: the six arrays of compute_curve, entry i at the threshold i / (N - 1) as in
/// TensorBoard. Returns why the value cannot be read, or an empty string.
QString prCurveFromVisualDl(const runlens::vdl::Record::PrCurve& proto, models::summary::PrCurve* out)
{
    const int n = proto.precision_size();
    if (n == 0 && proto.tp_size() == 0 && proto.recall_size() == 0)
        return SummaryTr::tr("it holds no thresholds");
    if (n == 0 || proto.tp_size() != n || proto.fp_size() != n || proto.tn_size() != n || proto.fn_size() != n
        || proto.recall_size() != n)
        return SummaryTr::tr("its arrays differ in length (TP %1, FP %2, TN %3, FN %4, precision %5, recall %6)")
            .arg(proto.tp_size())
            .arg(proto.fp_size())
            .arg(proto.tn_size())
            .arg(proto.fn_size())
            .arg(proto.precision_size())
            .arg(proto.recall_size());
    if (n > values::kMaxPrCurveThresholds)
        return SummaryTr::tr("it has %L1 thresholds, more than the %L2 kept").arg(n).arg(values::kMaxPrCurveThresholds);
    auto toDoubles = [](const auto& values) { return std::vector<double>(values.begin(), values.end()); };
    out->truePositives = toDoubles(proto.tp());
    out->falsePositives = toDoubles(proto.fp());
    out->trueNegatives = toDoubles(proto.tn());
    out->falseNegatives = toDoubles(proto.fn());
    out->precision = toDoubles(proto.precision());
    out->recall = toDoubles(proto.recall());
    return {};
}

/// VisualDL's ROC curve: the counts of compute_roc_curve, entry i at the threshold i / (N - 1) as for PR
/// curves. Its stored tpr is TP / (TN + FP), not a rate, so only the counts are kept; precision and recall
/// are derived from them (0 where nothing is predicted positive, as the PR writers store it).
QString rocCurveFromVisualDl(const runlens::vdl::Record::RocCurve& proto, models::summary::PrCurve* out)
{
    const int n = proto.tp_size();
    if (n == 0 && proto.fp_size() == 0 && proto.tpr_size() == 0)
        return SummaryTr::tr("it holds no thresholds");
    if (n == 0 || proto.fp_size() != n || proto.tn_size() != n || proto.fn_size() != n)
        return SummaryTr::tr("its count arrays differ in length (TP %1, FP %2, TN %3, FN %4)")
            .arg(proto.tp_size())
            .arg(proto.fp_size())
            .arg(proto.tn_size())
            .arg(proto.fn_size());
    if (n > values::kMaxPrCurveThresholds)
        return SummaryTr::tr("it has %L1 thresholds, more than the %L2 kept").arg(n).arg(values::kMaxPrCurveThresholds);
    auto toDoubles = [](const auto& values) { return std::vector<double>(values.begin(), values.end()); };
    out->truePositives = toDoubles(proto.tp());
    out->falsePositives = toDoubles(proto.fp());
    out->trueNegatives = toDoubles(proto.tn());
    out->falseNegatives = toDoubles(proto.fn());
    out->precision.resize(std::size_t(n));
    out->recall.resize(std::size_t(n));
    for (std::size_t i = 0; i < std::size_t(n); ++i) {
        const double tp = out->truePositives[i];
        const double predicted = tp + out->falsePositives[i];
        const double positives = tp + out->falseNegatives[i];
        out->precision[i] = predicted > 0.0 ? tp / predicted : 0.0;
        out->recall[i] = positives > 0.0 ? tp / positives : 0.0;
    }
    return {};
}

/// What reading one add_embeddings value met besides its points, for the warnings.
struct EmbeddingIssues
{
    qint64 points = 0; ///< points in the value
    qint64 wrongWidth = 0; ///< points skipped: not as many coordinates as the first point
    qint64 nonFinite = 0; ///< coordinates read as 0
    qint64 cutRows = 0; ///< points beyond the row limit
    int fullDims = 0; ///< the first point's coordinates, before the dimension limit
    int headerColumns = 0; ///< columns named by label_meta, before the column limit
};

/// VisualDL's add_embeddings value: one Embedding per point (its coordinates and one label per metadata
/// column) and, when the writer had a metadata header, the column names. Points are kept in order up to
/// the limits; a point whose coordinates do not number as many as the first point's is skipped, and a
/// coordinate that is not a finite number reads as 0 (both reported by the caller from `issues`).
/// Returns why the value cannot be read at all, or an empty string.
QString embeddingsFromVisualDl(const runlens::vdl::Record::Embeddings& proto,
                               const importers::embeddings::ProjectorLimits& limits,
                               models::embeddings::EmbeddingSet* out, EmbeddingIssues* issues)
{
    const int n = proto.embeddings_size();
    issues->points = n;
    if (n == 0)
        return SummaryTr::tr("it holds no points");
    const int dims = proto.embeddings(0).vectors_size();
    if (dims == 0)
        return SummaryTr::tr("its first point has no coordinates");
    issues->fullDims = dims;
    const int keptDims = std::min(dims, std::max(1, limits.maxDims));
    const qint64 maxRows
        = std::max<qint64>(1, std::min<qint64>(limits.maxRows, limits.maxValues / std::max<qint64>(1, keptDims)));

    // Column names: the header when there is one; otherwise the first point's labels say how many.
    issues->headerColumns = proto.label_meta_size();
    const int headerColumns = std::min(proto.label_meta_size(), kMaxEmbeddingColumns);
    if (headerColumns > 0) {
        for (int c = 0; c < headerColumns; ++c)
            out->metadataColumns.append(fromUtf8(proto.label_meta(c)));
    } else {
        const int labels = std::min(proto.embeddings(0).label_size(), kMaxEmbeddingColumns);
        if (labels == 1) {
            out->metadataColumns.append(SummaryTr::tr("label"));
        } else {
            for (int c = 0; c < labels; ++c)
                out->metadataColumns.append(SummaryTr::tr("label %1").arg(c + 1));
        }
    }
    const int columns = int(out->metadataColumns.size());

    out->dims = keptDims;
    out->values.reserve(std::size_t(std::min<qint64>(n, maxRows)) * std::size_t(keptDims));
    if (columns > 0)
        out->metadata.reserve(std::size_t(std::min<qint64>(n, maxRows)));
    for (int i = 0; i < n; ++i) {
        const auto& point = proto.embeddings(i);
        if (point.vectors_size() != dims) {
            ++issues->wrongWidth;
            continue;
        }
        if (out->rows >= maxRows) {
            ++issues->cutRows;
            continue;
        }
        for (int d = 0; d < keptDims; ++d) {
            const float v = point.vectors(d);
            if (std::isfinite(v)) {
                out->values.push_back(v);
            } else {
                out->values.push_back(0.0f);
                ++issues->nonFinite;
            }
        }
        if (columns > 0) {
            QStringList cells;
            cells.reserve(columns);
            for (int c = 0; c < columns; ++c)
                cells.append(c < point.label_size() ? fromUtf8(point.label(c)) : QString());
            out->metadata.push_back(std::move(cells));
        }
        ++out->rows;
    }
    return {};
}

std::uint64_t loadLe64(const char* p)
{
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i)
        value = (value << 8) | std::uint8_t(p[i]);
    return value;
}

} // namespace

struct VisualDlReader::Private
{
    Private(QString path, models::summary::SummaryLimits limits)
        : path(std::move(path))
        , file(QFileInfo(this->path).absoluteFilePath())
        , limits(limits)
    { }

    void readRecords(QFile& input, const ImportControl& control, ImportUpdate& result);
    bool decode(const std::string& payload, qint64 at);
    int tagIndex(const std::string& bytes);
    void addPoint(int tag, qint64 step, double wallTime, double value);
    void countOther(int tag, OtherKind kind);
    void readEmbeddings(int tag, qint64 step, const runlens::vdl::Record::Embeddings& proto, qint64 at);
    void warn(qint64 at, const QString& message);
    void badValue(qint64 at, const QString& tag, qint64 step, const QString& kind, const QString& reason);
    /// Keeps a decoded value, or reports `why` it could not be decoded (`kind` names it in the message).
    template<typename Item>
    void keepOrReport(Kept<Item>& kept, int tag, int capacity, std::vector<int>& touched, Item item, const QString& why,
                      qint64 at, const QString& kind)
    {
        if (why.isEmpty())
            keep(kept, tag, capacity, touched, std::move(item));
        else
            badValue(at, tags[std::size_t(tag)].name, item.step, kind, why);
    }
    std::shared_ptr<const models::summary::SummaryBatch> takeSummaries();
    void fail(qint64 at, const QString& message);
    void finishPoll();
    models::ImportStatus status() const;

    QString path;
    QString file; ///< absolute path for diagnostics
    models::summary::SummaryLimits limits;
    importers::embeddings::ProjectorLimits embeddingLimits;
    int embeddingTags = 0; ///< tags with an embedding set
    bool embeddingTagsCut = false; ///< a tag's embeddings were not read for the limit on their number
    std::uint64_t maxPayload = kDefaultMaxPayload;
    qint64 offset = 0;
    bool dead = false;
    bool hadProblems = false;
    qint64 goodRecords = 0;
    int undecodableReports = 0;
    qint64 undecodableUnreported = 0;
    int badValueReports = 0;
    qint64 badValuesUnreported = 0;
    QString displayName;

    runlens::vdl::Record record;
    std::string payload; ///< reused between records

    TagInterner tagIndices;
    std::vector<TagState> tags; ///< by TagInterner index
    std::vector<int> touchedTags; ///< tags with a scalar batch in the current update
    std::vector<int> touchedHistograms; ///< tags with new values of each kind in the current poll
    std::vector<int> touchedImages;
    std::vector<int> touchedTexts;
    std::vector<int> touchedAudio;
    std::vector<int> touchedPrCurves;
    std::vector<int> touchedRocCurves;
    std::vector<int> touchedEmbeddings;
    std::vector<std::pair<int, OtherKind>> toAnnounce; ///< (tag, kind) first seen in the current poll

    ImportUpdate* update = nullptr; ///< valid during one poll
};

int VisualDlReader::Private::tagIndex(const std::string& bytes)
{
    bool added = false;
    const int index = tagIndices.intern(bytes, &added);
    if (added) {
        TagState state;
        state.name = fromUtf8(bytes);
        tags.push_back(std::move(state));
    }
    return index;
}

void VisualDlReader::Private::addPoint(int tag, qint64 step, double wallTime, double value)
{
    TagState& state = tags[std::size_t(tag)];
    if (state.batch < 0) {
        state.batch = int(update->scalars.size());
        touchedTags.push_back(tag);
        models::scalars::TagPoints points;
        points.tag = state.name;
        if (!state.metadataDelivered) {
            points.metadata = models::scalars::TagMetadata {};
            state.metadataDelivered = true;
        }
        update->scalars.push_back(std::move(points));
    }
    update->scalars[std::size_t(state.batch)].points.push_back(models::scalars::ScalarPoint { step, wallTime, value });
}

void VisualDlReader::Private::countOther(int tag, OtherKind kind)
{
    TagState& state = tags[std::size_t(tag)];
    const auto bit = std::uint32_t(1) << unsigned(kind);
    if (state.others[std::size_t(kind)]++ == 0 && !(state.announced & bit)) {
        state.announced |= bit;
        toAnnounce.emplace_back(tag, kind);
    }
}

void VisualDlReader::Private::warn(qint64 at, const QString& message)
{
    if (badValueReports >= kMaxBadValueReports) {
        ++badValuesUnreported;
        return;
    }
    ++badValueReports;
    update->diagnostics.append(models::Diagnostic { models::Severity::Warning, file, at, -1, message });
}

void VisualDlReader::Private::readEmbeddings(int tag, qint64 step, const runlens::vdl::Record::Embeddings& proto,
                                             qint64 at)
{
    TagState& state = tags[std::size_t(tag)];
    if (!state.embeddings && embeddingTags >= embeddingLimits.maxEmbeddings) {
        // Each set is bounded, their number too: a log of countless tiny sets cannot fill the memory.
        if (!embeddingTagsCut) {
            embeddingTagsCut = true;
            warn(at,
                 SummaryTr::tr("The log holds embeddings of more than %L1 tags; those of the tag \"%2\" and "
                               "of further new tags are not read.")
                     .arg(embeddingLimits.maxEmbeddings)
                     .arg(state.name));
        }
        return;
    }
    auto set = std::make_shared<models::embeddings::EmbeddingSet>();
    set->name = state.name;
    set->source = file;
    EmbeddingIssues issues;
    const QString why = embeddingsFromVisualDl(proto, embeddingLimits, set.get(), &issues);
    if (!why.isEmpty()) {
        badValue(at, state.name, step, SummaryTr::tr("embeddings"), why);
        return;
    }
    // Damaged points are skipped and the rest kept; limits cut without calling the file damaged.
    auto what = [&] { return SummaryTr::tr("The embeddings of the tag \"%1\" at step %2").arg(state.name).arg(step); };
    if (issues.wrongWidth > 0) {
        hadProblems = true;
        warn(at,
             SummaryTr::tr("%1: %n point(s) were skipped whose coordinates do not number %2 like the first "
                           "point's. The writer or the file is damaged.",
                           nullptr, int(std::min<qint64>(issues.wrongWidth, INT_MAX)))
                 .arg(what())
                 .arg(issues.fullDims));
    }
    if (issues.nonFinite > 0) {
        hadProblems = true;
        warn(at,
             SummaryTr::tr("%1: %n coordinate(s) that are not finite numbers read as 0.", nullptr,
                           int(std::min<qint64>(issues.nonFinite, INT_MAX)))
                 .arg(what()));
    }
    if (issues.fullDims > set->dims) {
        warn(at,
             SummaryTr::tr("%1 have %L2 dimensions; only the first %L3 are read.")
                 .arg(what())
                 .arg(issues.fullDims)
                 .arg(set->dims));
    }
    if (issues.cutRows > 0) {
        warn(at,
             SummaryTr::tr("%1 hold %L2 points; only the first %L3 are read.")
                 .arg(what())
                 .arg(issues.points - issues.wrongWidth)
                 .arg(set->rows));
    }
    if (issues.headerColumns > int(set->metadataColumns.size())) {
        warn(at,
             SummaryTr::tr("%1 have %L2 metadata columns; only the first %L3 are read.")
                 .arg(what())
                 .arg(issues.headerColumns)
                 .arg(set->metadataColumns.size()));
    }
    // A later value of the tag replaces the earlier one, as a writer that logs embeddings again means.
    if (!state.embeddings)
        ++embeddingTags;
    state.embeddings = std::move(set);
    if (!state.embeddingsTouched) {
        state.embeddingsTouched = true;
        touchedEmbeddings.push_back(tag);
    }
}

void VisualDlReader::Private::badValue(qint64 at, const QString& tag, qint64 step, const QString& kind,
                                       const QString& reason)
{
    hadProblems = true;
    if (badValueReports >= kMaxBadValueReports) {
        ++badValuesUnreported;
        return;
    }
    ++badValueReports;
    update->diagnostics.append(models::Diagnostic {
        models::Severity::Warning, file, at, -1,
        SummaryTr::tr("The %1 of the tag \"%2\" at step %3 was skipped: %4. The writer or the file is damaged.")
            .arg(kind, tag)
            .arg(step)
            .arg(reason) });
}

std::shared_ptr<const models::summary::SummaryBatch> VisualDlReader::Private::takeSummaries()
{
    if (touchedHistograms.empty() && touchedImages.empty() && touchedTexts.empty() && touchedAudio.empty()
        && touchedPrCurves.empty() && touchedRocCurves.empty())
        return nullptr;
    auto batch = std::make_shared<models::summary::SummaryBatch>();
    // TensorBoard's plugin names, which the panels know the kinds by.
    takeSeries(tags, touchedHistograms, &TagState::histograms, QStringLiteral("histograms"), batch->histograms);
    takeSeries(tags, touchedImages, &TagState::images, QStringLiteral("images"), batch->images);
    takeSeries(tags, touchedTexts, &TagState::texts, QStringLiteral("text"), batch->texts);
    takeSeries(tags, touchedAudio, &TagState::audio, QStringLiteral("audio"), batch->audio);
    takeSeries(tags, touchedPrCurves, &TagState::prCurves, QStringLiteral("pr_curves"), batch->prCurves);
    takeSeries(tags, touchedRocCurves, &TagState::rocCurves, QStringLiteral("roc_curves"), batch->rocCurves);
    return batch;
}

bool VisualDlReader::Private::decode(const std::string& bytes, qint64 at)
{
    if (!record.ParseFromString(bytes)) {
        hadProblems = true;
        if (undecodableReports >= kMaxUndecodableReports) {
            ++undecodableUnreported;
            return false;
        }
        ++undecodableReports;
        update->diagnostics.append(models::Diagnostic {
            models::Severity::Warning, file, at, -1,
            SummaryTr::tr("The record of %1 bytes at this offset is not a VisualDL record; it was skipped. The "
                          "file is damaged, or the records after it are misaligned.")
                .arg(bytes.size()) });
        return false;
    }
    using Value = runlens::vdl::Record::Value;
    for (const Value& value : record.values()) {
        const int index = tagIndex(value.tag());
        TagState& state = tags[std::size_t(index)];
        // VisualDL writes the wall time in milliseconds (round(time.time() * 1000)).
        const double wallTime = double(value.timestamp()) / 1000.0;
        const qint64 step = value.id();
        switch (value.one_value_case()) {
        case Value::kValue:
            addPoint(index, step, wallTime, double(value.value()));
            break;
        case Value::kMetaData:
            // The writer's run name, written once when a log is opened with a display name.
            displayName = fromUtf8(value.meta_data().display_name());
            break;
        case Value::kImage: {
            // Handed over undecoded: the panel decodes what it shows and reports what it cannot.
            auto image = stamped<models::summary::SummaryImage>(step, wallTime);
            const std::string& encoded = value.image().encoded_image_string();
            image.encoded.append(QByteArray(encoded.data(), qsizetype(encoded.size())));
            keep(state.images, index, limits.images, touchedImages, std::move(image));
            break;
        }
        case Value::kAudio: {
            const auto& clip = value.audio();
            auto audio = stamped<models::summary::SummaryAudio>(step, wallTime);
            audio.sampleRate = clip.sample_rate();
            audio.channels = int(std::clamp<qint64>(clip.num_channels(), 0, 1 << 16));
            audio.frames = clip.length_frames();
            audio.contentType = fromUtf8(clip.content_type());
            const std::string& encoded = clip.encoded_audio_string();
            audio.clips.append(
                models::summary::AudioClip { QByteArray(encoded.data(), qsizetype(encoded.size())), QString() });
            values::completeAudioFormat(&audio);
            keep(state.audio, index, limits.audio, touchedAudio, std::move(audio));
            break;
        }
        case Value::kEmbeddings:
            readEmbeddings(index, step, value.embeddings(), at);
            break;
        case Value::kHistogram: {
            auto histogram = stamped<models::summary::Histogram>(step, wallTime);
            const QString why = histogramFromVisualDl(value.histogram(), &histogram);
            keepOrReport(state.histograms, index, limits.histograms, touchedHistograms, std::move(histogram), why, at,
                         SummaryTr::tr("histogram"));
            break;
        }
        case Value::kPrCurve: {
            auto curve = stamped<models::summary::PrCurve>(step, wallTime);
            const QString why = prCurveFromVisualDl(value.pr_curve(), &curve);
            keepOrReport(state.prCurves, index, limits.prCurves, touchedPrCurves, std::move(curve), why, at,
                         SummaryTr::tr("PR curve"));
            break;
        }
        case Value::kRocCurve: {
            auto curve = stamped<models::summary::PrCurve>(step, wallTime);
            const QString why = rocCurveFromVisualDl(value.roc_curve(), &curve);
            keepOrReport(state.rocCurves, index, limits.prCurves, touchedRocCurves, std::move(curve), why, at,
                         SummaryTr::tr("ROC curve"));
            break;
        }
        case Value::kText: {
            auto text = stamped<models::summary::SummaryText>(step, wallTime);
            text.cells.append(fromUtf8(value.text().encoded_text_string()));
            keep(state.texts, index, limits.texts, touchedTexts, std::move(text));
            break;
        }
        case Value::kHparam:
            countOther(index, OtherKind::HParam);
            break;
        case Value::kTagValue:
            countOther(index, OtherKind::TagValue);
            break;
        case Value::ONE_VALUE_NOT_SET:
            break;
        }
    }
    return true;
}

void VisualDlReader::Private::fail(qint64 at, const QString& message)
{
    hadProblems = true;
    dead = true;
    qCInfo(lcVisualDl) << file << at << message;
    update->diagnostics.append(models::Diagnostic { models::Severity::Error, file, at, -1, message });
}

void VisualDlReader::Private::readRecords(QFile& input, const ImportControl& control, ImportUpdate& result)
{
    // Only what the file held when the poll started: data appended meanwhile is read by the next poll.
    const qint64 fileSize = input.size();
    const qint64 start = offset;
    qint64 records = 0;
    char header[kHeaderSize];
    auto readFailed = [&] {
        fail(offset,
             SummaryTr::tr("Reading failed: %1. The rest of the file is not read; reopen the run to try again.")
                 .arg(input.errorString()));
    };
    for (;;) {
        if ((records & (kRecordsPerCheck - 1)) == 0 && records > 0) {
            if (control.canceled()) {
                result.status = models::ImportStatus::Canceled;
                break;
            }
            const qint64 total = std::max<qint64>(1, fileSize - start);
            control.report(int(std::min<qint64>(999, (offset - start) * 1000 / total)));
        }
        const qint64 remaining = fileSize - offset;
        if (remaining == 0)
            break;
        if (remaining < kHeaderSize) {
            result.mayGrow = true;
            break;
        }
        if (input.pos() != offset && !input.seek(offset)) {
            readFailed();
            break;
        }
        if (input.read(header, kHeaderSize) != kHeaderSize) {
            readFailed();
            break;
        }
        const std::uint64_t length = loadLe64(header);
        if (length > maxPayload) {
            fail(offset,
                 SummaryTr::tr("The record at this offset claims %1 bytes, more than a VisualDL record may "
                               "hold; the rest of the file is not read. The file is damaged or is not a "
                               "VisualDL log.")
                     .arg(length));
            break;
        }
        if (length > std::uint64_t(remaining - kHeaderSize)) {
            // The writer has not finished this record yet: read it again from its start next time.
            result.mayGrow = true;
            break;
        }
        payload.resize(std::size_t(length));
        if (input.read(payload.data(), qint64(length)) != qint64(length)) {
            readFailed();
            break;
        }
        ++records;
        if (decode(payload, offset))
            ++goodRecords;
        offset += kHeaderSize + qint64(length);
    }
    result.recordsRead = records;
    result.bytesRead = offset - start;
}

void VisualDlReader::Private::finishPoll()
{
    for (const int tag : touchedTags)
        tags[std::size_t(tag)].batch = -1;
    touchedTags.clear();
    for (const auto& [tag, kind] : toAnnounce) {
        const TagState& state = tags[std::size_t(tag)];
        update->diagnostics.append(models::Diagnostic {
            models::Severity::Info, file, -1, -1,
            SummaryTr::tr("The tag \"%1\" holds %2 (%n value(s) so far): they are counted, and shown by a later "
                          "version of RunLens that reads them.",
                          nullptr, int(std::min<qint64>(state.others[std::size_t(kind)], INT_MAX)))
                .arg(state.name, otherKindName(kind)) });
    }
    toAnnounce.clear();
    update->summaries = takeSummaries();
    if (!touchedEmbeddings.empty()) {
        // The sets that changed in this poll, and what `runlens info` says of every set of the file.
        auto changed = std::make_shared<std::vector<models::embeddings::EmbeddingSetPtr>>();
        for (const int tag : touchedEmbeddings) {
            TagState& state = tags[std::size_t(tag)];
            state.embeddingsTouched = false;
            changed->push_back(state.embeddings);
        }
        touchedEmbeddings.clear();
        QList<models::embeddings::EmbeddingSummary> summaries;
        for (const TagState& state : tags) {
            if (state.embeddings)
                summaries.append(models::embeddings::summarize(*state.embeddings));
        }
        update->embeddings = std::move(changed);
        update->embeddingSummaries = std::move(summaries);
    }
    if (badValuesUnreported > 0) {
        update->diagnostics.append(
            models::Diagnostic { models::Severity::Warning, file, -1, -1,
                                 SummaryTr::tr("%n more damaged or cut value(s) were not reported one by one.", nullptr,
                                               int(std::min<qint64>(badValuesUnreported, INT_MAX))) });
        badValuesUnreported = 0;
    }
    if (undecodableUnreported > 0) {
        update->diagnostics.append(
            models::Diagnostic { models::Severity::Warning, file, -1, -1,
                                 SummaryTr::tr("%n more record(s) that are not VisualDL records were skipped.", nullptr,
                                               int(std::min<qint64>(undecodableUnreported, INT_MAX))) });
        undecodableUnreported = 0;
    }
    update = nullptr;
}

models::ImportStatus VisualDlReader::Private::status() const
{
    if (hadProblems)
        return goodRecords == 0 ? models::ImportStatus::Failed : models::ImportStatus::Partial;
    return models::ImportStatus::Ok;
}

VisualDlReader::VisualDlReader(QString path, models::summary::SummaryLimits limits)
    : d(std::make_unique<Private>(std::move(path), limits))
{ }

VisualDlReader::~VisualDlReader() = default;

ImportUpdate VisualDlReader::poll(const ImportControl& control)
{
    ImportUpdate result;
    if (d->dead) {
        result.status = d->status();
        return result;
    }
    d->update = &result;
    try {
        QFile input(d->path);
        if (!input.open(QIODevice::ReadOnly)) {
            d->fail(-1,
                    SummaryTr::tr("Cannot open the file: %1. Check that it exists and is readable.")
                        .arg(input.errorString()));
        } else if (input.size() < d->offset) {
            d->fail(input.size(),
                    SummaryTr::tr("The file became shorter (%1 bytes) than what was already read (%2 bytes): it was "
                                  "replaced or truncated. Reopen the run to read it again.")
                        .arg(input.size())
                        .arg(d->offset));
        } else {
            d->readRecords(input, control, result);
        }
    } catch (const std::exception& error) {
        d->fail(d->offset, SummaryTr::tr("Reading stopped: %1.").arg(QString::fromLocal8Bit(error.what())));
    }
    d->finishPoll();
    if (result.status != models::ImportStatus::Canceled)
        result.status = d->status();
    control.report(1000);
    return result;
}

void VisualDlReader::setEmbeddingLimits(const importers::embeddings::ProjectorLimits& limits)
{
    d->embeddingLimits = limits;
}

void VisualDlReader::setMaxPayload(std::uint64_t bytes)
{
    d->maxPayload = bytes;
}

std::uint64_t VisualDlReader::maxPayload() const
{
    return d->maxPayload;
}

models::summary::SummaryLimits VisualDlReader::limits() const
{
    return d->limits;
}

QString VisualDlReader::path() const
{
    return d->path;
}

qint64 VisualDlReader::offset() const
{
    return d->offset;
}

bool VisualDlReader::isDead() const
{
    return d->dead;
}

QString VisualDlReader::displayName() const
{
    return d->displayName;
}

qint64 VisualDlReader::otherValueCount(const QString& tag) const
{
    const int index = d->tagIndices.find(tag.toStdString());
    if (index < 0)
        return 0;
    qint64 total = 0;
    for (const qint64 count : d->tags[std::size_t(index)].others)
        total += count;
    return total;
}

} // namespace runlens::importers::summary
