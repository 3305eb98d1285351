#include "importers/profiler/profilerfolder.h"

#include "importers/core/profilernames.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <set>

namespace runlens::importers::profiler {

namespace {

constexpr int kMaxDepth = 8;
constexpr qsizetype kMaxEntries = 100000;
constexpr qint64 kMaxInfoBytes = 4 * 1024 * 1024;

struct RolePattern
{
    const char* pattern;
    FileRole role;
    const char* id;
    bool needsProfilerFolder; ///< generic 2.x names only count inside a profiler folder
};

// Checked in order; the first full match wins. '#' is the rank/device id.
constexpr RolePattern kRolePatterns[] = {
    { "profiler_info_#.json", FileRole::ProfilerInfo, "profiler_info", false },
    { "profiler_metadata.json", FileRole::ProfilerMetadata, "profiler_metadata", true },
    { "aicore_intermediate_#_type.csv", FileRole::AicoreType, "aicore_type", false },
    { "aicore_intermediate_#_detail.csv", FileRole::AicoreDetail, "aicore_detail", false },
    { "framework_raw_#.csv", FileRole::FrameworkRaw, "framework_raw", false },
    { "aicpu_intermediate_#.csv", FileRole::AicpuIntermediate, "aicpu", false },
    { "gpu_op_type_info_#.csv", FileRole::GpuOpType, "gpu_op_type", false },
    { "gpu_op_detail_info_#.csv", FileRole::GpuOpDetail, "gpu_op_detail", false },
    { "gpu_activity_data_#.csv", FileRole::GpuActivity, "gpu_activity", false },
    { "cpu_op_type_info_#.csv", FileRole::CpuOpType, "cpu_op_type", false },
    { "cpu_op_detail_info_#.csv", FileRole::CpuOpDetail, "cpu_op_detail", false },
    { "flops_#.txt", FileRole::Flops, "flops", false },
    { "flops_summary_#.json", FileRole::FlopsSummary, "flops_summary", false },
    { "flops_scope_#.json", FileRole::FlopsScope, "flops_scope", false },
    { "step_trace_raw_#_detail_time.csv", FileRole::StepTraceRaw, "step_trace_raw", false },
    { "step_trace_point_info.json", FileRole::StepTracePointInfo, "step_trace_point_info", false },
    { "step_trace_point_info_#.json", FileRole::StepTracePointInfo, "step_trace_point_info", false },
    { "ascend_timeline_display_#.json", FileRole::TimelineDisplay, "timeline", false },
    { "gpu_timeline_display_#.json", FileRole::TimelineDisplay, "timeline", false },
    { "timeline_display_#.json", FileRole::TimelineDisplay, "timeline", false },
    { "trace_view.json", FileRole::TimelineDisplay, "timeline", true },
    { "msprof_*.json", FileRole::TimelineDisplay, "timeline", true },
    { "ascend_timeline_summary_#.json", FileRole::TimelineSummary, "timeline_summary", false },
    { "gpu_timeline_summary_#.json", FileRole::TimelineSummary, "timeline_summary", false },
    { "timeline_summary_#.json", FileRole::TimelineSummary, "timeline_summary", false },
    { "output_timeline_data_#.txt", FileRole::OutputTimelineData, "output_timeline_data", false },
    { "output_op_compute_time_#.txt", FileRole::OpComputeTime, "op_compute_time", false },
    { "output_op_compute_time_detail_#.txt", FileRole::OpComputeTime, "op_compute_time", false },
    { "min_cycle_counter_#.txt", FileRole::MinCycleCounter, "min_cycle_counter", false },
    { "minddata_pipeline_raw_#.csv", FileRole::MinddataPipelineRaw, "minddata_pipeline_raw", false },
    { "minddata_pipeline_summary_#.csv", FileRole::MinddataPipelineSummary, "minddata_pipeline_summary", false },
    { "minddata_pipeline_summary_#.json", FileRole::MinddataPipelineSummary, "minddata_pipeline_summary", false },
    { "pipeline_profiling_#.json", FileRole::PipelineProfiling, "pipeline_profiling", false },
    { "minddata_cpu_utilization_#.json", FileRole::MinddataCpuUtilization, "minddata_cpu_utilization", false },
    { "device_queue_profiling_#.txt", FileRole::DeviceQueue, "device_queue", false },
    { "dataset_iterator_profiling_#.txt", FileRole::DeviceQueue, "device_queue", false },
    { "minddata_aicpu_#.txt", FileRole::MinddataAicpu, "minddata_aicpu", false },
    { "minddata_getnext_profiling_#.txt", FileRole::MinddataAicpu, "minddata_aicpu", false },
    { "memory_usage_summary_#.json", FileRole::MemoryUsageSummary, "memory_usage_summary", false },
    { "memory_usage_details_#.json", FileRole::MemoryUsageDetails, "memory_usage_details", false },
    { "operator_memory_#.csv", FileRole::OperatorMemory, "operator_memory", false },
    { "operator_memory.csv", FileRole::OperatorMemory, "operator_memory", true },
    { "cpu_ms_memory_record_#.txt", FileRole::MemoryRecord, "memory_record", false },
    { "memory_record.csv", FileRole::MemoryRecord, "memory_record", true },
    { "hccl_raw_#.csv", FileRole::HcclRaw, "hccl_raw", false },
    { "ascend_cluster_analyse_*_#.csv", FileRole::ClusterAnalyse, "cluster_analyse", false },
    { "dynamic_shape_info_#.json", FileRole::DynamicShapeInfo, "dynamic_shape_info", false },
    { "parallel_strategy*.json", FileRole::ParallelStrategy, "parallel_strategy", false },
    { "kernel_details.csv", FileRole::KernelDetails, "kernel_details", true },
    { "op_statistic.csv", FileRole::OpStatistic, "op_statistic", true },
    { "step_trace_time.csv", FileRole::StepTraceTime, "step_trace_time", true },
    { "communication.json", FileRole::Communication, "communication", true },
    { "communication_matrix.json", FileRole::Communication, "communication", true },
    { "dataset.csv", FileRole::Dataset, "dataset", true },
    { "api_statistic.csv", FileRole::ApiStatistic, "api_statistic", true },
};

QString trFolder(const char* text)
{
    return QCoreApplication::translate("runlens::profiler", text);
}

struct Entry
{
    QString path;
    FileRole role = FileRole::Other;
    std::optional<int> rank;
};

struct Group
{
    QString folder;
    QString layout;
    std::vector<Entry> entries;
    QStringList cannFolders;
};

/// Where a file's group lives: the 2.x `*_ascend_ms` folder above it, else a `PROF_*` folder above it, else
/// its own folder. Empty when the file is not in a profiler layout and its name is generic.
void locate(const QString& path, QString& folder, QString& layout, QString& cannFolder)
{
    const QStringList parts = QDir::fromNativeSeparators(QFileInfo(path).absolutePath()).split(QLatin1Char('/'));
    QString prefix;
    QString ascendMs;
    QString prof;
    for (int i = 0; i < parts.size(); ++i) {
        prefix = i == 0 ? parts.at(0) : prefix + QLatin1Char('/') + parts.at(i);
        const QString lower = parts.at(i).toLower();
        if (lower.endsWith(QLatin1String("_ascend_ms")))
            ascendMs = prefix.isEmpty() ? QStringLiteral("/") : prefix;
        if (lower.startsWith(QLatin1String("prof_")) && prof.isEmpty())
            prof = prefix;
    }
    cannFolder = prof;
    if (!ascendMs.isEmpty()) {
        folder = ascendMs;
        layout = QStringLiteral("ascend_ms");
    } else if (!prof.isEmpty()) {
        folder = prof;
        layout = QStringLiteral("cann");
    } else {
        folder = QFileInfo(path).absolutePath();
        layout = QStringLiteral("mindinsight");
    }
}

QJsonObject readSmallJson(const QString& path, models::Diagnostics* diagnostics)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxInfoBytes) {
        if (diagnostics)
            diagnostics->append(
                { models::Severity::Warning, path, -1, -1, trFolder("Cannot read the profiler information") });
        return {};
    }
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (!document.isObject()) {
        if (diagnostics)
            diagnostics->append(
                { models::Severity::Warning, path, error.offset, -1,
                  trFolder("The profiler information is not a JSON object: %1").arg(error.errorString()) });
        return {};
    }
    return document.object();
}

QString jsonText(const QJsonValue& value)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toDouble());
    return {};
}

/// A version string anywhere at the top of a metadata object: keys like ms_version, mindspore_version, CANN...
QString findVersion(const QJsonObject& object, const QStringList& keys)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString key = it.key().toLower();
        for (const QString& wanted : keys) {
            if (key == wanted) {
                const QString text = jsonText(it.value());
                if (!text.isEmpty())
                    return text;
            }
        }
    }
    return {};
}

models::profiler::DeviceType detectDevice(const ProfilerRank& rank)
{
    // MindInsight's order: Ascend, then GPU, then CPU (CPU op files also appear beside device files).
    for (const QString& path : rank.filesOf(FileRole::TimelineDisplay)) {
        const QString name = QFileInfo(path).fileName().toLower();
        if (name.startsWith(QLatin1String("ascend_")) || name == QLatin1String("trace_view.json")
            || name.startsWith(QLatin1String("msprof")))
            return models::profiler::DeviceType::Ascend;
    }
    if (rank.layout != QLatin1String("mindinsight") || rank.has(FileRole::AicoreType)
        || rank.has(FileRole::AicoreDetail) || rank.has(FileRole::OpComputeTime) || rank.has(FileRole::FrameworkRaw)
        || rank.has(FileRole::KernelDetails) || rank.has(FileRole::AicpuIntermediate))
        return models::profiler::DeviceType::Ascend;
    for (const QString& path : rank.filesOf(FileRole::TimelineDisplay)) {
        if (QFileInfo(path).fileName().toLower().startsWith(QLatin1String("gpu_")))
            return models::profiler::DeviceType::Gpu;
    }
    if (rank.has(FileRole::GpuOpType) || rank.has(FileRole::GpuOpDetail) || rank.has(FileRole::GpuActivity))
        return models::profiler::DeviceType::Gpu;
    if (rank.has(FileRole::CpuOpType) || rank.has(FileRole::CpuOpDetail))
        return models::profiler::DeviceType::Cpu;
    return models::profiler::DeviceType::Unknown;
}

} // namespace

QString fileRoleId(FileRole role)
{
    for (const RolePattern& pattern : kRolePatterns) {
        if (pattern.role == role)
            return QString::fromLatin1(pattern.id);
    }
    return QStringLiteral("other");
}

QStringList ProfilerRank::filesOf(FileRole role) const
{
    const auto it = files.find(role);
    return it == files.end() ? QStringList() : it->second;
}

QString ProfilerRank::file(FileRole role) const
{
    const auto it = files.find(role);
    return it == files.end() || it->second.isEmpty() ? QString() : it->second.first();
}

FileRole profilerFileRole(const QString& fileName, bool inProfilerFolder, std::optional<int>& rank)
{
    const std::string lower = fileName.toLower().toStdString();
    for (const RolePattern& pattern : kRolePatterns) {
        if (pattern.needsProfilerFolder && !inProfilerFolder)
            continue;
        std::optional<int> number;
        if (sniff::globMatch(pattern.pattern, lower, number)) {
            // msprof_*.json carries device/model/iteration numbers, not a rank.
            rank = pattern.role == FileRole::TimelineDisplay
                    && fileName.startsWith(QLatin1String("msprof"), Qt::CaseInsensitive)
                ? std::nullopt
                : number;
            return pattern.role;
        }
    }
    rank.reset();
    return FileRole::Other;
}

std::vector<ProfilerRank> groupProfilerFiles(const QStringList& paths, models::Diagnostics* diagnostics)
{
    std::map<QString, Group> groups;
    for (const QString& rawPath : paths) {
        const QString path = QFileInfo(rawPath).absoluteFilePath();
        QString folder;
        QString layout;
        QString cann;
        locate(path, folder, layout, cann);
        const bool profilerFolder
            = layout != QLatin1String("mindinsight") || sniff::inProfilerFolder(folder.toLower().toStdString());
        Entry entry;
        entry.path = path;
        entry.role = profilerFileRole(QFileInfo(path).fileName(), profilerFolder, entry.rank);
        if (entry.role == FileRole::Other)
            continue;
        if (layout == QLatin1String("mindinsight") && !profilerFolder) {
            // Outside a profiler folder only names that are unmistakably the profiler's count, and a lone
            // step_trace_point_info.json does not make a folder.
            if (entry.role == FileRole::StepTracePointInfo || entry.role == FileRole::ParallelStrategy)
                continue;
        }
        Group& group = groups[folder];
        group.folder = folder;
        group.layout = layout;
        if (!cann.isEmpty() && !group.cannFolders.contains(cann))
            group.cannFolders.append(cann);
        // A CANN device_N folder tells the device when the name does not.
        if (!entry.rank && layout == QLatin1String("cann")) {
            for (const QString& part : QFileInfo(path).absolutePath().split(QLatin1Char('/'))) {
                if (part.startsWith(QLatin1String("device_"))) {
                    bool ok = false;
                    const int id = part.mid(7).toInt(&ok);
                    if (ok)
                        entry.rank = id;
                }
            }
        }
        group.entries.push_back(entry);
    }

    std::vector<ProfilerRank> result;
    for (auto& [folder, group] : groups) {
        std::set<int> ids;
        std::map<int, QJsonObject> infos;
        QJsonObject metadata;
        for (const Entry& entry : group.entries) {
            if (entry.rank && entry.role != FileRole::ParallelStrategy)
                ids.insert(*entry.rank);
            if (entry.role == FileRole::ProfilerInfo && entry.rank)
                infos[*entry.rank] = readSmallJson(entry.path, diagnostics);
            if (entry.role == FileRole::ProfilerMetadata)
                metadata = readSmallJson(entry.path, diagnostics);
        }
        // A 2.x folder holds one rank; its generic file names carry no id, profiler_info does.
        if (group.layout == QLatin1String("ascend_ms") && !infos.empty()) {
            const int infoRank = infos.begin()->second.value(QStringLiteral("rank_id")).toInt(infos.begin()->first);
            ids = { infoRank };
            for (Entry& entry : group.entries)
                entry.rank = infoRank;
        }
        if (ids.empty())
            ids.insert(-1);
        for (int id : ids) {
            ProfilerRank rank;
            rank.rank = id;
            rank.folder = group.folder;
            rank.layout = group.layout;
            rank.cannFolders = group.cannFolders;
            for (const Entry& entry : group.entries) {
                // Files without an id (step_trace_point_info.json, 2.x generic names) belong to every rank.
                if (!entry.rank || *entry.rank == id || ids.size() == 1)
                    rank.files[entry.role].append(entry.path);
            }
            for (auto& [role, list] : rank.files)
                list.sort();
            const auto info = infos.find(id);
            if (info != infos.end()) {
                const QJsonObject& object = info->second;
                rank.version = jsonText(object.value(QStringLiteral("ms_version")));
                rank.rankSize = object.value(QStringLiteral("rank_size")).toInt();
                rank.parallelMode = jsonText(object.value(QStringLiteral("parallel_mode")));
            }
            if (rank.version.isEmpty() && !metadata.isEmpty())
                rank.version
                    = findVersion(metadata, { QStringLiteral("ms_version"), QStringLiteral("mindspore_version") });
            rank.dynamicShape = rank.has(FileRole::DynamicShapeInfo);
            rank.deviceType = detectDevice(rank);
            result.push_back(std::move(rank));
        }
    }
    std::sort(result.begin(), result.end(), [](const ProfilerRank& a, const ProfilerRank& b) {
        return a.folder != b.folder ? a.folder < b.folder : a.rank < b.rank;
    });
    return result;
}

std::vector<ProfilerRank> findProfilerRanks(const QString& directory, models::Diagnostics* diagnostics)
{
    QStringList files;
    std::vector<std::pair<QString, int>> pending { { QFileInfo(directory).absoluteFilePath(), 0 } };
    std::set<QString> visited;
    qsizetype seen = 0;
    bool truncated = false;
    while (!pending.empty()) {
        const auto [dir, depth] = pending.back();
        pending.pop_back();
        const QString canonical = QFileInfo(dir).canonicalFilePath();
        if (canonical.isEmpty() || !visited.insert(canonical).second)
            continue;
        const QFileInfoList entries
            = QDir(dir).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
        for (const QFileInfo& info : entries) {
            if (++seen > kMaxEntries) {
                truncated = true;
                break;
            }
            if (info.isDir()) {
                if (!info.isSymLink() && depth < kMaxDepth)
                    pending.emplace_back(info.absoluteFilePath(), depth + 1);
            } else {
                files.append(info.absoluteFilePath());
            }
        }
        if (truncated)
            break;
    }
    if (truncated && diagnostics) {
        diagnostics->append(
            { models::Severity::Warning, directory, -1, -1,
              trFolder("The folder has more than %1 entries; only the first were looked at").arg(kMaxEntries) });
    }
    return groupProfilerFiles(files, diagnostics);
}

} // namespace runlens::importers::profiler
