#include "models/cluster/clusterviews.h"

#include <future>

namespace runlens::models::cluster {

ClusterViews computeClusterViews(const Cluster& cluster, const std::vector<std::shared_ptr<const RankDigest>>& digests)
{
    ClusterViews views;
    // Three independent passes over a thousand ranks: the wait time matrix and the groups on threads of their
    // own, the step time matrix and its slowest ranks here. Joined before returning (the futures' destructors).
    auto waitTime = std::async(std::launch::async, [&cluster] {
        return std::make_shared<const RankStepMatrix>(buildRankStepMatrix(cluster, StepMetric::WaitTime));
    });
    auto groups = std::async(std::launch::async, [&digests] { return inferCommGroups(digests); });
    views.stepTime = std::make_shared<const RankStepMatrix>(buildRankStepMatrix(cluster, StepMetric::StepTime));
    views.slowest = slowestRankPerStep(*views.stepTime);
    views.waitTime = waitTime.get();
    views.groups = groups.get();
    return views;
}

} // namespace runlens::models::cluster
