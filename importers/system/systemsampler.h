#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace runlens::importers::system {

class NvmlReader;
class NpuSmiReader;

/// Where the machine is read from: procfs and sysfs, or copies of them in a test.
struct MachineRoots
{
    QString proc = QStringLiteral("/proc");
    QString sys = QStringLiteral("/sys");
};

/// One reading, named as it is written: `system/<metric>_<unit>` (the unit is part of the tag).
struct Metric
{
    QString tag;
    double value = 0;
};

struct NpuReading;

/// The tags of NPU readings, as the sampler writes them: `system/npu<N>_util_percent` (AI Core),
/// `_mem_used_MiB`, `_mem_total_MiB`, `_power_W`, `_temperature_C`.
void appendNpuMetrics(const std::vector<NpuReading>& npus, std::vector<Metric>& out);

/// Reads what the machine exposes, each time it is asked: CPU (total, per core mean and max, load, context
/// switches), a process tree's CPU and resident memory, host memory and swap, page faults, disk and network
/// throughput, InfiniBand port traffic, NUMA node memory and cross-node allocations, resctrl memory bandwidth
/// and, through NVML, the GPUs; through `npu-smi info` (when the tool is on PATH), Ascend NPUs under the same
/// per-device metric names with `npu<N>` for `gpu<N>`. Counters become rates over the time since the previous sample,
/// so the first sample has levels only. A source the machine lacks is left out (notes() says so for the GPUs).
///
/// `runlens record` samples with it; it reads files only, never writes.
class SystemSampler
{
public:
    explicit SystemSampler(MachineRoots roots = {}, bool readGpus = true);
    ~SystemSampler();
    SystemSampler(const SystemSampler&) = delete;
    SystemSampler& operator=(const SystemSampler&) = delete;

    /// The process whose tree (it and its descendants) is measured; 0 for none.
    void setProcess(std::int64_t pid) { m_process = pid; }
    /// Reads the machine; `seconds` is a monotonic clock reading, the rates' time base.
    std::vector<Metric> sample(double seconds);
    /// What the machine does not expose that a user might look for (no GPU library), one sentence each.
    /// Grows when a source fails during recording (npu-smi stops answering); callers print what is new.
    QStringList notes() const { return m_notes; }

private:
    /// Monotonic counters of one sample, named by the stem of their rate's tag.
    struct Counters
    {
        double seconds = 0;
        std::optional<std::uint64_t> cpuBusy, cpuTotal, treeTicks;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> cores; ///< busy, total jiffies
        std::map<QString, std::uint64_t> bytes; ///< rates in MiB/s: `disk_read`, `net_eth0_rx`, `ib_mlx5_0_1_tx`…
        std::map<QString, std::uint64_t> events; ///< rates per second: `context_switches`, `numa0_miss`…
    };

    QByteArray read(const QString& path) const;
    void readCpu(Counters& now, std::vector<Metric>& out) const;
    void readMemory(Counters& now, std::vector<Metric>& out) const;
    void readProcessTree(Counters& now, std::vector<Metric>& out) const;
    QStringList entries(const QString& folder) const;
    void readDisks(Counters& now) const;
    void readNetwork(Counters& now) const;
    void readInfiniband(Counters& now) const;
    void readNuma(Counters& now, std::vector<Metric>& out) const;
    void readResctrl(Counters& now) const;
    void readGpus(std::vector<Metric>& out) const;
    void readNpus(std::vector<Metric>& out);
    /// Rates of every counter present in both samples, appended to `out`.
    void addRates(const Counters& now, std::vector<Metric>& out) const;

    MachineRoots m_roots;
    std::int64_t m_process = 0;
    std::unique_ptr<NvmlReader> m_nvml;
    std::unique_ptr<NpuSmiReader> m_npuSmi;
    std::optional<Counters> m_previous;
    QStringList m_notes;
    double m_ticksPerSecond = 100;
    double m_pageBytes = 4096;
};

} // namespace runlens::importers::system
