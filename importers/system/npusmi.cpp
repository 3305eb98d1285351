#include "importers/system/npusmi.h"

#include <QCoreApplication>
#include <QProcess>
#include <QStandardPaths>
#include <QStringList>

#include <algorithm>
#include <map>

namespace runlens::importers::system {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::importers::system::NpuSmiReader)
};

/// Longest output accepted from the tool: a 16-chip server prints a few KiB.
constexpr qsizetype kMaxOutputBytes = 1 << 20;
/// A hung driver must not stall sampling for long.
constexpr int kTimeoutMs = 5000;

/// The cells of a table line `| a b | c |` split on '|', or none when it is not one.
QStringList cellsOf(const QString& line)
{
    const QString trimmed = line.trimmed();
    if (!trimmed.startsWith(QLatin1Char('|')))
        return {};
    QStringList cells = trimmed.split(QLatin1Char('|'));
    cells.removeFirst();
    if (!cells.isEmpty() && cells.last().trimmed().isEmpty())
        cells.removeLast();
    return cells;
}

/// Tokens of a value cell; "3161 / 65536" (with or without spaces around the slash) is one token.
QStringList valueTokens(const QString& cell)
{
    const QStringList words = cell.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QStringList out;
    for (qsizetype i = 0; i < words.size(); ++i) {
        const QString& w = words[i];
        const bool joinsPrevious = w.startsWith(QLatin1Char('/')) && !out.isEmpty();
        if (joinsPrevious)
            out.last() += w;
        else
            out << w;
        if (out.last().endsWith(QLatin1Char('/')) && i + 1 < words.size())
            out.last() += words[++i];
    }
    return out;
}

std::optional<double> number(const QString& text)
{
    bool ok = false;
    const double value = text.toDouble(&ok);
    return ok ? std::optional<double>(value) : std::nullopt;
}

/// "3161/65536" -> used, total.
std::pair<std::optional<double>, std::optional<double>> usage(const QString& text)
{
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    if (slash < 0)
        return { number(text), std::nullopt };
    return { number(text.left(slash)), number(text.mid(slash + 1)) };
}

/// Column name -> value of one table line, the names from the matching header line.
std::map<QString, QString> zip(const QStringList& header, const QStringList& values)
{
    std::map<QString, QString> out;
    for (qsizetype c = 0; c < std::min(header.size(), values.size()); ++c) {
        const QStringList names = header[c].split(QLatin1Char(' '), Qt::SkipEmptyParts);
        const QStringList tokens = valueTokens(values[c]);
        for (qsizetype t = 0; t < std::min(names.size(), tokens.size()); ++t)
            out[names[t]] = tokens[t];
    }
    return out;
}

QString valueOf(const std::map<QString, QString>& row, const char* column)
{
    const auto it = row.find(QLatin1String(column));
    return it == row.end() ? QString() : it->second;
}

} // namespace

std::vector<NpuReading> parseNpuSmiInfo(QByteArrayView text)
{
    const QStringList lines
        = QString::fromUtf8(text.first(std::min(text.size(), kMaxOutputBytes))).split(QLatin1Char('\n'));
    std::vector<NpuReading> out;
    QStringList header1, header2;
    QStringList pending; ///< the first line of a chip, waiting for its second
    bool multiChip = false;
    for (const QString& line : lines) {
        const QStringList cells = cellsOf(line);
        if (cells.isEmpty()) {
            if (!line.trimmed().startsWith(QLatin1Char('+')))
                pending.clear(); // neither a table line nor a border: text between tables
            continue;
        }
        const QString first = cells.first().trimmed();
        if (first.startsWith(QLatin1String("NPU")) && line.contains(QLatin1String("Health"))) {
            header1 = cells;
            header2.clear();
            pending.clear();
            continue;
        }
        // The process table (NPU Chip | Process id | ...) ends the device table.
        if (line.contains(QLatin1String("Process id")) || line.contains(QLatin1String("Process name"))) {
            header1.clear();
            header2.clear();
            continue;
        }
        if (header1.isEmpty())
            continue;
        if (header2.isEmpty()) {
            header2 = cells;
            continue;
        }
        bool numeric = false;
        valueTokens(first).value(0).toInt(&numeric);
        if (!numeric) {
            pending.clear();
            continue;
        }
        if (pending.isEmpty()) {
            pending = cells;
            continue;
        }
        const std::map<QString, QString> a = zip(header1, pending);
        const std::map<QString, QString> b = zip(header2, cells);
        pending.clear();
        NpuReading r;
        r.npuId = valueOf(a, "NPU").toInt();
        r.chip = valueOf(b, "Chip").toInt();
        r.name = valueOf(a, "Name");
        r.health = valueOf(a, "Health");
        r.powerWatts = number(valueOf(a, "Power(W)"));
        r.temperatureC = number(valueOf(a, "Temp(C)"));
        r.aicorePercent = number(valueOf(b, "AICore(%)"));
        auto [hbmUsed, hbmTotal] = usage(valueOf(b, "HBM-Usage(MB)"));
        auto [ddrUsed, ddrTotal] = usage(valueOf(b, "Memory-Usage(MB)"));
        // The 910's DDR is the control CPU's; its HBM is what a model fills. The 310P has only DDR.
        if (hbmTotal && *hbmTotal > 0) {
            r.memoryUsedMiB = hbmUsed;
            r.memoryTotalMiB = hbmTotal;
        } else if (ddrTotal && *ddrTotal > 0) {
            r.memoryUsedMiB = ddrUsed;
            r.memoryTotalMiB = ddrTotal;
        }
        bool hasDevice = false;
        const int device = valueOf(b, "Device").toInt(&hasDevice);
        r.index = hasDevice ? device : r.npuId;
        multiChip = multiChip || r.chip != 0;
        out.push_back(r);
    }
    // Several chips under one NPU ID and no Device column: number them in table order.
    if (multiChip) {
        bool hasDevice = false;
        for (const QString& line : lines)
            hasDevice = hasDevice || (line.contains(QLatin1String("Chip")) && line.contains(QLatin1String("Device")));
        if (!hasDevice) {
            for (std::size_t i = 0; i < out.size(); ++i)
                out[i].index = int(i);
        }
    }
    return out;
}

NpuSmiReader::NpuSmiReader()
{
    m_program = QStandardPaths::findExecutable(QStringLiteral("npu-smi"));
    if (m_program.isEmpty())
        m_reason = Text::tr("Ascend's npu-smi is not on PATH: no NPU metrics.");
}

std::vector<NpuReading> NpuSmiReader::read()
{
    if (m_program.isEmpty())
        return {};
    QProcess process;
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(m_program, { QStringLiteral("info") }, QIODevice::ReadOnly);
    if (!process.waitForFinished(kTimeoutMs) || process.exitStatus() != QProcess::NormalExit
        || process.exitCode() != 0) {
        process.kill();
        process.waitForFinished(1000);
        m_reason
            = Text::tr("npu-smi info failed or did not answer within %1 s: no NPU metrics.").arg(kTimeoutMs / 1000);
        m_program.clear();
        return {};
    }
    std::vector<NpuReading> readings = parseNpuSmiInfo(process.readAllStandardOutput());
    if (readings.empty()) {
        m_reason = Text::tr("npu-smi info printed no device table RunLens can read: no NPU metrics.");
        m_program.clear();
    }
    return readings;
}

} // namespace runlens::importers::system
