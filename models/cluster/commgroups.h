#pragma once

#include "models/cluster/rankdigest.h"

#include <QString>

#include <memory>
#include <vector>

namespace runlens::models::cluster {

/// Ranks that take part in the same collectives, and where they wait for each other. The n-th collective
/// of a group on one rank is the n-th on every other member (collectives of one group are issued in the
/// same order everywhere). Waits are told from durations alone, so rank clocks need not agree: inside one
/// collective every member finishes together, so a member that ran longer waited for the one that ran
/// shortest (the last to arrive) by the difference.
struct CommGroup
{
    QString name; ///< the process group as the traces name it; empty when inferred
    QString declaredRanks; ///< "Process Group Ranks" as written, empty when not given
    bool inferred = false; ///< no group in the traces: ranks with the same collective sequence
    std::vector<int> ranks; ///< members seen, ascending
    int collectives = 0; ///< per member (the most any member issued)
    double totalTime = 0; ///< ms, every member's time in the group's collectives
    int slowestRank = -1; ///< the member the others waited for the longest in total
    double slowestRankWait = 0; ///< ms the others waited for it
    int linkWaiter = -1; ///< the slowest link: this member waited ...
    int linkLate = -1; ///< ... for this one ...
    double linkWait = 0; ///< ... this long in total (ms)
};

/// The communication groups of `digests`, by total time descending. Collectives that name their process
/// group (with its ranks) are grouped by it; the others by matching each rank's sequence of such
/// collectives (name and size), so ranks that issued the same sequence form one group.
std::vector<CommGroup> inferCommGroups(const std::vector<std::shared_ptr<const RankDigest>>& digests);

/// "0-7, 16-23, 40" of `ranks` (sorted or not, duplicates ignored).
QString formatRankRanges(std::vector<int> ranks);

} // namespace runlens::models::cluster
