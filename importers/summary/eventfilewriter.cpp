#include "eventfilewriter.h"

#include "recordreader.h"
#include "summary/proto/ms_summary.pb.h"
#include "summary/proto/tb_event.pb.h"
#include "summarytr.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSysInfo>

#include <cstring>
#include <string>

namespace runlens::summary {

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

} // namespace

/// Reused messages, so that writing a record allocates nothing in the steady state.
struct EventFileWriter::Encoder
{
    runlens::tb::Event tbEvent;
    runlens::ms::Event msEvent;
    std::string bytes;
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
        e.tbEvent.SerializeToString(&e.bytes);
    } else {
        e.msEvent.Clear();
        e.msEvent.set_wall_time(wallTime);
        e.msEvent.set_version(utf8(version));
        e.msEvent.SerializeToString(&e.bytes);
    }
    return appendRecord(QByteArrayView(e.bytes.data(), qsizetype(e.bytes.size())));
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
        runlens::tb::Event& event = e.tbEvent;
        event.Clear();
        event.set_wall_time(wallTime);
        event.set_step(step);
        runlens::tb::Summary* summary = event.mutable_summary();
        for (const NamedValue& named : values) {
            runlens::tb::Summary::Value* value = summary->add_value();
            value->set_tag(utf8(named.tag));
            value->set_simple_value(float(named.value));
        }
        event.SerializeToString(&e.bytes);
    } else {
        runlens::ms::Event& event = e.msEvent;
        event.Clear();
        event.set_wall_time(wallTime);
        event.set_step(step);
        runlens::ms::Summary* summary = event.mutable_summary();
        for (const NamedValue& named : values) {
            runlens::ms::Summary::Value* value = summary->add_value();
            value->set_tag(utf8(named.tag));
            value->set_scalar_value(float(named.value));
        }
        event.SerializeToString(&e.bytes);
    }
    return appendRecord(QByteArrayView(e.bytes.data(), qsizetype(e.bytes.size())));
}

bool EventFileWriter::writeTensorScalar(const QString& tag, qint64 step, double wallTime, double value,
                                        TensorEncoding encoding)
{
    if (m_flavor != SummaryFlavor::TensorBoard) {
        m_error = SummaryTr::tr("Tensor-encoded scalars exist only in TensorBoard event files.");
        return false;
    }
    Encoder& e = *m_encoder;
    runlens::tb::Event& event = e.tbEvent;
    event.Clear();
    event.set_wall_time(wallTime);
    event.set_step(step);
    runlens::tb::Summary::Value* summaryValue = event.mutable_summary()->add_value();
    summaryValue->set_tag(utf8(tag));
    if (!m_tagsWithMetadata.contains(tag)) {
        m_tagsWithMetadata.insert(tag);
        runlens::tb::SummaryMetadata* metadata = summaryValue->mutable_metadata();
        metadata->mutable_plugin_data()->set_plugin_name("scalars");
        metadata->set_data_class(runlens::tb::DATA_CLASS_SCALAR);
    }
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
    event.SerializeToString(&e.bytes);
    return appendRecord(QByteArrayView(e.bytes.data(), qsizetype(e.bytes.size())));
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

} // namespace runlens::summary
