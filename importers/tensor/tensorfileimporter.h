#pragma once

#include "importers/core/artifactimporter.h"
#include "models/core/artifactkind.h"

#include <QString>

namespace runlens::importers::tensor {

/// Reads a tensor file whole for `runlens info`: every tensor it holds with its type and whole-tensor
/// statistics (computed in parallel over the mapped data). The desktop leaves tensor files to the Tensor
/// inspector, which maps them when they are viewed.
class TensorFileImporter final : public ArtifactImporter
{
public:
    TensorFileImporter(QString path, models::ArtifactKind kind);
    ImportUpdate poll(const ImportControl& control) override;

private:
    QString m_path;
    models::ArtifactKind m_kind;
};

} // namespace runlens::importers::tensor
