#pragma once

#include "widgets/common/chartexporter.h"
#include "widgets/common/chartexportmenu.h"

#include <QByteArray>
#include <QString>

class QTreeView;
class QWidget;

namespace runlens::widgets::cluster::clusterexport {

/// The CSV of a table as shown (its rows in the view's order, every column): the header texts, then per cell
/// the value of `rawRole` when the cell has one (numbers as numbers, not "12.3 ms"), else its text. A cell
/// with neither is empty. Fields are quoted as ChartExporter does.
QByteArray tableCsv(const QTreeView* view, int rawRole);

/// Writes `widget` as painted: PNG at ChartExporter::kPngScale, or SVG. False with a message naming the file.
bool saveWidget(QWidget* widget, ChartExporter::Format format, const QString& fileName, QString* errorMessage);

/// Writes `bytes` to `fileName` atomically. False with a message naming the file.
bool saveBytes(const QByteArray& bytes, const QString& fileName, QString* errorMessage);

/// The file an export goes to: what `provider` answers (empty: cancelled), else `baseName` with the format's
/// suffix in `directory`, numbered so that no file is overwritten (as ChartExportMenu does).
QString chooseFile(const ChartExportMenu::FileNameProvider& provider, ChartExporter::Format format,
                   const QString& directory, const QString& baseName);

} // namespace runlens::widgets::cluster::clusterexport
