#pragma once

#include "models/cluster/cluster.h"
#include "models/pipeline/datapipeline.h"
#include "models/profiler/profilerdata.h"

#include <memory>
#include <vector>

namespace runlens::models {

/// What the MindSpore profiler output of one run holds: each rank's operators and steps, each rank's
/// data pipeline, and the cluster figures across the ranks (when there are several). Immutable once
/// published.
struct ProfilerBundle
{
    std::shared_ptr<const profiler::ProfilerRunData> ranks;
    std::vector<std::shared_ptr<const pipeline::DataPipeline>> pipelines; ///< by rank, ascending
    std::shared_ptr<const cluster::Cluster> cluster; ///< null for a single rank

    bool isEmpty() const { return (!ranks || ranks->isEmpty()) && pipelines.empty() && !cluster; }
};

} // namespace runlens::models
