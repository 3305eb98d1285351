#include "models/cluster/clusterreport.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace runlens::models::cluster {

namespace {

QJsonValue number(double value)
{
    return isKnown(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QJsonObject linkObject(const ClusterLink& l)
{
    return QJsonObject { { QStringLiteral("src"), l.src },
                         { QStringLiteral("dst"), l.dst },
                         { QStringLiteral("type"), l.type },
                         { QStringLiteral("time_ms"), number(l.time) },
                         { QStringLiteral("size_mb"), number(l.size) },
                         { QStringLiteral("bandwidth_gb_s"), number(l.bandwidth) },
                         { QStringLiteral("off_mean"), number(l.deviation) },
                         { QStringLiteral("slow"), l.slow } };
}

QString ms(double value)
{
    return isKnown(value) ? QString::number(value, 'f', 3) : QStringLiteral("-");
}

} // namespace

QJsonObject clusterReport(const Cluster& c)
{
    QJsonArray ranks;
    for (const RankFigures& r : c.ranks) {
        QJsonObject o { { QStringLiteral("rank"), r.rank },
                        { QStringLiteral("stage"), r.stage >= 0 ? QJsonValue(r.stage) : QJsonValue(QJsonValue::Null) },
                        { QStringLiteral("device"), r.device },
                        { QStringLiteral("steps"), int(r.steps.size()) },
                        { QStringLiteral("step_time_ms"), number(r.stepTime) },
                        { QStringLiteral("step_interval_ms"), number(r.stepInterval) },
                        { QStringLiteral("computation_ms"), number(r.computation) },
                        { QStringLiteral("communication_ms"), number(r.communication) },
                        { QStringLiteral("overlapped_ms"), number(r.overlapped) },
                        { QStringLiteral("receive_ms"), number(r.receive) },
                        { QStringLiteral("tail_ms"), number(r.tail) },
                        { QStringLiteral("idle_ms"), number(r.idle) },
                        { QStringLiteral("communication_share"), number(r.communicationShare) },
                        { QStringLiteral("gflops"), number(r.flops) },
                        { QStringLiteral("peak_memory_bytes"), number(r.peakMemoryBytes) },
                        { QStringLiteral("off_mean"), number(r.deviation) },
                        { QStringLiteral("slow"), r.slow },
                        { QStringLiteral("low_flops"), r.lowFlops },
                        { QStringLiteral("straggler_steps"), r.stragglerSteps } };
        if (r.hasTemporal) {
            o.insert(QStringLiteral("temporal"),
                     QJsonObject { { QStringLiteral("span_ms"), r.temporal.span },
                                   { QStringLiteral("compute_ms"), r.temporal.compute },
                                   { QStringLiteral("non_compute_ms"), r.temporal.nonCompute },
                                   { QStringLiteral("idle_ms"), r.temporal.idle },
                                   { QStringLiteral("communication_ms"), r.temporal.communication },
                                   { QStringLiteral("overlap_ratio"), number(r.temporal.overlapRatio()) } });
        }
        ranks.append(o);
    }
    QJsonArray links;
    for (const ClusterLink& l : c.links)
        links.append(linkObject(l));
    QJsonArray stragglers;
    for (const StragglerStep& s : c.stragglers)
        stragglers.append(QJsonObject { { QStringLiteral("step"), qint64(s.step) },
                                        { QStringLiteral("rank"), s.rank },
                                        { QStringLiteral("lateness_ms"), s.lateness } });
    QJsonObject report {
        { QStringLiteral("origin"),
          c.origin == ClusterOrigin::Kineto ? QStringLiteral("kineto") : QStringLiteral("mindspore") },
        { QStringLiteral("parallel_mode"), c.parallelMode },
        { QStringLiteral("world_size"), c.worldSize },
        { QStringLiteral("slow_rank_figure"),
          c.usesStepInterval() ? QStringLiteral("step_interval") : QStringLiteral("step_time") },
        { QStringLiteral("ranks"), ranks },
        { QStringLiteral("slowest_rank"),
          c.slowestRank >= 0 ? QJsonValue(c.ranks[std::size_t(c.slowestRank)].rank) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("worst_link"),
          c.worstLink >= 0 ? QJsonValue(linkObject(c.links[std::size_t(c.worstLink)])) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("communication_rate"), number(c.communicationRate) },
        { QStringLiteral("links"), links },
        { QStringLiteral("stragglers"), stragglers }
    };
    return report;
}

QStringList clusterReportLines(const Cluster& c)
{
    auto tr = [](const char* text) { return QCoreApplication::translate("runlens::cluster", text); };
    QStringList lines;
    lines << tr("cluster: %1 rank(s) of %2%3")
                 .arg(c.ranks.size())
                 .arg(c.worldSize)
                 .arg(c.parallelMode.isEmpty() ? QString() : QStringLiteral(", ") + c.parallelMode);
    if (c.slowestRank >= 0) {
        const RankFigures& r = c.ranks[std::size_t(c.slowestRank)];
        lines << tr("  slowest rank %1: %2 ms (%3 % against the mean)%4")
                     .arg(r.rank)
                     .arg(ms(c.slowFigure(r)))
                     .arg(isKnown(r.deviation) ? QString::number(r.deviation * 100, 'f', 1) : QStringLiteral("-"))
                     .arg(r.slow ? tr(", flagged") : QString());
    }
    if (c.worstLink >= 0) {
        const ClusterLink& l = c.links[std::size_t(c.worstLink)];
        lines << tr("  worst link %1->%2 %3: %4 GB/s (%5 % against the mean)%6")
                     .arg(l.src)
                     .arg(l.dst)
                     .arg(l.type)
                     .arg(QString::number(l.bandwidth, 'f', 2))
                     .arg(QString::number(l.deviation * 100, 'f', 1))
                     .arg(l.slow ? tr(", flagged") : QString());
    }
    for (const RankFigures& r : c.ranks) {
        lines << tr("  rank %1: step %2 ms, interval %3 ms, computation %4 ms, communication %5 ms, idle %6 ms")
                     .arg(r.rank)
                     .arg(ms(r.stepTime), ms(r.stepInterval), ms(r.computation), ms(r.communication), ms(r.idle));
    }
    return lines;
}

} // namespace runlens::models::cluster
