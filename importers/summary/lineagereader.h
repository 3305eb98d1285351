#pragma once

#include "importers/core/artifactimporter.h"
#include "models/summary/lineage.h"

#include <QString>

#include <memory>

namespace runlens::importers::summary {

/// Reads a MindSpore lineage file (`*.summary.<ts>*_lineage`: TFRecord-framed LineageEvent records)
/// resumably, like the event file reader: each poll continues after the last complete record. Of each kind
/// of record (training, evaluation, dataset graph, user defined info) the latest in the file wins, as in
/// MindInsight. Both CRCs are verified: a bad length CRC ends the file, a bad data CRC or an undecodable
/// payload skips that record with a warning. A poll that changed anything delivers the whole RunLineage.
class LineageReader final : public ArtifactImporter
{
public:
    explicit LineageReader(QString path);
    ~LineageReader() override;

    ImportUpdate poll(const ImportControl& control) override;

    /// Everything read so far.
    const models::summary::RunLineage& lineage() const;
    qint64 offset() const; ///< byte offset after the last complete record

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace runlens::importers::summary
