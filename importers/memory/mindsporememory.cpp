#include "importers/memory/mindsporememory.h"

#include "importers/memory/jsonfields.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace runlens::importers::memory {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::memory)
};

// MindSpore's memory parser writes every size of its JSON files in GiB (bytes / 2^30).
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr int kMaxRowDiagnostics = 5; // per file; the rest is counted in one message
constexpr qint64 kMaxFileBytes = qint64(2) << 30;

enum class FileKind { Summary, Details, Record, OperatorMemory, Unknown };

FileKind fileKindOf(const QString& fileName)
{
    static const QRegularExpression summary(QStringLiteral("^memory_usage_summary_\\d+\\.json$"),
                                            QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression details(QStringLiteral("^memory_usage_details_\\d+\\.json$"),
                                            QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression record(QStringLiteral("^(cpu_ms_memory_record_\\d+\\.txt|memory_record\\.csv)$"),
                                           QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression operators(QStringLiteral("^operator_memory(_\\d+)?\\.csv$"),
                                              QRegularExpression::CaseInsensitiveOption);
    if (summary.match(fileName).hasMatch())
        return FileKind::Summary;
    if (details.match(fileName).hasMatch())
        return FileKind::Details;
    if (record.match(fileName).hasMatch())
        return FileKind::Record;
    if (operators.match(fileName).hasMatch())
        return FileKind::OperatorMemory;
    return FileKind::Unknown;
}

/// The `{id}` of a MindSpore file name (`memory_usage_summary_3.json` -> 3), -1 without one.
int idOfName(const QString& fileName)
{
    static const QRegularExpression id(QStringLiteral("_(\\d+)\\.[a-z]+$"), QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = id.match(fileName);
    return match.hasMatch() ? match.captured(1).toInt() : -1;
}

std::int64_t gibToBytes(double gib)
{
    // 2^63 bytes is beyond any device; a value past it is damage and must not overflow the conversion.
    const double bytes = gib * kGiB;
    return std::isfinite(bytes) && std::abs(bytes) < 0x1p63 ? std::llround(bytes) : 0;
}

class Reader
{
public:
    Reader(const QString& path, qint64 inputBytes, MemoryReadResult& result, models::memory::MemoryProfile& profile)
        : m_path(path)
        , m_result(result)
        , m_profile(profile)
        , m_budget(inputBytes)
        , m_json(path, result.diagnostics)
    { }

    void readSummary(const QByteArray& bytes);
    void readDetails(const QByteArray& bytes);
    void readRecord(const QByteArray& bytes);
    void readOperators(const QByteArray& bytes);

    void diagnose(models::Severity severity, const QString& message, qint64 line = -1)
    {
        models::Diagnostic diagnostic;
        diagnostic.severity = severity;
        diagnostic.file = m_path;
        diagnostic.line = line;
        diagnostic.message = message;
        m_result.diagnostics.append(diagnostic);
    }

private:
    /// A JSON number in GiB as bytes; a warning naming `where` when it is missing (and `required`) or not a number.
    std::optional<std::int64_t> gib(const nlohmann::json& object, const char* key, const QString& where,
                                    qint64 index = -1, bool required = false);
    void rowProblem(qint64 line, const QString& message);
    void finishRows();
    /// The error for a table whose header was read but none of whose rows gave a value.
    void noUsableRows(std::size_t rows);

    const QString& m_path;
    MemoryReadResult& m_result;
    models::memory::MemoryProfile& m_profile;
    ImportBudget m_budget;
    JsonFields m_json;
    int m_rowProblems = 0;
};

std::optional<std::int64_t> Reader::gib(const nlohmann::json& object, const char* key, const QString& where,
                                        qint64 index, bool required)
{
    if (required && !JsonFields::find(object, key))
        diagnose(models::Severity::Warning, Text::tr("the key '%1' is missing").arg(QLatin1String(key)));
    const std::optional<double> value = m_json.number(object, key, where, index);
    return value ? std::optional(gibToBytes(*value)) : std::nullopt;
}

void Reader::rowProblem(qint64 line, const QString& message)
{
    if (++m_rowProblems <= kMaxRowDiagnostics)
        diagnose(models::Severity::Warning, message, line);
}

void Reader::noUsableRows(std::size_t rows)
{
    // A file cut right after its header (a profiler still writing, or stopped early) is the common case.
    diagnose(models::Severity::Error,
             rows == 0
                 ? Text::tr("no rows after the header; the file may be truncated or still being written")
                 : Text::tr("no usable rows after the header: none of its %1 rows holds the values this table needs")
                       .arg(rows));
}

void Reader::finishRows()
{
    if (m_rowProblems > kMaxRowDiagnostics)
        diagnose(models::Severity::Warning,
                 Text::tr("%1 more rows with problems were skipped").arg(m_rowProblems - kMaxRowDiagnostics));
}

// ---------------------------------------------------------------------------------------------------------------
// memory_usage_summary_{id}.json: {capacity, allocations, deallocations, peak_mem, static_mem}

void Reader::readSummary(const QByteArray& bytes)
{
    const std::optional<nlohmann::json> json = m_json.parse(bytes, m_budget);
    if (!json)
        return;
    if (!json->is_object()) {
        diagnose(models::Severity::Error, Text::tr("a memory usage summary must be a JSON object"));
        return;
    }
    const int id = idOfName(QFileInfo(m_path).fileName());
    models::memory::MemoryDevice device;
    device.label = id >= 0 ? QStringLiteral("Ascend %1").arg(id) : QStringLiteral("Ascend");
    device.deviceId = id;
    const QString where = Text::tr("the summary");
    device.capacity = gib(*json, "capacity", where, -1, true).value_or(0);
    device.reportedPeak = gib(*json, "peak_mem", where, -1, true).value_or(0);
    device.staticBytes = gib(*json, "static_mem", where).value_or(0);
    m_json.finish();
    m_profile.axis = models::memory::MemoryAxis::NodeIndex;
    m_profile.devices.push_back(std::move(device));
}

// ---------------------------------------------------------------------------------------------------------------
// memory_usage_details_{id}.json: {graph_id: {graph_id, static_mem, lines[], nodes[], fp_start, bp_end, breakdowns}}

void Reader::readDetails(const QByteArray& bytes)
{
    const std::optional<nlohmann::json> json = m_json.parse(bytes, m_budget);
    if (!json)
        return;
    if (!json->is_object()) {
        diagnose(models::Severity::Error, Text::tr("memory usage details must be a JSON object of graphs"));
        return;
    }
    m_profile.axis = models::memory::MemoryAxis::NodeIndex;
    for (const auto& [key, graph] : json->items()) {
        if (!graph.is_object()) {
            diagnose(models::Severity::Warning,
                     Text::tr("graph '%1' is not a JSON object; skipped").arg(QString::fromStdString(key)));
            continue;
        }
        models::memory::MemoryDevice device;
        const QString graphKey = Text::tr("graph '%1'").arg(QString::fromStdString(key));
        const std::int64_t graphId
            = m_json.integer(graph, "graph_id", graphKey).value_or(QString::fromStdString(key).toLongLong());
        const QString where = Text::tr("graph %1").arg(graphId);
        device.label = QStringLiteral("graph %1").arg(graphId);
        device.staticBytes = gib(graph, "static_mem", where).value_or(0);
        device.allocated.name = QStringLiteral("Allocated");
        const QString nodeWhere = Text::tr("%1, node").arg(where);
        const QString tensorWhere = Text::tr("%1, tensor").arg(where);

        // Nodes in execution order; their position is their x.
        std::map<QString, int> nodeByName;
        const nlohmann::json* nodes = m_json.array(graph, "nodes", where);
        const nlohmann::json* lines = m_json.array(graph, "lines", where);
        if (nodes) {
            for (const nlohmann::json& item : *nodes) {
                if (!item.is_object())
                    continue;
                const qint64 at = qint64(device.nodes.size());
                models::memory::MemoryNode node;
                node.name = JsonFields::text(item, "name");
                node.fullName = JsonFields::text(item, "fullname");
                node.bytes = gib(item, "size", nodeWhere, at).value_or(0);
                node.allocations = m_json.integer(item, "allocations", nodeWhere, at).value_or(0);
                node.deallocations = m_json.integer(item, "deallocations", nodeWhere, at).value_or(0);
                // Older parsers write the change as `mem_change`, newer ones as `allocated`.
                node.change
                    = gib(item, JsonFields::find(item, "mem_change") ? "mem_change" : "allocated", nodeWhere, at)
                          .value_or(0);
                nodeByName.emplace(node.name, int(device.nodes.size()));
                device.nodes.push_back(std::move(node));
            }
        }
        // The curve: `lines` is the memory in use at each node (static memory included); without it, the
        // memory each node allocates is the best there is.
        if (lines && !lines->empty()) {
            for (std::size_t i = 0; i < lines->size(); ++i) {
                const nlohmann::json& line = (*lines)[i];
                if (!line.is_number())
                    m_json.wrongType("lines", Text::tr("%1, point").arg(where), qint64(i), Text::tr("a number"));
                device.allocated.x.push_back(std::int64_t(i));
                device.allocated.bytes.push_back(line.is_number() ? double(gibToBytes(line.get<double>())) : 0.0);
            }
        } else {
            for (std::size_t i = 0; i < device.nodes.size(); ++i) {
                device.allocated.x.push_back(std::int64_t(i));
                device.allocated.bytes.push_back(double(device.nodes[i].bytes));
            }
        }

        // Breakdowns: tensors alive at the node the parser chose (one list), or at each node (list of lists).
        const nlohmann::json* breakdowns = m_json.array(graph, "breakdowns", where);
        auto addTensor = [&](const nlohmann::json& tensor) {
            if (!tensor.is_object())
                return;
            const qint64 at = qint64(device.lifetimes.size());
            models::memory::TensorLifetime lifetime;
            lifetime.name = JsonFields::text(tensor, "tensor_name");
            lifetime.bytes = gib(tensor, "size", tensorWhere, at).value_or(0);
            lifetime.start = m_json.integer(tensor, "life_start", tensorWhere, at).value_or(0);
            lifetime.end = m_json.integer(tensor, "life_end", tensorWhere, at).value_or(lifetime.start);
            lifetime.type = JsonFields::text(tensor, "type");
            lifetime.shape = JsonFields::text(tensor, "shape");
            lifetime.format = JsonFields::text(tensor, "format");
            lifetime.dataType = JsonFields::text(tensor, "data_type");
            // Tensor names are "<node name>:<output index>".
            const auto node = nodeByName.find(lifetime.name.section(QLatin1Char(':'), 0, 0));
            if (node != nodeByName.end()) {
                lifetime.node = node->second;
                device.nodes[std::size_t(node->second)].lifetimes.push_back(int(device.lifetimes.size()));
            }
            device.lifetimes.push_back(std::move(lifetime));
        };
        if (breakdowns) {
            std::map<QString, bool> seen; // a tensor alive at several nodes is listed at each of them
            for (const nlohmann::json& tensors : *breakdowns) {
                if (!tensors.is_array()) {
                    addTensor(tensors);
                    continue;
                }
                for (const nlohmann::json& tensor : tensors) {
                    const QString id = tensor.is_object() ? JsonFields::text(tensor, "tensor_id") + QLatin1Char('/')
                            + JsonFields::text(tensor, "tensor_name")
                                                          : QString();
                    if (!id.isEmpty() && !seen.emplace(id, true).second)
                        continue;
                    addTensor(tensor);
                }
            }
        }
        m_profile.devices.push_back(std::move(device));
    }
    m_json.finish();
    if (m_profile.devices.empty())
        diagnose(models::Severity::Warning, Text::tr("the file lists no graphs"));
}

// ---------------------------------------------------------------------------------------------------------------
// CSV tables of the 2.x profiler.

/// One CSV line split at commas outside double quotes ("" is a quote inside quotes).
QStringList splitCsv(QStringView line)
{
    QStringList cells;
    QString cell;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                    cell += c;
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                cell += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            cells << cell.trimmed();
            cell.clear();
        } else {
            cell += c;
        }
    }
    cells << cell.trimmed();
    return cells;
}

struct Table
{
    QStringList header;
    std::vector<std::pair<qint64, QStringList>> rows; ///< 1-based line number, cells
};

Table readTable(const QByteArray& bytes)
{
    Table table;
    qint64 lineNumber = 0;
    const QString text = QString::fromUtf8(bytes);
    for (QStringView line : QStringView(text).split(QLatin1Char('\n'))) {
        ++lineNumber;
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.trimmed().isEmpty())
            continue;
        if (table.header.isEmpty()) {
            if (lineNumber == 1 && line.startsWith(QChar(0xfeff)))
                line = line.mid(1);
            table.header = splitCsv(line);
            continue;
        }
        table.rows.emplace_back(lineNumber, splitCsv(line));
    }
    return table;
}

/// A column found by the start of its header name (case-insensitive), and the unit in its parentheses.
struct Column
{
    int index = -1;
    QString header;
    QString unit; ///< lower-cased text between the parentheses, empty when none
    bool found() const { return index >= 0; }
};

Column findColumn(const QStringList& header, const QString& name)
{
    for (int i = 0; i < header.size(); ++i) {
        const QString cell = header[i].trimmed();
        const qsizetype paren = cell.indexOf(QLatin1Char('('));
        const QString base = (paren >= 0 ? cell.left(paren) : cell).trimmed();
        if (base.compare(name, Qt::CaseInsensitive) != 0)
            continue;
        Column column;
        column.index = i;
        column.header = cell;
        if (paren >= 0) {
            const qsizetype close = cell.indexOf(QLatin1Char(')'), paren);
            column.unit = cell.mid(paren + 1, close > paren ? close - paren - 1 : -1).trimmed().toLower();
        }
        return column;
    }
    return {};
}

/// Bytes per unit of a size column: "(MB)", "(KB)", "(GB)", "(B)" or none (bytes); 0 for an unknown unit.
double bytesPerUnit(const QString& unit)
{
    if (unit.isEmpty() || unit == QLatin1String("b") || unit == QLatin1String("byte") || unit == QLatin1String("bytes"))
        return 1.0;
    if (unit == QLatin1String("kb") || unit == QLatin1String("kib"))
        return 1024.0;
    if (unit == QLatin1String("mb") || unit == QLatin1String("mib"))
        return 1024.0 * 1024.0;
    if (unit == QLatin1String("gb") || unit == QLatin1String("gib"))
        return kGiB;
    return 0.0;
}

/// Nanoseconds per unit of a time column; 0 for an unknown unit.
std::int64_t nsPerUnit(const QString& unit)
{
    if (unit == QLatin1String("ns"))
        return 1;
    if (unit == QLatin1String("us") || unit == QLatin1String("μs") || unit == QLatin1String("µs"))
        return 1000;
    if (unit == QLatin1String("ms"))
        return 1000000;
    if (unit == QLatin1String("s"))
        return 1000000000;
    return 0;
}

/// A decimal time such as "1700000000123.456" in ns, exactly (a double would round µs timestamps).
std::optional<std::int64_t> parseTime(const QString& text, std::int64_t perUnit)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return std::nullopt;
    const qsizetype dot = trimmed.indexOf(QLatin1Char('.'));
    bool ok = false;
    const std::int64_t whole = (dot >= 0 ? trimmed.left(dot) : trimmed).toLongLong(&ok);
    if (!ok || std::abs(whole) > std::numeric_limits<std::int64_t>::max() / perUnit)
        return std::nullopt;
    std::int64_t value = whole * perUnit;
    if (dot >= 0) {
        // The fraction in units, cut to what ns can hold.
        const QString fraction = trimmed.mid(dot + 1);
        std::int64_t scale = perUnit;
        for (const QChar c : fraction) {
            if (!c.isDigit())
                return std::nullopt;
            scale /= 10;
            if (scale == 0)
                break;
            value += (whole < 0 ? -1 : 1) * (c.digitValue() * scale);
        }
    }
    return value;
}

std::optional<double> parseNumber(const QString& text)
{
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(value))
        return std::nullopt;
    return value;
}

// cpu_ms_memory_record_{id}.txt: Timestamp(ns),Total Allocated,Total Reserved,Total Active
// memory_record.csv: Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB)[,Total Active(MB)],...,Device Type
void Reader::readRecord(const QByteArray& bytes)
{
    const Table table = readTable(bytes);
    if (table.header.isEmpty()) {
        diagnose(models::Severity::Error,
                 Text::tr("the file is empty; a header with Timestamp and Total Allocated was expected"));
        return;
    }
    const Column time = findColumn(table.header, QStringLiteral("Timestamp"));
    if (!time.found()) {
        diagnose(models::Severity::Error,
                 Text::tr("no 'Timestamp' column; the columns are: %1").arg(table.header.join(QStringLiteral(", "))));
        return;
    }
    const std::int64_t perUnit = time.unit.isEmpty() ? 1 : nsPerUnit(time.unit);
    if (perUnit == 0) {
        diagnose(models::Severity::Error, Text::tr("column '%1': unknown time unit '%2'").arg(time.header, time.unit));
        return;
    }
    struct Curve
    {
        Column column;
        double scale = 1.0;
        models::memory::MemorySeries models::memory::MemoryDevice::*series = nullptr;
        const char* name = nullptr;
    };
    std::vector<Curve> curves;
    for (const auto& [name, series] : { std::pair { "Total Allocated", &models::memory::MemoryDevice::allocated },
                                        std::pair { "Total Reserved", &models::memory::MemoryDevice::reserved },
                                        std::pair { "Total Active", &models::memory::MemoryDevice::active } }) {
        Curve curve { findColumn(table.header, QLatin1String(name)), 1.0, series, name };
        if (!curve.column.found())
            continue;
        curve.scale = bytesPerUnit(curve.column.unit);
        if (curve.scale == 0.0) {
            diagnose(models::Severity::Warning,
                     Text::tr("column '%1': unknown size unit '%2'; the column is skipped")
                         .arg(curve.column.header, curve.column.unit));
            continue;
        }
        curves.push_back(curve);
    }
    if (curves.empty()) {
        diagnose(models::Severity::Error,
                 Text::tr("none of the columns 'Total Allocated', 'Total Reserved', 'Total Active' is there "
                          "(or none has a known unit); the columns are: %1")
                     .arg(table.header.join(QStringLiteral(", "))));
        return;
    }
    if (!findColumn(table.header, QStringLiteral("Total Allocated")).found())
        diagnose(models::Severity::Warning, Text::tr("no 'Total Allocated' column; only the other curves are shown"));

    // Rows of several devices or components (memory_record.csv: APP, PTA, GE ...) make one curve set each.
    const Column deviceColumn = findColumn(table.header, QStringLiteral("Device Type"));
    const Column deviceAlt = deviceColumn.found() ? deviceColumn : findColumn(table.header, QStringLiteral("Device"));
    const Column component = findColumn(table.header, QStringLiteral("Component"));
    const int id = idOfName(QFileInfo(m_path).fileName());
    const QString defaultLabel = QFileInfo(m_path).fileName().startsWith(QLatin1String("cpu_"), Qt::CaseInsensitive)
        ? QStringLiteral("cpu")
        : (id >= 0 ? QStringLiteral("device %1").arg(id) : QStringLiteral("device"));

    std::map<QString, std::size_t> deviceIndex;
    auto deviceFor = [&](const QStringList& cells) -> models::memory::MemoryDevice& {
        QString label = deviceAlt.found() && deviceAlt.index < cells.size() ? cells[deviceAlt.index] : QString();
        if (label.isEmpty())
            label = defaultLabel;
        if (component.found() && component.index < cells.size() && !cells[component.index].isEmpty())
            label += QStringLiteral(" (%1)").arg(cells[component.index]);
        const auto [it, added] = deviceIndex.emplace(label, m_profile.devices.size());
        if (added) {
            models::memory::MemoryDevice device;
            device.label = label;
            device.allocated.name = QStringLiteral("Allocated");
            device.reserved.name = QStringLiteral("Reserved");
            device.active.name = QStringLiteral("Active");
            m_profile.devices.push_back(std::move(device));
        }
        return m_profile.devices[it->second];
    };

    qint64 usableValues = 0;
    for (const auto& [line, cells] : table.rows) {
        const std::optional<std::int64_t> x
            = time.index < cells.size() ? parseTime(cells[time.index], perUnit) : std::nullopt;
        if (!x) {
            rowProblem(line,
                       Text::tr("line %1: column '%2' holds no time; the row is skipped").arg(line).arg(time.header));
            continue;
        }
        models::memory::MemoryDevice& device = deviceFor(cells);
        for (const Curve& curve : curves) {
            const std::optional<double> value
                = curve.column.index < cells.size() ? parseNumber(cells[curve.column.index]) : std::nullopt;
            if (!value) {
                rowProblem(line, Text::tr("line %1: column '%2' holds no number").arg(line).arg(curve.column.header));
                continue;
            }
            models::memory::MemorySeries& series = device.*curve.series;
            series.x.push_back(*x);
            series.bytes.push_back(*value * curve.scale);
            ++usableValues;
        }
    }
    finishRows();
    if (usableValues == 0) {
        noUsableRows(table.rows.size());
        return;
    }

    // Rows are written as they come; keep each curve ascending in time without reordering equal times.
    for (models::memory::MemoryDevice& device : m_profile.devices) {
        for (models::memory::MemorySeries* series : { &device.allocated, &device.reserved, &device.active }) {
            if (std::is_sorted(series->x.begin(), series->x.end()))
                continue;
            std::vector<std::size_t> order(series->x.size());
            for (std::size_t i = 0; i < order.size(); ++i)
                order[i] = i;
            std::stable_sort(order.begin(), order.end(),
                             [&](std::size_t a, std::size_t b) { return series->x[a] < series->x[b]; });
            models::memory::MemorySeries sorted;
            sorted.name = series->name;
            for (const std::size_t i : order) {
                sorted.x.push_back(series->x[i]);
                sorted.bytes.push_back(series->bytes[i]);
            }
            *series = std::move(sorted);
        }
    }
    m_profile.axis = models::memory::MemoryAxis::TimeNs;
}

// operator_memory_{id}.csv / operator_memory.csv:
// Name,Size(KB),Allocation Time(us),Duration(us),Allocation Total Allocated(MB),...,Device
void Reader::readOperators(const QByteArray& bytes)
{
    const Table table = readTable(bytes);
    if (table.header.isEmpty()) {
        diagnose(models::Severity::Error, Text::tr("the file is empty; a header with Name and Size was expected"));
        return;
    }
    const Column name = findColumn(table.header, QStringLiteral("Name"));
    const Column size = findColumn(table.header, QStringLiteral("Size"));
    const Column allocation = findColumn(table.header, QStringLiteral("Allocation Time"));
    const Column duration = findColumn(table.header, QStringLiteral("Duration"));
    const Column deviceColumn = findColumn(table.header, QStringLiteral("Device Type")).found()
        ? findColumn(table.header, QStringLiteral("Device Type"))
        : findColumn(table.header, QStringLiteral("Device"));
    for (const auto& [column, title] : { std::pair { &name, "Name" }, std::pair { &size, "Size" } }) {
        if (!column->found()) {
            diagnose(models::Severity::Error,
                     Text::tr("no '%1' column; the columns are: %2")
                         .arg(QLatin1String(title), table.header.join(QStringLiteral(", "))));
            return;
        }
    }
    // Missing times leave the operators without a place on the time axis, still worth a table.
    for (const auto& [column, title] :
         { std::pair { &allocation, "Allocation Time" }, std::pair { &duration, "Duration" } })
        if (!column->found())
            diagnose(models::Severity::Warning, Text::tr("no '%1' column").arg(QLatin1String(title)));
    const double sizeScale = size.unit.isEmpty() ? 1024.0 : bytesPerUnit(size.unit); // documented as KB
    if (sizeScale == 0.0) {
        diagnose(models::Severity::Error, Text::tr("column '%1': unknown size unit '%2'").arg(size.header, size.unit));
        return;
    }
    const std::int64_t allocationScale = allocation.unit.isEmpty() ? 1000 : nsPerUnit(allocation.unit);
    const std::int64_t durationScale = duration.unit.isEmpty() ? 1000 : nsPerUnit(duration.unit);

    const int id = idOfName(QFileInfo(m_path).fileName());
    const QString defaultLabel = id >= 0 ? QStringLiteral("device %1").arg(id) : QStringLiteral("device");
    std::map<QString, std::size_t> deviceIndex;
    for (const auto& [line, cells] : table.rows) {
        models::memory::OperatorMemoryRecord record;
        record.name = name.index < cells.size() ? cells[name.index] : QString();
        const std::optional<double> bytes = size.index < cells.size() ? parseNumber(cells[size.index]) : std::nullopt;
        if (record.name.isEmpty() || !bytes) {
            rowProblem(line,
                       Text::tr("line %1: no operator name or no number in column '%2'; the row is skipped")
                           .arg(line)
                           .arg(size.header));
            continue;
        }
        record.bytes = std::llround(*bytes * sizeScale);
        if (allocation.found() && allocationScale > 0 && allocation.index < cells.size())
            record.allocationTime = parseTime(cells[allocation.index], allocationScale).value_or(0);
        record.duration = -1; // empty or negative: still alive when the profiler stopped
        if (duration.found() && durationScale > 0 && duration.index < cells.size()) {
            const std::optional<std::int64_t> value = parseTime(cells[duration.index], durationScale);
            if (value && *value >= 0)
                record.duration = *value;
        }
        record.device
            = deviceColumn.found() && deviceColumn.index < cells.size() ? cells[deviceColumn.index] : QString();
        const QString label = record.device.isEmpty() ? defaultLabel : record.device;
        const auto [it, added] = deviceIndex.emplace(label, m_profile.devices.size());
        if (added) {
            models::memory::MemoryDevice device;
            device.label = label;
            m_profile.devices.push_back(std::move(device));
        }
        m_profile.devices[it->second].operators.push_back(std::move(record));
    }
    finishRows();
    if (m_profile.devices.empty()) {
        noUsableRows(table.rows.size());
        return;
    }
    m_profile.axis = models::memory::MemoryAxis::TimeNs;
}

} // namespace

bool isMindSporeMemoryFileName(const QString& fileName)
{
    return fileKindOf(fileName) != FileKind::Unknown;
}

MemoryReadResult readMindSporeMemory(const QString& path, const ImportControl& control)
{
    MemoryReadResult result;
    auto profile = std::make_shared<models::memory::MemoryProfile>();
    profile->paths << path;
    const FileKind kind = fileKindOf(QFileInfo(path).fileName());
    profile->kind = kind == FileKind::Summary || kind == FileKind::Details
        ? models::memory::MemorySourceKind::MindSporeSummary
        : models::memory::MemorySourceKind::MindSporeRecord;
    QFile file(path);
    Reader reader(path, QFileInfo(path).size(), result, *profile);

    if (kind == FileKind::Unknown) {
        reader.diagnose(models::Severity::Error,
                        Text::tr("not a MindSpore memory file name (memory_usage_summary_N.json, "
                                 "memory_usage_details_N.json, cpu_ms_memory_record_N.txt, "
                                 "memory_record.csv, operator_memory[_N].csv)"));
    } else if (!file.open(QIODevice::ReadOnly)) {
        reader.diagnose(models::Severity::Error, Text::tr("cannot open the file: %1").arg(file.errorString()));
    } else if (file.size() > kMaxFileBytes) {
        reader.diagnose(models::Severity::Error,
                        Text::tr("the file is %1 bytes, more than the %2 bytes a memory file of this kind "
                                 "can sensibly hold; not read")
                            .arg(file.size())
                            .arg(kMaxFileBytes));
    } else {
        const QByteArray bytes = file.readAll();
        control.report(100);
        switch (kind) {
        case FileKind::Summary:
            reader.readSummary(bytes);
            break;
        case FileKind::Details:
            reader.readDetails(bytes);
            break;
        case FileKind::Record:
            reader.readRecord(bytes);
            break;
        case FileKind::OperatorMemory:
            reader.readOperators(bytes);
            break;
        case FileKind::Unknown:
            break;
        }
        control.report(1000);
    }

    const bool problems = std::any_of(result.diagnostics.cbegin(), result.diagnostics.cend(),
                                      [](const models::Diagnostic& d) { return d.severity != models::Severity::Info; });
    if (control.canceled())
        result.status = models::ImportStatus::Canceled;
    else if (profile->empty())
        result.status = models::ImportStatus::Failed;
    else if (problems)
        result.status = models::ImportStatus::Partial;
    result.profile = std::move(profile);
    return result;
}

} // namespace runlens::importers::memory
