#pragma once

#include "models/system/systemmetrics.h"

#include <memory>
#include <vector>

namespace runlens::models::pipeline {
struct CpuUtilization;
struct DataPipeline;
} // namespace runlens::models::pipeline

namespace runlens::models::system {

/// The CPU that MindSpore's data-pipeline profiler sampled (`minddata_cpu_utilization_{id}.json`) as the metrics
/// `runlens record` writes: `cpu_busy_percent` (100 - idle, the whole machine), `cpu_user_percent`,
/// `cpu_sys_percent`, `cpu_iowait_percent` and `process_cpu_percent` (the training process, percent of one core,
/// as MindSpore writes it). The profiler stamps samples in milliseconds; its first sample is a placeholder of
/// zeros and is left out. `run` names the result; empty when the file has no usable samples.
SystemRun systemRunOfMinddataCpu(const pipeline::CpuUtilization& cpu, const QString& run, int rank);

/// One SystemRun per rank of a profiler output folder (run `<run>/rank_<N>`), ranks without CPU data left out.
std::vector<SystemRun>
systemRunsOfPipelines(const QString& run, const std::vector<std::shared_ptr<const pipeline::DataPipeline>>& pipelines);

} // namespace runlens::models::system
