#pragma once

#include "importers/core/artifactimporter.h"

#include "models/core/diagnostic.h"
#include "models/embeddings/embeddingset.h"

#include <QByteArray>
#include <QSize>
#include <QString>

#include <vector>

namespace runlens::importers::embeddings {

/// One `embeddings { ... }` entry of a TensorBoard `projector_config.pbtxt` (a text-format
/// ProjectorConfig). Paths are as written: relative ones are relative to the config's folder.
struct ProjectorEmbeddingConfig
{
    QString tensorName;
    QString tensorPath;
    QString metadataPath;
    QString spritePath;
    QSize spriteImageSize;
    std::vector<qint64> tensorShape;
};

struct ProjectorConfig
{
    QString modelCheckpointPath;
    QString modelCheckpointDir;
    std::vector<ProjectorEmbeddingConfig> embeddings;
};

/// How much of a projector folder is read: more rows or dimensions are cut off with a warning naming
/// the file, so a huge TSV cannot exhaust memory.
struct ProjectorLimits
{
    int maxRows = 500000;
    int maxDims = 4096;
    qint64 maxValues = 100'000'000; ///< rows * dims (400 MB of floats)
    int maxEmbeddings = 256;
};

/// Parses the text of a projector config; problems become diagnostics on `path` with their line, and
/// what was understood before them is kept.
ProjectorConfig parseProjectorConfig(const QByteArray& text, const QString& path, models::Diagnostics& diagnostics);

/// Parses a `tensors.tsv` (one point per line, tab-separated floats) into `set` (rows, dims, values).
/// A value that is not a finite number reads as 0 with a warning naming the line; a line with a
/// different number of values ends the table there (the rows before it are kept).
void parseTensorsTsv(const QByteArray& text, const QString& path, const ProjectorLimits& limits,
                     models::embeddings::EmbeddingSet& set, models::Diagnostics& diagnostics);

/// Parses a `metadata.tsv` for `set`: a single column has no header; several columns have a header row
/// (TensorBoard's rule). Rows beyond the points are dropped and missing rows read as empty, with a warning.
void parseMetadataTsv(const QByteArray& text, const QString& path, models::embeddings::EmbeddingSet& set,
                      models::Diagnostics& diagnostics);

struct ProjectorReadResult
{
    std::vector<models::embeddings::EmbeddingSetPtr> sets;
    models::Diagnostics diagnostics;
    bool canceled = false;
};

/// Reads the projector folder of `configPath` (`projector_config.pbtxt`) and the TSV files it names; an
/// embedding with a `tensor_name` and no `tensor_path` is read from the config's TensorFlow checkpoint
/// (findProjectorCheckpoint, CheckpointTensorReader).
ProjectorReadResult readProjectorFolder(const QString& configPath, const ProjectorLimits& limits = {},
                                        const ImportControl& control = {});

/// The importer of ArtifactKind::EmbeddingProjector: reads the folder once.
class ProjectorImporter final : public ArtifactImporter
{
public:
    explicit ProjectorImporter(QString configPath);
    ImportUpdate poll(const ImportControl& control) override;

private:
    QString m_path;
};

} // namespace runlens::importers::embeddings
