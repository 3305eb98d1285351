#pragma once

#include <QDateTime>
#include <QList>
#include <QString>
#include <QWidget>

class QLabel;
class QListWidget;

namespace runlens::widgets::welcome {

/// A folder or file opened before, as the welcome page lists it.
struct RecentEntry
{
    QString path;
    QDateTime lastOpened; ///< invalid when unknown (entries recorded before times were kept)
};

/// What the main window shows when nothing is open: how to open a run (folder, file, the demo, drag and
/// drop), the recent folders and the formats RunLens reads. It only asks: the window acts on its signals
/// and owns the recent list's storage.
class WelcomePage final : public QWidget
{
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);

    /// Replaces the recent list (most recent first).
    void setRecent(const QList<RecentEntry>& entries);
    QList<RecentEntry> recent() const { return m_recent; }

    /// One line per family of inputs: what it is and the names or extensions that identify it.
    static QStringList supportedFormats();
    /// "today 14:02", "yesterday 09:10" or a date, relative to `now`.
    static QString describeTime(const QDateTime& time, const QDateTime& now);

signals:
    void openFolderRequested();
    void openFileRequested();
    void demoRequested();
    void recentActivated(const QString& path);
    /// The entry was taken off the list shown; the owner forgets it too.
    void recentRemoved(const QString& path);

private:
    void rebuildRecentList();
    void removeRecent(const QString& path);

    QList<RecentEntry> m_recent;
    QListWidget* m_recentList = nullptr;
    QLabel* m_noRecent = nullptr;
};

} // namespace runlens::widgets::welcome
