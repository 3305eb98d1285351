#pragma once

#include "importers/core/artifactimporter.h"
#include "importers/summary/summaryflavor.h"
#include "models/summary/summarydata.h"

#include <QString>

#include <memory>

namespace runlens::importers::summary {

/// Reads scalars, graphs and the other summary values from one TFRecord-framed summary file, resumably: each poll
/// continues at the end of the last complete record, so a file that is still being written is read as it grows. Both
/// CRCs are verified. A bad length CRC ends the file (its framing cannot be trusted any more); a bad data CRC or an
/// undecodable payload skips that record; an incomplete tail is waited for, not reported. Graph records (TensorBoard
/// `graph_def`/`meta_graph_def`, MindSpore anf_ir `graph_def`) are handed to EventGraphs; a poll that met any delivers
/// the last one as ImportUpdate::graph. Histograms, images, texts, PR curves, tensors and hparams plugin data go
/// through per-tag reservoirs (`limits`); a poll delivers the whole reservoir of every tag it added to as
/// ImportUpdate::summaries.
class EventFileReader final : public ArtifactImporter
{
public:
    EventFileReader(QString path, SummaryFlavor flavor, models::summary::SummaryLimits limits = {});
    ~EventFileReader() override;

    ImportUpdate poll(const ImportControl& control) override;

    QString path() const;
    qint64 offset() const; ///< byte offset after the last complete record
    bool isDead() const; ///< no further poll can make progress
    QString fileVersion() const; ///< "brain.Event:2", "MindSpore.Event:1", ... when seen

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace runlens::importers::summary
