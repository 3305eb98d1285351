#include "tests/trust/mutators.h"

#include "tests/trust/mutatorutils.h"

#include <QRegularExpression>

#include <zlib.h>

namespace runlens::test {

using namespace detail;

std::uint64_t SeededRandom::next()
{
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

std::uint64_t stableHash(const QByteArray& text)
{
    std::uint64_t hash = 0xcbf29ce484222325u;
    for (char c : text)
        hash = (hash ^ std::uint8_t(c)) * 0x100000001b3u;
    return hash;
}

Mutations truncations(const QByteArray& seed, int spreadCount)
{
    Mutations out;
    std::vector<qsizetype> offsets = spread(seed.size(), spreadCount);
    // The last bytes hold trailers (CRCs, ISIZE, central directories): always cut there too.
    for (qsizetype back = 1; back <= 8 && back <= seed.size(); ++back)
        offsets.push_back(seed.size() - back);
    std::sort(offsets.begin(), offsets.end());
    offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
    for (qsizetype offset : offsets)
        out.append({ QStringLiteral("truncate@%1").arg(offset), [seed, offset] { return seed.left(offset); } });
    return out;
}

Mutations bitFlips(const QByteArray& seed, std::uint64_t rowSeed, int count)
{
    Mutations out;
    if (seed.isEmpty())
        return out;
    SeededRandom random(rowSeed ^ 0xb17f11b5u);
    for (int i = 0; i < count; ++i) {
        const qsizetype offset = qsizetype(random.below(quint64(seed.size())));
        const int bit = int(random.below(8));
        out.append({ QStringLiteral("bitflip@%1.bit%2").arg(offset).arg(bit), [seed, offset, bit] {
                        QByteArray bytes = seed;
                        bytes[offset] = char(bytes[offset] ^ (1 << bit));
                        return bytes;
                    } });
    }
    return out;
}

Mutations byteStomps(const QByteArray& seed, std::uint64_t rowSeed, int count)
{
    Mutations out;
    if (seed.isEmpty())
        return out;
    static const QByteArray kPatterns[] = {
        QByteArray(8, '\0'),
        QByteArray(8, '\xff'),
        QByteArray("\x7f\xff\xff\xff", 4),
        QByteArray("\x80\x00\x00\x00", 4),
        QByteArray("\xff\xff\xff\xff\xff\xff\xff\x7f", 8),
        QByteArray("99999999999999999999"),
        QByteArray("-9223372036854775809"),
        QByteArray("1e999"),
        QByteArray("NaN"),
        QByteArray("\"\\u0000"),
    };
    constexpr int kPatternCount = int(sizeof(kPatterns) / sizeof(kPatterns[0]));
    SeededRandom random(rowSeed ^ 0x5707c0deu);
    for (int i = 0; i < count; ++i) {
        const qsizetype offset = qsizetype(random.below(quint64(seed.size())));
        const int choice = int(random.below(kPatternCount + 1));
        QByteArray pattern;
        QString label;
        if (choice == kPatternCount) {
            const int length = 1 + int(random.below(8));
            for (int j = 0; j < length; ++j)
                pattern.append(char(random.below(256)));
            label = QStringLiteral("random%1").arg(length);
        } else {
            pattern = kPatterns[choice];
            label = QStringLiteral("pattern%1").arg(choice);
        }
        out.append({ QStringLiteral("stomp@%1 %2").arg(offset).arg(label), [seed, offset, pattern] {
                        QByteArray bytes = seed;
                        const qsizetype n = std::min(pattern.size(), bytes.size() - offset);
                        bytes.replace(offset, n, pattern.left(n));
                        return bytes;
                    } });
    }
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// gzip

QByteArray gzipDecompress(const QByteArray& data)
{
    z_stream stream {};
    inflateInit2(&stream, 15 + 32);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    stream.avail_in = uInt(data.size());
    QByteArray out;
    char buffer[65536];
    int rc = Z_OK;
    while (rc == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef*>(buffer);
        stream.avail_out = sizeof(buffer);
        rc = inflate(&stream, Z_NO_FLUSH);
        out.append(buffer, qsizetype(sizeof(buffer) - stream.avail_out));
    }
    inflateEnd(&stream);
    return out;
}

namespace {

/// Raw deflate of `data` ended by a full flush: no back-references leave it, so copies of it chain.
QByteArray deflateFlushed(z_stream& stream, const QByteArray& data, int flush)
{
    QByteArray out;
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    stream.avail_in = uInt(data.size());
    char buffer[65536];
    do {
        stream.next_out = reinterpret_cast<Bytef*>(buffer);
        stream.avail_out = sizeof(buffer);
        deflate(&stream, flush);
        out.append(buffer, qsizetype(sizeof(buffer) - stream.avail_out));
    } while (stream.avail_out == 0);
    return out;
}

/// A valid gzip member holding `prefix` then `chunks` × 16 MiB of spaces, a few megabytes on disk.
QByteArray gzipBomb(const QByteArray& prefix, int chunks)
{
    constexpr qsizetype kChunk = 16 * 1024 * 1024;
    z_stream stream {};
    deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
    const QByteArray head = deflateFlushed(stream, prefix, Z_FULL_FLUSH);
    const QByteArray spaces(kChunk, ' ');
    const QByteArray chunk = deflateFlushed(stream, spaces, Z_FULL_FLUSH);
    const QByteArray tail = deflateFlushed(stream, QByteArray(), Z_FINISH);
    deflateEnd(&stream);

    uLong crc = crc32(0, reinterpret_cast<const Bytef*>(prefix.constData()), uInt(prefix.size()));
    const uLong chunkCrc = crc32(0, reinterpret_cast<const Bytef*>(spaces.constData()), uInt(spaces.size()));
    for (int i = 0; i < chunks; ++i)
        crc = crc32_combine(crc, chunkCrc, kChunk);
    QByteArray out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03", 10);
    out += head;
    out += chunk.repeated(chunks);
    out += tail;
    QByteArray trailer(8, '\0');
    putLe<quint32>(trailer, 0, quint32(crc));
    putLe<quint32>(trailer, 4, quint32(quint64(prefix.size()) + quint64(chunks) * kChunk));
    return out + trailer;
}

} // namespace

Mutations gzipInflations(const QByteArray& seed, const QByteArray& bombPrefix)
{
    Mutations out;
    if (seed.size() < 18)
        return out;
    for (std::uint64_t size : { kHuge32, kHuge31, std::uint64_t(0) }) {
        out.append({ QStringLiteral("isize=%1").arg(hex(size)), [seed, size] {
                        QByteArray bytes = seed;
                        putLe<quint32>(bytes, bytes.size() - 4, quint32(size));
                        return bytes;
                    } });
    }
    out.append({ QStringLiteral("FEXTRA xlen=0xffff"), [seed] {
                    QByteArray bytes = seed;
                    bytes[3] = char(bytes[3] | 0x04);
                    return bytes.left(10) + QByteArray("\xff\xff", 2) + bytes.mid(10);
                } });
    out.append({ QStringLiteral("FNAME unterminated"), [seed] {
                    QByteArray bytes = seed;
                    bytes[3] = char(bytes[3] | 0x08);
                    return bytes;
                } });
    out.append({ QStringLiteral("second member truncated"), [seed] { return seed + seed.left(seed.size() / 2); } });
    out.append({ QStringLiteral("trailing garbage"), [seed] { return seed + QByteArray(64, '\xa5'); } });
    // 5 GiB: more than the 4 GiB address-space limit of the child, so a reader that keeps it meets bad_alloc.
    constexpr int kBombChunks = 320;
    out.append({ QStringLiteral("bomb 5 GiB whole"), [bombPrefix] { return gzipBomb(bombPrefix, kBombChunks); } });
    out.append(
        { QStringLiteral("bomb 5 GiB second member"), [seed] { return seed + gzipBomb(QByteArray(), kBombChunks); } });
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// text

Mutations textNumberInflations(const QByteArray& seed, std::uint64_t rowSeed, int picks)
{
    Mutations out;
    static const QRegularExpression number(QStringLiteral("(?<![A-Za-z_0-9.])-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?"));
    const QString text = QString::fromLatin1(seed);
    std::vector<std::pair<qsizetype, qsizetype>> spans;
    QRegularExpressionMatchIterator it = number.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        spans.emplace_back(match.capturedStart(), match.capturedLength());
    }
    static const char* const kValues[]
        = { "99999999999999999999999", "2147483648", "-9223372036854775809", "1e999", "4611686018427387904" };
    SeededRandom random(rowSeed ^ 0x4e554du);
    for (qsizetype i : spread(qsizetype(spans.size()), picks)) {
        const auto [start, length] = spans[size_t(i)];
        const char* value = kValues[random.below(sizeof(kValues) / sizeof(kValues[0]))];
        out.append({ QStringLiteral("number@%1=%2").arg(start).arg(QLatin1String(value)), [seed, start, length, value] {
                        QByteArray bytes = seed;
                        bytes.replace(start, length, value);
                        return bytes;
                    } });
    }
    return out;
}

Mutation textNesting(const QByteArray& seed, const QByteArray& anchor, const QByteArray& open, const QByteArray& close,
                     int depth, const QString& name)
{
    return { name, [seed, anchor, open, close, depth] {
                const qsizetype at = anchor.isEmpty() ? 0 : seed.indexOf(anchor);
                const qsizetype insert = at < 0 ? seed.size() : at + anchor.size();
                return seed.left(insert) + open.repeated(depth) + close.repeated(depth) + seed.mid(insert);
            } };
}

Mutation textRepetition(const QByteArray& seed, const QByteArray& anchor, const QByteArray& unit, int times,
                        const QString& name)
{
    return { name, [seed, anchor, unit, times] {
                const qsizetype at = anchor.isEmpty() ? 0 : seed.indexOf(anchor);
                const qsizetype insert = at < 0 ? seed.size() : at + anchor.size();
                return seed.left(insert) + unit.repeated(times) + seed.mid(insert);
            } };
}

} // namespace runlens::test
