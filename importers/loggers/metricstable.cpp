#include "importers/loggers/metricstable.h"

#include "importers/loggers/flatjson.h"
#include "importers/loggers/loggerstr.h"

#include <QDateTime>
#include <QTimeZone>

#include <charconv>
#include <cmath>
#include <limits>

namespace runlens::importers::loggers {

namespace {

/// A wall-time value before this (March 1973) is a duration, not a point in time.
constexpr double kEarliestWallTime = 1e8;

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    }
    return out;
}

/// One CSV line split at `delimiter`, with double-quoted fields ("" inside quotes is one quote).
std::vector<std::string> splitCsv(std::string_view line, char delimiter)
{
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == '"' && trim(cell).empty()) {
            cell.clear();
            quoted = true;
        } else if (c == delimiter) {
            cells.push_back(std::string(trim(cell)));
            cell.clear();
        } else {
            cell += c;
        }
    }
    cells.push_back(std::string(trim(cell)));
    return cells;
}

/// Step-like header names, in the order they win when several are present (Lightning writes `step` and
/// `epoch`: the step is the x axis and the epoch a metric, as its TensorBoard logger has it).
int stepRank(const std::string& key)
{
    static const char* const kNames[] = { "step", "global_step", "_step", "iteration", "iter", "epoch" };
    for (int i = 0; i < int(std::size(kNames)); ++i) {
        if (key == kNames[i])
            return i;
    }
    return -1;
}

bool isWallTimeName(const std::string& key)
{
    return key == "wall_time" || key == "walltime" || key == "timestamp" || key == "time" || key == "_timestamp";
}

/// nvidia-smi's `--query-gpu` header cell `utilization.gpu [%]`: the property and its unit.
std::pair<std::string, std::string> propertyAndUnit(std::string_view cell)
{
    cell = trim(cell);
    std::string unit;
    const std::size_t open = cell.rfind('[');
    if (open != std::string_view::npos && cell.back() == ']') {
        unit = std::string(trim(cell.substr(open + 1, cell.size() - open - 2)));
        cell = trim(cell.substr(0, open));
    }
    return { lower(cell), unit };
}

bool isNvidiaSmiProperty(const std::string& key)
{
    return key == "utilization.gpu" || key == "memory.used" || key == "memory.total" || key == "power.draw"
        || key == "temperature.gpu" || key == "clocks.sm" || key == "clocks.current.sm" || key == "pci.bus_id";
}

/// The `runlens record` name (after `gpu<N>_`) of an nvidia-smi property; others keep their name.
QString nvidiaSmiTag(const std::string& property, const std::string& unit)
{
    if (property == "utilization.gpu")
        return QStringLiteral("util_percent");
    if (property == "utilization.memory")
        return QStringLiteral("mem_util_percent");
    if (property == "memory.used")
        return QStringLiteral("mem_used_MiB");
    if (property == "memory.total")
        return QStringLiteral("mem_total_MiB");
    if (property == "memory.free")
        return QStringLiteral("mem_free_MiB");
    if (property == "power.draw")
        return QStringLiteral("power_W");
    if (property == "clocks.sm" || property == "clocks.current.sm")
        return QStringLiteral("sm_clock_MHz");
    if (property == "clocks.mem" || property == "clocks.current.memory")
        return QStringLiteral("mem_clock_MHz");
    if (property == "temperature.gpu")
        return QStringLiteral("temperature_C");
    QString name = QString::fromStdString(property).replace(QLatin1Char('.'), QLatin1Char('_'));
    if (unit == "%")
        name += QStringLiteral("_percent");
    else if (!unit.empty())
        name += QLatin1Char('_') + QString::fromStdString(unit);
    return name;
}

/// `dcgmi dmon` field short names (DCGM's field tags) as `runlens record` names them.
QString dcgmiTag(const std::string& field)
{
    if (field == "GPUTL")
        return QStringLiteral("util_percent");
    if (field == "MCUTL")
        return QStringLiteral("mem_util_percent");
    if (field == "POWER")
        return QStringLiteral("power_W");
    if (field == "SMCLK")
        return QStringLiteral("sm_clock_MHz");
    if (field == "MMCLK")
        return QStringLiteral("mem_clock_MHz");
    if (field == "GTEMP")
        return QStringLiteral("temperature_C");
    if (field == "FBUSD")
        return QStringLiteral("mem_used_MiB");
    if (field == "FBTTL")
        return QStringLiteral("mem_total_MiB");
    if (field == "FBFRE")
        return QStringLiteral("mem_free_MiB");
    return QStringLiteral("dcgm_") + QString::fromStdString(lower(field));
}

} // namespace

bool isNvidiaSmiTimestamp(std::string_view cell)
{
    // `2024/01/15 10:23:45.123`
    cell = trim(cell);
    if (cell.size() < 19)
        return false;
    for (std::size_t i = 0; i < 19; ++i) {
        const char c = cell[i];
        const bool digit = c >= '0' && c <= '9';
        if ((i == 4 || i == 7) ? c != '/' : i == 10 ? c != ' ' : (i == 13 || i == 16) ? c != ':' : !digit)
            return false;
    }
    return true;
}

QString wandbSystemTag(std::string_view key)
{
    if (key.substr(0, 7) != "system.")
        return {};
    const std::string_view rest = key.substr(7);
    if (rest == "cpu")
        return QStringLiteral("system/cpu_busy_percent");
    if (rest == "memory")
        return QStringLiteral("system/mem_used_percent");
    if (rest == "proc.memory.rssMB")
        return QStringLiteral("system/process_rss_MiB");
    if (rest == "proc.memory.availableMB")
        return QStringLiteral("system/mem_available_MiB");
    if (rest == "network.sent")
        return QStringLiteral("system/net_total_tx_MiB_per_s");
    if (rest == "network.recv")
        return QStringLiteral("system/net_total_rx_MiB_per_s");
    if (rest.substr(0, 4) == "gpu.") {
        const std::string_view gpu = rest.substr(4);
        const std::size_t dot = gpu.find('.');
        if (dot != std::string_view::npos && dot > 0) {
            const QString prefix = QStringLiteral("system/gpu") + QString::fromUtf8(gpu.data(), qsizetype(dot));
            const std::string_view field = gpu.substr(dot + 1);
            if (field == "gpu")
                return prefix + QStringLiteral("_util_percent");
            if (field == "memory")
                return prefix + QStringLiteral("_mem_util_percent");
            if (field == "temp")
                return prefix + QStringLiteral("_temperature_C");
            if (field == "powerWatts")
                return prefix + QStringLiteral("_power_W");
            if (field == "smClock")
                return prefix + QStringLiteral("_sm_clock_MHz");
            if (field == "memoryAllocatedBytes")
                return prefix + QStringLiteral("_mem_used_MiB");
            if (field == "memoryAllocated")
                return prefix + QStringLiteral("_mem_used_percent");
            return prefix + QLatin1Char('_') + QString::fromUtf8(field.data(), qsizetype(field.size()));
        }
    }
    QString name = QString::fromUtf8(rest.data(), qsizetype(rest.size()));
    name.replace(QLatin1Char('.'), QLatin1Char('_'));
    return QStringLiteral("system/") + name;
}

std::optional<double> MetricsTableParser::parseNumber(std::string_view cell, bool allowUnit)
{
    cell = trim(cell);
    if (cell.empty())
        return std::nullopt;
    const std::string low = lower(cell);
    if (low == "nan" || low == "-nan")
        return std::numeric_limits<double>::quiet_NaN();
    if (low == "inf" || low == "+inf" || low == "infinity" || low == "+infinity")
        return std::numeric_limits<double>::infinity();
    if (low == "-inf" || low == "-infinity")
        return -std::numeric_limits<double>::infinity();
    if (low == "true")
        return 1.0;
    if (low == "false")
        return 0.0;
    std::string_view digits = cell;
    if (!digits.empty() && digits.front() == '+')
        digits.remove_prefix(1);
    double value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end == digits.data())
        return std::nullopt;
    const std::string_view tail = trim(std::string_view(end, std::size_t(digits.data() + digits.size() - end)));
    if (tail.empty())
        return value;
    // nvidia-smi without `nounits`: `45 %`, `1024 MiB`, `250.12 W`, `1410 MHz`.
    if (allowUnit && tail.size() <= 4 && end < digits.data() + digits.size() && *end == ' ')
        return value;
    return std::nullopt;
}

std::optional<double> MetricsTableParser::parseWallTime(std::string_view cell)
{
    cell = trim(cell);
    if (cell.empty())
        return std::nullopt;
    if (const std::optional<double> number = parseNumber(cell, false)) {
        if (!std::isfinite(*number))
            return std::nullopt;
        return *number > 1e11 ? *number / 1000.0 : *number;
    }
    QString text = QString::fromUtf8(cell.data(), qsizetype(cell.size()));
    // nvidia-smi: `2024/01/15 10:23:45.123`.
    if (text.size() >= 19 && text[4] == QLatin1Char('/') && text[7] == QLatin1Char('/')) {
        text[4] = QLatin1Char('-');
        text[7] = QLatin1Char('-');
    }
    if (text.size() >= 19 && text[10] == QLatin1Char(' '))
        text[10] = QLatin1Char('T');
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::fromString(text, Qt::ISODate);
    if (!time.isValid())
        return std::nullopt;
    return double(time.toMSecsSinceEpoch()) / 1000.0;
}

MetricsTableParser::MetricsTableParser(QString path)
    : m_path(std::move(path))
{ }

void MetricsTableParser::note(models::Severity severity, qint64 lineNumber, const QString& message)
{
    // A damaged file would otherwise give a message per line.
    if (severity != models::Severity::Info && ++m_badLines > 20)
        return;
    m_diagnostics.append({ severity, m_path, -1, lineNumber, message });
}

void MetricsTableParser::add(const QString& tag, qint64 step, double wallTime, double value)
{
    auto found = m_tagIndex.constFind(tag);
    int index = 0;
    if (found == m_tagIndex.constEnd()) {
        index = int(m_batch.size());
        m_tagIndex.insert(tag, index);
        m_batch.push_back(models::scalars::TagPoints { tag, std::nullopt, {} });
    } else {
        index = *found;
    }
    m_batch[std::size_t(index)].points.push_back({ step, wallTime, value });
}

qint64 MetricsTableParser::nextGpuStep(const QString& gpu)
{
    qint64& count = m_gpuSteps[gpu];
    return count++;
}

models::scalars::ScalarBatch MetricsTableParser::takeBatch()
{
    m_tagIndex.clear();
    return std::exchange(m_batch, {});
}

models::Diagnostics MetricsTableParser::takeDiagnostics()
{
    return std::exchange(m_diagnostics, {});
}

void MetricsTableParser::feedLine(std::string_view line, qint64 lineNumber)
{
    // A byte-order mark (Excel's "CSV UTF-8") before the header.
    if (m_format == TableFormat::Unknown && line.substr(0, 3) == "\xef\xbb\xbf")
        line.remove_prefix(3);
    const std::string_view text = trim(line);
    if (text.empty())
        return;
    if (m_format == TableFormat::Unknown) {
        if (text.front() == '{') {
            m_format = TableFormat::JsonLines;
        } else if (text.front() == '#' && lower(text).find("entity") != std::string::npos) {
            m_format = TableFormat::Dcgmi;
        } else {
            m_format = TableFormat::Csv;
            const auto commas = std::count(text.begin(), text.end(), ',');
            const auto tabs = std::count(text.begin(), text.end(), '\t');
            m_delimiter = tabs > commas ? '\t' : ',';
            std::vector<std::string> cells = splitCsv(text, m_delimiter);
            if (isNvidiaSmiTimestamp(cells.front()) && cells.size() == std::size(kDocumentedQuery)) {
                // `--format=csv,noheader`: the columns are those of the query the README documents.
                readHeader(std::vector<std::string>(std::begin(kDocumentedQuery), std::end(kDocumentedQuery)));
                note(models::Severity::Info, lineNumber,
                     LoggersTr::tr("No header line: the columns are read as timestamp, index, utilization.gpu, "
                                   "memory.used, memory.total, power.draw, clocks.sm, temperature.gpu."));
                readCsvRow(cells, lineNumber);
                return;
            }
            readHeader(cells);
            return;
        }
    }
    switch (m_format) {
    case TableFormat::JsonLines:
        readJsonLine(text, lineNumber);
        break;
    case TableFormat::Dcgmi:
        readDcgmi(text, lineNumber);
        break;
    case TableFormat::Csv:
        readCsvRow(splitCsv(text, m_delimiter), lineNumber);
        break;
    case TableFormat::Unknown:
        break;
    }
}

void MetricsTableParser::readHeader(const std::vector<std::string>& cells)
{
    for (const std::string& cell : cells) {
        if (isNvidiaSmiProperty(propertyAndUnit(cell).first))
            m_nvidiaSmi = true;
    }
    int bestStep = -1;
    int stepColumn = -1;
    bool haveWallTime = false;
    m_columns.resize(cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
        Column& column = m_columns[i];
        column.name = QString::fromStdString(cells[i]);
        const auto [key, unit] = propertyAndUnit(cells[i]);
        if (m_nvidiaSmi) {
            column.tag = nvidiaSmiTag(key, unit);
            if (key == "index")
                column.role = Role::GpuIndex;
            else if (key == "timestamp")
                column.role = Role::WallTime;
            else if (key == "name" || key == "pci.bus_id" || key == "uuid" || key == "driver_version")
                column.role = Role::Skipped;
            continue;
        }
        column.tag = column.name;
        const int rank = stepRank(key);
        if (rank >= 0 && (bestStep < 0 || rank < bestStep)) {
            bestStep = rank;
            stepColumn = int(i);
        }
        if (!haveWallTime && isWallTimeName(key)) {
            column.role = Role::WallTime;
            haveWallTime = true;
        }
        if (cells[i].empty())
            column.role = Role::Skipped;
    }
    if (stepColumn >= 0) {
        m_columns[std::size_t(stepColumn)].role = Role::Step;
    } else if (!m_nvidiaSmi && haveWallTime) {
        note(
            models::Severity::Info, 1,
            LoggersTr::tr("No step column (step, global_step, iteration, iter or epoch); the row number is the step."));
    } else if (!m_nvidiaSmi) {
        // A data set or a results table, not a log over time: listed, not turned into scalars.
        m_notOverTime = true;
        note(models::Severity::Info, 1,
             LoggersTr::tr("No step or time column (step, global_step, iteration, iter, epoch, time, timestamp, "
                           "wall_time); the table is not read as scalars."));
    }
}

void MetricsTableParser::readCsvRow(const std::vector<std::string>& cells, qint64 lineNumber)
{
    if (m_notOverTime)
        return;
    // nvidia-smi repeats nothing, but a header written again (a restarted logger appending) is skipped.
    if (!cells.empty() && !m_columns.empty() && QString::fromStdString(cells[0]) == m_columns[0].name)
        return;
    qint64 step = m_rows;
    bool haveStep = false;
    double wallTime = 0;
    QString gpu = QStringLiteral("0");
    for (std::size_t i = 0; i < cells.size() && i < m_columns.size(); ++i) {
        Column& column = m_columns[i];
        if (column.role == Role::Step) {
            if (const std::optional<double> v = parseNumber(cells[i], false);
                v && std::isfinite(*v) && std::abs(*v) < 9e18) {
                step = qint64(*v);
                haveStep = true;
            }
        } else if (column.role == Role::WallTime && !cells[i].empty()) {
            const std::optional<double> t = parseWallTime(cells[i]);
            if (!column.decided && (!t || *t < kEarliestWallTime)) {
                // `time` holding seconds per step, not a point in time: a metric like the others.
                column.role = Role::Metric;
                continue;
            }
            column.decided = true;
            if (t)
                wallTime = *t;
        } else if (column.role == Role::GpuIndex && !cells[i].empty()) {
            gpu = QString::fromStdString(cells[i]);
        }
    }
    if (cells.size() > m_columns.size())
        note(models::Severity::Warning, lineNumber,
             LoggersTr::tr("The row has more cells than the header; the extra cells are left out."));
    const bool stepColumn
        = std::any_of(m_columns.begin(), m_columns.end(), [](const Column& c) { return c.role == Role::Step; });
    if (stepColumn && !haveStep) {
        note(models::Severity::Warning, lineNumber, LoggersTr::tr("The row has no step; it is left out."));
        ++m_rows;
        return;
    }
    if (m_nvidiaSmi)
        step = nextGpuStep(gpu);
    for (std::size_t i = 0; i < cells.size() && i < m_columns.size(); ++i) {
        Column& column = m_columns[i];
        if (column.role != Role::Metric || !column.numeric || cells[i].empty())
            continue;
        const std::optional<double> value = parseNumber(cells[i], m_nvidiaSmi);
        if (!value) {
            const std::string low = lower(cells[i]);
            if (low == "[n/a]" || low == "n/a" || low == "[not supported]" || low == "none" || low == "null")
                continue;
            if (!column.decided) {
                column.numeric = false;
                column.decided = true;
                note(models::Severity::Info, lineNumber,
                     LoggersTr::tr("Column \"%1\" holds text, not numbers; it is not shown as a scalar.")
                         .arg(column.name));
            } else if (++column.skippedCells == 1) {
                note(models::Severity::Warning, lineNumber,
                     LoggersTr::tr("Column \"%1\" has a cell that is not a number (\"%2\"); such cells are left out.")
                         .arg(column.name, QString::fromStdString(cells[i]).left(40)));
            }
            continue;
        }
        column.decided = true;
        add(m_nvidiaSmi ? QStringLiteral("system/gpu%1_%2").arg(gpu, column.tag) : column.tag, step, wallTime, *value);
    }
    ++m_rows;
}

void MetricsTableParser::readJsonLine(std::string_view line, qint64 lineNumber)
{
    std::vector<JsonLine::Value> values;
    if (!JsonLine(line).parse(values)) {
        note(models::Severity::Warning, lineNumber, LoggersTr::tr("The line is not a JSON object; it is left out."));
        return;
    }
    qint64 step = m_rows;
    int stepKeyRank = -1;
    double wallTime = 0;
    std::string wallTimeKey;
    for (const JsonLine::Value& v : values) {
        if (!v.number || !std::isfinite(*v.number))
            continue;
        const std::string key = lower(v.key);
        const int rank = stepRank(key);
        if (rank >= 0 && (stepKeyRank < 0 || rank < stepKeyRank) && std::abs(*v.number) < 9e18) {
            stepKeyRank = rank;
            step = qint64(*v.number);
        }
        const double seconds = *v.number > 1e11 ? *v.number / 1000.0 : *v.number;
        if (wallTimeKey.empty() && isWallTimeName(key) && seconds >= kEarliestWallTime) {
            wallTime = seconds;
            wallTimeKey = key;
        }
    }
    for (const JsonLine::Value& v : values) {
        const std::string key = lower(v.key);
        if ((stepKeyRank >= 0 && stepRank(key) == stepKeyRank) || key == wallTimeKey)
            continue;
        // W&B's own bookkeeping (`_runtime`, `_wandb/…`) is not a metric of the run.
        if (!v.key.empty() && v.key.front() == '_')
            continue;
        const QString name = QString::fromStdString(v.key);
        if (!v.number) {
            if (v.isString && !m_textKeys.contains(name)) {
                m_textKeys.insert(name, true);
                note(models::Severity::Info, lineNumber,
                     LoggersTr::tr("Key \"%1\" holds text, not numbers; it is not shown as a scalar.").arg(name));
            }
            continue;
        }
        const QString system = wandbSystemTag(v.key);
        if (system.isEmpty()) {
            add(name, step, wallTime, *v.number);
            continue;
        }
        double value = *v.number;
        if (system.endsWith(QLatin1String("_mem_used_MiB")) && v.key.find("Bytes") != std::string::npos)
            value /= 1024.0 * 1024.0;
        if (system.startsWith(QLatin1String("system/net_total_"))) {
            // W&B counts bytes since the run started; `runlens record` writes rates between samples.
            const double mib = value / (1024.0 * 1024.0);
            const auto previous = m_counters.constFind(system);
            const bool later = previous != m_counters.constEnd() && wallTime > previous->first;
            const double rate = later ? (mib - previous->second) / (wallTime - previous->first) : 0.0;
            m_counters.insert(system, { wallTime, mib });
            if (later && rate >= 0)
                add(system, step, wallTime, rate);
            continue;
        }
        add(system, step, wallTime, value);
    }
    ++m_rows;
}

void MetricsTableParser::readDcgmi(std::string_view line, qint64 lineNumber)
{
    if (line.front() == '#') {
        // `# Entity  GPUTL  POWER`: the header, printed again every few rows.
        std::vector<std::string> fields;
        std::size_t pos = 1;
        while (pos < line.size()) {
            while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t'))
                ++pos;
            const std::size_t start = pos;
            while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t')
                ++pos;
            if (pos > start)
                fields.emplace_back(line.substr(start, pos - start));
        }
        if (!fields.empty())
            fields.erase(fields.begin()); // "Entity"
        m_dcgmiFields = std::move(fields);
        return;
    }
    std::vector<std::string_view> tokens;
    std::size_t pos = 0;
    while (pos < line.size()) {
        while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t'))
            ++pos;
        const std::size_t start = pos;
        while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t')
            ++pos;
        if (pos > start)
            tokens.push_back(line.substr(start, pos - start));
    }
    if (tokens.empty() || tokens[0] == "ID" || tokens[0] == "Id")
        return; // the units line below the header
    if (tokens[0] != "GPU" || tokens.size() < 2) {
        // Entities other than whole GPUs (GPU-I, GPU-CI, CPU …) and messages are not system tags.
        if (tokens[0] != "GPU-I" && tokens[0] != "GPU-CI" && tokens[0] != "CPU" && tokens[0] != "CPU-C")
            note(models::Severity::Warning, lineNumber,
                 LoggersTr::tr("The line is not a dcgmi dmon row; it is left out."));
        return;
    }
    const QString gpu = QString::fromUtf8(tokens[1].data(), qsizetype(tokens[1].size()));
    bool isIndex = !gpu.isEmpty();
    for (const QChar c : gpu)
        isIndex = isIndex && c.isDigit();
    if (!isIndex) {
        note(models::Severity::Warning, lineNumber, LoggersTr::tr("The line is not a dcgmi dmon row; it is left out."));
        return;
    }
    const qint64 step = nextGpuStep(gpu);
    for (std::size_t i = 2; i < tokens.size() && i - 2 < m_dcgmiFields.size(); ++i) {
        if (const std::optional<double> value = parseNumber(tokens[i], false))
            add(QStringLiteral("system/gpu%1_%2").arg(gpu, dcgmiTag(m_dcgmiFields[i - 2])), step, 0.0, *value);
    }
    ++m_rows;
}

} // namespace runlens::importers::loggers
