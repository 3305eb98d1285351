#include "importers/tensor/tensorcatalogbuilder.h"

#include "importers/tensor/dumpindexer.h"
#include "importers/tensor/npyfile.h"
#include "importers/tensor/npyheader.h"
#include "importers/tensor/npzfile.h"
#include "importers/tensor/ptfile.h"
#include "importers/tensor/safetensorsfile.h"
#include "models/tensor/dtype.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QHash>

#include <optional>

namespace runlens::tensor {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::tensor)
};

struct DumpCollector
{
    QList<graph::DumpEntry> entries;
    Diagnostics diagnostics;
};

struct Pending
{
    TensorSeries series;
    QString folder; ///< relative folder without the step, to tell series of the same name apart
};

class CatalogAssembler
{
public:
    void add(const Artifact& artifact, const QString& key, const QString& folder, TensorSeries proto, TensorInfo info)
    {
        const QString run = runWithoutStep(artifact.run);
        const QString fullKey = run + QLatin1Char('\n') + QString::number(artifact.rank.value_or(-1))
            + QLatin1Char('\n') + folder + QLatin1Char('\n') + key;
        auto it = m_byKey.constFind(fullKey);
        if (it == m_byKey.constEnd()) {
            proto.run = run;
            proto.rank = artifact.rank.value_or(-1);
            it = m_byKey.insert(fullKey, int(m_pending.size()));
            m_pending.push_back({ std::move(proto), folder });
        }
        TensorSeries& series = m_pending[*it].series;
        // Two files claiming the same step (a re-run into the same folder): both are kept, the later one
        // on its own series so neither hides the other.
        if (info.step >= 0 && series.atStep(info.step)) {
            TensorSeries extra = series;
            extra.versions = { std::move(info) };
            extra.name += QLatin1String(" #") + QString::number(++m_duplicates[*it] + 1);
            m_pending.push_back({ std::move(extra), folder });
            return;
        }
        series.versions << std::move(info);
    }

    QList<TensorSeries> take()
    {
        // Names must be unique within a run and rank: qualify clashing ones with their folder. The same
        // tensor of another rank (msprobe's rank0/, rank1/) keeps its name; the rank tells them apart.
        QHash<QString, int> count;
        auto nameKey = [](const TensorSeries& s) {
            return s.run + QLatin1Char('\n') + QString::number(s.rank) + QLatin1Char('\n') + s.name;
        };
        for (const Pending& p : m_pending)
            ++count[nameKey(p.series)];
        QList<TensorSeries> out;
        out.reserve(m_pending.size());
        for (Pending& p : m_pending) {
            if (count.value(nameKey(p.series)) > 1 && !p.folder.isEmpty())
                p.series.name = p.folder + QLatin1Char('/') + p.series.name;
            out << std::move(p.series);
        }
        return out;
    }

private:
    std::vector<Pending> m_pending;
    QHash<QString, int> m_byKey;
    QHash<int, int> m_duplicates;
};

Diagnostic warning(const QString& file, const QString& message)
{
    Diagnostic d;
    d.severity = Severity::Warning;
    d.file = file;
    d.message = message;
    return d;
}

void addNpy(const Artifact& artifact, CatalogAssembler& assembler, Diagnostics& diagnostics, DumpCollector* dumps)
{
    const NpyHeaderResult parsed = readNpyHeader(QFile::encodeName(artifact.path).toStdString());
    if (!parsed.header) {
        if (dumps)
            dumps->diagnostics << DumpIndexer::skipped(artifact.path, parsed.error);
        QString message = QString::fromStdString(parsed.error);
        const QString prefix = artifact.path + QStringLiteral(": ");
        if (message.startsWith(prefix))
            message.remove(0, prefix.size());
        diagnostics << warning(artifact.path, Text::tr("Tensor skipped: %1").arg(message));
        return;
    }
    const NpyHeader& header = *parsed.header;
    const QString fileName = QFileInfo(artifact.path).fileName();
    const std::optional<DumpFileName> msprobe = parseMsprobeDataName(artifact.relativePath);
    const DumpFileName name = msprobe ? *msprobe : parseDumpFileName(fileName);
    // The dump index lists every readable file, numeric or not, as DumpIndexer::index() does.
    if (dumps)
        dumps->entries << DumpIndexer::entry(artifact, header, name);
    const NpyElementType element = npyElementType(header, artifact.path);
    if (!element.type) {
        diagnostics << warning(artifact.path,
                               Text::tr("Tensor skipped: element type '%1' is not a numeric type")
                                   .arg(QString::fromStdString(header.descr)));
        return;
    }
    const bool mindspore = !msprobe && !name.opType.isEmpty();

    TensorInfo info;
    info.path = artifact.path;
    info.format = QStringLiteral("npy");
    info.step = stepOfFolders(artifact.relativePath);
    if (info.step < 0)
        info.step = stepOfFileName(fileName);
    info.dtype = *element.type;
    info.shape = header.shape;
    info.byteSize = header.dataSize;
    info.note = element.note;
    info.source = npyTensorSource(artifact.path);

    TensorSeries series;
    series.nodeKey = name.nodeKey;
    series.kind = name.kind;
    series.opType = name.opType;
    series.io = name.io;
    series.slot = name.slot;
    QString key;
    if (mindspore) {
        // Task, stream and timestamp change between iterations; op, io and slot name the tensor.
        series.name = name.nodeKey + QLatin1Char(' ') + name.kind + QLatin1Char(' ') + QString::number(name.slot);
        key = name.opType + QLatin1Char('.') + series.name;
    } else if (msprobe) {
        series.name = QFileInfo(fileName).completeBaseName();
        key = series.name;
    } else {
        QString base = fileName;
        if (base.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive))
            base.chop(4);
        if (stepOfFolders(artifact.relativePath) < 0 && info.step >= 0)
            base = withoutStepNumber(base);
        series.name = base;
        key = base;
    }
    assembler.add(artifact, key, folderWithoutStep(artifact.relativePath, mindspore), std::move(series),
                  std::move(info));
}

/// The members of an archive or the entries of a safetensors file: each one a series named after the file
/// and the member ("state_dict.npz/conv1.weight"), linked to the module its key names.
void addContainer(const Artifact& artifact, CatalogAssembler& assembler, Diagnostics& diagnostics, DumpCollector* dumps)
{
    TensorListing listing = artifact.kind == ArtifactKind::TensorNpz ? listNpzFile(artifact.path)
        : artifact.kind == ArtifactKind::TensorPt                    ? listPtFile(artifact.path)
                                                                     : listSafetensorsFile(artifact.path);
    diagnostics.append(listing.diagnostics);
    if (!listing.error.isEmpty())
        diagnostics << warning(artifact.path, listing.error);
    const QString fileName = QFileInfo(artifact.path).fileName();
    int step = stepOfFolders(artifact.relativePath);
    QString fileKey = fileName;
    if (step < 0) {
        step = stepOfFileName(fileName);
        if (step >= 0)
            fileKey = withoutStepNumber(fileName);
    }
    const QString folder = folderWithoutStep(artifact.relativePath, false);
    const auto metadata = listing.metadata.isEmpty()
        ? nullptr
        : std::make_shared<const QMap<QString, QString>>(std::move(listing.metadata));
    const std::optional<DumpFileName> msprobe = parseMsprobeDataName(artifact.relativePath);
    if (msprobe)
        fileKey = QFileInfo(fileName).completeBaseName();
    for (TensorInfo& info : listing.tensors) {
        info.step = step;
        info.fileMetadata = metadata;
        // A state dict key is a module path and a role: "layer1.0.conv1.weight".
        const DumpFileName name
            = msprobe && info.member.isEmpty() ? *msprobe : parseDumpFileName(info.member + QStringLiteral(".npy"));
        if (dumps && msprobe && info.member.isEmpty()) {
            // msprobe's torch.save files belong to their dump entry like its .npy files do.
            graph::DumpEntry entry;
            entry.path = artifact.path;
            entry.step = step;
            entry.nodeKey = name.nodeKey;
            entry.io = name.io;
            entry.kind = name.kind;
            const std::string_view dtype = dtypeName(info.dtype);
            entry.dtype = QString::fromLatin1(dtype.data(), qsizetype(dtype.size()));
            for (const std::int64_t dim : info.shape)
                entry.shape << dim;
            entry.dataSize = info.byteSize;
            dumps->entries << entry;
        }
        TensorSeries series;
        // A torch.save of one tensor (msprobe dumps) is the file itself, as a .npy is.
        series.name = info.member.isEmpty() ? fileKey : fileKey + QLatin1Char('/') + info.member;
        series.nodeKey = name.nodeKey;
        series.kind = name.kind.isEmpty() ? info.member : name.kind;
        const QString key = series.name;
        assembler.add(artifact, key, folder, std::move(series), std::move(info));
    }
}

TensorCatalog buildCatalog(const RunManifest& manifest, const ImportControl& control, DumpCollector* dumps)
{
    CatalogAssembler assembler;
    Diagnostics diagnostics;
    int done = 0;
    int total = 0;
    for (const Artifact& artifact : manifest.artifacts)
        total += artifact.kind == ArtifactKind::TensorNpy || artifact.kind == ArtifactKind::TensorNpz
            || artifact.kind == ArtifactKind::TensorSafetensors || artifact.kind == ArtifactKind::TensorPt;
    for (const Artifact& artifact : manifest.artifacts) {
        if (control.canceled())
            break;
        switch (artifact.kind) {
        case ArtifactKind::TensorNpy:
            addNpy(artifact, assembler, diagnostics, dumps);
            break;
        case ArtifactKind::TensorNpz:
        case ArtifactKind::TensorSafetensors:
        case ArtifactKind::TensorPt:
            addContainer(artifact, assembler, diagnostics, dumps);
            break;
        default:
            continue;
        }
        control.report(int(1000LL * ++done / std::max(1, total)));
    }
    return TensorCatalog(assembler.take(), std::move(diagnostics));
}

/// A tensor file of a dump, listed when it is first opened: the single tensor of a torch.save file, or an
/// `.npy` array.
class DumpFileSource final : public TensorSource
{
public:
    explicit DumpFileSource(QString path)
        : m_path(std::move(path))
    { }

    TensorResult open() const override
    {
        if (m_path.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive))
            return npyTensorSource(m_path)->open();
        const TensorListing listing = listPtFile(m_path);
        TensorResult result;
        if (!listing.error.isEmpty() || listing.tensors.isEmpty() || !listing.tensors.front().source) {
            result.error = listing.error.isEmpty() ? Text::tr("%1 holds no tensor.").arg(m_path) : listing.error;
            return result;
        }
        return listing.tensors.front().source->open();
    }
    bool isImmediate() const override { return false; }

private:
    QString m_path;
};

} // namespace

std::shared_ptr<const TensorSource> dumpTensorFileSource(const QString& path)
{
    return std::make_shared<DumpFileSource>(path);
}

TensorCatalog TensorCatalogBuilder::build(const RunManifest& manifest, const ImportControl& control)
{
    return buildCatalog(manifest, control, nullptr);
}

TensorCatalogBuilder::WithDumps TensorCatalogBuilder::buildWithDumps(const RunManifest& manifest,
                                                                     const ImportControl& control)
{
    DumpCollector dumps;
    TensorCatalog catalog = buildCatalog(manifest, control, &dumps);
    return { std::move(catalog), graph::DumpIndex(std::move(dumps.entries), std::move(dumps.diagnostics)) };
}

} // namespace runlens::tensor
