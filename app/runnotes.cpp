#include "app/runnotes.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

namespace runlens::app {

namespace {

constexpr qint64 kMaxNotesBytes = 16 * 1024 * 1024; ///< a pad of notes, not a data file

QString translate(const char* text)
{
    return QCoreApplication::translate("runlens::app::RunNotes", text);
}

} // namespace

QString RunNotes::notesFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("notes"));
}

QString RunNotes::pathFor(const QString& runFolder)
{
    const QByteArray hash
        = QCryptographicHash::hash(QFileInfo(runFolder).absoluteFilePath().toUtf8(), QCryptographicHash::Sha1);
    return QDir(notesFolder()).filePath(QString::fromLatin1(hash.toHex()) + QStringLiteral(".md"));
}

QString RunNotes::load(const QString& runFolder, QString* error)
{
    QFile file(pathFor(runFolder));
    if (!file.exists())
        return {};
    if (file.size() > kMaxNotesBytes) {
        if (error)
            *error = translate("%1 is larger than notes can be; it was not opened.")
                         .arg(QDir::toNativeSeparators(file.fileName()));
        return {};
    }
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = translate("Cannot read the notes %1: %2")
                         .arg(QDir::toNativeSeparators(file.fileName()), file.errorString());
        return {};
    }
    return QString::fromUtf8(file.readAll());
}

bool RunNotes::save(const QString& runFolder, const QString& text, QString* error)
{
    const QString path = pathFor(runFolder);
    if (text.trimmed().isEmpty()) {
        if (!QFile::exists(path) || QFile::remove(path))
            return true;
        if (error)
            *error = translate("Cannot remove the empty notes %1.").arg(QDir::toNativeSeparators(path));
        return false;
    }
    if (!QDir().mkpath(notesFolder())) {
        if (error)
            *error = translate("Cannot create the notes folder %1.").arg(QDir::toNativeSeparators(notesFolder()));
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        if (error)
            *error = translate("Cannot write the notes %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

} // namespace runlens::app
