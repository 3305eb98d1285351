#include "importers/core/filesniffer.h"

#include "importers/core/jsonhead.h"
#include "importers/core/profilernames.h"
#include "importers/core/protohead.h"
#include "importers/core/sniffstrings.h"
#include "importers/core/textformats.h"
#include "importers/graph/paddlepirreader.h"
#include "importers/loggers/metricstable.h"
#include "importers/loggers/wandbrunfile.h"
#include "importers/memory/cudasnapshot.h"
#include "importers/tensor/ptfile.h"
#include "models/core/crc32c.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace runlens::importers {

using namespace sniff;

namespace {

// ---------------------------------------------------------------------------------------------------------------
// Binary formats.

constexpr std::size_t kInflateLimit = 1024 * 1024;

struct NameFacts
{
    std::string lower; ///< lower-cased base name
    std::string_view ext; ///< extension of `lower`
    bool tfevents = false;
    bool mindsporeSummary = false; ///< `summary.<digits>` in the name
    bool msSuffix = false; ///< ends with `_MS`
    bool lineageSuffix = false; ///< ends with `_lineage`
    bool vdlrecords = false;
    bool vdlgraph = false; ///< `vdlgraph.<time>.log`, VisualDL's add_graph output
    bool paddleModel = false; ///< `*.pdmodel` or the older `__model__`
    bool savedModel = false; ///< `saved_model.pb`, a TensorFlow SavedModel
};

NameFacts nameFacts(std::string_view fileName)
{
    NameFacts facts;
    facts.lower = toLower(fileName);
    facts.ext = extensionOf(facts.lower);
    facts.tfevents = contains(facts.lower, "tfevents");
    for (std::size_t at = facts.lower.find("summary."); at != std::string::npos;
         at = facts.lower.find("summary.", at + 1)) {
        const std::size_t digit = at + 8;
        if (digit < facts.lower.size() && isDigit(facts.lower[digit])) {
            facts.mindsporeSummary = true;
            break;
        }
    }
    facts.msSuffix = endsWith(fileName, "_MS");
    facts.lineageSuffix = endsWith(facts.lower, "_lineage");
    facts.vdlrecords = startsWith(facts.lower, "vdlrecords.") && contains(facts.lower, ".log");
    facts.vdlgraph = startsWith(facts.lower, "vdlgraph.") && contains(facts.lower, ".log");
    facts.paddleModel = facts.ext == "pdmodel" || facts.lower == "__model__";
    facts.savedModel = facts.lower == "saved_model.pb";
    return facts;
}

/// Valid TFRecord framing of the first record: 8-byte length and the masked CRC-32C of those 8 bytes.
bool hasTfRecordFraming(std::string_view head)
{
    if (head.size() < 12)
        return false;
    const quint64 length = readLe64(head.data());
    if (length == 0 || length > (quint64(1) << 40))
        return false;
    return models::maskedCrc32c(head.data(), 8) == readLe32(head.data() + 8);
}

/// The kind a summary stream's first record announces: `file_version` "brain.Event:N" (TensorBoard) or
/// `version` "MindSpore.Event:N" (MindSpore); both are field 3 strings of the Event message.
models::ArtifactKind summaryKindFromFirstRecord(std::string_view head)
{
    const quint64 length = readLe64(head.data());
    const std::string_view payload = head.substr(12, std::size_t(std::min<quint64>(length, head.size() - 12)));
    std::size_t pos = 0;
    WireField field;
    for (int i = 0; i < 4 && readField(payload, pos, field); ++i) {
        if (field.number == 3 && field.wireType == 2) {
            const std::string lower = toLower(field.bytes);
            if (startsWith(lower, "brain.event:"))
                return models::ArtifactKind::TensorBoardEvents;
            if (startsWith(lower, "mindspore.event:"))
                return models::ArtifactKind::MindSporeSummary;
            return models::ArtifactKind::Unknown;
        }
        if (field.number > 3)
            break;
    }
    return models::ArtifactKind::Unknown;
}

models::ArtifactKind sniffTfRecord(const NameFacts& name, std::string_view head)
{
    const models::ArtifactKind announced = summaryKindFromFirstRecord(head);
    if (announced != models::ArtifactKind::Unknown) {
        // A MindSpore version record in a file named `_lineage` still makes it a summary stream.
        return announced;
    }
    if (name.tfevents)
        return models::ArtifactKind::TensorBoardEvents;
    if (name.mindsporeSummary && name.msSuffix)
        return models::ArtifactKind::MindSporeSummary;
    if (name.mindsporeSummary && name.lineageSuffix)
        return models::ArtifactKind::MindSporeLineage;
    return models::ArtifactKind::Unknown; // a TFRecord of something else (a tf.data dataset, ...)
}

/// VisualDL records: 8-byte length, then a `visualdl.Record` whose first field is `values` (field 1).
bool hasVisualDlFraming(std::string_view head, qint64 fileSize)
{
    if (head.size() < 8)
        return false;
    const quint64 length = readLe64(head.data());
    if (length == 0 || length > (quint64(1) << 32) || length > quint64(fileSize))
        return false;
    return head.size() == 8 || quint8(head[8]) == 0x0a;
}

bool isNpy(std::string_view head)
{
    return head.size() >= 8 && startsWith(head, "\x93NUMPY") && head[6] >= 1 && head[6] <= 3;
}

bool isNpz(const NameFacts& name, std::string_view head)
{
    if (!startsWith(head, std::string_view("PK\x03\x04", 4)))
        return false;
    if (name.ext == "npz")
        return true;
    if (head.size() < 30)
        return false;
    const std::size_t nameLength = quint8(head[26]) | (std::size_t(quint8(head[27])) << 8);
    const std::string member = toLower(head.substr(30, nameLength));
    return endsWith(member, ".npy");
}

bool isSafetensors(const NameFacts& name, std::string_view head, qint64 fileSize)
{
    if (head.size() < 10)
        return false;
    const quint64 headerSize = readLe64(head.data());
    if (headerSize < 2 || headerSize > 100u * 1024 * 1024 || headerSize + 8 > quint64(fileSize))
        return false;
    const std::string_view header = head.substr(8, std::size_t(std::min<quint64>(headerSize, head.size() - 8)));
    if (header.front() != '{')
        return false;
    if (contains(header, "\"dtype\"") && contains(header, "\"data_offsets\""))
        return true;
    // A long `__metadata__` may push the tensor entries past the head; then the name decides.
    return name.ext == "safetensors" && header.size() < headerSize && startsWith(skipSpace(header.substr(1)), "\"");
}

// ---------------------------------------------------------------------------------------------------------------
// Classification of the heads that are text or JSON, and what names promise.

models::ArtifactKind sniffJson(std::string_view text, std::string_view jsonName, bool profilerFolder,
                               SniffResult& result)
{
    const JsonHead json = scanJsonHead(text);
    if (json.top == '{') {
        if (json.hasTopKey("traceEvents") || json.hasTopKey("schemaVersion") || json.hasTopKey("deviceProperties")) {
            if (json.distributedRank && *json.distributedRank <= 0x7fffffff)
                result.contentRank = int(*json.distributedRank);
            else if (json.headCut && !json.hasTopKey("traceEvents"))
                result.wantsLongerHead = true;
            return models::ArtifactKind::ChromeTrace;
        }
        // Hugging Face Trainer: `best_metric`, `best_model_checkpoint`, `epoch`, `eval_steps`, `global_step` …
        // come before `log_history` in the file (keys sorted), so the head holds them.
        if (json.hasTopKey("log_history") || (json.hasTopKey("best_model_checkpoint") && json.hasTopKey("global_step")))
            return models::ArtifactKind::TrainerState;
        // msprobe's dump.json (debug.json of its save API): a few short header keys, then the entries.
        if (json.hasTopKey("task") && json.hasTopKey("level")
            && (json.hasTopKey("data") || json.hasTopKey("dump_data_dir") || json.hasTopKey("framework")))
            return models::ArtifactKind::MsprobeDump;
        // Paddle 3 programs (PIR JSON, `inference.json`): `base_code` says "pir" before the program.
        if (json.hasTopKey("base_code") && graph::looksLikePaddlePir(text))
            return models::ArtifactKind::GraphPaddle;
        // MindSpore parallel strategies: the profiler's `{"config": …, "graph": …}` (a long graph may hide the
        // other key, then the name decides) and JSON strategy checkpoints.
        const bool strategyName = contains(jsonName, "strategy");
        if ((json.hasTopKey("config") && json.hasTopKey("graph"))
            || (strategyName && (json.hasTopKey("config") || json.hasTopKey("graph")))
            || json.hasTopKey("parallel_strategy_item") || json.hasTopKey("parallel_layout_item")
            || (strategyName && json.hasTopKey("current_stage")))
            return models::ArtifactKind::GraphParallelStrategy;
    } else if (json.top == '[') {
        const JsonHead::Element& first = json.elements[0];
        const JsonHead::Element& second = json.elements[1];
        if (first.type == '{' && elementHasKey(first, "ph")
            && (elementHasKey(first, "ts") || elementHasKey(first, "name")))
            return models::ArtifactKind::ChromeTrace;
        const bool firstIsTuple = first.type == '[' && first.closed && first.onlyNumbers && first.numbers == 4;
        const bool secondFits
            = second.type == 0 || (second.type == '[' && second.onlyNumbers && (!second.closed || second.numbers == 4));
        if (firstIsTuple && secondFits)
            return models::ArtifactKind::MemoryTimeline;
    } else {
        return models::ArtifactKind::Unknown;
    }
    std::optional<int> rank;
    if (!jsonName.empty() && matchProfilerJsonName(jsonName, profilerFolder, rank)) {
        result.nameRank = rank;
        return models::ArtifactKind::ProfilerJson;
    }
    // A long first key (a metadata block, a log array) or a huge first event hid what decides.
    if (json.headCut && (json.top == '{' || !json.elements[0].closed))
        result.wantsLongerHead = true;
    return models::ArtifactKind::Unknown;
}

/// JSON lines of metrics: a first line that is a whole object with a step-like or time key, then a line break
/// (and, in a `.json` file, which usually holds one object, a second object line).
bool isMetricsJsonLines(std::string_view text, std::string_view ext)
{
    const std::size_t eol = text.find('\n');
    if (eol == std::string_view::npos)
        return false;
    std::string_view line = text.substr(0, eol);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
        line.remove_suffix(1);
    if (line.empty() || line.back() != '}' || contains(line, "\"traceEvents\""))
        return false;
    if (ext == "json" && !startsWith(skipSpace(text.substr(eol + 1)), "{"))
        return false;
    for (const std::string_view key : { "\"step\"", "\"_step\"", "\"global_step\"", "\"iteration\"", "\"iter\"",
                                        "\"epoch\"", "\"_timestamp\"", "\"_runtime\"" }) {
        if (contains(line, key))
            return true;
    }
    return false;
}

/// MLflow's run `meta.yaml`: flat keys, among them `run_id`, `experiment_id` and `artifact_uri`.
bool isMlflowRunMeta(std::string_view text)
{
    auto hasKey = [&](std::string_view key) {
        if (startsWith(text, key))
            return true;
        for (std::size_t eol = text.find('\n'); eol != std::string_view::npos; eol = text.find('\n', eol + 1)) {
            if (startsWith(text.substr(eol + 1), key))
                return true;
        }
        return false;
    };
    return hasKey("run_id:") && hasKey("experiment_id:") && (hasKey("artifact_uri:") || hasKey("lifecycle_stage:"));
}

/// `run_name: bright-fox-42` of an MLflow meta.yaml (quotes removed; names with '/' are not used as folders).
std::string mlflowRunName(std::string_view text)
{
    std::size_t at = startsWith(text, "run_name:") ? 0 : text.find("\nrun_name:");
    if (at == std::string_view::npos)
        return {};
    at = text.find(':', at) + 1;
    std::string_view value = text.substr(at, text.find('\n', at) - at);
    value = skipSpace(value);
    while (!value.empty() && (value.back() == '\r' || value.back() == ' '))
        value.remove_suffix(1);
    if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') && value.back() == value.front())
        value = value.substr(1, value.size() - 2);
    if (value.empty() || value.size() > 200 || contains(value, "/") || value == "." || value == "..")
        return {};
    return std::string(value);
}

/// nvidia-smi `--query-gpu … --format=csv` (its property names in the header) or `dcgmi dmon` (`# Entity`).
bool isGpuMetricsLog(std::string_view text)
{
    const std::string firstLine = toLower(text.substr(0, text.find('\n')));
    if (startsWith(firstLine, "#") && contains(firstLine, "entity")) {
        std::string_view rest = skipSpace(std::string_view(firstLine).substr(1));
        return startsWith(rest, "entity");
    }
    if (firstLine.find(',') == std::string::npos)
        return false;
    // `--format=csv,noheader`: a timestamp as nvidia-smi prints it, and the eight columns of the documented query.
    if (loggers::isNvidiaSmiTimestamp(std::string_view(firstLine).substr(0, firstLine.find(',')))
        && std::count(firstLine.begin(), firstLine.end(), ',') == 7)
        return true;
    return contains(firstLine, "utilization.gpu") || contains(firstLine, "memory.used")
        || contains(firstLine, "power.draw") || contains(firstLine, "temperature.gpu");
}

models::ArtifactKind sniffText(std::string_view text, const NameFacts& name, bool profilerFolder, SniffResult& result)
{
    const std::string_view trimmed = skipBomAndSpace(text);
    if (startsWith(trimmed, "{") && isMetricsJsonLines(trimmed, name.ext))
        return models::ArtifactKind::Table;
    if (startsWith(trimmed, "{") || startsWith(trimmed, "["))
        return sniffJson(text, name.lower, profilerFolder, result);
    if (isMlflowRunMeta(trimmed)) {
        result.runName = mlflowRunName(trimmed);
        return models::ArtifactKind::MlflowRun;
    }
    if (isGpuMetricsLog(trimmed))
        return models::ArtifactKind::GpuMetricsLog;

    std::optional<int> rank;
    if ((name.ext == "csv" || name.ext == "txt") && matchProfilerTableName(name.lower, profilerFolder, rank)) {
        result.nameRank = rank;
        return models::ArtifactKind::ProfilerCsv;
    }
    // The projector's config is text-format protobuf like a GraphDef: its fixed name tells them apart.
    if (name.lower == "projector_config.pbtxt")
        return models::ArtifactKind::EmbeddingProjector;
    // The tables add_embedding writes beside it are read through the config, not as metrics tables.
    if (name.lower == "metadata.tsv" || name.lower == "tensors.tsv")
        return models::ArtifactKind::Unknown;
    if (isTorchScriptGraph(text))
        return models::ArtifactKind::GraphTorchScript;
    if (isDot(text))
        return models::ArtifactKind::GraphDot;
    if (isGraphDefText(text))
        return models::ArtifactKind::GraphTensorFlow;
    if (isMindSporeIr(text))
        return models::ArtifactKind::GraphMindSporeIr;
    if ((name.ext == "csv" && hasCsvHeader(text, ',')) || (name.ext == "tsv" && hasCsvHeader(text, '\t')))
        return models::ArtifactKind::Table;
    return models::ArtifactKind::Unknown;
}

/// VisualDL's add_graph JSON (`json.dumps(..., indent=2)` of {"version", "nodes", "vars", "edges"}).
bool looksLikeVisualDlGraph(std::string_view head)
{
    const std::string_view trimmed = skipBomAndSpace(head);
    return startsWith(trimmed, "{") && (contains(head, "\"nodes\"") || contains(head, "\"version\""));
}

/// A flatbuffer with TensorFlow Lite's identifier whose root offset points inside the file, past the header.
bool looksLikeTfLite(std::string_view head, qint64 fileSize)
{
    if (head.size() < 8 || head.substr(4, 4) != "TFL3")
        return false;
    const quint32 root = quint32(quint8(head[0])) | quint32(quint8(head[1])) << 8 | quint32(quint8(head[2])) << 16
        | quint32(quint8(head[3])) << 24;
    return root >= 8 && qint64(root) + 4 <= fileSize;
}

/// What the name alone suggests; used only to report files whose content disagrees.
models::ArtifactKind kindSuggestedByName(const NameFacts& name)
{
    if (name.tfevents)
        return models::ArtifactKind::TensorBoardEvents;
    if (name.mindsporeSummary && name.msSuffix)
        return models::ArtifactKind::MindSporeSummary;
    if (name.mindsporeSummary && name.lineageSuffix)
        return models::ArtifactKind::MindSporeLineage;
    if (name.vdlrecords)
        return models::ArtifactKind::VisualDlLog;
    if (name.vdlgraph)
        return models::ArtifactKind::GraphVisualDl;
    if (name.paddleModel)
        return models::ArtifactKind::GraphPaddle;
    if (name.ext == "mindir")
        return models::ArtifactKind::GraphMindIr;
    if (name.savedModel)
        return models::ArtifactKind::GraphTfSavedModel;
    if (name.ext == "onnx")
        return models::ArtifactKind::GraphOnnx;
    if (name.ext == "tflite")
        return models::ArtifactKind::GraphTfLite;
    if (name.ext == "npy")
        return models::ArtifactKind::TensorNpy;
    if (name.ext == "npz")
        return models::ArtifactKind::TensorNpz;
    if (name.ext == "safetensors")
        return models::ArtifactKind::TensorSafetensors;
    if (name.ext == "pt" || name.ext == "pth")
        return models::ArtifactKind::TensorPt;
    if (endsWith(name.lower, ".pt.trace.json") || endsWith(name.lower, ".pt.trace.json.gz"))
        return models::ArtifactKind::ChromeTrace;
    if ((name.ext == "pickle" || name.ext == "pkl") && contains(name.lower, "snapshot"))
        return models::ArtifactKind::MemorySnapshot;
    if (name.ext == "rldigest")
        return models::ArtifactKind::RankDigest;
    if (name.ext == "wandb")
        return models::ArtifactKind::WandbRun;
    return models::ArtifactKind::Unknown;
}

// Extensions of files that are never one of our kinds: not even opened. Pickles are opened (CUDA memory
// snapshots), only to look at their first bytes.
constexpr std::string_view kSkippedExtensions[] = {
    "7z",     "a",    "avi",     "bak", "bash",   "bat",  "bmp",  "bz2",  "c",    "cc",    "cfg",  "ckpt",   "conf",
    "cpp",    "css",  "cu",      "cuh", "cxx",    "db",   "dll",  "doc",  "docx", "dylib", "egg",  "engine", "exe",
    "flac",   "gif",  "h",       "h5",  "hdf5",   "hh",   "hpp",  "htm",  "html", "ico",   "ini",  "ipynb",  "jar",
    "joblib", "jpeg", "jpg",     "js",  "keras",  "lock", "log",  "md",   "mjs",  "mkv",   "mov",  "mp3",    "mp4",
    "o",      "ogg",  "parquet", "pdf", "plan",   "png",  "ppt",  "pptx", "py",   "pyc",   "pyd",  "pyi",    "pyo",
    "rar",    "rst",  "sh",      "so",  "sqlite", "svg",  "swp",  "tar",  "tgz",  "tif",   "tiff", "toml",   "ts",
    "wav",    "webp", "whl",     "xls", "xlsx",   "xz",   "yaml", "yml",  "zsh",  "zst",
};

bool isSkippedExtension(std::string_view ext)
{
    return std::find(std::begin(kSkippedExtensions), std::end(kSkippedExtensions), ext) != std::end(kSkippedExtensions);
}

} // namespace

bool FileSniffer::worthReading(std::string_view fileName)
{
    const NameFacts name = nameFacts(fileName);
    if (name.tfevents || name.mindsporeSummary || name.vdlrecords || name.vdlgraph)
        return true;
    // MLflow keeps each run's description in a `meta.yaml`; other YAML files are not read.
    if (name.lower == "meta.yaml")
        return true;
    std::string_view ext = name.ext;
    if (ext == "gz") {
        const std::string_view inner = std::string_view(name.lower).substr(0, name.lower.size() - 3);
        ext = extensionOf(inner);
    }
    return !isSkippedExtension(ext);
}

std::optional<int> FileSniffer::rankFromName(std::string_view component)
{
    for (std::size_t at = 0; at + 4 < component.size(); ++at) {
        if (lowerAscii(component[at]) != 'r' || lowerAscii(component[at + 1]) != 'a'
            || lowerAscii(component[at + 2]) != 'n' || lowerAscii(component[at + 3]) != 'k')
            continue;
        if (at > 0 && isAlnum(component[at - 1]))
            continue;
        std::size_t i = at + 4;
        if (i < component.size() && (component[i] == '_' || component[i] == '-'))
            ++i;
        std::size_t digits = 0;
        int value = 0;
        while (i + digits < component.size() && isDigit(component[i + digits]) && digits < 9) {
            value = value * 10 + (component[i + digits] - '0');
            ++digits;
        }
        if (digits == 0 || (i + digits < component.size() && isDigit(component[i + digits])))
            continue;
        return value;
    }
    return std::nullopt;
}

SniffResult FileSniffer::sniff(std::string_view fileName, std::string_view directory, std::string_view head,
                               qint64 fileSize)
{
    SniffResult result;
    const NameFacts name = nameFacts(fileName);
    const bool profilerFolder = inProfilerFolder(toLower(directory));

    auto decide = [&](models::ArtifactKind kind) {
        result.kind = kind;
        if (kind == models::ArtifactKind::Unknown)
            result.expectedByName = kindSuggestedByName(name);
        return result;
    };

    if (head.empty() || fileSize <= 0)
        return decide(models::ArtifactKind::Unknown);

    if (head.substr(0, 8) == "RLDIGEST")
        return decide(models::ArtifactKind::RankDigest);
    if (loggers::isWandbRunFile(head)) {
        result.runName = loggers::wandbRunDisplayName(head);
        return decide(models::ArtifactKind::WandbRun);
    }
    if (isNpy(head))
        return decide(models::ArtifactKind::TensorNpy);
    if (startsWith(head, std::string_view("PK\x03\x04", 4))) {
        if (tensor::looksLikeTorchSaveZip(head))
            return decide(models::ArtifactKind::TensorPt);
        return decide(isNpz(name, head) ? models::ArtifactKind::TensorNpz : models::ArtifactKind::Unknown);
    }
    // Legacy torch.save files are listed so that opening one says why it is not read.
    if (tensor::looksLikeLegacyTorchSave(head) && (name.ext == "pt" || name.ext == "pth" || name.ext == "bin"))
        return decide(models::ArtifactKind::TensorPt);
    // A TFLite flatbuffer: the root table offset, then the file identifier "TFL3" at bytes 4..8.
    if (looksLikeTfLite(head, fileSize) || name.ext == "tflite")
        return decide(models::ArtifactKind::GraphTfLite);
    // `.bin` is read only for torch.save checkpoints (`pytorch_model.bin`); raw dumps must not be guessed at.
    if (name.ext == "bin")
        return decide(models::ArtifactKind::Unknown);
    if (head.size() >= 2 && quint8(head[0]) == 0x1f && quint8(head[1]) == 0x8b) {
        // Compressed heads are inflated as far as they go (a 4 KiB head usually holds 20-60 KiB of JSON).
        const std::string text
            = inflateHead(head, std::clamp<std::size_t>(head.size() * 16, 256 * 1024, kInflateLimit));
        if (!looksLikeText(std::string_view(text).substr(0, 1024)))
            return decide(models::ArtifactKind::Unknown);
        // Profiler JSON names are not used for compressed files: MindSpore does not compress them.
        return decide(sniffJson(text, std::string_view(), profilerFolder, result));
    }
    if (hasTfRecordFraming(head))
        return decide(sniffTfRecord(name, head));
    if (name.vdlrecords && hasVisualDlFraming(head, fileSize))
        return decide(models::ArtifactKind::VisualDlLog);
    if (name.vdlgraph && looksLikeVisualDlGraph(head))
        return decide(models::ArtifactKind::GraphVisualDl);
    if (isSafetensors(name, head, fileSize))
        return decide(models::ArtifactKind::TensorSafetensors);
    if (memory::looksLikeCudaSnapshot(head))
        return decide(models::ArtifactKind::MemorySnapshot);

    // Binary protobuf graphs. An ONNX model starts with byte 0x08, which no text file does.
    // A Paddle program opens with block 0 (`idx` 0, `parent_idx` -1): distinctive enough for any name.
    if (looksLikePaddleProgram(head, name.paddleModel))
        return decide(models::ArtifactKind::GraphPaddle);
    if (looksLikeMindIr(head, name.ext == "mindir"))
        return decide(models::ArtifactKind::GraphMindIr);
    // A SavedModel opens with its schema version (0x08, as ONNX does): the fixed name decides. A `.meta`
    // (MetaGraphDef) must also look like one, as other tools use that extension too.
    if (name.savedModel || (name.ext == "meta" && looksLikeMetaGraphDef(head)))
        return decide(models::ArtifactKind::GraphTfSavedModel);
    const ProtoGuess model = guessModelProto(head);
    if (model == ProtoGuess::Onnx)
        return decide(models::ArtifactKind::GraphOnnx);
    if (model == ProtoGuess::Ambiguous) {
        if (name.ext == "onnx")
            return decide(models::ArtifactKind::GraphOnnx);
        if (name.ext == "pb")
            return decide(models::ArtifactKind::GraphAnfIr);
        return decide(models::ArtifactKind::Unknown);
    }
    if (name.ext == "pb") {
        // Non-graph protobufs MindSpore and TensorFlow write next to graphs.
        std::optional<int> unused;
        if (globMatch("memory_usage_#.pb", name.lower, unused) || endsWith(name.lower, ".xplane.pb")
            || endsWith(name.lower, ".paddle_trace.pb"))
            return decide(models::ArtifactKind::Unknown);
        if (model == ProtoGuess::AnfIr)
            return decide(models::ArtifactKind::GraphAnfIr);
        const ProtoGuess bare = guessBareGraph(head);
        if (bare == ProtoGuess::TfGraphDef) {
            // Dump folders name their (MindSpore) graphs `ms_output_trace_code_graph_<id>.pb`.
            return decide(startsWith(name.lower, "ms_output_") ? models::ArtifactKind::GraphAnfIr
                                                               : models::ArtifactKind::GraphTensorFlow);
        }
        if (bare == ProtoGuess::AnfIr)
            return decide(models::ArtifactKind::GraphAnfIr);
    }

    if (looksLikeText(head.substr(0, 1024)))
        return decide(sniffText(head, name, profilerFolder, result));
    return decide(models::ArtifactKind::Unknown);
}

} // namespace runlens::importers
