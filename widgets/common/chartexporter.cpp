#include "widgets/common/chartexporter.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSvgGenerator>

#include <qcustomplot.h>

#include <charconv>
#include <cmath>

namespace runlens::widgets {

namespace {

void setError(QString* errorMessage, const QString& message)
{
    if (errorMessage)
        *errorMessage = message;
}

void appendNumber(QByteArray& out, double value)
{
    if (std::isnan(value)) {
        out += "nan";
        return;
    }
    if (std::isinf(value)) {
        out += value > 0 ? "inf" : "-inf";
        return;
    }
    char buffer[32];
    // Whole numbers (counts, nanoseconds) in plain digits; std::to_chars' shortest form would write
    // 1500000000 as 1.5e+09.
    if (value == std::trunc(value) && std::fabs(value) < 9.0e15) {
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, std::int64_t(value));
        out.append(buffer, int(result.ptr - buffer));
        return;
    }
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, int(result.ptr - buffer));
}

bool ensureParentExists(const QString& fileName, QString* errorMessage)
{
    const QFileInfo info(fileName);
    if (info.absoluteDir().exists())
        return true;
    setError(errorMessage,
             ChartExporter::tr("Cannot write %1: the folder %2 does not exist.").arg(fileName, info.absolutePath()));
    return false;
}

} // namespace

std::optional<ChartExporter::Format> ChartExporter::formatForFileName(const QString& fileName)
{
    const QString suffix = QFileInfo(fileName).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return Format::Png;
    if (suffix == QLatin1String("svg"))
        return Format::Svg;
    if (suffix == QLatin1String("pdf"))
        return Format::Pdf;
    if (suffix == QLatin1String("csv"))
        return Format::Csv;
    return std::nullopt;
}

QString ChartExporter::suffix(Format format)
{
    switch (format) {
    case Format::Png:
        return QStringLiteral("png");
    case Format::Svg:
        return QStringLiteral("svg");
    case Format::Pdf:
        return QStringLiteral("pdf");
    case Format::Csv:
        return QStringLiteral("csv");
    }
    return {};
}

QString ChartExporter::displayName(Format format)
{
    switch (format) {
    case Format::Png:
        return tr("PNG image");
    case Format::Svg:
        return tr("SVG drawing");
    case Format::Pdf:
        return tr("PDF document");
    case Format::Csv:
        return tr("CSV table");
    }
    return {};
}

QString ChartExporter::fileDialogFilter(Format format)
{
    return tr("%1 (*.%2)").arg(displayName(format), suffix(format));
}

QSize ChartExporter::effectiveSize(const QCustomPlot* plot, QSize size)
{
    if (size.isValid() && !size.isEmpty())
        return size;
    // A plot that was never shown nor resized still has QWidget's placeholder geometry.
    if (plot && (plot->isVisible() || plot->testAttribute(Qt::WA_Resized)) && !plot->size().isEmpty())
        return plot->size();
    return kDefaultSize;
}

bool ChartExporter::exportChart(QCustomPlot* plot, const ChartData& data, const QString& fileName, Format format,
                                QSize size, QString* errorMessage)
{
    switch (format) {
    case Format::Png:
        return savePng(plot, fileName, size, kPngScale, errorMessage);
    case Format::Svg:
        return saveSvg(plot, fileName, size, errorMessage);
    case Format::Pdf:
        return savePdf(plot, fileName, size, errorMessage);
    case Format::Csv:
        return saveCsv(data, fileName, errorMessage);
    }
    return false;
}

bool ChartExporter::exportChart(QCustomPlot* plot, const ChartData& data, const QString& fileName, QSize size,
                                QString* errorMessage)
{
    const auto format = formatForFileName(fileName);
    if (!format) {
        setError(
            errorMessage,
            tr("Cannot export to %1: unknown file type. Use a name ending in .png, .svg, .pdf or .csv.").arg(fileName));
        return false;
    }
    return exportChart(plot, data, fileName, *format, size, errorMessage);
}

bool ChartExporter::savePng(QCustomPlot* plot, const QString& fileName, QSize size, double scale, QString* errorMessage)
{
    if (!plot || !ensureParentExists(fileName, errorMessage))
        return false;
    const QSize s = effectiveSize(plot, size);
    if (!plot->savePng(fileName, s.width(), s.height(), scale)) {
        setError(errorMessage, tr("Cannot write the PNG image %1. Check that the folder is writable.").arg(fileName));
        return false;
    }
    return true;
}

bool ChartExporter::saveSvg(QCustomPlot* plot, const QString& fileName, QSize size, QString* errorMessage)
{
    if (!plot || !ensureParentExists(fileName, errorMessage))
        return false;
    const QSize s = effectiveSize(plot, size);
    {
        QFile probe(fileName);
        if (!probe.open(QIODevice::WriteOnly)) {
            setError(errorMessage, tr("Cannot write the SVG drawing %1: %2").arg(fileName, probe.errorString()));
            return false;
        }
    }
    QSvgGenerator generator;
    generator.setFileName(fileName);
    generator.setSize(s);
    generator.setViewBox(QRect(QPoint(0, 0), s));
    generator.setResolution(96);
    generator.setTitle(QFileInfo(fileName).completeBaseName());
    generator.setDescription(tr("Chart exported by RunLens"));
    QCPPainter painter;
    if (!painter.begin(&generator)) {
        setError(errorMessage, tr("Cannot write the SVG drawing %1.").arg(fileName));
        return false;
    }
    painter.setMode(QCPPainter::pmVectorized);
    plot->toPainter(&painter, s.width(), s.height());
    painter.end();
    return true;
}

bool ChartExporter::savePdf(QCustomPlot* plot, const QString& fileName, QSize size, QString* errorMessage)
{
    if (!plot || !ensureParentExists(fileName, errorMessage))
        return false;
    const QSize s = effectiveSize(plot, size);
    if (!plot->savePdf(fileName, s.width(), s.height(), QCP::epNoCosmetic, QStringLiteral("RunLens"),
                       QFileInfo(fileName).completeBaseName())) {
        setError(errorMessage,
                 tr("Cannot write the PDF document %1. Check that the folder is writable.").arg(fileName));
        return false;
    }
    return true;
}

bool ChartExporter::saveCsv(const ChartData& data, const QString& fileName, QString* errorMessage)
{
    if (!ensureParentExists(fileName, errorMessage))
        return false;
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly)) {
        setError(errorMessage, tr("Cannot write the CSV table %1: %2").arg(fileName, file.errorString()));
        return false;
    }
    file.write(toCsv(data));
    if (!file.commit()) {
        setError(errorMessage, tr("Cannot write the CSV table %1: %2").arg(fileName, file.errorString()));
        return false;
    }
    return true;
}

void ChartExporter::appendCsvField(QByteArray& out, const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    const bool quote = utf8.contains(',') || utf8.contains('"') || utf8.contains('\n') || utf8.contains('\r')
        || utf8.startsWith(' ') || utf8.endsWith(' ');
    if (!quote) {
        out += utf8;
        return;
    }
    out += '"';
    for (char c : utf8) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
}

QByteArray ChartExporter::toCsv(const ChartData& data)
{
    QByteArray out;
    out.reserve(int(64 + data.rowCount() * (16 + 20 * std::size_t(data.columns.size()))));
    appendCsvField(out, data.seriesColumn);
    for (const QString& column : data.columns) {
        out += ',';
        appendCsvField(out, column);
    }
    out += '\n';
    for (const ChartSeriesData& series : data.series) {
        const std::size_t rows = series.rowCount();
        QByteArray name;
        appendCsvField(name, series.name);
        for (std::size_t row = 0; row < rows; ++row) {
            out += name;
            for (const auto& column : series.columns) {
                out += ',';
                if (row < column.size())
                    appendNumber(out, column[row]);
            }
            out += '\n';
        }
    }
    return out;
}

} // namespace runlens::widgets
