#include "importers/summary/recordreader.h"
#include "models/core/crc32c.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens::importers::summary;
using namespace runlens::models;

namespace {

QByteArray frameAll(const QList<QByteArray>& payloads)
{
    QByteArray out;
    for (const QByteArray& payload : payloads)
        tfrecord::appendFramed(out, payload);
    return out;
}

/// A header claiming `length` bytes, with a valid (or deliberately wrong) length CRC.
QByteArray header(std::uint64_t length, bool validCrc = true)
{
    QByteArray out(12, 0);
    for (int i = 0; i < 8; ++i)
        out[i] = char((length >> (8 * i)) & 0xffu);
    std::uint32_t crc = maskedCrc32c(out.constData(), 8);
    if (!validCrc)
        crc ^= 0x1u;
    for (int i = 0; i < 4; ++i)
        out[8 + i] = char((crc >> (8 * i)) & 0xffu);
    return out;
}

QByteArray payloadOf(int size, int seed)
{
    QByteArray bytes(size, 0);
    for (int i = 0; i < size; ++i)
        bytes[i] = char((i * 31 + seed * 7) & 0xff);
    return bytes;
}

bool writeFile(const QString& path, const QByteArray& bytes, bool append = false)
{
    QFile file(path);
    if (!file.open(append ? QIODevice::Append : (QIODevice::WriteOnly | QIODevice::Truncate)))
        return false;
    return file.write(bytes) == bytes.size();
}

struct ReadResult
{
    QList<QByteArray> payloads;
    QList<qint64> offsets;
    RecordStatus last = RecordStatus::Ok;
};

/// Reads until anything but Ok.
ReadResult readAll(RecordReader& reader)
{
    ReadResult result;
    RecordReader::Record record;
    for (;;) {
        result.last = reader.next(record);
        if (result.last != RecordStatus::Ok)
            return result;
        result.payloads.append(QByteArray(record.data, qsizetype(record.size)));
        result.offsets.append(record.offset);
    }
}

} // namespace

Q_DECLARE_METATYPE(RecordStatus)

class TestRecordReader : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void frameBuffer_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<RecordStatus>("status");
        QTest::addColumn<qulonglong>("payloadSize");

        const QByteArray good = tfrecord::framed("hello");
        QTest::newRow("ok") << good << RecordStatus::Ok << 5ull;
        QTest::newRow("ok with following bytes") << good + "xyz" << RecordStatus::Ok << 5ull;
        QTest::newRow("empty") << QByteArray() << RecordStatus::End << 0ull;
        QTest::newRow("partial header") << good.left(11) << RecordStatus::Truncated << 0ull;
        QTest::newRow("partial payload") << good.left(14) << RecordStatus::Truncated << 5ull;
        QTest::newRow("partial footer") << good.left(good.size() - 1) << RecordStatus::Truncated << 5ull;
        QByteArray badLength = good;
        badLength[0] = char(6);
        QTest::newRow("bad length crc") << badLength << RecordStatus::BadLengthCrc << 0ull;
        QByteArray badData = good;
        badData[13] = 'E';
        QTest::newRow("bad data crc") << badData << RecordStatus::BadDataCrc << 5ull;
        QByteArray badFooter = good;
        badFooter[good.size() - 1] = char(badFooter[good.size() - 1] ^ 0x40);
        QTest::newRow("bad stored data crc") << badFooter << RecordStatus::BadDataCrc << 5ull;
        QTest::newRow("zero length") << tfrecord::framed(QByteArrayView()) << RecordStatus::Ok << 0ull;
        QTest::newRow("length beyond data, valid crc") << header(1000) + "abc" << RecordStatus::Truncated << 1000ull;
        QTest::newRow("length beyond data, bad crc")
            << header(1000, false) + "abc" << RecordStatus::BadLengthCrc << 0ull;
        QTest::newRow("length over limit") << header(std::uint64_t(1) << 40) << RecordStatus::TooLarge << (1ull << 40);
        QTest::newRow("length near 2^64")
            << header(~std::uint64_t(0) - 3) << RecordStatus::TooLarge << qulonglong(~std::uint64_t(0) - 3);
    }

    void frameBuffer()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(RecordStatus, status);
        QFETCH(qulonglong, payloadSize);
        const tfrecord::Frame frame = tfrecord::frame(bytes.constData(), std::size_t(bytes.size()));
        QCOMPARE(frame.status, status);
        if (status != RecordStatus::BadLengthCrc && status != RecordStatus::End)
            QCOMPARE(frame.payloadSize, std::uint64_t(payloadSize));
        if (status == RecordStatus::Ok || status == RecordStatus::BadDataCrc)
            QCOMPARE(frame.recordSize, std::size_t(payloadSize) + tfrecord::kOverhead);
    }

    void frameWithoutDataCrc()
    {
        QByteArray bytes = tfrecord::framed("hello");
        bytes[13] = 'E';
        QCOMPARE(tfrecord::frame(bytes.constData(), std::size_t(bytes.size()), false).status, RecordStatus::Ok);
    }

    void good_data()
    {
        QTest::addColumn<QList<QByteArray>>("payloads");
        QTest::addColumn<int>("chunkSize");

        const QList<QByteArray> small { "a", "bb", "ccc", payloadOf(100, 1), payloadOf(1000, 2) };
        QTest::newRow("small records, default chunk") << small << 0;
        QTest::newRow("small records, 64-byte chunk") << small << 64;
        QTest::newRow("small records, 100-byte chunk") << small << 100;
        QList<QByteArray> many;
        for (int i = 0; i < 5000; ++i)
            many.append(payloadOf(i % 97, i));
        QTest::newRow("5000 records, 4 KiB chunk") << many << 4096;
        QTest::newRow("5000 records, default chunk") << many << 0;
        const QList<QByteArray> big { "x", payloadOf(3 << 20, 3), "y", payloadOf(70000, 4), "z" };
        QTest::newRow("record larger than the chunk") << big << 65536;
        QTest::newRow("zero-length records") << QList<QByteArray> { "", "", "x", "" } << 64;
    }

    void good()
    {
        QFETCH(QList<QByteArray>, payloads);
        QFETCH(int, chunkSize);
        const QByteArray file = frameAll(payloads);
        QVERIFY(writeFile(path("good"), file));

        RecordReader reader(path("good"));
        if (chunkSize > 0)
            reader.setChunkSize(std::size_t(chunkSize));
        QVERIFY(reader.open(0));
        QCOMPARE(reader.fileSize(), qint64(file.size()));
        const ::ReadResult result = readAll(reader);
        QCOMPARE(result.last, RecordStatus::End);
        QCOMPARE(result.payloads, payloads);
        qint64 expectedOffset = 0;
        for (int i = 0; i < payloads.size(); ++i) {
            QCOMPARE(result.offsets[i], expectedOffset);
            expectedOffset += payloads[i].size() + qint64(tfrecord::kOverhead);
        }
        QCOMPARE(reader.offset(), qint64(file.size()));
        RecordReader::Record record;
        QCOMPARE(reader.next(record), RecordStatus::End); // stays at the end
    }

    void openAtRecordBoundary()
    {
        const QList<QByteArray> payloads { "first", "second", "third" };
        QVERIFY(writeFile(path("boundary"), frameAll(payloads)));
        RecordReader reader(path("boundary"));
        const qint64 second = 5 + qint64(tfrecord::kOverhead);
        QVERIFY(reader.open(second));
        const ::ReadResult result = readAll(reader);
        QCOMPARE(result.payloads, (QList<QByteArray> { "second", "third" }));
        QCOMPARE(result.offsets.first(), second);
        QVERIFY(!reader.open(1000)); // beyond the end
        QVERIFY(!RecordReader(path("does-not-exist")).open(0));
    }

    void truncatedAtEveryByte_data()
    {
        QTest::addColumn<int>("chunkSize");
        QTest::newRow("default chunk") << 0;
        QTest::newRow("64-byte chunk") << 64;
    }

    void truncatedAtEveryByte()
    {
        QFETCH(int, chunkSize);
        const QList<QByteArray> payloads { "alpha", payloadOf(40, 9), payloadOf(150, 5) };
        const QByteArray file = frameAll(payloads);
        const qint64 lastStart = file.size() - (payloads.last().size() + qint64(tfrecord::kOverhead));
        for (qint64 cut = lastStart + 1; cut < file.size(); ++cut) {
            const QByteArray context = QByteArray("cut at ") + QByteArray::number(cut);
            QVERIFY(writeFile(path("truncated"), file.left(cut)));
            RecordReader reader(path("truncated"));
            if (chunkSize > 0)
                reader.setChunkSize(std::size_t(chunkSize));
            QVERIFY(reader.open(0));
            ReadResult first = readAll(reader);
            QVERIFY2(first.last == RecordStatus::Truncated, context.constData());
            QCOMPARE(first.payloads, payloads.mid(0, 2));
            QCOMPARE(reader.offset(), lastStart);
            QCOMPARE(reader.problemOffset(), lastStart);

            // The writer completes the record; the same reader continues where it waited.
            QVERIFY(writeFile(path("truncated"), file.mid(cut), true));
            ReadResult second = readAll(reader);
            QVERIFY2(second.last == RecordStatus::End, context.constData());
            QCOMPARE(second.payloads, payloads.mid(2));
            QCOMPARE(second.offsets, QList<qint64> { lastStart });
            QCOMPARE(reader.offset(), qint64(file.size()));

            // So does a new reader opened at the resume offset.
            RecordReader resumed(path("truncated"));
            QVERIFY(resumed.open(lastStart));
            QCOMPARE(readAll(resumed).payloads, payloads.mid(2));
        }
    }

    void truncatedInFirstRecord()
    {
        const QByteArray file = tfrecord::framed("only");
        for (qint64 cut = 1; cut < file.size(); ++cut) {
            QVERIFY(writeFile(path("first"), file.left(cut)));
            RecordReader reader(path("first"));
            QVERIFY(reader.open(0));
            const ::ReadResult result = readAll(reader);
            QCOMPARE(result.last, RecordStatus::Truncated);
            QVERIFY(result.payloads.isEmpty());
            QCOMPARE(reader.offset(), 0);
        }
    }

    void badLengthCrc_data()
    {
        QTest::addColumn<int>("corruptByte"); // index inside the second record's header
        for (int i = 0; i < 12; ++i)
            QTest::addRow("header byte %d", i) << i;
    }

    void badLengthCrc()
    {
        QFETCH(int, corruptByte);
        const QList<QByteArray> payloads { "one", "two", "three" };
        QByteArray file = frameAll(payloads);
        const qint64 second = 3 + qint64(tfrecord::kOverhead);
        file[second + corruptByte] = char(file[second + corruptByte] ^ 0x10);
        QVERIFY(writeFile(path("badlength"), file));
        RecordReader reader(path("badlength"));
        QVERIFY(reader.open(0));
        const ::ReadResult result = readAll(reader);
        // Flipping a bit of a length that then points past the file still fails the length CRC first.
        QCOMPARE(result.last, RecordStatus::BadLengthCrc);
        QCOMPARE(result.payloads, QList<QByteArray> { "one" });
        QCOMPARE(reader.problemOffset(), second);
        QCOMPARE(reader.offset(), second);
        RecordReader::Record record;
        QCOMPARE(reader.next(record), RecordStatus::BadLengthCrc); // fatal: stays
    }

    void badDataCrc_data()
    {
        QTest::addColumn<int>("corruptIndex"); // relative to the payload start of the second record
        QTest::newRow("payload first byte") << 0;
        QTest::newRow("payload last byte") << 9;
        QTest::newRow("stored crc") << 11;
    }

    void badDataCrc()
    {
        QFETCH(int, corruptIndex);
        const QList<QByteArray> payloads { "one", "0123456789", "three", "four" };
        QByteArray file = frameAll(payloads);
        const qint64 second = 3 + qint64(tfrecord::kOverhead);
        const qint64 index = second + qint64(tfrecord::kHeaderSize) + corruptIndex;
        file[index] = char(file[index] ^ 0x01);
        QVERIFY(writeFile(path("baddata"), file));

        RecordReader reader(path("baddata"));
        QVERIFY(reader.open(0));
        RecordReader::Record record;
        QCOMPARE(reader.next(record), RecordStatus::Ok);
        QCOMPARE(reader.next(record), RecordStatus::BadDataCrc);
        QCOMPARE(record.offset, second);
        QCOMPARE(record.size, std::size_t(10));
        QCOMPARE(reader.problemOffset(), second);
        const ::ReadResult rest = readAll(reader);
        QCOMPARE(rest.last, RecordStatus::End);
        QCOMPARE(rest.payloads, (QList<QByteArray> { "three", "four" }));

        RecordReader unchecked(path("baddata"));
        unchecked.setVerifyDataCrc(false);
        QVERIFY(unchecked.open(0));
        QCOMPARE(readAll(unchecked).payloads.size(), 4);
    }

    void zeroLength()
    {
        QByteArray file = frameAll({ "", "payload", "" });
        QVERIFY(writeFile(path("zero"), file));
        RecordReader reader(path("zero"));
        QVERIFY(reader.open(0));
        const ::ReadResult result = readAll(reader);
        QCOMPARE(result.last, RecordStatus::End);
        QCOMPARE(result.payloads, (QList<QByteArray> { "", "payload", "" }));
        QCOMPARE(result.offsets, (QList<qint64> { 0, 16, 39 }));
    }

    void lengthLargerThanFile_data()
    {
        QTest::addColumn<QByteArray>("tail");
        QTest::addColumn<RecordStatus>("status");
        QTest::newRow("valid crc: an incomplete tail") << header(1u << 20) + "partial" << RecordStatus::Truncated;
        QTest::newRow("valid crc, claims 512 MiB") << header(512u << 20) << RecordStatus::Truncated;
        QTest::newRow("invalid crc") << header(1u << 20, false) + "partial" << RecordStatus::BadLengthCrc;
        QTest::newRow("beyond the 1 GiB limit") << header(std::uint64_t(5) << 30) << RecordStatus::TooLarge;
    }

    void lengthLargerThanFile()
    {
        QFETCH(QByteArray, tail);
        QFETCH(RecordStatus, status);
        const QByteArray good = tfrecord::framed("good");
        QVERIFY(writeFile(path("large"), good + tail));
        RecordReader reader(path("large"));
        QVERIFY(reader.open(0));
        const ::ReadResult result = readAll(reader);
        QCOMPARE(result.last, status);
        QCOMPARE(result.payloads, QList<QByteArray> { "good" });
        QCOMPARE(reader.offset(), qint64(good.size()));
        QCOMPARE(reader.problemOffset(), qint64(good.size()));
    }

    void maxPayloadSetting()
    {
        QVERIFY(writeFile(path("limit"), frameAll({ "short", payloadOf(2000, 1) })));
        RecordReader reader(path("limit"));
        reader.setMaxPayload(1000);
        QVERIFY(reader.open(0));
        const ::ReadResult result = readAll(reader);
        QCOMPARE(result.last, RecordStatus::TooLarge);
        QCOMPARE(reader.problemLength(), std::uint64_t(2000));
        QCOMPARE(result.payloads.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestRecordReader)
#include "tst_recordreader.moc"
