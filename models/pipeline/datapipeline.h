#pragma once

#include <QString>
#include <QStringList>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace runlens::models::pipeline {

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

/// One operator of a MindSpore dataset pipeline (MindData): a source, map, batch, shuffle ... Each op writes
/// into its own output queue, which its parent reads. Numbers the files do not give stay NaN (or -1).
struct PipelineOp
{
    int id = -1;
    QString type; ///< as written: "Batch", "MapOp", "TFReader" ...
    int workers = -1; ///< num_workers, -1 unknown
    int parent = -1; ///< id of the op that reads this op's output queue, -1 for the root
    std::vector<int> children;

    std::vector<double> queueSizes; ///< sampled output queue sizes (every sampling interval)
    double queueAverageSize = kUnknown;
    int queueCapacity = -1; ///< output_queue_length, -1 unknown
    double queueUsage = kUnknown; ///< average size / capacity, 0..1; NaN when the op has no queue data
    double queueEmptyRate = kUnknown; ///< share of samples with an empty queue, 0..1
    std::vector<double> throughput; ///< pipeline_profiling throughput samples (rows per ns as written)
    double averageThroughput = kUnknown;
    double cpuPercent = kUnknown; ///< average user + sys CPU % of the op's threads

    /// The type without the "Op" suffix newer MindSpore versions add ("MapOp" -> "Map").
    QString displayType() const;
    /// "Map_2", the form MindInsight names ops in its advice.
    QString label() const { return displayType() + QLatin1Char('_') + QString::number(id); }
    bool isSource() const { return children.empty(); }
    bool hasQueue() const { return !std::isnan(queueUsage); }
};

/// The host queue between the pipeline and the device (`device_queue_profiling_{id}.txt` with dataset
/// sink, `dataset_iterator_profiling_{id}.txt` without): its size when each batch was taken.
struct HostQueueSample
{
    int step = 0;
    int size = 0;
    int capacity = 0;
    bool empty() const { return size == 0; }
    bool full() const { return capacity > 0 && size == capacity; }
};

struct HostQueue
{
    QString path;
    bool iterator = false; ///< read from dataset_iterator_profiling (no dataset sink)
    std::vector<HostQueueSample> samples; ///< sorted by step
    /// Per-step times in ms (type 0 records): getting a batch from the pipeline, pushing it to the device,
    /// the whole batch; each sorted by step, pairs of (step, ms).
    std::vector<std::pair<int, double>> getMs;
    std::vector<std::pair<int, double>> pushMs;
    std::vector<std::pair<int, double>> totalMs;

    bool empty() const { return samples.empty(); }
    int emptyCount() const;
    int fullCount() const;
    double emptyRatio() const; ///< NaN without samples
    double fullRatio() const;
};

/// The device (chip) queue that GetNext reads: `minddata_aicpu_{id}.txt` (Ascend, µs) or
/// `minddata_getnext_profiling_{id}.txt` (GPU, ns). Times are kept in µs.
struct DeviceQueueSample
{
    double startUs = 0;
    double endUs = 0;
    int size = -1; ///< queue size when GetNext ran, -1 when the line has no size
    double waitMs() const { return (endUs - startUs) / 1000.0; }
};

struct DeviceQueue
{
    QString path;
    bool gpu = false;
    std::vector<DeviceQueueSample> samples;

    bool empty() const { return samples.empty(); }
    int sizedCount() const; ///< samples with a queue size
    int emptyCount() const;
    double emptyRatio() const; ///< NaN without sized samples
    double averageWaitMs() const;
};

/// A named curve of CPU utilisation (percent) over CpuUtilization::timeStamps.
struct CpuCurve
{
    QString key; ///< as written: "user_utilization", "sys_utilization" ...
    std::vector<double> values;
    double average() const; ///< NaN when empty
};

struct OpCpuUsage
{
    int opId = -1;
    std::vector<CpuCurve> curves; ///< user, sys as written
    /// Average of user + sys per sample (MindSpore's avg_cpu_pct).
    double averagePercent() const;
};

/// `minddata_cpu_utilization_{id}.json`: device-wide, process and per-op utilisation sampled over time.
struct CpuUtilization
{
    QString path;
    int samplingIntervalMs = -1;
    int processorCount = -1;
    std::vector<double> timeStamps;
    std::vector<CpuCurve> device; ///< user, sys, io, idle utilisation (and counters such as runable_processes)
    std::vector<CpuCurve> process;
    std::vector<OpCpuUsage> ops;

    bool empty() const { return timeStamps.empty() && device.empty() && process.empty() && ops.empty(); }
    const CpuCurve* deviceCurve(const QString& key) const;
    const CpuCurve* processCurve(const QString& key) const;
    const OpCpuUsage* op(int opId) const;
    /// 100 - average idle: MindInsight's "average system CPU usage". Missing idle data counts as all idle.
    double deviceBusyPercent() const;
};

/// Why an op was picked as a (possible) bottleneck.
enum class BottleneckReason : std::uint8_t {
    /// A child's output queue (the op's input) is fuller than the op's own by more than the margin: the
    /// op cannot keep up with what it is given.
    SlowerThanChild,
    /// A source op whose output queue is used below the low threshold: reading the data is slow.
    SlowSource,
    /// Named by MindSpore's own analysis (`minddata_pipeline_summary_{id}.json` bottleneck_warning).
    ReportedBySummary,
};

struct Bottleneck
{
    int opId = -1;
    BottleneckReason reason = BottleneckReason::SlowerThanChild;
    double usage = kUnknown; ///< the op's queue usage
    int childId = -1; ///< SlowerThanChild: the child with the fullest queue
    double childUsage = kUnknown;
    QString text; ///< ReportedBySummary: MindSpore's words
};

/// What the host and device queues say about where the input is slow (MindInsight's queue verdict).
enum class QueueVerdict : std::uint8_t {
    Unknown, ///< no host queue file
    DataProcessing, ///< host queue empty too often: the pipeline is slow
    DataTransmission, ///< host queue fine, chip queue runs empty: host-to-device transfer is slow
    Fine, ///< neither: look at the data-processing suggestions anyway
};

/// Everything MindSpore's profiler recorded about one rank's data pipeline. Immutable once published
/// (shared as std::shared_ptr<const DataPipeline>).
struct DataPipeline
{
    int rank = -1;
    QStringList paths; ///< the files it was read from
    int samplingIntervalMs = -1; ///< of the queue samples
    std::vector<PipelineOp> ops; ///< sorted by id
    HostQueue hostQueue;
    DeviceQueue deviceQueue;
    CpuUtilization cpu;
    /// Possible bottlenecks, most downstream first; empty when the pipeline keeps up (or has no queue data).
    std::vector<Bottleneck> bottlenecks;
    /// True when every non-root queue is at least the high threshold full: the pipeline is not the problem.
    bool pipelineKeepsUp = false;
    QStringList summaryWarnings; ///< `bottleneck_warning` of a 2.x summary
    QStringList summarySuggestions; ///< `bottleneck_suggestion` of a 2.x summary

    bool empty() const { return ops.empty() && hostQueue.empty() && deviceQueue.empty() && cpu.empty(); }
    const PipelineOp* op(int id) const;
    /// The op without a parent (usually Batch or EpochCtrl); nullptr without ops.
    const PipelineOp* root() const;
    /// The first bottleneck, or nullptr.
    const Bottleneck* primaryBottleneck() const { return bottlenecks.empty() ? nullptr : &bottlenecks.front(); }
    bool isBottleneck(int opId) const;
    /// Ops from the sources to the root, each after all its children (a stable topological order).
    std::vector<int> pipelineOrder() const;
    /// Longest path from a source: 0 for sources, the root the largest. Indexed like `ops`.
    std::vector<int> depths() const;
};

} // namespace runlens::models::pipeline
