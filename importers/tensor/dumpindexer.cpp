#include "dumpindexer.h"

#include "tensor/npyheader.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace runlens::tensor {

namespace {

bool isNumber(const QString& text)
{
    if (text.isEmpty())
        return false;
    return std::all_of(text.begin(), text.end(), [](QChar c) { return c.isDigit(); });
}

} // namespace

DumpFileName DumpIndexer::parseFileName(const QString& fileName)
{
    QString base = fileName;
    if (base.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive))
        base.chop(4);
    const QStringList parts = base.split(QLatin1Char('.'));
    DumpFileName out;
    // MindSpore: the io word sits after op type, op name (maybe dotted), task, stream and timestamp, and is
    // followed by the slot and the format (and newer versions a dtype).
    for (int io = int(parts.size()) - 3; io >= 5; --io) {
        const QString& word = parts[io];
        if ((word != QLatin1String("input") && word != QLatin1String("output")) || !isNumber(parts[io + 1])
            || !isNumber(parts[io - 1]) || !isNumber(parts[io - 2]) || !isNumber(parts[io - 3]))
            continue;
        out.opType = parts[0];
        out.nodeKey = parts.mid(1, io - 4).join(QLatin1Char('.'));
        out.io = word == QLatin1String("input") ? graph::DumpIo::Input : graph::DumpIo::Output;
        out.slot = parts[io + 1].toInt();
        out.kind = word;
        return out;
    }
    // Torch-style: everything before the last dot is the module path.
    const int dot = int(base.lastIndexOf(QLatin1Char('.')));
    if (dot <= 0) {
        out.nodeKey = base;
        return out;
    }
    out.nodeKey = base.left(dot);
    out.kind = base.mid(dot + 1);
    return out;
}

int DumpIndexer::stepOfPath(const QString& relativePath)
{
    static const QRegularExpression named(QStringLiteral("^(?:step|iteration|iter)[_-]?(\\d+)$"),
                                          QRegularExpression::CaseInsensitiveOption);
    const QStringList dirs = relativePath.split(QLatin1Char('/')).mid(0, relativePath.count(QLatin1Char('/')));
    for (int i = int(dirs.size()) - 1; i >= 0; --i) {
        if (const QRegularExpressionMatch m = named.match(dirs[i]); m.hasMatch())
            return m.captured(1).toInt();
    }
    // MindSpore: {net}/{graph_id}/{iteration}/file, so the two innermost folders are numbers (the net folder
    // itself may be the opened root).
    if (dirs.size() >= 2 && isNumber(dirs.last()) && isNumber(dirs[dirs.size() - 2]))
        return dirs.last().toInt();
    return -1;
}

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
            Diagnostic d;
            d.severity = Severity::Warning;
            d.file = artifact.path;
            // The message from the header reader starts with the path; keep only what went wrong.
            QString message = QString::fromStdString(header.error);
            const QString prefix = artifact.path + QStringLiteral(": ");
            if (message.startsWith(prefix))
                message.remove(0, prefix.size());
            d.message = QCoreApplication::translate("runlens::DumpIndexer", "Dump tensor skipped: %1").arg(message);
            diagnostics << d;
            continue;
        }
        const DumpFileName name = parseFileName(QFileInfo(artifact.path).fileName());
        graph::DumpEntry entry;
        entry.path = artifact.path;
        entry.step = stepOfPath(artifact.relativePath);
        entry.nodeKey = name.nodeKey;
        entry.opType = name.opType;
        entry.io = name.io;
        entry.slot = name.slot;
        entry.kind = name.kind;
        entry.dtype = QString::fromStdString(header.header->dtype);
        for (const std::int64_t dim : header.header->shape)
            entry.shape << dim;
        entry.dataOffset = header.header->dataOffset;
        entry.dataSize = header.header->dataSize;
        entries << entry;
    }
    return graph::DumpIndex(std::move(entries), std::move(diagnostics));
}

} // namespace runlens::tensor
