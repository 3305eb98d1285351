#include "mindsporecluster.h"

#include "profiler/csvtable.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace runlens::cluster {

namespace {

constexpr double kTicksPerMs = 1e5; // step trace counts Ascend system ticks of 10 ns
constexpr int kMaxDepth = 4;
constexpr int kMaxEntries = 20000;
constexpr qint64 kMaxJsonBytes = 64 * 1024 * 1024;

QString trCluster(const char* text)
{
    return QCoreApplication::translate("runlens::cluster", text);
}

/// The files of one rank.
struct RankFiles
{
    QString stepTrace;
    QString clusterAnalyse;
    QString hccl;
    QString flops;
    QString stepTraceTime; ///< 2.x ASCEND_PROFILER_OUTPUT/step_trace_time.csv
    QString communicationMatrix; ///< 2.x ASCEND_PROFILER_OUTPUT/communication_matrix.json
    QString folder;
    int deviceId = -1;
};

struct Inputs
{
    std::map<int, RankFiles> ranks;
    QStringList strategies;
    QStringList profilerInfos;
    QStringList clusterStepTraceTimes; ///< cluster_step_trace_time.csv: one row per (step, rank)
    QStringList unranked; ///< 2.x files whose rank nothing tells
    QString parallelMode;
    int stageCount = 0;
    int worldSize = 0;
};

const QRegularExpression& clusterAnalyseName()
{
    static const QRegularExpression re(
        QStringLiteral("^ascend_cluster_analyse_([a-z]+-parallel)_(\\d+)_(\\d+)_(\\d+)\\.csv$"));
    return re;
}
const QRegularExpression& stepTraceName()
{
    static const QRegularExpression re(QStringLiteral("^step_trace_raw_(\\d+)_detail_time\\.csv$"));
    return re;
}
const QRegularExpression& hcclName()
{
    static const QRegularExpression re(QStringLiteral("^hccl_raw_(\\d+)\\.csv$"));
    return re;
}
const QRegularExpression& flopsName()
{
    static const QRegularExpression re(QStringLiteral("^flops_summary_(\\d+)\\.json$"));
    return re;
}
const QRegularExpression& rankFolderName()
{
    static const QRegularExpression re(QStringLiteral("^rank_?(\\d+)$"), QRegularExpression::CaseInsensitiveOption);
    return re;
}

/// The N of the nearest `rank_N` folder above `path` (within `root`), or nothing.
std::optional<int> rankOfFolder(const QString& path, const QString& root)
{
    QDir dir = QFileInfo(path).absoluteDir();
    const QString top = QFileInfo(root).absoluteFilePath();
    for (int depth = 0; depth <= kMaxDepth; ++depth) {
        const auto match = rankFolderName().match(dir.dirName());
        if (match.hasMatch())
            return match.captured(1).toInt();
        if (dir.absolutePath() == top || !dir.cdUp())
            break;
    }
    return std::nullopt;
}

/// The rank of a 2.x file: `{host}_{pid}_{ts}_ascend_ms/ASCEND_PROFILER_OUTPUT/<file>` is rank N when the
/// `_ascend_ms` folder holds `profiler_info_N.json`; else the nearest `rank_N` folder.
std::optional<int> rankOfAscendMsFile(const QString& path, const QString& root)
{
    QDir dir = QFileInfo(path).absoluteDir();
    if (dir.dirName().compare(QLatin1String("ASCEND_PROFILER_OUTPUT"), Qt::CaseInsensitive) == 0 && dir.cdUp()) {
        static const QRegularExpression info(QStringLiteral("^profiler_info_(\\d+)\\.json$"));
        for (const QString& name : dir.entryList({ QStringLiteral("profiler_info_*.json") }, QDir::Files)) {
            const auto match = info.match(name);
            if (match.hasMatch())
                return match.captured(1).toInt();
        }
    }
    return rankOfFolder(path, root);
}

void classify(const QString& path, const QString& root, Inputs& inputs)
{
    const QString name = QFileInfo(path).fileName().toLower();
    auto rankFile = [&](const QRegularExpressionMatch& match, int group) -> RankFiles& {
        const int id = match.captured(group).toInt();
        const int rank = rankOfFolder(path, root).value_or(id);
        RankFiles& files = inputs.ranks[rank];
        files.deviceId = id;
        files.folder = QFileInfo(path).absolutePath();
        return files;
    };
    if (auto m = clusterAnalyseName().match(name); m.hasMatch()) {
        rankFile(m, 4).clusterAnalyse = path;
        inputs.parallelMode = m.captured(1);
        inputs.stageCount = std::max(inputs.stageCount, m.captured(2).toInt());
        inputs.worldSize = std::max(inputs.worldSize, m.captured(3).toInt());
    } else if (auto m = stepTraceName().match(name); m.hasMatch()) {
        rankFile(m, 1).stepTrace = path;
    } else if (auto m = hcclName().match(name); m.hasMatch()) {
        rankFile(m, 1).hccl = path;
    } else if (auto m = flopsName().match(name); m.hasMatch()) {
        rankFile(m, 1).flops = path;
    } else if (name == QLatin1String("step_trace_time.csv") || name == QLatin1String("communication_matrix.json")) {
        const std::optional<int> rank = rankOfAscendMsFile(path, root);
        if (!rank) {
            inputs.unranked << path;
            return;
        }
        RankFiles& files = inputs.ranks[*rank];
        if (files.deviceId < 0)
            files.deviceId = *rank;
        if (files.folder.isEmpty())
            files.folder = QFileInfo(path).absolutePath();
        (name.endsWith(QLatin1String(".csv")) ? files.stepTraceTime : files.communicationMatrix) = path;
    } else if (name == QLatin1String("cluster_step_trace_time.csv")) {
        inputs.clusterStepTraceTimes << path;
    } else if (name.startsWith(QLatin1String("parallel_strategy")) && name.endsWith(QLatin1String(".json"))) {
        inputs.strategies << path;
    } else if (name.startsWith(QLatin1String("profiler_info_")) && name.endsWith(QLatin1String(".json"))) {
        inputs.profilerInfos << path;
    }
}

Inputs findInputs(const QStringList& paths)
{
    Inputs inputs;
    for (const QString& path : paths) {
        const QFileInfo info(path);
        if (info.isFile()) {
            classify(info.absoluteFilePath(), info.absolutePath(), inputs);
            continue;
        }
        if (!info.isDir())
            continue;
        const QString root = info.absoluteFilePath();
        const int rootDepth = root.count(QLatin1Char('/'));
        QDirIterator it(root, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        int entries = 0;
        while (it.hasNext() && ++entries < kMaxEntries) {
            const QString file = it.next();
            const QFileInfo fi = it.fileInfo();
            if (fi.isSymLink() || !fi.isFile() || file.count(QLatin1Char('/')) - rootDepth > kMaxDepth)
                continue;
            classify(fi.absoluteFilePath(), root, inputs);
        }
    }
    return inputs;
}

std::optional<QJsonDocument> readJson(const QString& path, Diagnostics& diagnostics)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        diagnostics.append(
            { Severity::Error, path, -1, -1, trCluster("Cannot open the file: %1").arg(file.errorString()) });
        return std::nullopt;
    }
    if (file.size() > kMaxJsonBytes) {
        diagnostics.append({ Severity::Error, path, -1, -1,
                             trCluster("The file is larger than %1 MB; it is not read").arg(kMaxJsonBytes >> 20) });
        return std::nullopt;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError) {
        diagnostics.append({ Severity::Error, path, qint64(error.offset), -1,
                             trCluster("Not valid JSON: %1").arg(error.errorString()) });
        return std::nullopt;
    }
    return doc;
}

bool isAverageRow(const profiler::CsvTable& table, int row, int stepColumn)
{
    return stepColumn >= 0 && table.text(row, stepColumn) == QLatin1String("-");
}

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

/// Visits every object of a JSON tree keyed "src-dst" whose value describes one transfer.
template<typename Visit> void forEachTransfer(const QJsonObject& object, int depth, Visit&& visit)
{
    static const QRegularExpression linkKey(QStringLiteral("^\\s*(\\d+)\\s*-\\s*(\\d+)\\s*$"));
    if (depth > 8)
        return;
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!it.value().isObject())
            continue;
        const QJsonObject value = it.value().toObject();
        const auto match = linkKey.match(it.key());
        if (match.hasMatch() && value.contains(QLatin1String("Transport Type")))
            visit(match.captured(1).toInt(), match.captured(2).toInt(), value);
        else
            forEachTransfer(value, depth + 1, visit);
    }
}

/// A rank's 2.x `communication_matrix.json`: `{step: {collective|p2p: {op: {"src-dst": {"Transport Type",
/// "Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)"}}}}}`. Each link's bandwidth is its total size
/// over its total time across the steps and operators; self-transfers are left out as MindInsight does.
void readCommunicationMatrix(const QString& path,
                             std::map<std::tuple<int, int, QString>, std::vector<ClusterLink>>& links,
                             Diagnostics& diagnostics)
{
    const auto doc = readJson(path, diagnostics);
    if (!doc)
        return;
    if (!doc->isObject()) {
        diagnostics.append({ Severity::Error, path, -1, -1, trCluster("Not a communication matrix: no JSON object") });
        return;
    }
    struct Totals
    {
        double size = 0;
        double time = 0;
    };
    std::map<std::tuple<int, int, QString>, Totals> totals;
    int transfers = 0;
    forEachTransfer(doc->object(), 0, [&](int src, int dst, const QJsonObject& transfer) {
        ++transfers;
        if (src == dst)
            return;
        const QString type = transfer.value(QLatin1String("Transport Type")).toString().trimmed().toUpper();
        const double size = transfer.value(QLatin1String("Transit Size(MB)")).toDouble(-1);
        const double time = transfer.value(QLatin1String("Transit Time(ms)")).toDouble(-1);
        if (type.isEmpty() || type == QLatin1String("LOCAL") || size < 0 || time < 0)
            return;
        Totals& t = totals[{ src, dst, type }];
        t.size += size;
        t.time += time;
    });
    if (transfers == 0) {
        diagnostics.append({ Severity::Warning, path, -1, -1,
                             trCluster("No “src-dst” transfers with a Transport Type: not a communication matrix") });
        return;
    }
    for (const auto& [key, t] : totals) {
        ClusterLink link;
        link.src = std::get<0>(key);
        link.dst = std::get<1>(key);
        link.type = std::get<2>(key);
        link.size = t.size;
        link.time = t.time;
        link.bandwidth = t.time > 0 ? t.size / t.time : kMissing; // MB/ms = GB/s
        links[key].push_back(link);
    }
}

ClusterLink meanLink(const std::vector<ClusterLink>& list)
{
    ClusterLink mean = list.front();
    std::vector<double> time;
    std::vector<double> size;
    std::vector<double> bandwidth;
    for (const ClusterLink& l : list) {
        time.push_back(l.time);
        size.push_back(l.size);
        bandwidth.push_back(l.bandwidth);
    }
    mean.time = meanOfKnown(time);
    mean.size = meanOfKnown(size);
    mean.bandwidth = meanOfKnown(bandwidth);
    return mean;
}

/// Links of one hccl_raw file: the average row, or the mean over steps when it is missing.
void readHccl(const QString& path, std::map<std::tuple<int, int, QString>, std::vector<ClusterLink>>& links,
              Diagnostics& diagnostics)
{
    const auto table = profiler::CsvTable::readFile(path);
    diagnostics += table.diagnostics();
    if (!table.hasHeader())
        return;
    const int step = table.column({ "step_num" });
    const int linkInfo = table.column({ "link_info" });
    if (linkInfo < 0) {
        diagnostics.append(table.fileDiagnostic(trCluster("No link_info column: not an HCCL table")));
        return;
    }
    int averageRow = -1;
    for (int row = 0; row < table.rowCount(); ++row) {
        if (isAverageRow(table, row, step))
            averageRow = row;
    }
    std::map<std::tuple<int, int, QString>, std::vector<ClusterLink>> fileLinks;
    for (int row = 0; row < table.rowCount(); ++row) {
        if (averageRow >= 0 && row != averageRow)
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(table.bytes(row, linkInfo).toByteArray(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            diagnostics.append(table.cellDiagnostic(row, linkInfo, trCluster("link_info is not a JSON object")));
            continue;
        }
        const QJsonObject object = doc.object();
        for (auto it = object.begin(); it != object.end(); ++it) {
            const QStringList ends = it.key().split(QLatin1Char('-'));
            bool srcOk = false;
            bool dstOk = false;
            const int src = ends.size() == 2 ? ends[0].trimmed().toInt(&srcOk) : -1;
            const int dst = ends.size() == 2 ? ends[1].trimmed().toInt(&dstOk) : -1;
            if (!srcOk || !dstOk) {
                diagnostics.append(table.cellDiagnostic(
                    row, linkInfo, trCluster("A link is not named “src-dst”: “%1”").arg(it.key())));
                continue;
            }
            const QJsonObject types = it.value().toObject();
            for (auto t = types.begin(); t != types.end(); ++t) {
                const QJsonArray values = t.value().toArray();
                ClusterLink link;
                link.src = src;
                link.dst = dst;
                link.type = t.key().toUpper();
                auto at = [&values](int i) {
                    if (i >= values.size())
                        return kMissing;
                    const QJsonValue v = values[i];
                    if (v.isDouble())
                        return v.toDouble();
                    bool ok = false;
                    const double d = v.toString().toDouble(&ok);
                    return ok ? d : kMissing;
                };
                link.time = at(0);
                link.size = at(1);
                link.bandwidth = at(2);
                fileLinks[{ src, dst, link.type }].push_back(link);
            }
        }
    }
    for (const auto& [key, list] : fileLinks)
        links[key].push_back(meanLink(list));
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

/// rank -> stage (1-based) from parallel_strategy files.
std::map<int, int> readStrategies(const QStringList& paths, Diagnostics& diagnostics)
{
    std::map<int, int> stages;
    for (const QString& path : paths) {
        const auto doc = readJson(path, diagnostics);
        if (!doc)
            continue;
        const QJsonObject config = doc->object().value(QLatin1String("config")).toObject();
        const QJsonValue rank = config.value(QLatin1String("rankId"));
        const QJsonValue stage = config.value(QLatin1String("stageId"));
        if (!rank.isDouble() || !stage.isDouble()) {
            diagnostics.append({ Severity::Warning, path, -1, -1, trCluster("No config.rankId or config.stageId") });
            continue;
        }
        stages[rank.toInt()] = stage.toInt() + 1;
    }
    return stages;
}

void readProfilerInfos(const QStringList& paths, Inputs& inputs, Diagnostics& diagnostics)
{
    for (const QString& path : paths) {
        const auto doc = readJson(path, diagnostics);
        if (!doc)
            continue;
        const QJsonObject o = doc->object();
        inputs.worldSize = std::max(inputs.worldSize, o.value(QLatin1String("rank_size")).toInt(0));
        inputs.stageCount = std::max(inputs.stageCount, o.value(QLatin1String("stage_num")).toInt(0));
        const QString mode = o.value(QLatin1String("parallel_mode")).toString();
        if (inputs.parallelMode.isEmpty() && !mode.isEmpty())
            inputs.parallelMode = mode;
    }
}

} // namespace

bool MindSporeClusterReader::containsClusterFiles(const QString& folder)
{
    const Inputs inputs = findInputs({ folder });
    for (const auto& [rank, files] : inputs.ranks) {
        if (!files.stepTrace.isEmpty() || !files.clusterAnalyse.isEmpty() || !files.hccl.isEmpty()
            || !files.stepTraceTime.isEmpty() || !files.communicationMatrix.isEmpty())
            return true;
    }
    return !inputs.clusterStepTraceTimes.isEmpty();
}

Cluster MindSporeClusterReader::read(const QStringList& paths, const ImportControl& control)
{
    Cluster cluster;
    cluster.origin = ClusterOrigin::MindSpore;
    Inputs inputs = findInputs(paths);
    readProfilerInfos(inputs.profilerInfos, inputs, cluster.diagnostics);
    const std::map<int, int> strategyStages = readStrategies(inputs.strategies, cluster.diagnostics);

    std::map<std::tuple<int, int, QString>, std::vector<ClusterLink>> links;
    int done = 0;
    for (const auto& [rankId, files] : inputs.ranks) {
        if (control.canceled())
            break;
        if (files.stepTrace.isEmpty() && files.clusterAnalyse.isEmpty() && files.hccl.isEmpty() && files.flops.isEmpty()
            && files.stepTraceTime.isEmpty() && files.communicationMatrix.isEmpty())
            continue;
        RankFigures rank;
        rank.rank = rankId;
        rank.path = files.folder;
        rank.device = QCoreApplication::translate("runlens::cluster", "Device %1").arg(files.deviceId);
        if (!files.stepTrace.isEmpty())
            readStepTrace(files.stepTrace, rank, cluster.diagnostics);
        if (!files.clusterAnalyse.isEmpty())
            readClusterAnalyse(files.clusterAnalyse, rank, cluster.diagnostics);
        if (files.stepTrace.isEmpty() && files.clusterAnalyse.isEmpty() && !files.stepTraceTime.isEmpty()) {
            readStepTraceTime(files.stepTraceTime, rank, cluster.diagnostics);
            averageSteps(rank);
        }
        if (!files.flops.isEmpty())
            readFlops(files.flops, rank, cluster.diagnostics);
        if (!files.hccl.isEmpty())
            readHccl(files.hccl, links, cluster.diagnostics);
        else if (!files.communicationMatrix.isEmpty())
            readCommunicationMatrix(files.communicationMatrix, links, cluster.diagnostics);
        if (auto it = strategyStages.find(rankId); it != strategyStages.end())
            rank.stage = it->second;
        std::sort(rank.steps.begin(), rank.steps.end(),
                  [](const RankStep& a, const RankStep& b) { return a.step < b.step; });
        cluster.ranks.push_back(std::move(rank));
        control.report(int(1000 * ++done / std::max<std::size_t>(1, inputs.ranks.size())));
    }

    // msprof-analyze's cluster table stands in for ranks that have no files of their own.
    std::map<int, RankFigures> fromClusterTable;
    for (const QString& path : std::as_const(inputs.clusterStepTraceTimes))
        readClusterStepTraceTime(path, fromClusterTable, cluster.diagnostics);
    for (auto& [rankId, rank] : fromClusterTable) {
        const bool known = std::any_of(cluster.ranks.begin(), cluster.ranks.end(),
                                       [id = rankId](const RankFigures& r) { return r.rank == id; });
        if (known)
            continue;
        std::sort(rank.steps.begin(), rank.steps.end(),
                  [](const RankStep& a, const RankStep& b) { return a.step < b.step; });
        averageSteps(rank);
        rank.device = QCoreApplication::translate("runlens::cluster", "Device %1").arg(rankId);
        if (auto it = strategyStages.find(rankId); it != strategyStages.end())
            rank.stage = it->second;
        cluster.ranks.push_back(std::move(rank));
    }
    std::sort(cluster.ranks.begin(), cluster.ranks.end(),
              [](const RankFigures& a, const RankFigures& b) { return a.rank < b.rank; });
    for (const QString& path : std::as_const(inputs.unranked))
        cluster.diagnostics.append(
            { Severity::Warning, path, -1, -1,
              trCluster("Which rank wrote this file is unknown (no profiler_info_N.json next to "
                        "ASCEND_PROFILER_OUTPUT and no rank_N folder); it is left out of the cluster") });

    // A link reported by both of its ends: the mean of the two.
    for (const auto& [key, list] : links)
        cluster.links.push_back(meanLink(list));

    cluster.parallelMode = inputs.parallelMode;
    cluster.stageCount = inputs.stageCount;
    cluster.worldSize = std::max(inputs.worldSize, int(cluster.ranks.size()));
    // Without a strategy file, MindInsight's rule: ranks split evenly over the stages, numbered from 1.
    if (cluster.parallelMode == QLatin1String("pipeline-parallel") && cluster.stageCount > 1) {
        const double perStage = double(cluster.worldSize) / cluster.stageCount;
        for (RankFigures& r : cluster.ranks) {
            if (r.stage < 0)
                r.stage = int(r.rank / perStage) + 1;
        }
    }

    // Ranks are expected to be contiguous; a gap usually means a rank's files were not copied.
    if (!cluster.ranks.empty() && !paths.isEmpty()) {
        QList<int> missing;
        const int top = std::max(cluster.worldSize, cluster.ranks.back().rank + 1);
        for (int r = 0; r < top && missing.size() < 16; ++r) {
            const bool present = std::any_of(cluster.ranks.begin(), cluster.ranks.end(),
                                             [r](const RankFigures& f) { return f.rank == r; });
            if (!present)
                missing << r;
        }
        if (!missing.isEmpty() && cluster.worldSize > int(cluster.ranks.size())) {
            QStringList names;
            for (int r : missing)
                names << QString::number(r);
            cluster.diagnostics.append(
                { Severity::Warning, paths.front(), -1, -1,
                  trCluster("No profiler files for rank(s) %1 of %2: the cluster view shows the others")
                      .arg(names.join(QStringLiteral(", ")))
                      .arg(cluster.worldSize) });
        }
    }
    cluster.analyse();
    return cluster;
}

} // namespace runlens::cluster
