#pragma once

#include "models/cluster/cluster.h"

#include "models/trace/stepbreakdown.h"
#include "models/trace/tracestore.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <string_view>
#include <vector>

namespace runlens::models::cluster {

/// True for communication kernels by name (HTA's rule: NCCL/HCCL kernels, `ncclKernel`/`ncclDevKernel`
/// anywhere in the name).
bool isCommunicationKernel(std::string_view name);

/// Builds the cluster of a store that holds one source per rank (traces read together, see
/// ChromeTraceReader::read and ImportSession::importTraces), then analyses it:
/// - per rank, HTA's temporal breakdown over its device streams (compute / non-compute / idle), the
///   communication-computation overlap and the averages of its steps;
/// - per step (the step breakdown's device-stretched ranges), computation, communication alone and
///   overlapped, idle, the communication share and the start of the last communication kernel;
/// - per step number seen on several ranks, the straggler: the rank whose last communication kernel
///   started latest relative to its own step start. Step-relative offsets keep the rule meaningful when
///   the ranks' clocks disagree.
/// `breakdown` is computed when not given. O(n log n) in the device slices; thread-safe on a const store.
Cluster buildKinetoCluster(const trace::TraceStore& store, const trace::StepBreakdown* breakdown = nullptr);

/// The figures of one source (rank) of `store` as buildKinetoCluster computes them, before the cluster-wide
/// analysis: temporal breakdown, steps and their means. `worldSize`, when given, is raised to the world size
/// the source's envelope declares. A rank digest keeps exactly this, so a cluster assembled from digests
/// equals the one built from a store holding every rank.
RankFigures kinetoRankFigures(const trace::TraceStore& store, int source, const trace::StepBreakdown& breakdown,
                              int* worldSize = nullptr);

/// The device work of one rank that kinetoRankFigures measures: the intervals of the work on its device
/// streams (every kernel, copy and set; compute kernels; communication kernels), merged, and the sorted
/// starts of its communication kernels. Filled from a store or by a reader that keeps no store.
struct KinetoDeviceWork
{
    struct Interval
    {
        std::int64_t start;
        std::int64_t end;
    };
    std::vector<Interval> all;
    std::vector<Interval> compute;
    std::vector<Interval> communication;
    std::vector<std::int64_t> communicationStarts;
    std::int64_t devicePid = -1; ///< the process of the first device work, -1 when none

    /// Sorts and merges the interval lists and sorts the starts (call once every interval is added).
    void finish();
};

/// One step of a rank as the step breakdown analyses it (its device-stretched range), end > start.
struct KinetoStepWindow
{
    std::int64_t number = 0;
    std::int64_t start = 0;
    std::int64_t end = 0;
};

/// What kinetoRankFigures reads from a source besides its slices.
struct KinetoEnvelope
{
    int source = 0;
    int rank = -1; ///< from distributedInfo, -1 when not declared (the source index is taken)
    QString path;
    QByteArray metadataJson; ///< the trace's top-level keys other than traceEvents, as one JSON object
};

/// kinetoRankFigures from its parts: the finished device work, the steps in start order and the envelope.
RankFigures kinetoRankFiguresFrom(const KinetoDeviceWork& work, const std::vector<KinetoStepWindow>& steps,
                                  const KinetoEnvelope& envelope, int* worldSize = nullptr);

/// The cluster of ranks made by kinetoRankFigures (from one store or from one store per rank): the
/// stragglers per step, then Cluster::analyse(). `worldSize` is the largest declared by the ranks.
Cluster assembleKinetoCluster(std::vector<RankFigures> ranks, int worldSize);

} // namespace runlens::models::cluster
