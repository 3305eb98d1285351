#include "models/cluster/rankdigest.h"

#include "models/cluster/kinetocluster.h"
#include "models/trace/launchindex.h"
#include "models/trace/opstatistics.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace runlens::models::cluster {

namespace {

constexpr double kNsPerMs = 1e6;

double toMs(std::int64_t ns)
{
    return double(ns) / kNsPerMs;
}

/// Bytes of one element of a PyTorch dtype as the profiler names it ("Float", "BFloat16", ...); 0 unknown.
int dtypeBytes(const QString& dtype)
{
    static const std::pair<const char*, int> kSizes[] = {
        { "Float", 4 },        { "Double", 8 },         { "Half", 2 },          { "BFloat16", 2 },    { "Int", 4 },
        { "Long", 8 },         { "Short", 2 },          { "Char", 1 },          { "Byte", 1 },        { "Bool", 1 },
        { "ComplexFloat", 8 }, { "ComplexDouble", 16 }, { "Float8_e4m3fn", 1 }, { "Float8_e5m2", 1 },
    };
    for (const auto& [name, size] : kSizes) {
        if (dtype == QLatin1String(name))
            return size;
    }
    return 0;
}

} // namespace

DigestCollective digestCollective(std::string_view name, std::int64_t start, std::int64_t end,
                                  std::string_view argsText)
{
    DigestCollective c;
    c.start = start;
    c.end = end;
    c.name = QString::fromUtf8(name.data(), qsizetype(name.size()));
    if (argsText.empty())
        return c;
    const QJsonObject args
        = QJsonDocument::fromJson(QByteArray::fromRawData(argsText.data(), qsizetype(argsText.size()))).object();
    const QString collective = args.value(QLatin1String("Collective name")).toString();
    if (!collective.isEmpty())
        c.name = collective;
    const double elements = args.value(QLatin1String("In msg nelems")).toDouble(-1);
    const int elementBytes = dtypeBytes(args.value(QLatin1String("dtype")).toString());
    if (elements >= 0 && elementBytes > 0)
        c.bytes = elements * elementBytes;
    const QJsonValue group = args.value(QLatin1String("Process Group Name"));
    c.group = group.isString() ? group.toString() : group.isDouble() ? QString::number(group.toInteger()) : QString();
    const QString description = args.value(QLatin1String("Process Group Description")).toString();
    if (!description.isEmpty())
        c.group = c.group.isEmpty() ? description : QStringLiteral("%1 (%2)").arg(c.group, description);
    c.groupSize = args.value(QLatin1String("Group size")).toInt(-1);
    c.groupRanks = args.value(QLatin1String("Process Group Ranks")).toString();
    return c;
}

RankDigest computeRankDigest(const trace::TraceStore& store, int source, const RankDigestOptions& options,
                             const trace::StepBreakdown* breakdown)
{
    // The step breakdown and the operator statistics both need the launch index: built once.
    const trace::LaunchIndex launches(store);
    trace::StepBreakdown computed;
    if (!breakdown) {
        trace::StepBreakdownOptions breakdownOptions;
        breakdownOptions.launches = &launches;
        computed = trace::computeStepBreakdown(store, breakdownOptions);
        breakdown = &computed;
    }
    RankDigest digest;
    digest.figures = kinetoRankFigures(store, source, *breakdown, &digest.worldSize);
    digest.file = digest.figures.path;

    // The same steps kinetoRankFigures keeps, in the same order.
    if (const auto* summary = breakdown->summaryFor(source)) {
        for (std::size_t k = 0; k < summary->stepCount; ++k) {
            const trace::StepTimes& st = breakdown->steps[summary->firstStep + k];
            if (st.end <= st.start)
                continue;
            digest.steps.push_back({ st.number, st.start, st.end, toMs(st.time(trace::StepCategory::DataLoader)) });
        }
    }

    const auto& tracks = store.tracks();
    for (int ti = 0; ti < int(tracks.size()); ++ti) {
        const trace::Track& track = tracks[std::size_t(ti)];
        if (track.source != source || track.type != trace::TrackType::GpuStream)
            continue;
        for (std::size_t i = 0; i < track.size(); ++i) {
            if (track.duration[i] <= 0
                || (track.flags[i] & (trace::SliceFlag::Instant | trace::SliceFlag::AbsurdDuration)))
                continue;
            const trace::EventKind kind = track.kind[i];
            if (kind == trace::EventKind::Communication
                || (kind == trace::EventKind::Kernel && isCommunicationKernel(store.strings().view(track.name_[i]))))
                digest.collectives.push_back(digestCollective(store.strings().view(track.name_[i]), track.start[i],
                                                              track.end(i), store.argsJson(ti, i)));
        }
    }
    std::stable_sort(digest.collectives.begin(), digest.collectives.end(),
                     [](const DigestCollective& a, const DigestCollective& b) { return a.start < b.start; });

    trace::OperatorStatisticsOptions statsOptions;
    statsOptions.source = source;
    statsOptions.launches = &launches;
    trace::OperatorStatistics stats = trace::computeOperatorStatistics(store, statsOptions);
    const std::size_t top = std::size_t(std::max(0, options.topCount));
    for (std::size_t k = 0; k < stats.kernels.size() && k < top; ++k) {
        const trace::KernelStats& s = stats.kernels[k];
        digest.kernels.push_back(
            { QString::fromUtf8(store.strings().view(s.name)), s.calls, toMs(s.total), toMs(s.max) });
    }
    std::stable_sort(
        stats.operators.begin(), stats.operators.end(),
        [](const trace::OperatorStats& a, const trace::OperatorStats& b) { return a.hostTotal > b.hostTotal; });
    for (std::size_t k = 0; k < stats.operators.size() && k < top; ++k) {
        const trace::OperatorStats& s = stats.operators[k];
        digest.operators.push_back(
            { QString::fromUtf8(store.strings().view(s.name)), s.calls, toMs(s.hostTotal), toMs(s.hostMax) });
    }
    return digest;
}

Cluster clusterFromDigests(const std::vector<std::shared_ptr<const RankDigest>>& digests)
{
    int worldSize = 0;
    std::vector<RankFigures> ranks;
    ranks.reserve(digests.size());
    for (std::size_t i = 0; i < digests.size(); ++i) {
        if (!digests[i])
            continue;
        RankFigures figures = digests[i]->figures;
        figures.source = int(i);
        ranks.push_back(std::move(figures));
        worldSize = std::max(worldSize, digests[i]->worldSize);
    }
    return assembleKinetoCluster(std::move(ranks), worldSize);
}

} // namespace runlens::models::cluster
