#include "importers/tensor/tensorfileimporter.h"

#include "importers/tensor/npyfile.h"
#include "importers/tensor/npzfile.h"
#include "importers/tensor/ptfile.h"
#include "importers/tensor/safetensorsfile.h"
#include "models/tensor/tensorcatalog.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace runlens::importers::tensor {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::tensor)
};

/// The tensors of one file, each with a way to open it.
struct Listed
{
    QList<models::tensor::TensorInfo> tensors;
    QMap<QString, QString> metadata;
    QString error;
    models::Diagnostics diagnostics;
};

Listed listFile(const QString& path, models::ArtifactKind kind)
{
    Listed out;
    switch (kind) {
    case models::ArtifactKind::TensorNpy: {
        NpyFileResult opened = openNpyFile(path);
        if (!opened.tensor) {
            out.error = opened.error;
            break;
        }
        models::tensor::TensorInfo info;
        info.path = path;
        info.format = QStringLiteral("npy");
        info.dtype = opened.tensor->dtype;
        info.shape = opened.tensor->shape;
        info.note = opened.note;
        info.source = npyTensorSource(path);
        out.tensors << info;
        break;
    }
    case models::ArtifactKind::TensorNpz:
    case models::ArtifactKind::TensorSafetensors:
    case models::ArtifactKind::TensorPt: {
        TensorListing listing = kind == models::ArtifactKind::TensorNpz ? listNpzFile(path)
            : kind == models::ArtifactKind::TensorPt                    ? listPtFile(path)
                                                                        : listSafetensorsFile(path);
        out.tensors = std::move(listing.tensors);
        out.metadata = std::move(listing.metadata);
        out.diagnostics = std::move(listing.diagnostics);
        // A damaged archive keeps the members listed before the damage.
        if (!listing.error.isEmpty()) {
            if (out.tensors.isEmpty()) {
                out.error = listing.error;
            } else {
                models::Diagnostic d;
                d.severity = models::Severity::Error;
                d.file = path;
                d.message = listing.error;
                out.diagnostics << d;
            }
        }
        break;
    }
    default:
        out.error = Text::tr("%1: this kind of tensor file is not read yet").arg(path);
    }
    return out;
}

} // namespace

TensorFileImporter::TensorFileImporter(QString path, models::ArtifactKind kind)
    : m_path(std::move(path))
    , m_kind(kind)
{ }

ImportUpdate TensorFileImporter::poll(const ImportControl& control)
{
    ImportUpdate update;
    Listed listed = listFile(m_path, m_kind);
    update.diagnostics = listed.diagnostics;
    if (!listed.error.isEmpty()) {
        models::Diagnostic d;
        d.severity = models::Severity::Error;
        d.file = m_path;
        d.message = listed.error;
        update.diagnostics << d;
        update.status = models::ImportStatus::Failed;
        return update;
    }
    QList<models::tensor::TensorSummary> summaries;
    bool partial = !listed.diagnostics.isEmpty();
    for (int i = 0; i < listed.tensors.size(); ++i) {
        const models::tensor::TensorInfo& info = listed.tensors[i];
        models::tensor::TensorSummary summary;
        summary.member = info.member;
        summary.dtype = info.dtype;
        summary.shape = info.shape;
        summary.note = info.note;
        const models::tensor::TensorResult opened = info.source->open();
        if (!opened.tensor) {
            models::Diagnostic d;
            d.severity = models::Severity::Warning;
            d.file = m_path;
            d.message = opened.error;
            update.diagnostics << d;
            partial = true;
        } else {
            // Files hold their tensors densely (C or Fortran order), and statistics do not depend on the
            // order of the elements, so the values are read as one run.
            const models::tensor::Tensor& t = *opened.tensor;
            models::tensor::StatisticsOptions options;
            options.cancel = [&control] { return control.canceled(); };
            const models::tensor::TensorStatistics stats = models::tensor::computeStatistics(
                t.data->data() + t.offset, t.elementCount(), t.dtype, t.swap, options);
            if (stats.cancelled) {
                update.status = models::ImportStatus::Canceled;
                return update;
            }
            summary.statistics = stats;
            update.bytesRead += models::tensor::byteCount(t.elementCount(), models::tensor::itemSize(t.dtype));
            if (const QString damage = t.data->damage(); !damage.isEmpty()) {
                update.diagnostics << models::Diagnostic { models::Severity::Error, m_path, -1, -1, damage };
                partial = true;
            }
        }
        summaries << summary;
        control.report(int(1000LL * (i + 1) / listed.tensors.size()));
    }
    update.recordsRead = summaries.size();
    update.tensors = std::move(summaries);
    update.tensorFileMetadata = std::move(listed.metadata);
    update.status = partial ? models::ImportStatus::Partial : models::ImportStatus::Ok;
    return update;
}

} // namespace runlens::importers::tensor
