#pragma once

#include "widgets/common/chartdata.h"
#include "widgets/common/chartexporter.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QAction;
class QCustomPlot;
class QMenu;

namespace runlens::widgets {

/// The "Export as PNG/SVG/PDF/CSV…" actions of one chart. Owns its four actions; the chart adds them to
/// its context menu with addTo(). Choosing the file name is the application's business (widgets show no
/// dialogs): it installs a FileNameProvider that opens a QFileDialog. Without one, exports go to
/// defaultDirectory() under the suggested name, never overwriting an existing file, which is what tests
/// and scripted use want.
class ChartExportMenu final : public QObject
{
    Q_OBJECT
public:
    using Format = ChartExporter::Format;
    using DataProvider = std::function<ChartData()>;
    /// Returns the file to write for `format`, given a suggested absolute file name; empty cancels.
    using FileNameProvider = std::function<QString(Format format, const QString& suggestedFileName)>;
    /// Called with true before a picture is rendered and with false after, so the chart can show what only
    /// an exported picture needs (a legend, for example).
    using ExportHook = std::function<void(bool exporting)>;

    /// `plot` is the chart to export; the menu is its child unless another parent is given.
    explicit ChartExportMenu(QCustomPlot* plot, QObject* parent = nullptr);
    ~ChartExportMenu() override;

    void setDataProvider(DataProvider provider) { m_dataProvider = std::move(provider); }
    void setFileNameProvider(FileNameProvider provider) { m_fileNameProvider = std::move(provider); }
    bool hasFileNameProvider() const { return bool(m_fileNameProvider); }
    void setExportHook(ExportHook hook) { m_exportHook = std::move(hook); }

    /// Base of suggested file names (without suffix); characters unsafe in file names are replaced.
    void setBaseName(const QString& name);
    QString baseName() const { return m_baseName; }
    void setDefaultDirectory(const QString& directory) { m_defaultDirectory = directory; }
    /// Where exports go when no FileNameProvider is installed; defaults to the user's pictures folder.
    QString defaultDirectory() const;
    QString suggestedFileName(Format format) const;

    QAction* action(Format format) const;
    QList<QAction*> actions() const;
    void addTo(QMenu* menu) const;

    /// Asks the FileNameProvider (or takes the default name) and exports. Returns the written file, or
    /// an empty string when cancelled or failed.
    QString requestExport(Format format);
    /// Exports to `fileName` without asking.
    bool exportTo(Format format, const QString& fileName, QString* errorMessage = nullptr);

    /// Replaces characters that are unsafe in file names ('/', ':' and friends) with '_'.
    static QString safeFileName(const QString& name);

signals:
    void exported(const QString& fileName);
    void exportFailed(const QString& message);

private:
    QString uniqueDefaultFileName(Format format) const;

    QPointer<QCustomPlot> m_plot;
    DataProvider m_dataProvider;
    FileNameProvider m_fileNameProvider;
    ExportHook m_exportHook;
    QString m_baseName = QStringLiteral("chart");
    QString m_defaultDirectory;
    QAction* m_png = nullptr;
    QAction* m_svg = nullptr;
    QAction* m_pdf = nullptr;
    QAction* m_csv = nullptr;
};

} // namespace runlens::widgets
