#pragma once

#include "importers/core/artifactimporter.h"

#include <QString>

namespace runlens::importers::cluster {

/// Reads one `.rldigest` file in one poll: the digest, or Failed with a diagnostic naming the file (a digest
/// from a newer RunLens says so).
class RankDigestImporter final : public ArtifactImporter
{
public:
    explicit RankDigestImporter(QString path);
    ImportUpdate poll(const ImportControl& control) override;

private:
    QString m_path;
};

} // namespace runlens::importers::cluster
