#include "tests/trust/seedrows.h"

#include "tests/importers/core/artifactbytes.h"

#include "importers/loggers/wandbrunfile.h"
#include "importers/trace/chrometracereader.h"
#include "importers/trace/tracecache.h"
#include "models/core/crc32c.h"
#include "models/trace/tracelod.h"
#include "models/trace/tracestorecodec.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QStringList>
#include <QTemporaryDir>
#include <QtEndian>

#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>

// Small real files of every format the importers read, and the damage only each format can be given.

namespace runlens::test {

namespace {

// ---------------------------------------------------------------------------------------------------------------
// Cutting seeds small where the format allows it.

/// The first TFRecord frames of a stream that fit in `maxBytes` (at least two).
QByteArray tfRecordPrefix(const QByteArray& stream, qsizetype maxBytes)
{
    QByteArray out;
    for (const QByteArray& payload : tfRecordPayloads(stream)) {
        const QByteArray frame = tfRecordFrame(payload);
        if (out.size() + frame.size() > maxBytes && tfRecordPayloads(out).size() >= 2)
            break;
        out += frame;
    }
    return out;
}

QByteArray linePrefix(const QByteArray& text, int lines)
{
    qsizetype at = 0;
    for (int i = 0; i < lines && at >= 0; ++i) {
        at = text.indexOf('\n', at);
        if (at >= 0)
            ++at;
    }
    return at < 0 ? text : text.left(at);
}

/// A GraphDef text cut before its `nodes + 1`-th top-level node.
QByteArray pbtxtPrefix(const QByteArray& text, int nodes)
{
    qsizetype at = 0;
    for (int i = 0; i < nodes && at >= 0; ++i)
        at = text.indexOf("\nnode {", at + 1);
    return at < 0 ? text : text.left(at + 1);
}

/// The GraphDef a torch SummaryWriter.add_graph stored in an event (Event.graph_def, field 4).
QByteArray graphDefOfEvents(const QByteArray& stream)
{
    for (const QByteArray& payload : tfRecordPayloads(stream)) {
        const QByteArray graph = protobufField(payload, 4);
        if (!graph.isEmpty())
            return graph;
    }
    return {};
}

/// A binary GraphDef that does not look like text once leading whitespace is trimmed: its first nodes dropped
/// until the bytes after the first tag (0x0a, a newline) are not a letter.
QByteArray binaryGraphDef(const QByteArray& graph)
{
    for (int drop = 0; drop < 64; ++drop) {
        const QByteArray rest = protobufWithoutFirst(graph, 1, drop);
        const QByteArray head = rest.left(256).trimmed();
        const char c = head.isEmpty() ? 'a' : head[0];
        if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && c != '#')
            return rest;
    }
    return {};
}

/// torch's raw memory timeline: the first pre-existing allocations and the first events of the run.
QByteArray memoryTimelineExcerpt(const QByteArray& gzipped)
{
    const QByteArray text = gzipDecompress(gzipped);
    static const QRegularExpression tuple(QStringLiteral("\\[-?[0-9]+, [0-9]+, -?[0-9]+, -?[0-9]+\\]"));
    QStringList kept;
    int preExisting = 0;
    int events = 0;
    QRegularExpressionMatchIterator it = tuple.globalMatch(QString::fromLatin1(text));
    while (it.hasNext() && events < 80) {
        const QString t = it.next().captured();
        if (t.startsWith(QLatin1String("[-1,"))) {
            if (preExisting++ < 40)
                kept << t;
        } else {
            ++events;
            kept << t;
        }
    }
    return '[' + kept.join(QStringLiteral(", ")).toLatin1() + ']';
}

// ---------------------------------------------------------------------------------------------------------------
// Hostile variants of text formats.

/// A JSON document with an array nested `depth` deep inserted as its first value.
Mutation jsonNesting(const QByteArray& seed, int depth)
{
    return { QStringLiteral("nested arrays x%1").arg(depth), [seed, depth] {
                const qsizetype object = seed.indexOf('{');
                const qsizetype array = seed.indexOf('[');
                const QByteArray deep = QByteArray(depth, '[') + QByteArray(depth, ']');
                if (object >= 0 && (array < 0 || object < array))
                    return seed.left(object + 1) + "\"deep\":" + deep + ',' + seed.mid(object + 1);
                return seed.left(array + 1) + deep + ',' + seed.mid(array + 1);
            } };
}

/// Numbers of a JSON document replaced by values of the wrong type.
Mutations jsonWrongTypes(const QByteArray& seed, int picks)
{
    Mutations out;
    static const QRegularExpression number(QStringLiteral(":\\s*(-?[0-9][0-9.eE+-]*)"));
    QList<QPair<qsizetype, qsizetype>> spans;
    QRegularExpressionMatchIterator it = number.globalMatch(QString::fromLatin1(seed));
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        spans.append({ m.capturedStart(1), m.capturedLength(1) });
    }
    static const char* const kValues[] = { "\"x\"", "[]", "{}", "null", "true" };
    const qsizetype step = std::max<qsizetype>(1, spans.size() / picks);
    int k = 0;
    for (qsizetype i = 0; i < spans.size(); i += step) {
        const auto [start, length] = spans[i];
        const char* value = kValues[k++ % 5];
        out.append({ QStringLiteral("value@%1=%2").arg(start).arg(QLatin1String(value)), [seed, start, length, value] {
                        QByteArray bytes = seed;
                        bytes.replace(start, length, value);
                        return bytes;
                    } });
    }
    return out;
}

Mutations jsonHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out += jsonWrongTypes(seed, 16);
    out.append(jsonNesting(seed, 100000));
    out.append(textNesting(seed, QByteArray(), QByteArray("["), QByteArray(), 100000,
                           QStringLiteral("unclosed arrays x100000 at the start")));
    return out;
}

/// jsonHostile, and what msprobe's own quirks invite: Python's non-finite tokens in every number, entries that
/// are not objects, and one entry repeated under the same name.
Mutations msprobeHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = jsonHostile(seed, rowSeed);
    out.append({ QStringLiteral("every statistic NaN/-Infinity"), [seed] {
                    QByteArray bytes = seed;
                    bytes.replace("\"Max\": ", "\"Max\": NaN, \"x\": ");
                    bytes.replace("\"Min\": ", "\"Min\": -Infinity, \"y\": ");
                    return bytes;
                } });
    out.append({ QStringLiteral("data holds a list"), [seed] {
                    QByteArray bytes = seed;
                    bytes.replace("\"data\": {", "\"data\": [{");
                    return bytes;
                } });
    out.append(textRepetition(seed, "\"data\": {", "\"Torch.abs.0.forward\": {\"input_args\": [1, [2, {}]]},", 100000,
                              QStringLiteral("100000 entries of one name")));
    out.append(textRepetition(seed, "\"data\": {", "\"Torch.abs.0.forward\": 7,", 1000,
                              QStringLiteral("entries that are numbers")));
    return out;
}

/// The JSON body of a rank digest file (empty when the header or the stream is damaged).
QByteArray rankDigestBody(const QByteArray& file)
{
    if (file.size() < 24)
        return {};
    QByteArray framed(4, '\0');
    qToBigEndian<quint32>(quint32(qFromLittleEndian<quint64>(file.constData() + 16)), framed.data());
    return qUncompress(framed + file.mid(24));
}

/// A rank digest file around `body`, its header fields as given (the length defaults to the body's).
QByteArray rankDigestFile(const QByteArray& body, quint32 version = 1, quint32 flags = 0, qint64 length = -1)
{
    QByteArray header("RLDIGEST", 8);
    header.resize(24);
    qToLittleEndian<quint32>(version, header.data() + 8);
    qToLittleEndian<quint32>(flags, header.data() + 12);
    qToLittleEndian<quint64>(length < 0 ? quint64(body.size()) : quint64(length), header.data() + 16);
    return header + qCompress(body, 9).mid(4);
}

/// Header fields a reader must not trust (lengths far beyond the body, versions, flags), a small file that
/// inflates to 200 MiB, and the JSON body's own hostile forms (jsonHostile, huge counts and numbers) framed
/// again with a consistent header so that they reach the body's reader.
Mutations rankDigestHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    const QByteArray body = rankDigestBody(seed);
    Mutations out;
    auto header = [&](const QString& name, quint32 version, quint32 flags, qint64 length) {
        out.append({ name, [=] { return rankDigestFile(body, version, flags, length); } });
    };
    header(QStringLiteral("length 2^62"), 1, 0, qint64(1) << 62);
    header(QStringLiteral("length 2^32 + body"), 1, 0, (qint64(1) << 32) + body.size());
    header(QStringLiteral("length one past the body"), 1, 0, body.size() + 1);
    header(QStringLiteral("length one short of the body"), 1, 0, body.size() - 1);
    header(QStringLiteral("length 0"), 1, 0, 0);
    header(QStringLiteral("version 2 header on a version 1 body"), 2, 0, -1);
    header(QStringLiteral("version 0xffffffff"), 0xffffffffu, 0, -1);
    header(QStringLiteral("version 0"), 0, 0, -1);
    header(QStringLiteral("flags set"), 1, 0x80000000u, -1);
    out.append({ QStringLiteral("200 MiB of zeros behind a small file"),
                 [] { return rankDigestFile(QByteArray(200 << 20, '0')); } });
    out.append({ QStringLiteral("257 MiB claimed and inflated"), [] {
                    const QByteArray big(257 << 20, ' ');
                    return rankDigestFile(big);
                } });
    for (const Mutation& m : jsonHostile(body, rowSeed))
        out.append({ QStringLiteral("body: ") + m.name, [m] { return rankDigestFile(m.make()); } });
    auto bodyEdit = [&](const QString& name, const QByteArray& from, const QByteArray& to) {
        out.append({ name, [=] {
                        QByteArray edited = body;
                        edited.replace(from, to);
                        return rankDigestFile(edited);
                    } });
    };
    bodyEdit(QStringLiteral("rank 2^40"), "\"rank\":3", "\"rank\":1099511627776");
    bodyEdit(QStringLiteral("rank -1"), "\"rank\":3", "\"rank\":-1");
    bodyEdit(QStringLiteral("rank 1e308"), "\"rank\":3", "\"rank\":1e308");
    bodyEdit(QStringLiteral("world size 1e300"), "\"world_size\":4", "\"world_size\":1e300");
    bodyEdit(QStringLiteral("steps of strings"), "\"steps\":[", "\"steps\":[\"a\",{},null,[\"x\",\"y\"],");
    bodyEdit(QStringLiteral("step times beyond int64"), "\"steps\":[",
             "\"steps\":[[1e300,-1e300,9.3e18,1,1,1,1,1,1,1,1],");
    out.append(textRepetition(body, "\"collectives\":[", "[\"allreduce\",1,2,3,\"g\",2,\"[0, 1]\"],", 100000,
                              QStringLiteral("100000 collectives")));
    out.last().make = [inner = out.last().make] { return rankDigestFile(inner()); };
    return out;
}

/// A version 2 rank digest's body with `edit` applied, framed with a consistent header.
QByteArray rankDigestV2File(const QByteArray& body, qint64 length = -1)
{
    QByteArray header("RLDIGEST", 8);
    header.resize(24);
    qToLittleEndian<quint32>(2, header.data() + 8);
    qToLittleEndian<quint32>(0, header.data() + 12);
    qToLittleEndian<quint64>(length < 0 ? quint64(body.size()) : quint64(length), header.data() + 16);
    return header + body;
}

/// The counts and indexes of a version 2 body (importers/cluster/rankdigestbinary.h) a reader must not trust,
/// each set to what a hostile file would hold, and header lengths that disagree with the body.
Mutations rankDigestV2Hostile(const QByteArray& seed, std::uint64_t)
{
    const QByteArray body = seed.mid(24);
    Mutations out;
    if (body.size() < 4)
        return out;
    // Walk the string table to the fixed fields.
    qsizetype at = 4;
    const quint32 strings = qFromLittleEndian<quint32>(body.constData());
    for (quint32 i = 0; i < strings && at + 4 <= body.size(); ++i)
        at += 4 + qsizetype(qFromLittleEndian<quint32>(body.constData() + at));
    const qsizetype fixed = at;
    const qsizetype stepCount = fixed + 5 * 4 + 3 * 8 + 4 + 6 * 8 + 6 * 8;
    if (stepCount + 4 > body.size())
        return out;
    const qsizetype collectiveCount
        = stepCount + 4 + qsizetype(qFromLittleEndian<quint32>(body.constData() + stepCount)) * 88;
    const qsizetype kernelCount
        = collectiveCount + 4 + qsizetype(qFromLittleEndian<quint32>(body.constData() + collectiveCount)) * 40;
    auto set32 = [&](const QString& name, qsizetype offset, quint32 value) {
        out.append({ name, [=] {
                        QByteArray edited = body;
                        if (offset + 4 <= edited.size())
                            qToLittleEndian<quint32>(value, edited.data() + offset);
                        return rankDigestV2File(edited);
                    } });
    };
    set32(QStringLiteral("string count 2^32-1"), 0, 0xffffffffu);
    set32(QStringLiteral("first string 4 GiB long"), 4, 0xffffffffu);
    set32(QStringLiteral("rank 2^31"), fixed, 0x80000000u);
    set32(QStringLiteral("world size 2^32-1"), fixed + 4, 0xffffffffu);
    set32(QStringLiteral("host string index past the table"), fixed + 8, 0xfffffff0u);
    set32(QStringLiteral("temporal flag 7"), fixed + 5 * 4 + 3 * 8, 7);
    set32(QStringLiteral("step count 2^32-1"), stepCount, 0xffffffffu);
    set32(QStringLiteral("step count one more"), stepCount,
          qFromLittleEndian<quint32>(body.constData() + stepCount) + 1);
    set32(QStringLiteral("collective count 2^28"), collectiveCount, 1u << 28);
    set32(QStringLiteral("collective group size -2^31"), collectiveCount + 4 + 4 + 24 + 4, 0x80000000u);
    set32(QStringLiteral("kernel count 2^32-1"), kernelCount, 0xffffffffu);
    auto framed = [&](const QString& name, qint64 length) {
        out.append({ name, [=] { return rankDigestV2File(body, length); } });
    };
    framed(QStringLiteral("length 2^62"), qint64(1) << 62);
    framed(QStringLiteral("length one past the body"), body.size() + 1);
    framed(QStringLiteral("length one short of the body"), body.size() - 1);
    framed(QStringLiteral("length 0"), 0);
    out.append({ QStringLiteral("1 MiB of zeros after the tables"),
                 [=] { return rankDigestV2File(body + QByteArray(1 << 20, '\0')); } });
    out.append(
        { QStringLiteral("body cut after the string table"), [=] { return rankDigestV2File(body.left(fixed)); } });
    out.append({ QStringLiteral("100000 steps of NaN"), [=] {
                    QByteArray edited = body.left(stepCount);
                    char count[4];
                    qToLittleEndian<quint32>(100000, count);
                    edited.append(count, 4);
                    edited.append(QByteArray(100000 * 88, '\xff'));
                    edited.append(QByteArray(12, '\0')); // no collectives, kernels or operators
                    return rankDigestV2File(edited);
                } });
    return out;
}

/// One physical record of a W&B run file: checksum, length, type, data.
QByteArray wandbFragment(quint8 type, const QByteArray& data)
{
    QByteArray out(7, '\0');
    qToLittleEndian<quint32>(loggers::wandbFragmentChecksum(type, data), out.data());
    qToLittleEndian<quint16>(quint16(data.size()), out.data() + 4);
    out[6] = char(type);
    return out + data;
}

/// Appends `payload` as one logical record, split over blocks as the writer splits it.
void appendWandbRecord(QByteArray& file, QByteArray payload)
{
    bool first = true;
    for (;;) {
        const qsizetype left = loggers::kWandbBlockSize - file.size() % loggers::kWandbBlockSize;
        if (left < 7) {
            file.append(QByteArray(left, '\0'));
            continue;
        }
        if (payload.size() <= left - 7) {
            file += wandbFragment(first ? 1 : 4, payload);
            return;
        }
        file += wandbFragment(first ? 2 : 3, payload.left(left - 7));
        payload.remove(0, left - 7);
        first = false;
    }
}

/// Offsets of the physical records of a W&B run file.
QList<qsizetype> wandbFragments(const QByteArray& file)
{
    QList<qsizetype> out;
    qsizetype pos = 7;
    while (pos + 7 <= file.size()) {
        const qsizetype left = loggers::kWandbBlockSize - pos % loggers::kWandbBlockSize;
        if (left < 7) {
            pos += left;
            continue;
        }
        out.append(pos);
        pos += 7 + qFromLittleEndian<quint16>(file.constData() + pos + 4);
    }
    return out;
}

QByteArray protoVarint(quint64 value)
{
    QByteArray out;
    do {
        out += char((value & 0x7f) | (value > 0x7f ? 0x80 : 0));
        value >>= 7;
    } while (value);
    return out;
}

/// The framing's own damage: a cut inside a record, checksums, the header, a record started and never
/// finished, fragments out of order, lengths past the block, and records the decoder must survive (nesting
/// 100,000 deep, a 16 MiB record over 500 blocks, a history item declaring 2^62 bytes).
Mutations wandbHostile(const QByteArray& seed, std::uint64_t)
{
    Mutations out;
    const QList<qsizetype> fragments = wandbFragments(seed);
    auto edit = [&](const QString& name, std::function<void(QByteArray&)> change) {
        out.append({ name, [seed, change] {
                        QByteArray s = seed;
                        change(s);
                        return s;
                    } });
    };
    auto retype = [](QByteArray& s, qsizetype at, quint8 type) {
        const quint16 length = qFromLittleEndian<quint16>(s.constData() + at + 4);
        s[at + 6] = char(type);
        qToLittleEndian<quint32>(loggers::wandbFragmentChecksum(type, s.mid(at + 7, length)), s.data() + at);
    };
    const qsizetype second = fragments.value(1, 7);
    out.append({ QStringLiteral("cut inside the run record"), [seed, second] { return seed.left(second + 20); } });
    edit(QStringLiteral("bad checksum of the run record"),
         [second](QByteArray& s) { s[second] = char(s[second] ^ 1); });
    edit(QStringLiteral("bad ident"), [](QByteArray& s) { s[1] = 'X'; });
    edit(QStringLiteral("bad magic"), [](QByteArray& s) { s[5] = 0; });
    edit(QStringLiteral("version 1"), [](QByteArray& s) { s[6] = 1; });
    edit(QStringLiteral("first record a FIRST without LAST"), [retype](QByteArray& s) { retype(s, 7, 2); });
    edit(QStringLiteral("every record a FIRST"), [retype](QByteArray& s) {
        for (const qsizetype at : wandbFragments(s))
            retype(s, at, 2);
    });
    edit(QStringLiteral("every record a MIDDLE"), [retype](QByteArray& s) {
        for (const qsizetype at : wandbFragments(s))
            retype(s, at, 3);
    });
    edit(QStringLiteral("fragment type 9"), [retype, second](QByteArray& s) { retype(s, second, 9); });
    for (const qsizetype at : fragments) {
        if (quint8(seed[at + 6]) == 2) {
            edit(QStringLiteral("FIRST declares a length past its block"),
                 [at](QByteArray& s) { qToLittleEndian<quint16>(0xffff, s.data() + at + 4); });
            out.append(
                { QStringLiteral("ends with a FIRST without LAST"), [seed, at] { return seed.left(at + 100); } });
        }
    }
    edit(QStringLiteral("run record declares a length past its block"),
         [second](QByteArray& s) { qToLittleEndian<quint16>(0x8000, s.data() + second + 4); });
    out.append({ QStringLiteral("a record nested 100000 deep"), [seed] {
                    // Record.history.item.… as nested length-delimited fields, written from the outside in.
                    constexpr int kDepth = 100000;
                    std::vector<quint64> lengths(kDepth + 1, 0);
                    for (int i = 1; i <= kDepth; ++i)
                        lengths[i] = 1 + quint64(protoVarint(lengths[i - 1]).size()) + lengths[i - 1];
                    QByteArray payload;
                    payload.reserve(qsizetype(lengths[kDepth]));
                    for (int i = kDepth; i >= 1; --i)
                        payload += char(0x12) + protoVarint(lengths[i - 1]);
                    QByteArray file = seed;
                    appendWandbRecord(file, payload);
                    return file;
                } });
    out.append({ QStringLiteral("a 16 MiB history record"), [seed] {
                    // A history record (field 2) holding one item whose value is 16 MiB of JSON text.
                    const QByteArray value = '"' + QByteArray(16 << 20, 'x') + '"';
                    const QByteArray itemBytes
                        = QByteArray("\x0a\x01k\x82\x01", 5) + protoVarint(quint64(value.size())) + value;
                    const QByteArray history = char(0x0a) + protoVarint(quint64(itemBytes.size())) + itemBytes;
                    QByteArray file = seed;
                    appendWandbRecord(file, char(0x12) + protoVarint(quint64(history.size())) + history);
                    return file;
                } });
    out.append({ QStringLiteral("an item declaring 2^62 bytes"), [seed] {
                    QByteArray file = seed;
                    appendWandbRecord(file, QByteArray("\x12\x0c\x0a\x0a\x82\x01", 6) + protoVarint(quint64(1) << 62));
                    return file;
                } });
    return out;
}

Mutations csvHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textRepetition(seed, "\n", "9", 1 << 20, QStringLiteral("one field of a megabyte of digits")));
    out.append(textRepetition(seed, "\n", ",", 1 << 18, QStringLiteral("a row of 262144 columns")));
    out.append(textRepetition(seed, "\n", "\"", 1, QStringLiteral("unterminated quote")));
    return out;
}

Mutations jsonLinesHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textNesting(seed, "{", "\"a\": {", "}", 100000, QStringLiteral("objects nested x100000")));
    out.append(textRepetition(seed, "\n", "{\"step\": 1e300, \"loss\": -1e-400}\n", 100000,
                              QStringLiteral("100000 lines with steps beyond int64")));
    out.append(textRepetition(seed, "\n", "\"", 1, QStringLiteral("unterminated string")));
    return out;
}

Mutations pbtxtHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textNesting(seed, "node {", " attr { key: \"a\" value { func { name: \"f\"", " } } }", 100000,
                           QStringLiteral("attr/func nested x100000")));
    out.append(textNesting(seed, "node {", " attr { key: \"a\" value { list {", " } } }", 100000,
                           QStringLiteral("attr/list nested x100000")));
    out.append(textRepetition(seed, QByteArray(), "node { name: \"n\" op: \"X\" }\n", 100000,
                              QStringLiteral("100000 nodes named n")));
    out.append(textRepetition(seed, QByteArray(), "node { name: \"m\" op: \"X\" input: \"a:2000000000\" }\n", 1,
                              QStringLiteral("input slot 2000000000")));
    return out;
}

Mutations irHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textNesting(seed, "(", "(", ")", 100000, QStringLiteral("parentheses nested x100000")));
    out.append(textNesting(seed, "{", "{", "}", 100000, QStringLiteral("braces nested x100000")));
    out.append(textRepetition(seed, "\n", "  %1(%0) = Add(%0, %0)\n", 100000, QStringLiteral("100000 nodes %1")));
    return out;
}

Mutations dotHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textNesting(seed, "{", "subgraph cluster_x {", "}", 100000, QStringLiteral("subgraphs nested x100000")));
    out.append(textRepetition(seed, "{", "n;", 100000, QStringLiteral("100000 nodes named n")));
    out.append(textRepetition(seed, "{", "a -> b;", 100000, QStringLiteral("100000 edges a -> b")));
    return out;
}

Mutations torchScriptHostile(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out = textNumberInflations(seed, rowSeed);
    out.append(textNesting(seed, "(", "(", ")", 100000, QStringLiteral("parentheses nested x100000")));
    out.append(
        textRepetition(seed, "\n", "  %n : Tensor = aten::relu(%n)\n", 100000, QStringLiteral("100000 nodes %n")));
    return out;
}

Mutations protobufHostile(const QByteArray& seed, int graphField, int nodeField)
{
    Mutations out = protobufInflations(seed);
    out += protobufRepetition(seed, graphField, nodeField, 100000);
    return out;
}

/// Paddle programs: the protobuf inflations, 100,000 copies of an op, and what only sub-blocks allow: 100,000
/// blocks each the body of an op in the one before (nesting far past any limit), and blocks that are each
/// other's bodies (a cycle between blocks, and a block that is its own body).
Mutations paddleHostile(const QByteArray& seed, std::uint64_t)
{
    Mutations out = protobufHostile(seed, 1, 4);
    auto varint = [](QByteArray& out, quint64 v) {
        do {
            out.append(char((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
            v >>= 7;
        } while (v);
    };
    auto field = [varint](int number, const QByteArray& payload) {
        QByteArray out;
        varint(out, quint64(number) << 3 | 2);
        varint(out, quint64(payload.size()));
        return out + payload;
    };
    auto number = [varint](int n, quint64 value) {
        QByteArray out;
        varint(out, quint64(n) << 3);
        varint(out, value);
        return out;
    };
    // block `idx` with one `while` op whose sub_block is `body`
    auto block = [=](int idx, int body) {
        const QByteArray attr = field(1, "sub_block") + number(2, 8) + number(12, quint64(body));
        const QByteArray op = field(3, "while") + field(1, field(1, "X") + field(2, "x")) + field(4, attr);
        return field(1, number(1, quint64(idx)) + number(2, quint64(idx ? idx - 1 : -1)) + field(4, op));
    };
    out.append({ QStringLiteral("100000 blocks each the body of the one before"), [block] {
                    QByteArray bytes;
                    for (int i = 0; i < 100000; ++i)
                        bytes += block(i, i + 1);
                    return bytes;
                } });
    out.append({ QStringLiteral("blocks that are each other's bodies, and their own"), [block] {
                    QByteArray bytes = block(0, 1);
                    bytes += block(1, 2);
                    bytes += block(2, 1);
                    bytes += block(3, 3);
                    return bytes;
                } });
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// MindSpore memory files: no real ones are in the samples, so small ones in the layout the 1.x/2.x profilers
// write (as in tst_mindsporememory).

const char kMsMemorySummary[]
    = R"({"capacity": 31.5, "allocations": 120, "deallocations": 120, "peak_mem": 2.25, "static_mem": 0.5})";
const char kMsMemoryDetails[]
    = R"({"1": {"graph_id": 1, "static_mem": 0.5, "lines": [0.75, 0.9375, 0.625], "fp_start": 0, "bp_end": 2,
"nodes": [{"node_id": 0, "name": "Conv2D-op1", "fullname": "Default/conv1/Conv2D-op1", "size": 0.25, "allocations": 1, "allocated": 0.25},
{"node_id": 1, "name": "MatMul-op2", "fullname": "Default/fc/MatMul-op2", "size": 0.1875, "allocations": 2, "allocated": 0.1875},
{"node_id": 2, "name": "ReLU-op3", "fullname": "Default/ReLU-op3", "size": 0.0, "allocations": 0, "allocated": -0.3125}],
"breakdowns": [{"tensor_name": "Conv2D-op1:0", "tensor_id": 7, "size": 0.25, "type": "output", "shape": [32, 64, 56, 56],
"format": "NC1HWC0", "data_type": "float16", "life_start": 0, "life_end": 1},
{"tensor_name": "MatMul-op2:0", "tensor_id": 8, "size": 0.125, "type": "output", "shape": "32,1000",
"format": "DefaultFormat", "data_type": "float32", "life_start": 1, "life_end": 2}]}})";
const char kMsCpuMemoryRecord[] = "Timestamp(ns),Total Allocated,Total Reserved,Total Active\n"
                                  "1700000000000000100,1024,4096,1024\n"
                                  "1700000000000000200,3072,4096,2048\n"
                                  "1700000000000000300,512,8192,512\n";
const char kMsOperatorMemory[]
    = "Name,Size(KB),Allocation Time(us),Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),"
      "Release Total Allocated(MB),Release Total Reserved(MB),Device\n"
      "Default/network/Conv2D-op12,1024,1700000000000000.5,250.25,10,20,9,20,NPU:0\n"
      "\"Default/net/Add-op1,fused\",0.5,1700000000000100,,10,20,,,NPU:0\n"
      "Default/network/MatMul-op3,2,1700000000000200,-1,10,20,9,20,NPU:1\n";

const QByteArray kTraceBombPrefix("{\"traceEvents\":[");
const QByteArray kTimelineBombPrefix("[[-1, 1, 512, 7],");

// ---------------------------------------------------------------------------------------------------------------
// The trace index cache: not a run artifact, but a file the program reads back from its cache folder, so a
// damaged one must be a rebuild, never a crash.

/// The trace whose index the seed is: written once per process (forked children share it) with a fixed
/// modification time, so the key in every case's cache file matches it.
const QString& indexedTracePath()
{
    static QTemporaryDir folder;
    static const QString path = [] {
        const QString p = folder.filePath(QStringLiteral("worker0.pt.trace.json"));
        return p;
    }();
    return path;
}

void writeIndexedTrace(const QByteArray& json)
{
    QFile file(indexedTracePath());
    if (file.open(QIODevice::WriteOnly))
        file.write(json);
    file.close();
    const struct timespec times[2] = { { 1700000000, 0 }, { 1700000000, 0 } };
    ::utimensat(AT_FDCWD, QFile::encodeName(indexedTracePath()).constData(), times, 0);
}

QString indexEntry(const QString& folder)
{
    trace::TraceCache::setDirectory(folder + QStringLiteral("/cache"));
    trace::TraceCache::setEnabled(true);
    trace::TraceCacheKey key;
    trace::TraceCache::keyOf(QStringList { indexedTracePath() }, key);
    return trace::TraceCache::indexPath(key);
}

/// The index cache of a trace (the seed's JSON), as the program writes it.
QByteArray traceIndexOf(const QByteArray& json)
{
    writeIndexedTrace(json);
    QTemporaryDir cache;
    const QString entry = indexEntry(cache.path());
    trace::ChromeTraceReader::read({ indexedTracePath() });
    trace::TraceCache::setEnabled(false);
    QFile file(entry);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Puts `bytes` where the index cache of the trace is kept and opens the trace. A file the reader refuses must
/// give the store a fresh parse gives; one it accepts (a hostile case whose checksum was made to match holds
/// consistent but different values) must give a store the timeline can index and read every slice's args of.
QString readTraceIndex(const QString& folder, const QByteArray& bytes)
{
    QString refused;
    const bool accepted = trace::TraceStoreCodec::read(std::span(reinterpret_cast<const std::byte*>(bytes.constData()),
                                                                 std::size_t(bytes.size())),
                                                       nullptr, true, refused)
                              .store
        != nullptr;
    const QString entry = indexEntry(folder);
    QDir().mkpath(QFileInfo(entry).absolutePath());
    QFile::remove(entry);
    {
        QFile file(entry);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            return QStringLiteral("cannot write %1").arg(entry);
    }
    const trace::ChromeTraceResult opened = trace::ChromeTraceReader::read({ indexedTracePath() });
    if (!opened.store)
        return QStringLiteral("no store");
    if (accepted) {
        // The painting index read back with the store is walked as the painter and hit testing walk it.
        if (const std::shared_ptr<const trace::TraceLod>& cached = opened.store->lod()) {
            for (std::size_t t = 0; t < opened.store->tracks().size(); ++t) {
                const trace::Track& track = opened.store->tracks()[t];
                const auto& rows = cached->track(int(t)).rows;
                for (std::size_t d = 0; d < rows.size(); ++d) {
                    trace::TraceLod::sliceAt(track, rows[d], opened.store->startTime(), 1000);
                    cached->levelFor(int(t), int(d), 1e9);
                }
            }
        }
        const trace::TraceLod lod(*opened.store);
        for (std::size_t t = 0; t < opened.store->tracks().size(); ++t) {
            for (std::size_t i = 0; i < opened.store->tracks()[t].size(); ++i)
                opened.store->argsJson(int(t), i);
        }
        return {};
    }
    const trace::ChromeTraceResult parsed = trace::ChromeTraceReader::readFiles({ indexedTracePath() });
    QString difference;
    if (!opened.store || !trace::TraceStoreCodec::equal(*opened.store, *parsed.store, &difference))
        return QStringLiteral("the store read through the damaged cache differs from a fresh parse: %1")
            .arg(difference);
    return {};
}

/// Sections of an index cache (TraceStoreCodec format 2: the eight of the store, then the painting index).
constexpr int kIndexSections = 9;

/// Where the sections of an index cache start (after its header); -1 when the header cannot be walked.
qsizetype indexBodyStart(const QByteArray& s)
{
    qsizetype at = 12;
    auto u32 = [&](qsizetype where) {
        std::uint32_t v = 0;
        if (where + 4 <= s.size())
            std::memcpy(&v, s.constData() + where, 4);
        return v;
    };
    at += 4 + qsizetype(u32(at)); // version string
    const std::uint32_t keys = u32(at);
    at += 4;
    for (std::uint32_t i = 0; i < keys && at < s.size(); ++i)
        at += 4 + qsizetype(u32(at)) + 16;
    at += 4 + kIndexSections * 12; // section table
    return at <= s.size() - 4 ? at : -1;
}

/// The sizes in the section table and counts and lengths inside the sections set far beyond the file, with the
/// trailing CRC-32C recomputed so that the reader gets past its checksum to the allocation.
Mutations traceIndexInflations(const QByteArray& seed, std::uint64_t rowSeed)
{
    Mutations out;
    const qsizetype body = indexBodyStart(seed);
    if (body < 0)
        return out;
    auto withCrc = [body](QByteArray bytes) {
        const std::uint32_t crc = summary::crc32c(bytes.constData() + body, std::size_t(bytes.size() - 4 - body));
        std::memcpy(bytes.data() + bytes.size() - 4, &crc, 4);
        return bytes;
    };
    const std::uint64_t values[] = { 0xffffffffffffffffull, 0x7fffffffull, 0xffffffffull, std::uint64_t(1) << 40 };
    auto add = [&](const QString& name, qsizetype at, int width) {
        for (const std::uint64_t value : values) {
            out.append({ QStringLiteral("%1 at %2 = %3").arg(name).arg(at).arg(value), [=] {
                            QByteArray bytes = seed;
                            std::memcpy(bytes.data() + at, &value, std::size_t(width));
                            return withCrc(bytes);
                        } });
        }
    };
    // The section table: one (id, size) pair per section, ending where the body starts.
    for (int i = 0; i < kIndexSections; ++i)
        add(QStringLiteral("section %1 size").arg(i + 1), body - kIndexSections * 12 + i * 12 + 4, 8);
    // Counts and lengths inside the sections: a sample of 4- and 8-byte fields.
    SeededRandom random(rowSeed);
    for (int i = 0; i < 64; ++i) {
        const qsizetype at = body + qsizetype(random.next() % std::uint64_t(seed.size() - 4 - body - 8));
        add(QStringLiteral("field"), at, i % 2 == 0 ? 8 : 4);
    }
    return out;
}

} // namespace

std::vector<SeedRow> seedRows()
{
    const auto tfPrefix = [](qsizetype max) { return [max](const QByteArray& s) { return tfRecordPrefix(s, max); }; };
    const auto lines = [](int n) { return [n](const QByteArray& s) { return linePrefix(s, n); }; };
    const auto tf = [](const QByteArray& s, std::uint64_t) { return tfRecordInflations(s); };
    return {
        { "tfevents torch scalars", Source::Samples,
          "summaries/tensorboard/torch2_scalars/events.out.tfevents.1771594466.zyzkings.21024.0",
          "events.out.tfevents.1771594466.zyzkings.21024.0", ArtifactKind::TensorBoardEvents, false, tfPrefix(1500),
          tf },
        { "tfevents tf2 tensor scalars", Source::Samples,
          "summaries/tensorboard/tf2_tensor_scalars/events.out.tfevents.1585499054.Jaakkos-Mac-mini.local.11684.5.v2",
          "events.out.tfevents.1585499054.host.11684.5.v2", ArtifactKind::TensorBoardEvents, false, tfPrefix(1500),
          tf },
        { "tfevents pr curve", Source::Samples,
          "summaries/tensorboard/torch2_pr_curve/events.out.tfevents.1771596445.zyzkings.30376.0",
          "events.out.tfevents.1771596445.zyzkings.30376.0", ArtifactKind::TensorBoardEvents, false, tfPrefix(7000),
          tf },
        { "tfevents hparams",
          Source::Samples,
          "summaries/tensorboard/torch2_hparams/events.out.tfevents.1771595857.zyzkings.1216.1",
          "events.out.tfevents.1771595857.zyzkings.1216.1",
          ArtifactKind::TensorBoardEvents,
          false,
          {},
          tf },
        { "tfevents graph",
          Source::Samples,
          "graphs/torch_add_graph_event/events.out.tfevents.1771596179.zyzkings.9384.0",
          "events.out.tfevents.1771596179.zyzkings.9384.0",
          ArtifactKind::TensorBoardEvents,
          false,
          {},
          tf },
        { "mindspore summary", Source::Samples,
          "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_MS",
          "events.out.events.summary.1700000000.0.helperhost_MS", ArtifactKind::MindSporeSummary, false, tfPrefix(3000),
          tf },
        { "mindspore lineage",
          Source::Samples,
          "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_lineage",
          "events.out.events.summary.1700000000.0.helperhost_lineage",
          ArtifactKind::MindSporeLineage,
          false,
          {},
          tf },
        { "visualdl log",
          Source::TestData,
          "visualdl/vdlrecords.1700000000.log",
          "vdlrecords.1700000000.log",
          ArtifactKind::VisualDlLog,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return visualDlInflations(s); } },
        { "visualdl roc log",
          Source::TestData,
          "visualdl/roc/vdlrecords.1609220805.log",
          "vdlrecords.1609220805.log",
          ArtifactKind::VisualDlLog,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return visualDlInflations(s); } },
        { "chrome trace json",
          Source::TestData,
          "tiny.pt.trace.json",
          "worker0.1700000000.pt.trace.json",
          ArtifactKind::ChromeTrace,
          false,
          {},
          jsonHostile },
        { "chrome trace json.gz",
          Source::Samples,
          "traces/kineto/cpu_only_rank34_of_300/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
          "rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
          ArtifactKind::ChromeTrace,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return gzipInflations(s, kTraceBombPrefix); } },
        { "paddle program",
          Source::TestData,
          "paddle/cnn/inference.pdmodel",
          "inference.pdmodel",
          ArtifactKind::GraphPaddle,
          false,
          {},
          paddleHostile },
        { "visualdl graph",
          Source::TestData,
          "paddle/vdlgraph/vdlgraph.1700000000.log",
          "vdlgraph.1700000000.log",
          ArtifactKind::GraphVisualDl,
          false,
          {},
          jsonHostile },
        { "onnx loop",
          Source::Samples,
          "graphs/onnx/test_loop11/model.onnx",
          "model.onnx",
          ArtifactKind::GraphOnnx,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 7, 1); } },
        { "onnx attention",
          Source::Samples,
          "graphs/onnx/test_attention_4d_expanded/model.onnx",
          "model.onnx",
          ArtifactKind::GraphOnnx,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 7, 1); } },
        { "tf graphdef binary as written", Source::Samples,
          "graphs/torch_add_graph_event/events.out.tfevents.1771596179.zyzkings.9384.0", "graph_def.pb",
          ArtifactKind::GraphTensorFlow, false, graphDefOfEvents,
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 0, 1); } },
        // The same GraphDef without its first nodes, so that it starts with a node whose length byte is not a
        // letter: the binary reader is reached (see binaryGraphDef()).
        { "tf graphdef binary", Source::Samples,
          "graphs/torch_add_graph_event/events.out.tfevents.1771596179.zyzkings.9384.0", "graph_def.pb",
          ArtifactKind::GraphTensorFlow, false, [](const QByteArray& s) { return binaryGraphDef(graphDefOfEvents(s)); },
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 0, 1); } },
        { "tf graphdef pbtxt",
          Source::Samples,
          "graphs/tensorflow/graphdef_foo.pbtxt",
          "graphdef_foo.pbtxt",
          ArtifactKind::GraphTensorFlow,
          false,
          {},
          pbtxtHostile },
        { "tf graphdef pbtxt resnet", Source::Samples, "graphs/tensorflow/resnet_8_simple.pbtxt",
          "resnet_8_simple.pbtxt", ArtifactKind::GraphTensorFlow, false,
          [](const QByteArray& s) { return pbtxtPrefix(s, 12); }, pbtxtHostile },
        { "anf_ir model",
          Source::TestData,
          "graph_anf_model.pb",
          "ms_output_model.pb",
          ArtifactKind::GraphAnfIr,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 0, 0); } },
        { "anf_ir debugger graph",
          Source::Samples,
          "graphs/mindspore_debug_graph_pb/lenet.pb",
          "lenet.pb",
          ArtifactKind::GraphAnfIr,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return protobufHostile(s, 0, 2); } },
        { "mindspore ir",
          Source::Samples,
          "graphs/mindspore_ir/read_ir_files.md.ex1_ms1x_format.ir",
          "01_validate_0001.ir",
          ArtifactKind::GraphMindSporeIr,
          false,
          {},
          irHostile },
        { "mindspore ir kernel graph",
          Source::Samples,
          "graphs/mindspore_ir/dump.md.ex4_fragment_kernel_graph_conv2d.ir",
          "kernel_graph_0.ir",
          ArtifactKind::GraphMindSporeIr,
          false,
          {},
          irHostile },
        { "dot",
          Source::Samples,
          "graphs/dot/example.dot",
          "example.dot",
          ArtifactKind::GraphDot,
          false,
          {},
          dotHostile },
        { "dot mindspore",
          Source::Samples,
          "graphs/mindspore_dot/ir.dot",
          "ir.dot",
          ArtifactKind::GraphDot,
          false,
          {},
          dotHostile },
        { "torchscript",
          Source::Samples,
          "graphs/torchscript/TestJit.test_alexnet.expect",
          "alexnet.graph.txt",
          ArtifactKind::GraphTorchScript,
          false,
          {},
          torchScriptHostile },
        { "torchscript jit trace",
          Source::Samples,
          "runs/pytorch_cnn_baseline/graph/jit_trace.graph.txt",
          "jit_trace.graph.txt",
          ArtifactKind::GraphTorchScript,
          false,
          {},
          torchScriptHostile },
        { "parallel strategy",
          Source::TestData,
          "graph_parallel_strategy_1.json",
          "parallel_strategy_1.json",
          ArtifactKind::GraphParallelStrategy,
          false,
          {},
          jsonHostile },
        { "strategy checkpoint",
          Source::TestData,
          "graph_strategy.json",
          "strategy.json",
          ArtifactKind::GraphParallelStrategy,
          false,
          {},
          jsonHostile },
        { "npy",
          Source::Samples,
          "runs/pytorch_cnn_baseline/dump/step_0/conv1.weight.npy",
          "conv1.weight.npy",
          ArtifactKind::TensorNpy,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return npyInflations(s); } },
        { "npz stored",
          Source::TestData,
          "tensor/container_stored.npz",
          "container_stored.npz",
          ArtifactKind::TensorNpz,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return zipInflations(s); } },
        { "npz deflated",
          Source::TestData,
          "tensor/container_deflated.npz",
          "container_deflated.npz",
          ArtifactKind::TensorNpz,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return zipInflations(s); } },
        { "safetensors",
          Source::TestData,
          "tensor/container_tensors.safetensors",
          "model.safetensors",
          ArtifactKind::TensorSafetensors,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return safetensorsInflations(s); } },
        { "pt state dict",
          Source::TestData,
          "torchsave/model_state.pth",
          "model_state.pth",
          ArtifactKind::TensorPt,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return ptInflations(s); } },
        { "pt huge shape",
          Source::TestData,
          "torchsave/huge_shape.pt",
          "huge_shape.pt",
          ArtifactKind::TensorPt,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return ptInflations(s); } },
        { "pt missing storage",
          Source::TestData,
          "torchsave/missing_storage.pt",
          "missing_storage.pt",
          ArtifactKind::TensorPt,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return ptInflations(s); } },
        { "memory timeline", Source::Samples, "traces/memory_timeline/memory_timeline.raw.gz",
          "memory_timeline.raw.json", ArtifactKind::MemoryTimeline, false, memoryTimelineExcerpt, jsonHostile },
        { "memory timeline gz", Source::Samples, "traces/memory_timeline/memory_timeline.raw.gz",
          "memory_timeline.raw.gz", ArtifactKind::MemoryTimeline, false,
          [](const QByteArray& s) { return gzipped(memoryTimelineExcerpt(s)); },
          [](const QByteArray& s, std::uint64_t) { return gzipInflations(s, kTimelineBombPrefix); } },
        { "cuda snapshot pickle",
          Source::TestData,
          "memory/snapshot.pickle",
          "snapshot.pickle",
          ArtifactKind::MemorySnapshot,
          false,
          {},
          [](const QByteArray& s, std::uint64_t) { return pickleInflations(s); } },
        { "mindspore memory summary",
          Source::Inline,
          kMsMemorySummary,
          "memory_usage_summary_0.json",
          ArtifactKind::ProfilerJson,
          false,
          {},
          jsonHostile },
        { "mindspore memory details",
          Source::Inline,
          kMsMemoryDetails,
          "memory_usage_details_0.json",
          ArtifactKind::ProfilerJson,
          false,
          {},
          jsonHostile },
        { "mindspore cpu memory record",
          Source::Inline,
          kMsCpuMemoryRecord,
          "cpu_ms_memory_record_0.txt",
          ArtifactKind::ProfilerCsv,
          false,
          {},
          csvHostile },
        { "mindspore operator memory",
          Source::Inline,
          kMsOperatorMemory,
          "operator_memory_0.csv",
          ArtifactKind::ProfilerCsv,
          false,
          {},
          csvHostile },
        { "profiler framework_raw",
          Source::Samples,
          "profiler/mindspore/profiler_misc/framework_raw_0.csv",
          "framework_raw_0.csv",
          ArtifactKind::ProfilerCsv,
          true,
          {},
          csvHostile },
        { "profiler aicore detail",
          Source::Samples,
          "profiler/mindspore/profiler_misc/aicore_intermediate_1_detail.csv",
          "aicore_intermediate_1_detail.csv",
          ArtifactKind::ProfilerCsv,
          true,
          {},
          csvHostile },
        { "profiler aicore type",
          Source::Samples,
          "profiler/mindspore/profiler_misc/aicore_intermediate_1_type.csv",
          "aicore_intermediate_1_type.csv",
          ArtifactKind::ProfilerCsv,
          true,
          {},
          csvHostile },
        { "profiler step trace", Source::Samples, "profiler/mindspore/profiler_misc/step_trace_raw_0_detail_time.csv",
          "step_trace_raw_0_detail_time.csv", ArtifactKind::ProfilerCsv, true, lines(12), csvHostile },
        { "msprobe dump pytorch",
          Source::Samples,
          "accuracy/msprobe/pytorch_data/dump.json",
          "dump.json",
          ArtifactKind::MsprobeDump,
          false,
          {},
          msprobeHostile },
        { "msprobe dump mindspore",
          Source::Samples,
          "accuracy/msprobe/mindspore_data/dump.json",
          "dump.json",
          ArtifactKind::MsprobeDump,
          false,
          {},
          msprobeHostile },
        { "rank digest",
          Source::TestData,
          "cluster/rank-3.rldigest",
          "rank-3.rldigest",
          ArtifactKind::RankDigest,
          false,
          {},
          rankDigestHostile },
        { "rank digest version 2",
          Source::TestData,
          "cluster-v2/rank-3.rldigest",
          "rank-3.rldigest",
          ArtifactKind::RankDigest,
          false,
          {},
          rankDigestV2Hostile },
        { "trace index cache", Source::TestData, "tiny.pt.trace.json", "index", ArtifactKind::ChromeTrace, false,
          [](const QByteArray& json) { return traceIndexOf(json); }, traceIndexInflations, readTraceIndex },
        { "lightning metrics.csv",
          Source::TestData,
          "loggers/lightning/lightning_logs/version_0/metrics.csv",
          "metrics.csv",
          ArtifactKind::Table,
          false,
          {},
          csvHostile },
        { "metrics jsonl",
          Source::TestData,
          "loggers/plain/metrics.jsonl",
          "metrics.jsonl",
          ArtifactKind::Table,
          false,
          {},
          jsonLinesHostile },
        { "wandb events jsonl",
          Source::TestData,
          "loggers/wandb/wandb/offline-run-20240115_102345-abc123de/files/wandb-events.jsonl",
          "wandb-events.jsonl",
          ArtifactKind::Table,
          false,
          {},
          jsonLinesHostile },
        { "wandb run file",
          Source::TestData,
          "loggers/wandb-seed/run-seed.wandb",
          "run-seed.wandb",
          ArtifactKind::WandbRun,
          false,
          {},
          wandbHostile },
        { "hugging face trainer state",
          Source::TestData,
          "loggers/hf/out/trainer_state.json",
          "trainer_state.json",
          ArtifactKind::TrainerState,
          false,
          {},
          jsonHostile },
        { "mlflow run meta.yaml",
          Source::TestData,
          "loggers/mlflow/mlruns/0/5f2a9c1b3d4e4f6a8b7c6d5e4f3a2b1c/meta.yaml",
          "meta.yaml",
          ArtifactKind::MlflowRun,
          false,
          {},
          [](const QByteArray& s, std::uint64_t rowSeed) { return textNumberInflations(s, rowSeed); } },
        { "nvidia-smi csv",
          Source::TestData,
          "loggers/gpu/nvidia-smi.csv",
          "gpu.csv",
          ArtifactKind::GpuMetricsLog,
          false,
          {},
          csvHostile },
        { "dcgmi dmon",
          Source::TestData,
          "loggers/gpu/dcgmi-dmon.txt",
          "dcgmi.txt",
          ArtifactKind::GpuMetricsLog,
          false,
          {},
          [](const QByteArray& s, std::uint64_t rowSeed) {
              Mutations out = textNumberInflations(s, rowSeed);
              out.append(textRepetition(s, "\n", "GPU 0 1 2 3 4 5\n", 100000, QStringLiteral("100000 rows")));
              out.append(
                  textRepetition(s, "\n", "GPU 99999999999999999999 1\n", 1, QStringLiteral("GPU id beyond int64")));
              return out;
          } },
        { "profiler minddata pipeline",
          Source::Samples,
          "profiler/mindspore/profiler_misc/minddata_pipeline_raw_0.csv",
          "minddata_pipeline_raw_0.csv",
          ArtifactKind::ProfilerCsv,
          true,
          {},
          csvHostile },
    };
}

} // namespace runlens::test
