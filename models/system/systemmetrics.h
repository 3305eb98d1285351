#pragma once

#include <QString>
#include <QStringList>

#include <limits>
#include <map>
#include <vector>

namespace runlens::models::scalars {
class ScalarStore;
}

namespace runlens::models::system {

/// Tags of machine metrics start with this (`runlens record` and the readers of nvidia-smi, dcgmi, MLflow and
/// W&B system metrics write them so).
inline const QString kTagPrefix = QStringLiteral("system/");

/// One metric over time: wall times (seconds since the epoch, ascending) and values.
struct MetricSeries
{
    std::vector<double> times;
    std::vector<double> values;

    bool isEmpty() const { return values.empty(); }
};

/// The figures the overview and the rules compare between ranks, each made of one or more metrics.
enum class Summary {
    GpuUtil, ///< mean over the GPUs (and Ascend NPUs) of `gpu<N>_util_percent` (`npu<N>_util_percent`)
    CpuBusy, ///< `cpu_busy_percent`
    ProcessCpu, ///< `process_cpu_percent`
    MemUsed, ///< `mem_used_MiB`
    IbTraffic, ///< sum of every `ib_*_rx/tx_MiB_per_s`
    Power, ///< sum over the GPUs and NPUs of `gpu<N>_power_W`, `npu<N>_power_W`
};
inline constexpr Summary kSummaries[]
    = { Summary::GpuUtil, Summary::CpuBusy, Summary::ProcessCpu, Summary::MemUsed, Summary::IbTraffic, Summary::Power };

/// The system metrics of one run (a host or a rank): what the System panel and the system rules read. A value,
/// built from the Scalars model's `system/*` tags, so it does not depend on the file the metrics came from.
struct SystemRun
{
    QString run; ///< the scalar run it was read from
    QString label; ///< the run as users see it (the opened folder's own run "." by its folder name)
    int rank = -1; ///< from a `rank_N` folder in the run's name; -1 when it names none
    std::map<QString, MetricSeries> metrics; ///< metric name without the `system/` prefix

    /// Adds the points of tag `system/<metric>`; points must come in time order.
    void add(const QString& metric, const std::vector<double>& times, const std::vector<double>& values);
    const MetricSeries* metric(const QString& name) const;
    /// Metric names matching the regular expression `pattern` (anchored), sorted.
    QStringList metricsMatching(const QString& pattern) const;
    double startTime() const;
    /// label, or the run when no label was given.
    QString displayName() const { return label.isEmpty() ? run : label; }
    double endTime() const;
    /// The figure `summary` over time; empty when the run has none of its metrics.
    MetricSeries summary(Summary summary) const;
    bool isEmpty() const { return metrics.empty(); }
};

/// Mean and 95th percentile (linear interpolation between closest ranks, as numpy's default).
struct Stats
{
    double mean = std::numeric_limits<double>::quiet_NaN();
    double p95 = std::numeric_limits<double>::quiet_NaN();
    int count = 0;
};
Stats statsOf(const std::vector<double>& values);
double percentile(std::vector<double> values, double q);

/// "job/rank_3" -> 3, "system/rank-12" -> 12; -1 when no folder of the run names a rank.
int rankOfRun(const QString& run);

/// Every run of `store` with `system/*` tags, sorted by rank and then run.
std::vector<SystemRun> systemRunsOf(const scalars::ScalarStore& store);
/// Sorts runs as systemRunsOf does.
void sortRuns(std::vector<SystemRun>& runs);

} // namespace runlens::models::system
