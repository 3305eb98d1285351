#include "importers/cluster/mindsporeclusterparts.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace runlens::importers::cluster::mindspore {

namespace {

constexpr int kMaxDepth = 4;
constexpr int kMaxEntries = 20000;
constexpr qint64 kMaxJsonBytes = 64 * 1024 * 1024;

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

} // namespace

QString trCluster(const char* text)
{
    return QCoreApplication::translate("runlens::cluster", text);
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

std::optional<QJsonDocument> readJson(const QString& path, models::Diagnostics& diagnostics)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        diagnostics.append(
            { models::Severity::Error, path, -1, -1, trCluster("Cannot open the file: %1").arg(file.errorString()) });
        return std::nullopt;
    }
    if (file.size() > kMaxJsonBytes) {
        diagnostics.append({ models::Severity::Error, path, -1, -1,
                             trCluster("The file is larger than %1 MB; it is not read").arg(kMaxJsonBytes >> 20) });
        return std::nullopt;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError) {
        diagnostics.append({ models::Severity::Error, path, qint64(error.offset), -1,
                             trCluster("Not valid JSON: %1").arg(error.errorString()) });
        return std::nullopt;
    }
    return doc;
}

std::map<int, int> readStrategies(const QStringList& paths, models::Diagnostics& diagnostics)
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
            diagnostics.append(
                { models::Severity::Warning, path, -1, -1, trCluster("No config.rankId or config.stageId") });
            continue;
        }
        stages[rank.toInt()] = stage.toInt() + 1;
    }
    return stages;
}

void readProfilerInfos(const QStringList& paths, Inputs& inputs, models::Diagnostics& diagnostics)
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

} // namespace runlens::importers::cluster::mindspore
