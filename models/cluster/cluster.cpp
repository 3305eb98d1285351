#include "models/cluster/cluster.h"

#include <algorithm>
#include <map>

namespace runlens::models::cluster {

double meanOfKnown(const std::vector<double>& values)
{
    double sum = 0;
    int count = 0;
    for (double v : values) {
        if (isKnown(v)) {
            sum += v;
            ++count;
        }
    }
    return count ? sum / count : kMissing;
}

bool Cluster::usesStepInterval() const
{
    if (origin != ClusterOrigin::MindSpore)
        return false;
    return std::any_of(ranks.begin(), ranks.end(), [](const RankFigures& r) { return isKnown(r.stepInterval); });
}

double Cluster::slowFigure(const RankFigures& rank) const
{
    return usesStepInterval() ? rank.stepInterval : rank.stepTime;
}

int Cluster::indexOfRank(int rank) const
{
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i].rank == rank)
            return int(i);
    }
    return -1;
}

QStringList Cluster::linkTypes() const
{
    QStringList types;
    for (const ClusterLink& link : links) {
        if (!types.contains(link.type))
            types << link.type;
    }
    return types;
}

bool Cluster::hasStages() const
{
    return std::any_of(ranks.begin(), ranks.end(), [](const RankFigures& r) { return r.stage >= 0; });
}

std::vector<StageGroup> Cluster::stages() const
{
    std::map<int, StageGroup> byStage;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        StageGroup& group = byStage[ranks[i].stage];
        group.stage = ranks[i].stage;
        group.rankIndices.push_back(int(i));
    }
    std::vector<StageGroup> groups;
    for (auto& entry : byStage) {
        // A named reference, not a structured binding: lambdas capture those only from clang 16 on.
        StageGroup& group = entry.second;
        auto mean = [&](double RankFigures::*field) {
            std::vector<double> values;
            for (int i : group.rankIndices)
                values.push_back(ranks[std::size_t(i)].*field);
            return meanOfKnown(values);
        };
        group.meanStepTime = mean(&RankFigures::stepTime);
        group.meanStepInterval = mean(&RankFigures::stepInterval);
        group.meanComputation = mean(&RankFigures::computation);
        group.meanCommunication = mean(&RankFigures::communication);
        group.meanFlops = mean(&RankFigures::flops);
        groups.push_back(std::move(group));
    }
    return groups;
}

void Cluster::analyse()
{
    std::stable_sort(ranks.begin(), ranks.end(),
                     [](const RankFigures& a, const RankFigures& b) { return a.rank < b.rank; });

    // Slow rank: the figure more than 20 % above the mean of all ranks; the slowest is the largest.
    std::vector<double> figures;
    for (const RankFigures& r : ranks)
        figures.push_back(slowFigure(r));
    const double mean = meanOfKnown(figures);
    slowestRank = -1;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        RankFigures& r = ranks[i];
        const double v = figures[i];
        r.deviation = isKnown(v) && isKnown(mean) && mean > 0 ? v / mean - 1.0 : kMissing;
        r.slow = isKnown(r.deviation) && r.deviation > kOffMeanThreshold;
        if (isKnown(v) && (slowestRank < 0 || v > figures[std::size_t(slowestRank)]))
            slowestRank = int(i);
    }
    // With one rank or all equal there is no "slowest".
    if (slowestRank >= 0 && ranks.size() > 1) {
        const double top = figures[std::size_t(slowestRank)];
        if (std::all_of(figures.begin(), figures.end(), [top](double v) { return !isKnown(v) || v == top; }))
            slowestRank = -1;
    } else {
        slowestRank = -1;
    }

    std::vector<double> flops;
    for (const RankFigures& r : ranks)
        flops.push_back(r.flops);
    const double meanFlops = meanOfKnown(flops);
    for (RankFigures& r : ranks)
        r.lowFlops = isKnown(r.flops) && isKnown(meanFlops) && meanFlops > 0
            && r.flops < meanFlops * (1.0 - kOffMeanThreshold);

    // Links: bandwidth compared within its type; self-links carry no traffic between ranks.
    std::map<QString, std::vector<double>> byType;
    for (const ClusterLink& link : links) {
        if (link.src != link.dst)
            byType[link.type].push_back(link.bandwidth);
    }
    std::map<QString, double> typeMean;
    for (const auto& [type, values] : byType)
        typeMean[type] = meanOfKnown(values);
    worstLink = -1;
    double worstDeviation = 0;
    for (std::size_t i = 0; i < links.size(); ++i) {
        ClusterLink& link = links[i];
        link.deviation = kMissing;
        link.slow = false;
        if (link.src == link.dst || !isKnown(link.bandwidth))
            continue;
        const double m = typeMean[link.type];
        if (!isKnown(m) || m <= 0)
            continue;
        link.deviation = link.bandwidth / m - 1.0;
        link.slow = link.deviation < -kOffMeanThreshold;
        if (link.deviation < worstDeviation) {
            worstDeviation = link.deviation;
            worstLink = int(i);
        }
    }

    double computation = 0;
    double communication = 0;
    for (const RankFigures& r : ranks) {
        if (isKnown(r.computation))
            computation += r.computation;
        if (isKnown(r.communication))
            communication += r.communication;
    }
    communicationRate = computation + communication > 0 ? communication / (computation + communication) : kMissing;

    for (RankFigures& r : ranks)
        r.stragglerSteps = 0;
    for (const StragglerStep& s : stragglers) {
        const int index = indexOfRank(s.rank);
        if (index >= 0)
            ++ranks[std::size_t(index)].stragglerSteps;
    }
}

} // namespace runlens::models::cluster
