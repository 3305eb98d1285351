#include "tests/trust/framedhostile.h"

#include "importers/cluster/rankdigestfile.h"
#include "importers/loggers/wandbrunfile.h"
#include "importers/memory/tracememory.h"
#include "importers/trace/chrometracereader.h"
#include "importers/trace/tracecache.h"
#include "models/cluster/rankdigest.h"
#include "models/core/crc32c.h"
#include "models/memory/memoryanalysis.h"
#include "models/trace/tracelod.h"
#include "models/trace/tracestorecodec.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtEndian>

#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <zlib.h>

namespace runlens::test {

/// The JSON body of a rank digest file (empty when the header or the stream is damaged).
static QByteArray rankDigestBody(const QByteArray& file)
{
    if (file.size() < 24)
        return {};
    QByteArray framed(4, '\0');
    qToBigEndian<quint32>(quint32(qFromLittleEndian<quint64>(file.constData() + 16)), framed.data());
    return qUncompress(framed + file.mid(24));
}

/// A rank digest file around `body`, its header fields as given (the length defaults to the body's).
static QByteArray rankDigestFile(const QByteArray& body, quint32 version = 1, quint32 flags = 0, qint64 length = -1)
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
static QByteArray rankDigestV2File(const QByteArray& body, qint64 length = -1)
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
static QByteArray wandbFragment(quint8 type, const QByteArray& data)
{
    QByteArray out(7, '\0');
    qToLittleEndian<quint32>(importers::loggers::wandbFragmentChecksum(type, data), out.data());
    qToLittleEndian<quint16>(quint16(data.size()), out.data() + 4);
    out[6] = char(type);
    return out + data;
}

/// Appends `payload` as one logical record, split over blocks as the writer splits it.
static void appendWandbRecord(QByteArray& file, QByteArray payload)
{
    bool first = true;
    for (;;) {
        const qsizetype left = importers::loggers::kWandbBlockSize - file.size() % importers::loggers::kWandbBlockSize;
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
static QList<qsizetype> wandbFragments(const QByteArray& file)
{
    QList<qsizetype> out;
    qsizetype pos = 7;
    while (pos + 7 <= file.size()) {
        const qsizetype left = importers::loggers::kWandbBlockSize - pos % importers::loggers::kWandbBlockSize;
        if (left < 7) {
            pos += left;
            continue;
        }
        out.append(pos);
        pos += 7 + qFromLittleEndian<quint16>(file.constData() + pos + 4);
    }
    return out;
}

static QByteArray protoVarint(quint64 value)
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
        qToLittleEndian<quint32>(importers::loggers::wandbFragmentChecksum(type, s.mid(at + 7, length)), s.data() + at);
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

// ---------------------------------------------------------------------------------------------------------------
// The trace index cache: not a run artifact, but a file the program reads back from its cache folder, so a
// damaged one must be a rebuild, never a crash.

/// The trace whose index the seed is: written once per process (forked children share it) with a fixed
/// modification time, so the key in every case's cache file matches it.
static const QString& indexedTracePath()
{
    static QTemporaryDir folder;
    static const QString path = [] {
        const QString p = folder.filePath(QStringLiteral("worker0.pt.trace.json"));
        return p;
    }();
    return path;
}

static void writeIndexedTrace(const QByteArray& json)
{
    QFile file(indexedTracePath());
    if (file.open(QIODevice::WriteOnly))
        file.write(json);
    file.close();
    const struct timespec times[2] = { { 1700000000, 0 }, { 1700000000, 0 } };
    ::utimensat(AT_FDCWD, QFile::encodeName(indexedTracePath()).constData(), times, 0);
}

static QString indexEntry(const QString& folder)
{
    importers::trace::TraceCache::setDirectory(folder + QStringLiteral("/cache"));
    importers::trace::TraceCache::setEnabled(true);
    models::trace::TraceCacheKey key;
    importers::trace::TraceCache::keyOf(QStringList { indexedTracePath() }, key);
    return importers::trace::TraceCache::indexPath(key);
}

/// The index cache of a trace (the seed's JSON), as the program writes it.
QByteArray traceIndexOf(const QByteArray& json)
{
    writeIndexedTrace(json);
    QTemporaryDir cache;
    const QString entry = indexEntry(cache.path());
    importers::trace::ChromeTraceReader::read({ indexedTracePath() });
    importers::trace::TraceCache::setEnabled(false);
    QFile file(entry);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Puts `bytes` where the index cache of the trace is kept and opens the trace. A file the reader refuses must
/// give the store a fresh parse gives; one it accepts (a hostile case whose checksum was made to match holds
/// consistent but different values) must give a store the timeline can index and read every slice's args of.
QString readTraceIndex(const QString& folder, const QByteArray& bytes)
{
    QString refused;
    const bool accepted
        = models::trace::TraceStoreCodec::read(
              std::span(reinterpret_cast<const std::byte*>(bytes.constData()), std::size_t(bytes.size())), nullptr,
              true, refused)
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
    const importers::trace::ChromeTraceResult opened
        = importers::trace::ChromeTraceReader::read({ indexedTracePath() });
    if (!opened.store)
        return QStringLiteral("no store");
    if (accepted) {
        // The painting index read back with the store is walked as the painter and hit testing walk it.
        if (const std::shared_ptr<const models::trace::TraceLod>& cached = opened.store->lod()) {
            for (std::size_t t = 0; t < opened.store->tracks().size(); ++t) {
                const models::trace::Track& track = opened.store->tracks()[t];
                const auto& rows = cached->track(int(t)).rows;
                for (std::size_t d = 0; d < rows.size(); ++d) {
                    models::trace::TraceLod::sliceAt(track, rows[d], opened.store->startTime(), 1000);
                    cached->levelFor(int(t), int(d), 1e9);
                }
            }
        }
        const models::trace::TraceLod lod(*opened.store);
        for (std::size_t t = 0; t < opened.store->tracks().size(); ++t) {
            for (std::size_t i = 0; i < opened.store->tracks()[t].size(); ++i)
                opened.store->argsJson(int(t), i);
        }
        return {};
    }
    const importers::trace::ChromeTraceResult parsed
        = importers::trace::ChromeTraceReader::readFiles({ indexedTracePath() });
    QString difference;
    if (!opened.store || !models::trace::TraceStoreCodec::equal(*opened.store, *parsed.store, &difference))
        return QStringLiteral("the store read through the damaged cache differs from a fresh parse: %1")
            .arg(difference);
    return {};
}

/// Sections of an index cache (TraceStoreCodec format 2: the eight of the store, then the painting index).
constexpr int kIndexSections = 9;

/// Where the sections of an index cache start (after its header); -1 when the header cannot be walked.
static qsizetype indexBodyStart(const QByteArray& s)
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
        const std::uint32_t crc = models::crc32c(bytes.constData() + body, std::size_t(bytes.size() - 4 - body));
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

const char* const kDigestTraceSeed = R"({"schemaVersion": 1, "distributedInfo": {"rank": 1, "world_size": 2},
 "deviceProperties": [{"id": 0, "name": "GPU"}], "traceEvents": [
 {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python"}},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 100, "dur": 1000},
 {"ph": "X", "cat": "cpu_op", "name": "enumerate(DataLoader)#_Iter.__next__", "pid": 1, "tid": 1, "ts": 110, "dur": 80},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 200, "dur": 300, "args": {"External id": 3}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 250, "dur": 20,
  "args": {"External id": 3, "correlation": 7}},
 {"ph": "s", "id": 7, "pid": 1, "tid": 1, "ts": 250, "cat": "ac2g", "name": "ac2g"},
 {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 300, "dur": 150,
  "args": {"External id": 3, "correlation": 7}},
 {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 300, "cat": "ac2g", "name": "ac2g", "bp": "e"},
 {"ph": "X", "cat": "cpu_op", "name": "nccl:all_reduce", "pid": 1, "tid": 1, "ts": 600, "dur": 100, "args": {"External id": 4}},
 {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "pid": 0, "tid": 20, "ts": 700,
  "dur": 500, "args": {"External id": 4, "Collective name": "allreduce", "In msg nelems": 1024, "dtype": "Float",
  "Group size": 2, "Process Group Name": "0", "Process Group Ranks": "[0, 1]"}},
 {"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 1, "ts": 210,
  "args": {"Bytes": 4096, "Total Allocated": 4096, "Device Id": 0, "Device Type": 1, "Ev Idx": 5}},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1300, "dur": 400},
 {}
], "baseTimeNanoseconds": 1700000000000000000}
)";

QString readTraceDigest(const QString& folder, const QByteArray& bytes)
{
    QDir().mkpath(folder);
    const QString path = folder + QStringLiteral("/worker1.pt.trace.json");
    QFile::remove(path);
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            return QStringLiteral("cannot write %1").arg(path);
    }
    const importers::cluster::RankDigestResult result = importers::cluster::digestTraceFile(path);
    if (!result.digest)
        return result.error.contains(QFileInfo(path).fileName())
            ? QString()
            : QStringLiteral("refused without naming the file: %1").arg(result.error);
    if (!result.singlePass)
        return {};
    // Made by the single pass: the store path must agree.
    const importers::trace::ChromeTraceResult read = importers::trace::ChromeTraceReader::readFiles({ path });
    if (!read.store || read.store->sources().empty())
        return QStringLiteral("the single pass made a digest of a trace the store path cannot read");
    models::cluster::RankDigest reference = models::cluster::computeRankDigest(*read.store);
    const importers::memory::MemoryReadResult memory = importers::memory::memoryFromTrace(*read.store);
    if (memory.profile) {
        for (const models::memory::MemoryDevice& device : memory.profile->devices) {
            const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
            if (device.deviceId >= 0 && !device.relative && peak.valid
                && !(peak.bytes <= reference.figures.peakMemoryBytes))
                reference.figures.peakMemoryBytes = peak.bytes;
        }
    }
    reference.file = result.digest->file;
    reference.figures.path = result.digest->figures.path;
    reference.fileSize = result.digest->fileSize;
    reference.fileModifiedMs = result.digest->fileModifiedMs;
    if (importers::cluster::encodeRankDigest(reference) != importers::cluster::encodeRankDigest(*result.digest))
        return QStringLiteral("the single pass and the store path made different digests");
    return {};
}

} // namespace runlens::test
