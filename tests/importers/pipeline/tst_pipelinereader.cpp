#include "importers/pipeline/pipelinereader.h"
#include "models/pipeline/pipelineanalysis.h"

#include "tests/testutils.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::pipeline;
using namespace runlens::models;
using namespace runlens::models::pipeline;

namespace {

QString describe(const Diagnostics& diagnostics)
{
    QStringList lines;
    for (const Diagnostic& d : diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

bool hasSeverity(const Diagnostics& diagnostics, Severity severity)
{
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == severity)
            return true;
    }
    return false;
}

std::vector<int> bottleneckIds(const DataPipeline& p)
{
    std::vector<int> ids;
    for (const Bottleneck& b : p.bottlenecks)
        ids.push_back(b.opId);
    return ids;
}

bool writeFile(const QString& path, const QByteArray& data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

QString fixtureDir(const QString& samples)
{
    return samples + QStringLiteral("/profiler/mindspore/minddata_pipeline_fixture");
}

} // namespace

class TestPipelineReader : public QObject
{
    Q_OBJECT

private slots:
    void fixtureRanks();
    void fixtureStructure();
    void fixtureBottlenecks_data();
    void fixtureBottlenecks();
    void runOneProfiler();
    void profilerMiscCpuAndQueues();
    void profilingJsonAlone();
    void newLayoutFolderWithSummary();
    void gpuAndIteratorFiles();
    void corruptFilesKeepTheRest();
    void missingRank();
    void cancelled();
};

void TestPipelineReader::fixtureRanks()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const std::vector<int> ranks = pipelineRanks(fixtureDir(samples));
    QCOMPARE(ranks, (std::vector<int> { 0, 1, 2, 3 }));
    const auto all = readDataPipelines(fixtureDir(samples));
    QCOMPARE(all.size(), std::size_t(4));
    for (std::size_t i = 0; i < all.size(); ++i) {
        QVERIFY(all[i].pipeline);
        QCOMPARE(all[i].pipeline->rank, int(i));
    }
}

void TestPipelineReader::fixtureStructure()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    // minddata_pipeline_raw_0.csv: Batch(0) <- Shuffle(4) <- Shuffle(1) <- {TFReader(2), TFReader(3)}.
    const PipelineReadResult result = readDataPipeline(fixtureDir(samples), 0);
    QVERIFY2(result.pipeline, qPrintable(describe(result.diagnostics)));
    QVERIFY2(!hasSeverity(result.diagnostics, Severity::Error), qPrintable(describe(result.diagnostics)));
    const DataPipeline& p = *result.pipeline;
    QCOMPARE(p.ops.size(), std::size_t(5));
    QCOMPARE(p.samplingIntervalMs, 10);
    QCOMPARE(p.op(0)->type, QStringLiteral("Batch"));
    QCOMPARE(p.op(4)->type, QStringLiteral("Shuffle"));
    QCOMPARE(p.op(1)->type, QStringLiteral("Shuffle"));
    QCOMPARE(p.op(2)->type, QStringLiteral("TFReader"));
    QCOMPARE(p.op(3)->type, QStringLiteral("TFReader"));
    QCOMPARE(p.root()->id, 0);
    QCOMPARE(p.op(0)->parent, -1);
    QCOMPARE(p.op(4)->parent, 0);
    QCOMPARE(p.op(1)->parent, 4);
    QCOMPARE(p.op(2)->parent, 1);
    QCOMPARE(p.op(3)->parent, 1);
    QCOMPARE(p.op(0)->children, std::vector<int> { 4 });
    QCOMPARE(p.op(1)->children, (std::vector<int> { 2, 3 }));
    QVERIFY(p.op(2)->isSource());
    QCOMPARE(p.op(0)->workers, 4);
    QCOMPARE(p.op(4)->workers, 1);
    // Row of op 1: "[60, 60, 60, 60]",60.0,64,0.9375.
    QCOMPARE(p.op(1)->queueSizes, (std::vector<double> { 60, 60, 60, 60 }));
    QCOMPARE(p.op(1)->queueCapacity, 64);
    QCOMPARE(p.op(1)->queueAverageSize, 60.0);
    QCOMPARE(p.op(1)->queueUsage, 0.9375);
    QCOMPARE(p.op(1)->queueEmptyRate, 0.0);
    QCOMPARE(p.pipelineOrder().back(), 0);
    QCOMPARE(p.depths()[0], 3); // ops sorted by id: op 0 is three queues above the readers
}

void TestPipelineReader::fixtureBottlenecks_data()
{
    QTest::addColumn<int>("rank");
    QTest::addColumn<std::vector<int>>("expected");
    QTest::addColumn<int>("primaryReason");
    QTest::addColumn<bool>("keepsUp");
    // Worked by hand from the usage rates (and by a python re-implementation of MindInsight's rule):
    // rank 0: Shuffle 4 at 0.156 reads Shuffle 1 at 0.9375 (gap 0.78 > 0.1); TFReaders 2, 3 at 0.3125 < 0.6.
    QTest::newRow("rank 0") << 0 << std::vector<int> { 4, 2, 3 } << int(BottleneckReason::SlowerThanChild) << false;
    // rank 1: Shuffle 1 at 0.156 reads TFReaders at 0.9375; the readers themselves are full.
    QTest::newRow("rank 1") << 1 << std::vector<int> { 1 } << int(BottleneckReason::SlowerThanChild) << false;
    // rank 2: every non-root queue at 0.9375 >= 0.8: the pipeline keeps up, nothing to advise.
    QTest::newRow("rank 2") << 2 << std::vector<int> {} << -1 << true;
    // rank 3: all queues at 0.156, no gaps; the readers are below 0.6.
    QTest::newRow("rank 3") << 3 << std::vector<int> { 2, 3 } << int(BottleneckReason::SlowSource) << false;
}

void TestPipelineReader::fixtureBottlenecks()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    QFETCH(int, rank);
    QFETCH(std::vector<int>, expected);
    QFETCH(int, primaryReason);
    QFETCH(bool, keepsUp);
    const PipelineReadResult result = readDataPipeline(fixtureDir(samples), rank);
    QVERIFY(result.pipeline);
    const DataPipeline& p = *result.pipeline;
    QCOMPARE(bottleneckIds(p), expected);
    QCOMPARE(p.pipelineKeepsUp, keepsUp);
    if (primaryReason >= 0) {
        QCOMPARE(int(p.primaryBottleneck()->reason), primaryReason);
        QVERIFY(!bottleneckReasonText(p, *p.primaryBottleneck()).isEmpty());
    } else {
        QVERIFY(!p.primaryBottleneck());
    }
    if (rank == 0) {
        const Bottleneck& b = *p.primaryBottleneck();
        QCOMPARE(b.childId, 1);
        QCOMPARE(b.usage, 0.15625);
        QCOMPARE(b.childUsage, 0.9375);
        QVERIFY(bottleneckReasonText(p, b).contains(QStringLiteral("Shuffle_4")));
    }
}

void TestPipelineReader::runOneProfiler()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString dir = samples + QStringLiteral("/profiler/mindspore/run_1_profiler");
    QCOMPARE(pipelineRanks(dir), std::vector<int> { 1 });
    const PipelineReadResult result = readDataPipeline(dir, 1);
    QVERIFY(result.pipeline);
    const DataPipeline& p = *result.pipeline;
    // The CSV gives the structure: Batch 0 <- Shuffle 1 <- TFReader 2, 3.
    QCOMPARE(p.ops.size(), std::size_t(4));
    QCOMPARE(p.op(1)->children, (std::vector<int> { 2, 3 }));
    QCOMPARE(p.op(3)->parent, 1);
    QCOMPARE(p.paths.size(), 2);
    // pipeline_profiling_1.json has an op 4 and links Shuffle to 2 and 4: reported, not mixed in.
    QVERIFY2(hasSeverity(result.diagnostics, Severity::Info), qPrintable(describe(result.diagnostics)));
    QVERIFY(!p.op(4));
    // Every queue at 20 of 64 = 0.3125; the readers are below 0.6 and nothing has a fuller child.
    QCOMPARE(bottleneckIds(p), (std::vector<int> { 2, 3 }));
    QCOMPARE(p.op(2)->queueUsage, 0.3125);
    QCOMPARE(queueVerdict(p), QueueVerdict::Unknown);
}

void TestPipelineReader::profilerMiscCpuAndQueues()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    const QString dir = samples + QStringLiteral("/profiler/mindspore/profiler_misc");
    const std::vector<int> ranks = pipelineRanks(dir);
    QCOMPARE(ranks, (std::vector<int> { 0, 1 }));
    const PipelineReadResult result = readDataPipeline(dir, 0);
    QVERIFY(result.pipeline);
    const DataPipeline& p = *result.pipeline;
    QCOMPARE(p.ops.size(), std::size_t(4));
    QCOMPARE(p.paths.size(), 4);

    // minddata_cpu_utilization_0.json; oracle: python3 statistics.mean over each array.
    const CpuUtilization& cpu = p.cpu;
    QCOMPARE(cpu.samplingIntervalMs, 100);
    QCOMPARE(cpu.processorCount, 100);
    QCOMPARE(cpu.timeStamps.size(), std::size_t(3));
    QCOMPARE(cpu.deviceCurve(QStringLiteral("user_utilization"))->average(), 20.0);
    QCOMPARE(cpu.deviceCurve(QStringLiteral("sys_utilization"))->average(), 20.0);
    QCOMPARE(cpu.deviceCurve(QStringLiteral("io_utilization"))->average(), 10.0);
    QCOMPARE(cpu.deviceCurve(QStringLiteral("idle_utilization"))->average(), 10.0);
    QCOMPARE(cpu.deviceCurve(QStringLiteral("runable_processes"))->average(), 20.0);
    QCOMPARE(cpu.processCurve(QStringLiteral("sys_utilization"))->average(), 20.0);
    QCOMPARE(cpu.deviceBusyPercent(), 90.0);
    QCOMPARE(cpu.device.front().key, QStringLiteral("user_utilization"));
    QCOMPARE(cpu.ops.size(), std::size_t(1));
    // Op 1: user [10,20,30] + sys [10,20,30] per sample = [20,40,60], mean 40.
    QCOMPARE(cpu.op(1)->averagePercent(), 40.0);
    QCOMPARE(p.op(1)->cpuPercent, 40.0);
    QVERIFY(std::isnan(p.op(2)->cpuPercent));

    // device_queue_profiling_0.txt: one queue record "1 64 1 0 10" (capacity 64, step 1, size 0).
    const HostQueue& host = p.hostQueue;
    QCOMPARE(host.samples.size(), std::size_t(1));
    QCOMPARE(host.samples[0].capacity, 64);
    QCOMPARE(host.samples[0].step, 1);
    QCOMPARE(host.emptyCount(), 1);
    QCOMPARE(host.emptyRatio(), 1.0);
    QCOMPARE(host.fullRatio(), 0.0);
    QCOMPARE(host.getMs.size(), std::size_t(1));
    QCOMPARE(host.pushMs, (std::vector<std::pair<int, double>> { { 1, 4.0 } }));
    QCOMPARE(host.totalMs, (std::vector<std::pair<int, double>> { { 1, 4.0 } }));
    QVERIFY(!host.iterator);
    QCOMPARE(queueVerdict(p), QueueVerdict::DataProcessing);
    QVERIFY(queueVerdictText(p).contains(QStringLiteral("100.0")));
}

void TestPipelineReader::profilingJsonAlone()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    // pipeline_profiling_0.json of profiler_misc, alone in a folder: a real MindSpore 1.x pipeline
    // EpochCtrl 4 <- Batch 0 <- Map 1 <- Map 2 <- ImageFolder 3.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QVERIFY(QFile::copy(samples + QStringLiteral("/profiler/mindspore/profiler_misc/pipeline_profiling_0.json"),
                        tmp.filePath(QStringLiteral("pipeline_profiling_0.json"))));
    const PipelineReadResult result = readDataPipeline(tmp.path(), 0);
    QVERIFY(result.pipeline);
    const DataPipeline& p = *result.pipeline;
    QCOMPARE(p.ops.size(), std::size_t(5));
    QCOMPARE(p.root()->id, 4);
    QCOMPARE(p.root()->displayType(), QStringLiteral("EpochCtrl"));
    QCOMPARE(p.op(0)->parent, 4);
    QCOMPARE(p.op(1)->parent, 0);
    QCOMPARE(p.op(2)->parent, 1);
    QCOMPARE(p.op(3)->parent, 2);
    QCOMPARE(p.op(3)->workers, 8);
    QCOMPARE(p.pipelineOrder(), (std::vector<int> { 3, 2, 1, 0, 4 }));
    // Batch: sizes [0, 2] of 64 -> average 1, usage 1/64, empty half the time.
    QCOMPARE(p.op(0)->queueAverageSize, 1.0);
    QCOMPARE(p.op(0)->queueUsage, 1.0 / 64.0);
    QCOMPARE(p.op(0)->queueEmptyRate, 0.5);
    QCOMPARE(p.op(0)->throughput.size(), std::size_t(2));
    QCOMPARE(p.op(0)->averageThroughput, 6.461305720159247e-09 / 2);
    QVERIFY(!p.root()->hasQueue());
    // The maps have nothing queued either, so no op has a fuller child by 0.1; the source is empty.
    QCOMPARE(bottleneckIds(p), std::vector<int> { 3 });
    QCOMPARE(p.bottlenecks[0].reason, BottleneckReason::SlowSource);
    QVERIFY(bottleneckAdvice(*p.op(3)).contains(QStringLiteral("num_parallel_workers")));
}

void TestPipelineReader::newLayoutFolderWithSummary()
{
    // The 2.x layout keeps the summary in ASCEND_PROFILER_OUTPUT; a summary alone still gives the ops.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QVERIFY(QDir(tmp.path()).mkdir(QStringLiteral("ASCEND_PROFILER_OUTPUT")));
    QJsonObject summary;
    summary.insert(
        QStringLiteral("pipeline_ops"),
        QJsonArray { QStringLiteral("Batch(id=0)"), QStringLiteral("Map(id=1)"), QStringLiteral("ImageFolder(id=2)") });
    summary.insert(QStringLiteral("op_names"),
                   QJsonArray { QStringLiteral("Batch"), QStringLiteral("Map"), QStringLiteral("ImageFolder") });
    summary.insert(QStringLiteral("op_ids"), QJsonArray { 0, 1, 2 });
    summary.insert(QStringLiteral("num_workers"), QJsonArray { 4, 8, 2 });
    summary.insert(QStringLiteral("queue_average_size"), QJsonArray { 10, 2, 60 });
    summary.insert(QStringLiteral("queue_utilization_pct"), QJsonArray { 15.62, 3.12, 93.75 });
    summary.insert(QStringLiteral("queue_empty_freq_pct"), QJsonArray { 0, 40, 0 });
    summary.insert(QStringLiteral("children_ids"), QJsonArray { QJsonArray { 1 }, QJsonArray { 2 }, QJsonArray {} });
    summary.insert(QStringLiteral("parent_id"), QJsonArray { -1, 0, 1 });
    summary.insert(QStringLiteral("avg_cpu_pct"), QJsonArray { 10.5, 350.0, 20.0 });
    summary.insert(QStringLiteral("bottleneck_warning"),
                   QJsonArray { QStringLiteral("Batch(id=0) is likely a bottleneck.") });
    summary.insert(QStringLiteral("bottleneck_suggestion"),
                   QJsonArray { QStringLiteral("Try increasing num_parallel_workers.") });
    const QString out = tmp.filePath(QStringLiteral("ASCEND_PROFILER_OUTPUT"));
    QVERIFY(writeFile(out + QStringLiteral("/minddata_pipeline_summary_7.json"), QJsonDocument(summary).toJson()));
    QCOMPARE(pipelineRanks(tmp.path()), std::vector<int> { 7 });
    const PipelineReadResult result = readDataPipeline(tmp.path(), 7);
    QVERIFY2(result.pipeline, qPrintable(describe(result.diagnostics)));
    const DataPipeline& p = *result.pipeline;
    QCOMPARE(p.ops.size(), std::size_t(3));
    QCOMPARE(p.op(1)->parent, 0);
    QCOMPARE(p.op(2)->parent, 1);
    QCOMPARE(p.op(0)->parent, -1);
    QCOMPARE(p.op(1)->workers, 8);
    QCOMPARE(p.op(1)->queueUsage, 0.0312);
    QCOMPARE(p.op(1)->queueEmptyRate, 0.4);
    QCOMPARE(p.op(1)->cpuPercent, 350.0);
    QCOMPARE(p.summaryWarnings, QStringList { QStringLiteral("Batch(id=0) is likely a bottleneck.") });
    QCOMPARE(p.summarySuggestions.size(), 1);
    // Map 1 (3 %) reads ImageFolder 2 (94 %): slower than its child; then MindSpore's own pick, Batch 0.
    QCOMPARE(bottleneckIds(p), (std::vector<int> { 1, 0 }));
    QCOMPARE(p.bottlenecks[1].reason, BottleneckReason::ReportedBySummary);

    // The CSV form of the same summary (one row per key) when the JSON is not there.
    QByteArray csv;
    csv += "pipeline_ops,Batch(id=0),Map(id=1),ImageFolder(id=2)\r\n";
    csv += "op_names,Batch,Map,ImageFolder\r\n";
    csv += "op_ids,0,1,2\r\n";
    csv += "num_workers,4,8,2\r\n";
    csv += "queue_utilization_pct,15.62,3.12,93.75\r\n";
    csv += "children_ids,[1],[2],[]\r\n";
    csv += "parent_id,-1,0,1\r\n";
    csv += "per_batch_time,12.5\r\n";
    csv += "bottleneck_warning,\"Map(id=1) is slow, maybe.\"\r\n";
    QVERIFY(QFile::remove(out + QStringLiteral("/minddata_pipeline_summary_7.json")));
    QVERIFY(writeFile(out + QStringLiteral("/minddata_pipeline_summary_7.csv"), csv));
    const PipelineReadResult fromCsv = readDataPipeline(tmp.path(), 7);
    QVERIFY2(fromCsv.pipeline, qPrintable(describe(fromCsv.diagnostics)));
    QVERIFY2(!hasSeverity(fromCsv.diagnostics, Severity::Error), qPrintable(describe(fromCsv.diagnostics)));
    QCOMPARE(fromCsv.pipeline->ops.size(), std::size_t(3));
    QCOMPARE(fromCsv.pipeline->op(2)->parent, 1);
    QCOMPARE(fromCsv.pipeline->op(0)->children, std::vector<int> { 1 });
    QCOMPARE(fromCsv.pipeline->summaryWarnings, QStringList { QStringLiteral("Map(id=1) is slow, maybe.") });
    QCOMPARE(bottleneckIds(*fromCsv.pipeline), std::vector<int> { 1 });
}

void TestPipelineReader::gpuAndIteratorFiles()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    // Without dataset sink the host queue is the dataset iterator's; GPU GetNext times are in ns.
    QByteArray iterator;
    iterator += "1 64 1 0 100\n1 64 2 64 200\n1 64 3 32 300\n1 64 4 0 400\n0 2 2 5.5 200\n";
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("dataset_iterator_profiling_2.txt")), iterator));
    QByteArray getnext;
    getnext += "GetNext 1000000 3000000 0\nGetNext 4000000 4500000 5\nOtherEvent 1 2 3\nGetNext 5000000 5250000 7\n";
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("minddata_getnext_profiling_2.txt")), getnext));
    const PipelineReadResult result = readDataPipeline(tmp.path(), 2);
    QVERIFY(result.pipeline);
    const DataPipeline& p = *result.pipeline;
    QVERIFY(p.ops.empty());
    QVERIFY(p.hostQueue.iterator);
    QCOMPARE(p.hostQueue.samples.size(), std::size_t(4));
    QCOMPARE(p.hostQueue.emptyRatio(), 0.5);
    QCOMPARE(p.hostQueue.fullRatio(), 0.25);
    QCOMPARE(p.hostQueue.totalMs.front().second, 5.5);
    QVERIFY(p.deviceQueue.gpu);
    QCOMPARE(p.deviceQueue.samples.size(), std::size_t(3));
    QCOMPARE(p.deviceQueue.samples[0].startUs, 1000.0);
    QCOMPARE(p.deviceQueue.samples[0].waitMs(), 2.0);
    QCOMPARE(p.deviceQueue.emptyRatio(), 1.0 / 3.0);
    QCOMPARE(p.deviceQueue.averageWaitMs(), (2.0 + 0.5 + 0.25) / 3.0);
    // Host queue empty in 2 of 4 steps (> 30 %): the pipeline, not the transfer, is slow.
    QCOMPARE(queueVerdict(p), QueueVerdict::DataProcessing);
    QVERIFY(p.bottlenecks.empty());

    // Ascend's file is preferred and in µs.
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("minddata_aicpu_2.txt")),
                      QByteArray("GetNext_dequeue_wait 100 350 1\nGetNext_dequeue_wait 400 500 0\n")));
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("device_queue_profiling_2.txt")),
                      QByteArray("1 8 1 4 10\n1 8 2 8 20\n1 8 3 2 30\n1 8 4 5 40\n")));
    const PipelineReadResult ascend = readDataPipeline(tmp.path(), 2);
    QVERIFY(!ascend.pipeline->deviceQueue.gpu);
    QVERIFY(!ascend.pipeline->hostQueue.iterator);
    QCOMPARE(ascend.pipeline->deviceQueue.samples[0].waitMs(), 0.25);
    // Host queue never empty, the chip queue once: the transfer to the device is the slow part.
    QCOMPARE(queueVerdict(*ascend.pipeline), QueueVerdict::DataTransmission);
}

void TestPipelineReader::corruptFilesKeepTheRest()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QVERIFY(QFile::copy(fixtureDir(samples) + QStringLiteral("/minddata_pipeline_raw_0.csv"),
                        tmp.filePath(QStringLiteral("minddata_pipeline_raw_0.csv"))));
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("minddata_cpu_utilization_0.json")),
                      QByteArray("{\"time_stamp\": [1, 2")));
    QVERIFY(writeFile(tmp.filePath(QStringLiteral("device_queue_profiling_0.txt")),
                      QByteArray("1 64 1 3 10\ngarbage line\n1 64 2\n1 64 3 64 30\n")));
    const PipelineReadResult result = readDataPipeline(tmp.path(), 0);
    QVERIFY(result.pipeline);
    QCOMPARE(result.pipeline->ops.size(), std::size_t(5));
    QVERIFY(result.pipeline->cpu.empty());
    QCOMPARE(result.pipeline->hostQueue.samples.size(), std::size_t(2));
    bool jsonError = false;
    int badLines = 0;
    for (const Diagnostic& d : result.diagnostics) {
        if (d.file.endsWith(QStringLiteral("minddata_cpu_utilization_0.json")) && d.severity == Severity::Error)
            jsonError = true;
        if (d.file.endsWith(QStringLiteral("device_queue_profiling_0.txt")) && (d.line == 2 || d.line == 3))
            ++badLines;
    }
    QVERIFY2(jsonError, qPrintable(describe(result.diagnostics)));
    QCOMPARE(badLines, 2);
    QVERIFY(!result.pipeline->paths.contains(tmp.filePath(QStringLiteral("minddata_cpu_utilization_0.json"))));
}

void TestPipelineReader::missingRank()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const PipelineReadResult result = readDataPipeline(tmp.path(), 5);
    QVERIFY(!result.pipeline);
    QVERIFY(result.diagnostics.isEmpty());
    QVERIFY(pipelineRanks(tmp.path()).empty());
    QVERIFY(pipelineRanks(tmp.filePath(QStringLiteral("does-not-exist"))).empty());
}

void TestPipelineReader::cancelled()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    std::atomic_bool cancel { true };
    ImportControl control;
    control.cancel = &cancel;
    const PipelineReadResult result = readDataPipeline(fixtureDir(samples), 0, control);
    QVERIFY(!result.pipeline);
    QVERIFY(hasSeverity(result.diagnostics, Severity::Info));
}

QTEST_GUILESS_MAIN(TestPipelineReader)
#include "tst_pipelinereader.moc"
