#include "importers/core/artifactimporter.h"

#include "importers/embeddings/projectorreader.h"

#include "importers/accuracy/msprobeimporter.h"
#include "importers/cluster/rankdigestimporter.h"
#include "importers/graph/graphfileimporter.h"
#include "importers/loggers/loggerimporter.h"
#include "importers/memory/memoryfileimporter.h"
#include "importers/memory/mindsporememory.h"
#include "importers/summary/eventfilereader.h"
#include "importers/summary/lineagereader.h"
#include "importers/summary/visualdlreader.h"
#include "importers/tensor/tensorfileimporter.h"
#include "importers/trace/tracefileimporter.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>

#include <exception>
#include <new>

#include <sys/stat.h>

Q_LOGGING_CATEGORY(lcImportBoundary, "runlens.importers.boundary", QtWarningMsg)

namespace runlens::importers {

std::unique_ptr<ArtifactImporter> createImporter(const models::Artifact& artifact,
                                                 const models::summary::SummaryLimits& limits)
{
    switch (artifact.kind) {
    case models::ArtifactKind::TensorBoardEvents:
        return std::make_unique<summary::EventFileReader>(artifact.path, summary::SummaryFlavor::TensorBoard, limits);
    case models::ArtifactKind::MindSporeSummary:
        return std::make_unique<summary::EventFileReader>(artifact.path, summary::SummaryFlavor::MindSpore, limits);
    case models::ArtifactKind::VisualDlLog:
        return std::make_unique<summary::VisualDlReader>(artifact.path, limits);
    case models::ArtifactKind::MindSporeLineage:
        return std::make_unique<summary::LineageReader>(artifact.path);
    case models::ArtifactKind::ChromeTrace:
        return std::make_unique<trace::TraceFileImporter>(artifact.path);
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
        return std::make_unique<graph::GraphFileImporter>(artifact.path, artifact.kind);
    case models::ArtifactKind::TensorNpy:
    case models::ArtifactKind::TensorNpz:
    case models::ArtifactKind::TensorSafetensors:
    case models::ArtifactKind::TensorPt:
        return std::make_unique<tensor::TensorFileImporter>(artifact.path, artifact.kind);
    case models::ArtifactKind::MemoryTimeline:
    case models::ArtifactKind::MemorySnapshot:
        return std::make_unique<memory::MemoryFileImporter>(artifact.path, artifact.kind);
    case models::ArtifactKind::MsprobeDump:
        return std::make_unique<accuracy::MsprobeImporter>(artifact.path);
    case models::ArtifactKind::RankDigest:
        return std::make_unique<cluster::RankDigestImporter>(artifact.path);
    case models::ArtifactKind::EmbeddingProjector:
        return std::make_unique<embeddings::ProjectorImporter>(artifact.path);
    case models::ArtifactKind::Table:
    case models::ArtifactKind::TrainerState:
    case models::ArtifactKind::MlflowRun:
    case models::ArtifactKind::GpuMetricsLog:
    case models::ArtifactKind::WandbRun:
        return std::make_unique<loggers::LoggerImporter>(artifact.path, artifact.kind);
    case models::ArtifactKind::ProfilerCsv:
    case models::ArtifactKind::ProfilerJson:
        if (memory::isMindSporeMemoryFileName(QFileInfo(artifact.path).fileName()))
            return std::make_unique<memory::MemoryFileImporter>(artifact.path, artifact.kind);
        return nullptr;
    default:
        return nullptr;
    }
}

models::Diagnostic importFailureDiagnostic(const QString& path, const char* what, bool outOfMemory)
{
    QString message;
    if (outOfMemory) {
        message = QCoreApplication::translate("runlens::ImportBoundary",
                                              "Not enough memory to read this file; what was read before is kept. "
                                              "Close other runs or read the file on a machine with more memory.");
    } else {
        const QString reason = what && *what ? QString::fromLocal8Bit(what)
                                             : QCoreApplication::translate("runlens::ImportBoundary", "unknown error");
        message = QCoreApplication::translate("runlens::ImportBoundary",
                                              "Reading stopped on an unexpected error (%1); what was read before is "
                                              "kept. The file is probably damaged.")
                      .arg(reason);
    }
    qCWarning(lcImportBoundary).noquote() << path << message;
    return { models::Severity::Error, path, -1, -1, message };
}

ImportUpdate pollGuarded(ArtifactImporter& importer, const ImportControl& control, const QString& path)
{
    ImportUpdate failed;
    failed.status = models::ImportStatus::Failed;
    // A FIFO, socket or device put where a file was would block the reader or never end.
    struct stat info
    {
    };
    const QByteArray native = QFile::encodeName(path);
    if (::stat(native.constData(), &info) == 0
        && (S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode) || S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode))) {
        failed.diagnostics.append({ models::Severity::Error, path, -1, -1,
                                    QCoreApplication::translate("runlens::ImportBoundary",
                                                                "Not a regular file (a pipe, socket or device); "
                                                                "it is not read.") });
        return failed;
    }
    ImportUpdate update;
    failed.diagnostics = runGuarded([&] { update = importer.poll(control); }, { path });
    return failed.diagnostics.isEmpty() ? update : failed;
}

models::Diagnostics runGuarded(const std::function<void()>& work, const QStringList& paths)
{
    models::Diagnostics diagnostics;
    auto fail = [&](const char* what, bool outOfMemory) {
        for (const QString& path : paths)
            diagnostics.append(importFailureDiagnostic(path, what, outOfMemory));
    };
    try {
        work();
    } catch (const std::bad_alloc&) {
        fail(nullptr, true);
    } catch (const std::exception& e) {
        fail(e.what(), false);
    } catch (...) {
        fail(nullptr, false);
    }
    return diagnostics;
}

} // namespace runlens::importers
