#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QString>

#include <zip.h>

#include <cstddef>
#include <cstdint>
#include <optional>

// The parts of a zip archive the tensor containers (.npz, torch.save) read themselves: libzip lists and
// inflates members but does not tell where a stored member's bytes lie in the file, which a mapping needs.

namespace runlens::importers::tensor::ziparchive {

constexpr std::uint32_t kLocalHeaderSignature = 0x04034b50;
constexpr std::uint32_t kCentralHeaderSignature = 0x02014b50;
constexpr std::uint32_t kEndSignature = 0x06054b50;
constexpr std::uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr std::uint32_t kZip64EndSignature = 0x06064b50;
constexpr std::int64_t kLocalHeaderBytes = 30;
constexpr std::int64_t kCentralHeaderBytes = 46;
constexpr std::int64_t kEndBytes = 22;

/// Little-endian reads from a byte range whose bounds the caller has checked.
struct Bytes
{
    const unsigned char* data = nullptr;
    std::int64_t size = 0;

    bool has(std::int64_t offset, std::int64_t count) const
    {
        return offset >= 0 && count >= 0 && offset <= size && count <= size - offset;
    }
    std::uint64_t le(std::int64_t offset, int count) const
    {
        std::uint64_t value = 0;
        for (int i = count - 1; i >= 0; --i)
            value = value << 8 | data[offset + i];
        return value;
    }
};

/// One member's entry in the central directory: where the entry itself is and where it puts the member.
struct CentralEntry
{
    std::int64_t entry = -1; ///< offset of the central-directory entry
    std::int64_t local = -1; ///< offset of the member's local header, as the entry claims it
    /// Whether the local header and the compressed bytes the entry declares lie inside the file. An entry
    /// that points beyond the file is damaged; its offsets must not be reported as offsets of the file.
    bool inside = false;
};

/// Each member's central-directory entry, by raw name. libzip reads the same directory but does not tell
/// these offsets.
std::optional<QHash<QByteArray, CentralEntry>> centralEntries(const Bytes& bytes);

/// An open libzip archive, closed on scope exit.
struct ZipArchive
{
    zip_t* archive = nullptr;
    QString error;

    explicit ZipArchive(const QString& path)
    {
        int code = 0;
        archive = zip_open(QFile::encodeName(path).constData(), ZIP_RDONLY, &code);
        if (!archive) {
            zip_error_t zipError;
            zip_error_init_with_code(&zipError, code);
            error = QCoreApplication::translate(
                        "runlens::tensor::ZipArchive",
                        "%1: not a readable zip archive (%2); the file may be truncated or damaged")
                        .arg(path, QString::fromLocal8Bit(zip_error_strerror(&zipError)));
            zip_error_fini(&zipError);
        }
    }
    ~ZipArchive()
    {
        if (archive)
            zip_discard(archive);
    }
    ZipArchive(const ZipArchive&) = delete;
    ZipArchive& operator=(const ZipArchive&) = delete;
};

/// Reads up to `count` bytes of an open member into `out` from its current position; false on a read error.
bool readMember(zip_file_t* file, std::byte* out, std::int64_t count, std::int64_t& got);

} // namespace runlens::importers::tensor::ziparchive
