#include "importers/summary/eventfilereader.h"

#include "importers/summary/eventgraphs.h"
#include "importers/summary/proto/ms_summary.pb.h"
#include "importers/summary/proto/tb_event.pb.h"
#include "importers/summary/recordpoll.h"
#include "importers/summary/recordreader.h"
#include "importers/summary/summarytr.h"
#include "importers/summary/summaryvalues.h"
#include "importers/summary/taginterner.h"
#include "models/summary/reservoir.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLoggingCategory>

#include <variant>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::summary {

Q_LOGGING_CATEGORY(lcSummaryImport, "runlens.importers.summary", QtWarningMsg)

namespace {

QString fromUtf8(const std::string& bytes)
{
    return QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
}

/// Problems counted separately, so that one damaged region does not bury the others.
enum class Problem { DataCrc, Undecodable, NanWallTime, BadScalarTensor, BadValue, Count };

/// Each kind of problem is reported this often per file; further occurrences are only counted.
constexpr int kMaxReportsPerProblem = 20;
/// Cancellation and progress are checked every this many records.
constexpr qint64 kRecordsPerCheck = 8192;

/// The reservoir of one tag with values beyond scalars, and whether this poll added to it.
struct TagSeries
{
    std::variant<std::monostate, models::summary::Reservoir<models::summary::Histogram>,
                 models::summary::Reservoir<models::summary::SummaryImage>,
                 models::summary::Reservoir<models::summary::SummaryText>,
                 models::summary::Reservoir<models::summary::PrCurve>,
                 models::summary::Reservoir<models::summary::SummaryTensor>,
                 models::summary::Reservoir<models::summary::SummaryAudio>>
        reservoir;
    qint64 preempted = 0;
    bool touched = false;
};

struct TagState
{
    QString name;
    models::scalars::TagMetadata metadata;
    bool hasMetadata = false; ///< metadata seen (writers attach it to the tag's first value only)
    bool scalarPlugin = false; ///< the metadata says its tensors are scalars
    bool metadataDelivered = false; ///< a batch carried the metadata already
    bool badTensorReported = false; ///< a value of this tag could not be read (reported once per tag)
    int batch = -1; ///< index of this tag's TagPoints in the current update, or -1
    std::unique_ptr<TagSeries> series; ///< for tags with values beyond scalars
};

/// One encoded image as TensorBoard's and MindSpore's Image messages record it (decoded by the panel).
models::summary::SummaryImage encodedImage(qint64 step, double wallTime, int width, int height, int colorspace,
                                           const std::string& bytes)
{
    models::summary::SummaryImage image;
    image.step = step;
    image.wallTime = wallTime;
    image.width = width;
    image.height = height;
    image.colorspace = colorspace;
    image.encoded.append(QByteArray(bytes.data(), qsizetype(bytes.size())));
    return image;
}

QString dtypeName(int dtype)
{
    const std::string& name = runlens::tb::DataType_Name(runlens::tb::DataType(dtype));
    return name.empty() ? QString::number(dtype) : fromUtf8(name);
}

} // namespace

struct EventFileReader::Private
{
    Private(QString path, SummaryFlavor flavor, models::summary::SummaryLimits limits)
        : path(std::move(path))
        , file(QFileInfo(this->path).absoluteFilePath())
        , flavor(flavor)
        , limits(limits)
    { }

    void readRecords(RecordReader& reader, const ImportControl& control, ImportUpdate& update);
    bool decode(const RecordReader::Record& record);
    void decodeTensorBoard();
    void decodeMindSpore();
    // Out of line and cold, so that the record loop's code stays as compact as without graphs.
    [[gnu::noinline, gnu::cold]] void takeTensorBoardGraph();
    [[gnu::noinline, gnu::cold]] void takeMindSporeGraph();
    int tagIndex(const std::string& bytes);
    void rememberMetadata(TagState& tag, const runlens::tb::SummaryMetadata& metadata);
    void addPoint(int tag, qint64 step, double wallTime, double value);
    template<typename Item> void addSummary(int tag, Item item, int capacity);
    /// Decodes one value with `decode` and, when it can be read, adds it at this step; returns why not.
    template<typename Item, typename Decode>
    QString takeDecoded(int tag, qint64 step, double wallTime, int capacity, Decode&& decode);
    void reportBadValue(TagState& tag, qint64 step, const QString& why);
    /// Whether values beyond scalars are still kept in this poll; false once its budget is spent.
    bool keepsValues() const { return !budgetSpent; }
    /// Spends `bytes` of a value kept as it is recorded (an encoded image); false when that passes the budget.
    bool spendOnValue(qint64 bytes);
    /// After a value was decoded: when the budget ran out, says so once and keeps no more values this poll.
    bool budgetRanOut();
    [[gnu::noinline]] void decodeTensorBoardValue(int index, const runlens::tb::Summary::Value& value, qint64 step,
                                                  double wallTime);
    [[gnu::noinline]] void decodeMindSporeValue(int index, const runlens::ms::Summary::Value& value, qint64 step,
                                                double wallTime);
    void deliverSummaries(ImportUpdate& result);
    /// Adds a diagnostic unless this kind was reported often enough; `message()` is only called when needed.
    template<typename Message>
    void report(Problem problem, models::Severity severity, qint64 offset, Message&& message);
    void reportFatal(RecordStatus status, const RecordReader& reader);
    void finishPoll();
    models::ImportStatus status() const;

    QString path;
    QString file; ///< absolute path for diagnostics
    SummaryFlavor flavor;
    models::summary::SummaryLimits limits;
    qint64 offset = 0;
    bool dead = false;
    bool hadProblems = false;
    qint64 goodRecords = 0;
    QString fileVersion;

    runlens::tb::Event tbEvent;
    runlens::ms::Event msEvent;

    TagInterner tagIndices;
    std::vector<TagState> tags; ///< by TagInterner index
    std::vector<int> touchedTags; ///< tags with a batch in the current update
    std::vector<int> touchedSeries; ///< tags whose reservoir this poll added to
    models::summary::HParams hparams; ///< the hyper-parameters plugin data of this file so far
    bool hparamsChanged = false;

    int reports[int(Problem::Count)] = {};
    qint64 unreported[int(Problem::Count)] = {};

    // Valid during one poll.
    ImportUpdate* update = nullptr;
    qint64 recordOffset = 0;
    /// What this poll may keep of values beyond scalars, from the bytes it reads: a few kilobytes of tensors
    /// that each repeat one value to a declared shape must not fill the memory.
    std::optional<ImportBudget> budget;
    bool budgetSpent = false;

    /// Created by the first graph record: most files have none, and the record loop's state stays compact.
    std::unique_ptr<EventGraphs> graphs;
    EventGraphs& graphStore();
};

int EventFileReader::Private::tagIndex(const std::string& bytes)
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

void EventFileReader::Private::rememberMetadata(TagState& tag, const runlens::tb::SummaryMetadata& metadata)
{
    tag.hasMetadata = true;
    tag.metadata.pluginName = fromUtf8(metadata.plugin_data().plugin_name());
    tag.metadata.displayName = fromUtf8(metadata.display_name());
    tag.metadata.description = fromUtf8(metadata.summary_description());
    tag.scalarPlugin
        = metadata.plugin_data().plugin_name() == "scalars" || metadata.data_class() == runlens::tb::DATA_CLASS_SCALAR;
}

void EventFileReader::Private::addPoint(int tag, qint64 step, double wallTime, double value)
{
    TagState& state = tags[std::size_t(tag)];
    if (state.batch < 0) {
        state.batch = int(update->scalars.size());
        touchedTags.push_back(tag);
        models::scalars::TagPoints points;
        points.tag = state.name;
        if (!state.metadataDelivered) {
            points.metadata = state.metadata;
            state.metadataDelivered = true;
        }
        update->scalars.push_back(std::move(points));
    }
    update->scalars[std::size_t(state.batch)].points.push_back(models::scalars::ScalarPoint { step, wallTime, value });
}

template<typename Message>
void EventFileReader::Private::report(Problem problem, models::Severity severity, qint64 at, Message&& message)
{
    hadProblems = true;
    const int kind = int(problem);
    if (reports[kind] >= kMaxReportsPerProblem) {
        ++unreported[kind];
        return;
    }
    ++reports[kind];
    models::Diagnostic diagnostic { severity, file, at, -1, message() };
    qCDebug(lcSummaryImport) << file << at << diagnostic.message;
    update->diagnostics.append(std::move(diagnostic));
}

EventGraphs& EventFileReader::Private::graphStore()
{
    if (!graphs)
        graphs = std::make_unique<EventGraphs>(file);
    return *graphs;
}

void EventFileReader::Private::takeTensorBoardGraph()
{
    if (tbEvent.has_graph_def())
        graphStore().take(*tbEvent.mutable_graph_def(), EventGraphs::Encoding::GraphDef, recordOffset, tbEvent.step());
    else
        graphStore().take(*tbEvent.mutable_meta_graph_def(), EventGraphs::Encoding::MetaGraphDef, recordOffset,
                          tbEvent.step());
}

void EventFileReader::Private::takeMindSporeGraph()
{
    graphStore().take(*msEvent.mutable_graph_def(), EventGraphs::Encoding::AnfIrGraph, recordOffset, msEvent.step());
}

void EventFileReader::Private::decodeTensorBoard()
{
    // Graph records are rare: two presence bits are all the common path pays.
    if (tbEvent.has_graph_def() || tbEvent.has_meta_graph_def()) [[unlikely]]
        takeTensorBoardGraph();
    const runlens::tb::Event& event = tbEvent;
    if (std::isnan(event.wall_time())) {
        report(Problem::NanWallTime, models::Severity::Warning, recordOffset, [&] {
            return SummaryTr::tr("The event at step %1 has no valid wall time (NaN); it was skipped.")
                .arg(event.step());
        });
        return;
    }
    if (event.has_file_version())
        fileVersion = fromUtf8(event.file_version());
    if (!event.has_summary())
        return;
    const qint64 step = event.step();
    const double wallTime = event.wall_time();
    for (const runlens::tb::Summary::Value& value : event.summary().value()) {
        const int index = tagIndex(value.tag());
        TagState& tag = tags[std::size_t(index)];
        if (!tag.hasMetadata && value.has_metadata())
            rememberMetadata(tag, value.metadata());
        if (value.has_simple_value()) {
            addPoint(index, step, wallTime, value.simple_value());
        } else if (value.has_tensor() && tag.scalarPlugin) {
            double number = 0.0;
            if (values::tensorScalar(value.tensor(), &number)) {
                addPoint(index, step, wallTime, number);
            } else if (!tag.badTensorReported) {
                tag.badTensorReported = true;
                report(Problem::BadScalarTensor, models::Severity::Warning, recordOffset, [&] {
                    return SummaryTr::tr(
                               "The tag \"%1\" is a scalar, but its value at step %2 is a %3 tensor with %4 dimensions "
                               "that does not hold one number; such values of this tag are skipped.")
                        .arg(tag.name)
                        .arg(step)
                        .arg(dtypeName(value.tensor().dtype()))
                        .arg(value.tensor().tensor_shape().dim_size());
                });
            }
        } else if ((value.has_histo() || value.has_image() || value.has_audio() || value.has_tensor()
                    || value.has_metadata())
                   && keepsValues()) {
            decodeTensorBoardValue(index, value, step, wallTime);
        }
    }
}

void EventFileReader::Private::decodeTensorBoardValue(int index, const runlens::tb::Summary::Value& value, qint64 step,
                                                      double wallTime)
{
    TagState& tag = tags[std::size_t(index)];
    const QString& plugin = tag.metadata.pluginName;
    QString why;
    if (value.has_histo()) {
        why = takeDecoded<models::summary::Histogram>(
            index, step, wallTime, limits.histograms, [&](models::summary::Histogram& item) {
                return values::histogramFromProto(value.histo(), &item, &*budget);
            });
    } else if (value.has_image()) {
        const auto& image = value.image();
        if (spendOnValue(qint64(image.encoded_image_string().size())))
            addSummary(index,
                       encodedImage(step, wallTime, image.width(), image.height(), image.colorspace(),
                                    image.encoded_image_string()),
                       limits.images);
    } else if (value.has_audio()) {
        const auto& audio = value.audio();
        if (spendOnValue(qint64(audio.encoded_audio_string().size()))) {
            models::summary::SummaryAudio item;
            item.step = step;
            item.wallTime = wallTime;
            item.sampleRate = audio.sample_rate();
            item.channels = int(std::clamp<qint64>(audio.num_channels(), 0, std::numeric_limits<int>::max()));
            item.frames = audio.length_frames();
            item.contentType = fromUtf8(audio.content_type());
            const std::string& bytes = audio.encoded_audio_string();
            item.clips.append(
                models::summary::AudioClip { QByteArray(bytes.data(), qsizetype(bytes.size())), QString() });
            values::completeAudioFormat(&item);
            addSummary(index, std::move(item), limits.audio);
        }
    } else if (plugin == QLatin1String("hparams")) {
        // The plugin data is the value; writers attach it to every hparams value.
        if (value.has_metadata()) {
            why = values::hparamsFromPluginData(value.metadata().plugin_data().content(), &hparams);
            hparamsChanged = hparamsChanged || why.isEmpty();
        }
    } else if (!value.has_tensor()) {
        return;
    } else if (plugin == QLatin1String("histograms")) {
        why = takeDecoded<models::summary::Histogram>(
            index, step, wallTime, limits.histograms, [&](models::summary::Histogram& item) {
                return values::histogramFromTensor(value.tensor(), &item, &*budget);
            });
    } else if (plugin == QLatin1String("images")) {
        why = takeDecoded<models::summary::SummaryImage>(
            index, step, wallTime, limits.images, [&](models::summary::SummaryImage& item) {
                return values::imagesFromTensor(value.tensor(), &item, &*budget);
            });
    } else if (plugin == QLatin1String("audio")) {
        why = takeDecoded<models::summary::SummaryAudio>(
            index, step, wallTime, limits.audio, [&](models::summary::SummaryAudio& item) {
                return values::audioFromTensor(value.tensor(), &item, &*budget);
            });
    } else if (plugin == QLatin1String("text")) {
        why = takeDecoded<models::summary::SummaryText>(
            index, step, wallTime, limits.texts, [&](models::summary::SummaryText& item) {
                return values::textFromTensor(value.tensor(), &item, &*budget);
            });
    } else if (plugin == QLatin1String("pr_curves")) {
        why = takeDecoded<models::summary::PrCurve>(
            index, step, wallTime, limits.prCurves,
            [&](models::summary::PrCurve& item) { return values::prCurveFromTensor(value.tensor(), &item, &*budget); });
    } else if (plugin.isEmpty() && value.tensor().dtype() != runlens::tb::DT_STRING) {
        // A tensor summary of no plugin (tf.summary.tensor_summary, TF2 tf.summary.write).
        why = takeDecoded<models::summary::SummaryTensor>(
            index, step, wallTime, limits.tensors, [&](models::summary::SummaryTensor& item) {
                QString why = values::numericTensor(value.tensor(), &item.tensor, &*budget);
                item.tensor.name = tag.name; // the decoded tensor replaces the whole item's tensor
                return why;
            });
    }
    if (!budgetRanOut() && !why.isEmpty())
        reportBadValue(tag, step, why);
}

bool EventFileReader::Private::spendOnValue(qint64 bytes)
{
    budget->spendBytes(bytes);
    return !budgetRanOut();
}

bool EventFileReader::Private::budgetRanOut()
{
    if (budgetSpent)
        return true;
    if (!budget->exceeded())
        return false;
    budgetSpent = true;
    hadProblems = true;
    models::Diagnostic diagnostic = budget->diagnostic(file, recordOffset);
    diagnostic.message += QLatin1Char(' ')
        + SummaryTr::tr("Only the histograms, images, audio, texts and tensors after this offset are left out; scalars "
                        "are still read.");
    qCInfo(lcSummaryImport) << file << recordOffset << diagnostic.message;
    update->diagnostics.append(std::move(diagnostic));
    return true;
}

void EventFileReader::Private::reportBadValue(TagState& tag, qint64 step, const QString& why)
{
    if (tag.badTensorReported) {
        hadProblems = true;
        return;
    }
    tag.badTensorReported = true;
    report(Problem::BadValue, models::Severity::Warning, recordOffset, [&] {
        return SummaryTr::tr("The value of the tag \"%1\" at step %2 cannot be read: %3. Such values of this tag are "
                             "skipped.")
            .arg(tag.name)
            .arg(step)
            .arg(why);
    });
}

template<typename Item> void EventFileReader::Private::addSummary(int index, Item item, int capacity)
{
    TagState& tag = tags[std::size_t(index)];
    if (!tag.series) {
        tag.series = std::make_unique<TagSeries>();
        tag.series->reservoir.template emplace<models::summary::Reservoir<Item>>(capacity);
    }
    auto* reservoir = std::get_if<models::summary::Reservoir<Item>>(&tag.series->reservoir);
    if (!reservoir) {
        // A tag that changes kind midway (an image tag that gets a histogram) keeps its first kind.
        reportBadValue(tag, item.step, SummaryTr::tr("this tag held another kind of value before"));
        return;
    }
    tag.series->preempted += reservoir->add(std::move(item));
    if (!tag.series->touched) {
        tag.series->touched = true;
        touchedSeries.push_back(index);
    }
}

template<typename Item, typename Decode>
QString EventFileReader::Private::takeDecoded(int index, qint64 step, double wallTime, int capacity, Decode&& decode)
{
    Item item;
    QString why = decode(item);
    if (why.isEmpty()) {
        item.step = step;
        item.wallTime = wallTime;
        addSummary(index, std::move(item), capacity);
    }
    return why;
}

void EventFileReader::Private::deliverSummaries(ImportUpdate& result)
{
    if (touchedSeries.empty() && !hparamsChanged)
        return;
    auto batch = std::make_shared<models::summary::SummaryBatch>();
    for (const int index : touchedSeries) {
        TagState& tag = tags[std::size_t(index)];
        TagSeries& series = *tag.series;
        series.touched = false;
        std::visit(
            [&](const auto& reservoir) {
                using R = std::decay_t<decltype(reservoir)>;
                if constexpr (!std::is_same_v<R, std::monostate>) {
                    using Item = std::decay_t<decltype(reservoir.items().front())>;
                    models::summary::SummarySeries<Item> out;
                    out.tag = tag.name;
                    out.metadata = tag.metadata;
                    out.items = reservoir.items();
                    out.seen = reservoir.seen();
                    out.preempted = series.preempted;
                    if constexpr (std::is_same_v<Item, models::summary::Histogram>)
                        batch->histograms.push_back(std::move(out));
                    else if constexpr (std::is_same_v<Item, models::summary::SummaryImage>)
                        batch->images.push_back(std::move(out));
                    else if constexpr (std::is_same_v<Item, models::summary::SummaryText>)
                        batch->texts.push_back(std::move(out));
                    else if constexpr (std::is_same_v<Item, models::summary::PrCurve>)
                        batch->prCurves.push_back(std::move(out));
                    else if constexpr (std::is_same_v<Item, models::summary::SummaryAudio>)
                        batch->audio.push_back(std::move(out));
                    else
                        batch->tensors.push_back(std::move(out));
                }
            },
            series.reservoir);
    }
    touchedSeries.clear();
    if (hparamsChanged) {
        batch->hparams = hparams;
        hparamsChanged = false;
    }
    result.summaries = std::move(batch);
}

void EventFileReader::Private::decodeMindSpore()
{
    if (msEvent.has_graph_def()) [[unlikely]]
        takeMindSporeGraph();
    const runlens::ms::Event& event = msEvent;
    if (std::isnan(event.wall_time())) {
        report(Problem::NanWallTime, models::Severity::Warning, recordOffset, [&] {
            return SummaryTr::tr("The event at step %1 has no valid wall time (NaN); it was skipped.")
                .arg(event.step());
        });
        return;
    }
    if (event.has_version())
        fileVersion = fromUtf8(event.version());
    if (!event.has_summary())
        return;
    const qint64 step = event.step();
    const double wallTime = event.wall_time();
    for (const runlens::ms::Summary::Value& value : event.summary().value()) {
        if (!value.has_scalar_value()) {
            if ((value.has_histogram() || value.has_image() || value.has_tensor()) && keepsValues())
                decodeMindSporeValue(tagIndex(value.tag()), value, step, wallTime);
            continue;
        }
        const int index = tagIndex(value.tag());
        TagState& tag = tags[std::size_t(index)];
        if (!tag.hasMetadata) {
            tag.hasMetadata = true;
            tag.metadata.pluginName = QStringLiteral("scalars");
        }
        addPoint(index, step, wallTime, value.scalar_value());
    }
}

void EventFileReader::Private::decodeMindSporeValue(int index, const runlens::ms::Summary::Value& value, qint64 step,
                                                    double wallTime)
{
    TagState& tag = tags[std::size_t(index)];
    QString why;
    if (value.has_histogram()) {
        why = takeDecoded<models::summary::Histogram>(
            index, step, wallTime, limits.histograms, [&](models::summary::Histogram& item) {
                return values::histogramFromMindSpore(value.histogram(), &item, &*budget);
            });
    } else if (value.has_image()) {
        const auto& image = value.image();
        if (spendOnValue(qint64(image.encoded_image().size())))
            addSummary(
                index,
                encodedImage(step, wallTime, image.width(), image.height(), image.colorspace(), image.encoded_image()),
                limits.images);
    } else if (value.has_tensor()) {
        why = takeDecoded<models::summary::SummaryTensor>(
            index, step, wallTime, limits.tensors, [&](models::summary::SummaryTensor& item) {
                QString why = values::mindSporeTensor(value.tensor(), &item.tensor, &*budget);
                item.tensor.name = tag.name; // the decoded tensor replaces the whole item's tensor
                return why;
            });
    }
    if (!budgetRanOut() && !why.isEmpty())
        reportBadValue(tag, step, why);
}

bool EventFileReader::Private::decode(const RecordReader::Record& record)
{
    recordOffset = record.offset;
    const int size = int(record.size); // records are limited to 1 GiB
    const bool parsed = flavor == SummaryFlavor::TensorBoard ? tbEvent.ParseFromArray(record.data, size)
                                                             : msEvent.ParseFromArray(record.data, size);
    if (!parsed) {
        report(Problem::Undecodable, models::Severity::Warning, record.offset, [&] {
            return SummaryTr::tr("The record of %1 bytes is not a valid %2 event; it was skipped.")
                .arg(record.size)
                .arg(flavor == SummaryFlavor::TensorBoard ? QStringLiteral("TensorBoard")
                                                          : QStringLiteral("MindSpore"));
        });
        return false;
    }
    if (flavor == SummaryFlavor::TensorBoard)
        decodeTensorBoard();
    else
        decodeMindSpore();
    return true;
}

void EventFileReader::Private::reportFatal(RecordStatus status, const RecordReader& reader)
{
    hadProblems = true;
    dead = true;
    const qint64 at = reader.problemOffset();
    QString message;
    switch (status) {
    case RecordStatus::BadLengthCrc:
        message = at == 0 && goodRecords == 0
            ? SummaryTr::tr("This is not a TFRecord summary file: its first record header fails its checksum.")
            : SummaryTr::tr(
                "The length of the record at this offset fails its checksum, so the records after it cannot "
                "be located; the rest of the file is not read. The file is damaged (partly overwritten or "
                "concatenated).");
        break;
    case RecordStatus::TooLarge:
        message
            = SummaryTr::tr("The record at this offset claims %1 bytes, more than a summary record may hold; the rest "
                            "of the file is not read.")
                  .arg(reader.problemLength());
        break;
    case RecordStatus::IoError:
        message = SummaryTr::tr("Reading failed: %1. The rest of the file is not read; reopen the run to try again.")
                      .arg(reader.errorString());
        break;
    default:
        return;
    }
    qCInfo(lcSummaryImport) << file << at << message;
    update->diagnostics.append(models::Diagnostic { models::Severity::Error, file, at, -1, message });
}

void EventFileReader::Private::readRecords(RecordReader& reader, const ImportControl& control, ImportUpdate& result)
{
    const qint64 start = reader.offset();
    budget.emplace(std::max<qint64>(0, reader.fileSize() - start));
    budgetSpent = false;
    qint64 records = 0;
    RecordReader::Record record;
    for (;;) {
        if ((records & (kRecordsPerCheck - 1)) == 0 && records > 0) {
            if (control.canceled()) {
                result.status = models::ImportStatus::Canceled;
                break;
            }
            const qint64 total = std::max<qint64>(1, reader.fileSize() - start);
            control.report(int(std::min<qint64>(999, (reader.offset() - start) * 1000 / total)));
        }
        const RecordStatus status = reader.next(record);
        if (status == RecordStatus::Ok) {
            ++records;
            if (decode(record))
                ++goodRecords;
            continue;
        }
        if (status == RecordStatus::BadDataCrc) {
            ++records;
            report(Problem::DataCrc, models::Severity::Warning, record.offset, [&] {
                return SummaryTr::tr("The contents of the record of %1 bytes at this offset fail their checksum; "
                                     "the record was skipped. The file is damaged.")
                    .arg(record.size);
            });
            continue;
        }
        if (status == RecordStatus::Truncated)
            result.mayGrow = true;
        else if (status != RecordStatus::End)
            reportFatal(status, reader);
        break;
    }
    result.recordsRead = records;
    result.bytesRead = reader.offset() - start;
    offset = reader.offset();
}

void EventFileReader::Private::finishPoll()
{
    budget.reset();
    budgetSpent = false;
    for (const int tag : touchedTags)
        tags[std::size_t(tag)].batch = -1;
    touchedTags.clear();
    for (int kind = 0; kind < int(Problem::Count); ++kind) {
        if (unreported[kind] == 0)
            continue;
        update->diagnostics.append(models::Diagnostic {
            models::Severity::Warning, file, -1, -1,
            SummaryTr::tr("%n more record(s) with the same problem were skipped.", nullptr, int(unreported[kind])) });
        unreported[kind] = 0;
    }
    update = nullptr;
}

models::ImportStatus EventFileReader::Private::status() const
{
    if (hadProblems)
        return goodRecords == 0 ? models::ImportStatus::Failed : models::ImportStatus::Partial;
    return models::ImportStatus::Ok;
}

EventFileReader::EventFileReader(QString path, SummaryFlavor flavor, models::summary::SummaryLimits limits)
    : d(std::make_unique<Private>(std::move(path), flavor, limits))
{ }

EventFileReader::~EventFileReader() = default;

ImportUpdate EventFileReader::poll(const ImportControl& control)
{
    ImportUpdate result;
    if (d->dead) {
        result.status = d->status();
        return result;
    }
    d->update = &result;
    pollRecordFile(d->path, d->file, d->offset, d->dead, d->hadProblems, result.diagnostics, [&](RecordReader& reader) {
        d->readRecords(reader, control, result);
        d->deliverSummaries(result);
        // A canceled graph decode is retried by the next poll.
        if (d->graphs && result.status != models::ImportStatus::Canceled) {
            if (!d->graphs->deliver(result, control))
                result.status = models::ImportStatus::Canceled;
            d->hadProblems = d->hadProblems || d->graphs->hadProblems();
        }
    });
    d->finishPoll();
    if (result.status != models::ImportStatus::Canceled)
        result.status = d->status();
    control.report(1000);
    return result;
}

QString EventFileReader::path() const
{
    return d->path;
}

qint64 EventFileReader::offset() const
{
    return d->offset;
}

bool EventFileReader::isDead() const
{
    return d->dead;
}

QString EventFileReader::fileVersion() const
{
    return d->fileVersion;
}

} // namespace runlens::importers::summary
