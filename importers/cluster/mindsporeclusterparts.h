#pragma once

// The parts of MindSporeClusterReader, one file each: finding a job's files (mindsporeclusterinputs.cpp),
// reading per-rank step tables (mindsporeclustersteps.cpp) and communication links (mindsporeclusterlinks.cpp).
// Internal to importers/cluster.

#include "models/cluster/cluster.h"
#include "models/core/diagnostic.h"

#include <QJsonDocument>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace runlens::importers::profiler {
class CsvTable;
}

namespace runlens::importers::cluster::mindspore {

QString trCluster(const char* text);

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

/// The cluster files under `paths` (folders are walked a few levels deep), grouped by rank.
Inputs findInputs(const QStringList& paths);
/// A JSON file of at most 64 MB; nothing, with a diagnostic, when it cannot be read.
std::optional<QJsonDocument> readJson(const QString& path, models::Diagnostics& diagnostics);
/// World size, stage count and parallel mode from profiler_info files.
void readProfilerInfos(const QStringList& paths, Inputs& inputs, models::Diagnostics& diagnostics);
/// rank -> stage (1-based) from parallel_strategy files.
std::map<int, int> readStrategies(const QStringList& paths, models::Diagnostics& diagnostics);

/// Whether `row` is the "-" row MindSpore appends with the average of the steps.
bool isAverageRow(const profiler::CsvTable& table, int row, int stepColumn);
void readStepTrace(const QString& path, models::cluster::RankFigures& rank, models::Diagnostics& diagnostics);
void readClusterAnalyse(const QString& path, models::cluster::RankFigures& rank, models::Diagnostics& diagnostics);
void readStepTraceTime(const QString& path, models::cluster::RankFigures& rank, models::Diagnostics& diagnostics);
void readClusterStepTraceTime(const QString& path, std::map<int, models::cluster::RankFigures>& ranks,
                              models::Diagnostics& diagnostics);
/// Fills the rank's averages from its steps where the files gave none.
void averageSteps(models::cluster::RankFigures& rank);
void readFlops(const QString& path, models::cluster::RankFigures& rank, models::Diagnostics& diagnostics);

using LinkKey = std::tuple<int, int, QString>; ///< source rank, destination rank, transport type
void readCommunicationMatrix(const QString& path, std::map<LinkKey, std::vector<models::cluster::ClusterLink>>& links,
                             models::Diagnostics& diagnostics);
void readHccl(const QString& path, std::map<LinkKey, std::vector<models::cluster::ClusterLink>>& links,
              models::Diagnostics& diagnostics);
/// One link from the same link's figures in several files or steps.
models::cluster::ClusterLink meanLink(const std::vector<models::cluster::ClusterLink>& list);

} // namespace runlens::importers::cluster::mindspore
