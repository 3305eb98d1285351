#pragma once

#include <QIcon>
#include <QString>

namespace runlens {

/// The icon ":/icons/<name>.svg" when the application's resources hold it, else a null icon (menus and
/// buttons then show their text only). Checking first keeps tests and tools without resources quiet.
QIcon chartIcon(const QString& name);

} // namespace runlens
