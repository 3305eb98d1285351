#pragma once

#include "widgets/common/chartdata.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QObject>
#include <QSize>
#include <QString>

#include <optional>

class QCustomPlot;

namespace runlens::widgets {

/// Writes a QCustomPlot chart to a file: PNG (rendered at 2x for crisp output on high-density screens
/// and in documents), SVG and PDF (vector), or CSV (the ChartData behind the chart, not its pixels).
/// Stateless; works without a display (QT_QPA_PLATFORM=offscreen) for the command line export.
class ChartExporter final
{
    Q_GADGET
    Q_DECLARE_TR_FUNCTIONS(runlens::widgets::ChartExporter)
public:
    enum class Format { Png, Svg, Pdf, Csv };
    Q_ENUM(Format)

    /// The format for a file name by its suffix (case-insensitive), or nothing for an unknown suffix.
    static std::optional<Format> formatForFileName(const QString& fileName);
    static QString suffix(Format format); ///< "png", "svg", "pdf", "csv"
    static QString displayName(Format format); ///< translated, e.g. "PNG image"
    static QString fileDialogFilter(Format format); ///< translated, e.g. "PNG image (*.png)"

    /// Writes `plot` (or `data` for CSV) to `fileName` in `format`. `size` is the logical size of the
    /// picture; an empty size uses the plot's current size (or 800x500 when it has never been shown).
    /// Returns false with a message naming the file in `errorMessage` on failure.
    static bool exportChart(QCustomPlot* plot, const ChartData& data, const QString& fileName, Format format,
                            QSize size = {}, QString* errorMessage = nullptr);
    /// The same, with the format taken from the file name's suffix.
    static bool exportChart(QCustomPlot* plot, const ChartData& data, const QString& fileName, QSize size = {},
                            QString* errorMessage = nullptr);

    static bool savePng(QCustomPlot* plot, const QString& fileName, QSize size = {}, double scale = kPngScale,
                        QString* errorMessage = nullptr);
    static bool saveSvg(QCustomPlot* plot, const QString& fileName, QSize size = {}, QString* errorMessage = nullptr);
    static bool savePdf(QCustomPlot* plot, const QString& fileName, QSize size = {}, QString* errorMessage = nullptr);
    static bool saveCsv(const ChartData& data, const QString& fileName, QString* errorMessage = nullptr);

    /// The CSV text: a header (series column, then the numeric columns) and one row per point. Numbers use
    /// the shortest text that reads back to the same double; non-finite values are written nan, inf, -inf.
    static QByteArray toCsv(const ChartData& data);
    /// Appends one CSV field (RFC 4180 quoting when needed), UTF-8.
    static void appendCsvField(QByteArray& out, const QString& text);

    static constexpr double kPngScale = 2.0;
    static constexpr QSize kDefaultSize { 800, 500 };

private:
    static QSize effectiveSize(const QCustomPlot* plot, QSize size);
};

} // namespace runlens::widgets
