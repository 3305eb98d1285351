#pragma once

#include <QIcon>
#include <QString>

class QToolButton;
class QWidget;

namespace runlens::widgets {

/// The icon ":/icons/<name>.svg" when the application's resources hold it, else a null icon (menus and
/// buttons then show their text only). Checking first keeps tests and tools without resources quiet.
QIcon chartIcon(const QString& name);

/// The "Export" button of a panel's header row: icon and text, flat, its menu (set by the panel) popping
/// up at once.
QToolButton* makeExportButton(QWidget* parent, const QString& objectName,
                              const QString& icon = QStringLiteral("chart-export-image"));

} // namespace runlens::widgets
