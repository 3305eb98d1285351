#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <cstdint>
#include <functional>

namespace runlens::test {

/// One damaged variant of a seed file: a name saying what was done where, and the bytes (made on demand,
/// in the process that reads them, since a few are megabytes).
struct Mutation
{
    QString name;
    std::function<QByteArray()> make;
};
using Mutations = QList<Mutation>;

/// A small deterministic generator (splitmix64), the same sequence on every platform and library.
class SeededRandom
{
public:
    explicit SeededRandom(std::uint64_t seed)
        : m_state(seed)
    { }
    std::uint64_t next();
    /// Uniform enough in [0, bound) for choosing offsets; bound > 0.
    std::uint64_t below(std::uint64_t bound) { return next() % bound; }

private:
    std::uint64_t m_state;
};

/// A stable 64-bit hash of a row name, so each row has its own but a fixed sequence.
std::uint64_t stableHash(const QByteArray& text);

/// JSON seeds: numbers inflated, values of the wrong type, nesting 100,000 deep (objects, and unclosed arrays).
Mutations jsonHostile(const QByteArray& seed, std::uint64_t rowSeed);

// Generic damage: the same for every format.
Mutations truncations(const QByteArray& seed, int spreadCount = 256);
Mutations bitFlips(const QByteArray& seed, std::uint64_t rowSeed, int count);
Mutations byteStomps(const QByteArray& seed, std::uint64_t rowSeed, int count);

// Format-aware length inflation: each length or count a reader trusts, set far beyond what the file holds,
// with checksums recomputed so that the reader gets past its integrity checks to the allocation.
Mutations tfRecordInflations(const QByteArray& seed);
Mutations visualDlInflations(const QByteArray& seed);
/// Length and varint fields of a protobuf message, every enclosing length kept consistent.
Mutations protobufInflations(const QByteArray& seed, const QString& prefix = QString(), int lengthPicks = 32,
                             int varintPicks = 24);
/// The first LEN field with number `field` at top level (ONNX ModelProto.graph = 7; 0 = the top level itself)
/// holding repeated fields numbered `repeated` (nodes): its first such field copied `times` times.
Mutations protobufRepetition(const QByteArray& seed, int field, int repeated, int times);
Mutations npyInflations(const QByteArray& seed);
Mutations safetensorsInflations(const QByteArray& seed);
Mutations zipInflations(const QByteArray& seed);
Mutations pickleInflations(const QByteArray& seed);
/// A torch.save zip: zipInflations, and its data.pkl inflated or given forbidden globals and missing storages.
Mutations ptInflations(const QByteArray& seed);
/// Header and trailer fields of a gzip member, and gzip bombs: `bombPrefix` followed by gigabytes of spaces
/// (JSON whitespace, so a streaming reader cannot stop early), alone or appended as a second member.
Mutations gzipInflations(const QByteArray& seed, const QByteArray& bombPrefix);
/// Numbers in a text format replaced by huge, negative or out-of-range ones.
Mutations textNumberInflations(const QByteArray& seed, std::uint64_t rowSeed, int picks = 24);
/// `open` repeated `depth` times followed by `close` repeated as often, inserted after the first `anchor`.
Mutation textNesting(const QByteArray& seed, const QByteArray& anchor, const QByteArray& open, const QByteArray& close,
                     int depth, const QString& name);
/// `unit` repeated `times` times, inserted after the first `anchor`.
Mutation textRepetition(const QByteArray& seed, const QByteArray& anchor, const QByteArray& unit, int times,
                        const QString& name);

/// The payloads of a TFRecord stream (8-byte length, masked CRC32C of it, data, masked CRC32C of the data).
QList<QByteArray> tfRecordPayloads(const QByteArray& stream);
/// One TFRecord frame around `payload` with both checksums.
QByteArray tfRecordFrame(const QByteArray& payload);
/// The bytes of the first LEN field numbered `field` at the top level of a protobuf message, or empty.
QByteArray protobufField(const QByteArray& message, int field);

/// The same message with its top-level fields numbered `field` moved to the front (field order is free in
/// protobuf).
QByteArray protobufFieldFirst(const QByteArray& message, int field);

/// The same message without its first `count` top-level fields numbered `field`.
QByteArray protobufWithoutFirst(const QByteArray& message, int field, int count);

QByteArray gzipDecompress(const QByteArray& data);

} // namespace runlens::test
