#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QFile>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace runlens::importers::summary {

/// How one TFRecord frame looks.
enum class RecordStatus {
    Ok, ///< a complete record with valid checksums
    End, ///< no byte after the last complete record
    Truncated, ///< an incomplete record at the end: not an error, read again at its start once the file grew
    BadLengthCrc, ///< the length field is damaged: nothing after it can be framed (fatal for the file)
    BadDataCrc, ///< the payload is damaged: the record is skipped, the following ones are fine
    TooLarge, ///< the length exceeds the limit for one record (fatal for the file)
    IoError, ///< the file could not be read (fatal for the file)
};

/// TFRecord framing: 8-byte little-endian payload length, masked CRC-32C of those 8 bytes, the payload,
/// masked CRC-32C of the payload.
namespace tfrecord {
constexpr std::size_t kHeaderSize = 12;
constexpr std::size_t kFooterSize = 4;
constexpr std::size_t kOverhead = kHeaderSize + kFooterSize;
/// Default limit for one payload. Real event records are far smaller; a larger claim is damage.
constexpr std::uint64_t kDefaultMaxPayload = std::uint64_t(1) << 30;

/// Result of looking at the record that starts at `data`.
struct Frame
{
    RecordStatus status = RecordStatus::End;
    std::uint64_t payloadSize = 0; ///< valid once the length CRC was checked
    std::size_t recordSize = 0; ///< bytes to skip to the next record (Ok, BadDataCrc)
};

/// Frames one record in a buffer holding `size` bytes from the record start to the end of the known data
/// (the file end). A length that passes its CRC but reaches past `size` is Truncated: the data may still
/// arrive. Without `verifyDataCrc` the payload CRC is not computed. Never reads outside the buffer.
Frame frame(const char* data, std::size_t size, bool verifyDataCrc = true,
            std::uint64_t maxPayload = kDefaultMaxPayload);

/// Appends the framed form of `payload` to `out`.
void appendFramed(QByteArray& out, QByteArrayView payload);
/// The framed form of `payload`.
QByteArray framed(QByteArrayView payload);
} // namespace tfrecord

/// Reads the TFRecords of one file in order, starting at any record boundary. The file is read in large
/// chunks into a reusable buffer (never whole), so multi-gigabyte files stream. Reading resumes after an
/// incomplete tail: `next()` returns Truncated and keeps `offset()` at that record's start, and a later
/// `next()` (or a new reader opened at `offset()`) completes the record once the file has grown.
/// After a fatal status every further `next()` returns it again.
class RecordReader
{
public:
    /// A record's payload; `data` points into the reader's buffer and stays valid until the next call.
    struct Record
    {
        qint64 offset = 0; ///< file offset of the record's length field
        const char* data = nullptr;
        std::size_t size = 0;
    };

    explicit RecordReader(QString path);
    ~RecordReader();
    RecordReader(const RecordReader&) = delete;
    RecordReader& operator=(const RecordReader&) = delete;

    /// Opens the file and positions at `offset`, which must be a record boundary. False when the file
    /// cannot be opened (fileSize() is then -1) or is shorter than `offset` (see errorString()).
    bool open(qint64 offset = 0);
    void close();
    bool isOpen() const;

    /// Frames the next record. Ok and BadDataCrc fill `record` and move past it; the others do not move.
    RecordStatus next(Record& record);

    /// File offset after the last record consumed: where reading continues.
    qint64 offset() const { return m_bufferOffset + qint64(m_begin); }
    /// File offset of the record that caused the last non-Ok status.
    qint64 problemOffset() const { return m_problemOffset; }
    /// Payload length claimed by the record at problemOffset() (TooLarge, Truncated).
    std::uint64_t problemLength() const { return m_problemLength; }
    /// Size of the file as last seen; -1 when it could not be opened.
    qint64 fileSize() const { return m_fileSize; }
    QString errorString() const { return m_error; }

    void setVerifyDataCrc(bool verify) { m_verifyDataCrc = verify; }
    void setMaxPayload(std::uint64_t bytes) { m_maxPayload = bytes; }
    /// Bytes read from the file at a time (default 4 MiB).
    void setChunkSize(std::size_t bytes) { m_chunkSize = bytes < 64 ? 64 : bytes; }

private:
    /// Makes at least `bytes` bytes from m_begin available; false when the file ends (or fails) first.
    bool ensure(std::size_t bytes);

    QString m_path;
    QFile m_file;
    std::unique_ptr<char[]> m_buffer;
    std::size_t m_capacity = 0;
    std::size_t m_begin = 0; ///< first unconsumed byte in m_buffer
    std::size_t m_end = 0; ///< end of valid data in m_buffer
    qint64 m_bufferOffset = 0; ///< file offset of m_buffer[0]
    qint64 m_fileSize = 0;
    qint64 m_problemOffset = -1;
    std::uint64_t m_problemLength = 0;
    std::size_t m_chunkSize = std::size_t(4) << 20;
    std::uint64_t m_maxPayload = tfrecord::kDefaultMaxPayload;
    RecordStatus m_fatal = RecordStatus::Ok;
    bool m_verifyDataCrc = true;
    bool m_atEof = false; ///< the last read returned nothing
    QString m_error;
};

} // namespace runlens::importers::summary
