#include "importers/cluster/mindsporeclusterparts.h"

#include "importers/profiler/csvtable.h"

#include <QFileInfo>
#include <QJsonObject>

#include <algorithm>

namespace runlens::cluster::mindspore {

namespace {

constexpr double kTicksPerMs = 1e5; // step trace counts Ascend system ticks of 10 ns

double number(const profiler::CsvTable& table, int row, int column, double scale, Diagnostics& diagnostics)
{
    if (column < 0 || table.isEmpty(row, column))
        return kMissing;
    bool ok = false;
    const double v = table.toDouble(row, column, &ok);
    if (!ok) {
        diagnostics.append(
            table.cellDiagnostic(row, column, trCluster("Not a number: “%1”").arg(table.text(row, column))));
        return kMissing;
    }
    return v / scale;
}

/// The RankStep of step `number`, created in order when new.
RankStep& stepOf(RankFigures& rank, std::int64_t number)
{
    for (RankStep& s : rank.steps) {
        if (s.step == number)
            return s;
    }
    RankStep step;
    step.step = number;
    rank.steps.push_back(step);
    return rank.steps.back();
}

/// What the average row would hold when a file has none: MindSpore leaves the first step out of it
/// (graph compilation and warm-up make it an outlier), so the mean is over the other steps.
double averageOf(const RankFigures& rank, double RankStep::*field)
{
    std::vector<double> values;
    for (std::size_t i = rank.steps.size() > 1 ? 1 : 0; i < rank.steps.size(); ++i)
        values.push_back(rank.steps[i].*field);
    return meanOfKnown(values);
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
    RankStep read(const profiler::CsvTable& table, int row, Diagnostics& diagnostics) const
    {
        constexpr double kUsPerMs = 1000.0;
        RankStep values;
        values.computation = number(table, row, computing, kUsPerMs, diagnostics);
        values.communication = number(table, row, notOverlapped, kUsPerMs, diagnostics);
        values.overlapped = number(table, row, overlapped, kUsPerMs, diagnostics);
        values.idle = number(table, row, free, kUsPerMs, diagnostics);
        const double exclude = number(table, row, excludeReceive, kUsPerMs, diagnostics);
        if (isKnown(exclude) && isKnown(values.communication))
            values.receive = std::max(0.0, values.communication - exclude);
        if (isKnown(values.computation) && isKnown(values.communication))
            values.stepTime = values.computation + values.communication + (isKnown(values.idle) ? values.idle : 0.0);
        return values;
    }
};

void assignStep(RankStep& target, const RankStep& values)
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

void readStepTrace(const QString& path, RankFigures& rank, Diagnostics& diagnostics)
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
    RankStep average;
    for (int row = 0; row < table.rowCount(); ++row) {
        RankStep values;
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
        RankStep& s = stepOf(rank, n);
        s.stepTime = values.stepTime;
        s.stepInterval = values.stepInterval;
        s.computation = values.computation;
        s.tail = values.tail;
    }
    if (!haveAverage) {
        average.stepTime = averageOf(rank, &RankStep::stepTime);
        average.stepInterval = averageOf(rank, &RankStep::stepInterval);
        average.computation = averageOf(rank, &RankStep::computation);
        average.tail = averageOf(rank, &RankStep::tail);
    }
    rank.stepTime = average.stepTime;
    rank.stepInterval = average.stepInterval;
    rank.computation = average.computation;
    rank.tail = average.tail;
}

void readClusterAnalyse(const QString& path, RankFigures& rank, Diagnostics& diagnostics)
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
    for (const RankStep& s : rank.steps)
        numbers.push_back(s.step);
    for (int row = 0; row <= last; ++row) {
        const double comp = number(table, row, computation >= 0 ? computation : fpBp, 1.0, diagnostics);
        const double comm = number(table, row, communication, 1.0, diagnostics);
        const double recv = number(table, row, receive, 1.0, diagnostics);
        const double gap = number(table, row, interval, 1.0, diagnostics);
        const double tailTime = number(table, row, tail, 1.0, diagnostics);
        const double stageTime = number(table, row, stage, 1.0, diagnostics);
        auto apply = [&](auto& target) {
            if (isKnown(comp))
                target.computation = comp;
            if (isKnown(comm))
                target.communication = comm;
            if (isKnown(recv))
                target.receive = recv;
            if (isKnown(gap))
                target.stepInterval = gap;
            if (isKnown(tailTime))
                target.tail = tailTime;
            if (isKnown(stageTime) && !isKnown(target.stepTime))
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
void averageSteps(RankFigures& rank)
{
    auto mean = [&rank](double RankStep::*field) {
        std::vector<double> values;
        for (const RankStep& s : rank.steps)
            values.push_back(s.*field);
        return meanOfKnown(values);
    };
    rank.stepTime = mean(&RankStep::stepTime);
    rank.computation = mean(&RankStep::computation);
    rank.communication = mean(&RankStep::communication);
    rank.overlapped = mean(&RankStep::overlapped);
    rank.idle = mean(&RankStep::idle);
    rank.receive = mean(&RankStep::receive);
}

/// A rank's 2.x `step_trace_time.csv`: one row per step.
void readStepTraceTime(const QString& path, RankFigures& rank, Diagnostics& diagnostics)
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
void readClusterStepTraceTime(const QString& path, std::map<int, RankFigures>& ranks, Diagnostics& diagnostics)
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
        RankFigures& rank = ranks[rankId];
        rank.rank = rankId;
        if (rank.path.isEmpty())
            rank.path = QFileInfo(path).absolutePath();
        assignStep(stepOf(rank, n), columns.read(table, row, diagnostics));
    }
}

void readFlops(const QString& path, RankFigures& rank, Diagnostics& diagnostics)
{
    const auto doc = readJson(path, diagnostics);
    if (!doc)
        return;
    const QJsonObject o = doc->object();
    auto value = [&o](const char* key) {
        const QJsonValue v = o.value(QLatin1String(key));
        return v.isDouble() ? v.toDouble() : kMissing;
    };
    rank.flops = value("FLOPS");
    if (!isKnown(rank.flops) && isKnown(value("cube_FLOPS")))
        rank.flops = value("cube_FLOPS") + (isKnown(value("vec_FLOPS")) ? value("vec_FLOPS") : 0.0);
    rank.flopsTotal = value("FLOPs");
    if (!isKnown(rank.flopsTotal) && isKnown(value("cube_FLOPs")))
        rank.flopsTotal = value("cube_FLOPs") + (isKnown(value("vec_FLOPs")) ? value("vec_FLOPs") : 0.0);
    if (!isKnown(rank.flops) && !isKnown(rank.flopsTotal))
        diagnostics.append(
            { Severity::Warning, path, -1, -1, trCluster("No FLOPS or FLOPs figure in the FLOPs summary") });
}

} // namespace runlens::cluster::mindspore
