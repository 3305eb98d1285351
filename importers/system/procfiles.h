#pragma once

#include <QByteArrayView>
#include <QString>

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

// Parsers of the Linux procfs and sysfs files the system sampler reads, as the kernel documents them
// (Documentation/filesystems/proc.rst, ABI/stable/sysfs-class-infiniband, ABI/testing/sysfs-devices-node).
// Each takes the file's text and returns what it understood; lines it does not know are skipped, so a newer
// kernel with more fields still parses.

namespace runlens::importers::system {

/// Jiffies spent busy and in total by one CPU line of /proc/stat.
struct CpuTimes
{
    std::uint64_t busy = 0;
    std::uint64_t total = 0;
};

/// /proc/stat: the `cpu` line, one per core, and the context switches since boot.
struct CpuStat
{
    CpuTimes all;
    std::vector<CpuTimes> cores; ///< in `cpuN` order
    std::optional<std::uint64_t> contextSwitches;
    bool valid = false; ///< the `cpu` line was found
};
CpuStat parseProcStat(QByteArrayView text);

/// /proc/meminfo (kB values), also the per-node `Node N MemTotal:` form of sysfs node meminfo.
struct MemInfo
{
    std::optional<std::int64_t> totalKiB, freeKiB, availableKiB, usedKiB, swapTotalKiB, swapFreeKiB;
};
MemInfo parseMeminfo(QByteArrayView text);

/// Named counters of a `name value` file: /proc/vmstat, a node's numastat, /proc/self/io.
std::map<QString, std::uint64_t> parseKeyValues(QByteArrayView text);

/// Sectors read and written per device from /proc/diskstats (sectors are 512 bytes whatever the device).
struct DiskCounters
{
    QString device;
    std::uint64_t sectorsRead = 0;
    std::uint64_t sectorsWritten = 0;
};
std::vector<DiskCounters> parseDiskstats(QByteArrayView text);

/// Bytes received and transmitted per interface from /proc/net/dev.
struct NetCounters
{
    QString interface;
    std::uint64_t rxBytes = 0;
    std::uint64_t txBytes = 0;
};
std::vector<NetCounters> parseNetDev(QByteArrayView text);

/// /proc/loadavg: the 1-minute load.
std::optional<double> parseLoadavg(QByteArrayView text);

/// The fields of /proc/PID/stat the sampler needs: the parent, CPU time and resident pages.
struct ProcessStat
{
    std::int64_t pid = 0;
    std::int64_t parent = 0;
    std::uint64_t userTicks = 0;
    std::uint64_t systemTicks = 0;
    std::int64_t residentPages = 0;
};
/// The command name may hold spaces and parentheses: fields are counted after its last ')'.
std::optional<ProcessStat> parseProcessStat(QByteArrayView text);

/// A single unsigned number (an InfiniBand or resctrl counter file).
std::optional<std::uint64_t> parseCounter(QByteArrayView text);

} // namespace runlens::importers::system
