#include "tests/trust/mutators.h"

#include "models/core/crc32c.h"
#include "tests/trust/mutatorutils.h"

#include <memory>

namespace runlens::test {

using namespace detail;

namespace {

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

} // namespace

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
    putLe<quint32>(out, 8, models::maskedCrc32c(out.constData(), 8));
    out += payload;
    QByteArray crc(4, '\0');
    putLe<quint32>(crc, 0, models::maskedCrc32c(payload.constData(), size_t(payload.size())));
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
                     putLe<quint32>(bytes, frame.offset + 8, models::maskedCrc32c(bytes.constData() + frame.offset, 8));
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

} // namespace runlens::test
