#include "models/core/crc32c.h"

#include <QByteArray>
#include <QRandomGenerator>
#include <QtTest>

#include <vector>

using namespace runlens::models;

namespace {

/// Bit-at-a-time reference, independent of the table and hardware code under test.
std::uint32_t referenceCrc32c(const QByteArray& bytes)
{
    std::uint32_t crc = 0xffffffffu;
    for (const char c : bytes) {
        crc ^= std::uint8_t(c);
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc >> 1) ^ ((crc & 1u) ? 0x82f63b78u : 0u);
    }
    return ~crc;
}

QByteArray filled(int size, char value)
{
    return QByteArray(size, value);
}

QByteArray ascending(int size)
{
    QByteArray bytes(size, 0);
    for (int i = 0; i < size; ++i)
        bytes[i] = char(i);
    return bytes;
}

QByteArray descending(int size)
{
    QByteArray bytes(size, 0);
    for (int i = 0; i < size; ++i)
        bytes[i] = char(size - 1 - i);
    return bytes;
}

} // namespace

class TestCrc32c : public QObject
{
    Q_OBJECT

private slots:
    void knownVectors_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<quint32>("expected");
        QTest::newRow("empty") << QByteArray() << quint32(0);
        QTest::newRow("check string") << QByteArray("123456789") << quint32(0xE3069283);
        QTest::newRow("32 zero bytes") << filled(32, 0) << quint32(0x8A9136AA);
        QTest::newRow("32 0xff bytes") << filled(32, char(0xff)) << quint32(0x62A8AB43);
        QTest::newRow("ascending 0..31") << ascending(32) << quint32(0x46DD794E);
        QTest::newRow("descending 31..0") << descending(32) << quint32(0x113FDB5C);
    }

    void knownVectors()
    {
        QFETCH(QByteArray, input);
        QFETCH(quint32, expected);
        QCOMPARE(referenceCrc32c(input), expected);
        QCOMPARE(crc32c(input.constData(), std::size_t(input.size())), expected);
        QCOMPARE(crc32cExtendTable(0, input.constData(), std::size_t(input.size())), expected);
        if (crc32cHardwareAvailable())
            QCOMPARE(crc32cExtendHardware(0, input.constData(), std::size_t(input.size())), expected);
    }

    void hardwareMatchesTable()
    {
        QRandomGenerator random(20240607);
        // Spare bytes on both sides so that every start alignment can be tried.
        std::vector<char> storage(4096 + 16);
        for (char& c : storage)
            c = char(random.generate());
        if (!crc32cHardwareAvailable())
            qInfo("this CPU has no SSE 4.2 crc32 instruction: only the table path is checked");
        std::vector<std::size_t> lengths;
        for (std::size_t length = 0; length <= 80; ++length)
            lengths.push_back(length);
        for (std::size_t length : { 127, 128, 129, 255, 256, 1000, 1023, 1024, 4095, 4096 })
            lengths.push_back(length);
        for (std::size_t alignment = 0; alignment < 8; ++alignment) {
            for (const std::size_t length : lengths) {
                const char* data = storage.data() + alignment;
                const QByteArray bytes(data, qsizetype(length));
                const std::uint32_t expected = referenceCrc32c(bytes);
                QCOMPARE(crc32cExtendTable(0, data, length), expected);
                QCOMPARE(crc32c(data, length), expected);
                if (crc32cHardwareAvailable())
                    QCOMPARE(crc32cExtendHardware(0, data, length), expected);
            }
        }
    }

    void extendEqualsWhole()
    {
        const QByteArray whole = QByteArray("The quick brown fox jumps over the lazy dog; ").repeated(7);
        const std::uint32_t expected = crc32c(whole.constData(), std::size_t(whole.size()));
        for (qsizetype split = 0; split <= whole.size(); ++split) {
            const std::uint32_t head = crc32c(whole.constData(), std::size_t(split));
            const auto tailSize = std::size_t(whole.size() - split);
            QCOMPARE(crc32cExtend(head, whole.constData() + split, tailSize), expected);
            QCOMPARE(crc32cExtendTable(head, whole.constData() + split, tailSize), expected);
            if (crc32cHardwareAvailable())
                QCOMPARE(crc32cExtendHardware(head, whole.constData() + split, tailSize), expected);
        }
    }

    void maskRoundTrip()
    {
        QRandomGenerator random(7);
        for (std::uint32_t crc : { 0u, 1u, 0xffffffffu, 0x80000000u, 0xE3069283u }) {
            QCOMPARE(unmaskCrc32c(maskCrc32c(crc)), crc);
            QCOMPARE(maskCrc32c(unmaskCrc32c(crc)), crc);
        }
        for (int i = 0; i < 10000; ++i) {
            const std::uint32_t crc = random.generate();
            QCOMPARE(unmaskCrc32c(maskCrc32c(crc)), crc);
        }
        // rotate right by 15, then add the constant
        QCOMPARE(maskCrc32c(0), kCrc32cMaskDelta);
        QCOMPARE(maskCrc32c(1u << 15), 1u + kCrc32cMaskDelta);
        QCOMPARE(maskCrc32c(1u), (1u << 17) + kCrc32cMaskDelta);
    }

    void maskedMatchesRealFile()
    {
        // The first record of a TF2 event file: payload length 24, its masked CRC stored as a3 7f 4b 22.
        const char length[8] = { 0x18, 0, 0, 0, 0, 0, 0, 0 };
        QCOMPARE(maskedCrc32c(length, sizeof length), 0x224b7fa3u);
    }
};

QTEST_GUILESS_MAIN(TestCrc32c)
#include "tst_crc32c.moc"
