#pragma once

#include "models/core/diagnostic.h"

#include <QString>
#include <QStringList>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace runlens::models::cluster {

/// A figure that was not measured (a file or column absent): shown as a dash, skipped by means.
constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
inline bool isKnown(double value)
{
    return std::isfinite(value);
}

/// Share by which a rank or a link must be off the mean to be flagged: MindInsight's cluster helper rule.
constexpr double kOffMeanThreshold = 0.2;

/// Where a cluster was read from: decides which columns exist and which figure finds the slow rank.
enum class ClusterOrigin : std::uint8_t {
    MindSpore, ///< profiler folders (ascend_cluster_analyse_*, step_trace_raw_*, hccl_raw_*, flops_summary_*)
    Kineto, ///< one Chrome trace per rank (PyTorch profiler with distributedInfo)
};

/// One step of one rank. Times in milliseconds; kMissing where the source has no such figure.
struct RankStep
{
    std::int64_t step = 0;
    double stepTime = kMissing; ///< the whole step
    double stepInterval = kMissing; ///< MindSpore: the gap before the step's first op (data wait)
    double computation = kMissing;
    double communication = kMissing; ///< communication not overlapped by computation
    double overlapped = kMissing; ///< communication hidden under computation
    double receive = kMissing; ///< pipeline parallel: Receive ops between stages (not overlapped)
    double idle = kMissing; ///< device idle
    double tail = kMissing; ///< MindSpore step trace: from the last backward op to the step end
    double communicationShare = kMissing; ///< Kineto: communication kernels' union / step time (0..1)
    double lastCommunicationOffset = kMissing; ///< Kineto: start of the step's last communication kernel
                                               ///< relative to the step start (straggler detection)
};

/// HTA's temporal breakdown of one rank over its device streams (Kineto only), in milliseconds.
struct TemporalBreakdown
{
    double span = 0; ///< first device event start to last device event end
    double compute = 0; ///< union of computation kernels
    double nonCompute = 0; ///< busy but not computing: communication, memcpy, memset
    double idle = 0; ///< span minus the union of all device work
    double communication = 0; ///< union of communication kernels
    double overlap = 0; ///< communication ∩ computation

    /// Share of communication time hidden under computation (HTA's comm/comp overlap), 0..1 or kMissing.
    double overlapRatio() const { return communication > 0 ? overlap / communication : kMissing; }
};

/// The figures of one rank (device). Averages over the rank's steps; times in milliseconds.
struct RankFigures
{
    int rank = -1;
    int stage = -1; ///< pipeline stage (1-based as MindSpore numbers them), -1 when not pipelined
    QString host;
    QString device; ///< e.g. "Ascend 3" or "Tesla V100-SXM2-32GB"
    int source = -1; ///< Kineto: index of the rank's source in the TraceStore
    QString path; ///< the file or folder the rank was read from

    double stepTime = kMissing;
    double stepInterval = kMissing;
    double computation = kMissing;
    double communication = kMissing; ///< alone (not overlapped)
    double overlapped = kMissing;
    double receive = kMissing;
    double idle = kMissing;
    double tail = kMissing;
    double communicationShare = kMissing; ///< 0..1
    double flops = kMissing; ///< GFLOPS (10^9 floating-point operations per second)
    double flopsTotal = kMissing; ///< MFLOPs of one step as flops_summary reports it
    double peakMemoryBytes = kMissing; ///< filled by whoever knows the memory model
    TemporalBreakdown temporal; ///< Kineto only
    bool hasTemporal = false;

    std::vector<RankStep> steps;

    // Results of Cluster::analyse().
    double deviation = kMissing; ///< slow-rank figure relative to the cluster mean (+0.25 = 25 % above)
    bool slow = false; ///< more than 20 % above the mean (or, for FLOPS, below)
    bool lowFlops = false; ///< FLOPS more than 20 % below the mean
    int stragglerSteps = 0; ///< Kineto: steps in which this rank's last collective started latest
};

/// One communication link between two ranks, averaged over steps.
struct ClusterLink
{
    int src = -1;
    int dst = -1;
    QString type; ///< "SDMA", "RDMA", "PCIE", "HCCS", ...
    double time = kMissing; ///< ms
    double size = kMissing; ///< MB
    double bandwidth = kMissing; ///< GB/s

    // Results of Cluster::analyse().
    double deviation = kMissing; ///< bandwidth relative to the mean of its type (-0.3 = 30 % below)
    bool slow = false; ///< bandwidth more than 20 % below the mean of its type
};

/// The straggler of one step across Kineto ranks: the rank whose last communication kernel started
/// latest relative to its step start (the others waited for it inside that collective). Steps in which
/// no rank started later than the median of the others have none.
struct StragglerStep
{
    std::int64_t step = 0;
    int rank = -1; ///< the straggler's rank number
    double lateness = 0; ///< ms later than the median of the other ranks
};

/// Ranks of one pipeline stage.
struct StageGroup
{
    int stage = -1;
    std::vector<int> rankIndices; ///< into Cluster::ranks
    double meanStepTime = kMissing;
    double meanStepInterval = kMissing;
    double meanComputation = kMissing;
    double meanCommunication = kMissing;
    double meanFlops = kMissing;
};

/// Figures of every rank of a distributed run, the links between them and the analyses that find the
/// slow rank and the slow link (MindInsight's "> 20 % off the mean" rule) and, for Kineto ranks, the
/// straggler per step. A value type: importers and analyses fill it, then call analyse(); the panel and
/// the reports read it. Times are milliseconds.
struct Cluster
{
    ClusterOrigin origin = ClusterOrigin::MindSpore;
    QString parallelMode; ///< "data-parallel", "model-parallel", "pipeline-parallel" or empty
    int stageCount = 0;
    int worldSize = 0; ///< declared rank count (file names, distributedInfo); may exceed ranks.size()
    std::vector<RankFigures> ranks; ///< sorted by rank
    std::vector<ClusterLink> links;
    std::vector<StragglerStep> stragglers;
    Diagnostics diagnostics;

    // Results of analyse().
    int slowestRank = -1; ///< index into ranks: the largest slow-rank figure
    int worstLink = -1; ///< index into links: the lowest bandwidth relative to its type's mean
    double communicationRate = kMissing; ///< Σ communication / Σ (computation + communication)

    bool isEmpty() const { return ranks.empty(); }
    /// The figure that decides the slow rank: the step interval where MindSpore measured it (as
    /// MindInsight), else the step time.
    double slowFigure(const RankFigures& rank) const;
    bool usesStepInterval() const;
    /// Index into ranks of `rank`, or -1.
    int indexOfRank(int rank) const;
    /// Distinct link types in first-seen order.
    QStringList linkTypes() const;
    /// Ranks grouped by stage (one group with stage -1 when not pipelined), stages ascending.
    std::vector<StageGroup> stages() const;
    bool hasStages() const;

    /// Sorts ranks, computes means, flags, the slowest rank, the worst link and the communication rate.
    void analyse();
};

/// Mean of the known values; kMissing when none.
double meanOfKnown(const std::vector<double>& values);

} // namespace runlens::models::cluster
