#pragma once

#include "importers/core/importcontrol.h"
#include "models/core/diagnostic.h"
#include "models/pipeline/datapipeline.h"

#include <QString>

#include <memory>
#include <vector>

namespace runlens::importers::pipeline {

/// The data pipeline files of one rank in a profiler folder; empty paths for files that are not there.
struct PipelineFiles
{
    QString pipelineRaw; ///< minddata_pipeline_raw_{id}.csv
    QString pipelineProfiling; ///< pipeline_profiling_{id}.json
    QString hostQueue; ///< device_queue_profiling_{id}.txt, else dataset_iterator_profiling_{id}.txt
    bool hostQueueIsIterator = false;
    QString deviceQueue; ///< minddata_aicpu_{id}.txt (Ascend), else minddata_getnext_profiling_{id}.txt (GPU)
    bool deviceQueueIsGpu = false;
    QString cpuUtilization; ///< minddata_cpu_utilization_{id}.json
    QString summaryJson; ///< minddata_pipeline_summary_{id}.json (2.x)
    QString summaryCsv; ///< minddata_pipeline_summary_{id}.csv (2.x)

    bool any() const;
};

/// Where a profiler folder keeps its files: the folder itself, and for the 2.x layout
/// (`{host}_{pid}_{ts}_ascend_ms/`) its `ASCEND_PROFILER_OUTPUT/` and `FRAMEWORK/`; a run folder's
/// `profiler/` too. Only folders that exist are returned.
QStringList pipelineSearchFolders(const QString& folder);

/// The files of `rank`, looked up in pipelineSearchFolders() (the first folder holding a file wins).
PipelineFiles findPipelineFiles(const QString& folder, int rank);

/// Rank ids that have at least one data pipeline file in the folder, ascending.
std::vector<int> pipelineRanks(const QString& folder);

struct PipelineReadResult
{
    std::shared_ptr<const models::pipeline::DataPipeline>
        pipeline; ///< nullptr when the rank has no pipeline file at all
    models::Diagnostics diagnostics;
};

/// Reads every data pipeline file of one rank and analyses the result (bottlenecks). A file that cannot
/// be read is reported and the others are still used. The op structure comes from the raw CSV when it is
/// there, else from pipeline_profiling, else from the 2.x summary; the others add what they have
/// (throughput, CPU). Runs on any thread; checks `control` between files.
PipelineReadResult readDataPipeline(const QString& folder, int rank, const ImportControl& control = {});

/// Reads every rank of the folder (pipelineRanks()), in rank order.
std::vector<PipelineReadResult> readDataPipelines(const QString& folder, const ImportControl& control = {});

} // namespace runlens::importers::pipeline
