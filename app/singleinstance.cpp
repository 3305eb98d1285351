#include "app/singleinstance.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QDir>
#include <QLocalServer>
#include <QLocalSocket>
#include <QLoggingCategory>

namespace runlens::app {

namespace {

Q_LOGGING_CATEGORY(lcInstance, "runlens.app.singleinstance")

// The request: magic, version, the paths. The reply: one byte. The magic keeps an unrelated program
// that happens to use the same name from being taken for a RunLens window.
constexpr quint32 kMagic = 0x524c4e53; // "RLNS"
constexpr quint8 kVersion = 1;
constexpr char kAccepted = 'k';
constexpr int kMaxRequestBytes = 1 << 20;

} // namespace

SingleInstance::SingleInstance(const QString& serverName, QObject* parent)
    : QObject(parent)
    , m_serverName(serverName)
{ }

SingleInstance::~SingleInstance() = default;

QString SingleInstance::defaultServerName()
{
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty())
        user = qEnvironmentVariable("USERNAME");
    const QByteArray key = (user + QLatin1Char('\n') + QDir::homePath()).toUtf8();
    return QStringLiteral("runlens-")
        + QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(16));
}

bool SingleInstance::sendToRunning(const QStringList& paths, int timeoutMs)
{
    QLocalSocket socket;
    socket.connectToServer(m_serverName);
    if (!socket.waitForConnected(timeoutMs))
        return false;
    QByteArray request;
    {
        QDataStream out(&request, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_6_0);
        out << kMagic << kVersion << paths;
    }
    QByteArray framed;
    QDataStream(&framed, QIODevice::WriteOnly) << quint32(request.size());
    framed += request;
    socket.write(framed);
    if (!socket.waitForBytesWritten(timeoutMs))
        return false;
    // Confirmed only once the other side has read the whole request, so a hung window is not trusted.
    while (socket.bytesAvailable() < 1) {
        if (!socket.waitForReadyRead(timeoutMs))
            return false;
    }
    return socket.read(1) == QByteArray(1, kAccepted);
}

bool SingleInstance::listen()
{
    if (isListening())
        return true;
    // A live window answers a connection; a socket file left by a crash does not and is removed. (Asked
    // first: with access options QLocalServer replaces an existing socket file instead of failing.)
    {
        QLocalSocket probe;
        probe.connectToServer(m_serverName);
        if (probe.waitForConnected(500)) {
            probe.abort();
            return false;
        }
    }
    QLocalServer::removeServer(m_serverName);
    auto* server = new QLocalServer(this);
    server->setSocketOptions(QLocalServer::UserAccessOption);
    if (!server->listen(m_serverName)) {
        qCWarning(lcInstance) << "Cannot listen on" << m_serverName << ":" << server->errorString();
        delete server;
        return false;
    }
    m_server = server;
    connect(m_server, &QLocalServer::newConnection, this, [this]() {
        while (QLocalSocket* socket = m_server->nextPendingConnection()) {
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QLocalSocket::readyRead, this, [this, socket]() { readRequest(socket); });
            readRequest(socket);
        }
    });
    return true;
}

bool SingleInstance::isListening() const
{
    return m_server && m_server->isListening();
}

void SingleInstance::readRequest(QLocalSocket* socket)
{
    if (socket->bytesAvailable() < qint64(sizeof(quint32)))
        return;
    quint32 size = 0;
    QDataStream(socket->peek(sizeof(quint32))) >> size;
    if (size > quint32(kMaxRequestBytes)) {
        socket->abort();
        return;
    }
    if (socket->bytesAvailable() < qint64(sizeof(quint32)) + size)
        return; // the rest is on its way
    socket->read(sizeof(quint32));
    QDataStream in(socket->read(size));
    in.setVersion(QDataStream::Qt_6_0);
    quint32 magic = 0;
    quint8 version = 0;
    QStringList paths;
    in >> magic >> version >> paths;
    if (magic != kMagic || version != kVersion || in.status() != QDataStream::Ok) {
        socket->abort();
        return;
    }
    socket->write(QByteArray(1, kAccepted));
    socket->flush();
    emit pathsReceived(paths);
}

} // namespace runlens::app
