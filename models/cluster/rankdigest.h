#pragma once

#include "models/cluster/cluster.h"

#include "models/trace/stepbreakdown.h"
#include "models/trace/tracestore.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace runlens::models::cluster {

/// Where one step of a rank lies on its trace clock, and its data loading time.
struct DigestStep
{
    std::int64_t step = 0; ///< the N of ProfilerStep#N (as RankStep::step)
    std::int64_t start = 0; ///< ns, the trace's clock (baseTimeNanoseconds applied)
    std::int64_t end = 0; ///< ns
    double dataLoading = kMissing; ///< ms attributed to the data loader by the step breakdown
};

/// One collective (a communication kernel on the device) of a rank.
struct DigestCollective
{
    QString name; ///< "allreduce" from the kernel's "Collective name", else the kernel's name
    std::int64_t start = 0; ///< ns, the trace's clock
    std::int64_t end = 0; ///< ns
    double bytes = kMissing; ///< "In msg nelems" × the dtype's size, when the trace says
    QString group; ///< "Process Group Name" (with its description when given), empty when unknown
    int groupSize = -1; ///< "Group size", -1 when unknown
    QString groupRanks; ///< "Process Group Ranks" as the trace writes it ("[0, 1]")
};

/// Time spent in one kernel or operator name over the whole rank.
struct DigestStat
{
    QString name;
    std::uint64_t count = 0;
    double total = 0; ///< ms
    double max = 0; ///< ms
};

/// What the Cluster view and the cluster rules need from one rank, small enough that a thousand of them
/// stay in memory where a thousand trace stores cannot: the rank's figures (exactly as the cluster built
/// from a store holding every rank has them, so a cluster assembled from digests equals it), the span and
/// data loading of each step, every collective, the top kernels and operators, the memory peak and the
/// file the rank was read from (so its timeline can still be opened when the file is reachable).
struct RankDigest
{
    RankFigures figures; ///< before the cluster-wide analysis (deviation, slow and stragglers unset)
    int worldSize = 0; ///< as the trace's distributedInfo declares it; 0 when not
    std::vector<DigestStep> steps; ///< parallel to figures.steps
    std::vector<DigestCollective> collectives; ///< in start order
    std::vector<DigestStat> kernels; ///< top by total time, descending
    std::vector<DigestStat> operators; ///< top by host total time, descending
    QString file; ///< absolute path of the rank's trace
    qint64 fileSize = -1; ///< bytes, -1 when unknown
    qint64 fileModifiedMs = 0; ///< ms since the epoch (UTC), 0 when unknown

    int rank() const { return figures.rank; }
};

struct RankDigestOptions
{
    /// Kernels and operators kept, by total time.
    int topCount = 50;
};

/// The digest of one source of `store` (a store holding one rank is the streaming case: compute, then drop
/// the store). Reuses the cluster's per-rank analysis (kinetoRankFigures) and the step breakdown;
/// `breakdown` is computed when not given. The memory peak and the file's size and time are left for the
/// caller, who knows the memory model and the file. Thread-safe on a const store.
RankDigest computeRankDigest(const trace::TraceStore& store, int source = 0, const RankDigestOptions& options = {},
                             const trace::StepBreakdown* breakdown = nullptr);

/// One collective from its kernel's name, span (ns) and args object text (Kineto's "Collective name",
/// "In msg nelems", "dtype", "Process Group Name" / "Description" / "Ranks", "Group size").
DigestCollective digestCollective(std::string_view name, std::int64_t start, std::int64_t end,
                                  std::string_view argsText);

/// The Kineto cluster of the ranks of `digests` (stragglers, means, slow ranks), as buildKinetoCluster
/// makes it from a store holding every rank. Each rank's `source` is its index in `digests`.
Cluster clusterFromDigests(const std::vector<std::shared_ptr<const RankDigest>>& digests);

} // namespace runlens::models::cluster
