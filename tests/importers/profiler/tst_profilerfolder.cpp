#include "importers/profiler/profilerfolder.h"

#include "tests/importers/profiler/profilertestutils.h"
#include "tests/testutils.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens::importers::profiler;
using namespace runlens::models::profiler;

using runlens::test::writeFile;

namespace {

const ProfilerRank* findRank(const std::vector<ProfilerRank>& ranks, int id)
{
    for (const ProfilerRank& rank : ranks) {
        if (rank.rank == id)
            return &rank;
    }
    return nullptr;
}

} // namespace

class TestProfilerFolder : public QObject
{
    Q_OBJECT

private slots:
    void fileRoles_data();
    void fileRoles();
    void mindInsightSampleRun();
    void severalRanksInOneFolder();
    void deviceTypeByFilePresence();
    void ascendMsLayout();
    void cannFolder();
    void brokenProfilerInfoIsReported();
    void groupGivenFiles();
};

void TestProfilerFolder::fileRoles_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("inFolder");
    QTest::addColumn<int>("role");
    QTest::addColumn<int>("rank");
    QTest::newRow("aicore type") << "aicore_intermediate_3_type.csv" << false << int(FileRole::AicoreType) << 3;
    QTest::newRow("aicore detail") << "aicore_intermediate_12_detail.csv" << false << int(FileRole::AicoreDetail) << 12;
    QTest::newRow("step trace") << "step_trace_raw_10_detail_time.csv" << false << int(FileRole::StepTraceRaw) << 10;
    QTest::newRow("point info") << "step_trace_point_info.json" << false << int(FileRole::StepTracePointInfo) << -1;
    QTest::newRow("info") << "profiler_info_7.json" << false << int(FileRole::ProfilerInfo) << 7;
    QTest::newRow("gpu types") << "gpu_op_type_info_0.csv" << false << int(FileRole::GpuOpType) << 0;
    QTest::newRow("cluster") << "ascend_cluster_analyse_model-parallel_1_8_5.csv" << false
                             << int(FileRole::ClusterAnalyse) << 5;
    QTest::newRow("kernel details in folder") << "kernel_details.csv" << true << int(FileRole::KernelDetails) << -1;
    QTest::newRow("kernel details outside") << "kernel_details.csv" << false << int(FileRole::Other) << -1;
    QTest::newRow("upper case") << "FLOPS_2.TXT" << false << int(FileRole::Flops) << 2;
    QTest::newRow("unknown") << "notes.csv" << true << int(FileRole::Other) << -1;
}

void TestProfilerFolder::fileRoles()
{
    QFETCH(QString, name);
    QFETCH(bool, inFolder);
    QFETCH(int, role);
    QFETCH(int, rank);
    std::optional<int> number;
    QCOMPARE(int(profilerFileRole(name, inFolder, number)), role);
    QCOMPARE(number.value_or(-1), rank);
}

void TestProfilerFolder::mindInsightSampleRun()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString dir = samples + QStringLiteral("/profiler/mindspore/run_1_profiler");
    runlens::models::Diagnostics diagnostics;
    const std::vector<ProfilerRank> ranks = findProfilerRanks(dir, &diagnostics);
    QCOMPARE(ranks.size(), std::size_t(1));
    const ProfilerRank& rank = ranks.front();
    QCOMPARE(rank.rank, 1);
    QCOMPARE(rank.deviceType, DeviceType::Ascend);
    QCOMPARE(rank.layout, QStringLiteral("mindinsight"));
    QCOMPARE(rank.folder, QDir(dir).absolutePath());
    QCOMPARE(rank.file(FileRole::AicoreType), dir + QStringLiteral("/aicore_intermediate_1_type.csv"));
    QCOMPARE(rank.file(FileRole::StepTraceRaw), dir + QStringLiteral("/step_trace_raw_1_detail_time.csv"));
    // The id-less point info file goes with the folder's rank.
    QCOMPARE(rank.file(FileRole::StepTracePointInfo), dir + QStringLiteral("/step_trace_point_info.json"));
    QVERIFY(rank.has(FileRole::FrameworkRaw));
    QVERIFY(rank.has(FileRole::Flops));
    QCOMPARE(rank.filesOf(FileRole::OpComputeTime).size(), 2);
    QVERIFY(diagnostics.isEmpty());
}

void TestProfilerFolder::severalRanksInOneFolder()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString dir = samples + QStringLiteral("/profiler/mindspore/profiler_misc");
    const std::vector<ProfilerRank> ranks = findProfilerRanks(dir);
    QCOMPARE(ranks.size(), std::size_t(3));
    QCOMPARE(ranks[0].rank, 0);
    QCOMPARE(ranks[1].rank, 1);
    QCOMPARE(ranks[2].rank, 10);
    // Rank 0 has both an Ascend and a GPU timeline: Ascend is checked first, as MindInsight does.
    QCOMPARE(ranks[0].deviceType, DeviceType::Ascend);
    QVERIFY(ranks[0].dynamicShape);
    QCOMPARE(ranks[1].deviceType, DeviceType::Ascend);
    QVERIFY(!ranks[1].dynamicShape);
    // Rank 10 only has a step trace: nothing tells its device.
    QCOMPARE(ranks[2].deviceType, DeviceType::Unknown);
    QCOMPARE(ranks[2].files.size(), std::size_t(1));
    QVERIFY(!ranks[0].has(FileRole::AicoreType));
    QVERIFY(ranks[1].has(FileRole::AicoreType));
}

void TestProfilerFolder::deviceTypeByFilePresence()
{
    QTemporaryDir temp;
    const QString root = temp.path() + QStringLiteral("/profiler");
    writeFile(root + QStringLiteral("/gpu_op_type_info_2.csv"), "op_type,type_occurrences,total_time\n");
    writeFile(root + QStringLiteral("/cpu_op_type_info_2.csv"), "op_type,type_occurrences,total_compute_time\n");
    writeFile(root + QStringLiteral("/cpu_op_detail_info_3.csv"), "op_side,op_type\n");
    writeFile(root + QStringLiteral("/aicore_intermediate_4_type.csv"), "kernel_type,total_time\n");
    writeFile(root + QStringLiteral("/gpu_timeline_display_5.json"), "[]");
    const std::vector<ProfilerRank> ranks = findProfilerRanks(temp.path());
    QCOMPARE(ranks.size(), std::size_t(4));
    QCOMPARE(findRank(ranks, 2)->deviceType, DeviceType::Gpu); // GPU files win over the host CPU ones
    QCOMPARE(findRank(ranks, 3)->deviceType, DeviceType::Cpu);
    QCOMPARE(findRank(ranks, 4)->deviceType, DeviceType::Ascend);
    QCOMPARE(findRank(ranks, 5)->deviceType, DeviceType::Gpu);
}

void TestProfilerFolder::ascendMsLayout()
{
    QTemporaryDir temp;
    const QString folder = temp.path() + QStringLiteral("/node1_4242_20240517093000_ascend_ms");
    writeFile(folder + QStringLiteral("/profiler_info_6.json"),
              "{\"rank_id\": 6, \"rank_size\": 8, \"ms_version\": \"2.3.0\", \"parallel_mode\": \"data_parallel\"}");
    writeFile(folder + QStringLiteral("/profiler_metadata.json"), "{\"cann_version\": \"8.0\"}");
    const QString out = folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
    writeFile(out + QStringLiteral("/kernel_details.csv"), "Name,Type,Duration(us)\n");
    writeFile(out + QStringLiteral("/op_statistic.csv"), "OP Type,Count,Total Time(us)\n");
    writeFile(out + QStringLiteral("/step_trace_time.csv"), "Step,Computing\n");
    writeFile(out + QStringLiteral("/trace_view.json"), "[]");
    writeFile(out + QStringLiteral("/minddata_pipeline_raw_6.csv"), "op_id\n");
    // A second rank of the same job, in its own folder.
    const QString other = temp.path() + QStringLiteral("/node1_4243_20240517093000_ascend_ms");
    writeFile(other + QStringLiteral("/profiler_info_7.json"), "{\"rank_id\": 7, \"ms_version\": \"2.3.0\"}");
    writeFile(other + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"), "Step,Computing\n");

    const std::vector<ProfilerRank> ranks = findProfilerRanks(temp.path());
    QCOMPARE(ranks.size(), std::size_t(2));
    const ProfilerRank* six = findRank(ranks, 6);
    QVERIFY(six);
    QCOMPARE(six->layout, QStringLiteral("ascend_ms"));
    QCOMPARE(six->folder, folder);
    QCOMPARE(six->deviceType, DeviceType::Ascend);
    QCOMPARE(six->version, QStringLiteral("2.3.0"));
    QCOMPARE(six->rankSize, 8);
    QCOMPARE(six->parallelMode, QStringLiteral("data_parallel"));
    QCOMPARE(six->file(FileRole::KernelDetails), out + QStringLiteral("/kernel_details.csv"));
    QCOMPARE(six->file(FileRole::OpStatistic), out + QStringLiteral("/op_statistic.csv"));
    QCOMPARE(six->file(FileRole::StepTraceTime), out + QStringLiteral("/step_trace_time.csv"));
    QCOMPARE(six->file(FileRole::TimelineDisplay), out + QStringLiteral("/trace_view.json"));
    QVERIFY(six->has(FileRole::MinddataPipelineRaw));
    const ProfilerRank* seven = findRank(ranks, 7);
    QVERIFY(seven);
    QCOMPARE(seven->folder, other);
    QVERIFY(!seven->has(FileRole::KernelDetails));
}

void TestProfilerFolder::cannFolder()
{
    QTemporaryDir temp;
    const QString prof = temp.path() + QStringLiteral("/PROF_000001_20240517093000_ABCDEF");
    writeFile(prof + QStringLiteral("/device_3/timeline/msprof_3_1_0.json"), "[]");
    writeFile(prof + QStringLiteral("/device_3/info.json.3"), "{}");
    const std::vector<ProfilerRank> ranks = findProfilerRanks(temp.path());
    QCOMPARE(ranks.size(), std::size_t(1));
    QCOMPARE(ranks.front().rank, 3);
    QCOMPARE(ranks.front().layout, QStringLiteral("cann"));
    QCOMPARE(ranks.front().deviceType, DeviceType::Ascend);
    QCOMPARE(ranks.front().cannFolders, QStringList { prof });
    QVERIFY(ranks.front().has(FileRole::TimelineDisplay));
}

void TestProfilerFolder::brokenProfilerInfoIsReported()
{
    QTemporaryDir temp;
    const QString root = temp.path() + QStringLiteral("/profiler");
    writeFile(root + QStringLiteral("/profiler_info_0.json"), "{\"ms_version\": ");
    writeFile(root + QStringLiteral("/aicore_intermediate_0_type.csv"), "kernel_type,total_time\n");
    runlens::models::Diagnostics diagnostics;
    const std::vector<ProfilerRank> ranks = findProfilerRanks(temp.path(), &diagnostics);
    QCOMPARE(ranks.size(), std::size_t(1));
    QCOMPARE(ranks.front().deviceType, DeviceType::Ascend);
    QVERIFY(ranks.front().version.isEmpty());
    QCOMPARE(diagnostics.size(), 1);
    QCOMPARE(diagnostics.first().file, root + QStringLiteral("/profiler_info_0.json"));
}

void TestProfilerFolder::groupGivenFiles()
{
    // Files handed over by the run scanner: generic names outside a profiler folder are not profiler files.
    const QStringList files { QStringLiteral("/data/run/kernel_details.csv"),
                              QStringLiteral("/data/run/aicore_intermediate_2_type.csv"),
                              QStringLiteral("/data/run/profiler/step_trace_raw_2_detail_time.csv"),
                              QStringLiteral("/data/run/profiler/step_trace_point_info.json") };
    const std::vector<ProfilerRank> ranks = groupProfilerFiles(files);
    QCOMPARE(ranks.size(), std::size_t(2));
    QCOMPARE(ranks[0].folder, QStringLiteral("/data/run"));
    QCOMPARE(ranks[0].files.size(), std::size_t(1));
    QCOMPARE(ranks[1].folder, QStringLiteral("/data/run/profiler"));
    QCOMPARE(ranks[1].rank, 2);
    QVERIFY(ranks[1].has(FileRole::StepTracePointInfo));
}

QTEST_GUILESS_MAIN(TestProfilerFolder)
#include "tst_profilerfolder.moc"
