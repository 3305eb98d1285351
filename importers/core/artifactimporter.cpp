#include "core/artifactimporter.h"

#include "summary/eventfilereader.h"
#include "trace/tracefileimporter.h"

namespace runlens {

std::unique_ptr<ArtifactImporter> createImporter(const Artifact& artifact)
{
    switch (artifact.kind) {
    case ArtifactKind::TensorBoardEvents:
        return std::make_unique<summary::EventFileReader>(artifact.path, summary::SummaryFlavor::TensorBoard);
    case ArtifactKind::MindSporeSummary:
        return std::make_unique<summary::EventFileReader>(artifact.path, summary::SummaryFlavor::MindSpore);
    case ArtifactKind::ChromeTrace:
        return std::make_unique<trace::TraceFileImporter>(artifact.path);
    default:
        return nullptr;
    }
}

} // namespace runlens
