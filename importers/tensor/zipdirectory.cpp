#include "importers/tensor/zipdirectory.h"

#include <algorithm>
#include <limits>

namespace runlens::importers::tensor::ziparchive {

std::optional<QHash<QByteArray, CentralEntry>> centralEntries(const Bytes& bytes)
{
    std::int64_t end = -1;
    for (std::int64_t at = bytes.size - kEndBytes; at >= 0 && at >= bytes.size - kEndBytes - 0xffff; --at) {
        if (bytes.le(at, 4) == kEndSignature) {
            end = at;
            break;
        }
    }
    if (end < 0)
        return std::nullopt;
    std::uint64_t entries = bytes.le(end + 10, 2);
    std::uint64_t directoryOffset = bytes.le(end + 16, 4);
    // The zip64 end record takes over when a locator points at one (an archive of exactly 65535 members
    // may have none).
    const std::int64_t locator = end - 20;
    if ((entries == 0xffff || directoryOffset == 0xffffffff) && bytes.has(locator, 20)
        && bytes.le(locator, 4) == kZip64LocatorSignature) {
        const std::uint64_t end64 = bytes.le(locator + 8, 8);
        if (end64 > std::uint64_t(bytes.size) || !bytes.has(std::int64_t(end64), 56)
            || bytes.le(std::int64_t(end64), 4) != kZip64EndSignature)
            return std::nullopt;
        entries = bytes.le(std::int64_t(end64) + 32, 8);
        directoryOffset = bytes.le(std::int64_t(end64) + 48, 8);
    }
    if (directoryOffset > std::uint64_t(bytes.size))
        return std::nullopt;
    QHash<QByteArray, CentralEntry> offsets;
    std::int64_t at = std::int64_t(directoryOffset);
    for (std::uint64_t i = 0; i < entries; ++i) {
        if (!bytes.has(at, kCentralHeaderBytes) || bytes.le(at, 4) != kCentralHeaderSignature)
            return std::nullopt;
        std::uint64_t compressed = bytes.le(at + 20, 4);
        const std::uint64_t uncompressed = bytes.le(at + 24, 4);
        const std::int64_t nameLength = std::int64_t(bytes.le(at + 28, 2));
        const std::int64_t extraLength = std::int64_t(bytes.le(at + 30, 2));
        const std::int64_t commentLength = std::int64_t(bytes.le(at + 32, 2));
        std::uint64_t offset = bytes.le(at + 42, 4);
        const std::int64_t nameAt = at + kCentralHeaderBytes;
        if (!bytes.has(nameAt, nameLength + extraLength + commentLength))
            return std::nullopt;
        if (offset == 0xffffffff || compressed == 0xffffffff) {
            // The zip64 extra field holds, in this order, only the values the fixed fields could not.
            for (std::int64_t x = nameAt + nameLength; x + 4 <= nameAt + nameLength + extraLength;) {
                const std::uint64_t id = bytes.le(x, 2);
                const std::int64_t length = std::int64_t(bytes.le(x + 2, 2));
                if (x + 4 + length > nameAt + nameLength + extraLength)
                    break;
                if (id == 0x0001) {
                    std::int64_t field = x + 4 + (uncompressed == 0xffffffff ? 8 : 0);
                    if (compressed == 0xffffffff && field + 8 <= x + 4 + length) {
                        compressed = bytes.le(field, 8);
                        field += 8;
                    }
                    if (offset == 0xffffffff && field + 8 <= x + 4 + length)
                        offset = bytes.le(field, 8);
                    break;
                }
                x += 4 + length;
            }
        }
        CentralEntry entry;
        entry.entry = at;
        entry.local = std::int64_t(std::min<std::uint64_t>(offset, std::numeric_limits<std::int64_t>::max()));
        // Unsigned arithmetic on values each checked against the size first: nothing can wrap.
        const std::uint64_t size = std::uint64_t(bytes.size);
        entry.inside = offset <= size && std::uint64_t(kLocalHeaderBytes) <= size - offset
            && compressed <= size - offset - std::uint64_t(kLocalHeaderBytes);
        offsets.insert(QByteArray(reinterpret_cast<const char*>(bytes.data + nameAt), nameLength), entry);
        at = nameAt + nameLength + extraLength + commentLength;
    }
    return offsets;
}

bool readMember(zip_file_t* file, std::byte* out, std::int64_t count, std::int64_t& got)
{
    got = 0;
    while (got < count) {
        const zip_int64_t n = zip_fread(file, out + got, zip_uint64_t(count - got));
        if (n < 0)
            return false;
        if (n == 0)
            break;
        got += n;
    }
    return true;
}

} // namespace runlens::importers::tensor::ziparchive
