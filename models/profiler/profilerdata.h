#pragma once

#include "models/core/diagnostic.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace runlens::models::profiler {

/// The device a MindSpore profiler folder describes, told by which files it holds.
enum class DeviceType { Unknown, Ascend, Gpu, Cpu };

/// Stable id for JSON and CSV ("ascend", "gpu", "cpu", "unknown").
QString deviceTypeId(DeviceType type);
/// Display name ("Ascend", "GPU", "CPU", translated "Unknown").
QString deviceTypeName(DeviceType type);

/// The time of one operator type on one rank. Times are microseconds.
struct OpTypeStats
{
    QString type;
    QString core; ///< "AI Core", "AI CPU", "GPU", "CPU", or the 2.x "Core Type"; may be empty
    qint64 calls = 0;
    double totalUs = 0.0;
    double minUs = -1.0; ///< -1 when the file does not say
    double maxUs = -1.0;
    double share = 0.0; ///< 0..1 of OperatorTable::totalUs

    double averageUs() const { return calls > 0 ? totalUs / double(calls) : 0.0; }
};

/// One operator (kernel instance by full name) on one rank, with what framework_raw / kernel_details say about it.
struct OpStats
{
    QString name; ///< full scoped name (Default/network-.../Conv2D-op12)
    QString type;
    QString core;
    qint64 calls = 0;
    double totalUs = 0.0;
    double share = 0.0; ///< 0..1 of OperatorTable::totalUs
    int streamId = -1;
    QString inputShapes; ///< "32,3,224,224;64,3,7,7" (one entry per input, ';' between inputs)
    QString outputShapes;
    QString formats; ///< input formats then "->" output formats
    QString dataTypes;
    std::optional<double> mflops; ///< per call, 10^6 floating point operations (cube + vector when split)
    std::optional<double> gflops; ///< achieved, 10^9 per second
    std::optional<double> flopsUtilization; ///< percent

    double averageUs() const { return calls > 0 ? totalUs / double(calls) : 0.0; }
};

/// The operator table of one rank, at type level and op level, each sorted by total time (descending).
struct OperatorTable
{
    std::vector<OpTypeStats> types;
    std::vector<OpStats> ops;
    double totalUs = 0.0; ///< sum of the type totals (or of the op totals when there are no types)
    bool hasFlops = false;
    QStringList sources; ///< files the table was read from

    bool isEmpty() const { return types.empty() && ops.empty(); }
    /// Sorts both levels and fills the shares; types are derived from ops when no type file was read.
    void finish();
};

/// Per-step times of one rank split into stacked categories (MindSpore: iteration interval, FP+BP, tail;
/// 2.x: computing, communication not overlapped, free) plus extra columns that are not part of the stack
/// (overlapped communication, pipeline stage and bubble, per-stream reduce times). Times are microseconds.
struct StepSeries
{
    struct Step
    {
        qint64 number = 0;
        double totalUs = 0.0; ///< the file's step time (the stack's sum when the file has no total)
        std::vector<double> valuesUs; ///< one per category
        std::vector<double> extrasUs; ///< one per extra column; NaN when absent
    };

    QStringList categoryIds; ///< "iteration_interval", "fp_and_bp", "tail", "computing", ...
    QStringList categoryNames; ///< translated
    QStringList extraIds; ///< header names as written for stream columns, ids for the rest
    QStringList extraNames;
    std::vector<Step> steps;
    /// Mean of the steps (the first step left out when there are more: it carries the warm-up, and MindSpore's
    /// own average row leaves it out too). Same layout as Step.
    Step average;
    /// The file's own average row (step "-"), when present.
    std::optional<Step> fileAverage;
    QString fpStart; ///< from step_trace_point_info: the op that opens forward propagation
    QString bpEnd; ///< the op that closes back propagation
    QStringList sources;

    bool isEmpty() const { return steps.empty(); }
    int categoryCount() const { return int(categoryIds.size()); }
    /// Fills `average` from `steps`.
    void computeAverage();
};

/// Everything read for one rank of a MindSpore profiler folder.
struct ProfilerRankData
{
    int rank = -1;
    DeviceType deviceType = DeviceType::Unknown;
    QString msVersion; ///< MindSpore version from profiler_info (may be empty)
    QString cannVersion; ///< CANN/driver version when a 2.x metadata file says
    QString layout; ///< "mindinsight" (profiler*/ folder) or "ascend_ms" (2.x ASCEND_PROFILER_OUTPUT)
    QString folder;
    int rankSize = 0;
    QString parallelMode;
    OperatorTable operators;
    StepSeries steps;
    Diagnostics diagnostics;
};

/// The ranks of one profiler folder, sorted by rank.
struct ProfilerRunData
{
    QString root;
    std::vector<ProfilerRankData> ranks;

    const ProfilerRankData* rank(int rank) const;
    bool isEmpty() const { return ranks.empty(); }
};

} // namespace runlens::models::profiler
