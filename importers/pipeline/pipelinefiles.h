#pragma once

#include "models/core/diagnostic.h"
#include "models/pipeline/datapipeline.h"

#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <vector>

// Parsers of the single files MindSpore's profiler writes about the dataset pipeline (MindData). Each takes
// the file's bytes and its path (for diagnostics), fills what it can and never throws: lines or fields
// that cannot be read become diagnostics naming the file and line, and everything else is kept. Each
// returns false only when nothing at all could be read.

namespace runlens::importers::pipeline {

/// `minddata_pipeline_raw_{id}.csv`: one row per op; columns by header name. `sampleIntervalMs` gets the
/// sample_interval column (-1 when absent).
bool readPipelineRawCsv(QByteArrayView data, const QString& path, std::vector<models::pipeline::PipelineOp>& ops,
                        int& sampleIntervalMs, models::Diagnostics& diagnostics);

/// `pipeline_profiling_{id}.json`: ops with children and output queue samples (sizes, capacity,
/// throughput). Parents are derived from the children lists; queue averages from the samples.
bool readPipelineProfilingJson(QByteArrayView data, const QString& path, std::vector<models::pipeline::PipelineOp>& ops,
                               int& samplingIntervalMs, models::Diagnostics& diagnostics);

/// `device_queue_profiling_{id}.txt` / `dataset_iterator_profiling_{id}.txt`: space separated records
/// `type extra step value [timestamp]`; type 1 = queue (extra = capacity, value = size), type 0 = time
/// (extra 0 get / 1 push / 2 whole batch, value in ms).
bool readHostQueueText(QByteArrayView data, const QString& path, models::pipeline::HostQueue& queue,
                       models::Diagnostics& diagnostics);

/// `minddata_aicpu_{id}.txt` (Ascend, µs) / `minddata_getnext_profiling_{id}.txt` (GPU, ns): lines
/// `GetNext… start end [queue_size]`; other lines are skipped.
bool readDeviceQueueText(QByteArrayView data, const QString& path, bool gpuNanoseconds,
                         models::pipeline::DeviceQueue& queue, models::Diagnostics& diagnostics);

/// `minddata_cpu_utilization_{id}.json`: device, process and per-op utilisation arrays over time stamps.
/// Ops with id -1 (threads outside the pipeline) are left out.
bool readCpuUtilizationJson(QByteArrayView data, const QString& path, models::pipeline::CpuUtilization& cpu,
                            models::Diagnostics& diagnostics);

/// MindSpore 2.x `minddata_pipeline_summary_{id}.json`: per-op lists (op_ids, op_names, num_workers,
/// queue_average_size, queue_utilization_pct, queue_empty_freq_pct, children_ids, parent_id, avg_cpu_pct)
/// and MindSpore's bottleneck_warning / bottleneck_suggestion texts.
bool readPipelineSummaryJson(QByteArrayView data, const QString& path, std::vector<models::pipeline::PipelineOp>& ops,
                             QStringList& warnings, QStringList& suggestions, models::Diagnostics& diagnostics);

/// The same summary written as CSV: one row per key, the key in the first field and the values after it.
bool readPipelineSummaryCsv(QByteArrayView data, const QString& path, std::vector<models::pipeline::PipelineOp>& ops,
                            QStringList& warnings, QStringList& suggestions, models::Diagnostics& diagnostics);

/// Parses a JSON-like list of numbers ("[10, 20, 30]", "[]", "3"); false on anything else.
bool parseNumberList(QStringView text, std::vector<double>& values);

/// Fills the derived queue figures (average, usage, empty rate) an op's samples give and the file did not.
void completeQueueFigures(models::pipeline::PipelineOp& op);

} // namespace runlens::importers::pipeline
