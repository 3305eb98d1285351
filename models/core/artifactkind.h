#pragma once

#include <QString>

namespace runlens::models {

/// What a file in a run folder is, decided from its content (see RunScanner). The ids are part of
/// the JSON contract of `runlens scan/info` and never change once published.
enum class ArtifactKind {
    TensorBoardEvents, ///< TFRecord-framed tensorboard.Event records (`*tfevents*`)
    MindSporeSummary, ///< TFRecord-framed mindinsight Event records (`*summary.<ts>*_MS`)
    MindSporeLineage, ///< TFRecord-framed LineageEvent records (`*summary.<ts>*_lineage`)
    VisualDlLog, ///< `vdlrecords.*.log`
    ChromeTrace, ///< Chrome trace event JSON (Kineto, Paddle, TF, MindSpore timelines), maybe gzip
    MemoryTimeline, ///< torch `export_memory_timeline` raw output
    MemorySnapshot, ///< torch CUDA memory snapshot (`torch.cuda.memory._dump_snapshot` pickle)
    GraphMindSporeIr, ///< MindSpore `.ir` / `.dat` text IR
    GraphDot, ///< Graphviz `.dot`
    GraphOnnx, ///< ONNX ModelProto
    GraphTensorFlow, ///< TF GraphDef (`.pb` binary or `.pbtxt` text)
    GraphAnfIr, ///< MindSpore anf_ir ModelProto `.pb` or debugger graph
    GraphTorchScript, ///< TorchScript / FX graph text dumps
    GraphParallelStrategy, ///< MindSpore `parallel_strategy_N.json` or a JSON strategy checkpoint
    GraphPaddle, ///< Paddle static program: `ProgramDesc` protobuf (`*.pdmodel`, `__model__`)
    GraphVisualDl, ///< VisualDL `add_graph` layer graph JSON (`vdlgraph.*.log`)
    GraphMindIr, ///< MindSpore MindIR model (`*.mindir`, `mind_ir.ModelProto`)
    GraphTfSavedModel, ///< TF SavedModel (`saved_model.pb`) or MetaGraphDef (`.meta`) protobuf
    GraphTfLite, ///< TensorFlow Lite flatbuffer model (`.tflite`, identifier "TFL3")
    TensorNpy, ///< numpy `.npy`
    TensorNpz, ///< numpy `.npz` (zip)
    TensorSafetensors, ///< `.safetensors`
    TensorPt, ///< PyTorch `torch.save` zip (`.pt`, `.pth`, `.bin`)
    ProfilerCsv, ///< MindSpore profiler CSV/TXT tables
    ProfilerJson, ///< other profiler JSON (MindSpore summaries, step trace points ...)
    Table, ///< metrics a training script or logger writes: CSV/TSV with a header, JSON lines (Lightning, Keras, W&B)
    TrainerState, ///< Hugging Face Trainer `trainer_state.json` (`log_history`)
    MlflowRun, ///< an MLflow file-store run, found by its `meta.yaml` (`metrics/`, `params/` beside it)
    GpuMetricsLog, ///< `nvidia-smi --query-gpu … --format=csv` logs and `dcgmi dmon` output
    WandbRun, ///< a Weights & Biases run file, `run-<id>.wandb` (header `:W&B`)
    MsprobeDump, ///< msprobe accuracy dump: `dump.json` of a `step*/rank*/` folder (construct/stack.json beside)
    RankDigest, ///< one rank's digest written by `runlens digest` (`rank-N.rldigest`, header `RLDIGEST`)
    EmbeddingProjector, ///< TensorBoard projector folder, found by its `projector_config.pbtxt`
    Unknown,
};

/// Stable id for the JSON contract ("tensorboard-events", "mindspore-summary", ...).
QString artifactKindId(ArtifactKind kind);
/// Translated, human-readable name for the Run Browser.
QString artifactKindName(ArtifactKind kind);
/// True for the kinds this build imports (the others are listed but not read yet).
bool artifactKindImported(ArtifactKind kind);
/// Summary kinds: TFRecord-framed summary streams read by the summary importer.
bool isSummaryKind(ArtifactKind kind);
/// Kinds whose values land in the Scalars panel: the summary kinds, VisualDL logs and other loggers' files.
bool carriesScalars(ArtifactKind kind);

} // namespace runlens::models
