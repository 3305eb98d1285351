#include "importers/pipeline/pipelinereader.h"

#include "importers/pipeline/pipelinefiles.h"
#include "models/pipeline/pipelineanalysis.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

namespace runlens::importers::pipeline {

namespace {

// These files are small (kilobytes to a few megabytes); anything far larger is not what the name says.
constexpr qint64 kMaxFileBytes = qint64(256) * 1024 * 1024;

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::pipeline)
};

/// The name patterns of the pipeline files; `%1` is the rank.
struct NamePattern
{
    const char* pattern;
    QString PipelineFiles::*member;
};

const NamePattern kPatterns[] = {
    { "minddata_pipeline_raw_%1.csv", &PipelineFiles::pipelineRaw },
    { "pipeline_profiling_%1.json", &PipelineFiles::pipelineProfiling },
    { "device_queue_profiling_%1.txt", &PipelineFiles::hostQueue },
    { "dataset_iterator_profiling_%1.txt", &PipelineFiles::hostQueue },
    { "minddata_aicpu_%1.txt", &PipelineFiles::deviceQueue },
    { "minddata_getnext_profiling_%1.txt", &PipelineFiles::deviceQueue },
    { "minddata_cpu_utilization_%1.json", &PipelineFiles::cpuUtilization },
    { "minddata_pipeline_summary_%1.json", &PipelineFiles::summaryJson },
    { "minddata_pipeline_summary_%1.csv", &PipelineFiles::summaryCsv },
};

std::optional<QByteArray> readWhole(const QString& path, models::Diagnostics& diagnostics)
{
    QFile file(path);
    models::Diagnostic d;
    d.severity = models::Severity::Error;
    d.file = path;
    if (!file.open(QIODevice::ReadOnly)) {
        d.message = Text::tr("Cannot open the file: %1").arg(file.errorString());
        diagnostics << d;
        return std::nullopt;
    }
    if (file.size() > kMaxFileBytes) {
        d.message = Text::tr("The file is %1 MB, more than a data pipeline file can be; it is skipped.")
                        .arg(file.size() / (1024 * 1024));
        diagnostics << d;
        return std::nullopt;
    }
    QByteArray data = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        d.message = Text::tr("Cannot read the file: %1").arg(file.errorString());
        diagnostics << d;
        return std::nullopt;
    }
    return data;
}

models::pipeline::PipelineOp* findOp(std::vector<models::pipeline::PipelineOp>& ops, int id)
{
    for (auto& op : ops) {
        if (op.id == id)
            return &op;
    }
    return nullptr;
}

/// Makes parent and children lists agree, whichever of them a file gave.
void linkOps(std::vector<models::pipeline::PipelineOp>& ops)
{
    for (auto& op : ops) {
        for (int childId : op.children) {
            models::pipeline::PipelineOp* child = findOp(ops, childId);
            if (child && child->parent < 0 && child->id != op.id)
                child->parent = op.id;
        }
    }
    for (auto& op : ops) {
        models::pipeline::PipelineOp* parent = op.parent >= 0 ? findOp(ops, op.parent) : nullptr;
        if (parent && std::find(parent->children.begin(), parent->children.end(), op.id) == parent->children.end())
            parent->children.push_back(op.id);
    }
}

bool sameStructure(const std::vector<models::pipeline::PipelineOp>& a,
                   const std::vector<models::pipeline::PipelineOp>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::set<int> ca(a[i].children.begin(), a[i].children.end());
        const std::set<int> cb(b[i].children.begin(), b[i].children.end());
        if (a[i].id != b[i].id || a[i].displayType() != b[i].displayType() || ca != cb)
            return false;
    }
    return true;
}

} // namespace

bool PipelineFiles::any() const
{
    return !pipelineRaw.isEmpty() || !pipelineProfiling.isEmpty() || !hostQueue.isEmpty() || !deviceQueue.isEmpty()
        || !cpuUtilization.isEmpty() || !summaryJson.isEmpty() || !summaryCsv.isEmpty();
}

QStringList pipelineSearchFolders(const QString& folder)
{
    QStringList folders;
    const QDir dir(folder);
    if (!dir.exists())
        return folders;
    folders << dir.absolutePath();
    for (const char* sub : { "ASCEND_PROFILER_OUTPUT", "FRAMEWORK", "profiler" }) {
        const QString path = dir.absoluteFilePath(QLatin1String(sub));
        if (QFileInfo(path).isDir())
            folders << path;
    }
    return folders;
}

PipelineFiles findPipelineFiles(const QString& folder, int rank)
{
    PipelineFiles files;
    const QStringList folders = pipelineSearchFolders(folder);
    for (const NamePattern& p : kPatterns) {
        QString& target = files.*p.member;
        if (!target.isEmpty())
            continue;
        const QString name = QString::fromLatin1(p.pattern).arg(rank);
        for (const QString& dir : folders) {
            const QString path = QDir(dir).filePath(name);
            if (QFileInfo(path).isFile()) {
                target = path;
                if (p.member == &PipelineFiles::hostQueue)
                    files.hostQueueIsIterator = name.startsWith(QLatin1String("dataset_iterator"));
                if (p.member == &PipelineFiles::deviceQueue)
                    files.deviceQueueIsGpu = name.startsWith(QLatin1String("minddata_getnext"));
                break;
            }
        }
    }
    return files;
}

std::vector<int> pipelineRanks(const QString& folder)
{
    static const QRegularExpression pattern(
        QStringLiteral("^(?:minddata_pipeline_raw|pipeline_profiling|device_queue_profiling|dataset_iterator_profiling"
                       "|minddata_aicpu|minddata_getnext_profiling|minddata_cpu_utilization|minddata_pipeline_summary)"
                       "_(\\d{1,6})\\.(?:csv|json|txt)$"));
    std::set<int> ranks;
    for (const QString& dir : pipelineSearchFolders(folder)) {
        for (const QString& name : QDir(dir).entryList(QDir::Files)) {
            const QRegularExpressionMatch match = pattern.match(name);
            if (match.hasMatch())
                ranks.insert(match.captured(1).toInt());
        }
    }
    return { ranks.begin(), ranks.end() };
}

PipelineReadResult readDataPipeline(const QString& folder, int rank, const ImportControl& control)
{
    PipelineReadResult result;
    const PipelineFiles files = findPipelineFiles(folder, rank);
    if (!files.any())
        return result;

    auto pipeline = std::make_shared<models::pipeline::DataPipeline>();
    pipeline->rank = rank;
    models::Diagnostics& diagnostics = result.diagnostics;
    int step = 0;
    constexpr int kSteps = 7;
    // Each file: read, parse, remember the path when anything came of it.
    auto load = [&](const QString& path, auto&& parse) {
        control.report(1000 * step++ / kSteps);
        if (path.isEmpty() || control.canceled())
            return;
        const auto data = readWhole(path, diagnostics);
        if (data && parse(QByteArrayView(*data)))
            pipeline->paths << path;
    };

    int interval = -1;
    load(files.pipelineRaw, [&](QByteArrayView data) {
        return readPipelineRawCsv(data, files.pipelineRaw, pipeline->ops, interval, diagnostics);
    });
    pipeline->samplingIntervalMs = interval;

    load(files.pipelineProfiling, [&](QByteArrayView data) {
        std::vector<models::pipeline::PipelineOp> ops;
        int jsonInterval = -1;
        if (!readPipelineProfilingJson(data, files.pipelineProfiling, ops, jsonInterval, diagnostics))
            return false;
        if (pipeline->samplingIntervalMs < 0)
            pipeline->samplingIntervalMs = jsonInterval;
        if (pipeline->ops.empty()) {
            pipeline->ops = std::move(ops);
            return true;
        }
        if (!sameStructure(pipeline->ops, ops)) {
            models::Diagnostic d;
            d.severity = models::Severity::Info;
            d.file = files.pipelineProfiling;
            d.message = Text::tr("Describes a different pipeline than %1; the ops of %1 are shown.")
                            .arg(QFileInfo(files.pipelineRaw).fileName());
            diagnostics << d;
        }
        // The JSON has what the CSV leaves out: throughput, and queue samples of older CSVs.
        for (const models::pipeline::PipelineOp& j : ops) {
            models::pipeline::PipelineOp* op = findOp(pipeline->ops, j.id);
            if (!op || op->displayType() != j.displayType())
                continue;
            if (op->queueSizes.empty() && !j.queueSizes.empty()) {
                op->queueSizes = j.queueSizes;
                if (op->queueCapacity < 0)
                    op->queueCapacity = j.queueCapacity;
            }
            op->throughput = j.throughput;
            op->averageThroughput = models::pipeline::kUnknown;
            completeQueueFigures(*op);
        }
        return true;
    });

    auto loadSummary = [&](const QString& path, bool json) {
        load(path, [&](QByteArrayView data) {
            std::vector<models::pipeline::PipelineOp> ops;
            const bool ok = json ? readPipelineSummaryJson(data, path, ops, pipeline->summaryWarnings,
                                                           pipeline->summarySuggestions, diagnostics)
                                 : readPipelineSummaryCsv(data, path, ops, pipeline->summaryWarnings,
                                                          pipeline->summarySuggestions, diagnostics);
            if (pipeline->ops.empty()) {
                pipeline->ops = std::move(ops);
            } else {
                for (const models::pipeline::PipelineOp& s : ops) {
                    models::pipeline::PipelineOp* op = findOp(pipeline->ops, s.id);
                    if (op && std::isnan(op->cpuPercent))
                        op->cpuPercent = s.cpuPercent;
                }
            }
            return ok;
        });
    };
    // The CSV form repeats the JSON; it is read only when the JSON is missing.
    if (!files.summaryJson.isEmpty())
        loadSummary(files.summaryJson, true);
    else
        loadSummary(files.summaryCsv, false);

    load(files.cpuUtilization, [&](QByteArrayView data) {
        return readCpuUtilizationJson(data, files.cpuUtilization, pipeline->cpu, diagnostics);
    });
    load(files.hostQueue, [&](QByteArrayView data) {
        pipeline->hostQueue.iterator = files.hostQueueIsIterator;
        return readHostQueueText(data, files.hostQueue, pipeline->hostQueue, diagnostics);
    });
    load(files.deviceQueue, [&](QByteArrayView data) {
        return readDeviceQueueText(data, files.deviceQueue, files.deviceQueueIsGpu, pipeline->deviceQueue, diagnostics);
    });

    if (control.canceled()) {
        models::Diagnostic d;
        d.severity = models::Severity::Info;
        d.file = folder;
        d.message = Text::tr("Reading the data pipeline of rank %1 was cancelled; what was read is shown.").arg(rank);
        diagnostics << d;
    }

    linkOps(pipeline->ops);
    for (auto& op : pipeline->ops) {
        if (const models::pipeline::OpCpuUsage* usage = pipeline->cpu.op(op.id)) {
            const double percent = usage->averagePercent();
            if (!std::isnan(percent))
                op.cpuPercent = percent;
        }
    }
    models::pipeline::analysePipeline(*pipeline);
    control.report(1000);
    if (!pipeline->paths.isEmpty())
        result.pipeline = std::move(pipeline);
    return result;
}

std::vector<PipelineReadResult> readDataPipelines(const QString& folder, const ImportControl& control)
{
    std::vector<PipelineReadResult> results;
    const std::vector<int> ranks = pipelineRanks(folder);
    for (std::size_t i = 0; i < ranks.size() && !control.canceled(); ++i) {
        ImportControl inner;
        inner.cancel = control.cancel;
        if (control.progress) {
            inner.progress = [&control, i, n = ranks.size()](int permille) {
                control.report(int((1000 * i + std::size_t(permille)) / n));
            };
        }
        results.push_back(readDataPipeline(folder, ranks[i], inner));
    }
    return results;
}

} // namespace runlens::importers::pipeline
