#include "models/advisor/analysis.h"
#include "models/advisor/analysishelpers.h"
#include "models/advisor/evidence.h"
#include "models/cluster/kinetocluster.h"

#include <QCoreApplication>

#include <vector>

namespace runlens::models::advisor {

namespace {

const QString kRankSlowdown = QStringLiteral("cluster.rank_slowdown");
const QString kLinkBandwidth = QStringLiteral("cluster.link_bandwidth_deficit");
const QString kStraggler = QStringLiteral("cluster.straggler_share");
const QString kCommunicationRate = QStringLiteral("cluster.communication_rate");

/// A cluster with where it came from: MindSpore's (from the profiler bundle) or one built from a
/// multi-rank trace.
struct ClusterSource
{
    QString run;
    const cluster::Cluster* figures = nullptr;
};

void measureRanks(const ClusterSource& source, AnalysisContext& context)
{
    const cluster::Cluster& c = *source.figures;
    std::vector<double> figures;
    for (const cluster::RankFigures& rank : c.ranks)
        figures.push_back(c.slowFigure(rank));
    const double mean = cluster::meanOfKnown(figures);
    const QString figure = c.usesStepInterval() ? QCoreApplication::translate("runlens::advisor", "step interval")
                                                : QCoreApplication::translate("runlens::advisor", "step time");
    bool any = false;
    for (std::size_t i = 0; i < c.ranks.size(); ++i) {
        const cluster::RankFigures& rank = c.ranks[i];
        if (!cluster::isKnown(rank.deviation))
            continue;
        any = true;
        Measurement m;
        m.metric = kRankSlowdown;
        m.value = 100.0 * rank.deviation;
        m.scope = runScope(source.run, rank.rank);
        m.scope.device = rank.device;
        m.facts.insert(QStringLiteral("figure"), figure);
        m.facts.insert(QStringLiteral("rank_ms"), figures[i]);
        m.facts.insert(QStringLiteral("mean_ms"), mean);
        m.facts.insert(QStringLiteral("ranks"), qint64(c.ranks.size()));
        m.evidence << clusterEvidence(source.run, rank.rank);
        m.order = rank.rank;
        context.add(std::move(m));
    }
    if (any)
        context.markEvaluated(kRankSlowdown);
}

void measureLinks(const ClusterSource& source, AnalysisContext& context)
{
    const cluster::Cluster& c = *source.figures;
    for (const cluster::ClusterLink& link : c.links) {
        if (!cluster::isKnown(link.deviation))
            continue;
        context.markEvaluated(kLinkBandwidth);
        const QString name = QStringLiteral("%1 %2->%3").arg(link.type).arg(link.src).arg(link.dst);
        Measurement m;
        m.metric = kLinkBandwidth;
        m.value = -100.0 * link.deviation; // positive: below the mean of its type
        m.scope = runScope(source.run, link.src);
        m.scope.link = name;
        m.facts.insert(QStringLiteral("type"), link.type);
        m.facts.insert(QStringLiteral("bandwidth"), link.bandwidth);
        m.facts.insert(QStringLiteral("type_mean"), link.bandwidth / (1.0 + link.deviation));
        m.evidence << clusterEvidence(source.run, link.src, name);
        m.order = link.src;
        context.add(std::move(m));
    }
}

/// A rank that is the straggler of most steps holds every collective back: the others wait for it.
void measureStragglers(const ClusterSource& source, AnalysisContext& context)
{
    const cluster::Cluster& c = *source.figures;
    if (c.origin != cluster::ClusterOrigin::Kineto)
        return;
    // Steps seen on at least two ranks are the ones a straggler could be looked for in.
    QHash<qint64, int> ranksPerStep;
    for (const cluster::RankFigures& rank : c.ranks) {
        for (const cluster::RankStep& step : rank.steps) {
            if (cluster::isKnown(step.lastCommunicationOffset))
                ++ranksPerStep[step.step];
        }
    }
    qint64 comparable = 0;
    for (int count : std::as_const(ranksPerStep))
        comparable += count >= 2 ? 1 : 0;
    if (comparable == 0)
        return;
    context.markEvaluated(kStraggler);
    // With two ranks one of them is always "later" by some microseconds; only a wait that costs the
    // others time makes a straggler.
    const double minimumLateness
        = context.parameter(QStringLiteral("straggler-rank"), QStringLiteral("min_lateness_ms"), 0.5);
    for (const cluster::RankFigures& rank : c.ranks) {
        double lateness = 0;
        qint64 steps = 0;
        qint64 firstStep = -1;
        for (const cluster::StragglerStep& s : c.stragglers) {
            if (s.rank != rank.rank || s.lateness < minimumLateness)
                continue;
            lateness += s.lateness;
            ++steps;
            if (firstStep < 0 || s.step < firstStep)
                firstStep = s.step;
        }
        if (steps == 0)
            continue;
        Measurement m;
        m.metric = kStraggler;
        m.value = 100.0 * double(steps) / double(comparable);
        m.scope = runScope(source.run, rank.rank);
        m.facts.insert(QStringLiteral("steps"), steps);
        m.facts.insert(QStringLiteral("comparable_steps"), comparable);
        m.facts.insert(QStringLiteral("lateness_ms"), lateness / double(steps));
        m.facts.insert(QStringLiteral("first_step"), firstStep);
        m.evidence << clusterEvidence(source.run, rank.rank);
        m.order = rank.rank;
        context.add(std::move(m));
    }
}

void measureCommunicationRate(const ClusterSource& source, AnalysisContext& context)
{
    const cluster::Cluster& c = *source.figures;
    if (!cluster::isKnown(c.communicationRate))
        return;
    context.markEvaluated(kCommunicationRate);
    Measurement m;
    m.metric = kCommunicationRate;
    m.value = 100.0 * c.communicationRate;
    m.scope = runScope(source.run, -1);
    m.facts.insert(QStringLiteral("ranks"), qint64(c.ranks.size()));
    if (!c.parallelMode.isEmpty())
        m.facts.insert(QStringLiteral("mode"), c.parallelMode);
    m.evidence << clusterEvidence(source.run, -1);
    context.add(std::move(m));
}

} // namespace

void analyseCluster(const AdvisorInput& input, AnalysisContext& context)
{
    // Kineto clusters are built here from traces holding several ranks; kept alive for the loop below.
    std::vector<cluster::Cluster> built;
    built.reserve(input.traces.size());
    std::vector<ClusterSource> sources;
    for (const ProfilerInput& profiler : input.profilers) {
        if (profiler.bundle && profiler.bundle->cluster && profiler.bundle->cluster->ranks.size() >= 2)
            sources.push_back({ profiler.run, profiler.bundle->cluster.get() });
    }
    for (const TraceInput& trace : input.traces) {
        if (context.isCanceled())
            return;
        if (!trace.store || trace.store->sources().size() < 2)
            continue;
        built.push_back(cluster::buildKinetoCluster(*trace.store));
        if (built.back().ranks.size() >= 2)
            sources.push_back({ trace.run, &built.back() });
    }
    for (const ClusterSource& source : sources) {
        measureRanks(source, context);
        measureLinks(source, context);
        measureStragglers(source, context);
        measureCommunicationRate(source, context);
    }
    if (sources.empty()) {
        const QString reason = QCoreApplication::translate(
            "runlens::advisor", "no distributed run is loaded (a MindSpore cluster or a trace per rank)");
        for (const QString& metric : { kRankSlowdown, kLinkBandwidth, kStraggler, kCommunicationRate })
            context.markMissing(metric, reason);
        return;
    }
    context.markMissing(kRankSlowdown, QCoreApplication::translate("runlens::advisor", "no rank has step times"));
    context.markMissing(kLinkBandwidth,
                        QCoreApplication::translate("runlens::advisor", "the cluster has no link bandwidths"));
    context.markMissing(kStraggler,
                        QCoreApplication::translate("runlens::advisor",
                                                    "stragglers need per-rank PyTorch traces with "
                                                    "communication kernels in common steps"));
    context.markMissing(kCommunicationRate,
                        QCoreApplication::translate("runlens::advisor", "the cluster has no communication times"));
}

} // namespace runlens::models::advisor
