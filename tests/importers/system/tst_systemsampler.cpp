#include "importers/system/npusmi.h"
#include "importers/system/procfiles.h"
#include "importers/system/systemsampler.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <unistd.h>

using namespace runlens::importers::system;

namespace {

// Files in the layouts the kernel documents (Documentation/filesystems/proc.rst; sysfs ABI for
// infiniband, node and resctrl), copied from a real two-node machine with one InfiniBand HCA and trimmed.

const char kProcStat[] = "cpu  1000 20 300 8000 100 10 20 0 50 0\n"
                         "cpu0 600 10 200 3000 50 5 10 0 25 0\n"
                         "cpu1 400 10 100 5000 50 5 10 0 25 0\n"
                         "intr 123456 0 0\n"
                         "ctxt 500000\n"
                         "btime 1700000000\n"
                         "processes 4321\n";

const char kMeminfo[] = "MemTotal:       32000000 kB\n"
                        "MemFree:         1000000 kB\n"
                        "MemAvailable:   24000000 kB\n"
                        "Buffers:          100000 kB\n"
                        "SwapTotal:       2000000 kB\n"
                        "SwapFree:        1500000 kB\n"
                        "HugePages_Total:       0\n";

const char kNodeMeminfo[] = "Node 1 MemTotal:       16000000 kB\n"
                            "Node 1 MemFree:         4000000 kB\n"
                            "Node 1 MemUsed:        12000000 kB\n";

const char kNumastat[] = "numa_hit 1000000\nnuma_miss 2000\nnuma_foreign 300\ninterleave_hit 500\n"
                         "local_node 999000\nother_node 4000\n";

const char kDiskstats[] = "   8       0 sda 1000 10 20000 500 2000 20 40000 900 0 1200 1400 0 0 0 0\n"
                          "   8       1 sda1 900 10 18000 450 1900 20 38000 800 0 1100 1250 0 0 0 0\n"
                          "   7       0 loop0 10 0 80 1 0 0 0 0 0 1 1 0 0 0 0\n";

const char kNetDev[]
    = "Inter-|   Receive                                                |  Transmit\n"
      " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier "
      "compressed\n"
      "    lo: 5000000    1000    0    0    0     0          0         0  5000000    1000    0    0    0     0       0 "
      "         0\n"
      "  eth0: 10485760   20000    0    0    0     0          0         0 2097152    15000    0    0    0     0       "
      "0 "
      "         0\n";

bool write(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

/// The machine above as a folder: /proc and /sys below `root`, with a process tree 4242 > 4243 (a space and
/// a parenthesis in its command name) and an unrelated 99.
bool writeMachine(const QString& root, int tick)
{
    const QString proc = root + QStringLiteral("/proc/");
    const QString sys = root + QStringLiteral("/sys/");
    // Second sample: every counter moved by a known amount.
    const auto bump
        = [tick](std::uint64_t value, std::uint64_t step) { return QByteArray::number(value + tick * step); };
    bool ok = write(proc + QStringLiteral("stat"),
                    tick == 0 ? QByteArray(kProcStat)
                              : QByteArray("cpu  1600 20 300 8300 100 10 20 0 50 0\n"
                                           "cpu0 1100 10 200 3000 50 5 10 0 25 0\n"
                                           "cpu1 500 10 100 5300 50 5 10 0 25 0\n"
                                           "ctxt 520000\n"));
    ok = ok && write(proc + QStringLiteral("meminfo"), kMeminfo);
    ok = ok
        && write(proc + QStringLiteral("vmstat"), "pgfault " + bump(1000, 500) + "\npgmajfault " + bump(10, 2) + "\n");
    ok = ok && write(proc + QStringLiteral("loadavg"), "1.50 1.20 0.90 3/400 4243\n");
    ok = ok && write(proc + QStringLiteral("diskstats"), kDiskstats);
    ok = ok && write(proc + QStringLiteral("net/dev"), kNetDev);
    // pid (comm) state ppid ... utime(14) stime(15) ... rss(24)
    const auto stat = [&](int pid, const QByteArray& comm, int parent, std::uint64_t user, std::uint64_t system,
                          int pages) {
        return write(proc + QString::number(pid) + QStringLiteral("/stat"),
                     QByteArray::number(pid) + " (" + comm + ") S " + QByteArray::number(parent)
                         + " 1 1 0 -1 4194304 100 0 0 0 " + QByteArray::number(user) + " " + QByteArray::number(system)
                         + " 0 0 20 0 1 0 100 1000000 " + QByteArray::number(pages) + " 18446744073709551615\n");
    };
    ok = ok && stat(4242, "python3", 1, 100 + tick * 150, 10 + tick * 50, 2560);
    ok = ok && stat(4243, "data (loader) 1", 4242, 50 + tick * 100, 0, 1280);
    ok = ok && stat(99, "sshd", 1, 5 + tick * 1000, 0, 100);
    // Whole disks are the entries of /sys/block.
    ok = ok && QDir().mkpath(sys + QStringLiteral("block/sda")) && QDir().mkpath(sys + QStringLiteral("block/loop0"));
    const QString ib = sys + QStringLiteral("class/infiniband/mlx5_0/ports/1/counters/");
    ok = ok && write(ib + QStringLiteral("port_rcv_data"), bump(1000000, 262144) + "\n");
    ok = ok && write(ib + QStringLiteral("port_xmit_data"), bump(500000, 524288) + "\n");
    for (int node = 0; node < 2; ++node) {
        const QString folder = sys + QStringLiteral("devices/system/node/node%1/").arg(node);
        QByteArray meminfo(kNodeMeminfo);
        meminfo.replace("Node 1", "Node " + QByteArray::number(node));
        ok = ok && write(folder + QStringLiteral("meminfo"), meminfo);
        ok = ok
            && write(folder + QStringLiteral("numastat"),
                     QByteArray(kNumastat).replace("numa_miss 2000", "numa_miss " + bump(2000, 100 * (node + 1))));
    }
    ok = ok && QDir().mkpath(sys + QStringLiteral("devices/system/node/possible_not_a_node"));
    ok = ok && write(sys + QStringLiteral("fs/resctrl/mon_data/mon_L3_00/mbm_total_bytes"), bump(0, 8 << 20));
    ok = ok && write(sys + QStringLiteral("fs/resctrl/mon_data/mon_L3_01/mbm_total_bytes"), bump(0, 4 << 20));
    return ok;
}

std::optional<double> valueOf(const std::vector<Metric>& metrics, const QString& tag)
{
    for (const Metric& m : metrics) {
        if (m.tag == tag)
            return m.value;
    }
    return std::nullopt;
}

} // namespace

class TestSystemSampler : public QObject
{
    Q_OBJECT
private slots:
    void npuSmiTable_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("chips");
        QTest::addColumn<int>("chip");
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("health");
        QTest::addColumn<double>("aicore");
        QTest::addColumn<double>("memUsed");
        QTest::addColumn<double>("memTotal");
        QTest::addColumn<double>("power"); // NaN: NA
        QTest::addColumn<double>("temperature");
        // HBM is the device memory where the chip has it; the 310P's DDR where it has none.
        QTest::newRow("910B busy chip") << "910b-8chips.txt" << 3 << 1 << 1 << "910B3"
                                        << "OK" << 87.0 << 58213.0 << 65536.0 << 385.7 << 52.0;
        QTest::newRow("910B warning") << "910b-8chips.txt" << 3 << 2 << 2 << "910B3"
                                      << "Warning" << 0.0 << 3161.0 << 65536.0 << 91.6 << 40.0;
        QTest::newRow("910A") << "910a.txt" << 1 << 0 << 4 << "910A"
                              << "OK" << 12.0 << 1024.0 << 32768.0 << 70.4 << 39.0;
        QTest::newRow("310P second chip") << "310p-duo.txt" << 2 << 1 << 1 << "310P3"
                                          << "OK" << 35.0 << 9212.0 << 21527.0 << std::nan("") << 45.0;
    }

    void npuSmiTable()
    {
        QFETCH(QString, file);
        QFETCH(int, chips);
        QFETCH(int, chip);
        QFile f(QStringLiteral(RUNLENS_TEST_DATA_DIR "/system/npu-smi/") + file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::vector<NpuReading> npus = parseNpuSmiInfo(f.readAll());
        // The process table's rows are not chips.
        QCOMPARE(int(npus.size()), chips);
        const NpuReading& npu = npus.at(std::size_t(chip));
        QTEST(npu.index, "index");
        QTEST(npu.name, "name");
        QTEST(npu.health, "health");
        QTEST(*npu.aicorePercent, "aicore");
        QTEST(*npu.memoryUsedMiB, "memUsed");
        QTEST(*npu.memoryTotalMiB, "memTotal");
        QFETCH(double, power);
        QCOMPARE(npu.powerWatts.has_value(), !std::isnan(power));
        if (npu.powerWatts)
            QCOMPARE(*npu.powerWatts, power);
        QTEST(*npu.temperatureC, "temperature");

        // The tags the recorder writes, per device as for NVML's GPUs.
        std::vector<Metric> metrics;
        appendNpuMetrics({ npu }, metrics);
        QStringList tags;
        for (const Metric& m : metrics)
            tags << m.tag;
        const QString prefix = QStringLiteral("system/npu%1_").arg(npu.index);
        QVERIFY(tags.contains(prefix + QStringLiteral("util_percent")));
        QVERIFY(tags.contains(prefix + QStringLiteral("mem_used_MiB")));
        QVERIFY(tags.contains(prefix + QStringLiteral("temperature_C")));
        QCOMPARE(tags.contains(prefix + QStringLiteral("power_W")), !std::isnan(power));
    }

    void npuSmiGarbage_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("error message") << QByteArray("dcmi module initialize failed. ret is -8005\n");
        QTest::newRow("binary") << QByteArray("\x00\xff|\x01|\x02\n|||\n", 12);
        QTest::newRow("header only") << QByteArray(
            "| NPU   Name | Health | Power(W) Temp(C) |\n| Chip | Bus-Id | AICore(%) |\n");
        QTest::newRow("truncated after first line")
            << QByteArray("| NPU   Name | Health | Power(W) Temp(C) |\n| Chip | Bus-Id | AICore(%) |\n"
                          "+====+\n| 0  910B3 | OK | 93.2 41 |\n");
        QTest::newRow("only pipes") << QByteArray(100000, '|');
    }

    void npuSmiGarbage()
    {
        QFETCH(QByteArray, text);
        QVERIFY(parseNpuSmiInfo(text).empty());
    }

    void procStat()
    {
        const CpuStat stat = parseProcStat(kProcStat);
        QVERIFY(stat.valid);
        // Guest time (already in user) is left out; idle and iowait are not busy.
        QCOMPARE(stat.all.total, std::uint64_t(1000 + 20 + 300 + 8000 + 100 + 10 + 20 + 0));
        QCOMPARE(stat.all.busy, std::uint64_t(1000 + 20 + 300 + 10 + 20));
        QCOMPARE(stat.cores.size(), std::size_t(2));
        QCOMPARE(stat.cores[1].busy, std::uint64_t(400 + 10 + 100 + 5 + 10));
        QCOMPARE(stat.contextSwitches, std::optional<std::uint64_t>(500000));
        QVERIFY(!parseProcStat("garbage\ncpu x y z\n").valid);
    }

    void memoryFiles()
    {
        const MemInfo host = parseMeminfo(kMeminfo);
        QCOMPARE(host.totalKiB, std::optional<std::int64_t>(32000000));
        QCOMPARE(host.availableKiB, std::optional<std::int64_t>(24000000));
        QCOMPARE(host.swapFreeKiB, std::optional<std::int64_t>(1500000));
        const MemInfo node = parseMeminfo(kNodeMeminfo);
        QCOMPARE(node.usedKiB, std::optional<std::int64_t>(12000000));
        QCOMPARE(node.totalKiB, std::optional<std::int64_t>(16000000));
        const auto numa = parseKeyValues(kNumastat);
        QCOMPARE(numa.at(QStringLiteral("numa_miss")), std::uint64_t(2000));
        QCOMPARE(numa.at(QStringLiteral("other_node")), std::uint64_t(4000));
        QCOMPARE(numa.size(), std::size_t(6));
    }

    void devicesAndProcesses()
    {
        const auto disks = parseDiskstats(kDiskstats);
        QCOMPARE(disks.size(), std::size_t(3));
        QCOMPARE(disks[0].device, QStringLiteral("sda"));
        QCOMPARE(disks[0].sectorsRead, std::uint64_t(20000));
        QCOMPARE(disks[0].sectorsWritten, std::uint64_t(40000));
        const auto nets = parseNetDev(kNetDev);
        QCOMPARE(nets.size(), std::size_t(2));
        QCOMPARE(nets[1].interface, QStringLiteral("eth0"));
        QCOMPARE(nets[1].rxBytes, std::uint64_t(10485760));
        QCOMPARE(nets[1].txBytes, std::uint64_t(2097152));
        QCOMPARE(parseLoadavg("1.50 1.20 0.90 3/400 4243\n"), std::optional<double>(1.5));
        const auto process = parseProcessStat(
            "4243 (data (loader) 1) S 4242 1 1 0 -1 4194304 100 0 0 0 150 7 0 0 20 0 1 0 100 1000000 1280 1\n");
        QVERIFY(process);
        QCOMPARE(process->pid, std::int64_t(4243));
        QCOMPARE(process->parent, std::int64_t(4242));
        QCOMPARE(process->userTicks, std::uint64_t(150));
        QCOMPARE(process->systemTicks, std::uint64_t(7));
        QCOMPARE(process->residentPages, std::int64_t(1280));
        QVERIFY(!parseProcessStat("4243 (cut"));
        QVERIFY(!parseProcessStat("4243 (x) S 1 2 3"));
        QCOMPARE(parseCounter(" 123456789012\n"), std::optional<std::uint64_t>(123456789012ULL));
        QVERIFY(!parseCounter("n/a"));
    }

    // Two samples of the fixture machine one second apart: levels from the first, rates from the difference.
    void ratesOfAFixtureMachine()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeMachine(dir.path(), 0));
        SystemSampler sampler({ dir.path() + QStringLiteral("/proc"), dir.path() + QStringLiteral("/sys") }, false);
        sampler.setProcess(4242);
        const std::vector<Metric> first = sampler.sample(10.0);
        QVERIFY(!valueOf(first, QStringLiteral("system/cpu_busy_percent"))); // no rate before a second sample
        QCOMPARE(valueOf(first, QStringLiteral("system/load_1min")), std::optional<double>(1.5));
        QCOMPARE(valueOf(first, QStringLiteral("system/mem_used_MiB")), std::optional<double>(8000000 / 1024.0));
        QCOMPARE(valueOf(first, QStringLiteral("system/swap_used_MiB")), std::optional<double>(500000 / 1024.0));
        const double page = double(sysconf(_SC_PAGESIZE));
        QCOMPARE(valueOf(first, QStringLiteral("system/process_rss_MiB")),
                 std::optional<double>((2560 + 1280) * page / (1024.0 * 1024.0)));
        QCOMPARE(valueOf(first, QStringLiteral("system/process_count")), std::optional<double>(2));
        QCOMPARE(valueOf(first, QStringLiteral("system/numa1_mem_used_MiB")), std::optional<double>(12000000 / 1024.0));

        QVERIFY(writeMachine(dir.path(), 1));
        const std::vector<Metric> second = sampler.sample(11.0);
        // cpu: busy +600 of total +900; cores: 500/500 and 100/400.
        QCOMPARE(valueOf(second, QStringLiteral("system/cpu_busy_percent")), std::optional<double>(100.0 * 600 / 900));
        QCOMPARE(valueOf(second, QStringLiteral("system/cpu_core_busy_max_percent")), std::optional<double>(100.0));
        QCOMPARE(valueOf(second, QStringLiteral("system/cpu_core_busy_mean_percent")),
                 std::optional<double>((100.0 + 25.0) / 2));
        QCOMPARE(valueOf(second, QStringLiteral("system/context_switches_per_s")), std::optional<double>(20000));
        QCOMPARE(valueOf(second, QStringLiteral("system/page_faults_per_s")), std::optional<double>(500));
        QCOMPARE(valueOf(second, QStringLiteral("system/major_page_faults_per_s")), std::optional<double>(2));
        // The tree's 300 ticks (not sshd's 1000), at the machine's ticks per second.
        const double ticks = double(sysconf(_SC_CLK_TCK));
        QCOMPARE(valueOf(second, QStringLiteral("system/process_cpu_percent")),
                 std::optional<double>(100.0 * 300 / ticks));
        // InfiniBand counts 4-byte words: 262144 words = 1 MiB received, 2 MiB sent.
        QCOMPARE(valueOf(second, QStringLiteral("system/ib_mlx5_0_1_rx_MiB_per_s")), std::optional<double>(1.0));
        QCOMPARE(valueOf(second, QStringLiteral("system/ib_mlx5_0_1_tx_MiB_per_s")), std::optional<double>(2.0));
        QCOMPARE(valueOf(second, QStringLiteral("system/numa0_numa_miss_pages_per_s")), std::optional<double>(100));
        QCOMPARE(valueOf(second, QStringLiteral("system/numa1_numa_miss_pages_per_s")), std::optional<double>(200));
        QCOMPARE(valueOf(second, QStringLiteral("system/numa1_other_node_pages_per_s")), std::optional<double>(0));
        QCOMPARE(valueOf(second, QStringLiteral("system/mem_bandwidth_MiB_per_s")), std::optional<double>(12));
        // sda counted, not its partition or the loop device; no traffic between the samples.
        QCOMPARE(valueOf(second, QStringLiteral("system/disk_read_MiB_per_s")), std::optional<double>(0));
        QCOMPARE(valueOf(second, QStringLiteral("system/net_eth0_rx_MiB_per_s")), std::optional<double>(0));
        QVERIFY(!valueOf(second, QStringLiteral("system/net_lo_rx_MiB_per_s")));
    }

    // A counter that goes backwards (a reset device) gives no rate rather than a huge or negative one.
    void countersThatGoBack()
    {
        QTemporaryDir dir;
        QVERIFY(writeMachine(dir.path(), 1));
        SystemSampler sampler({ dir.path() + QStringLiteral("/proc"), dir.path() + QStringLiteral("/sys") }, false);
        sampler.sample(1.0);
        QVERIFY(writeMachine(dir.path(), 0));
        const std::vector<Metric> second = sampler.sample(2.0);
        QVERIFY(!valueOf(second, QStringLiteral("system/ib_mlx5_0_1_rx_MiB_per_s")));
        QVERIFY(!valueOf(second, QStringLiteral("system/cpu_busy_percent")));
        // Same time twice: no rates at all.
        const std::vector<Metric> third = sampler.sample(2.0);
        QVERIFY(!valueOf(third, QStringLiteral("system/context_switches_per_s")));
    }

    // This machine, measuring this process: the readings exist and are sane.
    void thisMachine()
    {
        SystemSampler sampler;
        sampler.setProcess(getpid());
        sampler.sample(0.0);
        volatile double spin = 0;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 200)
            spin = spin + 1;
        const std::vector<Metric> metrics = sampler.sample(double(timer.nsecsElapsed()) * 1e-9);
        const auto busy = valueOf(metrics, QStringLiteral("system/cpu_busy_percent"));
        QVERIFY(busy);
        QVERIFY(*busy >= 0 && *busy <= 100);
        const auto rss = valueOf(metrics, QStringLiteral("system/process_rss_MiB"));
        QVERIFY(rss && *rss > 1);
        QVERIFY(valueOf(metrics, QStringLiteral("system/mem_available_MiB")).value_or(0) > 0);
        const auto cpu = valueOf(metrics, QStringLiteral("system/process_cpu_percent"));
        QVERIFY(cpu && *cpu > 0);
        for (const Metric& m : metrics) {
            QVERIFY2(m.tag.startsWith(QLatin1String("system/")), qPrintable(m.tag));
            QVERIFY2(std::isfinite(m.value), qPrintable(m.tag));
        }
    }
};

QTEST_GUILESS_MAIN(TestSystemSampler)
#include "tst_systemsampler.moc"
