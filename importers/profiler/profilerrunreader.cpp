#include "importers/profiler/profilerrunreader.h"

#include "importers/profiler/operatorreader.h"
#include "importers/profiler/stepreader.h"

#include <QJsonArray>

namespace runlens::importers::profiler {

namespace {

std::shared_ptr<const models::profiler::ProfilerRunData> readRanks(const QString& root,
                                                                   const std::vector<ProfilerRank>& ranks,
                                                                   models::Diagnostics folderDiagnostics,
                                                                   const std::function<bool()>& cancelled)
{
    auto run = std::make_shared<models::profiler::ProfilerRunData>();
    run->root = root;
    for (const ProfilerRank& rank : ranks) {
        if (cancelled && cancelled())
            break;
        models::profiler::ProfilerRankData data = readProfilerRank(rank);
        // Folder-level problems (unreadable profiler_info) go with the first rank that is shown.
        if (!folderDiagnostics.isEmpty()) {
            data.diagnostics = folderDiagnostics + data.diagnostics;
            folderDiagnostics.clear();
        }
        run->ranks.push_back(std::move(data));
    }
    return run;
}

} // namespace

models::profiler::ProfilerRankData readProfilerRank(const ProfilerRank& rank)
{
    models::profiler::ProfilerRankData data;
    data.rank = rank.rank;
    data.deviceType = rank.deviceType;
    data.msVersion = rank.version;
    data.layout = rank.layout;
    data.folder = rank.folder;
    data.rankSize = rank.rankSize;
    data.parallelMode = rank.parallelMode;
    data.operators = readOperatorTable(rank, data.diagnostics);
    data.steps = readRankSteps(rank, data.diagnostics);
    return data;
}

std::shared_ptr<const models::profiler::ProfilerRunData>
readProfilerFiles(const QString& root, const QStringList& paths, const std::function<bool()>& cancelled)
{
    models::Diagnostics diagnostics;
    const std::vector<ProfilerRank> ranks = groupProfilerFiles(paths, &diagnostics);
    return readRanks(root, ranks, diagnostics, cancelled);
}

std::shared_ptr<const models::profiler::ProfilerRunData> readProfilerDirectory(const QString& directory,
                                                                               const std::function<bool()>& cancelled)
{
    models::Diagnostics diagnostics;
    const std::vector<ProfilerRank> ranks = findProfilerRanks(directory, &diagnostics);
    return readRanks(directory, ranks, diagnostics, cancelled);
}

QJsonObject rankInfoJson(const models::profiler::ProfilerRankData& rank)
{
    constexpr int kTopTypes = 5;
    QJsonObject json;
    json.insert(QStringLiteral("rank"), rank.rank >= 0 ? QJsonValue(rank.rank) : QJsonValue());
    json.insert(QStringLiteral("device"), models::profiler::deviceTypeId(rank.deviceType));
    json.insert(QStringLiteral("ms_version"), rank.msVersion);
    json.insert(QStringLiteral("layout"), rank.layout);
    if (!rank.steps.isEmpty()) {
        QJsonObject steps;
        steps.insert(QStringLiteral("count"), qint64(rank.steps.steps.size()));
        steps.insert(QStringLiteral("average_us"), rank.steps.average.totalUs);
        if (rank.steps.fileAverage)
            steps.insert(QStringLiteral("file_average_us"), rank.steps.fileAverage->totalUs);
        QJsonObject categories;
        for (int c = 0; c < rank.steps.categoryCount(); ++c)
            categories.insert(rank.steps.categoryIds.at(c), rank.steps.average.valuesUs[std::size_t(c)]);
        steps.insert(QStringLiteral("categories"), categories);
        json.insert(QStringLiteral("steps"), steps);
    }
    if (!rank.operators.isEmpty()) {
        QJsonObject operators;
        operators.insert(QStringLiteral("types"), qint64(rank.operators.types.size()));
        operators.insert(QStringLiteral("ops"), qint64(rank.operators.ops.size()));
        operators.insert(QStringLiteral("total_us"), rank.operators.totalUs);
        QJsonArray top;
        for (const models::profiler::OpTypeStats& type : rank.operators.types) {
            if (top.size() >= kTopTypes)
                break;
            top.append(QJsonObject { { QStringLiteral("type"), type.type },
                                     { QStringLiteral("core"), type.core },
                                     { QStringLiteral("calls"), type.calls },
                                     { QStringLiteral("total_us"), type.totalUs },
                                     { QStringLiteral("share"), type.share } });
        }
        operators.insert(QStringLiteral("top"), top);
        json.insert(QStringLiteral("operators"), operators);
    }
    return json;
}

} // namespace runlens::importers::profiler
