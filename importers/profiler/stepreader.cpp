#include "importers/profiler/stepreader.h"

#include "importers/profiler/csvtable.h"
#include "importers/profiler/operatorreader.h"
#include "importers/profiler/profilerfolder.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace runlens::importers::profiler {

namespace {

constexpr qint64 kMaxPointInfoBytes = 16 * 1024 * 1024;

QString trSteps(const char* text)
{
    return QCoreApplication::translate("runlens::profiler", text);
}

struct ColumnSpec
{
    const char* id;
    const char* name; ///< translated through trSteps
    const char* header;
};

/// The columns of `specs` the table has, in spec order; their ids and translated names go to `ids` and `names`.
template<std::size_t N>
std::vector<int> findColumns(const CsvTable& table, const ColumnSpec (&specs)[N], QStringList& ids, QStringList& names)
{
    std::vector<int> columns;
    for (const ColumnSpec& spec : specs) {
        const int column = table.column(QString::fromLatin1(spec.header));
        if (column < 0)
            continue;
        ids << QString::fromLatin1(spec.id);
        names << trSteps(spec.name);
        columns.push_back(column);
    }
    return columns;
}

/// Compares the file's average row with the computed mean; true when they agree within `tolerance` (µs).
bool averagesAgree(const models::profiler::StepSeries::Step& file, const models::profiler::StepSeries::Step& mean,
                   double tolerance)
{
    auto close = [tolerance](double a, double b) {
        return std::fabs(a - b) <= tolerance + 1e-9 * std::max(std::fabs(a), std::fabs(b));
    };
    if (!close(file.totalUs, mean.totalUs))
        return false;
    for (std::size_t i = 0; i < file.valuesUs.size() && i < mean.valuesUs.size(); ++i) {
        if (!close(file.valuesUs[i], mean.valuesUs[i]))
            return false;
    }
    return true;
}

void checkFileAverage(models::profiler::StepSeries& series, const CsvTable& table, int averageRow, double tolerance,
                      models::Diagnostics& diagnostics)
{
    if (!series.fileAverage || series.steps.empty())
        return;
    if (averagesAgree(*series.fileAverage, series.average, tolerance))
        return;
    // Some writers average over every step: accept that too.
    models::profiler::StepSeries all = series;
    all.steps.insert(all.steps.begin(), all.steps.front());
    all.computeAverage();
    if (averagesAgree(*series.fileAverage, all.average, tolerance))
        return;
    models::Diagnostic diagnostic = table.fileDiagnostic(
        trSteps("the average row (step \"-\") says %1 µs per step, the mean of the %2 steps is %3 µs; the "
                "steps shown may be a part of the run")
            .arg(series.fileAverage->totalUs, 0, 'f', 2)
            .arg(series.steps.size())
            .arg(series.average.totalUs, 0, 'f', 2));
    diagnostic.line = table.lineOf(averageRow);
    diagnostics.append(diagnostic);
}

} // namespace

models::profiler::StepSeries readStepTraceRaw(const QString& path, models::Diagnostics& diagnostics, double tickUs)
{
    models::profiler::StepSeries series;
    const CsvTable table = CsvTable::readFile(path);
    diagnostics.append(table.diagnostics());
    if (!table.hasHeader())
        return series;
    const int stepColumn = table.column({ "step_num", "step" });
    if (stepColumn < 0) {
        diagnostics.append(
            table.fileDiagnostic(trSteps("no step_num column; the step trace is skipped"), models::Severity::Error));
        return series;
    }
    const int totalColumn = table.column({ "total" });
    // Training files split the step into interval, FP+BP and tail; inference files have FP only.
    const ColumnSpec training[] = {
        { "iteration_interval", QT_TRANSLATE_NOOP("runlens::profiler", "Iteration interval"), "iteration_interval" },
        { "fp_and_bp", QT_TRANSLATE_NOOP("runlens::profiler", "FP+BP"), "fp_and_bp" },
        { "tail", QT_TRANSLATE_NOOP("runlens::profiler", "Tail"), "tail" },
        { "fp", QT_TRANSLATE_NOOP("runlens::profiler", "FP"), "fp" },
    };
    const std::vector<int> columns = findColumns(table, training, series.categoryIds, series.categoryNames);
    if (columns.empty()) {
        diagnostics.append(table.fileDiagnostic(
            trSteps("none of the columns iteration_interval, fp_and_bp, tail, fp is there; the step trace is skipped"),
            models::Severity::Error));
        return series;
    }
    // Per-stream reduce (and, in newer files, send/receive) durations: "stream_*" minus the start/end points.
    std::vector<int> extraColumns;
    for (int c = 0; c < table.columnCount(); ++c) {
        const QString key = CsvTable::headerKey(table.header().at(c));
        if (key.startsWith(QLatin1String("stream_")) && !key.endsWith(QLatin1String("_start_point"))
            && !key.endsWith(QLatin1String("_end_point"))) {
            series.extraIds << table.header().at(c);
            series.extraNames << table.header().at(c);
            extraColumns.push_back(c);
        }
    }

    int averageRow = -1;
    int badRows = 0;
    for (int row = 0; row < table.rowCount(); ++row) {
        const QString stepText = table.text(row, stepColumn);
        models::profiler::StepSeries::Step step;
        bool ok = true;
        const bool average = stepText == QLatin1String("-");
        if (!average) {
            const auto number = table.int64At(row, stepColumn);
            ok = number.has_value();
            step.number = number.value_or(0);
        } else {
            step.number = -1;
        }
        double sum = 0.0;
        for (int column : columns) {
            const auto value = table.doubleAt(row, column);
            ok = ok && value.has_value();
            step.valuesUs.push_back(value.value_or(0.0) * tickUs);
            sum += step.valuesUs.back();
        }
        if (!ok) {
            if (++badRows <= 10) {
                diagnostics.append(table.cellDiagnostic(row, stepColumn,
                                                        trSteps("the row does not hold a step's numbers; it is "
                                                                "left out")));
            }
            continue;
        }
        const auto total = table.doubleAt(row, totalColumn);
        step.totalUs = total ? *total * tickUs : sum;
        for (int column : extraColumns) {
            const auto value = table.doubleAt(row, column);
            step.extrasUs.push_back(value ? *value * tickUs : std::nan(""));
        }
        if (average) {
            series.fileAverage = step;
            averageRow = row;
        } else {
            series.steps.push_back(std::move(step));
        }
    }
    series.computeAverage();
    series.sources << path;
    // MindSpore rounds the average row to whole ticks.
    checkFileAverage(series, table, averageRow, tickUs, diagnostics);
    return series;
}

models::profiler::StepSeries readStepTraceTime(const QString& path, models::Diagnostics& diagnostics)
{
    models::profiler::StepSeries series;
    const CsvTable table = CsvTable::readFile(path);
    diagnostics.append(table.diagnostics());
    if (!table.hasHeader())
        return series;
    const ColumnSpec stacked[] = {
        { "computing", QT_TRANSLATE_NOOP("runlens::profiler", "Computing"), "Computing" },
        { "communication_not_overlapped", QT_TRANSLATE_NOOP("runlens::profiler", "Communication (not overlapped)"),
          "Communication(Not Overlapped)" },
        { "free", QT_TRANSLATE_NOOP("runlens::profiler", "Free"), "Free" },
    };
    const ColumnSpec extras[] = {
        { "overlapped", QT_TRANSLATE_NOOP("runlens::profiler", "Overlapped"), "Overlapped" },
        { "communication", QT_TRANSLATE_NOOP("runlens::profiler", "Communication"), "Communication" },
        { "stage", QT_TRANSLATE_NOOP("runlens::profiler", "Stage"), "Stage" },
        { "bubble", QT_TRANSLATE_NOOP("runlens::profiler", "Bubble"), "Bubble" },
        { "communication_not_overlapped_exclude_receive",
          QT_TRANSLATE_NOOP("runlens::profiler", "Communication (not overlapped, without receive)"),
          "Communication(Not Overlapped and Exclude Receive)" },
        { "preparing", QT_TRANSLATE_NOOP("runlens::profiler", "Preparing"), "Preparing" },
    };
    const std::vector<int> columns = findColumns(table, stacked, series.categoryIds, series.categoryNames);
    std::vector<double> scales;
    for (int column : columns)
        scales.push_back(unitToMicroseconds(table.header().at(column), 1.0));
    if (columns.empty()) {
        diagnostics.append(table.fileDiagnostic(
            trSteps("none of the columns Computing, Communication(Not Overlapped), Free is there; the step times "
                    "are skipped"),
            models::Severity::Error));
        return series;
    }
    const std::vector<int> extraColumns = findColumns(table, extras, series.extraIds, series.extraNames);
    const int stepColumn = table.column({ "Step", "Step Id", "step_num" });
    int badRows = 0;
    for (int row = 0; row < table.rowCount(); ++row) {
        models::profiler::StepSeries::Step step;
        step.number = table.int64At(row, stepColumn).value_or(qint64(series.steps.size()) + 1);
        bool ok = true;
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const auto value = table.doubleAt(row, columns[i]);
            ok = ok && value.has_value() && std::isfinite(*value);
            step.valuesUs.push_back(value.value_or(0.0) * scales[i]);
            step.totalUs += step.valuesUs.back();
        }
        if (!ok) {
            if (++badRows <= 10)
                diagnostics.append(table.cellDiagnostic(row, columns.front(),
                                                        trSteps("the row does not hold a step's times; it is "
                                                                "left out")));
            continue;
        }
        for (int column : extraColumns) {
            const auto value = table.doubleAt(row, column);
            step.extrasUs.push_back(value ? *value * unitToMicroseconds(table.header().at(column), 1.0) : std::nan(""));
        }
        series.steps.push_back(std::move(step));
    }
    series.computeAverage();
    series.sources << path;
    return series;
}

void readStepTracePoints(const QString& path, models::profiler::StepSeries& steps, models::Diagnostics& diagnostics)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxPointInfoBytes) {
        diagnostics.append({ models::Severity::Warning, path, -1, -1, trSteps("Cannot read the step trace points") });
        return;
    }
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    QJsonObject points;
    if (document.isObject()) {
        points = document.object();
        // Keyed by graph id in some versions: {"1": {"fp_start": ...}}.
        if (!points.contains(QStringLiteral("fp_start")) && !points.isEmpty() && points.begin()->isObject())
            points = points.begin()->toObject();
    } else if (document.isArray() && !document.array().isEmpty()) {
        points = document.array().first().toObject();
    } else {
        diagnostics.append({ models::Severity::Warning, path, error.offset, -1,
                             trSteps("The step trace points are not JSON: %1").arg(error.errorString()) });
        return;
    }
    steps.fpStart = points.value(QStringLiteral("fp_start")).toString();
    steps.bpEnd = points.value(QStringLiteral("bp_end")).toString();
    steps.sources << path;
}

models::profiler::StepSeries readRankSteps(const ProfilerRank& rank, models::Diagnostics& diagnostics)
{
    models::profiler::StepSeries series;
    if (rank.has(FileRole::StepTraceTime)) {
        series = readStepTraceTime(rank.file(FileRole::StepTraceTime), diagnostics);
    } else if (rank.has(FileRole::StepTraceRaw)) {
        // MindInsight's GPU step trace counts nanoseconds; Ascend counts 10 ns system ticks.
        const double tick = rank.deviceType == models::profiler::DeviceType::Gpu ? 0.001 : kAscendTickUs;
        series = readStepTraceRaw(rank.file(FileRole::StepTraceRaw), diagnostics, tick);
    }
    if (rank.has(FileRole::StepTracePointInfo))
        readStepTracePoints(rank.file(FileRole::StepTracePointInfo), series, diagnostics);
    return series;
}

} // namespace runlens::importers::profiler
