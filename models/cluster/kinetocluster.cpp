#include "models/cluster/kinetocluster.h"

#include "models/cluster/stepunion.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <limits>
#include <map>

namespace runlens::models::cluster {

namespace {

constexpr double kNsPerMs = 1e6;

using Interval = KinetoDeviceWork::Interval;
using Intervals = std::vector<Interval>;

void mergeIntervals(Intervals& intervals)
{
    std::sort(intervals.begin(), intervals.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::size_t out = 0;
    for (const Interval& iv : intervals) {
        if (out > 0 && iv.start <= intervals[out - 1].end)
            intervals[out - 1].end = std::max(intervals[out - 1].end, iv.end);
        else
            intervals[out++] = iv;
    }
    intervals.resize(out);
}

std::int64_t totalLength(const Intervals& merged)
{
    std::int64_t sum = 0;
    for (const Interval& iv : merged)
        sum += iv.end - iv.start;
    return sum;
}

/// Intersection of two merged lists (two pointers, linear).
Intervals intersect(const Intervals& a, const Intervals& b)
{
    Intervals out;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const std::int64_t s = std::max(a[i].start, b[j].start);
        const std::int64_t e = std::min(a[i].end, b[j].end);
        if (s < e)
            out.push_back({ s, e });
        if (a[i].end < b[j].end)
            ++i;
        else
            ++j;
    }
    return out;
}

/// Length of a merged list within [t0, t1).
std::int64_t lengthWithin(const Intervals& merged, std::int64_t t0, std::int64_t t1)
{
    auto it = std::upper_bound(merged.begin(), merged.end(), t0,
                               [](std::int64_t t, const Interval& iv) { return t < iv.end; });
    std::int64_t sum = 0;
    for (; it != merged.end() && it->start < t1; ++it)
        sum += std::min(it->end, t1) - std::max(it->start, t0);
    return sum;
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool countsForStatistics(const trace::Track& track, std::size_t i)
{
    return track.duration[i] > 0 && !(track.flags[i] & (trace::SliceFlag::Instant | trace::SliceFlag::AbsurdDuration));
}

KinetoDeviceWork collectDeviceWork(const trace::TraceStore& store, int source)
{
    KinetoDeviceWork work;
    int deviceProcess = -1;
    const auto& tracks = store.tracks();
    for (const trace::Track& track : tracks) {
        if (track.source != source || track.type != trace::TrackType::GpuStream)
            continue;
        for (std::size_t i = 0; i < track.size(); ++i) {
            if (!countsForStatistics(track, i))
                continue;
            const trace::EventKind kind = track.kind[i];
            const bool communication = kind == trace::EventKind::Communication
                || (kind == trace::EventKind::Kernel && isCommunicationKernel(store.strings().view(track.name_[i])));
            const bool compute = kind == trace::EventKind::Kernel && !communication;
            if (!communication && !compute && kind != trace::EventKind::Memcpy && kind != trace::EventKind::Memset)
                continue;
            const Interval iv { track.start[i], track.end(i) };
            work.all.push_back(iv);
            if (compute)
                work.compute.push_back(iv);
            if (communication) {
                work.communication.push_back(iv);
                work.communicationStarts.push_back(iv.start);
            }
            if (deviceProcess < 0)
                deviceProcess = track.process;
        }
    }
    if (deviceProcess >= 0)
        work.devicePid = store.processes()[std::size_t(deviceProcess)].pid;
    work.finish();
    return work;
}

double toMs(std::int64_t ns)
{
    return double(ns) / kNsPerMs;
}

/// Rank, world size, device and host names from the trace's envelope (distributedInfo, deviceProperties).
void readEnvelope(const KinetoEnvelope& src, int devicePid, RankFigures& rank, int& worldSize)
{
    rank.rank = src.rank >= 0 ? src.rank : src.source;
    rank.path = src.path;
    if (src.metadataJson.isEmpty())
        return;
    const QJsonObject meta = QJsonDocument::fromJson(src.metadataJson).object();
    const QJsonObject info = meta.value(QLatin1String("distributedInfo")).toObject();
    worldSize = std::max(worldSize, info.value(QLatin1String("world_size")).toInt(0));
    const QString host = meta.value(QLatin1String("host_name")).toString();
    rank.host = host.isEmpty() ? QFileInfo(src.path).fileName() : host;
    const QJsonArray devices = meta.value(QLatin1String("deviceProperties")).toArray();
    for (const QJsonValue& d : devices) {
        const QJsonObject device = d.toObject();
        if (devicePid >= 0 && device.value(QLatin1String("id")).toInt(-1) == devicePid) {
            rank.device = QStringLiteral("%1 (%2)").arg(device.value(QLatin1String("name")).toString()).arg(devicePid);
            break;
        }
    }
}

/// The middle value, or the mean of the two middle ones; reorders `values`.
double medianInPlace(std::vector<double>& values)
{
    if (values.empty())
        return kMissing;
    const std::size_t n = values.size();
    const auto mid = values.begin() + std::ptrdiff_t(n / 2);
    std::nth_element(values.begin(), mid, values.end());
    return n % 2 ? *mid : (*std::max_element(values.begin(), mid) + *mid) / 2;
}

} // namespace

bool isCommunicationKernel(std::string_view name)
{
    return startsWith(name, "nccl") || startsWith(name, "hccl") || startsWith(name, "rccl")
        || name.find("ncclKernel") != std::string_view::npos || name.find("ncclDevKernel") != std::string_view::npos;
}

void KinetoDeviceWork::finish()
{
    mergeIntervals(all);
    mergeIntervals(compute);
    mergeIntervals(communication);
    std::sort(communicationStarts.begin(), communicationStarts.end());
}

RankFigures kinetoRankFigures(const trace::TraceStore& store, int source, const trace::StepBreakdown& breakdown,
                              int* worldSize)
{
    const KinetoDeviceWork work = collectDeviceWork(store, source);
    std::vector<KinetoStepWindow> steps;
    if (const auto* summary = breakdown.summaryFor(source)) {
        for (std::size_t k = 0; k < summary->stepCount; ++k) {
            const trace::StepTimes& st = breakdown.steps[summary->firstStep + k];
            if (st.end > st.start)
                steps.push_back({ st.number, st.start, st.end });
        }
    }
    const trace::TraceSource& src = store.sources()[std::size_t(source)];
    return kinetoRankFiguresFrom(work, steps, { source, src.rank, src.path, src.metadataJson }, worldSize);
}

RankFigures kinetoRankFiguresFrom(const KinetoDeviceWork& work, const std::vector<KinetoStepWindow>& steps,
                                  const KinetoEnvelope& envelope, int* worldSize)
{
    RankFigures rank;
    rank.source = envelope.source;
    int declaredWorld = 0;
    readEnvelope(envelope, int(work.devicePid), rank, declaredWorld);
    if (worldSize)
        *worldSize = std::max(*worldSize, declaredWorld);

    if (!work.all.empty()) {
        rank.hasTemporal = true;
        TemporalBreakdown& t = rank.temporal;
        const std::int64_t busy = totalLength(work.all);
        const std::int64_t compute = totalLength(work.compute);
        const std::int64_t span = work.all.back().end - work.all.front().start;
        t.span = toMs(span);
        t.compute = toMs(compute);
        t.nonCompute = toMs(busy - compute);
        t.idle = toMs(span - busy);
        t.communication = toMs(totalLength(work.communication));
        t.overlap = toMs(totalLength(intersect(work.communication, work.compute)));
    }

    const Intervals overlap = intersect(work.communication, work.compute);
    for (const KinetoStepWindow& st : steps) {
        const std::int64_t duration = st.end - st.start;
        RankStep step;
        step.step = st.number;
        step.stepTime = toMs(duration);
        if (!work.all.empty()) {
            const std::int64_t comm = lengthWithin(work.communication, st.start, st.end);
            const std::int64_t over = lengthWithin(overlap, st.start, st.end);
            step.computation = toMs(lengthWithin(work.compute, st.start, st.end));
            step.communication = toMs(comm - over);
            step.overlapped = toMs(over);
            step.idle = toMs(duration - lengthWithin(work.all, st.start, st.end));
            step.communicationShare = double(comm) / double(duration);
            auto last = std::lower_bound(work.communicationStarts.begin(), work.communicationStarts.end(), st.end);
            if (last != work.communicationStarts.begin() && *std::prev(last) >= st.start)
                step.lastCommunicationOffset = toMs(*std::prev(last) - st.start);
        }
        rank.steps.push_back(step);
    }
    auto mean = [&rank](double RankStep::*field) {
        std::vector<double> values;
        for (const RankStep& s : rank.steps)
            values.push_back(s.*field);
        return meanOfKnown(values);
    };
    rank.stepTime = mean(&RankStep::stepTime);
    rank.computation = mean(&RankStep::computation);
    rank.communication = mean(&RankStep::communication);
    rank.overlapped = mean(&RankStep::overlapped);
    rank.idle = mean(&RankStep::idle);
    rank.communicationShare = mean(&RankStep::communicationShare);
    return rank;
}

Cluster assembleKinetoCluster(std::vector<RankFigures> ranks, int worldSize)
{
    Cluster cluster;
    cluster.origin = ClusterOrigin::Kineto;
    cluster.worldSize = worldSize;
    cluster.ranks = std::move(ranks);

    // Stragglers: per step number present on at least two ranks with a communication kernel. Ranks nearly
    // always share their step numbers: the steps are gathered once, then each step's offsets lie in one run
    // of a flat array (in rank order, as a map of lists had them), not in a thousand small lists.
    const auto hasOffset = [](const RankStep& s) { return isKnown(s.lastCommunicationOffset); };
    const StepColumns stepColumns(cluster.ranks, hasOffset);
    const std::vector<std::int64_t>& steps = stepColumns.steps();
    const auto indexOf = [&stepColumns](std::int64_t step) { return stepColumns.columnOf(step); };
    std::size_t entries = 0;
    std::vector<std::size_t> runStart(steps.size() + 1, 0);
    for (const RankFigures& r : cluster.ranks) {
        for (const RankStep& s : r.steps) {
            if (isKnown(s.lastCommunicationOffset)) {
                ++runStart[indexOf(s.step) + 1];
                ++entries;
            }
        }
    }
    for (std::size_t i = 1; i < runStart.size(); ++i)
        runStart[i] += runStart[i - 1];
    std::vector<std::pair<int, double>> offsets(entries); // (rank, offset), grouped by step
    {
        std::vector<std::size_t> next(runStart.begin(), runStart.end() - 1);
        for (const RankFigures& r : cluster.ranks) {
            for (const RankStep& s : r.steps) {
                if (isKnown(s.lastCommunicationOffset))
                    offsets[next[indexOf(s.step)]++] = { r.rank, s.lastCommunicationOffset };
            }
        }
    }
    std::vector<double> others;
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const auto first = offsets.begin() + std::ptrdiff_t(runStart[k]);
        const auto last = offsets.begin() + std::ptrdiff_t(runStart[k + 1]);
        if (last - first < 2)
            continue;
        const auto latest
            = std::max_element(first, last, [](const auto& a, const auto& b) { return a.second < b.second; });
        others.clear();
        for (auto it = first; it != last; ++it) {
            if (it != latest)
                others.push_back(it->second);
        }
        StragglerStep straggler;
        straggler.step = steps[k];
        straggler.rank = latest->first;
        straggler.lateness = latest->second - medianInPlace(others);
        // Ranks that reach the collective together have no straggler.
        if (straggler.lateness > 0)
            cluster.stragglers.push_back(straggler);
    }
    cluster.worldSize = std::max(cluster.worldSize, int(cluster.ranks.size()));
    cluster.analyse();
    return cluster;
}

Cluster buildKinetoCluster(const trace::TraceStore& store, const trace::StepBreakdown* breakdown)
{
    trace::StepBreakdown computed;
    if (!breakdown) {
        computed = trace::computeStepBreakdown(store);
        breakdown = &computed;
    }
    int worldSize = 0;
    std::vector<RankFigures> ranks;
    for (int source = 0; source < int(store.sources().size()); ++source)
        ranks.push_back(kinetoRankFigures(store, source, *breakdown, &worldSize));
    return assembleKinetoCluster(std::move(ranks), worldSize);
}

} // namespace runlens::models::cluster
