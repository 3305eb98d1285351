#include "importers/memory/memorytimelinereader.h"
#include "models/memory/memoryanalysis.h"

#include "tests/importers/memory/memoryoracle.h"
#include "tests/testutils.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <string>

using namespace runlens;
using namespace runlens::importers::memory;
using namespace runlens::models;
using namespace runlens::models::memory;

namespace {

using runlens::test::memoryOracle;

std::string gzip(const std::string& plain)
{
    z_stream zs {};
    deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&zs, uLong(plain.size())) + 32, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data()));
    zs.avail_in = uInt(plain.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = uInt(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

// Pre-existing tensors (ts -1) start at the first real time (5); INCREMENT_VERSION writes -old/+new.
// By hand: at 5 parameter 100 + activation 50 = 150 (the -100/+100 pair cancels); at 9 the activation
// is destroyed: 100.
const std::string kSmallRaw = "[[-1, 1, 100, 0], [5, 2, 50, 4], [5, 3, -100, 0], [5, 3, 100, 0], [9, 4, -50, 4]]";

} // namespace

class TstMemoryTimelineReader : public QObject
{
    Q_OBJECT
private slots:
    void inputs_data();
    void inputs();
    void coalesced();
    void unreadable();
    void sample();
};

void TstMemoryTimelineReader::inputs_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("samples");
    QTest::addColumn<double>("lastTotal");
    QTest::addColumn<bool>("diagnostic");

    const QByteArray raw = QByteArray::fromStdString(kSmallRaw);
    QTest::newRow("plain") << raw << int(ImportStatus::Ok) << 2 << 100.0 << false;
    QTest::newRow("gzip") << QByteArray::fromStdString(gzip(kSmallRaw)) << int(ImportStatus::Ok) << 2 << 100.0 << false;
    QTest::newRow("spaces and floats") << QByteArray("\n [ [ -1 ,1, 1e2, 0 ],\n[5.0,2,50,4]]\n")
                                       << int(ImportStatus::Ok) << 1 << 150.0 << false;
    QTest::newRow("null category is unknown")
        << QByteArray("[[3, 2, 8, null]]") << int(ImportStatus::Ok) << 1 << 8.0 << false;
    // Truncated after the fourth tuple: the first four are kept, all at ts 5.
    QTest::newRow("truncated") << raw.left(raw.indexOf("[9")) << int(ImportStatus::Partial) << 1 << 150.0 << true;
    QTest::newRow("truncated gzip") << QByteArray::fromStdString(gzip(kSmallRaw)).left(20) << int(ImportStatus::Failed)
                                    << 0 << 0.0 << true;
    QTest::newRow("corrupt tuple") << QByteArray("[[1, 2, 10, 0], [2, 2, x, 0], [3, 2, 10, 0]]")
                                   << int(ImportStatus::Partial) << 1 << 10.0 << true;
    QTest::newRow("five fields") << QByteArray("[[1, 2, 10, 0, 9]]") << int(ImportStatus::Failed) << 0 << 0.0 << true;
    QTest::newRow("object") << QByteArray("{\"traceEvents\": []}") << int(ImportStatus::Failed) << 0 << 0.0 << true;
    QTest::newRow("empty array") << QByteArray("[]") << int(ImportStatus::Ok) << 0 << 0.0 << false;
    QTest::newRow("empty file") << QByteArray() << int(ImportStatus::Failed) << 0 << 0.0 << true;
}

void TstMemoryTimelineReader::inputs()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, status);
    QFETCH(int, samples);
    QFETCH(double, lastTotal);
    QFETCH(bool, diagnostic);
    const QString name = QStringLiteral("/runs/a/memory.raw.json.gz");
    const MemoryReadResult result = readMemoryTimelineBytes(bytes.toStdString(), name);
    QVERIFY(result.profile);
    QCOMPARE(int(result.status), status);
    QCOMPARE(!result.diagnostics.isEmpty(), diagnostic);
    for (const Diagnostic& d : result.diagnostics)
        QCOMPARE(d.file, name);
    QCOMPARE(result.profile->kind, MemorySourceKind::MemoryTimeline);
    if (samples == 0) {
        QVERIFY(result.profile->empty());
        return;
    }
    QCOMPARE(result.profile->devices.size(), std::size_t(1));
    const MemoryDevice& device = result.profile->devices.front();
    QCOMPARE(int(device.allocated.size()), samples);
    QCOMPARE(device.allocated.bytes.back(), lastTotal);
    QCOMPARE(device.categories.size(), std::size_t(kMemoryCategoryCount));
    for (const MemorySeries& category : device.categories)
        QCOMPARE(category.x, device.allocated.x);
}

void TstMemoryTimelineReader::coalesced()
{
    // The `[times, sizes]` form: times in µs, a leading unused slot then one size per category.
    const std::string json = "[[1, 2], [[0, 10, 0, 0, 0, 0, 0, 0, 5], [0, 20, 0, 0, 0, 7, 0, 0, 5]]]";
    const MemoryReadResult result = readMemoryTimelineBytes(json, QStringLiteral("timeline.json"));
    QCOMPARE(result.status, ImportStatus::Ok);
    const MemoryDevice& device = result.profile->devices.front();
    QCOMPARE(device.allocated.x, std::vector<std::int64_t>({ 1000, 2000 }));
    QCOMPARE(device.allocated.bytes, std::vector<double>({ 15, 32 }));
    const auto totals = categoryTotalsAt(device, 2000);
    QCOMPARE(totals[int(MemoryCategory::Parameter)], 20.0);
    QCOMPARE(totals[int(MemoryCategory::Activation)], 7.0);
    QCOMPARE(totals[int(MemoryCategory::Unknown)], 5.0);
    QCOMPARE(categoryTotalsAt(device, 1500)[int(MemoryCategory::Parameter)], 10.0);
}

void TstMemoryTimelineReader::unreadable()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("missing.raw.json.gz"));
    const MemoryReadResult result = readMemoryTimeline(path);
    QVERIFY(result.profile);
    QCOMPARE(result.status, ImportStatus::Failed);
    QVERIFY(!result.diagnostics.isEmpty());
    QCOMPARE(result.diagnostics.front().file, path);
}

void TstMemoryTimelineReader::sample()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QStringLiteral("/traces/memory_timeline/memory_timeline.raw.gz");
    const QJsonObject expected = memoryOracle(QStringLiteral("timeline"), path);
    QVERIFY2(!expected.isEmpty(), "the python oracle failed");

    const MemoryReadResult result = readMemoryTimeline(path);
    QCOMPARE(result.status, ImportStatus::Ok);
    QVERIFY(result.diagnostics.isEmpty());
    QCOMPARE(result.profile->devices.size(), std::size_t(1));
    const MemoryDevice& device = result.profile->devices.front();
    QCOMPARE(qint64(device.events.size()), expected.value(QStringLiteral("tuples")).toInteger());
    QCOMPARE(device.events.size(), std::size_t(16845));
    QCOMPARE(device.allocated.x.front(), std::int64_t(expected.value(QStringLiteral("first_ns")).toInteger()));

    const MemoryPeak peak = devicePeak(device);
    QCOMPARE(std::int64_t(peak.bytes), std::int64_t(expected.value(QStringLiteral("peak")).toInteger()));
    QVERIFY(peak.bytes > 3.0e9 && peak.bytes < 3.1e9); // "about 3.08 GB"
    QCOMPARE(peak.x, std::int64_t(expected.value(QStringLiteral("peak_ns")).toInteger()));
    const auto totals = categoryTotalsAt(device, peak.x);
    const QJsonArray categories = expected.value(QStringLiteral("categories")).toArray();
    QCOMPARE(categories.size(), kMemoryCategoryCount);
    double sum = 0;
    for (int c = 0; c < kMemoryCategoryCount; ++c) {
        QCOMPARE(std::int64_t(totals[std::size_t(c)]), std::int64_t(categories[c].toInteger()));
        sum += totals[std::size_t(c)];
    }
    QCOMPARE(sum, peak.bytes);
    QCOMPARE(std::int64_t(device.allocated.bytes.back()),
             std::int64_t(expected.value(QStringLiteral("final")).toInteger()));
    QCOMPARE(device.categories[int(MemoryCategory::Activation)].name, memoryCategoryName(MemoryCategory::Activation));
}

QTEST_GUILESS_MAIN(TstMemoryTimelineReader)
#include "tst_memorytimelinereader.moc"
