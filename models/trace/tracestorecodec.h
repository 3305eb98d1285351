#pragma once

#include "models/core/diagnostic.h"
#include "models/trace/tracestore.h"

#include <QIODevice>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace runlens::models::trace {

/// What a cached store was made from: each input file by absolute path, size and modification time. A cache
/// whose key differs from the files' current one is stale.
struct TraceSourceKey
{
    QString path;
    std::int64_t size = 0;
    std::int64_t mtimeNs = 0;
    bool operator==(const TraceSourceKey&) const = default;
};
using TraceCacheKey = std::vector<TraceSourceKey>;

/// The binary form of a TraceStore kept in the index cache, so that re-opening an unchanged trace reads the
/// store back instead of parsing the JSON again.
///
/// Layout (little-endian): magic "RLTRCIDX", format version, the RunLens version that wrote it, the source
/// key, a section table (id and byte size of each section), the sections, and a CRC-32C (Castagnoli) of the sections.
/// Sections: summary (time range), strings, sources, processes, tracks, flows, steps, diagnostics of the
/// first import, and the timeline's painting index (TraceLod), so a re-open paints without rebuilding it. The retained
/// input of each source is not in it: the reader re-attaches the trace's bytes. Reading checks every size, count, index
/// and string id against what it has read, so a damaged or hostile file is refused with a reason, never trusted.
class TraceStoreCodec
{
public:
    static constexpr std::uint32_t kFormatVersion = 3; ///< 2: the painting index section; 3: CRC-32C checksum

    /// Writes `store` (and the diagnostics of its import) for `key`; false on a write error. The painting
    /// index written is the store's own (TraceStore::lod()), or one built here when it has none.
    static bool write(const TraceStore& store, const Diagnostics& diagnostics, const TraceCacheKey& key,
                      QIODevice& out);

    struct Decoded
    {
        std::shared_ptr<TraceStore> store; ///< sources without input: attach with attachInput(); lod() set
        Diagnostics diagnostics;
        std::vector<std::uint64_t> inputSizes; ///< bytes of each source's retained input when it was written
    };
    /// Reads a cache written by write(). Refuses (null store, `why` set) a file from another format, for
    /// another key (when `expected` is not null), from another RunLens version or with a bad checksum (when
    /// `strict`; off only to fuzz what lies behind those checks) or with any inconsistency. `consumed`
    /// (optional) is told how far reading got, so a caller reading from a mapping can let go of the pages
    /// behind it.
    static Decoded read(std::span<const std::byte> bytes, const TraceCacheKey* expected, bool strict, QString& why,
                        const std::function<void(std::size_t)>& consumed = {});

    /// Gives source `source` of a decoded store its retained input (the trace's bytes, for lazy args).
    static void attachInput(TraceStore& store, int source, std::shared_ptr<const TraceBuffer> input);
    /// Gives a store that is not yet shared its painting index (built for that store).
    static void attachLod(TraceStore& store, std::shared_ptr<const TraceLod> lod);
    /// Names source `source` of a decoded store `path` (the path as the caller wrote it).
    static void renameSource(TraceStore& store, int source, const QString& path);

    /// Whether two stores hold the same events, tracks, processes, flows, steps, strings and sources
    /// (retained inputs compared by content); `difference` names the first difference found.
    static bool equal(const TraceStore& a, const TraceStore& b, QString* difference = nullptr);
    /// Whether two painting indexes hold the same rows, levels and counter ranges.
    static bool equal(const TraceLod& a, const TraceLod& b, QString* difference = nullptr);
};

} // namespace runlens::models::trace
