#include "models/system/profilercpu.h"

#include "models/pipeline/datapipeline.h"

#include <cmath>

namespace runlens::models::system {

namespace {

constexpr double kMillisecondsPerSecond = 1000.0;

double at(const pipeline::CpuCurve* curve, std::size_t i)
{
    return curve && i < curve->values.size() ? curve->values[i] : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

SystemRun systemRunOfMinddataCpu(const pipeline::CpuUtilization& cpu, const QString& run, int rank)
{
    SystemRun out;
    out.run = run;
    out.rank = rank;
    const pipeline::CpuCurve* user = cpu.deviceCurve(QStringLiteral("user_utilization"));
    const pipeline::CpuCurve* sys = cpu.deviceCurve(QStringLiteral("sys_utilization"));
    const pipeline::CpuCurve* io = cpu.deviceCurve(QStringLiteral("io_utilization"));
    const pipeline::CpuCurve* idle = cpu.deviceCurve(QStringLiteral("idle_utilization"));
    const pipeline::CpuCurve* processUser = cpu.processCurve(QStringLiteral("user_utilization"));
    const pipeline::CpuCurve* processSys = cpu.processCurve(QStringLiteral("sys_utilization"));
    const auto add = [&](const char* metric, double time, double value) {
        if (!std::isfinite(value))
            return;
        MetricSeries& series = out.metrics[QLatin1String(metric)];
        series.times.push_back(time);
        series.values.push_back(value);
    };
    double previous = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < cpu.timeStamps.size(); ++i) {
        const double time = cpu.timeStamps[i] / kMillisecondsPerSecond;
        // Out-of-order or non-finite stamps cannot be placed on a time axis.
        if (!std::isfinite(time) || time <= previous)
            continue;
        const double u = at(user, i), s = at(sys, i), w = at(io, i), d = at(idle, i);
        // MindSpore writes all zeros for the first sample (no previous reading to take a difference from).
        if (u == 0 && s == 0 && w == 0 && d == 0)
            continue;
        previous = time;
        add("cpu_busy_percent", time, std::isfinite(d) ? 100.0 - d : u + s + (std::isfinite(w) ? w : 0.0));
        add("cpu_user_percent", time, u);
        add("cpu_sys_percent", time, s);
        add("cpu_iowait_percent", time, w);
        const double pu = at(processUser, i), ps = at(processSys, i);
        if (std::isfinite(pu) || std::isfinite(ps))
            add("process_cpu_percent", time, (std::isfinite(pu) ? pu : 0.0) + (std::isfinite(ps) ? ps : 0.0));
    }
    return out;
}

std::vector<SystemRun>
systemRunsOfPipelines(const QString& run, const std::vector<std::shared_ptr<const pipeline::DataPipeline>>& pipelines)
{
    std::vector<SystemRun> runs;
    for (const auto& pipeline : pipelines) {
        if (!pipeline || pipeline->cpu.timeStamps.empty())
            continue;
        // The root folder's run is "."; its ranks read better as "rank_0" than "./rank_0".
        QString name = run;
        if (pipeline->rank >= 0)
            name = (run.isEmpty() || run == QLatin1String(".") ? QString() : run + QLatin1Char('/'))
                + QStringLiteral("rank_%1").arg(pipeline->rank);
        SystemRun system = systemRunOfMinddataCpu(pipeline->cpu, name, pipeline->rank);
        if (!system.isEmpty())
            runs.push_back(std::move(system));
    }
    sortRuns(runs);
    return runs;
}

} // namespace runlens::models::system
