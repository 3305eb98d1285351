#pragma once

#include "importers/core/artifactimporter.h"

#include <QString>
#include <QStringList>

namespace runlens::importers {

/// Reads the MindSpore profiler output of one run in one go: every profiler table and JSON document of the
/// run (except the memory files, read on their own) gives, per rank, the operators and steps and the data
/// pipeline, and across the ranks the cluster figures. The first profiler artifact of a run owns this
/// importer; the others are read with it (see ProfilerMemberImporter).
class ProfilerImporter final : public ArtifactImporter
{
public:
    explicit ProfilerImporter(QString root);
    void addPath(const QString& path) { m_paths << path; }
    const QStringList& paths() const { return m_paths; }
    ImportUpdate poll(const ImportControl& control) override;

private:
    QString m_root;
    QStringList m_paths;
};

/// A profiler artifact read by its run's ProfilerImporter: nothing of its own to read.
class ProfilerMemberImporter final : public ArtifactImporter
{
public:
    ImportUpdate poll(const ImportControl&) override { return {}; }
};

/// Whether an artifact is read by a run's ProfilerImporter: a MindSpore profiler table or JSON document
/// other than the memory files.
bool readWithProfilerFolder(const models::Artifact& artifact);

} // namespace runlens::importers
