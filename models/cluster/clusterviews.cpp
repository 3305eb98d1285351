#include "models/cluster/clusterviews.h"

namespace runlens::cluster {

ClusterViews computeClusterViews(const Cluster& cluster, const std::vector<std::shared_ptr<const RankDigest>>& digests)
{
    ClusterViews views;
    views.stepTime = std::make_shared<const RankStepMatrix>(buildRankStepMatrix(cluster, StepMetric::StepTime));
    views.waitTime = std::make_shared<const RankStepMatrix>(buildRankStepMatrix(cluster, StepMetric::WaitTime));
    views.slowest = slowestRankPerStep(*views.stepTime);
    views.groups = inferCommGroups(digests);
    return views;
}

} // namespace runlens::cluster
