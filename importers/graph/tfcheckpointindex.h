#pragma once

#include "models/graph/graph.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::graph {

/// One tensor of a TensorFlow checkpoint (tensor bundle): where its bytes are in which data shard.
struct TfCheckpointEntry
{
    std::string key; ///< the variable's checkpoint name ("dense/kernel", "variables/0/.ATTRIBUTES/VARIABLE_VALUE")
    models::graph::TensorType type;
    int shard = 0;
    std::int64_t offset = 0;
    std::int64_t size = 0;
    std::uint32_t maskedCrc32c = 0; ///< BundleEntryProto.crc32c: the masked CRC-32C of the bytes; 0 = not stored
    bool sliced = false; ///< a partitioned variable: its slices are separate entries
};

/// What a checkpoint's `.index` file lists. `error` is empty when the whole table was read; otherwise it
/// says what stopped reading and `entries` holds those read before.
struct TfCheckpointIndex
{
    int shards = 0;
    std::vector<TfCheckpointEntry> entries;
    std::string error;
    bool truncated = false; ///< more entries than kMaxEntries
    bool bigEndian = false; ///< the header says the data shards hold big-endian elements
};

/// The table is a LevelDB-style sorted string table (footer, index block, data blocks, each block plain or
/// Snappy-compressed with a masked CRC-32C trailer) mapping tensor names to BundleEntryProto and the empty
/// key to BundleHeaderProto. Every offset, length and count is checked against the bytes; no entry, block or
/// decompressed size can exceed the limits below.
TfCheckpointIndex readTfCheckpointIndex(std::string_view bytes);

/// "variables.data-00000-of-00001" for shard 0 of 1: the data file a shard's bytes are in.
std::string tfCheckpointShardName(std::string_view prefix, int shard, int shards);

namespace checkpointlimits {
constexpr std::size_t kMaxEntries = 1 << 20;
constexpr std::size_t kMaxBlockBytes = std::size_t(64) << 20;
constexpr std::size_t kMaxTotalBytes = std::size_t(512) << 20;
} // namespace checkpointlimits

/// Decompresses one Snappy block (the raw format, no framing) of at most `maxSize` bytes; false when the
/// data is damaged or would grow beyond `maxSize`.
bool snappyUncompress(std::string_view in, std::string& out, std::size_t maxSize);

} // namespace runlens::importers::graph
