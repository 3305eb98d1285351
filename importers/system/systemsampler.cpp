#include "importers/system/systemsampler.h"

#include "importers/system/npusmi.h"
#include "importers/system/nvmlreader.h"
#include "importers/system/procfiles.h"

#include <QDir>
#include <QFile>

#include <algorithm>
#include <unistd.h>

namespace runlens::importers::system {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
/// Bytes per unit of the InfiniBand port_rcv_data/port_xmit_data counters: octets divided by 4.
constexpr std::uint64_t kInfinibandWordBytes = 4;
/// Bytes per sector in /proc/diskstats, whatever the device's sector size.
constexpr std::uint64_t kSectorBytes = 512;

bool isVirtualDisk(const QString& name)
{
    return name.startsWith(QLatin1String("loop")) || name.startsWith(QLatin1String("ram"))
        || name.startsWith(QLatin1String("zram"));
}

/// Tag-safe form of a device or interface name.
QString stem(QString name)
{
    for (QChar& c : name) {
        if (!c.isLetterOrNumber() && c != QLatin1Char('_') && c != QLatin1Char('-') && c != QLatin1Char('.'))
            c = QLatin1Char('_');
    }
    return name;
}

} // namespace

void appendNpuMetrics(const std::vector<NpuReading>& npus, std::vector<Metric>& out)
{
    for (const NpuReading& npu : npus) {
        const auto add = [&](const char* what, const std::optional<double>& value) {
            if (value)
                out.push_back({ QStringLiteral("system/npu%1_%2").arg(npu.index).arg(QLatin1String(what)), *value });
        };
        add("util_percent", npu.aicorePercent);
        add("mem_used_MiB", npu.memoryUsedMiB);
        add("mem_total_MiB", npu.memoryTotalMiB);
        add("power_W", npu.powerWatts);
        add("temperature_C", npu.temperatureC);
    }
}

SystemSampler::SystemSampler(MachineRoots roots, bool readGpus)
    : m_roots(std::move(roots))
{
    if (const long ticks = sysconf(_SC_CLK_TCK); ticks > 0)
        m_ticksPerSecond = double(ticks);
    if (const long page = sysconf(_SC_PAGESIZE); page > 0)
        m_pageBytes = double(page);
    if (readGpus) {
        m_nvml = std::make_unique<NvmlReader>();
        m_npuSmi = std::make_unique<NpuSmiReader>();
        // A machine has one kind of accelerator: the missing tool of the other kind is not worth a note.
        if (!m_nvml->isAvailable() && !m_npuSmi->isAvailable())
            m_notes << m_nvml->unavailableReason() << m_npuSmi->unavailableReason();
    }
}

SystemSampler::~SystemSampler() = default;

QByteArray SystemSampler::read(const QString& path) const
{
    // procfs and sysfs files report a size of 0 or 4096 whatever they hold: read until the end.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QStringList SystemSampler::entries(const QString& folder) const
{
    return QDir(folder).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::System, QDir::Name);
}

std::vector<Metric> SystemSampler::sample(double seconds)
{
    Counters now;
    now.seconds = seconds;
    std::vector<Metric> out;
    readCpu(now, out);
    readMemory(now, out);
    readProcessTree(now, out);
    readDisks(now);
    readNetwork(now);
    readInfiniband(now);
    readNuma(now, out);
    readResctrl(now);
    readGpus(out);
    readNpus(out);
    addRates(now, out);
    m_previous = std::move(now);
    return out;
}

void SystemSampler::readCpu(Counters& now, std::vector<Metric>& out) const
{
    const CpuStat stat = parseProcStat(read(m_roots.proc + QStringLiteral("/stat")));
    if (stat.valid) {
        now.cpuBusy = stat.all.busy;
        now.cpuTotal = stat.all.total;
    }
    for (const CpuTimes& core : stat.cores)
        now.cores.emplace_back(core.busy, core.total);
    if (stat.contextSwitches)
        now.events[QStringLiteral("context_switches")] = *stat.contextSwitches;
    if (const auto load = parseLoadavg(read(m_roots.proc + QStringLiteral("/loadavg"))))
        out.push_back({ QStringLiteral("system/load_1min"), *load });
}

void SystemSampler::readMemory(Counters& now, std::vector<Metric>& out) const
{
    const MemInfo info = parseMeminfo(read(m_roots.proc + QStringLiteral("/meminfo")));
    if (info.totalKiB && info.availableKiB) {
        out.push_back({ QStringLiteral("system/mem_used_MiB"), double(*info.totalKiB - *info.availableKiB) / 1024.0 });
        out.push_back({ QStringLiteral("system/mem_available_MiB"), double(*info.availableKiB) / 1024.0 });
        if (*info.totalKiB > 0)
            out.push_back({ QStringLiteral("system/mem_available_percent"),
                            100.0 * double(*info.availableKiB) / double(*info.totalKiB) });
    }
    if (info.swapTotalKiB && info.swapFreeKiB)
        out.push_back(
            { QStringLiteral("system/swap_used_MiB"), double(*info.swapTotalKiB - *info.swapFreeKiB) / 1024.0 });
    const auto vm = parseKeyValues(read(m_roots.proc + QStringLiteral("/vmstat")));
    if (const auto it = vm.find(QStringLiteral("pgfault")); it != vm.end())
        now.events[QStringLiteral("page_faults")] = it->second;
    if (const auto it = vm.find(QStringLiteral("pgmajfault")); it != vm.end())
        now.events[QStringLiteral("major_page_faults")] = it->second;
    if (const auto it = vm.find(QStringLiteral("pswpin")); it != vm.end())
        now.events[QStringLiteral("swap_in_pages")] = it->second;
    if (const auto it = vm.find(QStringLiteral("pswpout")); it != vm.end())
        now.events[QStringLiteral("swap_out_pages")] = it->second;
}

void SystemSampler::readProcessTree(Counters& now, std::vector<Metric>& out) const
{
    if (m_process <= 0)
        return;
    // Every process's parent, then the tree below the measured one.
    std::map<std::int64_t, std::vector<std::int64_t>> children;
    std::map<std::int64_t, ProcessStat> stats;
    for (const QString& entry : entries(m_roots.proc)) {
        bool numeric = false;
        const std::int64_t pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        const auto stat = parseProcessStat(read(m_roots.proc + QLatin1Char('/') + entry + QStringLiteral("/stat")));
        if (!stat)
            continue; // exited since the listing
        children[stat->parent].push_back(pid);
        stats[pid] = *stat;
    }
    if (!stats.count(m_process))
        return;
    std::uint64_t ticks = 0;
    std::int64_t pages = 0;
    int processes = 0;
    std::vector<std::int64_t> pending { m_process };
    while (!pending.empty()) {
        const std::int64_t pid = pending.back();
        pending.pop_back();
        const auto it = stats.find(pid);
        if (it == stats.end())
            continue;
        ticks += it->second.userTicks + it->second.systemTicks;
        pages += it->second.residentPages;
        ++processes;
        if (const auto c = children.find(pid); c != children.end())
            pending.insert(pending.end(), c->second.begin(), c->second.end());
    }
    now.treeTicks = ticks;
    out.push_back({ QStringLiteral("system/process_rss_MiB"), double(pages) * m_pageBytes / kMiB });
    out.push_back({ QStringLiteral("system/process_count"), double(processes) });
}

void SystemSampler::readDisks(Counters& now) const
{
    // Whole disks are the entries of /sys/block; partitions would count their bytes twice.
    const QStringList disks = entries(m_roots.sys + QStringLiteral("/block"));
    std::uint64_t read = 0, written = 0;
    bool any = false;
    for (const DiskCounters& disk : parseDiskstats(this->read(m_roots.proc + QStringLiteral("/diskstats")))) {
        if (!disks.contains(disk.device) || isVirtualDisk(disk.device))
            continue;
        read += disk.sectorsRead * kSectorBytes;
        written += disk.sectorsWritten * kSectorBytes;
        any = true;
    }
    if (any) {
        now.bytes[QStringLiteral("disk_read")] = read;
        now.bytes[QStringLiteral("disk_write")] = written;
    }
}

void SystemSampler::readNetwork(Counters& now) const
{
    for (const NetCounters& net : parseNetDev(read(m_roots.proc + QStringLiteral("/net/dev")))) {
        if (net.interface == QLatin1String("lo"))
            continue;
        now.bytes[QStringLiteral("net_%1_rx").arg(stem(net.interface))] = net.rxBytes;
        now.bytes[QStringLiteral("net_%1_tx").arg(stem(net.interface))] = net.txBytes;
    }
}

void SystemSampler::readInfiniband(Counters& now) const
{
    const QString root = m_roots.sys + QStringLiteral("/class/infiniband");
    for (const QString& device : entries(root)) {
        for (const QString& port : entries(root + QLatin1Char('/') + device + QStringLiteral("/ports"))) {
            const QString counters = QStringLiteral("%1/%2/ports/%3/counters/").arg(root, device, port);
            const QString name = QStringLiteral("ib_%1_%2").arg(stem(device), stem(port));
            if (const auto rx = parseCounter(read(counters + QStringLiteral("port_rcv_data"))))
                now.bytes[name + QStringLiteral("_rx")] = *rx * kInfinibandWordBytes;
            if (const auto tx = parseCounter(read(counters + QStringLiteral("port_xmit_data"))))
                now.bytes[name + QStringLiteral("_tx")] = *tx * kInfinibandWordBytes;
        }
    }
}

void SystemSampler::readNuma(Counters& now, std::vector<Metric>& out) const
{
    const QString root = m_roots.sys + QStringLiteral("/devices/system/node");
    QStringList nodes;
    for (const QString& entry : entries(root)) {
        bool numbered = false;
        entry.mid(4).toInt(&numbered);
        if (entry.startsWith(QLatin1String("node")) && numbered)
            nodes << entry;
    }
    // One node says nothing about crossing nodes.
    if (nodes.size() < 2)
        return;
    for (const QString& node : nodes) {
        const QString folder = root + QLatin1Char('/') + node + QLatin1Char('/');
        const QString numa = QStringLiteral("numa") + node.mid(4);
        const MemInfo info = parseMeminfo(read(folder + QStringLiteral("meminfo")));
        const std::optional<std::int64_t> used = info.usedKiB
            ? info.usedKiB
            : (info.totalKiB && info.freeKiB ? std::optional(*info.totalKiB - *info.freeKiB) : std::nullopt);
        if (used)
            out.push_back({ QStringLiteral("system/%1_mem_used_MiB").arg(numa), double(*used) / 1024.0 });
        const auto stat = parseKeyValues(read(folder + QStringLiteral("numastat")));
        for (const char* key : { "numa_miss", "numa_foreign", "other_node" }) {
            const auto it = stat.find(QLatin1String(key));
            if (it != stat.end())
                now.events[QStringLiteral("%1_%2_pages").arg(numa, QLatin1String(key))] = it->second;
        }
    }
}

void SystemSampler::readResctrl(Counters& now) const
{
    // Memory bandwidth monitoring: the root group's total bytes per L3 domain, summed.
    const QString root = m_roots.sys + QStringLiteral("/fs/resctrl/mon_data");
    std::uint64_t total = 0;
    bool any = false;
    for (const QString& domain : entries(root)) {
        if (const auto bytes
            = parseCounter(read(root + QLatin1Char('/') + domain + QStringLiteral("/mbm_total_bytes")))) {
            total += *bytes;
            any = true;
        }
    }
    if (any)
        now.bytes[QStringLiteral("mem_bandwidth")] = total;
}

void SystemSampler::readGpus(std::vector<Metric>& out) const
{
    if (!m_nvml || !m_nvml->isAvailable())
        return;
    for (const GpuReading& gpu : m_nvml->read()) {
        const auto add = [&](const char* what, const std::optional<double>& value) {
            if (value)
                out.push_back({ QStringLiteral("system/gpu%1_%2").arg(gpu.index).arg(QLatin1String(what)), *value });
        };
        add("util_percent", gpu.utilisationPercent);
        add("mem_used_MiB", gpu.memoryUsedMiB);
        add("mem_total_MiB", gpu.memoryTotalMiB);
        add("power_W", gpu.powerWatts);
        add("sm_clock_MHz", gpu.smClockMHz);
        add("temperature_C", gpu.temperatureC);
        add("pcie_rx_MiB_per_s", gpu.pcieRxMiBPerSecond);
        add("pcie_tx_MiB_per_s", gpu.pcieTxMiBPerSecond);
    }
}

void SystemSampler::readNpus(std::vector<Metric>& out)
{
    if (!m_npuSmi || !m_npuSmi->isAvailable())
        return;
    const std::vector<NpuReading> npus = m_npuSmi->read();
    // The tool failed once (and gave up): say so once, then record the rest.
    if (!m_npuSmi->isAvailable())
        m_notes << m_npuSmi->unavailableReason();
    appendNpuMetrics(npus, out);
}

void SystemSampler::addRates(const Counters& now, std::vector<Metric>& out) const
{
    if (!m_previous)
        return;
    const Counters& before = *m_previous;
    const double elapsed = now.seconds - before.seconds;
    if (elapsed <= 0)
        return;
    // A counter that went backwards (a device reset, a wrap) gives no rate this time.
    const auto delta = [](std::uint64_t newer, std::uint64_t older) -> std::optional<double> {
        return newer >= older ? std::optional<double>(double(newer - older)) : std::nullopt;
    };
    if (now.cpuBusy && now.cpuTotal && before.cpuBusy && before.cpuTotal) {
        const auto busy = delta(*now.cpuBusy, *before.cpuBusy);
        const auto total = delta(*now.cpuTotal, *before.cpuTotal);
        if (busy && total && *total > 0)
            out.push_back({ QStringLiteral("system/cpu_busy_percent"), 100.0 * *busy / *total });
    }
    if (!now.cores.empty() && now.cores.size() == before.cores.size()) {
        double sum = 0, most = 0;
        int counted = 0;
        for (size_t i = 0; i < now.cores.size(); ++i) {
            const auto busy = delta(now.cores[i].first, before.cores[i].first);
            const auto total = delta(now.cores[i].second, before.cores[i].second);
            if (!busy || !total || *total <= 0)
                continue;
            const double percent = 100.0 * *busy / *total;
            sum += percent;
            most = std::max(most, percent);
            ++counted;
        }
        if (counted > 0) {
            out.push_back({ QStringLiteral("system/cpu_core_busy_mean_percent"), sum / counted });
            out.push_back({ QStringLiteral("system/cpu_core_busy_max_percent"), most });
        }
    }
    if (now.treeTicks && before.treeTicks) {
        // Ticks of processes that exited since the last sample leave the sum: a dip, never a negative rate.
        const double ticks = *now.treeTicks >= *before.treeTicks ? double(*now.treeTicks - *before.treeTicks) : 0.0;
        out.push_back({ QStringLiteral("system/process_cpu_percent"), 100.0 * ticks / m_ticksPerSecond / elapsed });
    }
    for (const auto& [name, value] : now.bytes) {
        const auto it = before.bytes.find(name);
        if (it == before.bytes.end())
            continue;
        if (const auto d = delta(value, it->second))
            out.push_back({ QStringLiteral("system/%1_MiB_per_s").arg(name), *d / kMiB / elapsed });
    }
    for (const auto& [name, value] : now.events) {
        const auto it = before.events.find(name);
        if (it == before.events.end())
            continue;
        if (const auto d = delta(value, it->second))
            out.push_back({ QStringLiteral("system/%1_per_s").arg(name), *d / elapsed });
    }
}

} // namespace runlens::importers::system
