#include "importers/summary/eventfilewriter.h"

#include "importers/summary/proto/ms_summary.pb.h"
#include "importers/summary/proto/tb_event.pb.h"
#include "importers/summary/recordreader.h"
#include "importers/summary/summarytr.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSysInfo>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace runlens::importers::summary {

namespace {

QString thisHost()
{
    const QString host = QSysInfo::machineHostName();
    return host.isEmpty() ? QStringLiteral("localhost") : host;
}

std::string utf8(const QString& text)
{
    const QByteArray bytes = text.toUtf8();
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}

/// A histogram's statistics with the unknown ones derived from its buckets (count, min, max) or zero.
struct HistogramStatistics
{
    double count;
    double min;
    double max;
    double sum;
    double sumSquares;

    explicit HistogramStatistics(const models::summary::Histogram& h)
        : count(std::isnan(h.count) ? h.bucketTotal() : h.count)
        , min(std::isnan(h.min) ? (h.buckets.empty() ? 0.0 : h.lowestEdge()) : h.min)
        , max(std::isnan(h.max) ? (h.buckets.empty() ? 0.0 : h.highestEdge()) : h.max)
        , sum(std::isnan(h.sum) ? 0.0 : h.sum)
        , sumSquares(std::isnan(h.sumSquares) ? 0.0 : h.sumSquares)
    {
        // An all-zero histogram has no edges with a count.
        if (std::isnan(min))
            min = 0.0;
        if (std::isnan(max))
            max = 0.0;
    }
};

void appendLittleEndian(std::string& out, double value)
{
    const auto bits = std::bit_cast<std::uint64_t>(value);
    for (int i = 0; i < 8; ++i)
        out.push_back(char((bits >> (8 * i)) & 0xffu));
}

void fillHistogramProto(runlens::tb::HistogramProto* proto, const models::summary::Histogram& histogram)
{
    const HistogramStatistics stats(histogram);
    proto->set_min(stats.min);
    proto->set_max(stats.max);
    proto->set_num(stats.count);
    proto->set_sum(stats.sum);
    proto->set_sum_squares(stats.sumSquares);
    // The format keeps right edges only; the first bucket's left edge is understood to be `min`.
    proto->mutable_bucket_limit()->Reserve(int(histogram.buckets.size()));
    proto->mutable_bucket()->Reserve(int(histogram.buckets.size()));
    for (const models::summary::HistogramBucket& bucket : histogram.buckets) {
        proto->add_bucket_limit(bucket.right);
        proto->add_bucket(bucket.count);
    }
}

void fillHistogramTensor(runlens::tb::TensorProto* tensor, const models::summary::Histogram& histogram)
{
    tensor->set_dtype(runlens::tb::DT_DOUBLE);
    runlens::tb::TensorShapeProto* shape = tensor->mutable_tensor_shape();
    shape->add_dim()->set_size(qint64(histogram.buckets.size()));
    shape->add_dim()->set_size(3);
    std::string content;
    content.reserve(histogram.buckets.size() * 3 * sizeof(double));
    for (const models::summary::HistogramBucket& bucket : histogram.buckets) {
        appendLittleEndian(content, bucket.left);
        appendLittleEndian(content, bucket.right);
        appendLittleEndian(content, bucket.count);
    }
    tensor->set_tensor_content(std::move(content));
}

void fillMindSporeHistogram(runlens::ms::Summary::Histogram* proto, const models::summary::Histogram& histogram)
{
    const HistogramStatistics stats(histogram);
    for (const models::summary::HistogramBucket& bucket : histogram.buckets) {
        runlens::ms::Summary::Histogram::Bucket* out = proto->add_buckets();
        out->set_left(bucket.left);
        out->set_width(bucket.right - bucket.left);
        out->set_count(std::llround(bucket.count));
    }
    proto->set_nan_count(histogram.nanCount);
    proto->set_pos_inf_count(histogram.posInfCount);
    proto->set_neg_inf_count(histogram.negInfCount);
    proto->set_max(stats.max);
    proto->set_min(stats.min);
    proto->set_sum(stats.sum);
    proto->set_count(std::llround(stats.count));
}

/// Plugin metadata goes on a tag's first value in a file only, as TensorBoard's writers do.
void attachMetadataOnce(QSet<QString>& tagsWithMetadata, const QString& tag, runlens::tb::Summary::Value* value,
                        const char* plugin, runlens::tb::DataClass dataClass)
{
    if (tagsWithMetadata.contains(tag))
        return;
    tagsWithMetadata.insert(tag);
    runlens::tb::SummaryMetadata* metadata = value->mutable_metadata();
    metadata->mutable_plugin_data()->set_plugin_name(plugin);
    metadata->set_data_class(dataClass);
}

} // namespace

/// Reused messages, so that writing a record allocates nothing in the steady state.
struct EventFileWriter::Encoder
{
    runlens::tb::Event tbEvent;
    runlens::ms::Event msEvent;
    std::string bytes;

    /// Starts a new summary event of each flavour at (step, wallTime).
    runlens::tb::Summary* tensorBoardSummary(qint64 step, double wallTime)
    {
        tbEvent.Clear();
        tbEvent.set_wall_time(wallTime);
        tbEvent.set_step(step);
        return tbEvent.mutable_summary();
    }
    runlens::ms::Summary* mindSporeSummary(qint64 step, double wallTime)
    {
        msEvent.Clear();
        msEvent.set_wall_time(wallTime);
        msEvent.set_step(step);
        return msEvent.mutable_summary();
    }
    QByteArrayView serialize(const google::protobuf::MessageLite& event)
    {
        event.SerializeToString(&bytes);
        return QByteArrayView(bytes.data(), qsizetype(bytes.size()));
    }
};

EventFileWriter::EventFileWriter(SummaryFlavor flavor)
    : m_flavor(flavor)
    , m_encoder(std::make_unique<Encoder>())
{ }

EventFileWriter::~EventFileWriter()
{
    close();
}

bool EventFileWriter::open(const QString& path, OpenMode mode)
{
    close();
    m_error.clear();
    m_buffer.clear();
    m_records = 0;
    m_bytes = 0;
    m_tagsWithMetadata.clear();
    m_file.setFileName(path);
    const QIODevice::OpenMode flags
        = QIODevice::WriteOnly | (mode == OpenMode::Append ? QIODevice::Append : QIODevice::Truncate);
    if (!m_file.open(flags)) {
        m_error = SummaryTr::tr("Cannot open %1 for writing: %2").arg(path, m_file.errorString());
        return false;
    }
    return true;
}

bool EventFileWriter::close()
{
    if (!m_file.isOpen())
        return m_error.isEmpty();
    const bool ok = writeBuffer() && m_file.flush();
    m_file.close();
    return ok;
}

bool EventFileWriter::isOpen() const
{
    return m_file.isOpen();
}

QString EventFileWriter::path() const
{
    return m_file.fileName();
}

bool EventFileWriter::flush()
{
    return writeBuffer() && m_file.flush();
}

bool EventFileWriter::writeBuffer()
{
    if (!m_file.isOpen()) {
        if (m_error.isEmpty())
            m_error = SummaryTr::tr("The event file is not open.");
        return false;
    }
    if (m_buffer.isEmpty())
        return true;
    const qint64 written = m_file.write(m_buffer);
    if (written != m_buffer.size()) {
        m_error = SummaryTr::tr("Cannot write to %1: %2").arg(m_file.fileName(), m_file.errorString());
        m_buffer.clear();
        return false;
    }
    m_buffer.clear();
    return true;
}

bool EventFileWriter::appendRecord(QByteArrayView payload)
{
    if (!m_file.isOpen()) {
        m_error = SummaryTr::tr("The event file is not open.");
        return false;
    }
    const qsizetype before = m_buffer.size();
    tfrecord::appendFramed(m_buffer, payload);
    m_bytes += m_buffer.size() - before;
    ++m_records;
    return m_buffer.size() < m_bufferLimit || writeBuffer();
}

bool EventFileWriter::writeRecord(QByteArrayView payload)
{
    return appendRecord(payload);
}

bool EventFileWriter::writeRaw(QByteArrayView bytes)
{
    if (!m_file.isOpen()) {
        m_error = SummaryTr::tr("The event file is not open.");
        return false;
    }
    m_buffer.append(bytes.data(), bytes.size());
    m_bytes += bytes.size();
    return m_buffer.size() < m_bufferLimit || writeBuffer();
}

bool EventFileWriter::writeFileVersion(double wallTime)
{
    return writeFileVersion(wallTime, defaultFileVersion(m_flavor));
}

bool EventFileWriter::writeFileVersion(double wallTime, const QString& version)
{
    Encoder& e = *m_encoder;
    if (m_flavor == SummaryFlavor::TensorBoard) {
        e.tbEvent.Clear();
        e.tbEvent.set_wall_time(wallTime);
        e.tbEvent.set_file_version(utf8(version));
        return appendRecord(e.serialize(e.tbEvent));
    }
    e.msEvent.Clear();
    e.msEvent.set_wall_time(wallTime);
    e.msEvent.set_version(utf8(version));
    return appendRecord(e.serialize(e.msEvent));
}

bool EventFileWriter::writeScalar(const QString& tag, qint64 step, double wallTime, double value)
{
    const NamedValue one { tag, value };
    return writeScalars(step, wallTime, std::span<const NamedValue>(&one, 1));
}

bool EventFileWriter::writeScalars(qint64 step, double wallTime, std::span<const NamedValue> values)
{
    Encoder& e = *m_encoder;
    if (m_flavor == SummaryFlavor::TensorBoard) {
        runlens::tb::Summary* summary = e.tensorBoardSummary(step, wallTime);
        for (const NamedValue& named : values) {
            runlens::tb::Summary::Value* value = summary->add_value();
            value->set_tag(utf8(named.tag));
            value->set_simple_value(float(named.value));
        }
        return appendRecord(e.serialize(e.tbEvent));
    }
    runlens::ms::Summary* summary = e.mindSporeSummary(step, wallTime);
    for (const NamedValue& named : values) {
        runlens::ms::Summary::Value* value = summary->add_value();
        value->set_tag(utf8(named.tag));
        value->set_scalar_value(float(named.value));
    }
    return appendRecord(e.serialize(e.msEvent));
}

bool EventFileWriter::writeTensorScalar(const QString& tag, qint64 step, double wallTime, double value,
                                        TensorEncoding encoding)
{
    if (m_flavor != SummaryFlavor::TensorBoard) {
        m_error = SummaryTr::tr("Tensor-encoded scalars exist only in TensorBoard event files.");
        return false;
    }
    Encoder& e = *m_encoder;
    runlens::tb::Summary::Value* summaryValue = e.tensorBoardSummary(step, wallTime)->add_value();
    summaryValue->set_tag(utf8(tag));
    attachMetadataOnce(m_tagsWithMetadata, tag, summaryValue, "scalars", runlens::tb::DATA_CLASS_SCALAR);
    runlens::tb::TensorProto* tensor = summaryValue->mutable_tensor();
    tensor->set_dtype(runlens::tb::DT_FLOAT);
    tensor->mutable_tensor_shape(); // present and empty: rank 0
    const float number = float(value);
    if (encoding == TensorEncoding::Content) {
        std::uint32_t bits;
        std::memcpy(&bits, &number, sizeof bits);
        char little[4];
        for (int i = 0; i < 4; ++i)
            little[i] = char((bits >> (8 * i)) & 0xffu);
        tensor->set_tensor_content(little, sizeof little);
    } else {
        tensor->add_float_val(number);
    }
    return appendRecord(e.serialize(e.tbEvent));
}

bool EventFileWriter::writeHistogram(const QString& tag, qint64 step, double wallTime,
                                     const models::summary::Histogram& histogram, HistogramEncoding encoding)
{
    const NamedHistogram one { tag, histogram };
    return writeHistograms(step, wallTime, std::span<const NamedHistogram>(&one, 1), encoding);
}

bool EventFileWriter::writeHistograms(qint64 step, double wallTime, std::span<const NamedHistogram> values,
                                      HistogramEncoding encoding)
{
    Encoder& e = *m_encoder;
    if (m_flavor == SummaryFlavor::TensorBoard) {
        runlens::tb::Summary* summary = e.tensorBoardSummary(step, wallTime);
        for (const NamedHistogram& named : values) {
            runlens::tb::Summary::Value* value = summary->add_value();
            value->set_tag(utf8(named.tag));
            if (encoding == HistogramEncoding::Proto) {
                fillHistogramProto(value->mutable_histo(), named.histogram);
            } else {
                attachMetadataOnce(m_tagsWithMetadata, named.tag, value, "histograms", runlens::tb::DATA_CLASS_TENSOR);
                fillHistogramTensor(value->mutable_tensor(), named.histogram);
            }
        }
        return appendRecord(e.serialize(e.tbEvent));
    }
    runlens::ms::Summary* summary = e.mindSporeSummary(step, wallTime);
    for (const NamedHistogram& named : values) {
        runlens::ms::Summary::Value* value = summary->add_value();
        value->set_tag(utf8(named.tag));
        fillMindSporeHistogram(value->mutable_histogram(), named.histogram);
    }
    return appendRecord(e.serialize(e.msEvent));
}

double EventFileWriter::currentWallTime()
{
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

QString EventFileWriter::defaultFileVersion(SummaryFlavor flavor)
{
    return flavor == SummaryFlavor::TensorBoard ? QStringLiteral("brain.Event:2") : QStringLiteral("MindSpore.Event:1");
}

QString EventFileWriter::tensorBoardFileName(qint64 unixSeconds, const QString& host, qint64 pid, int counter)
{
    if (unixSeconds < 0)
        unixSeconds = QDateTime::currentSecsSinceEpoch();
    return QStringLiteral("events.out.tfevents.%1.%2.%3.%4")
        .arg(unixSeconds)
        .arg(host.isEmpty() ? thisHost() : host)
        .arg(pid < 0 ? QCoreApplication::applicationPid() : pid)
        .arg(counter);
}

QString EventFileWriter::mindSporeFileName(qint64 unixSeconds, int deviceId, const QString& host)
{
    if (unixSeconds < 0)
        unixSeconds = QDateTime::currentSecsSinceEpoch();
    return QStringLiteral("events.out.events.summary.%1.%2.%3_MS")
        .arg(unixSeconds)
        .arg(deviceId)
        .arg(host.isEmpty() ? thisHost() : host);
}

} // namespace runlens::importers::summary
