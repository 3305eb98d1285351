#include "importers/graph/graphreader.h"

#include "importers/graph/anfirgraphreader.h"
#include "importers/graph/dotgraphreader.h"
#include "importers/graph/mindirgraphreader.h"
#include "importers/graph/mindsporeirreader.h"
#include "importers/graph/onnxgraphreader.h"
#include "importers/graph/paddlegraphreader.h"
#include "importers/graph/parallelstrategyreader.h"
#include "importers/graph/savedmodelreader.h"
#include "importers/graph/tfgraphreader.h"
#include "importers/graph/tflitegraphreader.h"
#include "importers/graph/torchscriptreader.h"
#include "importers/graph/visualdlgraphreader.h"

#include "importers/core/filemapping.h"

#include <QFile>

#include <string>
#include <string_view>

namespace runlens::importers::graph {

namespace {

// Protobuf messages cannot exceed 2 GiB; text graphs of that size are not something anyone reads.
constexpr qint64 kMaxBinary = (qint64(1) << 31) - 1;
constexpr qint64 kMaxText = qint64(1) << 30;
// TFLite models over 2 GB keep their weights after the flatbuffer (Buffer offset/size): the file is mapped and
// only the flatbuffer part at its start is read.
constexpr qint64 kMaxTfLite = qint64(1) << 36;
constexpr qint64 kMapThreshold = qint64(64) << 20;

bool isText(models::ArtifactKind kind)
{
    return kind == models::ArtifactKind::GraphDot || kind == models::ArtifactKind::GraphMindSporeIr
        || kind == models::ArtifactKind::GraphTorchScript || kind == models::ArtifactKind::GraphParallelStrategy
        || kind == models::ArtifactKind::GraphVisualDl;
}

} // namespace

bool GraphReader::supports(models::ArtifactKind kind)
{
    switch (kind) {
    case models::ArtifactKind::GraphOnnx:
    case models::ArtifactKind::GraphTensorFlow:
    case models::ArtifactKind::GraphAnfIr:
    case models::ArtifactKind::GraphMindSporeIr:
    case models::ArtifactKind::GraphDot:
    case models::ArtifactKind::GraphTorchScript:
    case models::ArtifactKind::GraphParallelStrategy:
    case models::ArtifactKind::GraphPaddle:
    case models::ArtifactKind::GraphVisualDl:
    case models::ArtifactKind::GraphMindIr:
    case models::ArtifactKind::GraphTfSavedModel:
    case models::ArtifactKind::GraphTfLite:
        return true;
    default:
        return false;
    }
}

GraphResult GraphReader::read(const QString& path, models::ArtifactKind kind, const ImportControl& control)
{
    GraphResult result;
    if (kind == models::ArtifactKind::TensorBoardEvents)
        return guardedRead(path, [&]() { return readEventFileGraph(path, control); });
    if (!supports(kind)) {
        result.diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                                  GraphTr::tr("This kind of graph file is not read by this version.")));
        return result;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        result.diagnostics.append(graphDiagnostic(models::Severity::Error, path,
                                                  GraphTr::tr("Cannot open the file: %1").arg(file.errorString())));
        return result;
    }
    const qint64 size = file.size();
    const qint64 limit = isText(kind) ? kMaxText : kind == models::ArtifactKind::GraphTfLite ? kMaxTfLite : kMaxBinary;
    if (size > limit) {
        result.diagnostics.append(
            graphDiagnostic(models::Severity::Error, path,
                            GraphTr::tr("The file is %1 MiB, more than the %2 MiB a graph of this kind can hold.")
                                .arg(size >> 20)
                                .arg(limit >> 20)));
        return result;
    }
    // Large binary models are mapped: the readers skip weight values, so those pages are never read. Small
    // files are copied, which keeps a file truncated by its writer meanwhile from faulting the mapping.
    std::string owned;
    std::string_view bytes;
    std::unique_ptr<FileMapping> mapping;
    if (!isText(kind) && size >= kMapThreshold) {
        QString error;
        mapping = FileMapping::map(path, 0, size, error);
        if (mapping)
            bytes = std::string_view(reinterpret_cast<const char*>(mapping->data()), std::size_t(mapping->size()));
    }
    if (bytes.empty() && size > 0) {
        owned.resize(std::size_t(size));
        qint64 got = 0;
        while (got < size) {
            const qint64 n = file.read(owned.data() + got, size - got);
            if (n <= 0)
                break;
            got += n;
            control.report(int(got * 200 / std::max<qint64>(size, 1)));
        }
        if (got < size) {
            result.diagnostics.append(graphDiagnostic(
                models::Severity::Warning, path,
                GraphTr::tr("Only %1 of %2 bytes could be read: %3").arg(got).arg(size).arg(file.errorString())));
            owned.resize(std::size_t(got));
        }
        bytes = owned;
    }
    GraphResult read = guardedRead(path, [&]() {
        switch (kind) {
        case models::ArtifactKind::GraphOnnx:
            return OnnxGraphReader::read(bytes, path, control);
        case models::ArtifactKind::GraphTensorFlow:
            return TfGraphReader::read(bytes, path, control);
        case models::ArtifactKind::GraphAnfIr:
            return AnfIrGraphReader::read(bytes, path, control);
        case models::ArtifactKind::GraphMindSporeIr:
            return MindSporeIrReader::read(bytes, path, control);
        case models::ArtifactKind::GraphDot:
            return DotGraphReader::read(bytes, path, control);
        case models::ArtifactKind::GraphTorchScript:
            return TorchScriptReader::read(bytes, path, control);
        case models::ArtifactKind::GraphParallelStrategy:
            return ParallelStrategyReader::read(bytes, path, control);
        case models::ArtifactKind::GraphPaddle:
            return PaddleGraphReader::read(bytes, path, control);
        case models::ArtifactKind::GraphVisualDl:
            return VisualDlGraphReader::read(bytes, path, control);
        case models::ArtifactKind::GraphMindIr:
            return MindIrGraphReader::read(bytes, path, control);
        case models::ArtifactKind::GraphTfSavedModel:
            return SavedModelReader::read(bytes, path, control);
        case models::ArtifactKind::GraphTfLite:
            return TfLiteGraphReader::read(bytes, path, control);
        default:
            return GraphResult();
        }
    });
    control.report(1000);
    if (mapping && mapping->damaged())
        result.diagnostics.append(graphDiagnostic(models::Severity::Error, path, mapping->damageMessage()));
    read.diagnostics = result.diagnostics + read.diagnostics;
    return read;
}

} // namespace runlens::importers::graph
