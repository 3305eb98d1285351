#pragma once

#include "models/cluster/commgroups.h"
#include "models/cluster/rankstepmatrix.h"

#include <memory>
#include <vector>

namespace runlens::models::cluster {

/// What the Cluster panel shows beyond the rank table, computed once on a worker: the rank × step
/// matrices of step time and wait time, the slowest rank of each step and the communication groups
/// (only when rank digests, with their collectives, are at hand).
struct ClusterViews
{
    std::shared_ptr<const RankStepMatrix> stepTime;
    std::shared_ptr<const RankStepMatrix> waitTime;
    SlowestRanks slowest; ///< by step time
    std::vector<CommGroup> groups;
};

ClusterViews computeClusterViews(const Cluster& cluster, const std::vector<std::shared_ptr<const RankDigest>>& digests);

} // namespace runlens::models::cluster
