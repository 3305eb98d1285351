#include "models/advisor/analysis.h"
#include "models/advisor/analysishelpers.h"
#include "models/advisor/evidence.h"
#include "models/system/systemmetrics.h"

#include <QCoreApplication>
#include <QDateTime>

#include <algorithm>
#include <cmath>

// The rules over the machine under a run: the `system/*` scalars that `runlens record` (or a reader of
// nvidia-smi, dcgmi, MLflow or W&B system metrics) produced, one host or rank per run.

namespace runlens::models::advisor {

namespace {

const QString kGpuIdleCpuBusy = QStringLiteral("system.gpu_idle_cpu_busy");
const QString kGpuAlternating = QStringLiteral("system.gpu_idle_share");
const QString kSwapGrowth = QStringLiteral("system.swap_growth");
const QString kMemAvailable = QStringLiteral("system.mem_available_min");
const QString kIbBelowPeers = QStringLiteral("system.ib_share_of_peers");
const QString kUtilImbalance = QStringLiteral("system.util_deviation");

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::advisor)
};

QString clockTime(double seconds)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(seconds * 1000.0)).toString(QStringLiteral("hh:mm:ss"));
}

Measurement measurementFor(const system::SystemRun& run, const QString& metric, double value, double start, double end)
{
    Measurement m;
    m.metric = metric;
    m.value = value;
    placeIn(m, runScope(run.run, run.rank));
    m.facts.insert(QStringLiteral("start"), clockTime(start));
    m.facts.insert(QStringLiteral("end"), clockTime(end));
    m.facts.insert(QStringLiteral("seconds"), std::round(end - start));
    m.evidence << systemEvidence(run.run, run.rank, start, end);
    m.order = start;
    return m;
}

/// The value of `series` at each time of `times` (the sample at or before it); NaN before its first sample.
std::vector<double> valuesAt(const system::MetricSeries& series, const std::vector<double>& times)
{
    std::vector<double> out;
    out.reserve(times.size());
    for (double t : times) {
        auto it = std::upper_bound(series.times.begin(), series.times.end(), t);
        out.push_back(it == series.times.begin() ? std::nan("")
                                                 : series.values[std::size_t(it - series.times.begin()) - 1]);
    }
    return out;
}

void measureGpuIdleCpuBusy(const system::SystemRun& run, AnalysisContext& context)
{
    const system::MetricSeries gpu = run.summary(system::Summary::GpuUtil);
    const system::MetricSeries* cpu = run.metric(QStringLiteral("cpu_busy_percent"));
    if (gpu.isEmpty() || !cpu)
        return;
    context.markEvaluated(kGpuIdleCpuBusy);
    const double busyCpu
        = context.parameter(QStringLiteral("system-gpu-idle-cpu-busy"), QStringLiteral("cpu_busy"), 60);
    const double minSamples
        = context.parameter(QStringLiteral("system-gpu-idle-cpu-busy"), QStringLiteral("min_samples"), 5);
    const std::vector<double> cpuAtGpu = valuesAt(*cpu, gpu.times);
    double sum = 0.0;
    double cpuSum = 0.0;
    int count = 0;
    double start = 0.0;
    double end = 0.0;
    for (std::size_t i = 0; i < gpu.values.size(); ++i) {
        if (!(cpuAtGpu[i] > busyCpu) || !std::isfinite(gpu.values[i]))
            continue;
        if (count == 0)
            start = gpu.times[i];
        end = gpu.times[i];
        sum += gpu.values[i];
        cpuSum += cpuAtGpu[i];
        ++count;
    }
    if (count < minSamples)
        return;
    Measurement m = measurementFor(run, kGpuIdleCpuBusy, sum / count, start, end);
    m.facts.insert(QStringLiteral("cpu"), cpuSum / count);
    m.facts.insert(QStringLiteral("samples"), count);
    context.add(std::move(m));
}

void measureGpuAlternating(const system::SystemRun& run, AnalysisContext& context)
{
    const QString rule = QStringLiteral("system-gpu-alternating");
    const double idleLevel = context.parameter(rule, QStringLiteral("idle_level"), 5);
    const double busyLevel = context.parameter(rule, QStringLiteral("busy_level"), 50);
    const double minBusyShare = context.parameter(rule, QStringLiteral("min_busy_percent"), 20);
    const double minSwitches = context.parameter(rule, QStringLiteral("min_switches"), 4);
    for (const QString& name : run.metricsMatching(QStringLiteral("gpu\\d+_util_percent"))) {
        const system::MetricSeries& gpu = *run.metric(name);
        context.markEvaluated(kGpuAlternating);
        int idle = 0;
        int busy = 0;
        int switches = 0;
        int last = 0; // -1 idle, 1 busy
        for (double v : gpu.values) {
            const int state = v < idleLevel ? -1 : (v > busyLevel ? 1 : 0);
            idle += state < 0 ? 1 : 0;
            busy += state > 0 ? 1 : 0;
            if (state != 0) {
                switches += last != 0 && state != last ? 1 : 0;
                last = state;
            }
        }
        const double n = double(gpu.values.size());
        // A GPU idle all along is not alternating: another rule (and the overview) shows it.
        if (n == 0 || 100.0 * busy / n < minBusyShare || switches < minSwitches)
            continue;
        Measurement m = measurementFor(run, kGpuAlternating, 100.0 * idle / n, gpu.times.front(), gpu.times.back());
        m.facts.insert(QStringLiteral("gpu"), name.section(QLatin1Char('_'), 0, 0));
        m.facts.insert(QStringLiteral("busy"), 100.0 * busy / n);
        m.facts.insert(QStringLiteral("switches"), switches);
        context.add(std::move(m));
    }
}

void measureMemory(const system::SystemRun& run, AnalysisContext& context)
{
    if (const system::MetricSeries* swap = run.metric(QStringLiteral("swap_used_MiB"))) {
        context.markEvaluated(kSwapGrowth);
        const auto peak = std::max_element(swap->values.begin(), swap->values.end());
        const double growth = *peak - swap->values.front();
        const std::size_t peakIndex = std::size_t(peak - swap->values.begin());
        std::size_t first = 0;
        while (first < peakIndex && swap->values[first] <= swap->values.front())
            ++first;
        Measurement m = measurementFor(run, kSwapGrowth, growth, swap->times[first], swap->times[peakIndex]);
        m.facts.insert(QStringLiteral("growth"), formatByteSize(growth * 1024 * 1024));
        m.facts.insert(QStringLiteral("peak"), formatByteSize(*peak * 1024 * 1024));
        context.add(std::move(m));
    }
    if (const system::MetricSeries* available = run.metric(QStringLiteral("mem_available_percent"))) {
        context.markEvaluated(kMemAvailable);
        const double threshold = context.threshold(QStringLiteral("system-memory-low"), 5);
        const auto low = std::min_element(available->values.begin(), available->values.end());
        const std::size_t lowIndex = std::size_t(low - available->values.begin());
        std::size_t first = lowIndex;
        std::size_t last = lowIndex;
        for (std::size_t i = 0; i < available->values.size(); ++i) {
            if (available->values[i] < threshold) {
                first = std::min(first, i);
                last = std::max(last, i);
            }
        }
        Measurement m = measurementFor(run, kMemAvailable, *low, available->times[first], available->times[last]);
        if (const system::MetricSeries* used = run.metric(QStringLiteral("mem_used_MiB")))
            m.facts.insert(QStringLiteral("used"),
                           formatByteSize(*std::max_element(used->values.begin(), used->values.end()) * 1024 * 1024));
        else
            m.facts.insert(QStringLiteral("used"), QStringLiteral("?"));
        context.add(std::move(m));
    }
}

/// Compares each run with its peers on one summary figure: the runs of a folder are the hosts or ranks of a job.
void measurePeers(const std::vector<system::SystemRun>& runs, AnalysisContext& context)
{
    struct Mean
    {
        const system::SystemRun* run;
        double mean;
    };
    auto meansOf = [&runs](system::Summary summary) {
        std::vector<Mean> means;
        for (const system::SystemRun& run : runs) {
            const system::Stats stats = system::statsOf(run.summary(summary).values);
            if (stats.count > 0)
                means.push_back({ &run, stats.mean });
        }
        return means;
    };

    const std::vector<Mean> ib = meansOf(system::Summary::IbTraffic);
    if (ib.size() >= 2) {
        context.markEvaluated(kIbBelowPeers);
        for (const Mean& m : ib) {
            std::vector<double> peers;
            for (const Mean& other : ib) {
                if (other.run != m.run)
                    peers.push_back(other.mean);
            }
            const double median = system::percentile(peers, 0.5);
            if (median <= 0)
                continue;
            Measurement out
                = measurementFor(*m.run, kIbBelowPeers, 100.0 * m.mean / median, m.run->startTime(), m.run->endTime());
            out.facts.insert(QStringLiteral("mean"), m.mean);
            out.facts.insert(QStringLiteral("peers"), median);
            context.add(std::move(out));
        }
    } else {
        context.markMissing(kIbBelowPeers, Text::tr("no two hosts or ranks with InfiniBand traffic were recorded"));
    }

    std::vector<Mean> util = meansOf(system::Summary::GpuUtil);
    QString figure = Text::tr("GPU utilisation");
    if (util.size() < 2) {
        util = meansOf(system::Summary::ProcessCpu);
        figure = Text::tr("process CPU");
    }
    if (util.size() < 2) {
        context.markMissing(kUtilImbalance, Text::tr("no two hosts or ranks with system metrics were recorded"));
        return;
    }
    context.markEvaluated(kUtilImbalance);
    // Against the median: two slow ranks out of four pull a mean far enough to make the healthy ones look off.
    std::vector<double> values;
    for (const Mean& m : util)
        values.push_back(m.mean);
    const double mean = system::percentile(values, 0.5);
    if (mean <= 0)
        return;
    for (const Mean& m : util) {
        Measurement out = measurementFor(*m.run, kUtilImbalance, 100.0 * std::abs(m.mean - mean) / mean,
                                         m.run->startTime(), m.run->endTime());
        out.facts.insert(QStringLiteral("figure"), figure);
        out.facts.insert(QStringLiteral("mean"), m.mean);
        out.facts.insert(QStringLiteral("all"), mean);
        out.facts.insert(QStringLiteral("direction"), m.mean < mean ? Text::tr("below") : Text::tr("above"));
        context.add(std::move(out));
    }
}

} // namespace

void analyseSystem(const AdvisorInput& input, AnalysisContext& context)
{
    std::map<QString, system::SystemRun> byRun;
    for (const ScalarTrack& track : input.scalars) {
        if (!track.tag.startsWith(system::kTagPrefix) || track.wallTimes.size() != track.values.size())
            continue;
        system::SystemRun& run = byRun[track.run];
        run.run = track.run;
        run.rank = system::rankOfRun(track.run);
        // Tracks are in step order, which a recorder writes in time order.
        run.add(track.tag.mid(system::kTagPrefix.size()), track.wallTimes, track.values);
    }
    std::vector<system::SystemRun> runs;
    for (auto& [name, run] : byRun)
        runs.push_back(std::move(run));
    system::sortRuns(runs);

    if (runs.empty()) {
        const QString noSystem = Text::tr("no system metrics were recorded (runlens record)");
        for (const QString& metric :
             { kGpuIdleCpuBusy, kGpuAlternating, kSwapGrowth, kMemAvailable, kIbBelowPeers, kUtilImbalance })
            context.markMissing(metric, noSystem);
        return;
    }
    const QString noGpu = Text::tr("no GPU utilisation was recorded");
    context.markMissing(kGpuIdleCpuBusy, noGpu);
    context.markMissing(kGpuAlternating, noGpu);
    context.markMissing(kSwapGrowth, Text::tr("no swap usage was recorded"));
    context.markMissing(kMemAvailable, Text::tr("no available memory was recorded"));
    for (const system::SystemRun& run : runs) {
        if (context.isCanceled())
            return;
        measureGpuIdleCpuBusy(run, context);
        measureGpuAlternating(run, context);
        measureMemory(run, context);
    }
    measurePeers(runs, context);
}

} // namespace runlens::models::advisor
