#include "mutators.h"

#include "summary/crc32c.h"

#include <QRegularExpression>
#include <QtEndian>

#include <zlib.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

namespace runlens::test {

namespace {

constexpr std::uint64_t kHuge31 = 0x7fffffffu;
constexpr std::uint64_t kHuge32 = 0xffffffffu;
constexpr std::uint64_t kHuge40 = std::uint64_t(1) << 40;
constexpr std::uint64_t kHuge62 = std::uint64_t(1) << 62;
constexpr std::uint64_t kHuge63 = 0x7fffffffffffffffu;
constexpr std::uint64_t kHuge64 = ~std::uint64_t(0);

QString hex(std::uint64_t value)
{
    return QStringLiteral("0x") + QString::number(value, 16);
}

template<typename T> void putLe(QByteArray& bytes, qsizetype offset, T value)
{
    qToLittleEndian<T>(value, bytes.data() + offset);
}

template<typename T> T getLe(const QByteArray& bytes, qsizetype offset)
{
    return qFromLittleEndian<T>(bytes.constData() + offset);
}

/// `count` indices spread evenly over [0, size): all of them when there are fewer.
std::vector<qsizetype> spread(qsizetype size, qsizetype count)
{
    std::vector<qsizetype> out;
    if (size <= 0)
        return out;
    if (size <= count) {
        for (qsizetype i = 0; i < size; ++i)
            out.push_back(i);
        return out;
    }
    for (qsizetype i = 0; i < count; ++i)
        out.push_back(i * size / count);
    return out;
}

void appendVarint(QByteArray& out, std::uint64_t value)
{
    while (value >= 0x80) {
        out.append(char((value & 0x7f) | 0x80));
        value >>= 7;
    }
    out.append(char(value));
}

bool readVarint(const unsigned char*& p, const unsigned char* end, std::uint64_t& value)
{
    value = 0;
    for (int shift = 0; shift < 70 && p < end; shift += 7) {
        const unsigned char byte = *p++;
        value |= std::uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------------------------------
// A protobuf message as a tree, so that one length can be inflated while every enclosing length stays right
// (a reader must get past the outer messages to meet the lie).

struct PbMessage;

struct PbField
{
    std::uint64_t key = 0;
    std::uint64_t varint = 0; ///< wire type 0, and the length of a LEN field as read
    QByteArray raw; ///< fixed32/64 bytes, or a LEN payload that is not a message
    std::unique_ptr<PbMessage> child;
    int id = 0; ///< preorder index over the whole tree
};

struct PbMessage
{
    std::vector<PbField> fields;
};

constexpr int kMaxPbDepth = 16;

bool parsePb(const unsigned char* p, const unsigned char* end, int depth, int& nextId, PbMessage& out)
{
    while (p < end) {
        PbField field;
        if (!readVarint(p, end, field.key) || (field.key >> 3) == 0 || (field.key >> 3) > 536870911)
            return false;
        field.id = nextId++;
        switch (field.key & 7) {
        case 0:
            if (!readVarint(p, end, field.varint))
                return false;
            break;
        case 1:
        case 5: {
            const qsizetype width = (field.key & 7) == 1 ? 8 : 4;
            if (end - p < width)
                return false;
            field.raw = QByteArray(reinterpret_cast<const char*>(p), width);
            p += width;
            break;
        }
        case 2: {
            if (!readVarint(p, end, field.varint) || field.varint > std::uint64_t(end - p))
                return false;
            const unsigned char* bodyEnd = p + field.varint;
            auto child = std::make_unique<PbMessage>();
            const int saved = nextId;
            if (field.varint > 0 && depth < kMaxPbDepth && parsePb(p, bodyEnd, depth + 1, nextId, *child))
                field.child = std::move(child);
            else {
                nextId = saved;
                field.raw = QByteArray(reinterpret_cast<const char*>(p), qsizetype(field.varint));
            }
            p = bodyEnd;
            break;
        }
        default:
            return false;
        }
        out.fields.push_back(std::move(field));
    }
    return true;
}

struct PbOverride
{
    enum Mode { None, SetLength, AddLength, SetVarint };
    Mode mode = None;
    int id = -1;
    std::uint64_t value = 0;
};

QByteArray serializePb(const PbMessage& message, const PbOverride& change)
{
    QByteArray out;
    for (const PbField& field : message.fields) {
        appendVarint(out, field.key);
        const bool target = field.id == change.id;
        switch (field.key & 7) {
        case 0:
            appendVarint(out, target && change.mode == PbOverride::SetVarint ? change.value : field.varint);
            break;
        case 2: {
            const QByteArray body = field.child ? serializePb(*field.child, change) : field.raw;
            std::uint64_t length = std::uint64_t(body.size());
            if (target && change.mode == PbOverride::SetLength)
                length = change.value;
            else if (target && change.mode == PbOverride::AddLength)
                length += change.value;
            appendVarint(out, length);
            out += body;
            break;
        }
        default:
            out += field.raw;
        }
    }
    return out;
}

void collectPb(const PbMessage& message, std::vector<int>& lengths, std::vector<int>& varints)
{
    for (const PbField& field : message.fields) {
        if ((field.key & 7) == 2)
            lengths.push_back(field.id);
        else if ((field.key & 7) == 0)
            varints.push_back(field.id);
        if (field.child)
            collectPb(*field.child, lengths, varints);
    }
}

std::shared_ptr<const PbMessage> parsePbTree(const QByteArray& bytes)
{
    auto tree = std::make_shared<PbMessage>();
    int nextId = 0;
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.constData());
    if (!parsePb(p, p + bytes.size(), 0, nextId, *tree) || serializePb(*tree, {}) != bytes)
        return {};
    return tree;
}

/// Mutations of one protobuf message, each wrapped by `wrap` (a TFRecord or VisualDL frame) on demand.
Mutations protobufMutations(const QByteArray& message, const QString& prefix, int lengthPicks, int varintPicks,
                            const std::function<QByteArray(const QByteArray&)>& wrap)
{
    Mutations out;
    const std::shared_ptr<const PbMessage> tree = parsePbTree(message);
    if (!tree)
        return out;
    std::vector<int> lengths, varints;
    collectPb(*tree, lengths, varints);
    struct Choice
    {
        PbOverride::Mode mode;
        std::uint64_t value;
        const char* label;
    };
    static const Choice kLengthChoices[] = { { PbOverride::AddLength, 1, "len+1" },
                                             { PbOverride::SetLength, kHuge31, "len=2^31-1" },
                                             { PbOverride::SetLength, kHuge62, "len=2^62" },
                                             { PbOverride::SetLength, kHuge64, "len=2^64-1" } };
    static const Choice kVarintChoices[] = { { PbOverride::SetVarint, kHuge31, "varint=2^31-1" },
                                             { PbOverride::SetVarint, kHuge40, "varint=2^40" },
                                             { PbOverride::SetVarint, kHuge64, "varint=-1" } };
    for (qsizetype i : spread(qsizetype(lengths.size()), lengthPicks)) {
        for (const Choice& choice : kLengthChoices) {
            const PbOverride change { choice.mode, lengths[size_t(i)], choice.value };
            out.append({ QStringLiteral("%1field#%2 %3").arg(prefix).arg(change.id).arg(QLatin1String(choice.label)),
                         [tree, change, wrap] { return wrap(serializePb(*tree, change)); } });
        }
    }
    for (qsizetype i : spread(qsizetype(varints.size()), varintPicks)) {
        for (const Choice& choice : kVarintChoices) {
            const PbOverride change { choice.mode, varints[size_t(i)], choice.value };
            out.append({ QStringLiteral("%1field#%2 %3").arg(prefix).arg(change.id).arg(QLatin1String(choice.label)),
                         [tree, change, wrap] { return wrap(serializePb(*tree, change)); } });
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------------------------

struct Frame
{
    qsizetype offset = 0; ///< of the frame
    qsizetype payloadOffset = 0;
    qsizetype payloadSize = 0;
};

std::vector<Frame> tfFrames(const QByteArray& stream)
{
    std::vector<Frame> frames;
    qsizetype at = 0;
    while (stream.size() - at >= 12) {
        const auto length = getLe<quint64>(stream, at);
        if (length > quint64(stream.size() - at - 16))
            break;
        frames.push_back({ at, at + 12, qsizetype(length) });
        at += 16 + qsizetype(length);
    }
    return frames;
}

std::vector<Frame> vdlFrames(const QByteArray& stream)
{
    std::vector<Frame> frames;
    qsizetype at = 0;
    while (stream.size() - at >= 8) {
        const auto length = getLe<quint64>(stream, at);
        if (length > quint64(stream.size() - at - 8))
            break;
        frames.push_back({ at, at + 8, qsizetype(length) });
        at += 8 + qsizetype(length);
    }
    return frames;
}

/// Frames whose content is worth inflating: the first few and the last.
std::vector<size_t> framePicks(size_t count, size_t first)
{
    std::vector<size_t> picks;
    for (size_t i = 0; i < std::min(count, first); ++i)
        picks.push_back(i);
    if (count > first)
        picks.push_back(count - 1);
    return picks;
}

} // namespace

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

QList<QByteArray> tfRecordPayloads(const QByteArray& stream)
{
    QList<QByteArray> out;
    for (const Frame& frame : tfFrames(stream))
        out << stream.mid(frame.payloadOffset, frame.payloadSize);
    return out;
}

QByteArray tfRecordFrame(const QByteArray& payload)
{
    QByteArray out(12, '\0');
    putLe<quint64>(out, 0, quint64(payload.size()));
    putLe<quint32>(out, 8, summary::maskedCrc32c(out.constData(), 8));
    out += payload;
    QByteArray crc(4, '\0');
    putLe<quint32>(crc, 0, summary::maskedCrc32c(payload.constData(), size_t(payload.size())));
    return out + crc;
}

Mutations tfRecordInflations(const QByteArray& seed)
{
    Mutations out;
    const std::vector<Frame> frames = tfFrames(seed);
    static const std::uint64_t kLengths[] = { kHuge31, kHuge32, kHuge32 + 1, kHuge40, kHuge63, kHuge64 };
    for (size_t index : framePicks(frames.size(), 3)) {
        const Frame frame = frames[index];
        QList<std::uint64_t> lengths { std::uint64_t(frame.payloadSize) + 1 };
        for (std::uint64_t length : kLengths)
            lengths << length;
        for (std::uint64_t length : lengths) {
            out.append(
                { QStringLiteral("record%1 length=%2 (crc ok)").arg(index).arg(hex(length)), [seed, frame, length] {
                     QByteArray bytes = seed;
                     putLe<quint64>(bytes, frame.offset, length);
                     putLe<quint32>(bytes, frame.offset + 8,
                                    summary::maskedCrc32c(bytes.constData() + frame.offset, 8));
                     return bytes;
                 } });
        }
        // Lengths inside the record's protobuf payload, the frame's length and both CRCs made to match.
        const QByteArray before = seed.left(frame.offset);
        const QByteArray after = seed.mid(frame.payloadOffset + frame.payloadSize + 4);
        out += protobufMutations(
            seed.mid(frame.payloadOffset, frame.payloadSize), QStringLiteral("record%1 ").arg(index), 8, 8,
            [before, after](const QByteArray& payload) { return before + tfRecordFrame(payload) + after; });
    }
    return out;
}

Mutations visualDlInflations(const QByteArray& seed)
{
    Mutations out;
    const std::vector<Frame> frames = vdlFrames(seed);
    // 2^30 - 1 sits just under the reader's payload cap: a reader that allocates before it reads gets a gigabyte.
    static const std::uint64_t kLengths[]
        = { (std::uint64_t(1) << 30) - 1, std::uint64_t(1) << 30, (std::uint64_t(1) << 30) + 1, kHuge63, kHuge64 };
    for (size_t index : framePicks(frames.size(), 3)) {
        const Frame frame = frames[index];
        QList<std::uint64_t> lengths { std::uint64_t(frame.payloadSize) + 1 };
        for (std::uint64_t length : kLengths)
            lengths << length;
        for (std::uint64_t length : lengths) {
            out.append({ QStringLiteral("record%1 length=%2").arg(index).arg(hex(length)), [seed, frame, length] {
                            QByteArray bytes = seed;
                            putLe<quint64>(bytes, frame.offset, length);
                            return bytes;
                        } });
        }
        const QByteArray before = seed.left(frame.offset);
        const QByteArray after = seed.mid(frame.payloadOffset + frame.payloadSize);
        out += protobufMutations(seed.mid(frame.payloadOffset, frame.payloadSize),
                                 QStringLiteral("record%1 ").arg(index), 8, 8,
                                 [before, after](const QByteArray& payload) {
                                     QByteArray length(8, '\0');
                                     putLe<quint64>(length, 0, quint64(payload.size()));
                                     return before + length + payload + after;
                                 });
    }
    return out;
}

Mutations protobufInflations(const QByteArray& seed, const QString& prefix, int lengthPicks, int varintPicks)
{
    return protobufMutations(seed, prefix, lengthPicks, varintPicks, [](const QByteArray& bytes) { return bytes; });
}

QByteArray protobufField(const QByteArray& message, int field)
{
    const auto* p = reinterpret_cast<const unsigned char*>(message.constData());
    const auto* end = p + message.size();
    while (p < end) {
        std::uint64_t key = 0, value = 0;
        if (!readVarint(p, end, key))
            return {};
        switch (key & 7) {
        case 0:
            if (!readVarint(p, end, value))
                return {};
            break;
        case 1:
            p += 8;
            break;
        case 5:
            p += 4;
            break;
        case 2:
            if (!readVarint(p, end, value) || value > std::uint64_t(end - p))
                return {};
            if (int(key >> 3) == field)
                return QByteArray(reinterpret_cast<const char*>(p), qsizetype(value));
            p += value;
            break;
        default:
            return {};
        }
    }
    return {};
}

QByteArray protobufFieldFirst(const QByteArray& message, int field)
{
    const std::shared_ptr<const PbMessage> tree = parsePbTree(message);
    if (!tree)
        return {};
    PbMessage reordered;
    for (bool wanted : { true, false }) {
        for (const PbField& f : tree->fields) {
            if ((int(f.key >> 3) == field) != wanted)
                continue;
            PbField copy;
            copy.key = f.key;
            copy.varint = f.varint;
            copy.raw = f.child ? serializePb(*f.child, {}) : f.raw;
            copy.id = f.id;
            reordered.fields.push_back(std::move(copy));
        }
    }
    return serializePb(reordered, {});
}

QByteArray protobufWithoutFirst(const QByteArray& message, int field, int count)
{
    const std::shared_ptr<const PbMessage> tree = parsePbTree(message);
    if (!tree)
        return {};
    PbMessage rest;
    for (const PbField& f : tree->fields) {
        if (int(f.key >> 3) == field && count > 0) {
            --count;
            continue;
        }
        PbField copy;
        copy.key = f.key;
        copy.varint = f.varint;
        copy.raw = f.child ? serializePb(*f.child, {}) : f.raw;
        copy.id = f.id;
        rest.fields.push_back(std::move(copy));
    }
    return serializePb(rest, {});
}

Mutations protobufRepetition(const QByteArray& seed, int field, int repeated, int times)
{
    Mutations out;
    const std::shared_ptr<const PbMessage> tree = parsePbTree(seed);
    if (!tree)
        return out;
    const PbMessage* holder = tree.get();
    if (field != 0) {
        holder = nullptr;
        for (const PbField& f : tree->fields) {
            if (int(f.key >> 3) == field && f.child) {
                holder = f.child.get();
                break;
            }
        }
    }
    if (!holder)
        return out;
    const auto first = std::find_if(holder->fields.begin(), holder->fields.end(),
                                    [repeated](const PbField& f) { return int(f.key >> 3) == repeated; });
    if (first == holder->fields.end())
        return out;
    QByteArray unit;
    appendVarint(unit, first->key);
    const QByteArray body = first->child ? serializePb(*first->child, {}) : first->raw;
    appendVarint(unit, quint64(body.size()));
    unit += body;
    // Rebuilt by hand: the holder's own length must grow by the copies.
    out.append({ QStringLiteral("field %1.%2 x%3").arg(field).arg(repeated).arg(times), [tree, field, unit, times] {
                    if (field == 0)
                        return serializePb(*tree, {}) + unit.repeated(times);
                    QByteArray bytes;
                    bool done = false;
                    for (const PbField& f : tree->fields) {
                        appendVarint(bytes, f.key);
                        if (!done && int(f.key >> 3) == field && f.child) {
                            const QByteArray inner = serializePb(*f.child, {}) + unit.repeated(times);
                            appendVarint(bytes, quint64(inner.size()));
                            bytes += inner;
                            done = true;
                        } else if ((f.key & 7) == 0) {
                            appendVarint(bytes, f.varint);
                        } else if ((f.key & 7) == 2) {
                            const QByteArray inner = f.child ? serializePb(*f.child, {}) : f.raw;
                            appendVarint(bytes, quint64(inner.size()));
                            bytes += inner;
                        } else {
                            bytes += f.raw;
                        }
                    }
                    return bytes;
                } });
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// npy

namespace {

struct NpyParts
{
    int major = 1;
    QByteArray dict;
    QByteArray data;
};

std::optional<NpyParts> splitNpy(const QByteArray& npy)
{
    if (npy.size() < 10 || !npy.startsWith("\x93NUMPY"))
        return std::nullopt;
    NpyParts parts;
    parts.major = std::uint8_t(npy[6]);
    const qsizetype start = parts.major == 1 ? 10 : 12;
    if (npy.size() < start)
        return std::nullopt;
    const qsizetype length = parts.major == 1 ? getLe<quint16>(npy, 8) : qsizetype(getLe<quint32>(npy, 8));
    if (start + length > npy.size())
        return std::nullopt;
    parts.dict = npy.mid(start, length).trimmed();
    parts.data = npy.mid(start + length);
    return parts;
}

QByteArray joinNpy(const QByteArray& dict, const QByteArray& data, int minor = 0)
{
    const bool v1 = dict.size() + 11 < 65536;
    const qsizetype prefix = v1 ? 10 : 12;
    QByteArray header = dict;
    while ((prefix + header.size() + 1) % 64 != 0)
        header.append(' ');
    header.append('\n');
    QByteArray out("\x93NUMPY", 6);
    out.append(char(v1 ? 1 : 2));
    out.append(char(minor));
    QByteArray length(v1 ? 2 : 4, '\0');
    if (v1)
        putLe<quint16>(length, 0, quint16(header.size()));
    else
        putLe<quint32>(length, 0, quint32(header.size()));
    return out + length + header + data;
}

QList<QPair<QString, QByteArray>> npyDictVariants(const QByteArray& dict)
{
    QList<QPair<QString, QByteArray>> out;
    static const char* const kShapes[] = {
        "(2147483648,)",
        "(4611686018427387904,)",
        "(1099511627776, 1099511627776)",
        "(0, 4611686018427387904, 4611686018427387904)",
        "(3037000500, 3037000500, 3037000500)",
        "(-1,)",
        "(99999999999999999999999,)",
        "()",
        "(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)",
    };
    static const QRegularExpression shape(QStringLiteral("'shape':\\s*\\([^)]*\\)"));
    for (const char* value : kShapes) {
        QString text = QString::fromLatin1(dict);
        text.replace(shape, QStringLiteral("'shape': ") + QLatin1String(value));
        out.append({ QStringLiteral("shape=%1").arg(QLatin1String(value)), text.toLatin1() });
    }
    static const char* const kDescrs[]
        = { "'<U1073741824'", "'|V2147483647'", "'<f99'", "'|O'", "[('a', '<f4', (2147483647,))]" };
    static const QRegularExpression descr(QStringLiteral("'descr':\\s*'[^']*'"));
    for (const char* value : kDescrs) {
        QString text = QString::fromLatin1(dict);
        text.replace(descr, QStringLiteral("'descr': ") + QLatin1String(value));
        out.append({ QStringLiteral("descr=%1").arg(QLatin1String(value)), text.toLatin1() });
    }
    return out;
}

} // namespace

Mutations npyInflations(const QByteArray& seed)
{
    Mutations out;
    const std::optional<NpyParts> parts = splitNpy(seed);
    if (!parts)
        return out;
    for (const auto& [label, dict] : npyDictVariants(parts->dict)) {
        const QByteArray data = parts->data;
        out.append({ label, [dict, data] { return joinNpy(dict, data); } });
    }
    // The header length itself.
    const int major = parts->major;
    for (std::uint64_t length : { std::uint64_t(0xffff), std::uint64_t(seed.size()), kHuge32 }) {
        if (major == 1 && length > 0xffff)
            continue;
        out.append({ QStringLiteral("header length=%1").arg(hex(length)), [seed, major, length] {
                        QByteArray bytes = seed;
                        if (major == 1)
                            putLe<quint16>(bytes, 8, quint16(length));
                        else
                            putLe<quint32>(bytes, 8, quint32(length));
                        return bytes;
                    } });
    }
    out.append({ QStringLiteral("version 3.0 with 2^32-1 header length"), [seed] {
                    QByteArray bytes = seed.left(8) + QByteArray("\xff\xff\xff\xff", 4) + seed.mid(10);
                    bytes[6] = 3;
                    return bytes;
                } });
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// safetensors

Mutations safetensorsInflations(const QByteArray& seed)
{
    Mutations out;
    if (seed.size() < 8)
        return out;
    const auto headerLength = getLe<quint64>(seed, 0);
    if (headerLength > quint64(seed.size() - 8))
        return out;
    for (std::uint64_t length : { std::uint64_t(headerLength) + 1, std::uint64_t(seed.size() - 7), std::uint64_t(0),
                                  std::uint64_t(1) << 31, kHuge32 + 1, kHuge63, kHuge64 }) {
        out.append({ QStringLiteral("header length=%1").arg(hex(length)), [seed, length] {
                        QByteArray bytes = seed;
                        putLe<quint64>(bytes, 0, length);
                        return bytes;
                    } });
    }
    const QString header = QString::fromUtf8(seed.mid(8, qsizetype(headerLength)));
    const QByteArray data = seed.mid(8 + qsizetype(headerLength));
    const auto rebuild = [data](const QString& json) {
        QByteArray text = json.toUtf8();
        while (text.size() % 8 != 0)
            text.append(' ');
        QByteArray length(8, '\0');
        putLe<quint64>(length, 0, quint64(text.size()));
        return length + text + data;
    };
    struct Edit
    {
        const char* pattern;
        const char* replacement;
    };
    static const Edit kEdits[] = {
        { "\"data_offsets\"\\s*:\\s*\\[[^\\]]*\\]", "\"data_offsets\":[0,4611686018427387904]" },
        { "\"data_offsets\"\\s*:\\s*\\[[^\\]]*\\]", "\"data_offsets\":[4611686018427387904,4611686018427387908]" },
        { "\"data_offsets\"\\s*:\\s*\\[[^\\]]*\\]", "\"data_offsets\":[8,0]" },
        { "\"data_offsets\"\\s*:\\s*\\[[^\\]]*\\]", "\"data_offsets\":[0,18446744073709551615]" },
        { "\"data_offsets\"\\s*:\\s*\\[[^\\]]*\\]", "\"data_offsets\":[-1,4]" },
        { "\"shape\"\\s*:\\s*\\[[^\\]]*\\]", "\"shape\":[4611686018427387904,4]" },
        { "\"shape\"\\s*:\\s*\\[[^\\]]*\\]", "\"shape\":[2147483647,2147483647,2147483647]" },
        { "\"shape\"\\s*:\\s*\\[[^\\]]*\\]", "\"shape\":[0,9223372036854775807]" },
        { "\"shape\"\\s*:\\s*\\[[^\\]]*\\]", "\"shape\":[-1]" },
        { "\"dtype\"\\s*:\\s*\"[^\"]*\"", "\"dtype\":\"F64\"" },
    };
    for (const Edit& edit : kEdits) {
        const QRegularExpression re(QLatin1String(edit.pattern));
        // The first tensor and the last: readers check the first more carefully than the rest.
        QRegularExpressionMatchIterator it = re.globalMatch(header);
        QList<QRegularExpressionMatch> matches;
        while (it.hasNext())
            matches << it.next();
        if (matches.isEmpty())
            continue;
        QList<QRegularExpressionMatch> picks { matches.first() };
        if (matches.size() > 1)
            picks << matches.last();
        for (const QRegularExpressionMatch& match : picks) {
            QString json = header;
            json.replace(match.capturedStart(), match.capturedLength(), QLatin1String(edit.replacement));
            out.append({ QStringLiteral("%1 at %2").arg(QLatin1String(edit.replacement)).arg(match.capturedStart()),
                         [rebuild, json] { return rebuild(json); } });
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// zip (npz)

Mutations zipInflations(const QByteArray& seed)
{
    Mutations out;
    const qsizetype eocd = seed.lastIndexOf(QByteArray("PK\x05\x06", 4));
    if (eocd < 0 || eocd + 22 > seed.size())
        return out;
    const auto patch = [&out, &seed](const QString& name, qsizetype offset, int width, std::uint64_t value) {
        out.append({ QStringLiteral("%1=%2").arg(name, hex(value)), [seed, offset, width, value] {
                        QByteArray bytes = seed;
                        if (width == 2)
                            putLe<quint16>(bytes, offset, quint16(value));
                        else
                            putLe<quint32>(bytes, offset, quint32(value));
                        return bytes;
                    } });
    };
    const auto patchAll = [&](const QString& name, qsizetype offset, int width) {
        const std::uint64_t current = width == 2 ? getLe<quint16>(seed, offset) : getLe<quint32>(seed, offset);
        patch(name, offset, width, current + 1);
        if (width == 2) {
            patch(name, offset, width, 0xffff);
        } else {
            patch(name, offset, width, kHuge31);
            patch(name, offset, width, kHuge32); // the zip64 marker without a zip64 record
        }
    };
    patchAll(QStringLiteral("eocd.entries"), eocd + 10, 2);
    patchAll(QStringLiteral("eocd.cdSize"), eocd + 12, 4);
    patchAll(QStringLiteral("eocd.cdOffset"), eocd + 16, 4);
    patchAll(QStringLiteral("eocd.commentLength"), eocd + 20, 2);

    std::vector<qsizetype> entries;
    qsizetype at = getLe<quint32>(seed, eocd + 16);
    while (at >= 0 && at + 46 <= seed.size() && seed.mid(at, 4) == QByteArray("PK\x01\x02", 4)) {
        entries.push_back(at);
        at += 46 + getLe<quint16>(seed, at + 28) + getLe<quint16>(seed, at + 30) + getLe<quint16>(seed, at + 32);
    }
    std::vector<size_t> picks = framePicks(entries.size(), 1);
    for (size_t index : picks) {
        const qsizetype cd = entries[index];
        const QString entry = QStringLiteral("entry%1.").arg(index);
        patchAll(entry + QStringLiteral("cd.compressedSize"), cd + 20, 4);
        patchAll(entry + QStringLiteral("cd.size"), cd + 24, 4);
        patchAll(entry + QStringLiteral("cd.nameLength"), cd + 28, 2);
        patchAll(entry + QStringLiteral("cd.extraLength"), cd + 30, 2);
        patchAll(entry + QStringLiteral("cd.localOffset"), cd + 42, 4);
        const qsizetype local = getLe<quint32>(seed, cd + 42);
        if (local + 30 > seed.size() || seed.mid(local, 4) != QByteArray("PK\x03\x04", 4))
            continue;
        patchAll(entry + QStringLiteral("local.compressedSize"), local + 18, 4);
        patchAll(entry + QStringLiteral("local.size"), local + 22, 4);
        patchAll(entry + QStringLiteral("local.nameLength"), local + 26, 2);
        patchAll(entry + QStringLiteral("local.extraLength"), local + 28, 2);
        // A stored member is an npy: its header inflated in place, the member's CRC-32 recomputed.
        const quint16 method = getLe<quint16>(seed, local + 8);
        const qsizetype dataStart = local + 30 + getLe<quint16>(seed, local + 26) + getLe<quint16>(seed, local + 28);
        const qsizetype dataSize = getLe<quint32>(seed, cd + 20);
        if (method != 0 || dataStart + dataSize > seed.size())
            continue;
        const QByteArray member = seed.mid(dataStart, dataSize);
        for (const Mutation& m : npyInflations(member)) {
            const QByteArray changed = m.make();
            if (changed.size() != member.size())
                continue;
            out.append({ entry + QStringLiteral("npy ") + m.name, [seed, changed, dataStart, local, cd] {
                            QByteArray bytes = seed;
                            bytes.replace(dataStart, changed.size(), changed);
                            const auto crc = quint32(
                                crc32(0, reinterpret_cast<const Bytef*>(changed.constData()), uInt(changed.size())));
                            putLe<quint32>(bytes, local + 14, crc);
                            putLe<quint32>(bytes, cd + 16, crc);
                            return bytes;
                        } });
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// pickle

namespace {

struct PickleArg
{
    qsizetype offset = 0;
    int width = 0;
    bool memo = false; ///< a memo index (get/put) rather than a length
    char opcode = 0;
};

/// The length and memo-index arguments of a pickle's opcodes, until STOP or an opcode it does not know.
std::vector<PickleArg> pickleArgs(const QByteArray& bytes)
{
    std::vector<PickleArg> out;
    qsizetype at = 0;
    const auto line = [&]() {
        const qsizetype end = bytes.indexOf('\n', at);
        if (end < 0)
            return false;
        at = end + 1;
        return true;
    };
    while (at < bytes.size()) {
        const auto op = std::uint8_t(bytes[at]);
        const qsizetype arg = at + 1;
        at = arg;
        auto lengthArg = [&](int width) {
            if (arg + width > bytes.size())
                return false;
            std::uint64_t length = 0;
            for (int i = width - 1; i >= 0; --i)
                length = (length << 8) | std::uint8_t(bytes[arg + i]);
            out.push_back({ arg, width, false, char(op) });
            at = arg + width + qsizetype(std::min<std::uint64_t>(length, std::uint64_t(bytes.size())));
            return at <= bytes.size();
        };
        auto fixed = [&](int width, bool memo = false) {
            if (memo)
                out.push_back({ arg, width, true, char(op) });
            at = arg + width;
            return at <= bytes.size();
        };
        bool ok = true;
        switch (op) {
        case '.':
            return out;
        case '(':
        case '0':
        case '1':
        case '2':
        case 'N':
        case 'Q':
        case 'R':
        case 'a':
        case 'b':
        case 'd':
        case '}':
        case 'e':
        case 'l':
        case ']':
        case 'o':
        case 's':
        case 't':
        case ')':
        case 'u':
        case 0x81:
        case 0x85:
        case 0x86:
        case 0x87:
        case 0x88:
        case 0x89:
        case 0x8f:
        case 0x90:
        case 0x91:
        case 0x92:
        case 0x93:
        case 0x94:
        case 0x97:
        case 0x98:
            break;
        case 'F':
        case 'I':
        case 'L':
        case 'P':
        case 'S':
        case 'V':
        case 'g':
        case 'p':
            ok = line();
            break;
        case 'c':
        case 'i':
            ok = line() && line();
            break;
        case 'J':
            ok = fixed(4);
            break;
        case 'K':
            ok = fixed(1);
            break;
        case 'M':
            ok = fixed(2);
            break;
        case 'G':
            ok = fixed(8);
            break;
        case 0x80:
            ok = fixed(1);
            break;
        case 0x82:
            ok = fixed(1);
            break;
        case 0x83:
            ok = fixed(2);
            break;
        case 0x84:
            ok = fixed(4);
            break;
        case 'h':
        case 'q':
            ok = fixed(1, true);
            break;
        case 'j':
        case 'r':
            ok = fixed(4, true);
            break;
        case 0x95: // FRAME: an 8-byte length of what follows, no payload of its own
            out.push_back({ arg, 8, false, char(op) });
            at = arg + 8;
            break;
        case 'T':
        case 'X':
        case 'B':
        case 0x8b:
            ok = lengthArg(4);
            break;
        case 'U':
        case 'C':
        case 0x8c:
        case 0x8a:
            ok = lengthArg(1);
            break;
        case 0x8d:
        case 0x8e:
        case 0x96:
            ok = lengthArg(8);
            break;
        default:
            return out;
        }
        if (!ok)
            return out;
    }
    return out;
}

} // namespace

Mutations pickleInflations(const QByteArray& seed)
{
    Mutations out;
    std::vector<PickleArg> lengths, memos;
    for (const PickleArg& arg : pickleArgs(seed))
        (arg.memo ? memos : lengths).push_back(arg);
    const auto patch = [&out, &seed](const PickleArg& arg, std::uint64_t value, const QString& label) {
        out.append({ QStringLiteral("opcode 0x%1@%2 %3")
                         .arg(std::uint8_t(arg.opcode), 2, 16, QLatin1Char('0'))
                         .arg(arg.offset - 1)
                         .arg(label),
                     [seed, arg, value] {
                         QByteArray bytes = seed;
                         for (int i = 0; i < arg.width; ++i)
                             bytes[arg.offset + i] = char((value >> (8 * i)) & 0xff);
                         return bytes;
                     } });
    };
    for (qsizetype i : spread(qsizetype(lengths.size()), 24)) {
        const PickleArg& arg = lengths[size_t(i)];
        const std::uint64_t max = arg.width == 8 ? kHuge64 : (std::uint64_t(1) << (8 * arg.width)) - 1;
        patch(arg, max, QStringLiteral("length=max"));
        if (arg.width >= 4)
            patch(arg, kHuge31, QStringLiteral("length=2^31-1"));
        if (arg.width == 8)
            patch(arg, kHuge40, QStringLiteral("length=2^40"));
    }
    for (qsizetype i : spread(qsizetype(memos.size()), 16)) {
        const PickleArg& arg = memos[size_t(i)];
        patch(arg, arg.width == 1 ? 0xff : kHuge32, QStringLiteral("memo=max"));
        patch(arg, 0, QStringLiteral("memo=0"));
        if (arg.width == 4)
            patch(arg, kHuge31, QStringLiteral("memo=2^31-1"));
    }
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// gzip

QByteArray gzipCompress(const QByteArray& data)
{
    z_stream stream {};
    deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(qsizetype(deflateBound(&stream, uLong(data.size()))) + 64, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    stream.avail_in = uInt(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(qsizetype(stream.total_out));
    deflateEnd(&stream);
    return out;
}

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
