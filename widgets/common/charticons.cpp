#include "widgets/common/charticons.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QToolButton>

namespace runlens::widgets {

QIcon chartIcon(const QString& name)
{
    static QHash<QString, QIcon> cache;
    const auto it = cache.constFind(name);
    if (it != cache.cend())
        return *it;
    const QString path = QStringLiteral(":/icons/%1.svg").arg(name);
    const QIcon icon = QFile::exists(path) ? QIcon(path) : QIcon();
    cache.insert(name, icon);
    return icon;
}

QToolButton* makeExportButton(QWidget* parent, const QString& objectName, const QString& icon)
{
    auto* button = new QToolButton(parent);
    button->setObjectName(objectName);
    button->setText(QCoreApplication::translate("runlens::widgets::ChartExportMenu", "Export"));
    button->setIcon(chartIcon(icon));
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    button->setPopupMode(QToolButton::InstantPopup);
    button->setAutoRaise(true);
    return button;
}

} // namespace runlens::widgets
