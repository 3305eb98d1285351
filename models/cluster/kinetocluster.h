#pragma once

#include "models/cluster/cluster.h"

#include "models/trace/stepbreakdown.h"
#include "models/trace/tracestore.h"

#include <string_view>

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

/// The cluster of ranks made by kinetoRankFigures (from one store or from one store per rank): the
/// stragglers per step, then Cluster::analyse(). `worldSize` is the largest declared by the ranks.
Cluster assembleKinetoCluster(std::vector<RankFigures> ranks, int worldSize);

} // namespace runlens::models::cluster
