#include "widgets/common/chartexportmenu.h"

#include "widgets/common/charticons.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QMenu>
#include <QRegularExpression>
#include <QStandardPaths>

#include <qcustomplot.h>

namespace runlens::widgets {

ChartExportMenu::ChartExportMenu(QCustomPlot* plot, QObject* parent)
    : QObject(parent ? parent : plot)
    , m_plot(plot)
{
    auto makeAction = [this](Format format, const QString& text, const QString& icon) {
        auto* action = new QAction(chartIcon(icon), text, this);
        action->setToolTip(tr("Save the chart as a %1").arg(ChartExporter::displayName(format)));
        connect(action, &QAction::triggered, this, [this, format] { requestExport(format); });
        return action;
    };
    m_png = makeAction(Format::Png, tr("Export as PNG…"), QStringLiteral("chart-export-image"));
    m_svg = makeAction(Format::Svg, tr("Export as SVG…"), QStringLiteral("chart-export-image"));
    m_pdf = makeAction(Format::Pdf, tr("Export as PDF…"), QStringLiteral("chart-export-document"));
    m_csv = makeAction(Format::Csv, tr("Export as CSV…"), QStringLiteral("chart-export-table"));
}

ChartExportMenu::~ChartExportMenu() = default;

void ChartExportMenu::setBaseName(const QString& name)
{
    const QString safe = safeFileName(name);
    m_baseName = safe.isEmpty() ? QStringLiteral("chart") : safe;
}

QString ChartExportMenu::defaultDirectory() const
{
    if (!m_defaultDirectory.isEmpty())
        return m_defaultDirectory;
    QString dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (dir.isEmpty() || !QDir(dir).exists())
        dir = QDir::homePath();
    return dir;
}

QString ChartExportMenu::suggestedFileName(Format format) const
{
    return QDir(defaultDirectory()).filePath(m_baseName + QLatin1Char('.') + ChartExporter::suffix(format));
}

QString ChartExportMenu::uniqueDefaultFileName(Format format) const
{
    const QDir dir(defaultDirectory());
    const QString suffix = ChartExporter::suffix(format);
    QString candidate = dir.filePath(m_baseName + QLatin1Char('.') + suffix);
    for (int i = 2; QFileInfo::exists(candidate) && i < 10000; ++i)
        candidate = dir.filePath(QStringLiteral("%1-%2.%3").arg(m_baseName).arg(i).arg(suffix));
    return candidate;
}

QAction* ChartExportMenu::action(Format format) const
{
    switch (format) {
    case Format::Png:
        return m_png;
    case Format::Svg:
        return m_svg;
    case Format::Pdf:
        return m_pdf;
    case Format::Csv:
        return m_csv;
    }
    return nullptr;
}

QList<QAction*> ChartExportMenu::actions() const
{
    return { m_png, m_svg, m_pdf, m_csv };
}

void ChartExportMenu::addTo(QMenu* menu) const
{
    if (menu)
        menu->addActions(actions());
}

QString ChartExportMenu::requestExport(Format format)
{
    QString fileName;
    if (m_fileNameProvider) {
        fileName = m_fileNameProvider(format, suggestedFileName(format));
        if (fileName.isEmpty())
            return {}; // cancelled
    } else {
        fileName = uniqueDefaultFileName(format);
    }
    QString error;
    if (!exportTo(format, fileName, &error)) {
        emit exportFailed(error);
        return {};
    }
    emit exported(fileName);
    return fileName;
}

bool ChartExportMenu::exportTo(Format format, const QString& fileName, QString* errorMessage)
{
    if (!m_plot) {
        if (errorMessage)
            *errorMessage = tr("Cannot export to %1: the chart no longer exists.").arg(fileName);
        return false;
    }
    if (format == Format::Csv)
        return ChartExporter::exportChart(m_plot, m_dataProvider ? m_dataProvider() : ChartData {}, fileName, format,
                                          {}, errorMessage);
    if (m_exportHook)
        m_exportHook(true);
    const bool ok = ChartExporter::exportChart(m_plot, {}, fileName, format, {}, errorMessage);
    if (m_exportHook)
        m_exportHook(false);
    return ok;
}

QString ChartExportMenu::safeFileName(const QString& name)
{
    static const QRegularExpression unsafe(QStringLiteral(R"([\\/:*?"<>|\x00-\x1f]+)"));
    QString out = name;
    out.replace(unsafe, QStringLiteral("_"));
    out = out.trimmed();
    while (out.startsWith(QLatin1Char('.')))
        out.remove(0, 1);
    return out.left(120);
}

} // namespace runlens::widgets
