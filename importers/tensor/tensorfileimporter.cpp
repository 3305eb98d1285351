#include "importers/tensor/tensorfileimporter.h"

#include "importers/tensor/npyfile.h"
#include "importers/tensor/npzfile.h"
#include "importers/tensor/ptfile.h"
#include "importers/tensor/safetensorsfile.h"
#include "models/tensor/tensorcatalog.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace runlens::tensor {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("runlens::tensor", text);
}

/// The tensors of one file, each with a way to open it.
struct Listed
{
    QList<TensorInfo> tensors;
    QMap<QString, QString> metadata;
    QString error;
    Diagnostics diagnostics;
};

Listed listFile(const QString& path, ArtifactKind kind)
{
    Listed out;
    switch (kind) {
    case ArtifactKind::TensorNpy: {
        NpyFileResult opened = openNpyFile(path);
        if (!opened.tensor) {
            out.error = opened.error;
            break;
        }
        TensorInfo info;
        info.path = path;
        info.format = QStringLiteral("npy");
        info.dtype = opened.tensor->dtype;
        info.shape = opened.tensor->shape;
        info.note = opened.note;
        info.source = npyTensorSource(path);
        out.tensors << info;
        break;
    }
    case ArtifactKind::TensorNpz:
    case ArtifactKind::TensorSafetensors:
    case ArtifactKind::TensorPt: {
        TensorListing listing = kind == ArtifactKind::TensorNpz ? listNpzFile(path)
            : kind == ArtifactKind::TensorPt                    ? listPtFile(path)
                                                                : listSafetensorsFile(path);
        out.tensors = std::move(listing.tensors);
        out.metadata = std::move(listing.metadata);
        out.diagnostics = std::move(listing.diagnostics);
        // A damaged archive keeps the members listed before the damage.
        if (!listing.error.isEmpty()) {
            if (out.tensors.isEmpty()) {
                out.error = listing.error;
            } else {
                Diagnostic d;
                d.severity = Severity::Error;
                d.file = path;
                d.message = listing.error;
                out.diagnostics << d;
            }
        }
        break;
    }
    default:
        out.error = tr("%1: this kind of tensor file is not read yet").arg(path);
    }
    return out;
}

} // namespace

TensorFileImporter::TensorFileImporter(QString path, ArtifactKind kind)
    : m_path(std::move(path))
    , m_kind(kind)
{ }

ImportUpdate TensorFileImporter::poll(const ImportControl& control)
{
    ImportUpdate update;
    Listed listed = listFile(m_path, m_kind);
    update.diagnostics = listed.diagnostics;
    if (!listed.error.isEmpty()) {
        Diagnostic d;
        d.severity = Severity::Error;
        d.file = m_path;
        d.message = listed.error;
        update.diagnostics << d;
        update.status = ImportStatus::Failed;
        return update;
    }
    QList<TensorSummary> summaries;
    bool partial = !listed.diagnostics.isEmpty();
    for (int i = 0; i < listed.tensors.size(); ++i) {
        const TensorInfo& info = listed.tensors[i];
        TensorSummary summary;
        summary.member = info.member;
        summary.dtype = info.dtype;
        summary.shape = info.shape;
        summary.note = info.note;
        const TensorResult opened = info.source->open();
        if (!opened.tensor) {
            Diagnostic d;
            d.severity = Severity::Warning;
            d.file = m_path;
            d.message = opened.error;
            update.diagnostics << d;
            partial = true;
        } else {
            // Files hold their tensors densely (C or Fortran order), and statistics do not depend on the
            // order of the elements, so the values are read as one run.
            const Tensor& t = *opened.tensor;
            StatisticsOptions options;
            options.cancel = [&control] { return control.canceled(); };
            const TensorStatistics stats
                = computeStatistics(t.data->data() + t.offset, t.elementCount(), t.dtype, t.swap, options);
            if (stats.cancelled) {
                update.status = ImportStatus::Canceled;
                return update;
            }
            summary.statistics = stats;
            update.bytesRead += byteCount(t.elementCount(), itemSize(t.dtype));
            if (const QString damage = t.data->damage(); !damage.isEmpty()) {
                update.diagnostics << Diagnostic { Severity::Error, m_path, -1, -1, damage };
                partial = true;
            }
        }
        summaries << summary;
        control.report(int(1000LL * (i + 1) / listed.tensors.size()));
    }
    update.recordsRead = summaries.size();
    update.tensors = std::move(summaries);
    update.tensorFileMetadata = std::move(listed.metadata);
    update.status = partial ? ImportStatus::Partial : ImportStatus::Ok;
    return update;
}

} // namespace runlens::tensor
