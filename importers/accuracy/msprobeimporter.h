#pragma once

#include "importers/core/artifactimporter.h"

#include <QString>

namespace runlens::importers::accuracy {

/// Reads the msprobe dump whose dump.json is the artifact (with construct.json, stack.json and the
/// dump_tensor_data/ listing beside it), whole, in one poll.
class MsprobeImporter final : public ArtifactImporter
{
public:
    explicit MsprobeImporter(QString path);
    ImportUpdate poll(const ImportControl& control) override;

private:
    QString m_path;
};

} // namespace runlens::importers::accuracy
