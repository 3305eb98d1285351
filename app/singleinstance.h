#pragma once

#include <QObject>
#include <QStringList>

class QLocalServer;
class QLocalSocket;

namespace runlens::app {

/// One RunLens window per user: the first GUI process listens on a local socket named after the user;
/// a later `runlens PATH` hands its paths to it and exits, so opening a folder from the file manager
/// lands in the window already open. A socket left behind by a crashed process is detected (nobody
/// answers) and replaced.
class SingleInstance final : public QObject
{
    Q_OBJECT
public:
    /// `serverName` defaults to defaultServerName(); tests pass a unique one.
    explicit SingleInstance(const QString& serverName = defaultServerName(), QObject* parent = nullptr);
    ~SingleInstance() override;

    /// "runlens-" and a hash of the user's name and home folder: one per user, nothing personal in /tmp.
    static QString defaultServerName();
    QString serverName() const { return m_serverName; }

    /// Hands `paths` (absolute) to the instance listening, if any, and waits until it confirms.
    /// False when none is running or it does not answer within `timeoutMs`.
    bool sendToRunning(const QStringList& paths, int timeoutMs = 2000);
    /// Becomes the instance others talk to. False when another live instance already listens.
    bool listen();
    bool isListening() const;

signals:
    /// Paths another process asked this one to open (possibly none: just come to the front).
    void pathsReceived(const QStringList& paths);

private:
    void readRequest(QLocalSocket* socket);

    QString m_serverName;
    QLocalServer* m_server = nullptr;
};

} // namespace runlens::app
