#pragma once

#include "models/core/diagnostic.h"
#include "models/profiler/profilerdata.h"

#include <QString>
#include <QStringList>

#include <map>

namespace runlens::importers::profiler {

/// What a file of a MindSpore profiler folder is for.
enum class FileRole {
    ProfilerInfo, ///< profiler_info_{rank}.json
    ProfilerMetadata, ///< 2.x profiler_metadata.json
    AicoreType,
    AicoreDetail,
    FrameworkRaw,
    AicpuIntermediate,
    GpuOpType,
    GpuOpDetail,
    GpuActivity,
    CpuOpType,
    CpuOpDetail,
    Flops,
    FlopsSummary,
    FlopsScope,
    StepTraceRaw,
    StepTracePointInfo,
    TimelineDisplay, ///< ascend_/gpu_timeline_display_{id}.json, timeline_display_{id}.json, 2.x trace_view.json
    TimelineSummary,
    OutputTimelineData,
    OpComputeTime, ///< output_op_compute_time_{id}.txt and its _detail
    MinCycleCounter,
    MinddataPipelineRaw,
    MinddataPipelineSummary,
    PipelineProfiling,
    MinddataCpuUtilization,
    DeviceQueue, ///< device_queue_profiling / dataset_iterator_profiling
    MinddataAicpu, ///< minddata_aicpu (Ascend) / minddata_getnext_profiling (GPU)
    MemoryUsageSummary,
    MemoryUsageDetails,
    OperatorMemory,
    MemoryRecord,
    HcclRaw,
    ClusterAnalyse,
    DynamicShapeInfo,
    ParallelStrategy,
    KernelDetails, ///< 2.x ASCEND_PROFILER_OUTPUT/kernel_details.csv
    OpStatistic, ///< 2.x op_statistic.csv
    StepTraceTime, ///< 2.x step_trace_time.csv
    Communication, ///< 2.x communication.json / communication_matrix.json
    Dataset, ///< 2.x dataset.csv
    ApiStatistic,
    Other,
};

/// Stable id of a role ("aicore_type", "step_trace_raw", ...), for diagnostics and `runlens info`.
QString fileRoleId(FileRole role);

/// One rank of a MindSpore profiler output: where it is, what device it profiled, and its files by role.
struct ProfilerRank
{
    int rank = -1; ///< -1 when neither a file name nor profiler_info says
    models::profiler::DeviceType deviceType = models::profiler::DeviceType::Unknown;
    QString version; ///< MindSpore version (profiler_info's ms_version)
    QString folder; ///< the profiler*/ folder, or the 2.x {host}_{pid}_{ts}_ascend_ms folder
    QString layout; ///< "mindinsight" or "ascend_ms"
    bool dynamicShape = false;
    int rankSize = 0;
    QString parallelMode;
    QStringList cannFolders; ///< PROF_* folders of this rank
    std::map<FileRole, QStringList> files; ///< absolute paths, sorted

    QStringList filesOf(FileRole role) const;
    /// The first file of a role, or an empty string.
    QString file(FileRole role) const;
    bool has(FileRole role) const { return files.count(role) > 0; }
};

/// The role of a profiler file by its name (and whether it sits in a profiler folder, for the generic 2.x
/// names); `rank` gets the `_{id}` of the name when there is one. Returns FileRole::Other for unknown names.
FileRole profilerFileRole(const QString& fileName, bool inProfilerFolder, std::optional<int>& rank);

/// Groups profiler files (absolute paths, e.g. those RunScanner classified as ProfilerCsv/ProfilerJson and
/// traces) into ranks: one ProfilerRank per (folder, rank id), sorted by folder then rank. Reads only the
/// small profiler_info/profiler_metadata JSON documents. Files that belong to no profiler folder are ignored.
std::vector<ProfilerRank> groupProfilerFiles(const QStringList& paths, models::Diagnostics* diagnostics = nullptr);

/// Walks `directory` (bounded depth and entry count, no symlinked folders) and groups what it finds.
std::vector<ProfilerRank> findProfilerRanks(const QString& directory, models::Diagnostics* diagnostics = nullptr);

} // namespace runlens::importers::profiler
