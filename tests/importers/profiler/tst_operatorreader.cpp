#include "importers/profiler/operatorreader.h"
#include "importers/profiler/profilerfolder.h"

#include "tests/importers/profiler/profilertestutils.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens::importers::profiler;
using namespace runlens::models::profiler;

using runlens::test::writeFile;

namespace {

const OpTypeStats* findType(const OperatorTable& table, const QString& type, const QString& core = {})
{
    for (const OpTypeStats& stats : table.types) {
        if (stats.type == type && (core.isEmpty() || stats.core == core))
            return &stats;
    }
    return nullptr;
}

const OpStats* findOp(const OperatorTable& table, const QString& name)
{
    for (const OpStats& op : table.ops) {
        if (op.name == name)
            return &op;
    }
    return nullptr;
}

ProfilerRank onlyRank(const QString& dir, int id)
{
    for (const ProfilerRank& rank : findProfilerRanks(dir)) {
        if (rank.rank == id)
            return rank;
    }
    return {};
}

// python3 reading the same files with its csv and json modules: per type the type file's total (ms -> us) and
// calls, the detail rows' time x frequency summed per framework_raw type, and the shapes of one op.
const char* const kPythonTypeTotals
    = "import csv,json,sys,collections\n"
      "d,r=sys.argv[1],sys.argv[2]\n"
      "fw={x['full_kernel_name']:x for x in csv.DictReader(open(f'{d}/framework_raw_{r}.csv'))}\n"
      "ops=collections.defaultdict(float)\n"
      "for x in csv.DictReader(open(f'{d}/aicore_intermediate_{r}_detail.csv')):\n"
      "  ops[fw[x['full_kernel_name']]['kernel_type']]+=float(x['execution_time'])*1000*int(x['execution_frequency'])\n"
      "for x in csv.DictReader(open(f'{d}/aicore_intermediate_{r}_type.csv')):\n"
      "  print(x['kernel_type'], float(x['total_time'])*1000, x['execution_frequency'], "
      "ops.get(x['kernel_type'],0.0))\n";

} // namespace

class TestOperatorReader : public QObject
{
    Q_OBJECT

private slots:
    void unitsFromHeaders();
    void ascendSampleTypeTotalsMatchPython();
    void ascendSampleJoinsFramework();
    void olderHeaders();
    void splitCubeAndVectorFlops();
    void ascendMsLayout();
    void gpuAndCpuTables();
    void aicpuTypesAddToAicore();
    void brokenRowsAreReportedAndSkipped();
};

void TestOperatorReader::unitsFromHeaders()
{
    QCOMPARE(unitToMicroseconds(QStringLiteral("Total Time(us)"), 7.0), 1.0);
    QCOMPARE(unitToMicroseconds(QStringLiteral("total_time(ms)"), 7.0), 1000.0);
    QCOMPARE(unitToMicroseconds(QStringLiteral("Duration (ns)"), 7.0), 0.001);
    QCOMPARE(unitToMicroseconds(QStringLiteral("total_time"), 7.0), 7.0);
}

void TestOperatorReader::ascendSampleTypeTotalsMatchPython()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString dir = samples + QStringLiteral("/profiler/mindspore/run_1_profiler");
    RUNLENS_PYTHON_ORACLE(python,
                          { QStringLiteral("-c"), QString::fromLatin1(kPythonTypeTotals), dir, QStringLiteral("1") });

    runlens::models::Diagnostics diagnostics;
    const OperatorTable table = readOperatorTable(onlyRank(dir, 1), diagnostics);
    QVERIFY2(diagnostics.isEmpty(), qPrintable(diagnostics.value(0).toString()));

    const QStringList lines = python.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(qsizetype(table.types.size()), lines.size());
    double sum = 0.0;
    QHash<QString, double> opTotals;
    for (const OpStats& op : table.ops)
        opTotals[op.type] += op.totalUs;
    for (const QString& line : lines) {
        const QStringList fields = line.split(QLatin1Char(' '));
        QCOMPARE(fields.size(), 4);
        const OpTypeStats* type = findType(table, fields[0]);
        QVERIFY2(type, qPrintable(fields[0]));
        QVERIFY2(qAbs(type->totalUs - fields[1].toDouble()) < 1e-6, qPrintable(fields[0]));
        QCOMPARE(type->calls, fields[2].toLongLong());
        QCOMPARE(type->core, QStringLiteral("AI Core"));
        // The op level, grouped by type, adds up to the same time.
        QVERIFY2(qAbs(opTotals.value(fields[0]) - fields[3].toDouble()) < 1e-6, qPrintable(fields[0]));
        sum += fields[1].toDouble();
    }
    QVERIFY(qAbs(table.totalUs - sum) < 1e-6);
    // Sorted by total time, shares add up to one.
    double shares = 0.0;
    for (std::size_t i = 0; i < table.types.size(); ++i) {
        if (i > 0)
            QVERIFY(table.types[i - 1].totalUs >= table.types[i].totalUs);
        shares += table.types[i].share;
    }
    QVERIFY(qAbs(shares - 1.0) < 1e-9);
    QCOMPARE(table.sources.size(), 2);
}

void TestOperatorReader::ascendSampleJoinsFramework()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString dir = samples + QStringLiteral("/profiler/mindspore/run_1_profiler");
    // python3 names the first detail op whose framework_raw entry has an input_0, with its shape, format and stream.
    const QString script
        = QStringLiteral("import csv,json,sys\n"
                         "d=sys.argv[1]\n"
                         "fw={x['full_kernel_name']:x for x in csv.DictReader(open(d+'/framework_raw_1.csv'))}\n"
                         "for x in csv.DictReader(open(d+'/aicore_intermediate_1_detail.csv')):\n"
                         "  i=json.loads(fw[x['full_kernel_name']]['op_info']).get('input_0')\n"
                         "  if i:\n"
                         "    print(x['full_kernel_name']+'|'+','.join(map(str,i['shape']))+'|'+i['format']+'|'"
                         "+fw[x['full_kernel_name']]['stream_id']); break\n");
    RUNLENS_PYTHON_ORACLE(python, { QStringLiteral("-c"), script, dir });
    const QStringList expected = python.trimmed().split(QLatin1Char('|'));
    QCOMPARE(expected.size(), 4);

    runlens::models::Diagnostics diagnostics;
    const OperatorTable table = readOperatorTable(onlyRank(dir, 1), diagnostics);
    const OpStats* op = findOp(table, expected[0]);
    QVERIFY2(op, qPrintable(expected[0]));
    QCOMPARE(op->inputShapes.section(QLatin1Char(';'), 0, 0), expected[1]);
    QCOMPARE(op->formats.section(QLatin1Char(','), 0, 0).section(QLatin1String("->"), 0, 0), expected[2]);
    QCOMPARE(op->streamId, expected[3].toInt());
    // This sample's flops_1.txt names ops of another network: nothing joins, so no FLOPs are claimed.
    QVERIFY(!op->mflops.has_value());
    QVERIFY(!table.hasFlops);
}

void TestOperatorReader::olderHeaders()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    // op_type / execution_time type file, a detail file with "full_op_time" and no frequency, full_op_name.
    const QString dir = samples + QStringLiteral("/profiler/mindspore/minddata_pipeline_fixture");
    runlens::models::Diagnostics diagnostics;
    const OperatorTable table = readOperatorTable(onlyRank(dir, 0), diagnostics);
    QVERIFY2(diagnostics.isEmpty(), qPrintable(diagnostics.value(0).toString()));
    const OpTypeStats* matmul = findType(table, QStringLiteral("MatMul"));
    QVERIFY(matmul);
    QCOMPARE(matmul->totalUs, 1085.982);
    QCOMPARE(matmul->calls, 9);
    QCOMPARE(table.ops.size(), std::size_t(10));
    const OpStats* clean = findOp(table, QStringLiteral("Default/AtomicAddrClean-op104"));
    QVERIFY(clean);
    QCOMPARE(clean->calls, 1);
    QCOMPARE(clean->totalUs, 1.33);
    QCOMPARE(clean->type, QStringLiteral("AtomicAddrClean"));
}

void TestOperatorReader::splitCubeAndVectorFlops()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString dir = samples + QStringLiteral("/profiler/mindspore/profiler_misc");
    runlens::models::Diagnostics diagnostics;
    const OperatorTable table = readOperatorTable(onlyRank(dir, 1), diagnostics);
    const OpStats* op = findOp(table, QStringLiteral("Default/AtomicAddrClean-op104"));
    QVERIFY(op);
    QVERIFY(table.hasFlops);
    // 333 MFLOPs on the cube units and 333 on the vector units.
    QCOMPARE(op->mflops.value_or(0), 666.0);
    QCOMPARE(op->gflops.value_or(0), 666.0);
    QCOMPARE(op->flopsUtilization.value_or(0), 33.0);
}

void TestOperatorReader::ascendMsLayout()
{
    QTemporaryDir temp;
    const QString out = temp.path() + QStringLiteral("/host_1_2_ascend_ms/ASCEND_PROFILER_OUTPUT");
    writeFile(temp.path() + QStringLiteral("/host_1_2_ascend_ms/profiler_info_0.json"), "{\"rank_id\": 0}");
    writeFile(out + QStringLiteral("/op_statistic.csv"),
              "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n"
              "MatMulV2,AI_CORE,4,400.0,90.0,100.0,110.0,80.0\n"
              "Add,AI_VECTOR_CORE,10,100.0,8.0,10.0,12.0,20.0\n");
    writeFile(out + QStringLiteral("/kernel_details.csv"),
              "Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),"
              "Wait Time(us),Block Dim,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output Data Types,"
              "Output Formats\n"
              "1,1,10,2,Default/MatMul-op1,MatMulV2,AI_CORE,100.0,90.0,0,8,\"32,64;64,16\",FLOAT16,ND,\"32,16\","
              "FLOAT16,ND\n"
              "1,1,11,2,Default/Add-op2,Add,AI_VECTOR_CORE,200.0,10.0,0,8,\"32,16;32,16\",FLOAT16,ND,\"32,16\","
              "FLOAT16,ND\n"
              "2,1,10,2,Default/MatMul-op1,MatMulV2,AI_CORE,300.0,110.0,0,8,\"32,64;64,16\",FLOAT16,ND,\"32,16\","
              "FLOAT16,ND\n");
    runlens::models::Diagnostics diagnostics;
    const OperatorTable table = readOperatorTable(onlyRank(temp.path(), 0), diagnostics);
    QVERIFY2(diagnostics.isEmpty(), qPrintable(diagnostics.value(0).toString()));
    QCOMPARE(table.types.size(), std::size_t(2));
    QCOMPARE(table.types[0].type, QStringLiteral("MatMulV2"));
    QCOMPARE(table.types[0].core, QStringLiteral("AI_CORE"));
    QCOMPARE(table.types[0].calls, 4);
    QCOMPARE(table.types[0].totalUs, 400.0);
    QCOMPARE(table.types[0].minUs, 90.0);
    QCOMPARE(table.types[0].maxUs, 110.0);
    QCOMPARE(table.types[0].share, 0.8);
    QCOMPARE(table.totalUs, 500.0);
    QCOMPARE(table.ops.size(), std::size_t(2));
    const OpStats* matmul = findOp(table, QStringLiteral("Default/MatMul-op1"));
    QVERIFY(matmul);
    QCOMPARE(matmul->calls, 2);
    QCOMPARE(matmul->totalUs, 200.0);
    QCOMPARE(matmul->averageUs(), 100.0);
    QCOMPARE(matmul->inputShapes, QStringLiteral("32,64;64,16"));
    QCOMPARE(matmul->formats, QStringLiteral("ND->ND"));
    QCOMPARE(matmul->streamId, 2);
    QCOMPARE(table.ops[0].name, QStringLiteral("Default/MatMul-op1"));
}

void TestOperatorReader::gpuAndCpuTables()
{
    QTemporaryDir temp;
    const QString root = temp.path() + QStringLiteral("/profiler");
    writeFile(root + QStringLiteral("/gpu_op_type_info_0.csv"),
              "op_type,type_occurrences,total_time,proportion,avg_time\n"
              "Conv2D,4,120.5,60.0,30.125\n"
              "ReLU,8,80.0,40.0,10.0\n");
    writeFile(root + QStringLiteral("/gpu_op_detail_info_0.csv"),
              "op_side,op_type,op_name,op_full_name,op_occurrences,op_total_time,op_avg_time,proportion\n"
              "Device,Conv2D,Conv2D-op1,Default/net/Conv2D-op1,4,120.5,30.125,60.0\n");
    writeFile(root + QStringLiteral("/cpu_op_type_info_1.csv"),
              "op_type,type_occurrences,execution_frequency,total_compute_time,avg_time,total_time_proportion\n"
              "Add,2,4,1.5,0.375,100\n");
    runlens::models::Diagnostics diagnostics;
    const OperatorTable gpu = readOperatorTable(onlyRank(temp.path(), 0), diagnostics);
    QCOMPARE(gpu.types.size(), std::size_t(2));
    QCOMPARE(findType(gpu, QStringLiteral("Conv2D"))->totalUs, 120.5);
    QCOMPARE(findType(gpu, QStringLiteral("Conv2D"))->core, QStringLiteral("GPU"));
    QCOMPARE(findType(gpu, QStringLiteral("ReLU"))->calls, 8);
    QCOMPARE(gpu.ops.size(), std::size_t(1));
    QCOMPARE(gpu.ops[0].calls, 4);
    const OperatorTable cpu = readOperatorTable(onlyRank(temp.path(), 1), diagnostics);
    QCOMPARE(cpu.types.size(), std::size_t(1));
    QCOMPARE(cpu.types[0].totalUs, 1500.0); // milliseconds in the CPU tables
    QCOMPARE(cpu.types[0].calls, 2);
    QVERIFY2(diagnostics.isEmpty(), qPrintable(diagnostics.value(0).toString()));
}

void TestOperatorReader::aicpuTypesAddToAicore()
{
    QTemporaryDir temp;
    const QString root = temp.path() + QStringLiteral("/profiler");
    writeFile(root + QStringLiteral("/aicore_intermediate_0_detail.csv"),
              "full_kernel_name,execution_time,execution_frequency\nDefault/Conv2D-op1,0.5,2\n");
    writeFile(root + QStringLiteral("/aicpu_intermediate_0.csv"),
              "serial_number,kernel_type,total_time,dispatch_time,execution_time,run_start,run_end\n"
              "1,GetNext,0.25,0.01,0.2,1,2\n2,GetNext,0.75,0.01,0.7,3,4\n3,DropoutGenMask,1.0,0.1,0.9,5,6\n");
    runlens::models::Diagnostics diagnostics;
    const OperatorTable table = readOperatorTable(onlyRank(temp.path(), 0), diagnostics);
    QVERIFY2(diagnostics.isEmpty(), qPrintable(diagnostics.value(0).toString()));
    const OpTypeStats* conv = findType(table, QStringLiteral("Conv2D"), QStringLiteral("AI Core"));
    QVERIFY(conv);
    QCOMPARE(conv->totalUs, 1000.0);
    QCOMPARE(conv->calls, 2);
    const OpTypeStats* next = findType(table, QStringLiteral("GetNext"), QStringLiteral("AI CPU"));
    QVERIFY(next);
    QCOMPARE(next->totalUs, 1000.0);
    QCOMPARE(next->calls, 2);
    QCOMPARE(table.totalUs, 3000.0);
}

void TestOperatorReader::brokenRowsAreReportedAndSkipped()
{
    QTemporaryDir temp;
    const QString root = temp.path() + QStringLiteral("/profiler");
    const QString typeFile = root + QStringLiteral("/aicore_intermediate_0_type.csv");
    writeFile(typeFile,
              "kernel_type,total_time,execution_frequency,percent\nConv2D,1.0,2,50\nBad,abc,1,0\nAdd,1.0,1\n");
    const QString detailFile = root + QStringLiteral("/aicore_intermediate_0_detail.csv");
    writeFile(detailFile, "name_without_meaning,x\n1,2\n");
    runlens::models::Diagnostics diagnostics;
    const OperatorTable table = readOperatorTable(onlyRank(temp.path(), 0), diagnostics);
    QCOMPARE(table.types.size(), std::size_t(2));
    QCOMPARE(table.totalUs, 2000.0);
    bool badCell = false;
    bool ragged = false;
    bool missingColumn = false;
    for (const runlens::models::Diagnostic& d : diagnostics) {
        badCell = badCell || (d.file == typeFile && d.line == 3 && d.message.contains(QStringLiteral("abc")));
        ragged = ragged || (d.file == typeFile && d.line == 4);
        missingColumn = missingColumn || (d.file == detailFile && d.severity == runlens::models::Severity::Error);
    }
    QVERIFY(badCell);
    QVERIFY(ragged);
    QVERIFY(missingColumn);
}

QTEST_GUILESS_MAIN(TestOperatorReader)
#include "tst_operatorreader.moc"
