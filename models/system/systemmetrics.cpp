#include "models/system/systemmetrics.h"

#include "models/scalars/scalarstore.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace runlens::models::system {

namespace {

/// Adds up (or averages) several metrics sampled together: a sampler writes every metric of a sample with the
/// same wall time, so points are matched by time.
MetricSeries combine(const std::vector<const MetricSeries*>& parts, bool average)
{
    std::map<double, std::pair<double, int>> byTime;
    for (const MetricSeries* part : parts) {
        for (std::size_t i = 0; i < part->values.size(); ++i) {
            auto& [sum, count] = byTime[part->times[i]];
            if (std::isfinite(part->values[i])) {
                sum += part->values[i];
                ++count;
            }
        }
    }
    MetricSeries out;
    for (const auto& [time, entry] : byTime) {
        if (entry.second == 0)
            continue;
        out.times.push_back(time);
        out.values.push_back(average ? entry.first / entry.second : entry.first);
    }
    return out;
}

} // namespace

void SystemRun::add(const QString& name, const std::vector<double>& times, const std::vector<double>& values)
{
    MetricSeries& series = metrics[name];
    series.times.insert(series.times.end(), times.begin(), times.end());
    series.values.insert(series.values.end(), values.begin(), values.end());
}

const MetricSeries* SystemRun::metric(const QString& name) const
{
    const auto it = metrics.find(name);
    return it == metrics.end() || it->second.isEmpty() ? nullptr : &it->second;
}

QStringList SystemRun::metricsMatching(const QString& pattern) const
{
    const QRegularExpression re(QRegularExpression::anchoredPattern(pattern));
    QStringList names;
    for (const auto& [name, series] : metrics) {
        if (!series.isEmpty() && re.match(name).hasMatch())
            names << name;
    }
    return names;
}

double SystemRun::startTime() const
{
    double start = std::numeric_limits<double>::infinity();
    for (const auto& [name, series] : metrics) {
        if (!series.times.empty())
            start = std::min(start, series.times.front());
    }
    return start;
}

double SystemRun::endTime() const
{
    double end = -std::numeric_limits<double>::infinity();
    for (const auto& [name, series] : metrics) {
        if (!series.times.empty())
            end = std::max(end, series.times.back());
    }
    return end;
}

MetricSeries SystemRun::summary(Summary which) const
{
    QString pattern;
    bool average = false;
    switch (which) {
    case Summary::GpuUtil:
        pattern = QStringLiteral("(gpu|npu)\\d+_util_percent");
        average = true;
        break;
    case Summary::CpuBusy:
        pattern = QStringLiteral("cpu_busy_percent");
        break;
    case Summary::ProcessCpu:
        pattern = QStringLiteral("process_cpu_percent");
        break;
    case Summary::MemUsed:
        pattern = QStringLiteral("mem_used_MiB");
        break;
    case Summary::IbTraffic:
        pattern = QStringLiteral("ib_.+_(rx|tx)_MiB_per_s");
        break;
    case Summary::Power:
        pattern = QStringLiteral("(gpu|npu)\\d+_power_W");
        break;
    }
    std::vector<const MetricSeries*> parts;
    for (const QString& name : metricsMatching(pattern))
        parts.push_back(metric(name));
    if (parts.size() == 1)
        return *parts.front();
    return combine(parts, average);
}

double percentile(std::vector<double> values, double q)
{
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
                 values.end());
    if (values.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(values.begin(), values.end());
    const double position = std::clamp(q, 0.0, 1.0) * double(values.size() - 1);
    const std::size_t below = std::size_t(std::floor(position));
    const std::size_t above = std::min(below + 1, values.size() - 1);
    return values[below] + (values[above] - values[below]) * (position - double(below));
}

Stats statsOf(const std::vector<double>& values)
{
    Stats stats;
    double sum = 0.0;
    for (double v : values) {
        if (std::isfinite(v)) {
            sum += v;
            ++stats.count;
        }
    }
    if (stats.count == 0)
        return stats;
    stats.mean = sum / stats.count;
    stats.p95 = percentile(values, 0.95);
    return stats;
}

int rankOfRun(const QString& run)
{
    static const QRegularExpression rankFolder(QStringLiteral("(?:^|/)rank[_-]?(\\d+)(?:/|$)"),
                                               QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = rankFolder.match(run);
    return match.hasMatch() ? match.captured(1).toInt() : -1;
}

void sortRuns(std::vector<SystemRun>& runs)
{
    std::sort(runs.begin(), runs.end(), [](const SystemRun& a, const SystemRun& b) {
        if (a.rank != b.rank)
            return a.rank < b.rank;
        return a.run < b.run;
    });
}

std::vector<SystemRun> systemRunsOf(const scalars::ScalarStore& store)
{
    std::vector<SystemRun> runs;
    for (const QString& run : store.runs()) {
        SystemRun system;
        system.run = run;
        system.label = store.runDisplayName(run);
        system.rank = rankOfRun(run);
        for (const QString& tag : store.tagsOfRun(run)) {
            if (!tag.startsWith(kTagPrefix))
                continue;
            const scalars::ScalarSeries* series = store.series(run, tag);
            if (!series || series->isEmpty())
                continue;
            std::vector<std::pair<double, double>> points;
            points.reserve(series->points.size());
            for (const scalars::ScalarPoint& p : series->points)
                points.emplace_back(p.wallTime, p.value);
            // Arrival order is step order; a restarted recorder can interleave, the charts need time order.
            std::stable_sort(points.begin(), points.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            MetricSeries& out = system.metrics[tag.mid(kTagPrefix.size())];
            for (const auto& [time, value] : points) {
                out.times.push_back(time);
                out.values.push_back(value);
            }
        }
        if (!system.isEmpty())
            runs.push_back(std::move(system));
    }
    sortRuns(runs);
    return runs;
}

} // namespace runlens::models::system
