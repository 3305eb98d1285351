#include "core/artifactimporter.h"

#include "graph/graphfileimporter.h"
#include "memory/memoryfileimporter.h"
#include "memory/mindsporememory.h"
#include "summary/eventfilereader.h"
#include "summary/lineagereader.h"
#include "summary/visualdlreader.h"
#include "tensor/tensorfileimporter.h"
#include "trace/tracefileimporter.h"

#include <QFileInfo>

namespace runlens {

std::unique_ptr<ArtifactImporter> createImporter(const Artifact& artifact, const summary::SummaryLimits& limits)
{
    switch (artifact.kind) {
    case ArtifactKind::TensorBoardEvents:
        return std::make_unique<summary::EventFileReader>(artifact.path, summary::SummaryFlavor::TensorBoard, limits);
    case ArtifactKind::MindSporeSummary:
        return std::make_unique<summary::EventFileReader>(artifact.path, summary::SummaryFlavor::MindSpore, limits);
    case ArtifactKind::VisualDlLog:
        return std::make_unique<summary::VisualDlReader>(artifact.path, limits);
    case ArtifactKind::MindSporeLineage:
        return std::make_unique<summary::LineageReader>(artifact.path);
    case ArtifactKind::ChromeTrace:
        return std::make_unique<trace::TraceFileImporter>(artifact.path);
    case ArtifactKind::GraphOnnx:
    case ArtifactKind::GraphTensorFlow:
    case ArtifactKind::GraphAnfIr:
    case ArtifactKind::GraphMindSporeIr:
    case ArtifactKind::GraphDot:
    case ArtifactKind::GraphTorchScript:
        return std::make_unique<graph::GraphFileImporter>(artifact.path, artifact.kind);
    case ArtifactKind::TensorNpy:
    case ArtifactKind::TensorNpz:
    case ArtifactKind::TensorSafetensors:
        return std::make_unique<tensor::TensorFileImporter>(artifact.path, artifact.kind);
    case ArtifactKind::MemoryTimeline:
    case ArtifactKind::MemorySnapshot:
        return std::make_unique<memory::MemoryFileImporter>(artifact.path, artifact.kind);
    case ArtifactKind::ProfilerCsv:
    case ArtifactKind::ProfilerJson:
        if (memory::isMindSporeMemoryFileName(QFileInfo(artifact.path).fileName()))
            return std::make_unique<memory::MemoryFileImporter>(artifact.path, artifact.kind);
        return nullptr;
    default:
        return nullptr;
    }
}

} // namespace runlens
