#include "importers/cluster/mindsporecluster.h"
#include "tests/testutils.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers::cluster;
using namespace runlens::models;
using namespace runlens::models::cluster;

namespace {

bool writeFile(const QString& path, const QByteArray& content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

/// Per rank of the fixture: step interval (ms) per step, computation and communication alone (ms).
constexpr double kInterval[4] = { 10.0, 10.0, 10.0, 16.0 };
constexpr double kComputation[4] = { 80.0, 80.0, 81.0, 80.0 };
constexpr double kCommunication[4] = { 5.0, 5.0, 5.0, 6.0 };
constexpr double kFlops[4] = { 900.0, 900.0, 900.0, 650.0 };
constexpr int kSteps = 3;

/// The bandwidth (GB/s) of each link of the fixture: SDMA within a stage pair, RDMA across; 3->2 is slow.
struct LinkSpec
{
    int src;
    int dst;
    const char* type;
    double bandwidth;
};
constexpr LinkSpec kLinks[] = {
    { 0, 1, "SDMA", 20.0 }, { 1, 0, "SDMA", 20.0 }, { 2, 3, "SDMA", 20.0 },
    { 3, 2, "SDMA", 12.0 }, { 0, 2, "RDMA", 10.0 }, { 1, 3, "RDMA", 10.0 },
};

QByteArray linkInfo(int rank, double scale)
{
    QByteArray json = "{";
    bool first = true;
    for (const LinkSpec& l : kLinks) {
        if (l.src != rank && l.dst != rank)
            continue;
        if (!first)
            json += ", ";
        first = false;
        // cost ms, size MB, bandwidth GB/s (size / cost would be MB/ms = GB/s).
        const double size = 40.0;
        json += QStringLiteral("\"%1-%2\": {\"%3\": [%4, %5, %6]}")
                    .arg(l.src)
                    .arg(l.dst)
                    .arg(QLatin1String(l.type))
                    .arg(size / (l.bandwidth * scale))
                    .arg(size)
                    .arg(l.bandwidth * scale)
                    .toUtf8();
    }
    return json + "}";
}

/// CSV field with its quotes doubled, as Python's csv writer does for link_info.
QByteArray quoted(const QByteArray& field)
{
    QByteArray out = field;
    out.replace("\"", "\"\"");
    return "\"" + out + "\"";
}

/// Writes a MindSpore r1.x cluster profiler folder of 4 ranks in 2 pipeline stages.
void writeFourRanks(const QString& dir, bool withStrategy)
{
    for (int r = 0; r < 4; ++r) {
        // Step trace in 10 ns ticks: total = interval + fp_and_bp + tail; one column set, average row '-'.
        QByteArray steps = "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n";
        for (int s = 1; s <= kSteps; ++s) {
            const qint64 interval = qint64(kInterval[r] * 1e5);
            const qint64 fpBp = qint64(kComputation[r] * 1e5);
            const qint64 tail = qint64(kCommunication[r] * 1e5);
            steps += QStringLiteral("%1,0,0,%2,0,0,%3,%4,%5\n")
                         .arg(s)
                         .arg(interval + fpBp + tail)
                         .arg(interval)
                         .arg(fpBp)
                         .arg(tail)
                         .toUtf8();
        }
        steps += QStringLiteral("-,0,0,%1,0,0,%2,%3,%4\n")
                     .arg(qint64((kInterval[r] + kComputation[r] + kCommunication[r]) * 1e5))
                     .arg(qint64(kInterval[r] * 1e5))
                     .arg(qint64(kComputation[r] * 1e5))
                     .arg(qint64(kCommunication[r] * 1e5))
                     .toUtf8();
        QVERIFY(writeFile(dir + QStringLiteral("/step_trace_raw_%1_detail_time.csv").arg(r), steps));

        QByteArray analyse = "computation_time,communication_alone_time,stage_time,receive_alone_time,"
                             "collective_communication_alone_time\n";
        for (int s = 0; s <= kSteps; ++s) // three steps and the average row
            analyse += QStringLiteral("%1,%2,%3,%4,%5\n")
                           .arg(kComputation[r])
                           .arg(kCommunication[r])
                           .arg(kComputation[r] + kCommunication[r])
                           .arg(r >= 2 ? 1.5 : 0.0)
                           .arg(kCommunication[r] - (r >= 2 ? 1.5 : 0.0))
                           .toUtf8();
        QVERIFY(
            writeFile(dir + QStringLiteral("/ascend_cluster_analyse_pipeline-parallel_2_4_%1.csv").arg(r), analyse));

        // Step rows at twice the bandwidth: only the average row '-' counts.
        QByteArray hccl = "step_num,communication_cost,wait_cost,link_info,communication_operator_cost\n";
        for (int s = 1; s <= kSteps; ++s)
            hccl += QByteArray::number(s) + ",5.0,1.0," + quoted(linkInfo(r, 2.0)) + ",\"{}\"\n";
        hccl += "-,5.0,1.0," + quoted(linkInfo(r, 1.0)) + ",\"{}\"\n";
        QVERIFY(writeFile(dir + QStringLiteral("/hccl_raw_%1.csv").arg(r), hccl));

        QVERIFY(writeFile(dir + QStringLiteral("/flops_summary_%1.json").arg(r),
                          QStringLiteral("{\"FLOPs\": %1, \"FLOPS\": %2, \"FLOPS_Utilization\": 3.5}")
                              .arg(kFlops[r] * 10)
                              .arg(kFlops[r])
                              .toUtf8()));
        if (withStrategy) {
            // Stages reversed against MindInsight's even split, so the test sees which one was used.
            QVERIFY(writeFile(dir + QStringLiteral("/parallel_strategy_%1.json").arg(r),
                              QStringLiteral("{\"config\": {\"rankId\": %1, \"stageId\": %2, \"parallelType\": "
                                             "\"semi_auto_parallel\", \"stageDevices\": [[0, 1], [2, 3]]}}")
                                  .arg(r)
                                  .arg(r < 2 ? 1 : 0)
                                  .toUtf8()));
        }
    }
}

bool hasDiagnosticFor(const Diagnostics& diagnostics, const QString& fileNamePart)
{
    for (const Diagnostic& d : diagnostics) {
        if (d.file.contains(fileNamePart) && !d.message.isEmpty())
            return true;
    }
    return false;
}

} // namespace

class TstMindSporeCluster : public QObject
{
    Q_OBJECT
private slots:
    void fourRanksOneSlow();
    void stagesFromStrategy();
    void rankFolders();
    void profilerMiscAverages();
    void badFilesKeepTheRest();
    void emptyFolder();
    void ascendMsLayout();
    void clusterStepTraceTable();
};

void TstMindSporeCluster::fourRanksOneSlow()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString dir = tmp.path() + QStringLiteral("/profiler");
    writeFourRanks(dir, false);
    QVERIFY(MindSporeClusterReader::containsClusterFiles(tmp.path()));

    const Cluster c = MindSporeClusterReader::read({ tmp.path() });
    QVERIFY2(c.diagnostics.isEmpty(), qPrintable(c.diagnostics.value(0).toString()));
    QCOMPARE(c.origin, ClusterOrigin::MindSpore);
    QCOMPARE(c.parallelMode, QStringLiteral("pipeline-parallel"));
    QCOMPARE(c.stageCount, 2);
    QCOMPARE(c.worldSize, 4);
    QCOMPARE(int(c.ranks.size()), 4);
    for (int r = 0; r < 4; ++r) {
        const RankFigures& f = c.ranks[std::size_t(r)];
        QCOMPARE(f.rank, r);
        QCOMPARE(f.stepInterval, kInterval[r]);
        QCOMPARE(f.computation, kComputation[r]);
        QCOMPARE(f.communication, kCommunication[r]);
        QCOMPARE(f.receive, r >= 2 ? 1.5 : 0.0);
        QCOMPARE(f.tail, kCommunication[r]);
        QVERIFY(qAbs(f.stepTime - (kInterval[r] + kComputation[r] + kCommunication[r])) < 1e-9);
        QCOMPARE(f.flops, kFlops[r]);
        QCOMPARE(f.flopsTotal, kFlops[r] * 10);
        QCOMPARE(int(f.steps.size()), kSteps);
        QCOMPARE(f.steps[0].step, 1);
        QCOMPARE(f.steps[2].communication, kCommunication[r]);
        // MindInsight's even split: ranks 0-1 are stage 1, ranks 2-3 stage 2.
        QCOMPARE(f.stage, r < 2 ? 1 : 2);
    }
    // Step interval mean 11.5 ms: rank 3 (16 ms) is 39 % above; FLOPS mean 837.5: rank 3 (650) is 22 % below.
    QCOMPARE(c.slowestRank, 3);
    QVERIFY(c.ranks[3].slow);
    QVERIFY(c.ranks[3].lowFlops);
    for (int r = 0; r < 3; ++r) {
        QVERIFY(!c.ranks[std::size_t(r)].slow);
        QVERIFY(!c.ranks[std::size_t(r)].lowFlops);
    }

    // Links: each reported by both of its ends, averaged; from the '-' row only.
    QCOMPARE(int(c.links.size()), 6);
    QCOMPARE(c.linkTypes().size(), 2);
    QVERIFY(c.worstLink >= 0);
    const ClusterLink& worst = c.links[std::size_t(c.worstLink)];
    QCOMPARE(worst.src, 3);
    QCOMPARE(worst.dst, 2);
    QCOMPARE(worst.type, QStringLiteral("SDMA"));
    QVERIFY(qAbs(worst.bandwidth - 12.0) < 1e-9);
    QVERIFY(qAbs(worst.size - 40.0) < 1e-9);
    QVERIFY(qAbs(worst.time - 40.0 / 12.0) < 1e-5); // written with six significant digits
    QVERIFY(worst.slow);
    int slowLinks = 0;
    for (const ClusterLink& l : c.links)
        slowLinks += l.slow ? 1 : 0;
    QCOMPARE(slowLinks, 1);
}

void TstMindSporeCluster::stagesFromStrategy()
{
    QTemporaryDir tmp;
    writeFourRanks(tmp.path(), true);
    const Cluster c = MindSporeClusterReader::read({ tmp.path() });
    QCOMPARE(int(c.ranks.size()), 4);
    for (const RankFigures& f : c.ranks)
        QCOMPARE(f.stage, f.rank < 2 ? 2 : 1);
    const auto stages = c.stages();
    QCOMPARE(int(stages.size()), 2);
    QCOMPARE(stages[0].stage, 1);
    QCOMPARE(stages[0].rankIndices, (std::vector<int> { 2, 3 }));
    QCOMPARE(stages[0].meanStepInterval, 13.0);
}

void TstMindSporeCluster::rankFolders()
{
    // One folder per rank, every file with device id 0; the second has no average row.
    QTemporaryDir tmp;
    const QByteArray header
        = "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,fp_and_bp,tail\n";
    QVERIFY(writeFile(tmp.path() + QStringLiteral("/rank_0/profiler/step_trace_raw_0_detail_time.csv"),
                      header + "1,0,0,900000,0,0,100000,500000,300000\n-,0,0,900000,0,0,100000,500000,300000\n"));
    // Steps 2 and 3 average to 2 ms interval; step 1 (warm-up) is left out as MindSpore does.
    QVERIFY(writeFile(tmp.path() + QStringLiteral("/rank_1/profiler/step_trace_raw_0_detail_time.csv"),
                      header
                          + "1,0,0,9000000,0,0,8000000,500000,500000\n2,0,0,1000000,0,0,100000,500000,400000\n"
                            "3,0,0,1200000,0,0,300000,500000,400000\n"));
    const Cluster c = MindSporeClusterReader::read({ tmp.path() });
    QCOMPARE(int(c.ranks.size()), 2);
    QCOMPARE(c.ranks[0].rank, 0);
    QCOMPARE(c.ranks[1].rank, 1);
    QCOMPARE(c.ranks[0].stepTime, 9.0);
    QCOMPARE(c.ranks[1].stepInterval, 2.0);
    QCOMPARE(c.ranks[1].stepTime, 11.0);
    QCOMPARE(int(c.ranks[1].steps.size()), 3);
    QVERIFY(c.ranks[1].path.contains(QLatin1String("rank_1")));
}

void TstMindSporeCluster::profilerMiscAverages()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const Cluster c = MindSporeClusterReader::read({ samples + QStringLiteral("/profiler/mindspore/profiler_misc") });
    QVERIFY2(c.diagnostics.isEmpty(), qPrintable(c.diagnostics.value(0).toString()));
    QCOMPARE(int(c.ranks.size()), 3);
    QCOMPARE(c.ranks[0].rank, 0);
    QCOMPARE(c.ranks[1].rank, 1);
    QCOMPARE(c.ranks[2].rank, 10);
    // The '-' rows (ticks of 10 ns / 1e5 = ms), checked with Python's csv module: they equal the mean of
    // steps 2..n within a tick.
    QCOMPARE(int(c.ranks[0].steps.size()), 20);
    QCOMPARE(int(c.ranks[1].steps.size()), 40);
    QVERIFY(qAbs(c.ranks[0].stepTime - 130.45611) < 1e-9);
    QVERIFY(qAbs(c.ranks[0].stepInterval - 90.3536) < 1e-9);
    QVERIFY(qAbs(c.ranks[0].computation - 17.09449) < 1e-9);
    QVERIFY(qAbs(c.ranks[0].tail - 23.00802) < 1e-9);
    QVERIFY(qAbs(c.ranks[1].stepTime - 130.4972) < 1e-9);
    QVERIFY(qAbs(c.ranks[1].stepInterval - 90.37347) < 1e-9);
    for (const RankFigures& r : c.ranks) {
        double sum = 0;
        for (std::size_t i = 1; i < r.steps.size(); ++i)
            sum += r.steps[i].stepTime;
        QVERIFY(qAbs(sum / double(r.steps.size() - 1) - r.stepTime) < 1e-5);
    }
    // flops_summary_0.json: FLOPS 9868.936, FLOPs 8167.743; the other ranks have none.
    QCOMPARE(c.ranks[0].flops, 9868.936);
    QCOMPARE(c.ranks[0].flopsTotal, 8167.743);
    QVERIFY(!isKnown(c.ranks[1].flops));
    // Step intervals within 0.03 % of each other: nobody is flagged.
    for (const RankFigures& r : c.ranks)
        QVERIFY(!r.slow);
    QVERIFY(c.links.empty());
    QCOMPARE(c.worstLink, -1);
}

void TstMindSporeCluster::badFilesKeepTheRest()
{
    QTemporaryDir tmp;
    writeFourRanks(tmp.path(), false);
    QVERIFY(writeFile(tmp.path() + QStringLiteral("/hccl_raw_1.csv"),
                      "step_num,communication_cost,wait_cost,link_info,communication_operator_cost\n"
                      "-,5.0,1.0,\"{not json\",\"{}\"\n"));
    QVERIFY(writeFile(tmp.path() + QStringLiteral("/flops_summary_2.json"), "{\"FLOPs\": 1"));
    QVERIFY(writeFile(tmp.path() + QStringLiteral("/step_trace_raw_0_detail_time.csv"),
                      "step_num,total,iteration_interval,fp_and_bp,tail\n1,abc,100000,200000,300000\n"
                      "2,700000,100000,300000,300000\n"));
    const Cluster c = MindSporeClusterReader::read({ tmp.path() });
    QCOMPARE(int(c.ranks.size()), 4);
    QVERIFY(hasDiagnosticFor(c.diagnostics, QStringLiteral("hccl_raw_1.csv")));
    QVERIFY(hasDiagnosticFor(c.diagnostics, QStringLiteral("flops_summary_2.json")));
    QVERIFY(hasDiagnosticFor(c.diagnostics, QStringLiteral("step_trace_raw_0_detail_time.csv")));
    QVERIFY(!isKnown(c.ranks[2].flops));
    QCOMPARE(c.ranks[3].flops, kFlops[3]);
    // Rank 0 without an average row: the mean leaves step 1 out; its bad total is missing anyway.
    QCOMPARE(c.ranks[0].stepTime, 7.0);
    // The links of the other files are still there (3->2 reported by rank 2 and 3).
    QVERIFY(c.worstLink >= 0);
    QCOMPARE(c.links[std::size_t(c.worstLink)].src, 3);
}

void TstMindSporeCluster::emptyFolder()
{
    QTemporaryDir tmp;
    QVERIFY(!MindSporeClusterReader::containsClusterFiles(tmp.path()));
    const Cluster c = MindSporeClusterReader::read({ tmp.path() });
    QVERIFY(c.isEmpty());
    QCOMPARE(c.slowestRank, -1);
    const Cluster missing = MindSporeClusterReader::read({ tmp.path() + QStringLiteral("/does-not-exist") });
    QVERIFY(missing.isEmpty());
}

namespace {

/// A 2.x rank folder: `{host}_{pid}_{ts}_ascend_ms/profiler_info_N.json` and ASCEND_PROFILER_OUTPUT with
/// step_trace_time.csv (µs) and communication_matrix.json.
void writeAscendMsRank(const QString& root, int rank, double computingUs, const QByteArray& matrix)
{
    const QString folder = root + QStringLiteral("/node0_%1_20240101_ascend_ms").arg(4000 + rank);
    QVERIFY(writeFile(folder + QStringLiteral("/profiler_info_%1.json").arg(rank), "{\"rank_id\": 0}"));
    QByteArray csv = "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                     "Communication(Not Overlapped and Exclude Receive)\n";
    // Two steps: free time 200 and 400 µs; 1000 µs of communication not overlapped, 200 µs of it receive.
    csv += QByteArray::number(1) + ',' + QByteArray::number(computingUs) + ",1000,500,1500,200,0,0,800\n";
    csv += QByteArray::number(2) + ',' + QByteArray::number(computingUs + 200) + ",1000,500,1500,400,0,0,800\n";
    QVERIFY(writeFile(folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"), csv));
    if (!matrix.isEmpty())
        QVERIFY(writeFile(folder + QStringLiteral("/ASCEND_PROFILER_OUTPUT/communication_matrix.json"), matrix));
}

QByteArray transfer(const char* type, double sizeMb, double timeMs)
{
    return QStringLiteral("{\"Transport Type\": \"%1\", \"Transit Size(MB)\": %2, \"Transit Time(ms)\": %3, "
                          "\"Bandwidth(GB/s)\": %4, \"Op Name\": \"\"}")
        .arg(QLatin1String(type))
        .arg(sizeMb)
        .arg(timeMs)
        .arg(sizeMb / timeMs)
        .toUtf8();
}

} // namespace

void TstMindSporeCluster::ascendMsLayout()
{
    QTemporaryDir tmp;
    const QString root = tmp.path();
    // Rank 0 sends to 1 over HCCS at 20 GB/s in two transfers of two steps (60 MB in 3 ms), to 2 at 20 GB/s;
    // rank 1 sends to 0 at 10 GB/s: 20 MB in 2 ms. The self-transfer and LOCAL copies do not count.
    const QByteArray matrix0 = "{\"step1\": {\"collective\": {\"allreduce@group\": {\"0-1\": " + transfer("HCCS", 20, 1)
        + ", \"0-0\": " + transfer("HCCS", 5, 0.1) + ", \"0-2\": " + transfer("HCCS", 40, 2)
        + "}}}, \"step2\": {\"p2p\": {\"send@group\": {\"0-1\": " + transfer("HCCS", 40, 2)
        + ", \"0-3\": " + transfer("LOCAL", 8, 1) + "}}}}";
    const QByteArray matrix1
        = "{\"step1\": {\"collective\": {\"allreduce@group\": {\"1-0\": " + transfer("HCCS", 20, 2) + "}}}}";
    writeAscendMsRank(root, 0, 8000, matrix0);
    writeAscendMsRank(root, 1, 8000, matrix1);
    writeAscendMsRank(root, 2, 12000, {});
    QVERIFY(MindSporeClusterReader::containsClusterFiles(root));
    const Cluster c = MindSporeClusterReader::read({ root });
    QVERIFY2(c.diagnostics.isEmpty(), qPrintable(c.diagnostics.isEmpty() ? QString() : c.diagnostics.front().message));
    QCOMPARE(c.ranks.size(), std::size_t(3));
    for (int r = 0; r < 3; ++r)
        QCOMPARE(c.ranks[std::size_t(r)].rank, r);
    const RankFigures& r0 = c.ranks[0];
    QCOMPARE(r0.steps.size(), std::size_t(2));
    // Step 1: 8 ms computing + 1 ms communication + 0.2 ms free; step 2: 8.2 + 1 + 0.4.
    QCOMPARE(r0.steps[0].stepTime, 9.2);
    QCOMPARE(r0.steps[1].stepTime, 9.6);
    QCOMPARE(r0.stepTime, 9.4);
    QCOMPARE(r0.computation, 8.1);
    QCOMPARE(r0.communication, 1.0);
    QCOMPARE(r0.overlapped, 0.5);
    QCOMPARE(r0.idle, 0.3);
    QVERIFY(qAbs(r0.receive - 0.2) < 1e-12);
    // Rank 2: 12 ms and 12.2 ms computing, steps of 13.2 and 13.6 ms; the mean of 9.4, 9.4 and 13.4 is
    // 32.2 / 3.
    QCOMPARE(c.ranks[2].stepTime, 13.4);
    QVERIFY(c.ranks[2].slow);
    QVERIFY(qAbs(c.ranks[2].deviation - (13.4 / (32.2 / 3) - 1.0)) < 1e-9);
    QVERIFY(!c.ranks[0].slow);
    QCOMPARE(c.slowestRank, 2);

    QCOMPARE(c.links.size(), std::size_t(3));
    auto link = [&c](int src, int dst) -> const ClusterLink* {
        for (const ClusterLink& l : c.links)
            if (l.src == src && l.dst == dst)
                return &l;
        return nullptr;
    };
    QVERIFY(link(0, 1) && link(0, 2) && link(1, 0));
    QVERIFY(!link(0, 0) && !link(0, 3));
    QCOMPARE(link(0, 1)->type, QStringLiteral("HCCS"));
    QCOMPARE(link(0, 1)->size, 60.0);
    QCOMPARE(link(0, 1)->time, 3.0);
    QCOMPARE(link(0, 1)->bandwidth, 20.0);
    QCOMPARE(link(1, 0)->bandwidth, 10.0);
    // The HCCS mean is 50/3 GB/s; 10 GB/s is 40 % below it.
    QVERIFY(link(1, 0)->slow);
    QVERIFY(!link(0, 1)->slow);
}

void TstMindSporeCluster::clusterStepTraceTable()
{
    QTemporaryDir tmp;
    QByteArray csv = "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,"
                     "Bubble,Communication(Not Overlapped and Exclude Receive)\n";
    // Ranks 0..3, one step; rank 3 computes 30 ms instead of 10; stage rows are not ranks.
    for (int rank = 0; rank < 4; ++rank)
        csv += "1,rank," + QByteArray::number(rank) + ',' + (rank == 3 ? "30000" : "10000")
            + ",2000,0,2000,0,0,0,2000\n";
    csv += "1,stage,0,10000,2000,0,2000,0,0,0,2000\n";
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("cluster_analysis_output/cluster_step_trace_time.csv")), csv));
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("cluster_analysis_output/broken/step_trace_time.csv")), csv));
    QVERIFY(MindSporeClusterReader::containsClusterFiles(tmp.path()));
    const Cluster c = MindSporeClusterReader::read({ tmp.path() });
    QCOMPARE(c.ranks.size(), std::size_t(4));
    QCOMPARE(c.ranks[3].rank, 3);
    QCOMPARE(c.ranks[3].stepTime, 32.0);
    QCOMPARE(c.ranks[0].stepTime, 12.0);
    QCOMPARE(c.slowestRank, 3);
    QVERIFY(c.ranks[3].slow);
    // The step_trace_time.csv outside an _ascend_ms folder has no rank: named in a warning, left out.
    bool named = false;
    for (const Diagnostic& d : c.diagnostics)
        named = named || d.file.endsWith(QLatin1String("broken/step_trace_time.csv"));
    QVERIFY(named);
}

QTEST_GUILESS_MAIN(TstMindSporeCluster)
#include "tst_mindsporecluster.moc"
