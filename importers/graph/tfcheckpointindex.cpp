#include "importers/graph/tfcheckpointindex.h"

#include "importers/graph/proto/tf_saved_model.pb.h"
#include "importers/graph/protowire.h"
#include "importers/graph/tfgraphreader.h"
#include "models/core/crc32c.h"

#include <cstdio>

namespace runlens::importers::graph {

namespace {

constexpr std::uint64_t kTableMagic = 0xdb4775248b80fb57ull;
constexpr std::size_t kFooterSize = 48;
constexpr std::size_t kTrailerSize = 5; // compression type byte + masked CRC-32C

bool varint(std::string_view s, std::size_t& pos, std::uint64_t& value)
{
    value = 0;
    for (int shift = 0; shift < 64 && pos < s.size(); shift += 7) {
        const auto byte = std::uint8_t(s[pos++]);
        value |= std::uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}

std::uint32_t le32(const char* p)
{
    return std::uint32_t(std::uint8_t(p[0])) | std::uint32_t(std::uint8_t(p[1])) << 8
        | std::uint32_t(std::uint8_t(p[2])) << 16 | std::uint32_t(std::uint8_t(p[3])) << 24;
}

struct Handle
{
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

bool readHandle(std::string_view s, std::size_t& pos, Handle& h)
{
    return varint(s, pos, h.offset) && varint(s, pos, h.size);
}

class TableReader
{
public:
    explicit TableReader(std::string_view bytes)
        : m_bytes(bytes)
    { }

    /// The contents of the block at `h`, decompressed into `storage` when needed; empty + error on damage.
    bool block(const Handle& h, std::string& storage, std::string_view& out, std::string& error)
    {
        if (h.offset > m_bytes.size() || h.size > m_bytes.size() - h.offset
            || kTrailerSize > m_bytes.size() - h.offset - h.size) {
            error = "a block lies beyond the end of the file";
            return false;
        }
        const std::string_view raw = m_bytes.substr(std::size_t(h.offset), std::size_t(h.size));
        const char type = m_bytes[std::size_t(h.offset + h.size)];
        const std::uint32_t stored = le32(m_bytes.data() + h.offset + h.size + 1);
        const std::uint32_t crc = models::crc32cExtend(models::crc32c(raw.data(), raw.size()), &type, 1);
        if (models::maskCrc32c(crc) != stored) {
            error = "a block's checksum does not match its bytes";
            return false;
        }
        if (type == 0) {
            out = raw;
            return true;
        }
        if (type != 1) {
            error = "a block is compressed in an unknown way (type " + std::to_string(int(std::uint8_t(type))) + ")";
            return false;
        }
        if (m_spent >= checkpointlimits::kMaxTotalBytes
            || !snappyUncompress(
                raw, storage, std::min(checkpointlimits::kMaxBlockBytes, checkpointlimits::kMaxTotalBytes - m_spent))) {
            error = "a compressed block is damaged or too large";
            return false;
        }
        m_spent += storage.size();
        out = storage;
        return true;
    }

private:
    std::string_view m_bytes;
    std::size_t m_spent = 0;
};

/// Walks the entries of one block (prefix-compressed keys); `visit(key, value)` returns false to stop.
template<class Visit> bool walkBlock(std::string_view block, std::string& error, Visit&& visit)
{
    if (block.size() < 4) {
        error = "a block is too short";
        return false;
    }
    const std::uint32_t restarts = le32(block.data() + block.size() - 4);
    if (restarts > (block.size() - 4) / 4) {
        error = "a block's restart count exceeds its size";
        return false;
    }
    const std::size_t limit = block.size() - 4 - std::size_t(restarts) * 4;
    std::string key;
    std::size_t pos = 0;
    while (pos < limit) {
        std::uint64_t shared = 0, unshared = 0, valueSize = 0;
        const std::string_view entries = block.substr(0, limit);
        if (!varint(entries, pos, shared) || !varint(entries, pos, unshared) || !varint(entries, pos, valueSize)
            || shared > key.size() || unshared > limit - pos || valueSize > limit - pos - unshared) {
            error = "a block entry is damaged";
            return false;
        }
        key.resize(std::size_t(shared));
        key.append(block.substr(pos, std::size_t(unshared)));
        pos += std::size_t(unshared);
        const std::string_view value = block.substr(pos, std::size_t(valueSize));
        pos += std::size_t(valueSize);
        if (!visit(key, value))
            return true;
    }
    return true;
}

} // namespace

bool snappyUncompress(std::string_view in, std::string& out, std::size_t maxSize)
{
    out.clear();
    std::size_t pos = 0;
    std::uint64_t expected = 0;
    if (!varint(in, pos, expected) || expected > maxSize)
        return false;
    out.reserve(std::size_t(expected));
    while (pos < in.size()) {
        const auto tag = std::uint8_t(in[pos++]);
        std::size_t length = 0;
        std::size_t offset = 0;
        switch (tag & 3) {
        case 0: { // literal
            length = std::size_t(tag >> 2);
            if (length >= 60) {
                const std::size_t bytes = length - 59;
                if (bytes > in.size() - pos)
                    return false;
                length = 0;
                for (std::size_t i = 0; i < bytes; ++i)
                    length |= std::size_t(std::uint8_t(in[pos + i])) << (8 * i);
                pos += bytes;
            }
            length += 1;
            if (length > in.size() - pos || length > expected - out.size())
                return false;
            out.append(in.substr(pos, length));
            pos += length;
            continue;
        }
        case 1:
            if (pos >= in.size())
                return false;
            length = std::size_t((tag >> 2) & 7) + 4;
            offset = (std::size_t(tag >> 5) << 8) | std::uint8_t(in[pos++]);
            break;
        case 2:
            if (2 > in.size() - pos)
                return false;
            length = std::size_t(tag >> 2) + 1;
            offset = std::size_t(std::uint8_t(in[pos])) | std::size_t(std::uint8_t(in[pos + 1])) << 8;
            pos += 2;
            break;
        default:
            if (4 > in.size() - pos)
                return false;
            length = std::size_t(tag >> 2) + 1;
            offset = le32(in.data() + pos);
            pos += 4;
            break;
        }
        if (offset == 0 || offset > out.size() || length > expected - out.size())
            return false;
        // Copies may overlap their own output (a run of one repeated byte): byte by byte.
        const std::size_t from = out.size() - offset;
        for (std::size_t i = 0; i < length; ++i)
            out.push_back(out[from + i]);
    }
    return out.size() == expected;
}

TfCheckpointIndex readTfCheckpointIndex(std::string_view bytes)
{
    TfCheckpointIndex index;
    if (bytes.size() < kFooterSize) {
        index.error = "the file is shorter than a table footer";
        return index;
    }
    const std::string_view footer = bytes.substr(bytes.size() - kFooterSize);
    const std::uint64_t magic = std::uint64_t(le32(footer.data() + 40)) | std::uint64_t(le32(footer.data() + 44)) << 32;
    if (magic != kTableMagic) {
        index.error = "the table footer's magic number is missing";
        return index;
    }
    std::size_t pos = 0;
    Handle metaIndex, indexHandle;
    if (!readHandle(footer, pos, metaIndex) || !readHandle(footer, pos, indexHandle) || pos > 40) {
        index.error = "the table footer is damaged";
        return index;
    }
    TableReader table(bytes);
    std::string indexStorage;
    std::string_view indexBlock;
    if (!table.block(indexHandle, indexStorage, indexBlock, index.error))
        return index;
    tf::BundleEntryProto entry;
    std::string dataStorage;
    std::size_t blocks = 0;
    walkBlock(indexBlock, index.error, [&](const std::string&, std::string_view value) {
        Handle h;
        std::size_t at = 0;
        std::string_view data;
        // A table of a million entries has some thousand blocks; more blocks than entries is damage.
        if (++blocks > checkpointlimits::kMaxEntries || !readHandle(value, at, h)) {
            index.error = "the table index is damaged";
            return false;
        }
        if (!table.block(h, dataStorage, data, index.error))
            return false;
        return walkBlock(data, index.error,
                         [&](const std::string& key, std::string_view bytesOfValue) {
                             if (key.empty()) {
                                 tf::BundleHeaderProto header;
                                 if (wire::parse(header, bytesOfValue)) {
                                     index.shards = header.num_shards();
                                     index.bigEndian = header.endianness() == 1; // BundleHeaderProto.BIG
                                 }
                                 return true;
                             }
                             if (index.entries.size() >= checkpointlimits::kMaxEntries) {
                                 index.truncated = true;
                                 return false;
                             }
                             if (!wire::parse(entry, bytesOfValue)) {
                                 index.error = "the entry of \"" + key.substr(0, 200) + "\" is damaged";
                                 return false;
                             }
                             TfCheckpointEntry e;
                             e.key = key;
                             e.type = tfTensorType(entry.shape(), entry.dtype());
                             e.shard = entry.shard_id();
                             e.offset = entry.offset();
                             e.size = entry.size();
                             e.maskedCrc32c = entry.crc32c();
                             e.sliced = entry.slices_size() > 0;
                             index.entries.push_back(std::move(e));
                             return true;
                         })
            && index.error.empty() && !index.truncated;
    });
    return index;
}

std::string tfCheckpointShardName(std::string_view prefix, int shard, int shards)
{
    char suffix[48];
    std::snprintf(suffix, sizeof suffix, ".data-%05d-of-%05d", shard, shards);
    return std::string(prefix) + suffix;
}

} // namespace runlens::importers::graph
