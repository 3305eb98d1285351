#include "importers/tensor/dumpindexer.h"

#include "importers/tensor/npyheader.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace runlens::importers::tensor {

models::graph::DumpIndex DumpIndexer::index(const models::RunManifest& manifest, const ImportControl& control)
{
    QList<models::graph::DumpEntry> entries;
    models::Diagnostics diagnostics;
    for (const models::Artifact& artifact : manifest.artifacts) {
        if (artifact.kind != models::ArtifactKind::TensorNpy)
            continue;
        if (control.canceled())
            break;
        const NpyHeaderResult header = readNpyHeader(artifact.path.toStdString());
        if (!header.header) {
            diagnostics << skipped(artifact.path, header.error);
            continue;
        }
        const std::optional<models::tensor::DumpFileName> msprobe
            = models::tensor::parseMsprobeDataName(artifact.relativePath);
        entries << entry(artifact, *header.header,
                         msprobe ? *msprobe : models::tensor::parseDumpFileName(QFileInfo(artifact.path).fileName()));
    }
    return models::graph::DumpIndex(std::move(entries), std::move(diagnostics));
}

models::graph::DumpEntry DumpIndexer::entry(const models::Artifact& artifact, const NpyHeader& header,
                                            const models::tensor::DumpFileName& name)
{
    models::graph::DumpEntry entry;
    entry.path = artifact.path;
    entry.step = models::tensor::stepOfFolders(artifact.relativePath);
    entry.nodeKey = name.nodeKey;
    entry.opType = name.opType;
    entry.io = name.io;
    entry.slot = name.slot;
    entry.kind = name.kind;
    entry.dtype = QString::fromStdString(header.dtype);
    for (const std::int64_t dim : header.shape)
        entry.shape << dim;
    entry.dataOffset = header.dataOffset;
    entry.dataSize = header.dataSize;
    return entry;
}

models::Diagnostic DumpIndexer::skipped(const QString& path, const std::string& headerError)
{
    models::Diagnostic d;
    d.severity = models::Severity::Warning;
    d.file = path;
    // The message from the header reader starts with the path; keep only what went wrong.
    QString message = QString::fromStdString(headerError);
    const QString prefix = path + QStringLiteral(": ");
    if (message.startsWith(prefix))
        message.remove(0, prefix.size());
    d.message = QCoreApplication::translate("runlens::DumpIndexer", "Dump tensor skipped: %1").arg(message);
    return d;
}

} // namespace runlens::importers::tensor
