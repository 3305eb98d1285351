#include "eventfilereader.h"

#include "eventgraphs.h"
#include "recordpoll.h"
#include "recordreader.h"
#include "summary/proto/ms_summary.pb.h"
#include "summary/proto/tb_event.pb.h"
#include "summarytr.h"
#include "taginterner.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLoggingCategory>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::summary {

Q_LOGGING_CATEGORY(lcSummaryImport, "runlens.importers.summary", QtWarningMsg)

namespace {

QString fromUtf8(const std::string& bytes)
{
    return QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
}

/// Problems counted separately, so that one damaged region does not bury the others.
enum class Problem { DataCrc, Undecodable, NanWallTime, BadScalarTensor, Count };

/// Each kind of problem is reported this often per file; further occurrences are only counted.
constexpr int kMaxReportsPerProblem = 20;
/// Cancellation and progress are checked every this many records.
constexpr qint64 kRecordsPerCheck = 8192;

struct TagState
{
    QString name;
    TagMetadata metadata;
    bool hasMetadata = false; ///< metadata seen (writers attach it to the tag's first value only)
    bool scalarPlugin = false; ///< the metadata says its tensors are scalars
    bool metadataDelivered = false; ///< a batch carried the metadata already
    bool badTensorReported = false;
    int batch = -1; ///< index of this tag's TagPoints in the current update, or -1
};

float halfToFloat(std::uint16_t half)
{
    const std::uint32_t sign = std::uint32_t(half & 0x8000u) << 16;
    const std::uint32_t exponent = (half >> 10) & 0x1fu;
    const std::uint32_t mantissa = half & 0x3ffu;
    if (exponent == 0) {
        const float magnitude = std::ldexp(float(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    std::uint32_t bits;
    if (exponent == 0x1fu)
        bits = sign | 0x7f800000u | (mantissa << 13);
    else
        bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    return std::bit_cast<float>(bits);
}

float bfloat16ToFloat(std::uint16_t value)
{
    return std::bit_cast<float>(std::uint32_t(value) << 16);
}

template<typename T> T loadLittleEndian(const std::string& bytes)
{
    std::array<unsigned char, sizeof(T)> little;
    std::memcpy(little.data(), bytes.data(), sizeof(T));
    if constexpr (std::endian::native == std::endian::big)
        std::reverse(little.begin(), little.end());
    return std::bit_cast<T>(little);
}

/// The number a single-element numeric tensor holds, from tensor_content or the typed value field.
bool tensorScalar(const runlens::tb::TensorProto& tensor, double* value)
{
    for (const auto& dim : tensor.tensor_shape().dim()) {
        if (dim.size() != 1)
            return false;
    }
    const std::string& content = tensor.tensor_content();
    const bool packed = !content.empty();
    auto fromContent = [&](auto sample) {
        using T = decltype(sample);
        if (content.size() != sizeof(T))
            return false;
        *value = double(loadLittleEndian<T>(content));
        return true;
    };
    switch (tensor.dtype()) {
    case runlens::tb::DT_FLOAT:
        if (packed)
            return fromContent(float());
        if (tensor.float_val_size() < 1)
            return false;
        *value = tensor.float_val(0);
        return true;
    case runlens::tb::DT_DOUBLE:
        if (packed)
            return fromContent(double());
        if (tensor.double_val_size() < 1)
            return false;
        *value = tensor.double_val(0);
        return true;
    case runlens::tb::DT_HALF:
    case runlens::tb::DT_BFLOAT16: {
        std::uint16_t bits = 0;
        if (packed) {
            if (content.size() != 2)
                return false;
            bits = loadLittleEndian<std::uint16_t>(content);
        } else {
            if (tensor.half_val_size() < 1)
                return false;
            bits = std::uint16_t(tensor.half_val(0) & 0xffff);
        }
        *value = tensor.dtype() == runlens::tb::DT_HALF ? halfToFloat(bits) : bfloat16ToFloat(bits);
        return true;
    }
    case runlens::tb::DT_INT8:
        if (packed)
            return fromContent(std::int8_t());
        [[fallthrough]];
    case runlens::tb::DT_UINT8:
        if (packed)
            return fromContent(std::uint8_t());
        [[fallthrough]];
    case runlens::tb::DT_INT16:
        if (packed)
            return fromContent(std::int16_t());
        [[fallthrough]];
    case runlens::tb::DT_UINT16:
        if (packed)
            return fromContent(std::uint16_t());
        [[fallthrough]];
    case runlens::tb::DT_INT32:
        if (packed)
            return fromContent(std::int32_t());
        if (tensor.int_val_size() < 1)
            return false;
        *value = tensor.int_val(0);
        return true;
    case runlens::tb::DT_INT64:
        if (packed)
            return fromContent(std::int64_t());
        if (tensor.int64_val_size() < 1)
            return false;
        *value = double(tensor.int64_val(0));
        return true;
    case runlens::tb::DT_UINT32:
        if (packed)
            return fromContent(std::uint32_t());
        if (tensor.uint32_val_size() < 1)
            return false;
        *value = tensor.uint32_val(0);
        return true;
    case runlens::tb::DT_UINT64:
        if (packed)
            return fromContent(std::uint64_t());
        if (tensor.uint64_val_size() < 1)
            return false;
        *value = double(tensor.uint64_val(0));
        return true;
    case runlens::tb::DT_BOOL:
        if (packed)
            return fromContent(std::uint8_t());
        if (tensor.bool_val_size() < 1)
            return false;
        *value = tensor.bool_val(0) ? 1.0 : 0.0;
        return true;
    default:
        return false;
    }
}

QString dtypeName(int dtype)
{
    const std::string& name = runlens::tb::DataType_Name(runlens::tb::DataType(dtype));
    return name.empty() ? QString::number(dtype) : fromUtf8(name);
}

} // namespace

struct EventFileReader::Private
{
    Private(QString path, SummaryFlavor flavor)
        : path(std::move(path))
        , file(QFileInfo(this->path).absoluteFilePath())
        , flavor(flavor)
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
    /// Adds a diagnostic unless this kind was reported often enough; `message()` is only called when needed.
    template<typename Message> void report(Problem problem, Severity severity, qint64 offset, Message&& message);
    void reportFatal(RecordStatus status, const RecordReader& reader);
    void finishPoll();
    ImportStatus status() const;

    QString path;
    QString file; ///< absolute path for diagnostics
    SummaryFlavor flavor;
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

    int reports[int(Problem::Count)] = {};
    qint64 unreported[int(Problem::Count)] = {};

    // Valid during one poll.
    ImportUpdate* update = nullptr;
    qint64 recordOffset = 0;

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
        TagPoints points;
        points.tag = state.name;
        if (!state.metadataDelivered) {
            points.metadata = state.metadata;
            state.metadataDelivered = true;
        }
        update->scalars.push_back(std::move(points));
    }
    update->scalars[std::size_t(state.batch)].points.push_back(ScalarPoint { step, wallTime, value });
}

template<typename Message>
void EventFileReader::Private::report(Problem problem, Severity severity, qint64 at, Message&& message)
{
    hadProblems = true;
    const int kind = int(problem);
    if (reports[kind] >= kMaxReportsPerProblem) {
        ++unreported[kind];
        return;
    }
    ++reports[kind];
    Diagnostic diagnostic { severity, file, at, -1, message() };
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
        report(Problem::NanWallTime, Severity::Warning, recordOffset, [&] {
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
            if (tensorScalar(value.tensor(), &number)) {
                addPoint(index, step, wallTime, number);
            } else if (!tag.badTensorReported) {
                tag.badTensorReported = true;
                report(Problem::BadScalarTensor, Severity::Warning, recordOffset, [&] {
                    return SummaryTr::tr(
                               "The tag \"%1\" is a scalar, but its value at step %2 is a %3 tensor with %4 dimensions "
                               "that does not hold one number; such values of this tag are skipped.")
                        .arg(tag.name)
                        .arg(step)
                        .arg(dtypeName(value.tensor().dtype()))
                        .arg(value.tensor().tensor_shape().dim_size());
                });
            }
        }
    }
}

void EventFileReader::Private::decodeMindSpore()
{
    if (msEvent.has_graph_def()) [[unlikely]]
        takeMindSporeGraph();
    const runlens::ms::Event& event = msEvent;
    if (std::isnan(event.wall_time())) {
        report(Problem::NanWallTime, Severity::Warning, recordOffset, [&] {
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
        if (!value.has_scalar_value())
            continue;
        const int index = tagIndex(value.tag());
        TagState& tag = tags[std::size_t(index)];
        if (!tag.hasMetadata) {
            tag.hasMetadata = true;
            tag.metadata.pluginName = QStringLiteral("scalars");
        }
        addPoint(index, step, wallTime, value.scalar_value());
    }
}

bool EventFileReader::Private::decode(const RecordReader::Record& record)
{
    recordOffset = record.offset;
    const int size = int(record.size); // records are limited to 1 GiB
    const bool parsed = flavor == SummaryFlavor::TensorBoard ? tbEvent.ParseFromArray(record.data, size)
                                                             : msEvent.ParseFromArray(record.data, size);
    if (!parsed) {
        report(Problem::Undecodable, Severity::Warning, record.offset, [&] {
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
    update->diagnostics.append(Diagnostic { Severity::Error, file, at, -1, message });
}

void EventFileReader::Private::readRecords(RecordReader& reader, const ImportControl& control, ImportUpdate& result)
{
    const qint64 start = reader.offset();
    qint64 records = 0;
    RecordReader::Record record;
    for (;;) {
        if ((records & (kRecordsPerCheck - 1)) == 0 && records > 0) {
            if (control.canceled()) {
                result.status = ImportStatus::Canceled;
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
            report(Problem::DataCrc, Severity::Warning, record.offset, [&] {
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
    for (const int tag : touchedTags)
        tags[std::size_t(tag)].batch = -1;
    touchedTags.clear();
    for (int kind = 0; kind < int(Problem::Count); ++kind) {
        if (unreported[kind] == 0)
            continue;
        update->diagnostics.append(Diagnostic {
            Severity::Warning, file, -1, -1,
            SummaryTr::tr("%n more record(s) with the same problem were skipped.", nullptr, int(unreported[kind])) });
        unreported[kind] = 0;
    }
    update = nullptr;
}

ImportStatus EventFileReader::Private::status() const
{
    if (hadProblems)
        return goodRecords == 0 ? ImportStatus::Failed : ImportStatus::Partial;
    return ImportStatus::Ok;
}

EventFileReader::EventFileReader(QString path, SummaryFlavor flavor)
    : d(std::make_unique<Private>(std::move(path), flavor))
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
        // A canceled graph decode is retried by the next poll.
        if (d->graphs && result.status != ImportStatus::Canceled) {
            if (!d->graphs->deliver(result, control))
                result.status = ImportStatus::Canceled;
            d->hadProblems = d->hadProblems || d->graphs->hadProblems();
        }
    });
    d->finishPoll();
    if (result.status != ImportStatus::Canceled)
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

} // namespace runlens::summary
