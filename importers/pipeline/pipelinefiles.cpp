#include "importers/pipeline/pipelinefiles.h"

#include "importers/profiler/csvtable.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace runlens::importers::pipeline {

namespace {

// Enough to show the pattern of a broken file without flooding the diagnostics list.
constexpr int kMaxLineDiagnostics = 10;
// Queue sizes, worker counts and op ids beyond this are corrupt data, not pipelines.
constexpr double kMaxCount = 1e9;

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::pipeline)
};

models::Diagnostic fileDiagnostic(const QString& path, const QString& message,
                                  models::Severity severity = models::Severity::Warning, qint64 line = -1)
{
    models::Diagnostic d;
    d.severity = severity;
    d.file = path;
    d.line = line;
    d.message = message;
    return d;
}

bool isCount(double v)
{
    return std::isfinite(v) && v >= -1 && v <= kMaxCount && v == std::floor(v);
}

std::optional<QJsonObject> parseJsonObject(QByteArrayView data, const QString& path, models::Diagnostics& diagnostics)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromRawData(data.data(), data.size()), &error);
    if (error.error != QJsonParseError::NoError) {
        models::Diagnostic d
            = fileDiagnostic(path, Text::tr("Not valid JSON (%1); the file is skipped.").arg(error.errorString()),
                             models::Severity::Error);
        d.offset = error.offset;
        diagnostics << d;
        return std::nullopt;
    }
    if (!doc.isObject()) {
        diagnostics << fileDiagnostic(path, Text::tr("Expected a JSON object at the top; the file is skipped."),
                                      models::Severity::Error);
        return std::nullopt;
    }
    return doc.object();
}

std::vector<double> numberArray(const QJsonValue& value)
{
    std::vector<double> out;
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        out.reserve(std::size_t(array.size()));
        for (const QJsonValue& v : array)
            out.push_back(v.isDouble() ? v.toDouble() : models::pipeline::kUnknown);
    } else if (value.isDouble()) {
        out.push_back(value.toDouble());
    }
    return out;
}

std::vector<int> idArray(const QJsonValue& value)
{
    std::vector<int> ids;
    for (double v : numberArray(value)) {
        if (isCount(v) && v >= 0)
            ids.push_back(int(v));
    }
    return ids;
}

QStringList stringList(const QJsonValue& value)
{
    QStringList out;
    if (value.isString()) {
        if (!value.toString().trimmed().isEmpty())
            out << value.toString().trimmed();
    } else if (value.isArray()) {
        for (const QJsonValue& v : value.toArray()) {
            if (v.isString() && !v.toString().trimmed().isEmpty())
                out << v.toString().trimmed();
        }
    }
    return out;
}

void sortAndLinkOps(std::vector<models::pipeline::PipelineOp>& ops, bool parentsFromChildren)
{
    std::stable_sort(
        ops.begin(), ops.end(),
        [](const models::pipeline::PipelineOp& a, const models::pipeline::PipelineOp& b) { return a.id < b.id; });
    // Duplicate ids: keep the first row, a later one is a corrupt or concatenated file.
    ops.erase(std::unique(ops.begin(), ops.end(),
                          [](const models::pipeline::PipelineOp& a, const models::pipeline::PipelineOp& b) {
                              return a.id == b.id;
                          }),
              ops.end());
    if (!parentsFromChildren)
        return;
    std::map<int, int> parentOf;
    for (const models::pipeline::PipelineOp& op : ops) {
        for (int child : op.children)
            parentOf.emplace(child, op.id);
    }
    for (models::pipeline::PipelineOp& op : ops) {
        const auto it = parentOf.find(op.id);
        op.parent = it != parentOf.end() ? it->second : -1;
    }
}

/// CPU curves in reading order: the utilisation kinds first, then whatever else the file has.
std::vector<models::pipeline::CpuCurve> curvesOf(const QJsonObject& object)
{
    static const char* const kOrder[] = { "user_utilization", "sys_utilization", "io_utilization", "idle_utilization" };
    std::vector<models::pipeline::CpuCurve> curves;
    for (const char* key : kOrder) {
        if (object.contains(QLatin1String(key)))
            curves.push_back({ QString::fromLatin1(key), numberArray(object.value(QLatin1String(key))) });
    }
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (std::none_of(std::begin(kOrder), std::end(kOrder),
                         [&](const char* k) { return it.key() == QLatin1String(k); })
            && it.value().isArray())
            curves.push_back({ it.key(), numberArray(it.value()) });
    }
    return curves;
}

/// Per-op lists of a MindSpore 2.x summary, keyed like the JSON; shared by the JSON and CSV forms.
struct SummaryLists
{
    std::vector<double> opIds;
    QStringList opNames;
    std::vector<double> workers;
    std::vector<double> averageSize;
    std::vector<double> usagePct;
    std::vector<double> emptyPct;
    std::vector<std::vector<int>> children;
    std::vector<double> parents;
    std::vector<double> cpuPct;
};

bool opsFromSummary(const SummaryLists& lists, const QString& path, std::vector<models::pipeline::PipelineOp>& ops,
                    models::Diagnostics& diagnostics)
{
    if (lists.opIds.empty()) {
        diagnostics << fileDiagnostic(path, Text::tr("The summary has no op_ids list; its ops are not shown."));
        return false;
    }
    const std::size_t n = lists.opIds.size();
    auto at = [](const std::vector<double>& v, std::size_t i) { return i < v.size() ? v[i] : -1.0; };
    for (std::size_t i = 0; i < n; ++i) {
        if (!isCount(lists.opIds[i]) || lists.opIds[i] < 0) {
            diagnostics << fileDiagnostic(
                path, Text::tr("Op id %1 of the summary is not a valid id; that op is skipped.").arg(lists.opIds[i]));
            continue;
        }
        models::pipeline::PipelineOp op;
        op.id = int(lists.opIds[i]);
        op.type = i < std::size_t(lists.opNames.size()) ? lists.opNames[qsizetype(i)] : QString();
        const double workers = at(lists.workers, i);
        op.workers = isCount(workers) ? int(workers) : -1;
        const double parent = at(lists.parents, i);
        op.parent = isCount(parent) ? int(parent) : -1;
        if (i < lists.children.size())
            op.children = lists.children[i];
        // -1 marks "no data" in the summary (ops such as DeviceQueue have no output queue).
        const double average = at(lists.averageSize, i);
        if (average >= 0)
            op.queueAverageSize = average;
        const double usage = at(lists.usagePct, i);
        if (usage >= 0)
            op.queueUsage = usage / 100.0;
        const double empty = at(lists.emptyPct, i);
        if (empty >= 0)
            op.queueEmptyRate = empty / 100.0;
        const double cpu = at(lists.cpuPct, i);
        if (cpu >= 0)
            op.cpuPercent = cpu;
        ops.push_back(std::move(op));
    }
    sortAndLinkOps(ops, false);
    return !ops.empty();
}

} // namespace

bool parseNumberList(QStringView text, std::vector<double>& values)
{
    values.clear();
    QStringView body = text.trimmed();
    if (body.startsWith(QLatin1Char('[')) != body.endsWith(QLatin1Char(']')))
        return false;
    if (body.startsWith(QLatin1Char('[')))
        body = body.sliced(1, body.size() - 2).trimmed();
    if (body.isEmpty())
        return true;
    for (QStringView part : body.split(QLatin1Char(','))) {
        bool ok = false;
        const double v = part.trimmed().toDouble(&ok);
        if (!ok)
            return false;
        values.push_back(v);
    }
    return true;
}

void completeQueueFigures(models::pipeline::PipelineOp& op)
{
    if (!op.queueSizes.empty()) {
        double total = 0;
        int empty = 0;
        for (double s : op.queueSizes) {
            total += s;
            empty += s == 0 ? 1 : 0;
        }
        if (std::isnan(op.queueAverageSize))
            op.queueAverageSize = total / double(op.queueSizes.size());
        if (std::isnan(op.queueEmptyRate))
            op.queueEmptyRate = double(empty) / double(op.queueSizes.size());
    }
    if (std::isnan(op.queueUsage) && !std::isnan(op.queueAverageSize) && op.queueCapacity > 0)
        op.queueUsage = op.queueAverageSize / double(op.queueCapacity);
    if (std::isnan(op.averageThroughput) && !op.throughput.empty()) {
        double total = 0;
        for (double t : op.throughput)
            total += t;
        op.averageThroughput = total / double(op.throughput.size());
    }
}

bool readPipelineRawCsv(QByteArrayView data, const QString& path, std::vector<models::pipeline::PipelineOp>& ops,
                        int& sampleIntervalMs, models::Diagnostics& diagnostics)
{
    using profiler::CsvTable;
    sampleIntervalMs = -1;
    const CsvTable table = CsvTable::parse(data, path);
    diagnostics << table.diagnostics();
    const int cId = table.column({ "op_id" });
    if (!table.hasHeader() || cId < 0) {
        diagnostics << fileDiagnostic(path, Text::tr("No op_id column in the header; this is not a pipeline table."),
                                      models::Severity::Error);
        return false;
    }
    const int cType = table.column({ "op_type" });
    const int cWorkers = table.column({ "num_workers" });
    const int cSizes = table.column({ "output_queue_size" });
    const int cAverage = table.column({ "output_queue_average_size" });
    const int cLength = table.column({ "output_queue_length" });
    const int cUsage = table.column({ "output_queue_usage_rate" });
    const int cInterval = table.column({ "sample_interval" });
    const int cParent = table.column({ "parent_id" });
    const int cChildren = table.column({ "children_id", "children_ids" });
    int problems = 0;
    auto problem = [&](int row, int column, const QString& message) {
        if (++problems <= kMaxLineDiagnostics)
            diagnostics << table.cellDiagnostic(row, column, message);
    };
    for (int row = 0; row < table.rowCount(); ++row) {
        bool ok = false;
        const qint64 id = table.toInt64(row, cId, &ok);
        if (!ok || id < 0 || id > kMaxCount) {
            problem(row, cId, Text::tr("Not an op id; the row is skipped."));
            continue;
        }
        models::pipeline::PipelineOp op;
        op.id = int(id);
        op.type = table.text(row, cType);
        if (const auto workers = table.int64At(row, cWorkers); workers && *workers >= 0 && *workers <= kMaxCount)
            op.workers = int(*workers);
        if (!table.isEmpty(row, cSizes) && !parseNumberList(table.text(row, cSizes), op.queueSizes))
            problem(row, cSizes, Text::tr("Not a list of queue sizes; the samples are left out."));
        if (const auto average = table.doubleAt(row, cAverage))
            op.queueAverageSize = *average;
        if (const auto length = table.int64At(row, cLength); length && *length > 0 && *length <= kMaxCount)
            op.queueCapacity = int(*length);
        if (const auto usage = table.doubleAt(row, cUsage); usage && std::isfinite(*usage))
            op.queueUsage = *usage;
        if (const auto interval = table.int64At(row, cInterval); interval && *interval > 0 && sampleIntervalMs < 0)
            sampleIntervalMs = int(*interval);
        if (const auto parent = table.int64At(row, cParent); parent && *parent >= 0 && *parent <= kMaxCount)
            op.parent = int(*parent);
        if (!table.isEmpty(row, cChildren)) {
            std::vector<double> children;
            if (parseNumberList(table.text(row, cChildren), children)) {
                for (double c : children) {
                    if (isCount(c) && c >= 0)
                        op.children.push_back(int(c));
                }
            } else {
                problem(row, cChildren, Text::tr("Not a list of op ids; the op's children are left out."));
            }
        }
        completeQueueFigures(op);
        ops.push_back(std::move(op));
    }
    if (problems > kMaxLineDiagnostics)
        diagnostics << fileDiagnostic(
            path, Text::tr("%n more row(s) could not be read.", nullptr, problems - kMaxLineDiagnostics));
    sortAndLinkOps(ops, false);
    if (ops.empty())
        diagnostics << fileDiagnostic(path, Text::tr("The pipeline table has no ops."));
    return !ops.empty();
}

bool readPipelineProfilingJson(QByteArrayView data, const QString& path, std::vector<models::pipeline::PipelineOp>& ops,
                               int& samplingIntervalMs, models::Diagnostics& diagnostics)
{
    samplingIntervalMs = -1;
    const auto root = parseJsonObject(data, path, diagnostics);
    if (!root)
        return false;
    if (root->value(QLatin1String("sampling_interval")).isDouble())
        samplingIntervalMs = root->value(QLatin1String("sampling_interval")).toInt(-1);
    const QJsonValue info = root->value(QLatin1String("op_info"));
    if (!info.isArray()) {
        diagnostics << fileDiagnostic(path, Text::tr("No op_info list; the pipeline is not shown."),
                                      models::Severity::Error);
        return false;
    }
    int index = 0;
    for (const QJsonValue& item : info.toArray()) {
        ++index;
        const QJsonObject o = item.toObject();
        const double id = o.value(QLatin1String("op_id")).toDouble(-1);
        if (!isCount(id) || id < 0) {
            diagnostics << fileDiagnostic(
                path, Text::tr("Entry %1 of op_info has no valid op_id; it is skipped.").arg(index));
            continue;
        }
        models::pipeline::PipelineOp op;
        op.id = int(id);
        op.type = o.value(QLatin1String("op_type")).toString();
        const double workers = o.value(QLatin1String("num_workers")).toDouble(-1);
        op.workers = isCount(workers) ? int(workers) : -1;
        op.children = idArray(o.value(QLatin1String("children")));
        const QJsonObject queue
            = o.value(QLatin1String("metrics")).toObject().value(QLatin1String("output_queue")).toObject();
        if (!queue.isEmpty()) {
            op.queueSizes = numberArray(queue.value(QLatin1String("size")));
            const double length = queue.value(QLatin1String("length")).toDouble(-1);
            op.queueCapacity = isCount(length) && length > 0 ? int(length) : -1;
            op.throughput = numberArray(queue.value(QLatin1String("throughput")));
        }
        completeQueueFigures(op);
        ops.push_back(std::move(op));
    }
    sortAndLinkOps(ops, true);
    if (ops.empty())
        diagnostics << fileDiagnostic(path, Text::tr("The pipeline file has no ops."));
    return !ops.empty();
}

bool readHostQueueText(QByteArrayView data, const QString& path, models::pipeline::HostQueue& queue,
                       models::Diagnostics& diagnostics)
{
    queue.path = path;
    int problems = 0;
    qint64 lineNumber = 0;
    const QByteArray bytes = QByteArray::fromRawData(data.data(), data.size());
    for (const QByteArray& rawLine : bytes.split('\n')) {
        ++lineNumber;
        const QByteArray line = rawLine.trimmed();
        if (line.isEmpty())
            continue;
        const QList<QByteArray> fields = line.simplified().split(' ');
        bool ok[4] = {};
        const int type = fields.size() >= 4 ? fields[0].toInt(&ok[0]) : -1;
        const int extra = fields.size() >= 4 ? fields[1].toInt(&ok[1]) : -1;
        const int step = fields.size() >= 4 ? fields[2].toInt(&ok[2]) : -1;
        const double value = fields.size() >= 4 ? fields[3].toDouble(&ok[3]) : 0.0;
        const bool valid = ok[0] && ok[1] && ok[2] && ok[3] && (type == 0 || type == 1) && step >= 0
            && std::isfinite(value)
            && (type == 0 ? extra >= 0 && extra <= 2
                          : extra >= 0 && value >= 0 && value <= double(std::numeric_limits<int>::max()));
        if (!valid) {
            if (++problems <= kMaxLineDiagnostics)
                diagnostics << fileDiagnostic(
                    path, Text::tr("Expected \"type extra step value\" numbers; the line is skipped."),
                    models::Severity::Warning, lineNumber);
            continue;
        }
        if (type == 1) {
            queue.samples.push_back({ step, int(value), extra });
        } else {
            auto& list = extra == 0 ? queue.getMs : extra == 1 ? queue.pushMs : queue.totalMs;
            list.emplace_back(step, value);
        }
    }
    if (problems > kMaxLineDiagnostics)
        diagnostics << fileDiagnostic(
            path, Text::tr("%n more line(s) could not be read.", nullptr, problems - kMaxLineDiagnostics));
    std::stable_sort(queue.samples.begin(), queue.samples.end(),
                     [](const models::pipeline::HostQueueSample& a, const models::pipeline::HostQueueSample& b) {
                         return a.step < b.step;
                     });
    for (auto* list : { &queue.getMs, &queue.pushMs, &queue.totalMs })
        std::stable_sort(list->begin(), list->end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const bool any = !queue.samples.empty() || !queue.totalMs.empty() || !queue.getMs.empty() || !queue.pushMs.empty();
    if (!any)
        diagnostics << fileDiagnostic(path, Text::tr("The queue file has no records."));
    return any;
}

bool readDeviceQueueText(QByteArrayView data, const QString& path, bool gpuNanoseconds,
                         models::pipeline::DeviceQueue& queue, models::Diagnostics& diagnostics)
{
    queue.path = path;
    queue.gpu = gpuNanoseconds;
    const double toUs = gpuNanoseconds ? 1e-3 : 1.0;
    int problems = 0;
    qint64 lineNumber = 0;
    const QByteArray bytes = QByteArray::fromRawData(data.data(), data.size());
    for (const QByteArray& rawLine : bytes.split('\n')) {
        ++lineNumber;
        const QList<QByteArray> fields = rawLine.simplified().split(' ');
        // Ascend names the records GetNext_dequeue_wait, GPU GetNext; other lines are other events.
        if (fields.isEmpty() || !fields[0].startsWith("GetNext"))
            continue;
        bool okStart = false;
        bool okEnd = false;
        const double start = fields.size() > 2 ? fields[1].toDouble(&okStart) : 0.0;
        const double end = fields.size() > 2 ? fields[2].toDouble(&okEnd) : 0.0;
        if (!okStart || !okEnd || !std::isfinite(start) || !std::isfinite(end)) {
            if (++problems <= kMaxLineDiagnostics)
                diagnostics << fileDiagnostic(
                    path, Text::tr("Expected \"GetNext start end queue_size\"; the line is skipped."),
                    models::Severity::Warning, lineNumber);
            continue;
        }
        models::pipeline::DeviceQueueSample sample;
        sample.startUs = start * toUs;
        sample.endUs = end * toUs;
        if (fields.size() > 3) {
            bool okSize = false;
            const int size = fields[3].toInt(&okSize);
            sample.size = okSize && size >= 0 ? size : -1;
        }
        queue.samples.push_back(sample);
    }
    if (problems > kMaxLineDiagnostics)
        diagnostics << fileDiagnostic(
            path, Text::tr("%n more line(s) could not be read.", nullptr, problems - kMaxLineDiagnostics));
    if (queue.samples.empty())
        diagnostics << fileDiagnostic(path, Text::tr("The device queue file has no GetNext records."));
    return !queue.samples.empty();
}

bool readCpuUtilizationJson(QByteArrayView data, const QString& path, models::pipeline::CpuUtilization& cpu,
                            models::Diagnostics& diagnostics)
{
    cpu.path = path;
    const auto root = parseJsonObject(data, path, diagnostics);
    if (!root)
        return false;
    const double interval = root->value(QLatin1String("sampling_interval")).toDouble(-1);
    cpu.samplingIntervalMs = isCount(interval) ? int(interval) : -1;
    const double processors = root->value(QLatin1String("cpu_processor_num")).toDouble(-1);
    cpu.processorCount = isCount(processors) ? int(processors) : -1;
    cpu.timeStamps = numberArray(root->value(QLatin1String("time_stamp")));
    cpu.device = curvesOf(root->value(QLatin1String("device_info")).toObject());
    cpu.process = curvesOf(root->value(QLatin1String("process_info")).toObject());
    for (const QJsonValue& item : root->value(QLatin1String("op_info")).toArray()) {
        const QJsonObject o = item.toObject();
        const double id = o.value(QLatin1String("op_id")).toDouble(-1);
        // Threads outside the pipeline are reported as op -1.
        if (!isCount(id) || id < 0)
            continue;
        models::pipeline::OpCpuUsage usage;
        usage.opId = int(id);
        usage.curves = curvesOf(o.value(QLatin1String("metrics")).toObject());
        cpu.ops.push_back(std::move(usage));
    }
    std::stable_sort(
        cpu.ops.begin(), cpu.ops.end(),
        [](const models::pipeline::OpCpuUsage& a, const models::pipeline::OpCpuUsage& b) { return a.opId < b.opId; });
    // Curves longer than the time axis cannot be placed; shorter ones are drawn as far as they go.
    const std::size_t samples = cpu.timeStamps.size();
    bool trimmed = false;
    auto trim = [&](std::vector<models::pipeline::CpuCurve>& curves) {
        for (auto& c : curves) {
            if (samples && c.values.size() > samples) {
                c.values.resize(samples);
                trimmed = true;
            }
        }
    };
    trim(cpu.device);
    trim(cpu.process);
    for (auto& op : cpu.ops)
        trim(op.curves);
    if (trimmed)
        diagnostics << fileDiagnostic(path,
                                      Text::tr("Some utilisation arrays are longer than time_stamp; the extra "
                                               "values are left out."));
    if (cpu.empty())
        diagnostics << fileDiagnostic(path, Text::tr("The CPU utilisation file has no data."));
    return !cpu.empty();
}

bool readPipelineSummaryJson(QByteArrayView data, const QString& path, std::vector<models::pipeline::PipelineOp>& ops,
                             QStringList& warnings, QStringList& suggestions, models::Diagnostics& diagnostics)
{
    const auto root = parseJsonObject(data, path, diagnostics);
    if (!root)
        return false;
    SummaryLists lists;
    lists.opIds = numberArray(root->value(QLatin1String("op_ids")));
    for (const QJsonValue& v : root->value(QLatin1String("op_names")).toArray())
        lists.opNames << v.toString();
    lists.workers = numberArray(root->value(QLatin1String("num_workers")));
    lists.averageSize = numberArray(root->value(QLatin1String("queue_average_size")));
    lists.usagePct = numberArray(root->value(QLatin1String("queue_utilization_pct")));
    lists.emptyPct = numberArray(root->value(QLatin1String("queue_empty_freq_pct")));
    for (const QJsonValue& v : root->value(QLatin1String("children_ids")).toArray())
        lists.children.push_back(idArray(v));
    lists.parents = numberArray(root->value(QLatin1String("parent_id")));
    lists.cpuPct = numberArray(root->value(QLatin1String("avg_cpu_pct")));
    warnings << stringList(root->value(QLatin1String("bottleneck_warning")));
    suggestions << stringList(root->value(QLatin1String("bottleneck_suggestion")));
    const bool haveOps = opsFromSummary(lists, path, ops, diagnostics);
    return haveOps || !warnings.isEmpty();
}

bool readPipelineSummaryCsv(QByteArrayView data, const QString& path, std::vector<models::pipeline::PipelineOp>& ops,
                            QStringList& warnings, QStringList& suggestions, models::Diagnostics& diagnostics)
{
    using profiler::CsvTable;
    const CsvTable table = CsvTable::parse(data, path, CsvTable::Options { ',', qint64(64) * 1024 * 1024 });
    // Rows of this file differ in length by design; only hard errors of the reader matter.
    for (const models::Diagnostic& d : table.diagnostics()) {
        if (d.severity == models::Severity::Error)
            diagnostics << d;
    }
    SummaryLists lists;
    auto numbers = [&](int row) {
        std::vector<double> out;
        for (int c = 1; c < table.fieldCount(row); ++c) {
            bool ok = false;
            const double v = table.toDouble(row, c, &ok);
            out.push_back(ok ? v : -1.0);
        }
        return out;
    };
    for (int row = 0; row < table.rowCount(); ++row) {
        const QString key = table.text(row, 0);
        if (key == QLatin1String("op_ids"))
            lists.opIds = numbers(row);
        else if (key == QLatin1String("op_names")) {
            for (int c = 1; c < table.fieldCount(row); ++c)
                lists.opNames << table.text(row, c);
        } else if (key == QLatin1String("num_workers"))
            lists.workers = numbers(row);
        else if (key == QLatin1String("queue_average_size"))
            lists.averageSize = numbers(row);
        else if (key == QLatin1String("queue_utilization_pct"))
            lists.usagePct = numbers(row);
        else if (key == QLatin1String("queue_empty_freq_pct"))
            lists.emptyPct = numbers(row);
        else if (key == QLatin1String("parent_id"))
            lists.parents = numbers(row);
        else if (key == QLatin1String("avg_cpu_pct"))
            lists.cpuPct = numbers(row);
        else if (key == QLatin1String("children_ids")) {
            for (int c = 1; c < table.fieldCount(row); ++c) {
                std::vector<double> values;
                std::vector<int> ids;
                if (parseNumberList(table.text(row, c), values)) {
                    for (double v : values) {
                        if (isCount(v) && v >= 0)
                            ids.push_back(int(v));
                    }
                }
                lists.children.push_back(std::move(ids));
            }
        } else if (key == QLatin1String("bottleneck_warning") || key == QLatin1String("bottleneck_suggestion")) {
            QStringList& target = key == QLatin1String("bottleneck_warning") ? warnings : suggestions;
            for (int c = 1; c < table.fieldCount(row); ++c) {
                if (!table.isEmpty(row, c))
                    target << table.text(row, c);
            }
        }
    }
    const bool haveOps = opsFromSummary(lists, path, ops, diagnostics);
    return haveOps || !warnings.isEmpty();
}

} // namespace runlens::importers::pipeline
