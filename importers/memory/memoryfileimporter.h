#pragma once

#include "importers/core/artifactimporter.h"

#include <QString>

namespace runlens::importers::memory {

/// Reads a file that holds memory data only: a torch memory timeline, a CUDA memory snapshot, or one of
/// MindSpore's memory files (usage summary and details, 2.x memory records and operator memory). Read
/// whole in one poll.
class MemoryFileImporter final : public ArtifactImporter
{
public:
    MemoryFileImporter(QString path, models::ArtifactKind kind);
    ImportUpdate poll(const ImportControl& control) override;

private:
    QString m_path;
    models::ArtifactKind m_kind;
};

} // namespace runlens::importers::memory
