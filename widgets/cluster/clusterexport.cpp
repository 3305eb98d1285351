#include "widgets/cluster/clusterexport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTreeView>

namespace runlens::widgets::cluster::clusterexport {

namespace {

void appendRaw(QByteArray& out, const QVariant& value)
{
    bool isNumber = false;
    const double number = value.toDouble(&isNumber);
    const auto type = value.metaType().id();
    if (isNumber && (type == QMetaType::Double || type == QMetaType::Int || type == QMetaType::LongLong)) {
        // The shortest text that reads back to the same double, as ChartExporter writes numbers.
        out += QByteArray::number(number, 'g', QLocale::FloatingPointShortest);
        return;
    }
    ChartExporter::appendCsvField(out, value.toString());
}

} // namespace

QByteArray tableCsv(const QTreeView* view, int rawRole)
{
    QByteArray out;
    const QAbstractItemModel* model = view->model();
    if (!model)
        return out;
    const int columns = model->columnCount();
    for (int c = 0; c < columns; ++c) {
        if (c > 0)
            out += ',';
        ChartExporter::appendCsvField(out, model->headerData(c, Qt::Horizontal).toString());
    }
    out += '\n';
    for (int row = 0; row < model->rowCount(); ++row) {
        for (int c = 0; c < columns; ++c) {
            if (c > 0)
                out += ',';
            const QModelIndex index = model->index(row, c);
            const QVariant raw = index.data(rawRole);
            if (raw.isValid())
                appendRaw(out, raw);
            else
                ChartExporter::appendCsvField(out, index.data(Qt::DisplayRole).toString());
        }
        out += '\n';
    }
    return out;
}

bool saveBytes(const QByteArray& bytes, const QString& fileName, QString* errorMessage)
{
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (errorMessage)
            *errorMessage
                = QCoreApplication::translate("runlens::widgets::cluster::ClusterPanel", "Cannot write %1: %2")
                      .arg(QDir::toNativeSeparators(fileName), file.errorString());
        return false;
    }
    return true;
}

bool saveWidget(QWidget* widget, ChartExporter::Format format, const QString& fileName, QString* errorMessage)
{
    const QSize size = widget->size().isEmpty() ? ChartExporter::kDefaultSize : widget->size();
    if (widget->size().isEmpty())
        widget->resize(size);
    bool ok = false;
    if (format == ChartExporter::Format::Svg) {
        QSvgGenerator generator;
        generator.setFileName(fileName);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(widget->accessibleName());
        QPainter painter;
        ok = painter.begin(&generator);
        if (ok) {
            widget->render(&painter);
            ok = painter.end();
        }
        ok = ok && QFileInfo(fileName).size() > 0;
    } else if (format == ChartExporter::Format::Png) {
        QImage image(size * ChartExporter::kPngScale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(ChartExporter::kPngScale);
        image.fill(Qt::white);
        widget->render(&image);
        ok = image.save(fileName, "PNG");
    }
    if (!ok && errorMessage)
        *errorMessage = QCoreApplication::translate("runlens::widgets::cluster::ClusterPanel", "Cannot write %1")
                            .arg(QDir::toNativeSeparators(fileName));
    return ok;
}

QString chooseFile(const ChartExportMenu::FileNameProvider& provider, ChartExporter::Format format,
                   const QString& directory, const QString& baseName)
{
    const QDir dir(directory);
    const QString base = ChartExportMenu::safeFileName(baseName);
    const QString suffix = ChartExporter::suffix(format);
    if (provider)
        return provider(format, dir.filePath(base + QLatin1Char('.') + suffix));
    QString candidate = dir.filePath(base + QLatin1Char('.') + suffix);
    for (int i = 2; QFileInfo::exists(candidate) && i < 10000; ++i)
        candidate = dir.filePath(QStringLiteral("%1-%2.%3").arg(base).arg(i).arg(suffix));
    return candidate;
}

} // namespace runlens::widgets::cluster::clusterexport
