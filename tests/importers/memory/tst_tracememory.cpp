#include "importers/memory/tracememory.h"
#include "importers/trace/chrometracereader.h"
#include "models/memory/memoryanalysis.h"
#include "models/trace/tracestore.h"

#include "tests/importers/memory/memoryoracle.h"
#include "tests/testutils.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>

using namespace runlens;
using namespace runlens::importers::memory;
using namespace runlens::models;
using namespace runlens::models::memory;

namespace {

using runlens::test::memoryOracle;

const MemoryDevice* findDevice(const MemoryProfile& profile, int type, int id)
{
    for (const MemoryDevice& device : profile.devices) {
        if (device.deviceType == type && (type == 0 || device.deviceId == id))
            return &device;
    }
    return nullptr;
}

} // namespace

class TstTraceMemory : public QObject
{
    Q_OBJECT
private slots:
    void smallTrace();
    void noMemory();
    void canceled();
    void memory2022_data();
    void memory2022();
    void relative2021();
};

void TstTraceMemory::smallTrace()
{
    const QString path = QStringLiteral(RUNLENS_TEST_DATA_DIR "/memory/small_memory_trace.json");
    const importers::trace::ChromeTraceResult trace = importers::trace::ChromeTraceReader::read({ path });
    QVERIFY(trace.store);
    const MemoryReadResult result = memoryFromTrace(*trace.store);
    QVERIFY(result.profile);
    const MemoryProfile& profile = *result.profile;
    QCOMPARE(profile.kind, MemorySourceKind::KinetoTrace);
    QCOMPARE(profile.devices.size(), std::size_t(2));

    // The event whose Bytes is a string is skipped, named by file, and the rest is kept.
    QCOMPARE(result.status, ImportStatus::Partial);
    QCOMPARE(result.diagnostics.size(), 1);
    QCOMPARE(result.diagnostics.front().file, path);
    QVERIFY(result.diagnostics.front().offset > 0);

    const MemoryDevice& cpu = profile.devices[0];
    QCOMPARE(cpu.label, QStringLiteral("cpu"));
    QCOMPARE(cpu.deviceId, -1);
    QCOMPARE(cpu.capacity, std::int64_t(0));
    QCOMPARE(cpu.events.size(), std::size_t(1));
    QCOMPARE(cpu.allocated.bytes, std::vector<double>({ 16 }));

    const MemoryDevice& gpu = profile.devices[1];
    QCOMPARE(gpu.label, QStringLiteral("cuda:1"));
    QCOMPARE(gpu.deviceType, 1);
    QCOMPARE(gpu.deviceId, 1);
    QCOMPARE(gpu.rank, 3);
    QCOMPARE(gpu.capacity, std::int64_t(2000000)); // computeProperties entry with id 1
    QVERIFY(!gpu.relative);
    QCOMPARE(gpu.allocated.x, std::vector<std::int64_t>({ 25000, 60000, 80000 }));
    QCOMPARE(gpu.allocated.bytes, std::vector<double>({ 100, 0, 300 }));
    QCOMPARE(gpu.reserved.bytes, std::vector<double>({ 2048, 2048, 4096 }));
    QCOMPARE(gpu.events.size(), std::size_t(3));
    QCOMPARE(gpu.events[0].bytes, std::int64_t(100));
    QCOMPARE(gpu.events[0].address, std::uint64_t(4096));
    QCOMPARE(gpu.events[1].bytes, std::int64_t(-100));
    QCOMPARE(gpu.events[2].address, std::uint64_t(8192));
    // Each event points at its instant on the thread it came from.
    for (const MemoryEvent& event : gpu.events) {
        QVERIFY(event.track >= 0);
        const models::trace::Track& track = trace.store->tracks()[std::size_t(event.track)];
        QCOMPARE(track.start[event.slice], event.x);
        QCOMPARE(trace.store->strings().view(track.name_[event.slice]), std::string_view("[memory]"));
    }
    QCOMPARE(gpu.ooms.size(), std::size_t(1));
    QCOMPARE(gpu.ooms[0].x, std::int64_t(70000));
    QCOMPARE(gpu.ooms[0].bytes, std::int64_t(5000000));

    // The first allocation happened inside `inner`, nested in `outer`.
    const MemoryContext context = memoryContextAt(*trace.store, gpu, 25000);
    QVERIFY(context.hasOp());
    QCOMPARE(context.chain.size(), std::size_t(2));
    QCOMPARE(contextOpName(*trace.store, context), QStringLiteral("inner"));
}

void TstTraceMemory::noMemory()
{
    importers::trace::ChromeTraceResult trace = importers::trace::ChromeTraceReader::readBytes(
        std::string("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"cat\": \"cpu_op\", \"pid\": 1, "
                    "\"tid\": 1, \"ts\": 1, \"dur\": 2}]}"),
        QStringLiteral("plain.json"));
    QVERIFY(trace.store);
    const MemoryReadResult result = memoryFromTrace(*trace.store);
    QVERIFY(result.profile);
    QVERIFY(result.profile->empty());
    QCOMPARE(result.status, ImportStatus::Ok);
    QVERIFY(result.diagnostics.isEmpty());
}

void TstTraceMemory::canceled()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const importers::trace::ChromeTraceResult trace = importers::trace::ChromeTraceReader::read(
        { samples + QStringLiteral("/traces/kineto/2022_memory_rank1_of_2/df_index_resolver.json.gz") });
    QVERIFY(trace.store);
    const MemoryReadResult result = memoryFromTrace(*trace.store, [] { return true; });
    QCOMPARE(result.status, ImportStatus::Canceled);
    QVERIFY(result.profile);
}

void TstTraceMemory::memory2022_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("totalEvents");
    QTest::addColumn<int>("devices");
    QTest::newRow("2022_memory_rank1_of_2")
        << "traces/kineto/2022_memory_rank1_of_2/df_index_resolver.json.gz" << 28010 << 2;
    QTest::newRow("pytorch_cnn_baseline")
        << "runs/pytorch_cnn_baseline/profiler/worker0.1795321630770.pt.trace.kinetofmt.json" << -1 << 1;
    QTest::newRow("pytorch_cnn_baseline gz")
        << "runs/pytorch_cnn_baseline/profiler/worker0.1795321630770.pt.trace.kinetofmt.json.gz" << -1 << 1;
}

void TstTraceMemory::memory2022()
{
    QFETCH(QString, file);
    QFETCH(int, totalEvents);
    QFETCH(int, devices);
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path = samples + QLatin1Char('/') + file;
    const QJsonObject expected = memoryOracle(QStringLiteral("kineto"), path);
    QVERIFY2(!expected.isEmpty(), "the python oracle failed");

    const importers::trace::ChromeTraceResult trace = importers::trace::ChromeTraceReader::read({ path });
    QVERIFY(trace.store);
    const MemoryReadResult result = memoryFromTrace(*trace.store);
    QCOMPARE(result.status, ImportStatus::Ok);
    const MemoryProfile& profile = *result.profile;
    const QJsonArray oracleDevices = expected.value(QStringLiteral("devices")).toArray();
    QCOMPARE(int(profile.devices.size()), devices);
    QCOMPARE(oracleDevices.size(), devices);

    std::size_t events = 0;
    for (const QJsonValue& value : oracleDevices) {
        const QJsonObject o = value.toObject();
        const int type = o.value(QStringLiteral("type")).toInt();
        const MemoryDevice* device = findDevice(profile, type, o.value(QStringLiteral("id")).toInt());
        QVERIFY(device);
        QCOMPARE(device->label, type == 0 ? QStringLiteral("cpu") : QStringLiteral("cuda:%1").arg(device->deviceId));
        QCOMPARE(qint64(device->events.size()), o.value(QStringLiteral("events")).toInteger());
        QCOMPARE(qint64(device->ooms.size()), o.value(QStringLiteral("ooms")).toInteger());
        QCOMPARE(device->capacity, std::int64_t(o.value(QStringLiteral("capacity")).toInteger()));
        QCOMPARE(device->rank, int(o.value(QStringLiteral("rank")).toInt(-1)));
        QVERIFY(!device->relative);
        QVERIFY(std::is_sorted(device->allocated.x.begin(), device->allocated.x.end()));
        events += device->events.size();

        // The peak of the curve is the largest Total Allocated in the file, at the time python finds it.
        const MemoryPeak peak = devicePeak(*device);
        QVERIFY(peak.valid);
        QCOMPARE(std::int64_t(peak.bytes), std::int64_t(o.value(QStringLiteral("peak")).toInteger()));
        QCOMPARE(peak.x, std::int64_t(o.value(QStringLiteral("peak_ns")).toInteger()));
        const MemoryPeak reservedPeak = seriesPeak(device->reserved);
        QCOMPARE(std::int64_t(reservedPeak.bytes), std::int64_t(o.value(QStringLiteral("reserved_peak")).toInteger()));

        // The op at the peak: innermost CPU op containing the peak's event on its thread.
        const MemoryContext context = memoryContextAt(*trace.store, *device, peak.x);
        QCOMPARE(contextOpName(*trace.store, context), o.value(QStringLiteral("peak_op")).toString());
        // Self amounts per op as tb_plugin's memory view counts them, against python's own sweep.
        const MemoryOpTable table = memoryOpTable(*trace.store, *device);
        const QJsonObject selfs = o.value(QStringLiteral("self")).toObject();
        int rowsWithSelf = 0;
        for (const MemoryOpStats& row : table.rows) {
            if (row.self.allocations + row.self.frees == 0)
                continue;
            ++rowsWithSelf;
            const QString name = trace.store->strings().text(row.name);
            const QJsonArray e = selfs.value(name).toArray();
            QVERIFY2(e.size() == 4, qPrintable(name));
            QCOMPARE(qint64(row.self.allocations), e[0].toInteger());
            QCOMPARE(qint64(row.self.allocatedBytes), e[1].toInteger());
            QCOMPARE(qint64(row.self.frees), e[2].toInteger());
            QCOMPARE(qint64(row.self.freedBytes), e[3].toInteger());
            QVERIFY(row.total.allocatedBytes >= row.self.allocatedBytes);
        }
        QCOMPARE(rowsWithSelf, selfs.size());
        QVERIFY(rowsWithSelf > 0);
        if (!trace.store->steps().empty() && context.step >= 0) {
            const models::trace::Step& step = trace.store->steps()[std::size_t(context.step)];
            QVERIFY(step.start <= peak.x && peak.x < step.end);
        }
    }
    if (totalEvents >= 0)
        QCOMPARE(events, std::size_t(totalEvents));
}

void TstTraceMemory::relative2021()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString path
        = samples + QStringLiteral("/traces/kineto/2021_resnet50_v100/worker0.1623143089861.pt.trace.json.gz");
    const QJsonObject expected = memoryOracle(QStringLiteral("kineto"), path);
    QVERIFY2(!expected.isEmpty(), "the python oracle failed");
    const importers::trace::ChromeTraceResult trace = importers::trace::ChromeTraceReader::read({ path });
    QVERIFY(trace.store);
    const MemoryReadResult result = memoryFromTrace(*trace.store);
    QCOMPARE(result.status, ImportStatus::Ok);
    const QJsonArray oracleDevices = expected.value(QStringLiteral("devices")).toArray();
    QCOMPARE(result.profile->devices.size(), std::size_t(oracleDevices.size()));
    for (const QJsonValue& value : oracleDevices) {
        const QJsonObject o = value.toObject();
        const MemoryDevice* device = findDevice(*result.profile, o.value(QStringLiteral("type")).toInt(),
                                                o.value(QStringLiteral("id")).toInt());
        QVERIFY(device);
        // Bytes only: a running sum from an unknown baseline.
        QVERIFY(device->relative);
        QVERIFY(device->reserved.empty());
        QCOMPARE(qint64(device->allocated.size()), o.value(QStringLiteral("events")).toInteger());
        QCOMPARE(std::int64_t(device->allocated.bytes.back()),
                 std::int64_t(o.value(QStringLiteral("final_sum")).toInteger()));
        QCOMPARE(std::int64_t(seriesPeak(device->allocated).bytes),
                 std::int64_t(o.value(QStringLiteral("max_sum")).toInteger()));
    }
    const MemoryDevice* gpu = findDevice(*result.profile, 1, 0);
    QVERIFY(gpu);
    QCOMPARE(gpu->label, QStringLiteral("cuda:0"));
    QCOMPARE(gpu->capacity, std::int64_t(34084028416)); // deviceProperties[0].totalGlobalMem of the file
}

QTEST_GUILESS_MAIN(TstTraceMemory)
#include "tst_tracememory.moc"
