#pragma once

#include "tests/trust/mutators.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

namespace runlens::test {

// Hostile variants of the framed binary files whose counts, lengths and checksums a reader must not trust:
// rank digests (versions 1 and 2), W&B run files, and the trace index cache.

Mutations rankDigestHostile(const QByteArray& seed, std::uint64_t rowSeed);
Mutations rankDigestV2Hostile(const QByteArray& seed, std::uint64_t rowSeed);
Mutations wandbHostile(const QByteArray& seed, std::uint64_t rowSeed);

/// The index the cache writes for the trace `json` (the row's seed).
QByteArray traceIndexOf(const QByteArray& json);
/// Puts `bytes` where the cache in `folder` keeps the seed trace's index and opens the trace: empty when the
/// damaged index was refused for a fresh parse or read back consistently, otherwise what went wrong.
QString readTraceIndex(const QString& folder, const QByteArray& bytes);
/// Index files whose section sizes and counts are inflated, with the checksum made to match.
Mutations traceIndexInflations(const QByteArray& seed, std::uint64_t rowSeed);

/// A small Kineto trace the rank digest's single pass reads (steps, launches, a collective, memory).
extern const char* const kDigestTraceSeed;
/// Writes `bytes` as a trace in `folder` and digests it as `runlens digest` does: empty when the digest is
/// refused with an error naming the file, or made and equal to the store path's, otherwise what went wrong.
QString readTraceDigest(const QString& folder, const QByteArray& bytes);

} // namespace runlens::test
