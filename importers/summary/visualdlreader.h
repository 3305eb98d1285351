#pragma once

#include "importers/core/artifactimporter.h"
#include "importers/embeddings/projectorreader.h"
#include "models/summary/summarydata.h"

#include <QString>

#include <cstdint>
#include <memory>

namespace runlens::importers::summary {

/// Reads one VisualDL log (`vdlrecords.<time>.log`): records framed as an 8-byte little-endian length and
/// a `visualdl.Record` payload, without checksums or a version record. Resumable like EventFileReader:
/// each poll continues after the last complete record, and an incomplete last record is waited for
/// (ImportUpdate::mayGrow), not reported. Scalars become ImportUpdate::scalars (step = `id`, wall time =
/// `timestamp` in milliseconds converted to seconds). Histograms, images, audio, texts, PR and ROC curves go
/// through a
/// per-tag summary::Reservoir bounded by the SummaryLimits given at construction, and each poll hands over,
/// in ImportUpdate::summaries, the whole kept series of every tag that got a value in that poll (replace
/// semantics, see SummaryBatch). A value whose arrays do not fit together is skipped with a warning;
/// image and audio bytes are handed over undecoded. Embeddings (`add_embeddings`) become one
/// EmbeddingSet per tag, named by the tag and holding its latest value; each poll hands over the sets
/// that changed in ImportUpdate::embeddings and what `runlens info` says of every set of the file in
/// ImportUpdate::embeddingSummaries. Points beyond the embedding limits are cut with a warning, damaged
/// points are skipped with a warning and the rest kept. Kinds not read (hyper-parameters, tagged
/// values) are counted per tag and announced once per tag and kind as an Info diagnostic. Without
/// checksums a damaged length cannot be told from a real one, so a length above maxPayload() ends the
/// file, and an undecodable payload is skipped with a warning.
class VisualDlReader final : public ArtifactImporter
{
public:
    /// Default limit for one payload: VisualDL's largest records are encoded images, far below this.
    static constexpr std::uint64_t kDefaultMaxPayload = std::uint64_t(1) << 30;

    explicit VisualDlReader(QString path, models::summary::SummaryLimits limits = {});
    ~VisualDlReader() override;

    ImportUpdate poll(const ImportControl& control) override;

    void setMaxPayload(std::uint64_t bytes);
    /// How many points and dimensions of one embeddings value, and how many tags with embeddings, are kept
    /// (ProjectorLimits::maxEmbeddings); set before polling.
    void setEmbeddingLimits(const importers::embeddings::ProjectorLimits& limits);
    std::uint64_t maxPayload() const;

    QString path() const;
    qint64 offset() const; ///< byte offset after the last complete record
    bool isDead() const; ///< no further poll can make progress
    QString displayName() const; ///< the run name a writer's `meta_data` value gave, when seen
    models::summary::SummaryLimits limits() const;
    /// Values of the tag of the kinds this reader does not read (hyper-parameters, tagged values) seen so far.
    qint64 otherValueCount(const QString& tag) const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace runlens::importers::summary
