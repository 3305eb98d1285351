// The Chrome trace reader on damaged, hostile, compressed and large input, and cancelled.

#include "importers/trace/chrometracereader.h"
#include "importers/trace/jsonscan.h"
#include "importers/trace/tracevalues.h"
#include "models/trace/launchindex.h"
#include "models/trace/opstatistics.h"
#include "models/trace/tracestore.h"

#include "tests/importers/trace/chrometracetestdata.h"
#include "tests/testutils.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <map>
#include <random>
#include <string>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::trace;
using namespace runlens::models;
using namespace runlens::models::trace;

using namespace runlens::test::chrometrace;

namespace {

std::string gzipped(const std::string& text)
{
    z_stream stream {};
    deflateInit2(&stream, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&stream, uLong(text.size())) + 64, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = uInt(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

// A trace of `ops` X events (each with args of about 300 bytes), `ops / 10` B/E pairs on a second
// thread, a garbage stretch in the middle, and the time base given after the events.
std::string largeTrace(int ops)
{
    std::string text = R"({"schemaVersion": 1, "traceEvents": [)";
    const std::string padding(240, 'p');
    for (int i = 0; i < ops; ++i) {
        text += R"({"ph":"X","cat":"cpu_op","name":"op)" + std::to_string(i % 50) + R"(","pid":1,"tid":1,"ts":)"
            + std::to_string(i * 10) + R"(,"dur":5,"args":{"External id":)" + std::to_string(i) + R"(,"pad":")"
            + padding + R"("}},)" + "\n";
        if (i % 10 == 0) {
            text += R"({"ph":"B","name":"span","pid":1,"tid":2,"ts":)" + std::to_string(i * 10) + "},";
            text += R"({"ph":"E","pid":1,"tid":2,"ts":)" + std::to_string(i * 10 + 7) + "},";
        }
        if (i == ops / 2)
            text += "garbage here, ";
    }
    text += R"({}], "baseTimeNanoseconds": 1000000, "traceName": "large"})";
    return text;
}

/// Where the object or array at `p` ends, one byte at a time: the scanner's contract.
const char* byteWalk(const char* p, const char* end)
{
    std::int64_t depth = 0;
    bool inString = false;
    bool escaped = false;
    for (; p < end; ++p) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (*p == '\\')
                escaped = true;
            else if (*p == '"')
                inString = false;
        } else if (*p == '"') {
            inString = true;
        } else if (*p == '{' || *p == '[') {
            ++depth;
        } else if ((*p == '}' || *p == ']') && --depth == 0) {
            return p + 1;
        }
    }
    return nullptr;
}

} // namespace

class TstChromeTraceHostile : public QObject
{
    Q_OBJECT

private slots:
    void skipValueMatchesByteWalk();
    void wrongTypes();
    void badStrings();
    void hugeAndDeep();
    void truncatedEverywhere();
    void gzipInput();
    void gzipBomb();
    void cancel();
    void largeInputsOnTwoThreads();
    void largeInputTruncatedAndCanceled();
};

void TstChromeTraceHostile::skipValueMatchesByteWalk()
{
    // The scanner finds each event's end 64 bytes at a time; strings with brackets, escaped quotes and runs
    // of backslashes across block edges must end where a byte-by-byte walk ends them (or nowhere).
    std::mt19937_64 random(20);
    const std::string alphabet = "{}[]\"\\a ,:\"\\";
    int ended = 0;
    for (int round = 0; round < 200000; ++round) {
        const int length = 1 + int(random() % 400);
        const bool dense = random() % 4 == 0;
        std::string text(std::size_t(length) + 64, 'x');
        for (int i = 0; i < length; ++i)
            text[std::size_t(i)]
                = dense || random() % 10 < 3 ? alphabet[random() % alphabet.size()] : char('a' + random() % 3);
        text[0] = random() % 2 ? '{' : '[';
        const char* begin = text.data();
        const char* end = begin + length;
        const char* expected = byteWalk(begin, end);
        ended += expected != nullptr;
        const char* got = importers::trace::jsonscan::skipValue(begin, end);
        if (got != expected)
            QFAIL(qPrintable(QStringLiteral("round %1: ends at %2, expected %3")
                                 .arg(round)
                                 .arg(got ? got - begin : -1)
                                 .arg(expected ? expected - begin : -1)));
    }
    QVERIFY(ended > 50000);
}

void TstChromeTraceHostile::wrongTypes()
{
    // Every field with a wrong type, one event each; good events around them survive.
    const char* fields[] = { R"("ph":1)",
                             R"("ph":"X","ts":{})",
                             R"("ph":"X","ts":[1])",
                             R"("ph":"X","ts":true)",
                             R"("ph":"X","ts":null)",
                             R"("ph":"X","ts":"abc")",
                             R"("ph":"X","ts":1,"dur":"x")",
                             R"("ph":"X","ts":1,"pid":[1])",
                             R"("ph":"X","ts":1,"tid":{"a":1})",
                             R"("ph":"X","ts":1,"name":5)",
                             R"("ph":"X","ts":1,"cat":5)",
                             R"("ph":"X","ts":1,"args":5)",
                             R"("ph":"X","ts":1,"args":[1,2])",
                             R"("ph":"s","ts":1,"id":{"x":1})",
                             R"("ph":"M","name":"thread_name","args":{"name":5})",
                             R"("ph":"M","name":"process_sort_index","args":{"sort_index":"x"})",
                             R"("ph":"C","name":"c","ts":1,"args":{"v":"x"})",
                             R"("ph":7,"ts":1)",
                             R"("ph":"ZZ","ts":1)" };
    std::string text = R"({"traceEvents":[{"ph":"X","name":"first","pid":1,"tid":1,"ts":0,"dur":1})";
    for (const char* f : fields)
        text += std::string(",{") + f + "}";
    text += R"(,{"ph":"X","name":"last","pid":1,"tid":1,"ts":5,"dur":1}]})";
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("types.json"));
    QVERIFY2(!hasError(result.diagnostics), qPrintable(describe(result.diagnostics)));
    QVERIFY(!result.diagnostics.isEmpty());
    bool first = false;
    bool last = false;
    for (const Track& t : result.store->tracks()) {
        for (StringId n : t.name_) {
            first = first || result.store->strings().view(n) == "first";
            last = last || result.store->strings().view(n) == "last";
        }
    }
    QVERIFY(first && last);
}

void TstChromeTraceHostile::badStrings()
{
    std::string text = R"({"traceEvents":[{"ph":"X","name":"ok1","pid":1,"tid":1,"ts":0,"dur":1},)";
    text += "{\"ph\":\"X\",\"name\":\"bad\xff\xfeutf8\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},";
    text += R"({"ph":"X","name":"bad \q escape","pid":1,"tid":1,"ts":2,"dur":1},)";
    text += R"({"ph":"X","name":"unescaped "quote" here","pid":1,"tid":1,"ts":3,"dur":1},)";
    text += R"({"ph":"X","name":"big","pid":1,"tid":1,"ts":4,"dur":1,"args":{"Comms Id": 10159970886766084423}},)";
    text += R"(garbage, {"ph":"X","name":"ok2","pid":1,"tid":1,"ts":5,"dur":1}]})";
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("strings.json"));
    QStringList names;
    for (const Track& t : result.store->tracks()) {
        for (StringId n : t.name_)
            names << result.store->strings().text(n);
    }
    QVERIFY2(names.contains(QStringLiteral("ok1")), qPrintable(names.join(',')));
    QVERIFY(names.contains(QStringLiteral("big")));
    QVERIFY(names.contains(QStringLiteral("ok2")));
    QVERIFY(!names.contains(QStringLiteral("bad \\q escape")));
    QVERIFY(result.diagnostics.size() >= 3);
    for (const Diagnostic& d : result.diagnostics)
        QVERIFY(d.file == QStringLiteral("strings.json"));
}

void TstChromeTraceHostile::hugeAndDeep()
{
    std::string text = R"({"traceEvents":[)";
    // A 1 MB name and a 1 MB args string.
    text += R"({"ph":"X","name":")" + std::string(1 << 20, 'n') + R"(","pid":1,"tid":1,"ts":0,"dur":1,"args":{"s":")"
        + std::string(1 << 20, 'a') + R"("}},)";
    // Args nested far deeper than any parser allows: the event is skipped, the next one is kept.
    text += R"({"ph":"X","name":"deep","pid":1,"tid":1,"ts":1,"dur":1,"args":)" + std::string(100000, '[')
        + std::string(100000, ']') + "},";
    text += R"({"ph":"X","name":"after","pid":1,"tid":1,"ts":2,"dur":1}]})";
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("huge.json"));
    QVERIFY(!hasError(result.diagnostics));
    const Track& t = result.store->tracks()[0];
    QVERIFY(t.size() >= 2);
    QCOMPARE(result.store->strings().view(t.name_[0]).size(), std::size_t(1 << 20));
    QCOMPARE(result.store->argsJson(0, 0).size(), std::size_t((1 << 20) + 8));
    QCOMPARE(result.store->strings().view(t.name_.back()), std::string_view("after"));
}

void TstChromeTraceHostile::truncatedEverywhere()
{
    const std::string full = kSmall;
    std::size_t previous = 0;
    for (std::size_t cut = 0; cut < full.size(); cut += 7) {
        const ChromeTraceResult result = ChromeTraceReader::readBytes(full.substr(0, cut), QStringLiteral("cut.json"));
        QVERIFY(result.store);
        QVERIFY(!result.diagnostics.isEmpty());
        const std::uint64_t events = result.store->sources()[0].events;
        QVERIFY(events >= previous); // a longer prefix never yields fewer events
        previous = events;
        for (const Diagnostic& d : result.diagnostics)
            QVERIFY(d.offset <= qint64(cut));
    }
    QCOMPARE(previous, std::uint64_t(9));
}

void TstChromeTraceHostile::gzipInput()
{
    const ChromeTraceResult result = ChromeTraceReader::readBytes(gzipped(kSmall), QStringLiteral("small.json.gz"));
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(describe(result.diagnostics)));
    QCOMPARE(result.store->sources()[0].events, std::uint64_t(9));
    // A truncated gzip stream keeps what inflated.
    const std::string gz = gzipped(std::string(kSmall) + std::string(100000, ' '));
    const ChromeTraceResult cut = ChromeTraceReader::readBytes(gz.substr(0, gz.size() / 2), QStringLiteral("cut.gz"));
    QVERIFY(!cut.diagnostics.isEmpty());

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("no_extension"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const std::string bytes = gzipped(kSmall);
    file.write(bytes.data(), qint64(bytes.size()));
    file.close();
    const ChromeTraceResult fromFile = ChromeTraceReader::read({ path });
    QVERIFY(fromFile.diagnostics.isEmpty());
    QCOMPARE(fromFile.store->sources()[0].path, path);
    QCOMPARE(fromFile.store->sources()[0].events, std::uint64_t(9));
    const ChromeTraceResult missing = ChromeTraceReader::read({ dir.filePath(QStringLiteral("missing.json")) });
    QVERIFY(hasError(missing.diagnostics));
}

void TstChromeTraceHostile::gzipBomb()
{
    // 300 MiB of blanks after a valid start deflate to about 300 KB: more than the budget of a file that small
    // allows. Reading stops at the limit with an error that names the file and an offset inside it.
    z_stream stream {};
    deflateInit2(&stream, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
    std::string bomb(std::size_t(4) << 20, '\0');
    std::size_t produced = 0;
    const std::string head = "{\"traceEvents\": [";
    const std::string blanks(std::size_t(1) << 20, ' ');
    auto feed = [&](const std::string& in, int flush) {
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
        stream.avail_in = uInt(in.size());
        do {
            if (bomb.size() - produced < (1u << 16))
                bomb.resize(bomb.size() * 2);
            stream.next_out = reinterpret_cast<Bytef*>(bomb.data() + produced);
            stream.avail_out = uInt(bomb.size() - produced);
            deflate(&stream, flush);
            produced = bomb.size() - stream.avail_out;
        } while (stream.avail_in > 0 || (flush == Z_FINISH && stream.avail_out == 0));
    };
    feed(head, Z_NO_FLUSH);
    for (int i = 0; i < 300; ++i)
        feed(blanks, Z_NO_FLUSH);
    feed("]}", Z_FINISH);
    deflateEnd(&stream);
    bomb.resize(produced);
    QVERIFY(bomb.size() < std::size_t(2) << 20);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bomb.json.gz"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bomb.data(), qint64(bomb.size()));
    file.close();
    const ChromeTraceResult result = ChromeTraceReader::read({ path });
    bool named = false;
    for (const Diagnostic& d : result.diagnostics) {
        QCOMPARE(d.file, path);
        QVERIFY(d.offset <= qint64(bomb.size()));
        if (d.severity == Severity::Error && d.message.contains(QStringLiteral("limit")))
            named = true;
    }
    QVERIFY2(named, qPrintable(describe(result.diagnostics)));

    // Cancel reaches the inflation loop.
    std::atomic_bool cancel { true };
    ImportControl control;
    control.cancel = &cancel;
    const ChromeTraceResult canceled = ChromeTraceReader::read({ path }, control);
    QVERIFY(canceled.canceled);
}

void TstChromeTraceHostile::cancel()
{
    std::string text = "[";
    for (int i = 0; i < 100000; ++i)
        text += R"({"ph":"X","name":"a","pid":1,"tid":1,"ts":)" + std::to_string(i) + R"(,"dur":1},)";
    text += "{}]";
    std::atomic_bool stop { true };
    ImportControl control;
    control.cancel = &stop;
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("big.json"), control);
    QVERIFY(result.canceled);
    QVERIFY(result.store->eventCount() < 100000);
    int last = -1;
    ImportControl progress;
    progress.progress = [&last](int permille) {
        QVERIFY(permille >= last);
        last = permille;
    };
    const ChromeTraceResult full = ChromeTraceReader::readBytes(text, QStringLiteral("big.json"), progress);
    QVERIFY(!full.canceled);
    QCOMPARE(last, 1000);
    QCOMPARE(full.store->eventCount(), std::uint64_t(100000));
}

void TstChromeTraceHostile::largeInputsOnTwoThreads()
{
    // Above the size where scanning moves to a second thread, in memory and from a file (read
    // progressively while the events are parsed).
    const int ops = 20000;
    const std::string text = largeTrace(ops);
    QVERIFY(text.size() > (std::size_t(5) << 20));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("large.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.data(), qint64(text.size()));
    file.close();

    int last = -1;
    ImportControl progress;
    progress.progress = [&last](int permille) {
        QVERIFY(permille >= last);
        last = permille;
    };
    for (const bool fromFile : { false, true }) {
        last = -1;
        const ChromeTraceResult result = fromFile
            ? ChromeTraceReader::read({ path }, progress)
            : ChromeTraceReader::readBytes(text, QStringLiteral("large.json"), progress);
        QCOMPARE(last, 1000);
        QVERIFY(!result.canceled);
        // The garbage stretch is reported once, at its offset, and skipped.
        QCOMPARE(result.diagnostics.size(), 1);
        QCOMPARE(result.diagnostics[0].offset, qint64(text.find("garbage")));
        const TraceSource& source = result.store->sources()[0];
        QCOMPARE(source.events, std::uint64_t(ops + 2 * (ops / 10)));
        QCOMPARE(source.eventsByPhase[int('X')], std::uint64_t(ops));
        QCOMPARE(source.sentinelEvents, std::uint64_t(1));
        QVERIFY(source.metadataJson.contains("\"traceName\":\"large\""));
        QCOMPARE(slices(*result.store), std::uint64_t(ops + ops / 10));
        // The time base given after the events moves them all; args stay readable in the retained input.
        QCOMPARE(result.store->startTime(), std::int64_t(1000000));
        const Track* ops1 = nullptr;
        for (const Track& t : result.store->tracks())
            ops1 = t.tid == 1 ? &t : ops1;
        QVERIFY(ops1);
        QCOMPARE(ops1->size(), std::size_t(ops));
        const std::string_view args = result.store->argsJson(int(ops1 - result.store->tracks().data()), ops - 1);
        QVERIFY2(args.find("\"External id\":" + std::to_string(ops - 1)) != std::string_view::npos,
                 std::string(args.substr(0, 40)).c_str());
    }
}

void TstChromeTraceHostile::largeInputTruncatedAndCanceled()
{
    const int ops = 20000;
    const std::string text = largeTrace(ops);
    std::uint64_t previous = 0;
    for (const double fraction : { 0.3, 0.55, 0.8, 0.999 }) {
        const std::size_t cut = std::size_t(double(text.size()) * fraction);
        const ChromeTraceResult result = ChromeTraceReader::readBytes(text.substr(0, cut), QStringLiteral("cut.json"));
        QVERIFY(hasError(result.diagnostics));
        const std::uint64_t events = result.store->sources()[0].events;
        QVERIFY(events > previous);
        QVERIFY(events < std::uint64_t(ops + 2 * (ops / 10)));
        previous = events;
        for (const Diagnostic& d : result.diagnostics)
            QVERIFY(d.offset <= qint64(cut));
    }
    // Canceled once a fifth is done: the scanning thread stops too, and what was read is kept.
    std::atomic_bool stop { false };
    ImportControl control;
    control.cancel = &stop;
    control.progress = [&stop](int permille) {
        if (permille >= 200)
            stop = true;
    };
    const ChromeTraceResult result = ChromeTraceReader::readBytes(text, QStringLiteral("large.json"), control);
    QVERIFY(result.canceled);
    QVERIFY(result.store->sources()[0].events > 0);
    QVERIFY(result.store->sources()[0].events < std::uint64_t(ops));
}

QTEST_GUILESS_MAIN(TstChromeTraceHostile)
#include "tst_chrometracehostile.moc"
