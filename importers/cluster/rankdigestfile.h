#pragma once

#include "importers/core/importcontrol.h"
#include "models/cluster/rankdigest.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

// The rank digest file (`rank-<N>.rldigest`): one rank's RankDigest, small enough that a thousand of them
// load in a blink, written next to the data by `runlens digest` and opened by the desktop as a cluster.
//
//   offset  size  field
//   0       8     magic "RLDIGEST"
//   8       4     format version, unsigned little-endian (1 or 2; written: kRankDigestFormatVersion)
//   12      4     flags, unsigned little-endian: 0 (readers reject others: they would change the body)
//   16      8     length of the body, unsigned little-endian (at most kMaxDigestJsonBytes); in version 1 the
//                 length once inflated
//   24      ...   the body
//
// Version 2 (written since the Cluster view had to open a thousand ranks in a blink): the binary body of
// rankdigestbinary.h, stored as it is (the header's length is the rest of the file).
//
// Version 1 (still read): a JSON body (UTF-8) compressed as one zlib stream. The body is one object:
// "format": "runlens-rank-digest"; "rank", "world_size", "host", "device"; "file", "file_size",
// "file_mtime_ms" (the trace the digest was made from); "peak_memory_bytes"; "temporal" {span, compute,
// non_compute, idle, communication, overlap} or null; "means" {step_time, computation, communication,
// overlapped, idle, communication_share}; "steps" [[number, start_ns, end_ns, step_time, computation,
// communication, overlapped, idle, communication_share, last_communication_offset, data_loading], ...];
// "collectives" [[name, start_ns, end_ns, bytes, group, group_size, group_ranks], ...]; "kernels" and
// "operators" [[name, count, total, max], ...]. Times are ms unless named _ns; a figure not measured is null.
// Readers ignore keys they do not know.

namespace runlens::importers::cluster {

constexpr quint32 kRankDigestFormatVersion = 2;
/// A bigger body is refused before reading it: no real rank needs it (a million collectives is ~100 MB).
constexpr quint64 kMaxDigestJsonBytes = quint64(256) << 20;
/// The suffix of digest files, without the dot.
inline QString rankDigestSuffix()
{
    return QStringLiteral("rldigest");
}
/// "rank-7.rldigest".
QString rankDigestFileName(int rank);

struct RankDigestResult
{
    std::shared_ptr<const models::cluster::RankDigest> digest; ///< null on failure
    QString error; ///< names the file; empty on success
    bool singlePass = false; ///< made by the single pass (rankdigestpass.h), not through a trace store
};

/// The bytes of the file format above, in format `version` (1 or 2; version 1 for readers that know no other).
QByteArray encodeRankDigest(const models::cluster::RankDigest& digest, quint32 version = kRankDigestFormatVersion);
/// Parses the file format above, either version. `name` is the file named in errors. Never trusts a length or a count.
RankDigestResult decodeRankDigest(const QByteArray& bytes, const QString& name);

/// Writes `digest` to `path` atomically (a crash leaves no half file).
bool writeRankDigestFile(const models::cluster::RankDigest& digest, const QString& path, QString* error);
RankDigestResult readRankDigestFile(const QString& path);

/// Computes the digest of the trace at `path` (with the memory peak of its device when the trace has memory
/// events, and the file's size and time): in one pass over its bytes when the single pass covers it
/// (rankdigestpass.h: the same digest without a store), else by reading it alone into a store and dropping
/// the store: one store in memory per call. `control` goes to the trace reader (progress and cancel). An index cache of
/// the trace is used when there is one, but none is written: a whole job's indexes would push every other trace out of
/// the cache.
/// `readNext`, when given, is the trace the caller digests after this one: the disk reads it ahead while this
/// one is parsed (prefetchFile()).
RankDigestResult digestTraceFile(const QString& path, const models::cluster::RankDigestOptions& options = {},
                                 const ImportControl& control = {}, const QString& readNext = {});

/// True when `folder` holds at least one `.rldigest` file (not walked: the digests of one job lie together).
bool containsRankDigests(const QString& folder);

struct DigestFolder
{
    std::vector<std::shared_ptr<const models::cluster::RankDigest>> digests; ///< by rank
    QStringList problems; ///< one per unreadable file, naming it
};
/// Reads every `.rldigest` file of `folder`; bad files are problems, the others still count. One digest
/// per rank: a second file of the same rank is a problem.
DigestFolder readRankDigestFolder(const QString& folder);

} // namespace runlens::importers::cluster
