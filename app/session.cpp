#include "app/session.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>

namespace runlens::app {

namespace {

const QString kLastGroup = QStringLiteral("sessions/last");
constexpr int kVersion = 1; ///< bumped when the stored form changes incompatibly

} // namespace

bool RunView::isEmpty() const
{
    return dockState.isEmpty() && scalars.isEmpty() && scalarRanges.isEmpty() && !hasTimelineRange()
        && graphPath.isEmpty() && expandedGroups.isEmpty() && tensor.isEmpty() && frontDocks.isEmpty()
        && projector.isEmpty();
}

QString RunView::settingsGroup(const QString& folder)
{
    const QByteArray hash
        = QCryptographicHash::hash(QFileInfo(folder).absoluteFilePath().toUtf8(), QCryptographicHash::Sha1);
    return QStringLiteral("sessions/runs/") + QString::fromLatin1(hash.toHex());
}

RunView RunView::load(const QString& folder)
{
    QSettings settings;
    settings.beginGroup(settingsGroup(folder));
    RunView view;
    if (settings.value(QStringLiteral("version")).toInt() != kVersion)
        return view;
    view.dockState = settings.value(QStringLiteral("docks")).toByteArray();
    view.scalars = settings.value(QStringLiteral("scalars")).toMap();
    view.scalarRanges = settings.value(QStringLiteral("scalarRanges")).toMap();
    bool startOk = false;
    bool endOk = false;
    const qint64 start = settings.value(QStringLiteral("timelineStart")).toLongLong(&startOk);
    const qint64 end = settings.value(QStringLiteral("timelineEnd")).toLongLong(&endOk);
    if (startOk && endOk && end > start) {
        view.timelineStart = start;
        view.timelineEnd = end;
    }
    view.graphPath = settings.value(QStringLiteral("graph")).toString();
    view.expandedGroups = settings.value(QStringLiteral("expandedGroups")).toStringList();
    view.tensor = settings.value(QStringLiteral("tensor")).toString();
    view.frontDocks = settings.value(QStringLiteral("frontDocks")).toStringList();
    view.projector = settings.value(QStringLiteral("projector")).toMap();
    return view;
}

void RunView::save(const QString& folder) const
{
    QSettings settings;
    settings.remove(settingsGroup(folder));
    settings.beginGroup(settingsGroup(folder));
    settings.setValue(QStringLiteral("version"), kVersion);
    // Which folder this is, for someone reading the settings file.
    settings.setValue(QStringLiteral("folder"), QFileInfo(folder).absoluteFilePath());
    settings.setValue(QStringLiteral("docks"), dockState);
    settings.setValue(QStringLiteral("scalars"), scalars);
    settings.setValue(QStringLiteral("scalarRanges"), scalarRanges);
    if (hasTimelineRange()) {
        settings.setValue(QStringLiteral("timelineStart"), qint64(timelineStart));
        settings.setValue(QStringLiteral("timelineEnd"), qint64(timelineEnd));
    }
    settings.setValue(QStringLiteral("graph"), graphPath);
    settings.setValue(QStringLiteral("expandedGroups"), expandedGroups);
    settings.setValue(QStringLiteral("tensor"), tensor);
    settings.setValue(QStringLiteral("frontDocks"), frontDocks);
    settings.setValue(QStringLiteral("projector"), projector);
}

void RunView::remove(const QString& folder)
{
    QSettings().remove(settingsGroup(folder));
}

Session Session::loadLast()
{
    QSettings settings;
    settings.beginGroup(kLastGroup);
    Session session;
    if (settings.value(QStringLiteral("version")).toInt() != kVersion)
        return session;
    session.folders = settings.value(QStringLiteral("folders")).toStringList();
    session.folders.removeAll(QString());
    session.geometry = settings.value(QStringLiteral("geometry")).toByteArray();
    session.dockState = settings.value(QStringLiteral("docks")).toByteArray();
    return session;
}

void Session::saveAsLast() const
{
    QSettings settings;
    settings.remove(kLastGroup);
    settings.beginGroup(kLastGroup);
    settings.setValue(QStringLiteral("version"), kVersion);
    settings.setValue(QStringLiteral("folders"), folders);
    settings.setValue(QStringLiteral("geometry"), geometry);
    settings.setValue(QStringLiteral("docks"), dockState);
}

} // namespace runlens::app
