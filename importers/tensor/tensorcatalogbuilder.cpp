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

namespace runlens::importers::tensor {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::tensor)
};

struct DumpCollector
{
    QList<models::graph::DumpEntry> entries;
    models::Diagnostics diagnostics;
};

struct Pending
{
    models::tensor::TensorSeries series;
    QString folder; ///< relative folder without the step, to tell series of the same name apart
};

class CatalogAssembler
{
public:
    void add(const models::Artifact& artifact, const QString& key, const QString& folder,
             models::tensor::TensorSeries proto, models::tensor::TensorInfo info)
    {
        const QString run = models::tensor::runWithoutStep(artifact.run);
        const QString fullKey = run + QLatin1Char('\n') + QString::number(artifact.rank.value_or(-1))
            + QLatin1Char('\n') + folder + QLatin1Char('\n') + key;
        auto it = m_byKey.constFind(fullKey);
        if (it == m_byKey.constEnd()) {
            proto.run = run;
            proto.rank = artifact.rank.value_or(-1);
            it = m_byKey.insert(fullKey, int(m_pending.size()));
            m_pending.push_back({ std::move(proto), folder });
        }
        models::tensor::TensorSeries& series = m_pending[*it].series;
        // Two files claiming the same step (a re-run into the same folder): both are kept, the later one
        // on its own series so neither hides the other.
        if (info.step >= 0 && series.atStep(info.step)) {
            models::tensor::TensorSeries extra = series;
            extra.versions = { std::move(info) };
            extra.name += QLatin1String(" #") + QString::number(++m_duplicates[*it] + 1);
            m_pending.push_back({ std::move(extra), folder });
            return;
        }
        series.versions << std::move(info);
    }

    QList<models::tensor::TensorSeries> take()
    {
        // Names must be unique within a run and rank: qualify clashing ones with their folder. The same
        // tensor of another rank (msprobe's rank0/, rank1/) keeps its name; the rank tells them apart.
        QHash<QString, int> count;
        auto nameKey = [](const models::tensor::TensorSeries& s) {
            return s.run + QLatin1Char('\n') + QString::number(s.rank) + QLatin1Char('\n') + s.name;
        };
        for (const Pending& p : m_pending)
            ++count[nameKey(p.series)];
        QList<models::tensor::TensorSeries> out;
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

models::Diagnostic warning(const QString& file, const QString& message)
{
    models::Diagnostic d;
    d.severity = models::Severity::Warning;
    d.file = file;
    d.message = message;
    return d;
}

void addNpy(const models::Artifact& artifact, CatalogAssembler& assembler, models::Diagnostics& diagnostics,
            DumpCollector* dumps)
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
    const std::optional<models::tensor::DumpFileName> msprobe
        = models::tensor::parseMsprobeDataName(artifact.relativePath);
    const models::tensor::DumpFileName name = msprobe ? *msprobe : models::tensor::parseDumpFileName(fileName);
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

    models::tensor::TensorInfo info;
    info.path = artifact.path;
    info.format = QStringLiteral("npy");
    info.step = models::tensor::stepOfFolders(artifact.relativePath);
    if (info.step < 0)
        info.step = models::tensor::stepOfFileName(fileName);
    info.dtype = *element.type;
    info.shape = header.shape;
    info.byteSize = header.dataSize;
    info.note = element.note;
    info.source = npyTensorSource(artifact.path);

    models::tensor::TensorSeries series;
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
        if (models::tensor::stepOfFolders(artifact.relativePath) < 0 && info.step >= 0)
            base = models::tensor::withoutStepNumber(base);
        series.name = base;
        key = base;
    }
    assembler.add(artifact, key, models::tensor::folderWithoutStep(artifact.relativePath, mindspore), std::move(series),
                  std::move(info));
}

/// The members of an archive or the entries of a safetensors file: each one a series named after the file
/// and the member ("state_dict.npz/conv1.weight"), linked to the module its key names.
void addContainer(const models::Artifact& artifact, CatalogAssembler& assembler, models::Diagnostics& diagnostics,
                  DumpCollector* dumps)
{
    TensorListing listing = artifact.kind == models::ArtifactKind::TensorNpz ? listNpzFile(artifact.path)
        : artifact.kind == models::ArtifactKind::TensorPt                    ? listPtFile(artifact.path)
                                                                             : listSafetensorsFile(artifact.path);
    diagnostics.append(listing.diagnostics);
    if (!listing.error.isEmpty())
        diagnostics << warning(artifact.path, listing.error);
    const QString fileName = QFileInfo(artifact.path).fileName();
    int step = models::tensor::stepOfFolders(artifact.relativePath);
    QString fileKey = fileName;
    if (step < 0) {
        step = models::tensor::stepOfFileName(fileName);
        if (step >= 0)
            fileKey = models::tensor::withoutStepNumber(fileName);
    }
    const QString folder = models::tensor::folderWithoutStep(artifact.relativePath, false);
    const auto metadata = listing.metadata.isEmpty()
        ? nullptr
        : std::make_shared<const QMap<QString, QString>>(std::move(listing.metadata));
    const std::optional<models::tensor::DumpFileName> msprobe
        = models::tensor::parseMsprobeDataName(artifact.relativePath);
    if (msprobe)
        fileKey = QFileInfo(fileName).completeBaseName();
    for (models::tensor::TensorInfo& info : listing.tensors) {
        info.step = step;
        info.fileMetadata = metadata;
        // A state dict key is a module path and a role: "layer1.0.conv1.weight".
        const models::tensor::DumpFileName name = msprobe && info.member.isEmpty()
            ? *msprobe
            : models::tensor::parseDumpFileName(info.member + QStringLiteral(".npy"));
        if (dumps && msprobe && info.member.isEmpty()) {
            // msprobe's torch.save files belong to their dump entry like its .npy files do.
            models::graph::DumpEntry entry;
            entry.path = artifact.path;
            entry.step = step;
            entry.nodeKey = name.nodeKey;
            entry.io = name.io;
            entry.kind = name.kind;
            const std::string_view dtype = models::tensor::dtypeName(info.dtype);
            entry.dtype = QString::fromLatin1(dtype.data(), qsizetype(dtype.size()));
            for (const std::int64_t dim : info.shape)
                entry.shape << dim;
            entry.dataSize = info.byteSize;
            dumps->entries << entry;
        }
        models::tensor::TensorSeries series;
        // A torch.save of one tensor (msprobe dumps) is the file itself, as a .npy is.
        series.name = info.member.isEmpty() ? fileKey : fileKey + QLatin1Char('/') + info.member;
        series.nodeKey = name.nodeKey;
        series.kind = name.kind.isEmpty() ? info.member : name.kind;
        const QString key = series.name;
        assembler.add(artifact, key, folder, std::move(series), std::move(info));
    }
}

models::tensor::TensorCatalog buildCatalog(const models::RunManifest& manifest, const ImportControl& control,
                                           DumpCollector* dumps)
{
    CatalogAssembler assembler;
    models::Diagnostics diagnostics;
    int done = 0;
    int total = 0;
    for (const models::Artifact& artifact : manifest.artifacts)
        total += artifact.kind == models::ArtifactKind::TensorNpy || artifact.kind == models::ArtifactKind::TensorNpz
            || artifact.kind == models::ArtifactKind::TensorSafetensors
            || artifact.kind == models::ArtifactKind::TensorPt;
    for (const models::Artifact& artifact : manifest.artifacts) {
        if (control.canceled())
            break;
        switch (artifact.kind) {
        case models::ArtifactKind::TensorNpy:
            addNpy(artifact, assembler, diagnostics, dumps);
            break;
        case models::ArtifactKind::TensorNpz:
        case models::ArtifactKind::TensorSafetensors:
        case models::ArtifactKind::TensorPt:
            addContainer(artifact, assembler, diagnostics, dumps);
            break;
        default:
            continue;
        }
        control.report(int(1000LL * ++done / std::max(1, total)));
    }
    return models::tensor::TensorCatalog(assembler.take(), std::move(diagnostics));
}

/// A tensor file of a dump, listed when it is first opened: the single tensor of a torch.save file, or an
/// `.npy` array.
class DumpFileSource final : public models::tensor::TensorSource
{
public:
    explicit DumpFileSource(QString path)
        : m_path(std::move(path))
    { }

    models::tensor::TensorResult open() const override
    {
        if (m_path.endsWith(QLatin1String(".npy"), Qt::CaseInsensitive))
            return npyTensorSource(m_path)->open();
        const TensorListing listing = listPtFile(m_path);
        models::tensor::TensorResult result;
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

std::shared_ptr<const models::tensor::TensorSource> dumpTensorFileSource(const QString& path)
{
    return std::make_shared<DumpFileSource>(path);
}

models::tensor::TensorCatalog TensorCatalogBuilder::build(const models::RunManifest& manifest,
                                                          const ImportControl& control)
{
    return buildCatalog(manifest, control, nullptr);
}

TensorCatalogBuilder::WithDumps TensorCatalogBuilder::buildWithDumps(const models::RunManifest& manifest,
                                                                     const ImportControl& control)
{
    DumpCollector dumps;
    models::tensor::TensorCatalog catalog = buildCatalog(manifest, control, &dumps);
    return { std::move(catalog), models::graph::DumpIndex(std::move(dumps.entries), std::move(dumps.diagnostics)) };
}

} // namespace runlens::importers::tensor
