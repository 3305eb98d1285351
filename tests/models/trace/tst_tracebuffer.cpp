#include "models/trace/tracebuffer.h"

#include <QTest>

#include <cstring>

#include <string>

using namespace runlens::models::trace;

class TstTraceBuffer : public QObject
{
    Q_OBJECT

private slots:
    void startsEmpty();
    void appendGrowsAcrossTheMappingThreshold();
    void reserveKeepsContent();
    void sealPadsWithSpaces();
    void shrinkKeepsContent();
};

namespace {

std::string pattern(std::size_t n)
{
    std::string text(n, '\0');
    for (std::size_t i = 0; i < n; ++i)
        text[i] = char('a' + (i * 7919) % 26);
    return text;
}

} // namespace

void TstTraceBuffer::startsEmpty()
{
    TraceBuffer buffer;
    QCOMPARE(buffer.size(), std::size_t(0));
    QCOMPARE(buffer.capacity(), std::size_t(0));
    QVERIFY(buffer.view().empty());
    TraceBuffer sized(100);
    QCOMPARE(sized.size(), std::size_t(0));
    QVERIFY(sized.capacity() >= 100);
}

void TstTraceBuffer::appendGrowsAcrossTheMappingThreshold()
{
    // 64 KB pieces up to 9 MB: starts on the heap, moves to a mapping, grows the mapping.
    const std::string piece = pattern(std::size_t(64) << 10);
    TraceBuffer buffer;
    std::size_t total = 0;
    while (total < (std::size_t(9) << 20)) {
        QVERIFY(buffer.append(piece));
        total += piece.size();
        QCOMPARE(buffer.size(), total);
        QVERIFY(buffer.capacity() >= total);
    }
    for (std::size_t at = 0; at < total; at += piece.size())
        QVERIFY(buffer.view().substr(at, piece.size()) == piece);
}

void TstTraceBuffer::reserveKeepsContent()
{
    const std::string text = pattern(1000);
    TraceBuffer buffer(10);
    QVERIFY(buffer.append(text));
    QVERIFY(buffer.reserve(std::size_t(6) << 20));
    QVERIFY(buffer.capacity() >= (std::size_t(6) << 20));
    QVERIFY(buffer.view() == text);
    QVERIFY(buffer.reserve(std::size_t(20) << 20));
    QVERIFY(buffer.view() == text);
    QVERIFY(buffer.reserve(5)); // never shrinks
    QVERIFY(buffer.view() == text);
}

void TstTraceBuffer::sealPadsWithSpaces()
{
    TraceBuffer buffer(std::size_t(5) << 20);
    const std::string text = pattern(12345);
    std::memcpy(buffer.data(), text.data(), text.size());
    buffer.setSize(text.size());
    buffer.seal();
    QVERIFY(buffer.view() == text);
    for (std::size_t i = 0; i < TraceBuffer::kPadding; ++i)
        QCOMPARE(buffer.data()[text.size() + i], ' ');
    buffer.setSize(buffer.capacity() + 100); // clamped
    QCOMPARE(buffer.size(), buffer.capacity());
}

void TstTraceBuffer::shrinkKeepsContent()
{
    for (const std::size_t capacity : { std::size_t(100000), std::size_t(64) << 20 }) {
        TraceBuffer buffer(capacity);
        const std::string text = pattern(5000);
        QVERIFY(buffer.append(text));
        buffer.shrinkToFit();
        QVERIFY(buffer.capacity() < capacity);
        QVERIFY(buffer.capacity() >= text.size());
        buffer.seal();
        QVERIFY(buffer.view() == text);
        QCOMPARE(buffer.data()[text.size() + TraceBuffer::kPadding - 1], ' ');
    }
}

QTEST_GUILESS_MAIN(TstTraceBuffer)
#include "tst_tracebuffer.moc"
