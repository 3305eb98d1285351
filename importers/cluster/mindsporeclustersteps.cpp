#include "importers/cluster/mindsporeclusterparts.h"

#include "importers/profiler/csvtable.h"

#include <QFileInfo>
#include <QJsonObject>

#include <algorithm>

namespace runlens::importers::cluster::mindspore {

namespace {

constexpr double kTicksPerMs = 1e5; // step trace counts Ascend system ticks of 10 ns

double number(const profiler::CsvTable& table, int row, int column, double scale, models::Diagnostics& diagnostics)
{
    if (column < 0 || table.isEmpty(row, column))
        return models::cluster::kMissing;
    bool ok = false;
    const double v = table.toDouble(row, column, &ok);
    if (!ok) {
        diagnostics.append(
            table.cellDiagnostic(row, column, trCluster("Not a number: “%1”").arg(table.text(row, column))));
        return models::cluster::kMissing;
    }
    return v / scale;
}

/// The RankStep of step `number`, created in order when new.
models::cluster::RankStep& stepOf(models::cluster::RankFigures& rank, std::int64_t number)
{
    for (models::cluster::RankStep& s : rank.steps) {
        if (s.step == number)
            return s;
    }
    models::cluster::RankStep step;
    step.step = number;
    rank.steps.push_back(step);
    return rank.steps.back();
}

/// What the average row would hold when a file has none: MindSpore leaves the first step out of it
/// (graph compilation and warm-up make it an outlier), so the mean is over the other steps.
double averageOf(const models::cluster::RankFigures& rank, double models::cluster::RankStep::*field)
{
    std::vector<double> values;
    for (std::size_t i = rank.steps.size() > 1 ? 1 : 0; i < rank.steps.size(); ++i)
        values.push_back(rank.steps[i].*field);
    return models::cluster::meanOfKnown(values);
}

/// Columns of the 2.x step_trace_time tables (microseconds).
struct StepTimeColumns
{
    int step = -1;
    int computing = -1;
    int notOverlapped = -1;
    int overlapped = -1;
    int free = -1;
    int stage = -1;
    int excludeReceive = -1;

    explicit StepTimeColumns(const profiler::CsvTable& table)
        : step(table.column({ "Step" }))
        , computing(table.column({ "Computing" }))
        , notOverlapped(table.column({ "Communication(Not Overlapped)" }))
        , overlapped(table.column({ "Overlapped" }))
        , free(table.column({ "Free" }))
        , stage(table.column({ "Stage" }))
        , excludeReceive(table.column({ "Communication(Not Overlapped and Exclude Receive)" }))
    { }
    bool valid() const { return computing >= 0 && notOverlapped >= 0; }

    /// One row as a RankStep in milliseconds. The step is what the device did: computing, communication
    /// not hidden under it, and free time; receive is the not-overlapped communication that the
    /// "exclude receive" column leaves out.
    models::cluster::RankStep read(const profiler::CsvTable& table, int row, models::Diagnostics& diagnostics) const
    {
        constexpr double kUsPerMs = 1000.0;
        models::cluster::RankStep values;
        values.computation = number(table, row, computing, kUsPerMs, diagnostics);
        values.communication = number(table, row, notOverlapped, kUsPerMs, diagnostics);
        values.overlapped = number(table, row, overlapped, kUsPerMs, diagnostics);
        values.idle = number(table, row, free, kUsPerMs, diagnostics);
        const double exclude = number(table, row, excludeReceive, kUsPerMs, diagnostics);
        if (models::cluster::isKnown(exclude) && models::cluster::isKnown(values.communication))
            values.receive = std::max(0.0, values.communication - exclude);
        if (models::cluster::isKnown(values.computation) && models::cluster::isKnown(values.communication))
            values.stepTime = values.computation + values.communication
                + (models::cluster::isKnown(values.idle) ? values.idle : 0.0);
        return values;
    }
};

void assignStep(models::cluster::RankStep& target, const models::cluster::RankStep& values)
{
    target.stepTime = values.stepTime;
    target.computation = values.computation;
    target.communication = values.communication;
    target.overlapped = values.overlapped;
    target.idle = values.idle;
    target.receive = values.receive;
}

} // namespace

bool isAverageRow(const profiler::CsvTable& table, int row, int stepColumn)
{
    return stepColumn >= 0 && table.text(row, stepColumn) == QLatin1String("-");
}

void readStepTrace(const QString& path, models::cluster::RankFigures& rank, models::Diagnostics& diagnostics)
{
    const auto table = profiler::CsvTable::readFile(path);
    diagnostics += table.diagnostics();
    if (!table.hasHeader())
        return;
    const int step = table.column({ "step_num" });
    const int interval = table.column({ "iteration_interval" });
    const int fpBp = table.column({ "fp_and_bp", "fp" });
    const int tail = table.column({ "tail" });
    const int total = table.column({ "total" });
    if (step < 0 || total < 0) {
        diagnostics.append(table.fileDiagnostic(trCluster("No step_num or total column: not a step trace table")));
        return;
    }
    bool haveAverage = false;
    models::cluster::RankStep average;
    for (int row = 0; row < table.rowCount(); ++row) {
        models::cluster::RankStep values;
        values.stepTime = number(table, row, total, kTicksPerMs, diagnostics);
        values.stepInterval = number(table, row, interval, kTicksPerMs, diagnostics);
        values.computation = number(table, row, fpBp, kTicksPerMs, diagnostics);
        values.tail = number(table, row, tail, kTicksPerMs, diagnostics);
        if (isAverageRow(table, row, step)) {
            average = values;
            haveAverage = true;
            continue;
        }
        bool ok = false;
        const qint64 n = table.toInt64(row, step, &ok);
        if (!ok) {
            diagnostics.append(
                table.cellDiagnostic(row, step, trCluster("Not a step number: “%1”").arg(table.text(row, step))));
            continue;
        }
        models::cluster::RankStep& s = stepOf(rank, n);
        s.stepTime = values.stepTime;
        s.stepInterval = values.stepInterval;
        s.computation = values.computation;
        s.tail = values.tail;
    }
    if (!haveAverage) {
        average.stepTime = averageOf(rank, &models::cluster::RankStep::stepTime);
        average.stepInterval = averageOf(rank, &models::cluster::RankStep::stepInterval);
        average.computation = averageOf(rank, &models::cluster::RankStep::computation);
        average.tail = averageOf(rank, &models::cluster::RankStep::tail);
    }
    rank.stepTime = average.stepTime;
    rank.stepInterval = average.stepInterval;
    rank.computation = average.computation;
    rank.tail = average.tail;
}

void readClusterAnalyse(const QString& path, models::cluster::RankFigures& rank, models::Diagnostics& diagnostics)
{
    const auto table = profiler::CsvTable::readFile(path);
    diagnostics += table.diagnostics();
    if (!table.hasHeader() || table.rowCount() == 0)
        return;
    const int computation = table.column({ "computation_time" });
    const int communication = table.column({ "communication_alone_time" });
    const int stage = table.column({ "stage_time" });
    const int receive = table.column({ "receive_alone_time" });
    // The old data-parallel layout repeats the step trace columns.
    const int interval = table.column({ "iteration_interval" });
    const int fpBp = table.column({ "fp_and_bp" });
    const int tail = table.column({ "tail" });
    if (computation < 0 && communication < 0 && interval < 0 && fpBp < 0) {
        diagnostics.append(table.fileDiagnostic(trCluster("No computation_time or communication_alone_time column")));
        return;
    }
    const int last = table.rowCount() - 1;
    // Rows are the steps in order (numbered as the step trace numbers them, else from 1); the last is the
    // average. A single row is both the average and the only step.
    std::vector<std::int64_t> numbers;
    for (const models::cluster::RankStep& s : rank.steps)
        numbers.push_back(s.step);
    for (int row = 0; row <= last; ++row) {
        const double comp = number(table, row, computation >= 0 ? computation : fpBp, 1.0, diagnostics);
        const double comm = number(table, row, communication, 1.0, diagnostics);
        const double recv = number(table, row, receive, 1.0, diagnostics);
        const double gap = number(table, row, interval, 1.0, diagnostics);
        const double tailTime = number(table, row, tail, 1.0, diagnostics);
        const double stageTime = number(table, row, stage, 1.0, diagnostics);
        auto apply = [&](auto& target) {
            if (models::cluster::isKnown(comp))
                target.computation = comp;
            if (models::cluster::isKnown(comm))
                target.communication = comm;
            if (models::cluster::isKnown(recv))
                target.receive = recv;
            if (models::cluster::isKnown(gap))
                target.stepInterval = gap;
            if (models::cluster::isKnown(tailTime))
                target.tail = tailTime;
            if (models::cluster::isKnown(stageTime) && !models::cluster::isKnown(target.stepTime))
                target.stepTime = stageTime;
        };
        if (row == last)
            apply(rank);
        if (row < last || last == 0)
            apply(stepOf(rank, std::size_t(row) < numbers.size() ? numbers[std::size_t(row)] : row + 1));
    }
}

/// The rank's averages over its steps when no file gave them (every step counts: the 2.x tables have no
/// average row and no warm-up convention).
void averageSteps(models::cluster::RankFigures& rank)
{
    auto mean = [&rank](double models::cluster::RankStep::*field) {
        std::vector<double> values;
        for (const models::cluster::RankStep& s : rank.steps)
            values.push_back(s.*field);
        return models::cluster::meanOfKnown(values);
    };
    rank.stepTime = mean(&models::cluster::RankStep::stepTime);
    rank.computation = mean(&models::cluster::RankStep::computation);
    rank.communication = mean(&models::cluster::RankStep::communication);
    rank.overlapped = mean(&models::cluster::RankStep::overlapped);
    rank.idle = mean(&models::cluster::RankStep::idle);
    rank.receive = mean(&models::cluster::RankStep::receive);
}

/// A rank's 2.x `step_trace_time.csv`: one row per step.
void readStepTraceTime(const QString& path, models::cluster::RankFigures& rank, models::Diagnostics& diagnostics)
{
    const auto table = profiler::CsvTable::readFile(path);
    diagnostics += table.diagnostics();
    if (!table.hasHeader())
        return;
    const StepTimeColumns columns(table);
    if (!columns.valid()) {
        diagnostics.append(table.fileDiagnostic(
            trCluster("No Computing or Communication(Not Overlapped) column: not a step_trace_time table")));
        return;
    }
    for (int row = 0; row < table.rowCount(); ++row) {
        bool ok = columns.step < 0;
        const qint64 n = columns.step >= 0 ? table.toInt64(row, columns.step, &ok) : row + 1;
        if (!ok) {
            diagnostics.append(table.cellDiagnostic(
                row, columns.step, trCluster("Not a step number: “%1”").arg(table.text(row, columns.step))));
            continue;
        }
        assignStep(stepOf(rank, n), columns.read(table, row, diagnostics));
    }
}

/// msprof-analyze's `cluster_step_trace_time.csv`: rows of every rank (Type "rank", Index = rank id) and
/// of every stage; the stage rows are left out.
void readClusterStepTraceTime(const QString& path, std::map<int, models::cluster::RankFigures>& ranks,
                              models::Diagnostics& diagnostics)
{
    const auto table = profiler::CsvTable::readFile(path);
    diagnostics += table.diagnostics();
    if (!table.hasHeader())
        return;
    const StepTimeColumns columns(table);
    const int type = table.column({ "Type" });
    const int index = table.column({ "Index" });
    if (!columns.valid() || type < 0 || index < 0) {
        diagnostics.append(table.fileDiagnostic(
            trCluster("No Type, Index, Computing or Communication(Not Overlapped) column: not a cluster step "
                      "trace table")));
        return;
    }
    for (int row = 0; row < table.rowCount(); ++row) {
        if (table.text(row, type).compare(QLatin1String("rank"), Qt::CaseInsensitive) != 0)
            continue;
        bool rankOk = false;
        const int rankId = int(table.toInt64(row, index, &rankOk));
        bool stepOk = columns.step < 0;
        const qint64 n = columns.step >= 0 ? table.toInt64(row, columns.step, &stepOk) : 1;
        if (!rankOk || !stepOk) {
            diagnostics.append(table.cellDiagnostic(row, rankOk ? columns.step : index,
                                                    trCluster("Not a rank or step number in this row")));
            continue;
        }
        models::cluster::RankFigures& rank = ranks[rankId];
        rank.rank = rankId;
        if (rank.path.isEmpty())
            rank.path = QFileInfo(path).absolutePath();
        assignStep(stepOf(rank, n), columns.read(table, row, diagnostics));
    }
}

void readFlops(const QString& path, models::cluster::RankFigures& rank, models::Diagnostics& diagnostics)
{
    const auto doc = readJson(path, diagnostics);
    if (!doc)
        return;
    const QJsonObject o = doc->object();
    auto value = [&o](const char* key) {
        const QJsonValue v = o.value(QLatin1String(key));
        return v.isDouble() ? v.toDouble() : models::cluster::kMissing;
    };
    rank.flops = value("FLOPS");
    if (!models::cluster::isKnown(rank.flops) && models::cluster::isKnown(value("cube_FLOPS")))
        rank.flops = value("cube_FLOPS") + (models::cluster::isKnown(value("vec_FLOPS")) ? value("vec_FLOPS") : 0.0);
    rank.flopsTotal = value("FLOPs");
    if (!models::cluster::isKnown(rank.flopsTotal) && models::cluster::isKnown(value("cube_FLOPs")))
        rank.flopsTotal
            = value("cube_FLOPs") + (models::cluster::isKnown(value("vec_FLOPs")) ? value("vec_FLOPs") : 0.0);
    if (!models::cluster::isKnown(rank.flops) && !models::cluster::isKnown(rank.flopsTotal))
        diagnostics.append(
            { models::Severity::Warning, path, -1, -1, trCluster("No FLOPS or FLOPs figure in the FLOPs summary") });
}

} // namespace runlens::importers::cluster::mindspore
