#pragma once

#include "importers/core/artifactimporter.h"

#include <QString>

namespace runlens::importers::graph {

/// Reads one graph file whole (graphs are written once) for the import session. Every poll reads the
/// file again, so a rewritten graph replaces the old one.
class GraphFileImporter final : public ArtifactImporter
{
public:
    GraphFileImporter(QString path, models::ArtifactKind kind);
    ImportUpdate poll(const ImportControl& control) override;

private:
    QString m_path;
    models::ArtifactKind m_kind;
};

} // namespace runlens::importers::graph
