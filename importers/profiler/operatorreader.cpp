#include "importers/profiler/operatorreader.h"

#include "importers/profiler/csvtable.h"
#include "importers/profiler/profilerfolder.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace runlens::importers::profiler {

namespace {

constexpr int kMaxCellDiagnostics = 10;
const char* const kAiCore = "AI Core";
const char* const kAiCpu = "AI CPU";

QString trOps(const char* text)
{
    return QCoreApplication::translate("runlens::profiler", text);
}

/// Reads one table and funnels its diagnostics, with a bounded number of cell complaints.
class TableReader
{
public:
    TableReader(const QString& path, models::Diagnostics& diagnostics)
        : m_table(CsvTable::readFile(path))
        , m_diagnostics(diagnostics)
    {
        m_diagnostics.append(m_table.diagnostics());
    }

    const CsvTable& table() const { return m_table; }

    /// A required column; a missing one is reported as an error naming the alternatives.
    int require(std::initializer_list<const char*> names)
    {
        const int column = m_table.column(names);
        if (column < 0 && m_table.hasHeader()) {
            QStringList wanted;
            for (const char* name : names)
                wanted << QString::fromUtf8(name);
            m_diagnostics.append(m_table.fileDiagnostic(
                trOps("no column named %1; the table is skipped").arg(wanted.join(QStringLiteral(" / "))),
                models::Severity::Error));
        }
        return column;
    }

    /// A number of a row, or nothing with a diagnostic when the field is not a number.
    std::optional<double> number(int row, int column)
    {
        if (column < 0)
            return std::nullopt;
        const std::optional<double> value = m_table.doubleAt(row, column);
        if (!value || !std::isfinite(*value)) {
            complain(row, column, trOps("\"%1\" is not a number; the row is left out").arg(m_table.text(row, column)));
            return std::nullopt;
        }
        return value;
    }

    qint64 count(int row, int column, qint64 fallback)
    {
        if (column < 0 || m_table.isEmpty(row, column))
            return fallback;
        const std::optional<qint64> value = m_table.int64At(row, column);
        if (!value || *value < 0) {
            complain(row, column, trOps("\"%1\" is not a count").arg(m_table.text(row, column)));
            return fallback;
        }
        return *value;
    }

    double unit(int column, double fallback) const
    {
        return column >= 0 ? unitToMicroseconds(m_table.header().at(column), fallback) : fallback;
    }

private:
    void complain(int row, int column, const QString& message)
    {
        if (++m_complaints <= kMaxCellDiagnostics)
            m_diagnostics.append(m_table.cellDiagnostic(row, column, message));
    }

    CsvTable m_table;
    models::Diagnostics& m_diagnostics;
    int m_complaints = 0;
};

/// Shapes, formats and types from framework_raw's op_info JSON ({"input_0": {format, data_type, shape}, ...}).
struct OpInfo
{
    QString type;
    int streamId = -1;
    QString inputShapes;
    QString outputShapes;
    QString formats;
    QString dataTypes;
};

QString shapeText(const QJsonValue& shape)
{
    if (shape.isArray()) {
        QStringList dims;
        for (const QJsonValue& dim : shape.toArray())
            dims << QString::number(dim.toInteger());
        return dims.join(QLatin1Char(','));
    }
    return shape.toString();
}

void fillFromOpInfo(OpInfo& info, QByteArrayView json)
{
    const QJsonDocument document = QJsonDocument::fromJson(json.toByteArray());
    if (!document.isObject())
        return;
    const QJsonObject object = document.object();
    QStringList inputShapes, outputShapes, inputFormats, outputFormats, inputTypes, outputTypes;
    // Keys are input_0..input_n / output_0..; walk them in numeric order.
    for (const char* side : { "input_", "output_" }) {
        const bool input = side[0] == 'i';
        for (int i = 0; i < 256; ++i) {
            const QJsonValue value = object.value(QLatin1String(side) + QString::number(i));
            if (!value.isObject())
                break;
            const QJsonObject port = value.toObject();
            (input ? inputShapes : outputShapes) << shapeText(port.value(QStringLiteral("shape")));
            (input ? inputFormats : outputFormats) << port.value(QStringLiteral("format")).toString();
            (input ? inputTypes : outputTypes) << port.value(QStringLiteral("data_type")).toString();
        }
    }
    info.inputShapes = inputShapes.join(QLatin1Char(';'));
    info.outputShapes = outputShapes.join(QLatin1Char(';'));
    info.formats = inputFormats.join(QLatin1Char(',')) + QStringLiteral("->") + outputFormats.join(QLatin1Char(','));
    info.dataTypes = inputTypes.join(QLatin1Char(',')) + QStringLiteral("->") + outputTypes.join(QLatin1Char(','));
}

QHash<QString, OpInfo> readFrameworkRaw(const QString& path, models::Diagnostics& diagnostics)
{
    QHash<QString, OpInfo> infos;
    TableReader reader(path, diagnostics);
    const CsvTable& table = reader.table();
    const int name = reader.require({ "full_kernel_name", "full_op_name", "op_name" });
    if (name < 0)
        return infos;
    const int type = table.column({ "kernel_type", "op_type" });
    const int stream = table.column({ "stream_id" });
    const int opInfo = table.column({ "op_info" });
    for (int row = 0; row < table.rowCount(); ++row) {
        OpInfo info;
        info.type = table.text(row, type);
        info.streamId = int(table.int64At(row, stream).value_or(-1));
        if (opInfo >= 0)
            fillFromOpInfo(info, table.bytes(row, opInfo));
        infos.insert(table.text(row, name), info);
    }
    return infos;
}

struct Flops
{
    std::optional<double> mflops;
    std::optional<double> gflops;
    std::optional<double> utilization;
};

QHash<QString, Flops> readFlops(const QString& path, models::Diagnostics& diagnostics)
{
    QHash<QString, Flops> result;
    TableReader reader(path, diagnostics);
    const CsvTable& table = reader.table();
    const int name = reader.require({ "full_kernel_name", "full_op_name", "op_full_name" });
    if (name < 0)
        return result;
    // 2.0 splits cube and vector units; older files have one FLOPs column.
    const int cubeM = table.column({ "MFLOPs(10^6 cube)", "MFLOPs(10^6)", "FLOPs" });
    const int vecM = table.column({ "MFLOPs(10^6 vector)" });
    const int cubeG = table.column({ "GFLOPS(10^9 cube)", "GFLOPS(10^9)", "FLOPS" });
    const int vecG = table.column({ "GFLOPS(10^9 vector)" });
    const int util = table.column({ "FLOPS utilization(cube)", "FLOPS utilization" });
    for (int row = 0; row < table.rowCount(); ++row) {
        Flops flops;
        auto sum = [&](int a, int b) -> std::optional<double> {
            const auto x = table.doubleAt(row, a);
            const auto y = table.doubleAt(row, b);
            if (!x && !y)
                return std::nullopt;
            return x.value_or(0.0) + y.value_or(0.0);
        };
        flops.mflops = sum(cubeM, vecM);
        flops.gflops = sum(cubeG, vecG);
        flops.utilization = table.doubleAt(row, util);
        result.insert(table.text(row, name), flops);
    }
    return result;
}

void readAicoreTypes(const QString& path, models::profiler::OperatorTable& out, models::Diagnostics& diagnostics)
{
    TableReader reader(path, diagnostics);
    const CsvTable& table = reader.table();
    const int type = reader.require({ "kernel_type", "op_type" });
    const int time = reader.require({ "total_time(ms)", "total_time", "execution_time", "task_time" });
    if (type < 0 || time < 0)
        return;
    const int calls = table.column({ "execution_frequency", "execution_times" });
    const double scale = reader.unit(time, 1000.0); // MindInsight's tables are in ms
    for (int row = 0; row < table.rowCount(); ++row) {
        const auto total = reader.number(row, time);
        if (!total)
            continue;
        models::profiler::OpTypeStats stats;
        stats.type = table.text(row, type);
        stats.core = QString::fromLatin1(kAiCore);
        stats.totalUs = *total * scale;
        stats.calls = reader.count(row, calls, 0);
        out.types.push_back(stats);
    }
    out.sources << path;
}

void readAicoreDetail(const QString& path, const QHash<QString, OpInfo>& framework, const QHash<QString, Flops>& flops,
                      models::profiler::OperatorTable& out, models::Diagnostics& diagnostics)
{
    TableReader reader(path, diagnostics);
    const CsvTable& table = reader.table();
    // "full_kernel_time" and "full_op_time" are real (misspelt) headers of some versions.
    const int name = reader.require({ "full_kernel_name", "full_op_name", "full_kernel_time", "full_op_time" });
    const int time = reader.require({ "execution_time", "task_duration", "avg_execution_time" });
    if (name < 0 || time < 0)
        return;
    const int calls = table.column({ "execution_frequency" });
    const double scale = reader.unit(time, 1000.0);
    for (int row = 0; row < table.rowCount(); ++row) {
        const auto perCall = reader.number(row, time);
        if (!perCall)
            continue;
        models::profiler::OpStats op;
        op.name = table.text(row, name);
        op.core = QString::fromLatin1(kAiCore);
        // execution_time is the time of one call; without a frequency column each row is one call.
        op.calls = reader.count(row, calls, 1);
        op.totalUs = *perCall * scale * double(std::max<qint64>(op.calls, 1));
        const auto info = framework.constFind(op.name);
        if (info != framework.constEnd()) {
            op.type = info->type;
            op.streamId = info->streamId;
            op.inputShapes = info->inputShapes;
            op.outputShapes = info->outputShapes;
            op.formats = info->formats;
            op.dataTypes = info->dataTypes;
        } else {
            // Names are "scope/Type-opN": the type is the last part before "-op".
            const QString last = op.name.section(QLatin1Char('/'), -1);
            const qsizetype dash = last.lastIndexOf(QLatin1String("-op"));
            op.type = dash > 0 ? last.left(dash) : last;
        }
        const auto f = flops.constFind(op.name);
        if (f != flops.constEnd()) {
            op.mflops = f->mflops;
            op.gflops = f->gflops;
            op.flopsUtilization = f->utilization;
        }
        out.ops.push_back(op);
    }
    out.sources << path;
}

void readAicpu(const QString& path, models::profiler::OperatorTable& out, models::Diagnostics& diagnostics)
{
    TableReader reader(path, diagnostics);
    const CsvTable& table = reader.table();
    const int type = reader.require({ "kernel_type", "op_type", "op_name" });
    const int time = reader.require({ "total_time", "total_time(ms)", "execution_time" });
    if (type < 0 || time < 0)
        return;
    const double scale = reader.unit(time, 1000.0);
    QHash<QString, std::size_t> index;
    for (int row = 0; row < table.rowCount(); ++row) {
        const auto total = reader.number(row, time);
        if (!total)
            continue;
        const QString name = table.text(row, type);
        auto it = index.find(name);
        if (it == index.end()) {
            it = index.insert(name, out.types.size());
            models::profiler::OpTypeStats stats;
            stats.type = name;
            stats.core = QString::fromLatin1(kAiCpu);
            out.types.push_back(stats);
        }
        models::profiler::OpTypeStats& stats = out.types[it.value()];
        stats.calls += 1;
        stats.totalUs += *total * scale;
    }
    out.sources << path;
}

/// GPU and CPU op tables of MindInsight: a type file and a detail file, one row per type / op.
void readHostStyleTypes(const QString& path, const QString& core, double defaultScale,
                        models::profiler::OperatorTable& out, models::Diagnostics& diagnostics)
{
    TableReader reader(path, diagnostics);
    const CsvTable& table = reader.table();
    const int type = reader.require({ "op_type" });
    const int time = reader.require({ "total_time", "total_compute_time", "total_time(us)", "total_time(ms)" });
    if (type < 0 || time < 0)
        return;
    const int calls = table.column({ "type_occurrences", "execution_frequency", "op_occurrences" });
    const double scale = reader.unit(time, defaultScale);
    for (int row = 0; row < table.rowCount(); ++row) {
        const auto total = reader.number(row, time);
        if (!total)
            continue;
        models::profiler::OpTypeStats stats;
        stats.type = table.text(row, type);
        stats.core = core;
        stats.totalUs = *total * scale;
        stats.calls = reader.count(row, calls, 0);
        out.types.push_back(stats);
    }
    out.sources << path;
}

void readHostStyleDetail(const QString& path, const QString& core, double defaultScale,
                         models::profiler::OperatorTable& out, models::Diagnostics& diagnostics)
{
    TableReader reader(path, diagnostics);
    const CsvTable& table = reader.table();
    const int name = reader.require({ "op_full_name", "full_op_name", "op_name" });
    const int time = reader.require({ "op_total_time", "op_total_time(us)", "op_total_time(ms)", "total_time" });
    if (name < 0 || time < 0)
        return;
    const int type = table.column({ "op_type" });
    const int calls = table.column({ "op_occurrences", "occurrences" });
    const double scale = reader.unit(time, defaultScale);
    for (int row = 0; row < table.rowCount(); ++row) {
        const auto total = reader.number(row, time);
        if (!total)
            continue;
        models::profiler::OpStats op;
        op.name = table.text(row, name);
        op.type = table.text(row, type);
        op.core = core;
        op.calls = reader.count(row, calls, 1);
        op.totalUs = *total * scale;
        out.ops.push_back(op);
    }
    out.sources << path;
}

void readOpStatistic(const QString& path, models::profiler::OperatorTable& out, models::Diagnostics& diagnostics)
{
    TableReader reader(path, diagnostics);
    const CsvTable& table = reader.table();
    const int type = reader.require({ "OP Type", "op_type" });
    const int time = reader.require({ "Total Time(us)", "Total Time", "total_time" });
    if (type < 0 || time < 0)
        return;
    const int core = table.column({ "Core Type", "Accelerator Core", "Task Type" });
    const int calls = table.column({ "Count", "Calls" });
    const int minTime = table.column({ "Min Time(us)", "Min Time" });
    const int maxTime = table.column({ "Max Time(us)", "Max Time" });
    const double scale = reader.unit(time, 1.0);
    for (int row = 0; row < table.rowCount(); ++row) {
        const auto total = reader.number(row, time);
        if (!total)
            continue;
        models::profiler::OpTypeStats stats;
        stats.type = table.text(row, type);
        stats.core = table.text(row, core);
        stats.totalUs = *total * scale;
        stats.calls = reader.count(row, calls, 0);
        stats.minUs = table.doubleAt(row, minTime).value_or(-1.0 / scale) * scale;
        stats.maxUs = table.doubleAt(row, maxTime).value_or(-1.0 / scale) * scale;
        out.types.push_back(stats);
    }
    out.sources << path;
}

/// kernel_details.csv has one row per launch: aggregate by name.
void readKernelDetails(const QString& path, models::profiler::OperatorTable& out, models::Diagnostics& diagnostics)
{
    TableReader reader(path, diagnostics);
    const CsvTable& table = reader.table();
    const int name = reader.require({ "Name", "Op Name" });
    const int time = reader.require({ "Duration(us)", "Duration", "Task Duration(us)" });
    if (name < 0 || time < 0)
        return;
    const int type = table.column({ "Type", "OP Type" });
    const int core = table.column({ "Accelerator Core", "Task Type", "Core Type" });
    const int stream = table.column({ "Stream ID", "Stream Id" });
    const int inShapes = table.column({ "Input Shapes" });
    const int outShapes = table.column({ "Output Shapes" });
    const int inFormats = table.column({ "Input Formats" });
    const int outFormats = table.column({ "Output Formats" });
    const int inTypes = table.column({ "Input Data Types" });
    const int outTypes = table.column({ "Output Data Types" });
    const double scale = reader.unit(time, 1.0);
    QHash<QString, std::size_t> index;
    const std::size_t firstOp = out.ops.size();
    for (int row = 0; row < table.rowCount(); ++row) {
        const auto duration = reader.number(row, time);
        if (!duration)
            continue;
        const QString opName = table.text(row, name);
        auto it = index.find(opName);
        if (it == index.end()) {
            it = index.insert(opName, out.ops.size());
            models::profiler::OpStats op;
            op.name = opName;
            op.type = table.text(row, type);
            op.core = table.text(row, core);
            op.streamId = int(table.int64At(row, stream).value_or(-1));
            op.inputShapes = table.text(row, inShapes);
            op.outputShapes = table.text(row, outShapes);
            if (inFormats >= 0 || outFormats >= 0)
                op.formats = table.text(row, inFormats) + QStringLiteral("->") + table.text(row, outFormats);
            if (inTypes >= 0 || outTypes >= 0)
                op.dataTypes = table.text(row, inTypes) + QStringLiteral("->") + table.text(row, outTypes);
            out.ops.push_back(op);
        }
        models::profiler::OpStats& op = out.ops[firstOp + (it.value() - firstOp)];
        op.calls += 1;
        op.totalUs += *duration * scale;
    }
    out.sources << path;
}

} // namespace

double unitToMicroseconds(const QString& header, double fallback)
{
    const QString key = CsvTable::headerKey(header);
    if (key.endsWith(QLatin1String("(ms)")))
        return 1000.0;
    if (key.endsWith(QLatin1String("(us)")) || key.endsWith(QStringLiteral("(\u03bcs)"))
        || key.endsWith(QStringLiteral("(\u00b5s)")))
        return 1.0;
    if (key.endsWith(QLatin1String("(ns)")))
        return 0.001;
    if (key.endsWith(QLatin1String("(s)")))
        return 1.0e6;
    return fallback;
}

models::profiler::OperatorTable readOperatorTable(const ProfilerRank& rank, models::Diagnostics& diagnostics)
{
    models::profiler::OperatorTable table;
    // 2.x tables first: when a folder has both generations, the newer one is what the user just recorded.
    if (rank.has(FileRole::OpStatistic) || rank.has(FileRole::KernelDetails)) {
        if (rank.has(FileRole::OpStatistic))
            readOpStatistic(rank.file(FileRole::OpStatistic), table, diagnostics);
        if (rank.has(FileRole::KernelDetails))
            readKernelDetails(rank.file(FileRole::KernelDetails), table, diagnostics);
        table.finish();
        return table;
    }
    if (rank.has(FileRole::AicoreType) || rank.has(FileRole::AicoreDetail) || rank.has(FileRole::AicpuIntermediate)) {
        QHash<QString, OpInfo> framework;
        if (rank.has(FileRole::FrameworkRaw))
            framework = readFrameworkRaw(rank.file(FileRole::FrameworkRaw), diagnostics);
        QHash<QString, Flops> flops;
        if (rank.has(FileRole::Flops))
            flops = readFlops(rank.file(FileRole::Flops), diagnostics);
        if (rank.has(FileRole::AicoreType))
            readAicoreTypes(rank.file(FileRole::AicoreType), table, diagnostics);
        if (rank.has(FileRole::AicoreDetail))
            readAicoreDetail(rank.file(FileRole::AicoreDetail), framework, flops, table, diagnostics);
        if (rank.has(FileRole::AicpuIntermediate)) {
            // Derive AI Core types from ops first so that the AI CPU types do not stop finish() from doing it.
            if (table.types.empty() && !table.ops.empty())
                table.finish();
            readAicpu(rank.file(FileRole::AicpuIntermediate), table, diagnostics);
        }
        table.finish();
        return table;
    }
    if (rank.has(FileRole::GpuOpType) || rank.has(FileRole::GpuOpDetail)) {
        // MindInsight's GPU op tables are in microseconds.
        const QString core = QStringLiteral("GPU");
        if (rank.has(FileRole::GpuOpType))
            readHostStyleTypes(rank.file(FileRole::GpuOpType), core, 1.0, table, diagnostics);
        if (rank.has(FileRole::GpuOpDetail))
            readHostStyleDetail(rank.file(FileRole::GpuOpDetail), core, 1.0, table, diagnostics);
        table.finish();
        return table;
    }
    if (rank.has(FileRole::CpuOpType) || rank.has(FileRole::CpuOpDetail)) {
        // The CPU op tables are in milliseconds.
        const QString core = QStringLiteral("CPU");
        if (rank.has(FileRole::CpuOpType))
            readHostStyleTypes(rank.file(FileRole::CpuOpType), core, 1000.0, table, diagnostics);
        if (rank.has(FileRole::CpuOpDetail))
            readHostStyleDetail(rank.file(FileRole::CpuOpDetail), core, 1000.0, table, diagnostics);
        table.finish();
        return table;
    }
    return table;
}

} // namespace runlens::importers::profiler
