#include "importers/summary/recordreader.h"

#include "models/core/crc32c.h"

#include <algorithm>
#include <cstring>

namespace runlens::importers::summary {

namespace {

inline std::uint64_t loadLe64(const char* p)
{
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i)
        value = (value << 8) | std::uint8_t(p[i]);
    return value;
}

inline std::uint32_t loadLe32(const char* p)
{
    return std::uint32_t(std::uint8_t(p[0])) | (std::uint32_t(std::uint8_t(p[1])) << 8)
        | (std::uint32_t(std::uint8_t(p[2])) << 16) | (std::uint32_t(std::uint8_t(p[3])) << 24);
}

inline void storeLe32(char* p, std::uint32_t value)
{
    for (int i = 0; i < 4; ++i)
        p[i] = char((value >> (8 * i)) & 0xffu);
}

inline bool lengthCrcMatches(const char* header)
{
    return models::maskedCrc32c(header, 8) == loadLe32(header + 8);
}

inline bool dataCrcMatches(const char* payload, std::size_t size)
{
    return models::maskedCrc32c(payload, size) == loadLe32(payload + size);
}

constexpr std::size_t kMinimumBuffer = 64 * 1024;

} // namespace

namespace tfrecord {

Frame frame(const char* data, std::size_t size, bool verifyDataCrc, std::uint64_t maxPayload)
{
    Frame result;
    if (size == 0)
        return result; // End
    if (size < kHeaderSize) {
        result.status = RecordStatus::Truncated;
        return result;
    }
    if (!lengthCrcMatches(data)) {
        result.status = RecordStatus::BadLengthCrc;
        return result;
    }
    result.payloadSize = loadLe64(data);
    if (result.payloadSize > maxPayload) {
        result.status = RecordStatus::TooLarge;
        return result;
    }
    if (size < kOverhead || result.payloadSize > size - kOverhead) {
        result.status = RecordStatus::Truncated;
        return result;
    }
    result.recordSize = std::size_t(result.payloadSize) + kOverhead;
    if (verifyDataCrc && !dataCrcMatches(data + kHeaderSize, std::size_t(result.payloadSize))) {
        result.status = RecordStatus::BadDataCrc;
        return result;
    }
    result.status = RecordStatus::Ok;
    return result;
}

void appendFramed(QByteArray& out, QByteArrayView payload)
{
    char header[kHeaderSize];
    const auto length = std::uint64_t(payload.size());
    for (int i = 0; i < 8; ++i)
        header[i] = char((length >> (8 * i)) & 0xffu);
    storeLe32(header + 8, models::maskedCrc32c(header, 8));
    char footer[kFooterSize];
    storeLe32(footer, models::maskedCrc32c(payload.data(), std::size_t(payload.size())));
    out.append(header, kHeaderSize);
    out.append(payload.data(), payload.size());
    out.append(footer, kFooterSize);
}

QByteArray framed(QByteArrayView payload)
{
    QByteArray out;
    out.reserve(payload.size() + qsizetype(kOverhead));
    appendFramed(out, payload);
    return out;
}

} // namespace tfrecord

RecordReader::RecordReader(QString path)
    : m_path(std::move(path))
{ }

RecordReader::~RecordReader() = default;

bool RecordReader::open(qint64 offset)
{
    close();
    m_error.clear();
    m_file.setFileName(m_path);
    // Unbuffered: reads go straight into our buffer, and a read after the end sees data appended since.
    if (!m_file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        m_fileSize = -1;
        m_error = m_file.errorString();
        return false;
    }
    m_fileSize = m_file.size();
    if (offset < 0 || offset > m_fileSize || !m_file.seek(offset)) {
        m_error = QStringLiteral("offset %1 is outside the file (%2 bytes)").arg(offset).arg(m_fileSize);
        m_file.close();
        return false;
    }
    m_bufferOffset = offset;
    m_begin = m_end = 0;
    const auto remaining = std::uint64_t(m_fileSize - offset);
    const std::size_t wanted = remaining >= m_chunkSize ? m_chunkSize : std::size_t(remaining) + kMinimumBuffer;
    if (!m_buffer || m_capacity < wanted || m_capacity > m_chunkSize) {
        m_buffer = std::make_unique_for_overwrite<char[]>(wanted);
        m_capacity = wanted;
    }
    m_fatal = RecordStatus::Ok;
    m_problemOffset = -1;
    m_problemLength = 0;
    return true;
}

void RecordReader::close()
{
    if (m_file.isOpen())
        m_file.close();
}

bool RecordReader::isOpen() const
{
    return m_file.isOpen();
}

bool RecordReader::ensure(std::size_t bytes)
{
    const std::size_t available = m_end - m_begin;
    if (available >= bytes)
        return true;
    if (!m_file.isOpen())
        return false;
    if (m_begin + bytes > m_capacity) {
        if (bytes > m_capacity || m_capacity < m_chunkSize) {
            // Grow only for data the file really has: a damaged or racing length field must not make us
            // allocate what the header claims.
            m_fileSize = m_file.size();
            if (bytes > m_capacity && offset() + qint64(bytes) > m_fileSize)
                return false;
            const std::size_t capacity = std::max(bytes, std::min(m_chunkSize, m_capacity * 2));
            auto buffer = std::make_unique_for_overwrite<char[]>(capacity);
            std::memcpy(buffer.get(), m_buffer.get() + m_begin, available);
            m_buffer = std::move(buffer);
            m_capacity = capacity;
        } else {
            std::memmove(m_buffer.get(), m_buffer.get() + m_begin, available);
        }
        m_bufferOffset += qint64(m_begin);
        m_begin = 0;
        m_end = available;
    }
    while (m_end - m_begin < bytes) {
        const qint64 got = m_file.read(m_buffer.get() + m_end, qint64(m_capacity - m_end));
        if (got < 0) {
            m_error = m_file.errorString();
            m_fatal = RecordStatus::IoError;
            m_problemOffset = offset();
            return false;
        }
        if (got == 0)
            return false;
        m_end += std::size_t(got);
        m_fileSize = std::max(m_fileSize, m_bufferOffset + qint64(m_end));
    }
    return true;
}

RecordStatus RecordReader::next(Record& record)
{
    if (m_fatal != RecordStatus::Ok)
        return m_fatal;
    const qint64 start = offset();
    if (!ensure(tfrecord::kHeaderSize)) {
        if (m_fatal != RecordStatus::Ok)
            return m_fatal;
        if (m_end == m_begin)
            return RecordStatus::End;
        m_problemOffset = start;
        m_problemLength = 0;
        return RecordStatus::Truncated;
    }
    const char* header = m_buffer.get() + m_begin;
    if (!lengthCrcMatches(header)) {
        m_problemOffset = start;
        m_fatal = RecordStatus::BadLengthCrc;
        return m_fatal;
    }
    const std::uint64_t length = loadLe64(header);
    if (length > m_maxPayload) {
        m_problemOffset = start;
        m_problemLength = length;
        m_fatal = RecordStatus::TooLarge;
        return m_fatal;
    }
    const std::size_t recordSize = std::size_t(length) + tfrecord::kOverhead;
    if (!ensure(recordSize)) {
        if (m_fatal != RecordStatus::Ok)
            return m_fatal;
        m_problemOffset = start;
        m_problemLength = length;
        return RecordStatus::Truncated;
    }
    const char* payload = m_buffer.get() + m_begin + tfrecord::kHeaderSize;
    record.offset = start;
    record.data = payload;
    record.size = std::size_t(length);
    m_begin += recordSize;
    if (m_verifyDataCrc && !dataCrcMatches(payload, record.size)) {
        m_problemOffset = start;
        m_problemLength = length;
        return RecordStatus::BadDataCrc;
    }
    return RecordStatus::Ok;
}

} // namespace runlens::importers::summary
