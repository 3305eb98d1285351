#include "charticons.h"

#include <QFile>
#include <QHash>

namespace runlens {

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

} // namespace runlens
