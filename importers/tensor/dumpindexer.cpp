#include "importers/tensor/dumpindexer.h"

#include "importers/tensor/npyheader.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace runlens::tensor {

graph::DumpIndex DumpIndexer::index(const RunManifest& manifest, const ImportControl& control)
{
    QList<graph::DumpEntry> entries;
    Diagnostics diagnostics;
    for (const Artifact& artifact : manifest.artifacts) {
        if (artifact.kind != ArtifactKind::TensorNpy)
            continue;
        if (control.canceled())
            break;
        const NpyHeaderResult header = readNpyHeader(artifact.path.toStdString());
        if (!header.header) {
            diagnostics << skipped(artifact.path, header.error);
            continue;
        }
        const std::optional<DumpFileName> msprobe = parseMsprobeDataName(artifact.relativePath);
        entries << entry(artifact, *header.header,
                         msprobe ? *msprobe : parseDumpFileName(QFileInfo(artifact.path).fileName()));
    }
    return graph::DumpIndex(std::move(entries), std::move(diagnostics));
}

graph::DumpEntry DumpIndexer::entry(const Artifact& artifact, const NpyHeader& header, const DumpFileName& name)
{
    graph::DumpEntry entry;
    entry.path = artifact.path;
    entry.step = stepOfFolders(artifact.relativePath);
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

Diagnostic DumpIndexer::skipped(const QString& path, const std::string& headerError)
{
    Diagnostic d;
    d.severity = Severity::Warning;
    d.file = path;
    // The message from the header reader starts with the path; keep only what went wrong.
    QString message = QString::fromStdString(headerError);
    const QString prefix = path + QStringLiteral(": ");
    if (message.startsWith(prefix))
        message.remove(0, prefix.size());
    d.message = QCoreApplication::translate("runlens::DumpIndexer", "Dump tensor skipped: %1").arg(message);
    return d;
}

} // namespace runlens::tensor
