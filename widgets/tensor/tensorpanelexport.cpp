#include "widgets/tensor/tensorpanel.h"

#include "widgets/tensor/heatmapview.h"
#include "widgets/tensor/slicecontrols.h"
#include "widgets/tensor/tensorexport.h"

#include "models/core/workerpool.h"
#include "models/tensor/tensorrows.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPointer>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

namespace runlens::widgets::tensor {

namespace {

QString safeFileName(QString name)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    name.replace(unsafe, QStringLiteral("_"));
    while (name.startsWith(QLatin1Char('_')) || name.startsWith(QLatin1Char('.')))
        name.remove(0, 1);
    while (name.endsWith(QLatin1Char('_')))
        name.chop(1);
    return name.isEmpty() ? QStringLiteral("tensor") : name.left(120);
}

QString suffixOf(TensorPanel::ExportFormat format)
{
    switch (format) {
    case TensorPanel::ExportFormat::Csv:
        return QStringLiteral("csv");
    case TensorPanel::ExportFormat::Png:
        return QStringLiteral("png");
    case TensorPanel::ExportFormat::Npy:
        return QStringLiteral("npy");
    }
    return {};
}

QString filterOf(TensorPanel::ExportFormat format)
{
    switch (format) {
    case TensorPanel::ExportFormat::Csv:
        return TensorPanel::tr("CSV files (*.csv)");
    case TensorPanel::ExportFormat::Png:
        return TensorPanel::tr("PNG images (*.png)");
    case TensorPanel::ExportFormat::Npy:
        return TensorPanel::tr("NumPy arrays (*.npy)");
    }
    return {};
}

} // namespace

QString TensorPanel::defaultExportDirectory() const
{
    if (!m_exportDirectory.isEmpty())
        return m_exportDirectory;
    QString dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (dir.isEmpty() || !QDir(dir).exists())
        dir = QDir::homePath();
    return dir;
}

QString TensorPanel::suggestedExportName(ExportFormat format) const
{
    const models::tensor::TensorInfo* info = currentInfo();
    QString base = info ? m_catalog->series()[m_series].name : QStringLiteral("tensor");
    if (info && info->step >= 0)
        base += QStringLiteral("-step%1").arg(info->step);
    const QString expression = m_slice->expression();
    if (!expression.isEmpty() && m_tensor && m_tensor->rank() > 2)
        base += QLatin1Char('-') + expression;
    return safeFileName(base) + QLatin1Char('.') + suffixOf(format);
}

QString TensorPanel::requestExport(ExportFormat format)
{
    if (!currentView()) {
        emit statusMessage(tr("Nothing to export: no tensor is shown."));
        return {};
    }
    const QDir dir(defaultExportDirectory());
    QString fileName = dir.filePath(suggestedExportName(format));
    if (m_fileNameProvider) {
        fileName = m_fileNameProvider(fileName, filterOf(format));
        if (fileName.isEmpty())
            return {};
    } else {
        const QFileInfo first(fileName);
        for (int i = 2; QFileInfo::exists(fileName) && i < 10000; ++i)
            fileName
                = dir.filePath(QStringLiteral("%1-%2.%3").arg(first.completeBaseName()).arg(i).arg(first.suffix()));
    }
    QString error;
    if (!exportTo(format, fileName, &error)) {
        emit statusMessage(error);
        return {};
    }
    emit statusMessage(tr("Exported %1").arg(QDir::toNativeSeparators(fileName)));
    return fileName;
}

bool TensorPanel::exportTo(ExportFormat format, const QString& fileName, QString* errorMessage) const
{
    auto fail = [&](const QString& why) {
        if (errorMessage)
            *errorMessage = tr("Cannot export to %1: %2").arg(QDir::toNativeSeparators(fileName), why);
        return false;
    };
    const std::optional<models::tensor::Tensor> view = currentView();
    if (!view)
        return fail(tr("no tensor is shown."));
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly))
        return fail(file.errorString());
    QString error;
    bool ok = false;
    switch (format) {
    case ExportFormat::Csv:
        ok = writeCsv(*view, file, &error);
        break;
    case ExportFormat::Npy:
        ok = writeNpy(*view, file, &error);
        break;
    case ExportFormat::Png: {
        const QImage image = m_heatmap->renderImage();
        if (image.isNull())
            error = tr("the heatmap shows nothing (a scalar or an empty slice).");
        else if (!image.save(&file, "PNG"))
            error = tr("the image could not be encoded.");
        else
            ok = true;
        break;
    }
    }
    if (!ok) {
        file.cancelWriting();
        return fail(error);
    }
    if (!file.commit())
        return fail(file.errorString());
    return true;
}

bool TensorPanel::projectRows()
{
    if (!m_tensor || m_tensor->rank() < 2 || m_tensor->shape[0] < 2) {
        emit statusMessage(tr("Nothing to project: the shown tensor has no rows (two or more dimensions)."));
        return false;
    }
    if (m_projectJob)
        *m_projectJob = true; // the previous request is superseded
    auto job = std::make_shared<std::atomic_bool>(false);
    m_projectJob = job;
    const models::tensor::TensorInfo* info = currentInfo();
    QString name = m_tensor->name;
    if (info && info->step >= 0)
        name = tr("%1 (step %2)").arg(name).arg(info->step);
    const QString source = info ? info->path : QString();
    emit statusMessage(tr("Projecting the rows of %1\u2026").arg(name));
    // The result comes back through the application object, guarded: the panel may be gone by then.
    QPointer<TensorPanel> self(this);
    QtConcurrent::run(models::workerPool(), [tensor = *m_tensor, name, source, job, self] {
        models::tensor::TensorRows rows
            = models::tensor::tensorRowsAsEmbeddings(tensor, name, source, [job] { return job->load(); });
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, job, rows = std::move(rows)] {
                if (!self || self->m_projectJob != job || job->load())
                    return;
                self->m_projectJob.reset();
                if (!rows.set) {
                    emit self->statusMessage(rows.error);
                    return;
                }
                emit self->statusMessage(
                    tr("%n point(s) of %1 dimensions sent to the Projector", nullptr, rows.set->rows)
                        .arg(rows.set->dims));
                emit self->rowsProjected(rows.set);
            },
            Qt::QueuedConnection);
    });
    return true;
}

} // namespace runlens::widgets::tensor
