#include "importers/system/procfiles.h"

#include <QByteArray>
#include <QList>

namespace runlens::importers::system {

namespace {

/// The whitespace-separated words of one line.
QList<QByteArrayView> words(QByteArrayView line)
{
    QList<QByteArrayView> out;
    qsizetype i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const qsizetype start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (i > start)
            out.append(line.sliced(start, i - start));
    }
    return out;
}

template<typename Fn> void forEachLine(QByteArrayView text, Fn fn)
{
    qsizetype start = 0;
    while (start < text.size()) {
        qsizetype end = text.indexOf('\n', start);
        if (end < 0)
            end = text.size();
        QByteArrayView line = text.sliced(start, end - start);
        if (line.endsWith('\r'))
            line.chop(1);
        fn(line);
        start = end + 1;
    }
}

std::optional<std::uint64_t> toUnsigned(QByteArrayView word)
{
    bool ok = false;
    const qulonglong value = word.toULongLong(&ok);
    return ok ? std::optional<std::uint64_t>(value) : std::nullopt;
}

std::optional<std::int64_t> toSigned(QByteArrayView word)
{
    bool ok = false;
    const qlonglong value = word.toLongLong(&ok);
    return ok ? std::optional<std::int64_t>(value) : std::nullopt;
}

/// user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is already counted in user
/// and nice, so it is left out of the total; idle and iowait are the time not busy.
std::optional<CpuTimes> cpuTimes(const QList<QByteArrayView>& w)
{
    if (w.size() < 5)
        return std::nullopt;
    std::uint64_t values[8] = {};
    const qsizetype n = std::min<qsizetype>(w.size() - 1, 8);
    for (qsizetype i = 0; i < n; ++i) {
        const auto v = toUnsigned(w[i + 1]);
        if (!v)
            return std::nullopt;
        values[i] = *v;
    }
    CpuTimes t;
    for (std::uint64_t v : values)
        t.total += v;
    t.busy = t.total - values[3] - values[4];
    return t;
}

} // namespace

CpuStat parseProcStat(QByteArrayView text)
{
    CpuStat stat;
    forEachLine(text, [&](QByteArrayView line) {
        if (!line.startsWith("cpu") && !line.startsWith("ctxt "))
            return;
        const QList<QByteArrayView> w = words(line);
        if (w.isEmpty())
            return;
        if (w[0] == "ctxt") {
            if (w.size() >= 2)
                stat.contextSwitches = toUnsigned(w[1]);
        } else if (w[0] == "cpu") {
            if (const auto t = cpuTimes(w)) {
                stat.all = *t;
                stat.valid = true;
            }
        } else if (const auto t = cpuTimes(w)) {
            stat.cores.push_back(*t);
        }
    });
    return stat;
}

MemInfo parseMeminfo(QByteArrayView text)
{
    MemInfo info;
    forEachLine(text, [&](QByteArrayView line) {
        QList<QByteArrayView> w = words(line);
        // sysfs node meminfo prefixes every line with "Node N".
        if (w.size() >= 3 && w[0] == "Node")
            w = w.mid(2);
        if (w.size() < 2)
            return;
        const auto value = toSigned(w[1]);
        if (!value)
            return;
        const QByteArrayView key = w[0];
        if (key == "MemTotal:")
            info.totalKiB = value;
        else if (key == "MemFree:")
            info.freeKiB = value;
        else if (key == "MemAvailable:")
            info.availableKiB = value;
        else if (key == "MemUsed:")
            info.usedKiB = value;
        else if (key == "SwapTotal:")
            info.swapTotalKiB = value;
        else if (key == "SwapFree:")
            info.swapFreeKiB = value;
    });
    return info;
}

std::map<QString, std::uint64_t> parseKeyValues(QByteArrayView text)
{
    std::map<QString, std::uint64_t> out;
    forEachLine(text, [&](QByteArrayView line) {
        const QList<QByteArrayView> w = words(line);
        if (w.size() != 2)
            return;
        QByteArrayView key = w[0];
        if (key.endsWith(':'))
            key.chop(1);
        if (const auto value = toUnsigned(w[1]))
            out[QString::fromLatin1(key)] = *value;
    });
    return out;
}

std::vector<DiskCounters> parseDiskstats(QByteArrayView text)
{
    // major minor name reads merged sectors_read ms writes merged sectors_written ...
    std::vector<DiskCounters> out;
    forEachLine(text, [&](QByteArrayView line) {
        const QList<QByteArrayView> w = words(line);
        if (w.size() < 10)
            return;
        const auto read = toUnsigned(w[5]);
        const auto written = toUnsigned(w[9]);
        if (!read || !written)
            return;
        out.push_back({ QString::fromLatin1(w[2]), *read, *written });
    });
    return out;
}

std::vector<NetCounters> parseNetDev(QByteArrayView text)
{
    // Two header lines, then "iface: rx_bytes packets errs drop fifo frame compressed multicast tx_bytes ...".
    std::vector<NetCounters> out;
    forEachLine(text, [&](QByteArrayView line) {
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return;
        const QByteArrayView name = line.first(colon).trimmed();
        const QList<QByteArrayView> w = words(line.sliced(colon + 1));
        if (name.isEmpty() || w.size() < 9)
            return;
        const auto rx = toUnsigned(w[0]);
        const auto tx = toUnsigned(w[8]);
        if (!rx || !tx)
            return;
        out.push_back({ QString::fromLatin1(name), *rx, *tx });
    });
    return out;
}

std::optional<double> parseLoadavg(QByteArrayView text)
{
    const QList<QByteArrayView> w = words(text.trimmed());
    if (w.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double load = w[0].toDouble(&ok);
    return ok ? std::optional<double>(load) : std::nullopt;
}

std::optional<ProcessStat> parseProcessStat(QByteArrayView text)
{
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
    // priority nice num_threads itrealvalue starttime vsize rss ...
    const qsizetype open = text.indexOf('(');
    const qsizetype close = text.lastIndexOf(')');
    if (open <= 0 || close < open)
        return std::nullopt;
    const auto pid = toSigned(text.first(open).trimmed());
    const QList<QByteArrayView> w = words(text.sliced(close + 1).trimmed());
    // w[0] is the state (field 3): field N is w[N - 3].
    if (!pid || w.size() < 22)
        return std::nullopt;
    const auto parent = toSigned(w[1]);
    const auto user = toUnsigned(w[11]);
    const auto system = toUnsigned(w[12]);
    const auto resident = toSigned(w[21]);
    if (!parent || !user || !system || !resident)
        return std::nullopt;
    return ProcessStat { *pid, *parent, *user, *system, *resident };
}

std::optional<std::uint64_t> parseCounter(QByteArrayView text)
{
    return toUnsigned(text.trimmed());
}

} // namespace runlens::importers::system
