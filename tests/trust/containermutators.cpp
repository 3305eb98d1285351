#include "tests/trust/mutators.h"

#include "tests/trust/mutatorutils.h"

#include <QRegularExpression>

#include <zlib.h>

#include <optional>

namespace runlens::test {

using namespace detail;

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

} // namespace runlens::test

// ---------------------------------------------------------------------------------------------------------------
// torch.save (.pt)

namespace runlens::test {

Mutations ptInflations(const QByteArray& seed)
{
    Mutations out = zipInflations(seed);
    const qsizetype eocd = seed.lastIndexOf(QByteArray("PK\x05\x06", 4));
    if (eocd < 0 || eocd + 22 > seed.size())
        return out;
    // data.pkl: its lengths and memo indices inflated, and globals and storage keys swapped for ones of the
    // same length, the member's CRC-32 recomputed so the pickle itself is what is read.
    qsizetype cd = getLe<quint32>(seed, eocd + 16);
    while (cd >= 0 && cd + 46 <= seed.size() && seed.mid(cd, 4) == QByteArray("PK\x01\x02", 4)) {
        const qsizetype nameLength = getLe<quint16>(seed, cd + 28);
        const QByteArray name = seed.mid(cd + 46, nameLength);
        const qsizetype local = getLe<quint32>(seed, cd + 42);
        if (name.endsWith("/data.pkl") && local + 30 <= seed.size() && getLe<quint16>(seed, local + 8) == 0) {
            const qsizetype dataStart
                = local + 30 + getLe<quint16>(seed, local + 26) + getLe<quint16>(seed, local + 28);
            const qsizetype dataSize = getLe<quint32>(seed, cd + 20);
            if (dataStart + dataSize > seed.size())
                break;
            const QByteArray pickle = seed.mid(dataStart, dataSize);
            const auto withPickle = [seed, dataStart, local, cd](const QByteArray& changed) {
                QByteArray bytes = seed;
                bytes.replace(dataStart, changed.size(), changed);
                const auto crc
                    = quint32(crc32(0, reinterpret_cast<const Bytef*>(changed.constData()), uInt(changed.size())));
                putLe<quint32>(bytes, local + 14, crc);
                putLe<quint32>(bytes, cd + 16, crc);
                return bytes;
            };
            for (const Mutation& m : pickleInflations(pickle)) {
                out.append({ QStringLiteral("data.pkl ") + m.name, [m, withPickle, size = pickle.size()] {
                                const QByteArray changed = m.make();
                                return changed.size() == size ? withPickle(changed) : QByteArray();
                            } });
            }
            struct Swap
            {
                const char* label;
                QByteArray from;
                QByteArray to;
            };
            const Swap swaps[] = {
                { "forbidden global", "collections\nOrderedDict", "subprocess\ncheck_output" },
                { "forbidden rebuild", "torch._utils\n_rebuild_tensor_v2", "torch._utils\n_rebuild_qtensor_v9" },
                { "storage key missing",
                  QByteArray("X\x01\x00\x00\x00"
                             "0",
                             6),
                  QByteArray("X\x01\x00\x00\x00"
                             "9",
                             6) },
                { "storage type swapped", "torch\nFloatStorage", "torch\nDoubleStorag" },
                { "sizes beyond storage", QByteArray("K\x03K\x04\x86", 5), QByteArray("K\xffK\xff\x86", 5) },
            };
            for (const Swap& swap : swaps) {
                const qsizetype at = pickle.indexOf(swap.from);
                if (at < 0 || swap.from.size() != swap.to.size())
                    continue;
                QByteArray changed = pickle;
                changed.replace(at, swap.to.size(), swap.to);
                out.append({ QStringLiteral("data.pkl %1").arg(QLatin1String(swap.label)),
                             [withPickle, changed] { return withPickle(changed); } });
            }
            break;
        }
        cd += 46 + nameLength + getLe<quint16>(seed, cd + 30) + getLe<quint16>(seed, cd + 32);
    }
    return out;
}

} // namespace runlens::test
