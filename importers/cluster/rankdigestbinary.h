#pragma once

#include "models/cluster/rankdigest.h"

#include <QByteArray>
#include <QString>

#include <memory>

// The binary body of rank digest format version 2 (see rankdigestfile.h for the file around it). Parsing a
// thousand JSON bodies of a thousand steps each took seconds; this body is read field by field with one
// bounds check per table, and a thousand of them load in well under a second.
//
// All numbers little-endian; u32/i32/u64/i64/f64 as named. A string is an index (u32) into the string
// table, which comes first so that a reader needs one pass. A figure that is not measured is a NaN (the
// writer writes every non-finite figure as the same quiet NaN, so equal digests are equal bytes).
//
//   u32 string count, then per string: u32 byte length, the UTF-8 bytes
//   u32 rank, u32 world size, string host, string device, string file
//   i64 file size (-1 unknown), i64 file modification time (ms since the epoch, UTC), f64 peak memory bytes
//   u32 temporal present (0 or 1), then f64 span, compute, non_compute, idle, communication, overlap
//   f64 means: step_time, computation, communication, overlapped, idle, communication_share
//   u32 step count, per step (88 bytes): i64 number, i64 start_ns, i64 end_ns, f64 step_time, computation,
//       communication, overlapped, idle, communication_share, last_communication_offset, data_loading
//   u32 collective count, per collective (40 bytes): string name, i64 start_ns, i64 end_ns, f64 bytes,
//       string group, i32 group size (-1 unknown), string group ranks
//   u32 kernel count, then u32 operator count, each row (28 bytes): string name, u64 count, f64 total, f64 max
//
// Times are ms unless named _ns. Bytes after the operators are ignored (a later RunLens may append a table
// without a new version); a changed meaning or layout of what is above is a new version.

namespace runlens::importers::cluster {

/// The body above for `digest`.
QByteArray encodeRankDigestBody(const models::cluster::RankDigest& digest);

struct RankDigestBodyResult
{
    std::shared_ptr<models::cluster::RankDigest> digest; ///< null on failure
    QString error; ///< names `name`; empty on success
};

/// Parses the body above. Never trusts a count or an index: a count beyond the bytes left or an index past
/// the string table is a damaged body, named as such.
RankDigestBodyResult decodeRankDigestBody(const char* data, qsizetype size, const QString& name);

} // namespace runlens::importers::cluster
