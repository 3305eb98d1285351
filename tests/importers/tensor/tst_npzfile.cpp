#include "importers/tensor/npzfile.h"

#include "tests/importers/tensor/tensortestutils.h"
#include "tests/importers/tensor/tst_npzfile_common.h"
#include "tests/testutils.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <thread>

using namespace runlens;
using namespace runlens::importers::tensor;
using namespace runlens::models;
using namespace runlens::models::tensor;

namespace {

/// numpy's reading of every array of each archive given: archive, key, kind + item size, shape, and the
/// elements at flat C-order positions 0, n/3 and n-1.
const char* const kNumpyProbe = "import sys, numpy as np\n"
                                "for p in sys.argv[1:]:\n"
                                "    with np.load(p, allow_pickle=False) as z:\n"
                                "        for k in z.files:\n"
                                "            a = z[k]\n"
                                "            f = a.ravel(order='C')\n"
                                "            n = f.size\n"
                                "            idx = [0, n // 3, n - 1] if n else []\n"
                                "            vals = ','.join(repr(float(f[i])) for i in idx)\n"
                                "            print('\\t'.join([p, k, a.dtype.kind + str(a.dtype.itemsize),"
                                " ','.join(map(str, a.shape)), vals]))\n";

quint32 crc32(const QByteArray& data)
{
    quint32 crc = 0xffffffffu;
    for (const char c : data) {
        crc ^= quint8(c);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

void putLe(QByteArray& out, quint64 value, int bytes)
{
    for (int i = 0; i < bytes; ++i, value >>= 8) // bytes may exceed 8: runs of zero fields
        out += char(value & 0xff);
}

struct ZipEntry
{
    QByteArray name;
    QByteArray data;
    bool deflate = false;
    bool encrypted = false; ///< only the flag bit; enough for a reader to refuse the member
};

/// `data` as raw deflate stored blocks (the format's uncompressed blocks), the last one final if `final`:
/// a valid deflate stream of any size, made without a compressor.
QByteArray storedDeflate(const QByteArray& data, bool final)
{
    QByteArray out;
    qsizetype at = 0;
    do {
        const QByteArray chunk = data.mid(at, 65535);
        at += chunk.size();
        out += char(final && at >= data.size() ? 1 : 0);
        putLe(out, quint64(chunk.size()), 2);
        putLe(out, quint16(~quint16(chunk.size())), 2);
        out += chunk;
    } while (at < data.size());
    return out;
}

/// A zip archive written by hand so tests control every field; `zip64` adds the zip64 end records and
/// moves every local header offset into a zip64 extra field.
QByteArray zipArchive(const QList<ZipEntry>& entries, bool zip64 = false)
{
    QByteArray out;
    QByteArray central;
    for (const ZipEntry& entry : entries) {
        // qCompress gives a 4-byte length, a 2-byte zlib header, raw deflate, and a 4-byte Adler-32.
        const QByteArray stored = entry.deflate ? qCompress(entry.data, 9).mid(6).chopped(4) : entry.data;
        const quint16 flags = entry.encrypted ? 1 : 0;
        const quint16 method = entry.deflate ? 8 : 0;
        const quint32 crc = crc32(entry.data);
        const qint64 offset = out.size();
        putLe(out, 0x04034b50, 4);
        putLe(out, zip64 ? 45 : 20, 2);
        putLe(out, flags, 2);
        putLe(out, method, 2);
        putLe(out, 0, 2);
        putLe(out, 0x21, 2);
        putLe(out, crc, 4);
        putLe(out, quint64(stored.size()), 4);
        putLe(out, quint64(entry.data.size()), 4);
        putLe(out, quint64(entry.name.size()), 2);
        putLe(out, 0, 2);
        out += entry.name + stored;

        putLe(central, 0x02014b50, 4);
        putLe(central, zip64 ? 45 : 20, 2);
        putLe(central, zip64 ? 45 : 20, 2);
        putLe(central, flags, 2);
        putLe(central, method, 2);
        putLe(central, 0, 2);
        putLe(central, 0x21, 2);
        putLe(central, crc, 4);
        putLe(central, quint64(stored.size()), 4);
        putLe(central, quint64(entry.data.size()), 4);
        putLe(central, quint64(entry.name.size()), 2);
        putLe(central, zip64 ? 12 : 0, 2);
        putLe(central, 0, 2 + 2 + 2 + 4);
        putLe(central, zip64 ? 0xffffffffu : quint64(offset), 4);
        central += entry.name;
        if (zip64) {
            putLe(central, 0x0001, 2);
            putLe(central, 8, 2);
            putLe(central, quint64(offset), 8);
        }
    }
    const qint64 centralOffset = out.size();
    out += central;
    if (zip64) {
        const qint64 end64 = out.size();
        putLe(out, 0x06064b50, 4);
        putLe(out, 44, 8);
        putLe(out, 45, 2);
        putLe(out, 45, 2);
        putLe(out, 0, 4 + 4);
        putLe(out, quint64(entries.size()), 8);
        putLe(out, quint64(entries.size()), 8);
        putLe(out, quint64(central.size()), 8);
        putLe(out, quint64(centralOffset), 8);
        putLe(out, 0x07064b50, 4);
        putLe(out, 0, 4);
        putLe(out, quint64(end64), 8);
        putLe(out, 1, 4);
    }
    putLe(out, 0x06054b50, 4);
    putLe(out, 0, 2 + 2);
    putLe(out, zip64 ? 0xffff : quint64(entries.size()), 2);
    putLe(out, zip64 ? 0xffff : quint64(entries.size()), 2);
    putLe(out, zip64 ? 0xffffffffu : quint64(central.size()), 4);
    putLe(out, zip64 ? 0xffffffffu : quint64(centralOffset), 4);
    putLe(out, 0, 2);
    return out;
}

/// `archive` with its stored members whose names start with `prefix` turned into deflated members (their data
/// must be raw deflate bytes) that claim to inflate to `claimedSize` bytes: the method and uncompressed size
/// of their local and central headers.
QByteArray claimDeflated(QByteArray archive, const QByteArray& prefix, quint32 claimedSize)
{
    const auto patch = [&](const QByteArray& signature, int method, int size, int name) {
        for (qsizetype at = archive.indexOf(signature); at >= 0; at = archive.indexOf(signature, at + 4)) {
            if (archive.mid(at + name, prefix.size()) != prefix)
                continue;
            archive[at + method] = 8;
            for (int i = 0; i < 4; ++i)
                archive[at + size + i] = char((claimedSize >> (8 * i)) & 0xff);
        }
    };
    patch(QByteArray("PK\x03\x04", 4), 8, 22, 30);
    patch(QByteArray("PK\x01\x02", 4), 10, 24, 46);
    return archive;
}

/// A little-endian float32 .npy of `values`, shape (n,).
QByteArray floatNpy(const QList<float>& values)
{
    QByteArray data;
    for (const float v : values)
        data.append(reinterpret_cast<const char*>(&v), sizeof v);
    return test::npyFile(QByteArrayLiteral("{'descr': '<f4', 'fortran_order': False, 'shape': (")
                             + QByteArray::number(values.size()) + QByteArrayLiteral(",), }"),
                         0)
        + data;
}

QString fixture(const QString& name)
{
    return QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/") + name;
}

/// numpy's kind letter and item size: "f4", "i8", "b1".
QString numpyKind(DType type)
{
    char kind = 'f';
    switch (type) {
    case DType::Bool:
        kind = 'b';
        break;
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
        kind = 'i';
        break;
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64:
        kind = 'u';
        break;
    case DType::Complex64:
    case DType::Complex128:
        kind = 'c';
        break;
    default:
        break;
    }
    return QLatin1Char(kind) + QString::number(itemSize(type));
}

const TensorInfo* findMember(const TensorListing& listing, const QString& member)
{
    for (const TensorInfo& info : listing.tensors) {
        if (info.member == member)
            return &info;
    }
    return nullptr;
}

} // namespace

class TstNpzFile : public QObject
{
    Q_OBJECT

private slots:
    void fixturesMatchNumpy_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("deflated");
        QTest::newRow("stored") << QStringLiteral("container_stored.npz") << false;
        QTest::newRow("deflated") << QStringLiteral("container_deflated.npz") << true;
        QTest::newRow("with text member") << QStringLiteral("container_with_text.npz") << false;
    }
    void fixturesMatchNumpy()
    {
        QFETCH(QString, file);
        QFETCH(bool, deflated);
        const test::ExpectedContainers expected = test::loadExpectedContainers();
        QVERIFY2(expected.loaded, "tests/data/tensor/container_expected.tsv is missing or malformed");
        const QHash<QString, test::ExpectedTensor> members = expected.tensors.value(file);
        QVERIFY(!members.isEmpty());

        const TensorListing listing = listNpzFile(fixture(file));
        QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
        QCOMPARE(listing.tensors.size(), members.size());
        for (const TensorInfo& info : listing.tensors) {
            QVERIFY2(members.contains(info.member), qPrintable(info.member));
            const test::ExpectedTensor& want = members[info.member];
            QCOMPARE(info.format, QStringLiteral("npz"));
            QCOMPARE(info.path, QFileInfo(fixture(file)).absoluteFilePath());
            QCOMPARE(QString::fromLatin1(dtypeName(info.dtype)), want.dtype);
            QCOMPARE(info.shape, want.shape);
            QCOMPARE(info.note, deflated ? QStringLiteral("deflated") : QString());
            QVERIFY(info.source);
            QCOMPARE(info.source->isImmediate(), !deflated);
            if (!deflated)
                QCOMPARE(info.byteSize, info.elementCount() * itemSize(info.dtype));
            const TensorResult opened = info.source->open();
            QVERIFY2(opened.tensor, qPrintable(opened.error));
            QCOMPARE(opened.tensor->shape, want.shape);
            const QString mismatch = test::compareValues(*opened.tensor, want.values);
            QVERIFY2(mismatch.isEmpty(), qPrintable(info.member + QStringLiteral(": ") + mismatch));
        }
        if (file == QLatin1String("container_with_text.npz")) {
            QCOMPARE(listing.diagnostics.size(), 1);
            QCOMPARE(listing.diagnostics[0].severity, Severity::Warning);
            QVERIFY(listing.diagnostics[0].message.contains(QLatin1String("notes.txt")));
            QCOMPARE(listing.diagnostics[0].file, QFileInfo(fixture(file)).absoluteFilePath());
        } else {
            QVERIFY2(listing.diagnostics.isEmpty(), qPrintable(test::diagnosticsText(listing)));
        }
    }

    void samplesMatchNumpy()
    {
        RUNLENS_REQUIRE_SAMPLES(samples);
        const QString stored = samples + QStringLiteral("/runs/pytorch_cnn_baseline/state_dict.npz");
        const QString compressed = samples + QStringLiteral("/runs/pytorch_cnn_baseline/state_dict.compressed.npz");
        RUNLENS_PYTHON_ORACLE(probe, { QStringLiteral("-c"), QString::fromLatin1(kNumpyProbe), stored, compressed });
        const QStringList lines = probe.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 20);

        const TensorListing storedListing = listNpzFile(stored);
        const TensorListing compressedListing = listNpzFile(compressed);
        QVERIFY2(storedListing.error.isEmpty(), qPrintable(storedListing.error));
        QVERIFY2(compressedListing.error.isEmpty(), qPrintable(compressedListing.error));
        QCOMPARE(storedListing.tensors.size(), 10);
        QCOMPARE(compressedListing.tensors.size(), 10);
        for (const QString& line : lines) {
            const QStringList f = line.split(u'\t');
            QCOMPARE(f.size(), 5);
            const TensorListing& listing = f[0] == stored ? storedListing : compressedListing;
            const TensorInfo* info = findMember(listing, f[1]);
            QVERIFY2(info, qPrintable(f[1]));
            QCOMPARE(numpyKind(info->dtype), f[2]);
            QStringList shape;
            for (const std::int64_t d : info->shape)
                shape << QString::number(d);
            QCOMPARE(shape.join(u','), f[3]);
            const TensorResult opened = info->source->open();
            QVERIFY2(opened.tensor, qPrintable(opened.error));
            const std::int64_t n = opened.tensor->elementCount();
            const QStringList values = f[4].split(u',');
            const std::int64_t positions[] = { 0, n / 3, n - 1 };
            for (int i = 0; i < 3; ++i)
                QCOMPARE(opened.tensor->value(test::unravelIndex(positions[i], opened.tensor->shape)),
                         values[i].toDouble());
        }
        // Both archives hold the same state dict: every element agrees.
        for (const TensorInfo& info : storedListing.tensors) {
            const TensorInfo* other = findMember(compressedListing, info.member);
            QVERIFY(other);
            QCOMPARE(other->note, QStringLiteral("deflated"));
            QVERIFY(other->byteSize > 0 && other->byteSize < QFileInfo(compressed).size());
            const TensorResult a = info.source->open();
            const TensorResult b = other->source->open();
            QVERIFY(a.tensor && b.tensor);
            for (std::int64_t i = 0; i < a.tensor->elementCount(); ++i) {
                const auto index = test::unravelIndex(i, a.tensor->shape);
                if (a.tensor->value(index) != b.tensor->value(index))
                    QFAIL(qPrintable(QStringLiteral("%1 differs at element %2").arg(info.member).arg(i)));
            }
        }
    }

    void storedMembersShareOneMapping()
    {
        const TensorListing listing = listNpzFile(fixture(QStringLiteral("container_stored.npz")));
        QVERIFY(listing.tensors.size() >= 2);
        const TensorResult a = listing.tensors[0].source->open();
        const TensorResult b = listing.tensors[1].source->open();
        QVERIFY(a.tensor && b.tensor);
        QCOMPARE(a.tensor->data.get(), b.tensor->data.get());
        QVERIFY(a.tensor->offset != b.tensor->offset);
    }

    void inflatedMemberIsSharedWhileHeld()
    {
        const TensorListing listing = listNpzFile(fixture(QStringLiteral("container_deflated.npz")));
        const TensorInfo* info = findMember(listing, QStringLiteral("u32_3d"));
        QVERIFY(info);
        std::array<TensorResult, 4> results;
        std::vector<std::thread> threads;
        for (TensorResult& result : results)
            threads.emplace_back([&result, info] { result = info->source->open(); });
        for (std::thread& thread : threads)
            thread.join();
        for (const TensorResult& result : results) {
            QVERIFY2(result.tensor, qPrintable(result.error));
            QCOMPARE(result.tensor->data.get(), results[0].tensor->data.get());
        }
        QCOMPARE(results[0].tensor->value({ 1, 2, 3 }), 23.0);
        const std::weak_ptr<const TensorData> held = results[0].tensor->data;
        results = {};
        QVERIFY(held.expired());
        const TensorResult again = info->source->open();
        QVERIFY2(again.tensor, qPrintable(again.error));
        QCOMPARE(again.tensor->value({ 0, 1, 2 }), 6.0);
    }

    void handWrittenArchives_data()
    {
        QTest::addColumn<QByteArray>("archive");
        QTest::addColumn<int>("tensors");
        QTest::addColumn<QString>("diagnostic");

        const QByteArray good = floatNpy({ 1.0f, 2.0f, 3.0f });
        QTest::newRow("stored") << zipArchive({ { "a.npy", good } }) << 1 << QString();
        QTest::newRow("deflated") << zipArchive({ { "a.npy", good, true } }) << 1 << QString();
        QTest::newRow("zip64 records") << zipArchive({ { "a.npy", good }, { "b.npy", good, true } }, true) << 2
                                       << QString();
        QTest::newRow("non-npy member") << zipArchive({ { "a.npy", good }, { "readme.md", "# notes" } }) << 1
                                        << QStringLiteral("readme.md");
        QTest::newRow("encrypted member") << zipArchive({ { "a.npy", good }, { "secret.npy", good, false, true } }) << 1
                                          << QStringLiteral("encrypted");
        const QByteArray claimsMore = good.chopped(4);
        QTest::newRow("stored member shorter than its header claims")
            << zipArchive({ { "short.npy", claimsMore } }) << 0 << QStringLiteral("truncated");
        QTest::newRow("deflated member shorter than its header claims")
            << zipArchive({ { "short.npy", claimsMore, true } }) << 0 << QStringLiteral("truncated");
        const QByteArray object = test::npyFile("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", 16);
        QTest::newRow("object member") << zipArchive({ { "obj.npy", object }, { "a.npy", good } }) << 1
                                       << QStringLiteral("object");
        QTest::newRow("object member deflated")
            << zipArchive({ { "obj.npy", object, true } }) << 0 << QStringLiteral("object");
        QTest::newRow("not npy inside") << zipArchive({ { "x.npy", "just text, no magic" } }) << 0
                                        << QStringLiteral("magic");
        const QByteArray huge
            = test::npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 8);
        QTest::newRow("shape product overflows")
            << zipArchive({ { "huge.npy", huge, true } }) << 0 << QStringLiteral("huge.npy");
    }
    void handWrittenArchives()
    {
        QFETCH(QByteArray, archive);
        QFETCH(int, tensors);
        QFETCH(QString, diagnostic);
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("archive.npz"), archive);
        const TensorListing listing = listNpzFile(path);
        QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
        QCOMPARE(listing.tensors.size(), tensors);
        const QString mismatch = test::diagnosticMismatch(listing, path, diagnostic);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        for (const TensorInfo& info : listing.tensors) {
            const TensorResult opened = info.source->open();
            QVERIFY2(opened.tensor, qPrintable(opened.error));
            QCOMPARE(opened.tensor->elementCount(), 3);
            QCOMPARE(opened.tensor->value({ 2 }), 3.0);
        }
    }

    void directoryEntriesBeyondTheFile_data()
    {
        QTest::addColumn<QByteArray>("archive");
        QTest::addColumn<bool>("zip64");

        const QByteArray good = floatNpy({ 1.0f, 2.0f, 3.0f });
        QTest::newRow("stored") << zipArchive({ { "a.npy", good }, { "b.npy", good } }) << false;
        QTest::newRow("deflated") << zipArchive({ { "a.npy", good, true }, { "b.npy", good, true } }) << false;
        QTest::newRow("zip64 stored") << zipArchive({ { "a.npy", good }, { "b.npy", good } }, true) << true;
    }
    void directoryEntriesBeyondTheFile()
    {
        QFETCH(QByteArray, archive);
        QFETCH(bool, zip64);
        // The second member's central-directory entry places its local header far beyond the file.
        const qsizetype entry = archive.lastIndexOf(QByteArray("PK\x01\x02", 4));
        QVERIFY(entry > 0);
        QByteArray damaged = archive;
        if (zip64) {
            // The offset is the zip64 extra field's only value, after its 4-byte tag and size.
            const qsizetype value = entry + 46 + 5 + 4;
            damaged.replace(value, 8, QByteArray("\x00\x00\x00\x00\x00\x01\x00\x00", 8));
        } else {
            damaged.replace(entry + 42, 4, QByteArray("\xff\xff\xff\x7f", 4));
        }
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("archive.npz"), damaged);
        const TensorListing listing = listNpzFile(path);
        QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
        QCOMPARE(listing.tensors.size(), 1);
        QCOMPARE(listing.tensors.first().member, QStringLiteral("a"));
        QVERIFY(listing.tensors.first().source->open().tensor);
        bool reported = false;
        for (const Diagnostic& d : listing.diagnostics) {
            QVERIFY2(d.offset <= damaged.size(), qPrintable(d.toString()));
            if (d.severity == Severity::Error && d.message.contains(QStringLiteral("'b.npy'"))) {
                // Reported where the damage is: at the directory entry, not at the place it points to.
                QCOMPARE(d.offset, qint64(entry));
                QCOMPARE(d.file, path);
                reported = true;
            }
        }
        QVERIFY2(reported, qPrintable(test::diagnosticsText(listing)));
    }

    void declaredSizesAreCheckedBeforeInflating_data()
    {
        QTest::addColumn<QByteArray>("archive");
        QTest::addColumn<QString>("diagnostic");
        QTest::addColumn<qint64>("offset");
        // 300 MB of float64 declared by the .npy header and by the zip's uncompressed size; the deflate stream
        // holds the header, then (in the second) 300 KB of zeros, enough for deflate to claim 300 MB.
        const QByteArray header = test::npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (37500000,), }", 0);
        const quint32 claimed = quint32(header.size()) + 300'000'000;
        QTest::newRow("more than deflate can produce")
            << claimDeflated(zipArchive({ { "a.npy", storedDeflate(header, false) } }), "a.npy", claimed)
            << QStringLiteral("more than deflate can") << qint64(0);
        const QByteArray padded = storedDeflate(header + QByteArray(300'000, '\0'), false);
        QTest::newRow("more than the budget of the archive")
            << claimDeflated(zipArchive({ { "b.npy", padded } }), "b.npy", claimed) << QStringLiteral("Reading stopped")
            << qint64(0);
    }
    void declaredSizesAreCheckedBeforeInflating()
    {
        QFETCH(QByteArray, archive);
        QFETCH(QString, diagnostic);
        QFETCH(qint64, offset);
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("claims.npz"), archive);
        const TensorListing listing = listNpzFile(path);
        QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
        QCOMPARE(listing.tensors.size(), 0);
        const QString mismatch = test::diagnosticMismatch(listing, path, diagnostic);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        QCOMPARE(listing.diagnostics[0].offset, offset);
    }

    void headersInflatedAreCountedOverTheArchive()
    {
        // 300 members whose .npy prefix claims a header of 1 MB: each would inflate 1 MB to find it. The
        // listing stops at the budget of the archive, keeping the members listed before.
        QByteArray prefix("\x93NUMPY\x02\x00", 8);
        putLe(prefix, 1u << 20, 4);
        QList<ZipEntry> entries { { "good.npy", floatNpy({ 1.0f, 2.0f, 3.0f }), true } };
        for (int i = 0; i < 300; ++i)
            entries.append({ "m" + QByteArray::number(i) + ".npy", storedDeflate(prefix, false) });
        QTemporaryDir dir;
        const QString path
            = test::writeFile(dir, QStringLiteral("headers.npz"), claimDeflated(zipArchive(entries), "m", 2u << 20));
        const TensorListing listing = listNpzFile(path);
        QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
        QCOMPARE(listing.tensors.size(), 1);
        QVERIFY(listing.diagnostics.size() > 100);
        QVERIFY(listing.diagnostics.size() < 300);
        const Diagnostic& stop = listing.diagnostics.last();
        QCOMPARE(stop.file, QFileInfo(path).absoluteFilePath());
        QVERIFY2(stop.message.contains(QStringLiteral("Reading stopped")), qPrintable(stop.message));
        QVERIFY(stop.offset > 0 && stop.offset < QFileInfo(path).size());
    }

    void damagedArchives_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QFile stored(fixture(QStringLiteral("container_stored.npz")));
        QVERIFY(stored.open(QIODevice::ReadOnly));
        const QByteArray whole = stored.readAll();
        QTest::newRow("truncated zip") << whole.left(whole.size() / 2);
        QTest::newRow("end record cut") << whole.chopped(10);
        QTest::newRow("not a zip") << QByteArrayLiteral("this is a text file, not an archive\n");
        QTest::newRow("empty file") << QByteArray();
        QByteArray badDirectory = whole;
        const qsizetype directory = badDirectory.indexOf(QByteArray("PK\x01\x02", 4));
        QVERIFY(directory > 0);
        badDirectory[directory + 2] = 'X';
        QTest::newRow("damaged central directory") << badDirectory;
    }
    void damagedArchives()
    {
        QFETCH(QByteArray, bytes);
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("damaged.npz"), bytes);
        const TensorListing listing = listNpzFile(path);
        QVERIFY2(!listing.error.isEmpty() || !listing.diagnostics.isEmpty(), "damage went unnoticed");
        const QString all = listing.error + test::diagnosticsText(listing);
        QVERIFY2(all.contains(QStringLiteral("damaged.npz")), qPrintable(all));
        // Whatever was listed still opens.
        for (const TensorInfo& info : listing.tensors) {
            const TensorResult opened = info.source->open();
            QVERIFY(opened.tensor || !opened.error.isEmpty());
        }
    }

    void memberChangedAfterListing()
    {
        QTemporaryDir dir;
        const QByteArray good = floatNpy({ 1.0f, 2.0f, 3.0f });
        const QString path = test::writeFile(dir, QStringLiteral("changing.npz"),
                                             zipArchive({ { "a.npy", good, true }, { "b.npy", good } }));
        const TensorListing listing = listNpzFile(path);
        QCOMPARE(listing.tensors.size(), 2);
        test::writeFile(dir, QStringLiteral("changing.npz"), zipArchive({ { "a.npy", floatNpy({ 1.0f }), true } }));
        for (const TensorInfo& info : listing.tensors) {
            const TensorResult opened = info.source->open();
            QVERIFY(!opened.tensor);
            QVERIFY2(opened.error.contains(QStringLiteral("changing.npz")), qPrintable(opened.error));
        }
    }

    void damagedDeflatedMemberRefusedOnOpen()
    {
        const QByteArray good = floatNpy({ 1.0f, 2.0f, 3.0f });
        QByteArray archive = zipArchive({ { "a.npy", good, true } });
        // The CRC in the local header (offset 14) and in the central directory (offset 16 of its record).
        const qsizetype central = archive.indexOf(QByteArray("PK\x01\x02", 4));
        QVERIFY(central > 0);
        for (const qsizetype at : { qsizetype(14), central + 16 })
            archive[at] = char(archive[at] ^ 0x5a);
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("crc.npz"), archive);
        const TensorListing listing = listNpzFile(path);
        QCOMPARE(listing.tensors.size(), 1); // the header alone reads fine
        const TensorResult opened = listing.tensors[0].source->open();
        QVERIFY(!opened.tensor);
        QVERIFY2(opened.error.contains(path) && opened.error.contains(QStringLiteral("a.npy")),
                 qPrintable(opened.error));
    }

    void rawTwoByteMemberReadAsBfloat16()
    {
        // bfloat16 1.0, 2.0, 3.0 as numpy saves arrays of its extension types: raw two-byte elements.
        const QByteArray npy = test::npyFile("{'descr': '<V2', 'fortran_order': False, 'shape': (3,), }", 0)
            + QByteArray::fromHex("803f00404040");
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("bf.npz"), zipArchive({ { "w.npy", npy, true } }));
        const TensorListing listing = listNpzFile(path);
        QCOMPARE(listing.tensors.size(), 1);
        QCOMPARE(listing.tensors[0].dtype, DType::BFloat16);
        QVERIFY2(listing.tensors[0].note.startsWith(QLatin1String("deflated; ")), qPrintable(listing.tensors[0].note));
        QVERIFY(listing.tensors[0].note.contains(QLatin1String("bfloat16")));
        const TensorResult opened = listing.tensors[0].source->open();
        QVERIFY2(opened.tensor, qPrintable(opened.error));
        QCOMPARE(opened.tensor->value({ 0 }), 1.0);
        QCOMPARE(opened.tensor->value({ 2 }), 3.0);
    }

    void damagedCopiesNeverViewOutsideTheirData()
    {
        for (const QString& name :
             { QStringLiteral("container_stored.npz"), QStringLiteral("container_deflated.npz") }) {
            QFile file(QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/") + name);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString problem = test::damagedCopiesStayInside(
                file.readAll(), QStringLiteral("damaged.npz"), [](const QString& path) { return listNpzFile(path); },
                400);
            QVERIFY2(problem.isEmpty(), qPrintable(name + QStringLiteral(": ") + problem));
        }
    }

    void missingFile()
    {
        const TensorListing listing = listNpzFile(QStringLiteral("/nonexistent/weights.npz"));
        QVERIFY(listing.tensors.isEmpty());
        QVERIFY2(listing.error.contains(QStringLiteral("/nonexistent/weights.npz")), qPrintable(listing.error));
    }
};

QTEST_GUILESS_MAIN(TstNpzFile)
#include "tst_npzfile.moc"
