#include "importers/cluster/mindsporecluster.h"

#include "importers/cluster/mindsporeclusterparts.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace runlens::importers::cluster {

using namespace mindspore;

bool MindSporeClusterReader::containsClusterFiles(const QString& folder)
{
    const Inputs inputs = findInputs({ folder });
    for (const auto& [rank, files] : inputs.ranks) {
        if (!files.stepTrace.isEmpty() || !files.clusterAnalyse.isEmpty() || !files.hccl.isEmpty()
            || !files.stepTraceTime.isEmpty() || !files.communicationMatrix.isEmpty())
            return true;
    }
    return !inputs.clusterStepTraceTimes.isEmpty();
}

models::cluster::Cluster MindSporeClusterReader::read(const QStringList& paths, const ImportControl& control)
{
    models::cluster::Cluster cluster;
    cluster.origin = models::cluster::ClusterOrigin::MindSpore;
    Inputs inputs = findInputs(paths);
    readProfilerInfos(inputs.profilerInfos, inputs, cluster.diagnostics);
    const std::map<int, int> strategyStages = readStrategies(inputs.strategies, cluster.diagnostics);

    std::map<std::tuple<int, int, QString>, std::vector<models::cluster::ClusterLink>> links;
    int done = 0;
    for (const auto& [rankId, files] : inputs.ranks) {
        if (control.canceled())
            break;
        if (files.stepTrace.isEmpty() && files.clusterAnalyse.isEmpty() && files.hccl.isEmpty() && files.flops.isEmpty()
            && files.stepTraceTime.isEmpty() && files.communicationMatrix.isEmpty())
            continue;
        models::cluster::RankFigures rank;
        rank.rank = rankId;
        rank.path = files.folder;
        rank.device = QCoreApplication::translate("runlens::cluster", "Device %1").arg(files.deviceId);
        if (!files.stepTrace.isEmpty())
            readStepTrace(files.stepTrace, rank, cluster.diagnostics);
        if (!files.clusterAnalyse.isEmpty())
            readClusterAnalyse(files.clusterAnalyse, rank, cluster.diagnostics);
        if (files.stepTrace.isEmpty() && files.clusterAnalyse.isEmpty() && !files.stepTraceTime.isEmpty()) {
            readStepTraceTime(files.stepTraceTime, rank, cluster.diagnostics);
            averageSteps(rank);
        }
        if (!files.flops.isEmpty())
            readFlops(files.flops, rank, cluster.diagnostics);
        if (!files.hccl.isEmpty())
            readHccl(files.hccl, links, cluster.diagnostics);
        else if (!files.communicationMatrix.isEmpty())
            readCommunicationMatrix(files.communicationMatrix, links, cluster.diagnostics);
        if (auto it = strategyStages.find(rankId); it != strategyStages.end())
            rank.stage = it->second;
        std::sort(
            rank.steps.begin(), rank.steps.end(),
            [](const models::cluster::RankStep& a, const models::cluster::RankStep& b) { return a.step < b.step; });
        cluster.ranks.push_back(std::move(rank));
        control.report(int(1000 * ++done / std::max<std::size_t>(1, inputs.ranks.size())));
    }

    // msprof-analyze's cluster table stands in for ranks that have no files of their own.
    std::map<int, models::cluster::RankFigures> fromClusterTable;
    for (const QString& path : std::as_const(inputs.clusterStepTraceTimes))
        readClusterStepTraceTime(path, fromClusterTable, cluster.diagnostics);
    for (auto& [rankId, rank] : fromClusterTable) {
        const bool known = std::any_of(cluster.ranks.begin(), cluster.ranks.end(),
                                       [id = rankId](const models::cluster::RankFigures& r) { return r.rank == id; });
        if (known)
            continue;
        std::sort(
            rank.steps.begin(), rank.steps.end(),
            [](const models::cluster::RankStep& a, const models::cluster::RankStep& b) { return a.step < b.step; });
        averageSteps(rank);
        rank.device = QCoreApplication::translate("runlens::cluster", "Device %1").arg(rankId);
        if (auto it = strategyStages.find(rankId); it != strategyStages.end())
            rank.stage = it->second;
        cluster.ranks.push_back(std::move(rank));
    }
    std::sort(
        cluster.ranks.begin(), cluster.ranks.end(),
        [](const models::cluster::RankFigures& a, const models::cluster::RankFigures& b) { return a.rank < b.rank; });
    for (const QString& path : std::as_const(inputs.unranked))
        cluster.diagnostics.append(
            { models::Severity::Warning, path, -1, -1,
              trCluster("Which rank wrote this file is unknown (no profiler_info_N.json next to "
                        "ASCEND_PROFILER_OUTPUT and no rank_N folder); it is left out of the cluster") });

    // A link reported by both of its ends: the mean of the two.
    for (const auto& [key, list] : links)
        cluster.links.push_back(meanLink(list));

    cluster.parallelMode = inputs.parallelMode;
    cluster.stageCount = inputs.stageCount;
    cluster.worldSize = std::max(inputs.worldSize, int(cluster.ranks.size()));
    // Without a strategy file, MindInsight's rule: ranks split evenly over the stages, numbered from 1.
    if (cluster.parallelMode == QLatin1String("pipeline-parallel") && cluster.stageCount > 1) {
        const double perStage = double(cluster.worldSize) / cluster.stageCount;
        for (models::cluster::RankFigures& r : cluster.ranks) {
            if (r.stage < 0)
                r.stage = int(r.rank / perStage) + 1;
        }
    }

    // Ranks are expected to be contiguous; a gap usually means a rank's files were not copied.
    if (!cluster.ranks.empty() && !paths.isEmpty()) {
        QList<int> missing;
        const int top = std::max(cluster.worldSize, cluster.ranks.back().rank + 1);
        for (int r = 0; r < top && missing.size() < 16; ++r) {
            const bool present = std::any_of(cluster.ranks.begin(), cluster.ranks.end(),
                                             [r](const models::cluster::RankFigures& f) { return f.rank == r; });
            if (!present)
                missing << r;
        }
        if (!missing.isEmpty() && cluster.worldSize > int(cluster.ranks.size())) {
            QStringList names;
            for (int r : missing)
                names << QString::number(r);
            cluster.diagnostics.append(
                { models::Severity::Warning, paths.front(), -1, -1,
                  trCluster("No profiler files for rank(s) %1 of %2: the cluster view shows the others")
                      .arg(names.join(QStringLiteral(", ")))
                      .arg(cluster.worldSize) });
        }
    }
    cluster.analyse();
    return cluster;
}

} // namespace runlens::importers::cluster
