#include "importers/memory/safepickle.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::memory;
using namespace runlens::models;

namespace {

QString fixture(const QString& name)
{
    return QStringLiteral(RUNLENS_TEST_DATA_DIR "/memory/") + name;
}

QByteArray readFixture(const QString& name)
{
    QFile file(fixture(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

/// The bytes of a literal, embedded zeros included, without its terminating zero.
template<std::size_t N> std::string raw(const char (&literal)[N])
{
    return std::string(literal, N - 1);
}

std::string_view view(const QByteArray& bytes)
{
    return std::string_view(bytes.constData(), std::size_t(bytes.size()));
}

} // namespace

class TestSafePickle : public QObject
{
    Q_OBJECT

private slots:
    void decodesPlainData_data();
    void decodesPlainData();
    void refusesCode_data();
    void refusesCode();
    void handWrittenGlobalReduceIsRefused();
    void truncatedAtEveryByteNeverCrashes_data();
    void truncatedAtEveryByteNeverCrashes();
    void truncationKeepsWhatWasRead();
    void corruptBytesNeverCrash();
    void claimedSizesAreCheckedFirst();
    void depthIsLimited();
    void memoGapIsRefused();
    void memoIndexBeyondTheFileIsRefused();
    void valuesAreSpentOnTheBudget();
    void selfContainingListIsHeld();
    void rejectsNonPickles();
};

void TestSafePickle::decodesPlainData_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("protocol");
    for (int protocol = 2; protocol <= 5; ++protocol)
        QTest::newRow(qPrintable(QStringLiteral("protocol %1").arg(protocol)))
            << QStringLiteral("values_p%1.pickle").arg(protocol) << protocol;
}

void TestSafePickle::decodesPlainData()
{
    QFETCH(QString, name);
    QFETCH(int, protocol);
    const QByteArray bytes = readFixture(name);
    QVERIFY2(!bytes.isEmpty(), qPrintable(name));
    const QJsonObject expected = QJsonDocument::fromJson(readFixture(QStringLiteral("values_expected.json"))).object();
    QVERIFY(!expected.isEmpty());

    const PickleResult result = decodePickle(view(bytes), fixture(name));
    QVERIFY2(result.ok, result.diagnostics.isEmpty() ? "" : qPrintable(result.diagnostics.first().toString()));
    QVERIFY(result.diagnostics.isEmpty());
    const PickleValue root = result.document.root();
    QVERIFY(root.isDict());
    QCOMPARE(qint64(root.size()), qint64(expected.value("keys").toObject().value(QString::number(protocol)).toInt()));

    for (const char* key : { "small", "byte", "short", "negative", "int32", "int64", "negative64" }) {
        QCOMPARE(root.value(key).type(), PickleType::Int);
        QCOMPARE(root.value(key).toInt(), expected.value(QLatin1String(key)).toString().toLongLong());
    }
    QCOMPARE(root.value("big").type(), PickleType::BigInt);
    QCOMPARE(root.value("big").toDouble(), expected.value("big_approx").toDouble());
    QCOMPARE(root.value("float").toDouble(), expected.value("float").toDouble());
    QCOMPARE(root.value("negative_float").toDouble(), expected.value("negative_float").toDouble());
    QCOMPARE(root.value("text").toString(), expected.value("text").toString());
    QCOMPARE(root.value("empty").type(), PickleType::String);
    QVERIFY(root.value("empty").bytes().empty());
    if (protocol >= 3) {
        QCOMPARE(root.value("bytes").type(), PickleType::Bytes);
        QCOMPARE(root.value("bytes").bytes(), std::string_view("\x00\x01\xff", 3));
    }
    QVERIFY(root.value("none").isValid() && root.value("none").isNone());
    QCOMPARE(root.value("true").type(), PickleType::Bool);
    QVERIFY(root.value("true").toBool());
    QVERIFY(!root.value("false").toBool());

    const PickleValue list = root.value("list");
    QCOMPARE(list.type(), PickleType::List);
    QCOMPARE(qint64(list.size()), qint64(expected.value("list_len").toInt()));
    qint64 sum = 0;
    for (std::size_t i = 0; i < list.size(); ++i)
        sum += list.at(i).toInt();
    QCOMPARE(sum, qint64(expected.value("list_sum").toDouble()));

    QCOMPARE(root.value("tuple1").size(), std::size_t(1));
    QCOMPARE(root.value("tuple2").at(1).toString(), QStringLiteral("two"));
    QCOMPARE(root.value("tuple3").at(2).toInt(), 3);
    QCOMPARE(root.value("tuple5").type(), PickleType::Tuple);
    QCOMPARE(root.value("tuple5").at(4).toInt(), 5);
    QCOMPARE(root.value("empty_tuple").size(), std::size_t(0));
    QVERIFY(root.value("empty_tuple").isSequence());
    if (protocol >= 4) {
        QCOMPARE(root.value("set").type(), PickleType::Set);
        QCOMPARE(root.value("set").size(), std::size_t(3));
        QCOMPARE(root.value("frozenset").type(), PickleType::Set);
        QCOMPARE(root.value("frozenset").size(), std::size_t(2));
    }

    const PickleValue nested = root.value("nested").value("a").at(0).value("b");
    QCOMPARE(nested.size(), std::size_t(3));
    QVERIFY(nested.at(2).value("c").isNone());
    // The memo shares one value between the two keys that referenced the same list.
    QCOMPARE(root.value("shared_a").index(), root.value("shared_b").index());
    QCOMPARE(root.value("shared_b").at(0).toString(), QStringLiteral("shared"));

    // Wrong-type accessors are neutral.
    QVERIFY(!root.value("missing").isValid());
    QCOMPARE(root.value("text").toInt(-1), -1);
    QVERIFY(!root.value("list").value("x").isValid());
    QVERIFY(!list.at(99999).isValid());
}

void TestSafePickle::refusesCode_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("opcode");
    QTest::addColumn<qint64>("offset");
    QTest::addColumn<QString>("target");
    // Offsets checked with python3 -m pickletools on the fixtures.
    QTest::newRow("GLOBAL os.system") << "code_global_p2.pickle"
                                      << "GLOBAL" << qint64(2) << "posix.system";
    QTest::newRow("STACK_GLOBAL os.system") << "code_stack_global_p4.pickle"
                                            << "STACK_GLOBAL" << qint64(28) << "posix.system";
    QTest::newRow("reduce payload p2") << "code_reduce_p2.pickle"
                                       << "GLOBAL" << qint64(23) << "posix.system";
    QTest::newRow("reduce payload p4") << "code_reduce_p4.pickle"
                                       << "STACK_GLOBAL" << qint64(64) << "posix.system";
}

void TestSafePickle::refusesCode()
{
    QFETCH(QString, name);
    QFETCH(QString, opcode);
    QFETCH(qint64, offset);
    QFETCH(QString, target);
    const QString marker = QStringLiteral("/tmp/runlens_pickle_was_executed");
    QFile::remove(marker);

    const QByteArray bytes = readFixture(name);
    QVERIFY(!bytes.isEmpty());
    const PickleResult result = decodePickle(view(bytes), fixture(name));
    QVERIFY(!result.ok);
    QCOMPARE(result.diagnostics.size(), 1);
    const Diagnostic& diagnostic = result.diagnostics.first();
    QCOMPARE(diagnostic.severity, Severity::Error);
    QCOMPARE(diagnostic.file, fixture(name));
    QCOMPARE(diagnostic.offset, offset);
    QVERIFY2(diagnostic.message.contains(opcode + QStringLiteral(" (0x")), qPrintable(diagnostic.message));
    QVERIFY2(diagnostic.message.contains(QStringLiteral("offset %1").arg(offset)), qPrintable(diagnostic.message));
    QVERIFY2(diagnostic.message.contains(target), qPrintable(diagnostic.message));
    QVERIFY2(diagnostic.message.contains(QStringLiteral("refused")), qPrintable(diagnostic.message));
    QVERIFY2(diagnostic.toString().contains(fixture(name)), qPrintable(diagnostic.toString()));
    // Nothing of a refused file is kept, and nothing ran.
    QVERIFY(!result.document.root().isValid());
    QVERIFY(!QFile::exists(marker));
}

void TestSafePickle::handWrittenGlobalReduceIsRefused()
{
    // PROTO 2, GLOBAL 'builtins\neval\n', a one-tuple argument, REDUCE, STOP; then BUILD, INST, OBJ, NEWOBJ alone.
    const std::string global = raw("\x80\x02"
                                   "cbuiltins\neval\n"
                                   "X\x03\x00\x00\x00"
                                   "1+1"
                                   "\x85"
                                   "R.");
    const PickleResult result = decodePickle(global, QStringLiteral("evil.pkl"));
    QVERIFY(!result.ok);
    QCOMPARE(result.diagnostics.size(), 1);
    QVERIFY(result.diagnostics.first().message.contains(QStringLiteral("builtins.eval")));

    struct Case
    {
        std::string bytes;
        const char* name;
        qint64 offset;
    };
    const Case cases[] = {
        { raw("\x80\x02}b."), "BUILD", 3 },          { raw("\x80\x02(ibuiltins\nlist\n."), "INST", 3 },
        { raw("\x80\x02(N\x6f."), "OBJ", 4 },        { raw("\x80\x02NN\x81."), "NEWOBJ", 4 },
        { raw("\x80\x04NN}\x92."), "NEWOBJ_EX", 5 }, { raw("\x80\x02N\x51."), "BINPERSID", 3 },
        { raw("\x80\x02\x82\x01."), "EXT1", 2 },     { raw("\x80\x05\x97."), "NEXT_BUFFER", 2 },
    };
    for (const Case& c : cases) {
        const PickleResult refused = decodePickle(c.bytes, QStringLiteral("evil.pkl"));
        QVERIFY2(!refused.ok, c.name);
        QCOMPARE(refused.diagnostics.size(), 1);
        QVERIFY2(refused.diagnostics.first().message.startsWith(QStringLiteral("pickle opcode ") + c.name + " (0x"),
                 qPrintable(refused.diagnostics.first().message));
        QCOMPARE(refused.diagnostics.first().offset, c.offset);
    }
}

void TestSafePickle::truncatedAtEveryByteNeverCrashes_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("values p2") << "values_p2.pickle";
    QTest::newRow("values p4") << "values_p4.pickle";
    QTest::newRow("snapshot") << "snapshot.pickle";
    QTest::newRow("reduce p4") << "code_reduce_p4.pickle";
}

void TestSafePickle::truncatedAtEveryByteNeverCrashes()
{
    QFETCH(QString, name);
    const QByteArray bytes = readFixture(name);
    QVERIFY(bytes.size() > 16);
    for (qsizetype length = 0; length < bytes.size(); ++length) {
        // A copy of exactly `length` bytes so that a read past the end is caught by ASan.
        const std::string cut(bytes.constData(), std::size_t(length));
        const PickleResult result = decodePickle(cut, name);
        QVERIFY(!result.ok);
        QVERIFY(!result.diagnostics.isEmpty());
        for (const Diagnostic& d : result.diagnostics)
            QVERIFY(d.offset >= 0 && d.offset <= length);
    }
}

void TestSafePickle::truncationKeepsWhatWasRead()
{
    const QByteArray bytes = readFixture(QStringLiteral("values_p4.pickle"));
    // Cut inside the big list (its items come after the short keys): the list and the keys before it survive.
    const qsizetype cut = bytes.indexOf("nested") - 40;
    QVERIFY(cut > 0);
    const std::string head(bytes.constData(), std::size_t(cut));
    const PickleResult result = decodePickle(head, QStringLiteral("values.pickle"));
    QVERIFY(!result.ok);
    QVERIFY(result.diagnostics.first().message.contains(QStringLiteral("truncated")));
    const PickleValue root = result.document.root();
    QVERIFY(root.isDict());
    QCOMPARE(root.value("small").toInt(), 7);
    QCOMPARE(root.value("text").toString(), QStringLiteral("Grüße, 内存"));
    QVERIFY(root.value("list").size() > 1000);
    QVERIFY(root.value("list").size() < 2500);
}

void TestSafePickle::corruptBytesNeverCrash()
{
    const QByteArray bytes = readFixture(QStringLiteral("snapshot.pickle"));
    std::mt19937 random(12345);
    for (int round = 0; round < 3000; ++round) {
        std::string damaged(bytes.constData(), std::size_t(bytes.size()));
        const int flips = 1 + int(random() % 4);
        for (int i = 0; i < flips; ++i)
            damaged[2 + random() % (damaged.size() - 2)] = char(random() & 0xff);
        const PickleResult result = decodePickle(damaged, QStringLiteral("snapshot.pickle"));
        if (!result.ok)
            QVERIFY(!result.diagnostics.isEmpty());
        (void)result.document.root().size();
    }
}

void TestSafePickle::claimedSizesAreCheckedFirst()
{
    // BINUNICODE8 claiming 2^62 bytes, BINBYTES claiming 4 GB, LONG4 claiming 2 GB: refused, nothing allocated.
    const std::string huge8 = raw("\x80\x04\x8d") + raw("\x00\x00\x00\x00\x00\x00\x00\x40") + "ab";
    const std::string huge4 = raw("\x80\x03"
                                  "B\xff\xff\xff\xff"
                                  "ab");
    const std::string long4 = raw("\x80\x02\x8b\xff\xff\xff\x7f"
                                  "ab");
    for (const std::string& bytes : { huge8, huge4, long4 }) {
        const PickleResult result = decodePickle(bytes, QStringLiteral("big.pickle"));
        QVERIFY(!result.ok);
        QCOMPARE(result.diagnostics.size(), 1);
        QCOMPARE(result.diagnostics.first().offset, qint64(2));
    }
    PickleLimits limits;
    limits.maxStringBytes = 4;
    const std::string five = raw("\x80\x04\x8c\x05"
                                 "hello.");
    const PickleResult limited = decodePickle(five, QStringLiteral("s.pickle"), {}, limits);
    QVERIFY(!limited.ok);
    QVERIFY(limited.diagnostics.first().message.contains(QStringLiteral("limit")));
    QVERIFY(decodePickle(five, QStringLiteral("s.pickle")).ok);
}

void TestSafePickle::depthIsLimited()
{
    std::string deep("\x80\x02", 2);
    for (int i = 0; i < 100000; ++i)
        deep += "]("; // EMPTY_LIST MARK ... never closed
    const PickleResult result = decodePickle(deep, QStringLiteral("deep.pickle"));
    QVERIFY(!result.ok);
    QVERIFY(result.diagnostics.first().message.contains(QStringLiteral("nesting deeper than")));
}

void TestSafePickle::memoGapIsRefused()
{
    const std::string gap = raw("\x80\x02N"
                                "r\xff\xff\xff\x7f"
                                ".");
    const PickleResult result = decodePickle(gap, QStringLiteral("memo.pickle"));
    QVERIFY(!result.ok);
    QVERIFY(result.diagnostics.first().message.contains(QStringLiteral("memo index")));
    const std::string missing = raw("\x80\x02h\x05.");
    QVERIFY(!decodePickle(missing, QStringLiteral("memo.pickle")).ok);
}

void TestSafePickle::memoIndexBeyondTheFileIsRefused()
{
    // LONG_BINPUT with indices a million apart: each 5 bytes would have grown the memo by 4 MB.
    std::string growing = raw("\x80\x02N");
    for (std::uint32_t i = 1; i <= 2000; ++i) {
        const std::uint32_t index = i * 1'000'000u;
        growing += 'r';
        for (int b = 0; b < 4; ++b)
            growing += char((index >> (8 * b)) & 0xff);
    }
    growing += '.';
    const PickleResult result = decodePickle(growing, QStringLiteral("memo.pickle"));
    QVERIFY(!result.ok);
    QCOMPARE(result.diagnostics.size(), 1);
    QVERIFY2(result.diagnostics.first().message.contains(QStringLiteral("memo index 1000000")),
             qPrintable(result.diagnostics.first().message));
    QCOMPARE(result.diagnostics.first().offset, qint64(3));
    // Small indices written out of order, as no pickler does but within the bytes read, stay readable.
    const PickleResult sparse = decodePickle(raw("\x80\x02Nq\x03h\x03\x86."), QStringLiteral("memo.pickle"));
    QVERIFY(sparse.ok);
}

void TestSafePickle::valuesAreSpentOnTheBudget()
{
    // EMPTY_LIST, then 5000 times BININT1 APPEND.
    std::string list = raw("\x80\x02]");
    for (int i = 0; i < 5000; ++i)
        list += raw("K\x01"
                    "a");
    list += ".";
    ImportLimits limits = ImportLimits::forInputSize(std::int64_t(list.size()));
    limits.maxElements = 1000;
    ImportBudget budget(limits);
    const QString name = QStringLiteral("/runs/values.pickle");
    const PickleResult result = decodePickle(list, name, budget);
    QVERIFY(!result.ok);
    QVERIFY(budget.exceeded());
    QCOMPARE(result.diagnostics.size(), 1);
    const Diagnostic& stop = result.diagnostics.first();
    QCOMPARE(stop.file, name);
    QVERIFY2(stop.message.contains(QStringLiteral("more than 1000 values")), qPrintable(stop.message));
    QVERIFY(stop.offset > 3 && stop.offset < qint64(list.size()));
    // The values before the limit are kept in the list they were going into.
    const PickleValue root = result.document.root();
    QVERIFY(root.isSequence());
    QVERIFY(root.size() > 100);
    QVERIFY(root.size() < 1000);
    QCOMPARE(root.at(0).toInt(), 1);
    // The same pickle is fine with the budget of its size.
    QVERIFY(decodePickle(list, name).ok);
}

void TestSafePickle::selfContainingListIsHeld()
{
    // a = []; a.append(a): EMPTY_LIST BINPUT 0 BINGET 0 APPEND STOP. Shared storage, no infinite structure.
    const std::string cyclic = raw("\x80\x02]q\x00h\x00"
                                   "a.");
    const PickleResult result = decodePickle(cyclic, QStringLiteral("cycle.pickle"));
    QVERIFY(result.ok);
    const PickleValue root = result.document.root();
    QCOMPARE(root.size(), std::size_t(1));
    QCOMPARE(root.at(0).index(), root.index());
}

void TestSafePickle::rejectsNonPickles()
{
    QVERIFY(!decodePickle({}, QStringLiteral("empty.pickle")).ok);
    const PickleResult text = decodePickle("{\"segments\": []}", QStringLiteral("snapshot.json"));
    QVERIFY(!text.ok);
    QVERIFY(text.diagnostics.first().message.contains(QStringLiteral("PROTO")));
    // Protocol 0 text opcodes are named, not executed or guessed at.
    const PickleResult old = decodePickle(raw("\x80\x02"
                                              "F1.5\n."),
                                          QStringLiteral("old.pickle"));
    QVERIFY(!old.ok);
    QVERIFY(old.diagnostics.first().message.contains(QStringLiteral("FLOAT")));
    QVERIFY(looksLikePickle(std::string_view("\x80\x04\x95", 3)));
    QVERIFY(!looksLikePickle(std::string_view("\x80\x09", 2)));
}

QTEST_GUILESS_MAIN(TestSafePickle)
#include "tst_safepickle.moc"
