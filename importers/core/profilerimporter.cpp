#include "importers/core/profilerimporter.h"

#include "importers/cluster/mindsporecluster.h"
#include "importers/memory/mindsporememory.h"
#include "importers/pipeline/pipelinereader.h"
#include "importers/profiler/profilerrunreader.h"
#include "models/core/profilerbundle.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSet>

namespace runlens::importers {

bool readWithProfilerFolder(const models::Artifact& artifact)
{
    return (artifact.kind == models::ArtifactKind::ProfilerCsv || artifact.kind == models::ArtifactKind::ProfilerJson)
        && !memory::isMindSporeMemoryFileName(QFileInfo(artifact.path).fileName());
}

ProfilerImporter::ProfilerImporter(QString root)
    : m_root(std::move(root))
{ }

ImportUpdate ProfilerImporter::poll(const ImportControl& control)
{
    ImportUpdate update;
    auto bundle = std::make_shared<models::ProfilerBundle>();
    const auto cancelled = [&control] { return control.canceled(); };
    bundle->ranks = profiler::readProfilerFiles(m_root, m_paths, cancelled);
    control.report(400);
    QStringList folders;
    QSet<QString> seen;
    if (bundle->ranks) {
        for (const models::profiler::ProfilerRankData& rank : bundle->ranks->ranks) {
            update.diagnostics += rank.diagnostics;
            if (control.canceled())
                break;
            pipeline::PipelineReadResult pipeline = pipeline::readDataPipeline(rank.folder, rank.rank, control);
            update.diagnostics += pipeline.diagnostics;
            if (pipeline.pipeline && !pipeline.pipeline->empty())
                bundle->pipelines.push_back(std::move(pipeline.pipeline));
            if (!seen.contains(rank.folder)) {
                seen.insert(rank.folder);
                folders << rank.folder;
            }
        }
    }
    control.report(700);
    if (!control.canceled() && bundle->ranks && bundle->ranks->ranks.size() > 1) {
        auto cluster
            = std::make_shared<models::cluster::Cluster>(cluster::MindSporeClusterReader::read(folders, control));
        update.diagnostics += cluster->diagnostics;
        if (cluster->ranks.size() > 1)
            bundle->cluster = std::move(cluster);
    }
    control.report(1000);
    if (control.canceled()) {
        update.status = models::ImportStatus::Canceled;
        return update;
    }
    bool problems = false;
    for (const models::Diagnostic& d : std::as_const(update.diagnostics))
        problems = problems || d.severity != models::Severity::Info;
    if (bundle->isEmpty() && !problems)
        update.diagnostics.append(
            { models::Severity::Error, m_root, -1, -1,
              QCoreApplication::translate("runlens::importers::ProfilerImporter",
                                          "No profiler data could be read from these files: the operator, step and "
                                          "timeline tables a profiler folder needs are missing.") });
    update.status = bundle->isEmpty() ? models::ImportStatus::Failed
        : problems                    ? models::ImportStatus::Partial
                                      : models::ImportStatus::Ok;
    update.recordsRead = bundle->ranks ? qint64(bundle->ranks->ranks.size()) : 0;
    update.profiler = std::move(bundle);
    return update;
}

} // namespace runlens::importers
