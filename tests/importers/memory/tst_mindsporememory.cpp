#include "importers/memory/mindsporememory.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers::memory;
using namespace runlens::models;
using namespace runlens::models::memory;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;

bool mentions(const Diagnostics& diagnostics, const QString& text)
{
    for (const Diagnostic& d : diagnostics) {
        if (d.message.contains(text))
            return true;
    }
    return false;
}

} // namespace

class TestMindSporeMemory : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void summary();
    void details();
    void detailsPerNodeBreakdownsAndOldKeys();
    void cpuRecord();
    void memoryRecordByHeaderWithComponents();
    void recordMissingColumns();
    void recordBadRowsKeepTheRest();
    void operatorMemory();
    void operatorMemoryMissingName();
    void badInputs_data();
    void badInputs();
    void wrongTypesAreWarnings();
    void deepNestingIsRefused_data();
    void deepNestingIsRefused();
    void names();

private:
    QString write(const QString& name, const QByteArray& bytes);
    QString writeJson(const QString& name, const QJsonValue& value);
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestMindSporeMemory::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

QString TestMindSporeMemory::write(const QString& name, const QByteArray& bytes)
{
    const QString path = m_dir->filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(bytes);
    return path;
}

QString TestMindSporeMemory::writeJson(const QString& name, const QJsonValue& value)
{
    const QJsonDocument document = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    return write(name, document.toJson());
}

void TestMindSporeMemory::summary()
{
    // As MindSpore writes it: capacity = total_mem / 2^30, peak and static in the same GiB.
    const QString path = writeJson(QStringLiteral("memory_usage_summary_3.json"),
                                   QJsonObject { { "capacity", 31.5 },
                                                 { "allocations", 120 },
                                                 { "deallocations", 120 },
                                                 { "peak_mem", 2.25 },
                                                 { "static_mem", 0.5 } });
    const MemoryReadResult result = readMindSporeMemory(path);
    QCOMPARE(result.status, ImportStatus::Ok);
    QVERIFY(result.diagnostics.isEmpty());
    QCOMPARE(result.profile->kind, MemorySourceKind::MindSporeSummary);
    QCOMPARE(result.profile->devices.size(), std::size_t(1));
    const MemoryDevice& device = result.profile->devices.front();
    QCOMPARE(device.label, QStringLiteral("Ascend 3"));
    QCOMPARE(device.deviceId, 3);
    QCOMPARE(device.capacity, qint64(31.5 * kGiB));
    QCOMPARE(device.reportedPeak, qint64(2.25 * kGiB));
    QCOMPARE(device.staticBytes, qint64(0.5 * kGiB));
}

void TestMindSporeMemory::details()
{
    // Graph 1: three nodes; the tensors' sizes and the lines are GiB. Breakdowns as the 1.x parser writes them:
    // one list, the tensors alive at the node it chose.
    const double t0 = 0.25, t1 = 0.125, w = 0.0625;
    const double staticMem = 0.5;
    const QJsonArray lines { staticMem + t0, staticMem + t0 + t1 + w, staticMem + t1 };
    QJsonArray nodes;
    nodes << QJsonObject { { "node_id", 0 }, { "name", "Conv2D-op1" }, { "fullname", "Default/conv1/Conv2D-op1" },
                           { "size", t0 },   { "allocations", 1 },     { "allocated", t0 } };
    nodes << QJsonObject { { "node_id", 1 },   { "name", "MatMul-op2" }, { "fullname", "Default/fc/MatMul-op2" },
                           { "size", t1 + w }, { "allocations", 2 },     { "allocated", t1 + w } };
    nodes << QJsonObject { { "node_id", 2 }, { "name", "ReLU-op3" }, { "fullname", "Default/ReLU-op3" },
                           { "size", 0.0 },  { "allocations", 0 },   { "allocated", -(t0 + w) } };
    QJsonArray breakdown;
    breakdown << QJsonObject { { "tensor_name", "Conv2D-op1:0" },
                               { "tensor_id", 7 },
                               { "size", t0 },
                               { "type", "output" },
                               { "shape", QJsonArray { 32, 64, 56, 56 } },
                               { "format", "NC1HWC0" },
                               { "data_type", "float16" },
                               { "life_start", 0 },
                               { "life_end", 1 } };
    breakdown << QJsonObject { { "tensor_name", "MatMul-op2:0" },
                               { "tensor_id", 8 },
                               { "size", t1 },
                               { "type", "output" },
                               { "shape", "32,1000" },
                               { "format", "DefaultFormat" },
                               { "data_type", "float32" },
                               { "life_start", 1 },
                               { "life_end", 2 } };
    breakdown << QJsonObject { { "tensor_name", "" }, { "tensor_id", 9 },  { "size", w },
                               { "type", 1 },         { "life_start", 1 }, { "life_end", 1 } };
    const QJsonObject graph { { "graph_id", 1 },          { "static_mem", staticMem }, { "lines", lines },
                              { "nodes", nodes },         { "fp_start", 0 },           { "bp_end", 2 },
                              { "breakdowns", breakdown } };
    const QString path = writeJson(QStringLiteral("memory_usage_details_0.json"), QJsonObject { { "1", graph } });

    const MemoryReadResult result = readMindSporeMemory(path);
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(result.diagnostics.value(0).toString()));
    QCOMPARE(result.status, ImportStatus::Ok);
    const MemoryProfile& profile = *result.profile;
    QCOMPARE(profile.axis, MemoryAxis::NodeIndex);
    QCOMPARE(profile.devices.size(), std::size_t(1));
    const MemoryDevice& device = profile.devices.front();
    QCOMPARE(device.label, QStringLiteral("graph 1"));
    QCOMPARE(device.staticBytes, qint64(staticMem * kGiB));
    QCOMPARE(device.allocated.x, (std::vector<std::int64_t> { 0, 1, 2 }));
    QCOMPARE(
        device.allocated.bytes,
        (std::vector<double> { (staticMem + t0) * kGiB, (staticMem + t0 + t1 + w) * kGiB, (staticMem + t1) * kGiB }));

    QCOMPARE(device.nodes.size(), std::size_t(3));
    QCOMPARE(device.nodes[1].name, QStringLiteral("MatMul-op2"));
    QCOMPARE(device.nodes[1].fullName, QStringLiteral("Default/fc/MatMul-op2"));
    QCOMPARE(device.nodes[1].bytes, qint64((t1 + w) * kGiB));
    QCOMPARE(device.nodes[1].allocations, 2);
    QCOMPARE(device.nodes[2].change, qint64(-(t0 + w) * kGiB));

    QCOMPARE(device.lifetimes.size(), std::size_t(3));
    const TensorLifetime& conv = device.lifetimes[0];
    QCOMPARE(conv.name, QStringLiteral("Conv2D-op1:0"));
    QCOMPARE(conv.bytes, qint64(t0 * kGiB));
    QCOMPARE(conv.start, 0);
    QCOMPARE(conv.end, 1);
    QCOMPARE(conv.shape, QStringLiteral("32,64,56,56"));
    QCOMPARE(conv.format, QStringLiteral("NC1HWC0"));
    QCOMPARE(conv.dataType, QStringLiteral("float16"));
    QCOMPARE(conv.type, QStringLiteral("output"));
    QCOMPARE(conv.node, 0);
    QCOMPARE(device.lifetimes[1].node, 1);
    QCOMPARE(device.lifetimes[1].shape, QStringLiteral("32,1000"));
    QCOMPARE(device.lifetimes[2].node, -1); // a workspace without a name: no node
    QCOMPARE(device.lifetimes[2].type, QStringLiteral("1"));
    QCOMPARE(device.nodes[0].lifetimes, (std::vector<int> { 0 }));
    QCOMPARE(device.nodes[1].lifetimes, (std::vector<int> { 1 }));
}

void TestMindSporeMemory::detailsPerNodeBreakdownsAndOldKeys()
{
    // Research notes describe per-node breakdown lists and `mem_change`/`deallocations` node keys; no `lines`:
    // the nodes' sizes make the curve. Two graphs -> two devices.
    QJsonArray nodes;
    nodes << QJsonObject { { "name", "A" }, { "size", 1.0 }, { "deallocations", 3 }, { "mem_change", 1.0 } };
    nodes << QJsonObject { { "name", "B" }, { "size", 2.0 }, { "mem_change", 1.0 } };
    const QJsonObject tensorA {
        { "tensor_name", "A:0" }, { "tensor_id", 1 }, { "size", 1.0 }, { "life_start", 0 }, { "life_end", 1 }
    };
    const QJsonObject tensorB {
        { "tensor_name", "B:0" }, { "tensor_id", 2 }, { "size", 1.0 }, { "life_start", 1 }, { "life_end", 1 }
    };
    const QJsonArray breakdowns { QJsonArray { tensorA }, QJsonArray { tensorA, tensorB } };
    const QJsonObject graph3 { { "graph_id", 3 }, { "nodes", nodes }, { "breakdowns", breakdowns } };
    const QJsonObject graph4 { { "graph_id", 4 }, { "nodes", QJsonArray {} } };
    const QString path
        = writeJson(QStringLiteral("memory_usage_details_1.json"), QJsonObject { { "3", graph3 }, { "4", graph4 } });
    const MemoryReadResult result = readMindSporeMemory(path);
    QCOMPARE(result.status, ImportStatus::Ok);
    QCOMPARE(result.profile->devices.size(), std::size_t(2));
    const MemoryDevice& device = result.profile->devices.front();
    QCOMPARE(device.label, QStringLiteral("graph 3"));
    QCOMPARE(device.allocated.bytes, (std::vector<double> { 1.0 * kGiB, 2.0 * kGiB }));
    QCOMPARE(device.nodes[0].deallocations, 3);
    QCOMPARE(device.nodes[0].change, qint64(kGiB));
    QCOMPARE(device.lifetimes.size(), std::size_t(2)); // A:0 listed twice, kept once
    QCOMPARE(device.lifetimes[1].node, 1);
    QCOMPARE(result.profile->devices[1].label, QStringLiteral("graph 4"));
}

void TestMindSporeMemory::cpuRecord()
{
    // No unit on the sizes: bytes. Timestamps in ns.
    const QString path = write(QStringLiteral("cpu_ms_memory_record_0.txt"),
                               "Timestamp(ns),Total Allocated,Total Reserved,Total Active\n"
                               "1700000000000000100,1024,4096,1024\n"
                               "1700000000000000200,3072,4096,2048\n"
                               "1700000000000000300,512,8192,512\n");
    const MemoryReadResult result = readMindSporeMemory(path);
    QCOMPARE(result.status, ImportStatus::Ok);
    QCOMPARE(result.profile->kind, MemorySourceKind::MindSporeRecord);
    QCOMPARE(result.profile->axis, MemoryAxis::TimeNs);
    QCOMPARE(result.profile->devices.size(), std::size_t(1));
    const MemoryDevice& device = result.profile->devices.front();
    QCOMPARE(device.label, QStringLiteral("cpu"));
    const std::vector<std::int64_t> x { 1700000000000000100, 1700000000000000200, 1700000000000000300 };
    QCOMPARE(device.allocated.x, x);
    QCOMPARE(device.allocated.bytes, (std::vector<double> { 1024, 3072, 512 }));
    QCOMPARE(device.reserved.bytes, (std::vector<double> { 4096, 4096, 8192 }));
    QCOMPARE(device.active.bytes, (std::vector<double> { 1024, 2048, 512 }));
}

void TestMindSporeMemory::memoryRecordByHeaderWithComponents()
{
    // Columns in another order, µs with fractions, MB; two components of one device and a second device.
    // Rows out of order in time are sorted.
    const QString path = write(QStringLiteral("memory_record.csv"),
                               "Device Type,Total Reserved(MB),Component,Timestamp(us),Total Allocated(MB)\r\n"
                               "NPU:0,100,APP,1700000000000001.5,40.5\r\n"
                               "NPU:0,20,PTA,1700000000000000.25,10\r\n"
                               "NPU:0,100,APP,1700000000000000.001,30\r\n"
                               "NPU:1,8,PTA,1700000000000002,2\r\n");
    const MemoryReadResult result = readMindSporeMemory(path);
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(result.diagnostics.value(0).toString()));
    const MemoryProfile& profile = *result.profile;
    QCOMPARE(profile.devices.size(), std::size_t(3));
    QCOMPARE(profile.devices[0].label, QStringLiteral("NPU:0 (APP)"));
    QCOMPARE(profile.devices[1].label, QStringLiteral("NPU:0 (PTA)"));
    QCOMPARE(profile.devices[2].label, QStringLiteral("NPU:1 (PTA)"));
    const MemoryDevice& app = profile.devices[0];
    QCOMPARE(app.allocated.x, (std::vector<std::int64_t> { 1700000000000000001, 1700000000000001500 }));
    QCOMPARE(app.allocated.bytes, (std::vector<double> { 30 * kMiB, 40.5 * kMiB }));
    QCOMPARE(app.reserved.bytes, (std::vector<double> { 100 * kMiB, 100 * kMiB }));
    QVERIFY(app.active.empty());
    QCOMPARE(profile.devices[1].allocated.x, (std::vector<std::int64_t> { 1700000000000000250 }));
}

void TestMindSporeMemory::recordMissingColumns()
{
    const QString noTime = write(QStringLiteral("memory_record.csv"), "Time,Total Allocated(MB)\n1,2\n");
    const MemoryReadResult a = readMindSporeMemory(noTime);
    QCOMPARE(a.status, ImportStatus::Failed);
    QVERIFY(mentions(a.diagnostics, QStringLiteral("'Timestamp'")));
    QCOMPARE(a.diagnostics.first().file, noTime);

    const QString noCurves = write(QStringLiteral("cpu_ms_memory_record_2.txt"), "Timestamp(ns),Used\n1,2\n");
    const MemoryReadResult b = readMindSporeMemory(noCurves);
    QCOMPARE(b.status, ImportStatus::Failed);
    QVERIFY(mentions(b.diagnostics, QStringLiteral("Total Allocated")));

    // Reserved only: kept, with a warning naming the missing column.
    const QString reservedOnly
        = write(QStringLiteral("cpu_ms_memory_record_3.txt"), "Timestamp(ns),Total Reserved(KB)\n5,2\n");
    const MemoryReadResult c = readMindSporeMemory(reservedOnly);
    QCOMPARE(c.status, ImportStatus::Partial);
    QVERIFY(mentions(c.diagnostics, QStringLiteral("'Total Allocated'")));
    QCOMPARE(c.profile->devices.front().reserved.bytes, (std::vector<double> { 2048 }));

    const QString badUnit
        = write(QStringLiteral("cpu_ms_memory_record_4.txt"), "Timestamp(fortnights),Total Allocated\n5,2\n");
    const MemoryReadResult d = readMindSporeMemory(badUnit);
    QCOMPARE(d.status, ImportStatus::Failed);
    QVERIFY(mentions(d.diagnostics, QStringLiteral("fortnights")));
}

void TestMindSporeMemory::recordBadRowsKeepTheRest()
{
    QByteArray text = "Timestamp(ns),Total Allocated,Total Reserved\n10,1,2\nabc,1,2\n20,x,4\n";
    for (int i = 0; i < 10; ++i)
        text += "bad\n";
    text += "30,3,6\n";
    const QString path = write(QStringLiteral("cpu_ms_memory_record_0.txt"), text);
    const MemoryReadResult result = readMindSporeMemory(path);
    QCOMPARE(result.status, ImportStatus::Partial);
    const MemoryDevice& device = result.profile->devices.front();
    QCOMPARE(device.allocated.x, (std::vector<std::int64_t> { 10, 30 }));
    QCOMPARE(device.reserved.x, (std::vector<std::int64_t> { 10, 20, 30 }));
    // The first problems name their line and column; the rest are counted.
    QCOMPARE(result.diagnostics.first().line, 3);
    QVERIFY(result.diagnostics.first().message.contains(QStringLiteral("Timestamp(ns)")));
    QCOMPARE(result.diagnostics[1].line, 4);
    QVERIFY(result.diagnostics[1].message.contains(QStringLiteral("'Total Allocated'")));
    QVERIFY(mentions(result.diagnostics, QStringLiteral("7 more rows")));
}

void TestMindSporeMemory::operatorMemory()
{
    const QString path = write(
        QStringLiteral("operator_memory_0.csv"),
        "Name,Size(KB),Allocation Time(us),Duration(us),Allocation Total Allocated(MB),Allocation Total Reserved(MB),"
        "Release Total Allocated(MB),Release Total Reserved(MB),Device\n"
        "Default/network/Conv2D-op12,1024,1700000000000000.5,250.25,10,20,9,20,NPU:0\n"
        "\"Default/net/Add-op1,fused\",0.5,1700000000000100,,10,20,,,NPU:0\n"
        "Default/network/MatMul-op3,2,1700000000000200,-1,10,20,9,20,NPU:1\n");
    const MemoryReadResult result = readMindSporeMemory(path);
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(result.diagnostics.value(0).toString()));
    QCOMPARE(result.profile->devices.size(), std::size_t(2));
    const MemoryDevice& npu0 = result.profile->devices[0];
    QCOMPARE(npu0.label, QStringLiteral("NPU:0"));
    QCOMPARE(npu0.operators.size(), std::size_t(2));
    const OperatorMemoryRecord& conv = npu0.operators[0];
    QCOMPARE(conv.name, QStringLiteral("Default/network/Conv2D-op12"));
    QCOMPARE(conv.bytes, qint64(1024 * 1024));
    QCOMPARE(conv.allocationTime, qint64(1700000000000000500));
    QCOMPARE(conv.duration, qint64(250250));
    QCOMPARE(conv.device, QStringLiteral("NPU:0"));
    QCOMPARE(npu0.operators[1].name, QStringLiteral("Default/net/Add-op1,fused"));
    QCOMPARE(npu0.operators[1].bytes, qint64(512));
    QCOMPARE(npu0.operators[1].duration, qint64(-1));
    QCOMPARE(result.profile->devices[1].operators.front().duration, qint64(-1));
}

void TestMindSporeMemory::operatorMemoryMissingName()
{
    const QString path = write(QStringLiteral("operator_memory.csv"), "Op,Size(KB)\nx,1\n");
    const MemoryReadResult result = readMindSporeMemory(path);
    QCOMPARE(result.status, ImportStatus::Failed);
    QVERIFY(mentions(result.diagnostics, QStringLiteral("'Name'")));
    QCOMPARE(result.diagnostics.first().file, path);

    const QString noTimes = write(QStringLiteral("operator_memory_1.csv"), "Name,Size(KB)\nx,1\n,2\n");
    const MemoryReadResult partial = readMindSporeMemory(noTimes);
    QCOMPARE(partial.status, ImportStatus::Partial);
    QCOMPARE(partial.profile->devices.front().operators.size(), std::size_t(1));
    QVERIFY(mentions(partial.diagnostics, QStringLiteral("'Allocation Time'")));
    QVERIFY(mentions(partial.diagnostics, QStringLiteral("line 3")));
}

void TestMindSporeMemory::badInputs_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::newRow("summary not JSON") << "memory_usage_summary_0.json" << QByteArray("{\"capacity\": 3");
    QTest::newRow("summary array") << "memory_usage_summary_0.json" << QByteArray("[1,2]");
    QTest::newRow("details not JSON") << "memory_usage_details_0.json" << QByteArray("nope");
    QTest::newRow("details graph not object") << "memory_usage_details_0.json" << QByteArray("{\"1\": 5}");
    QTest::newRow("record empty") << "memory_record.csv" << QByteArray();
    QTest::newRow("operators empty") << "operator_memory.csv" << QByteArray("\n\n");
    QTest::newRow("binary") << "cpu_ms_memory_record_0.txt" << QByteArray("\x00\x01\x02\xff", 4);
    // Cut right after the header, as a profiler still writing leaves it.
    QTest::newRow("record header only") << "cpu_ms_memory_record_0.txt"
                                        << QByteArray("Timestamp(ns),Total Allocated,Total Reserved\n");
    QTest::newRow("operators header only")
        << "operator_memory_0.csv" << QByteArray("Name,Size(KB),Allocation Time(us)\n");
    QTest::newRow("operators header and a cut row") << "operator_memory_0.csv" << QByteArray("Name,Size(KB)\nConv2D");
}

void TestMindSporeMemory::badInputs()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    const QString path = write(name, bytes);
    const MemoryReadResult result = readMindSporeMemory(path);
    QVERIFY(result.profile);
    QCOMPARE(result.status, ImportStatus::Failed);
    QVERIFY(!result.diagnostics.isEmpty());
    QCOMPARE(result.diagnostics.first().file, path);

    const MemoryReadResult missing = readMindSporeMemory(m_dir->filePath(QStringLiteral("memory_record.csv.gone")));
    QCOMPARE(missing.status, ImportStatus::Failed);
}

void TestMindSporeMemory::names()
{
    for (const char* name :
         { "memory_usage_summary_0.json", "MEMORY_USAGE_DETAILS_12.json", "cpu_ms_memory_record_3.txt",
           "memory_record.csv", "operator_memory.csv", "operator_memory_7.csv" })
        QVERIFY2(isMindSporeMemoryFileName(QLatin1String(name)), name);
    for (const char* name : { "memory_usage_0.pb", "memory_usage_summary.json", "op_memory.csv", "memory_record.txt" })
        QVERIFY2(!isMindSporeMemoryFileName(QLatin1String(name)), name);
}

void TestMindSporeMemory::wrongTypesAreWarnings()
{
    // Each of these made nlohmann's value() throw type_error out of the reader.
    const QByteArray json = R"({"0": {"graph_id": "zero", "static_mem": "lots", "lines": [0.5, "x", 1.0],
        "nodes": [{"name": "a", "size": "big", "allocations": 1e300, "mem_change": [1]},
                  {"name": ["b", 2], "size": 0.25, "allocations": 3, "deallocations": true}],
        "breakdowns": [[{"tensor_name": "a:0", "tensor_id": 7, "size": null, "life_start": "1", "life_end": -1e30,
                         "shape": [[2, 3], 4], "type": {"k": "v"}}]]},
        "1": {"static_mem": 0.5, "nodes": {"not": "a list"}, "lines": 5, "breakdowns": "none"}})";
    const QString path = write(QStringLiteral("memory_usage_details_0.json"), json);
    const MemoryReadResult result = readMindSporeMemory(path);
    QCOMPARE(result.status, ImportStatus::Partial);
    QCOMPARE(result.profile->devices.size(), std::size_t(2));
    for (const Diagnostic& d : result.diagnostics) {
        QCOMPARE(d.file, path);
        QCOMPARE(d.severity, Severity::Warning);
    }
    QVERIFY(mentions(result.diagnostics, QStringLiteral("'graph_id' is not an integer")));
    QVERIFY(mentions(result.diagnostics, QStringLiteral("graph 0: 'static_mem' is not a number")));
    // Five warnings in detail, the rest counted.
    QVERIFY(mentions(result.diagnostics, QStringLiteral("more values of the wrong type")));

    const MemoryDevice& graph = result.profile->devices.front();
    QCOMPARE(graph.label, QStringLiteral("graph 0"));
    QCOMPARE(graph.staticBytes, 0);
    QCOMPARE(graph.allocated.bytes, (std::vector<double> { 0.5 * kGiB, 0.0, kGiB }));
    QCOMPARE(graph.nodes.size(), std::size_t(2));
    QCOMPARE(graph.nodes[0].bytes, 0);
    QCOMPARE(graph.nodes[0].allocations, 0);
    QCOMPARE(graph.nodes[1].name, QStringLiteral("b,2"));
    QCOMPARE(graph.nodes[1].bytes, std::int64_t(0.25 * kGiB));
    QCOMPARE(graph.lifetimes.size(), std::size_t(1));
    QCOMPARE(graph.lifetimes[0].node, 0);
    QCOMPARE(graph.lifetimes[0].shape, QStringLiteral("2,3,4"));
    QCOMPARE(graph.lifetimes[0].type, QStringLiteral(R"({"k":"v"})"));
    const MemoryDevice& other = result.profile->devices.back();
    QCOMPARE(other.label, QStringLiteral("graph 1"));
    QCOMPARE(other.staticBytes, std::int64_t(0.5 * kGiB));
    QVERIFY(other.nodes.empty());

    const QString summaryPath = write(QStringLiteral("memory_usage_summary_0.json"),
                                      R"({"capacity": "31.5", "peak_mem": [1], "static_mem": {}})");
    const MemoryReadResult summary = readMindSporeMemory(summaryPath);
    QCOMPARE(summary.status, ImportStatus::Partial);
    QCOMPARE(summary.diagnostics.size(), 3);
    QVERIFY(mentions(summary.diagnostics, QStringLiteral("the summary: 'capacity' is not a number")));
    QCOMPARE(summary.profile->devices.front().capacity, 0);
}

void TestMindSporeMemory::deepNestingIsRefused_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<qint64>("offset");
    // Nested 100000 deep: the copies and the text of shapes recursed once per level.
    const int depth = 100'000;
    const QByteArray deep = QByteArray(depth, '[') + QByteArray(depth, ']');
    // The offset is that of the bracket opening level 257, after the levels the prefix opened.
    const QByteArray shape = R"({"0": {"nodes": [{"name": "n"}], "breakdowns": [[{"tensor_name": "n:0", "shape": )";
    QTest::newRow("details shape") << "memory_usage_details_0.json" << shape + deep + "}]]}}"
                                   << qint64(shape.size() + 256 - 5);
    const QByteArray nodes = R"({"0": {"nodes": )";
    QTest::newRow("details nodes") << "memory_usage_details_0.json" << nodes + deep + "}}"
                                   << qint64(nodes.size() + 256 - 2);
    const QByteArray summary = R"({"capacity": )";
    QTest::newRow("summary") << "memory_usage_summary_0.json" << summary + deep + "}"
                             << qint64(summary.size() + 256 - 1);
}

void TestMindSporeMemory::deepNestingIsRefused()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(qint64, offset);
    const QString path = write(name, bytes);
    const MemoryReadResult result = readMindSporeMemory(path);
    QCOMPARE(result.status, ImportStatus::Failed);
    QCOMPARE(result.diagnostics.size(), 1);
    const Diagnostic& d = result.diagnostics.first();
    QCOMPARE(d.file, path);
    QCOMPARE(d.severity, Severity::Error);
    QVERIFY2(d.message.contains(QStringLiteral("nested deeper than 256")), qPrintable(d.message));
    QCOMPARE(d.offset, offset);
}

QTEST_GUILESS_MAIN(TestMindSporeMemory)
#include "tst_mindsporememory.moc"
