#include "models/core/artifactkind.h"

#include <QCoreApplication>

namespace runlens::models {

QString artifactKindId(ArtifactKind kind)
{
    switch (kind) {
    case ArtifactKind::TensorBoardEvents:
        return QStringLiteral("tensorboard-events");
    case ArtifactKind::MindSporeSummary:
        return QStringLiteral("mindspore-summary");
    case ArtifactKind::MindSporeLineage:
        return QStringLiteral("mindspore-lineage");
    case ArtifactKind::VisualDlLog:
        return QStringLiteral("visualdl-log");
    case ArtifactKind::ChromeTrace:
        return QStringLiteral("chrome-trace");
    case ArtifactKind::MemoryTimeline:
        return QStringLiteral("memory-timeline");
    case ArtifactKind::MemorySnapshot:
        return QStringLiteral("memory-snapshot");
    case ArtifactKind::GraphMindSporeIr:
        return QStringLiteral("graph-mindspore-ir");
    case ArtifactKind::GraphDot:
        return QStringLiteral("graph-dot");
    case ArtifactKind::GraphOnnx:
        return QStringLiteral("graph-onnx");
    case ArtifactKind::GraphTensorFlow:
        return QStringLiteral("graph-tensorflow");
    case ArtifactKind::GraphAnfIr:
        return QStringLiteral("graph-anf-ir");
    case ArtifactKind::GraphTorchScript:
        return QStringLiteral("graph-torchscript");
    case ArtifactKind::GraphParallelStrategy:
        return QStringLiteral("graph-parallel-strategy");
    case ArtifactKind::GraphPaddle:
        return QStringLiteral("graph-paddle");
    case ArtifactKind::GraphVisualDl:
        return QStringLiteral("graph-visualdl");
    case ArtifactKind::GraphMindIr:
        return QStringLiteral("graph-mindir");
    case ArtifactKind::GraphTfSavedModel:
        return QStringLiteral("graph-tf-saved-model");
    case ArtifactKind::GraphTfLite:
        return QStringLiteral("graph-tflite");
    case ArtifactKind::TensorNpy:
        return QStringLiteral("tensor-npy");
    case ArtifactKind::TensorNpz:
        return QStringLiteral("tensor-npz");
    case ArtifactKind::TensorSafetensors:
        return QStringLiteral("tensor-safetensors");
    case ArtifactKind::TensorPt:
        return QStringLiteral("tensor-pt");
    case ArtifactKind::ProfilerCsv:
        return QStringLiteral("profiler-table");
    case ArtifactKind::ProfilerJson:
        return QStringLiteral("profiler-json");
    case ArtifactKind::Table:
        return QStringLiteral("table");
    case ArtifactKind::TrainerState:
        return QStringLiteral("trainer-state");
    case ArtifactKind::MlflowRun:
        return QStringLiteral("mlflow-run");
    case ArtifactKind::GpuMetricsLog:
        return QStringLiteral("gpu-metrics-log");
    case ArtifactKind::WandbRun:
        return QStringLiteral("wandb-run");
    case ArtifactKind::MsprobeDump:
        return QStringLiteral("msprobe-dump");
    case ArtifactKind::RankDigest:
        return QStringLiteral("rank-digest");
    case ArtifactKind::EmbeddingProjector:
        return QStringLiteral("tensorboard-projector");
    case ArtifactKind::Unknown:
        return QStringLiteral("unknown");
    }
    return QStringLiteral("unknown");
}

QString artifactKindName(ArtifactKind kind)
{
    const char* text = nullptr;
    switch (kind) {
    case ArtifactKind::TensorBoardEvents:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "TensorBoard events");
        break;
    case ArtifactKind::MindSporeSummary:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "MindSpore summary");
        break;
    case ArtifactKind::MindSporeLineage:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "MindSpore lineage");
        break;
    case ArtifactKind::VisualDlLog:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "VisualDL log");
        break;
    case ArtifactKind::ChromeTrace:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "Profiler trace");
        break;
    case ArtifactKind::MemoryTimeline:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "Memory timeline");
        break;
    case ArtifactKind::MemorySnapshot:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "CUDA memory snapshot");
        break;
    case ArtifactKind::GraphMindSporeIr:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "MindSpore IR graph");
        break;
    case ArtifactKind::GraphDot:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "Graphviz graph");
        break;
    case ArtifactKind::GraphOnnx:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "ONNX model");
        break;
    case ArtifactKind::GraphTensorFlow:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "TensorFlow graph");
        break;
    case ArtifactKind::GraphAnfIr:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "MindSpore graph (anf_ir)");
        break;
    case ArtifactKind::GraphTorchScript:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "TorchScript graph");
        break;
    case ArtifactKind::GraphParallelStrategy:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "MindSpore parallel strategy");
        break;
    case ArtifactKind::GraphPaddle:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "Paddle static model");
        break;
    case ArtifactKind::GraphVisualDl:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "VisualDL layer graph");
        break;
    case ArtifactKind::GraphMindIr:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "MindSpore MindIR model");
        break;
    case ArtifactKind::GraphTfSavedModel:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "TensorFlow SavedModel or MetaGraph");
        break;
    case ArtifactKind::GraphTfLite:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "TensorFlow Lite model");
        break;
    case ArtifactKind::TensorNpy:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "NumPy tensor");
        break;
    case ArtifactKind::TensorNpz:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "NumPy archive");
        break;
    case ArtifactKind::TensorSafetensors:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "safetensors");
        break;
    case ArtifactKind::TensorPt:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "PyTorch tensors");
        break;
    case ArtifactKind::ProfilerCsv:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "Profiler table");
        break;
    case ArtifactKind::ProfilerJson:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "Profiler data");
        break;
    case ArtifactKind::Table:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "Metrics table");
        break;
    case ArtifactKind::TrainerState:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "Hugging Face trainer state");
        break;
    case ArtifactKind::MlflowRun:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "MLflow run");
        break;
    case ArtifactKind::GpuMetricsLog:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "GPU metrics log");
        break;
    case ArtifactKind::WandbRun:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "W&B run file");
        break;
    case ArtifactKind::MsprobeDump:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "msprobe dump");
        break;
    case ArtifactKind::RankDigest:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "Rank digest");
        break;
    case ArtifactKind::EmbeddingProjector:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "Embedding projector");
        break;
    case ArtifactKind::Unknown:
        text = QT_TRANSLATE_NOOP("runlens::ArtifactKind", "Other file");
        break;
    }
    return QCoreApplication::translate("runlens::ArtifactKind", text);
}

bool artifactKindImported(ArtifactKind kind)
{
    return isSummaryKind(kind) || kind == ArtifactKind::MindSporeLineage || kind == ArtifactKind::VisualDlLog
        || kind == ArtifactKind::ChromeTrace || kind == ArtifactKind::GraphOnnx || kind == ArtifactKind::GraphTensorFlow
        || kind == ArtifactKind::GraphAnfIr || kind == ArtifactKind::GraphMindSporeIr || kind == ArtifactKind::GraphDot
        || kind == ArtifactKind::GraphTorchScript || kind == ArtifactKind::GraphParallelStrategy
        || kind == ArtifactKind::GraphPaddle || kind == ArtifactKind::GraphVisualDl || kind == ArtifactKind::GraphMindIr
        || kind == ArtifactKind::GraphTfSavedModel || kind == ArtifactKind::GraphTfLite
        || kind == ArtifactKind::TensorNpy || kind == ArtifactKind::TensorNpz || kind == ArtifactKind::TensorSafetensors
        || kind == ArtifactKind::TensorPt || kind == ArtifactKind::MemoryTimeline
        || kind == ArtifactKind::MemorySnapshot || kind == ArtifactKind::MsprobeDump || kind == ArtifactKind::RankDigest
        || kind == ArtifactKind::Table || kind == ArtifactKind::TrainerState || kind == ArtifactKind::MlflowRun
        || kind == ArtifactKind::GpuMetricsLog || kind == ArtifactKind::WandbRun
        || kind == ArtifactKind::EmbeddingProjector;
}

bool carriesScalars(ArtifactKind kind)
{
    return isSummaryKind(kind) || kind == ArtifactKind::VisualDlLog || kind == ArtifactKind::Table
        || kind == ArtifactKind::TrainerState || kind == ArtifactKind::MlflowRun || kind == ArtifactKind::GpuMetricsLog
        || kind == ArtifactKind::WandbRun;
}

bool isSummaryKind(ArtifactKind kind)
{
    return kind == ArtifactKind::TensorBoardEvents || kind == ArtifactKind::MindSporeSummary;
}

} // namespace runlens::models
