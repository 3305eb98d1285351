#pragma once

#include "models/trace/tracestorecodec.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace runlens::importers::trace {

/// The trace cache in the user's cache folder (`QStandardPaths::CacheLocation`, which follows
/// `XDG_CACHE_HOME`; never a run folder): gzip traces inflated once (`inflated/`), and the index of every
/// imported trace (`index/`, TraceStoreCodec) so an unchanged trace re-opens without parsing. Entries are
/// named by a hash of their source key (absolute path, size, modification time), written under a temporary
/// name and renamed when complete; an entry that does not match its key, or is damaged, is rebuilt. The
/// least recently used entries are removed when the cache grows past its size limit.
///
/// Off until the program turns it on (so tests and library users write nothing); process-wide, thread safe.
class TraceCache
{
public:
    static constexpr std::int64_t kDefaultSizeLimit = std::int64_t(4) << 30;

    static void setEnabled(bool enabled);
    static bool enabled();
    /// The cache folder; empty: `<CacheLocation>/traces`.
    static void setDirectory(const QString& directory);
    static QString directory();
    static void setSizeLimit(std::int64_t bytes);
    static std::int64_t sizeLimit();

    /// Bytes the cache holds on disk.
    static std::int64_t size();
    /// Removes every entry; false when some could not be removed.
    static bool clear();
    /// Removes least recently used entries until the cache fits its size limit, sparing `keep`.
    static void evict(const QString& keep = {});

    /// The key of one input file; false when it cannot be read (it does not exist, is not a regular file).
    static bool keyOf(const QString& path, models::trace::TraceSourceKey& key);
    /// The key of several input files; false when one has none.
    static bool keyOf(const QStringList& paths, models::trace::TraceCacheKey& key);
    /// Where the entry of `kind` ("index", "inflated") for `key` lives.
    static QString entryPath(const QString& kind, const models::trace::TraceCacheKey& key);
    /// Where the index cache of `key` lives. The problems found by the first import are kept as the
    /// sentences it wrote, in the language of the interface then, so each interface language has its own.
    static QString indexPath(const models::trace::TraceCacheKey& key);
    /// Marks an entry as just used (its modification time orders eviction).
    static void touch(const QString& entry);

    /// How many imports were read back from the index cache since the program started (for tests).
    static int indexReads();
    static void countIndexRead();
};

} // namespace runlens::importers::trace
