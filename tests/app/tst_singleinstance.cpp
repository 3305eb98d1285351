#include "app/singleinstance.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QUuid>
#include <QtConcurrent>
#include <QtTest>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

using runlens::app::SingleInstance;

class TestSingleInstance : public QObject
{
    Q_OBJECT
private slots:
    void secondInstanceForwardsItsPath();
    void onlyOneListens();
    void nobodyListening();
    void staleSocketIsReplaced();
    void namesDifferPerUser();

private:
    static QString uniqueName()
    {
        return QStringLiteral("runlens-test-") + QUuid::createUuid().toString(QUuid::Id128).left(12);
    }
    /// Sends from another thread: the receiving side needs this thread's event loop to answer.
    static bool sendFromWorker(SingleInstance& sender, const QStringList& paths)
    {
        QFuture<bool> sent = QtConcurrent::run([&sender, paths]() { return sender.sendToRunning(paths, 3000); });
        while (!sent.isFinished())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        return sent.result();
    }
};

void TestSingleInstance::secondInstanceForwardsItsPath()
{
    const QString name = uniqueName();
    SingleInstance first(name);
    QVERIFY(first.listen());
    QVERIFY(first.isListening());
    QSignalSpy received(&first, &SingleInstance::pathsReceived);

    SingleInstance second(name);
    QVERIFY(!second.listen());
    const QString path = QStringLiteral("/data/runs/resnet50 — epoch 3/日志");
    QVERIFY(sendFromWorker(second, { path }));
    QTRY_COMPARE(received.count(), 1);
    QCOMPARE(received.first().first().toStringList(), QStringList { path });

    // Several paths, and none (just come to the front), in later requests.
    QVERIFY(sendFromWorker(second, { QStringLiteral("/a"), QStringLiteral("/b") }));
    QVERIFY(sendFromWorker(second, {}));
    QTRY_COMPARE(received.count(), 3);
    QCOMPARE(received.at(1).first().toStringList(), (QStringList { QStringLiteral("/a"), QStringLiteral("/b") }));
    QVERIFY(received.at(2).first().toStringList().isEmpty());
}

void TestSingleInstance::onlyOneListens()
{
    const QString name = uniqueName();
    SingleInstance first(name);
    SingleInstance second(name);
    QVERIFY(first.listen());
    QVERIFY(!second.listen());
    QVERIFY(!second.isListening());
    QVERIFY(first.isListening());
}

void TestSingleInstance::nobodyListening()
{
    SingleInstance lonely(uniqueName());
    QVERIFY(!lonely.sendToRunning({ QStringLiteral("/tmp") }, 500));
}

void TestSingleInstance::staleSocketIsReplaced()
{
    // What a crashed window leaves: a bound socket file nobody accepts on.
    const QString name = uniqueName();
    const QString socketPath = QDir(QDir::tempPath()).filePath(name);
    const QByteArray native = QFile::encodeName(socketPath);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    QVERIFY(size_t(native.size()) < sizeof(address.sun_path));
    std::memcpy(address.sun_path, native.constData(), size_t(native.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    ::close(fd);
    QVERIFY(QFile::exists(socketPath));

    SingleInstance sender(name);
    QVERIFY(!sender.sendToRunning({ QStringLiteral("/x") }, 500));

    SingleInstance recovered(name);
    QVERIFY(recovered.listen());
    QSignalSpy received(&recovered, &SingleInstance::pathsReceived);
    QVERIFY(sendFromWorker(sender, { QStringLiteral("/x") }));
    QTRY_COMPARE(received.count(), 1);
    QCOMPARE(received.first().first().toStringList(), QStringList { QStringLiteral("/x") });
}

void TestSingleInstance::namesDifferPerUser()
{
    const QString mine = SingleInstance::defaultServerName();
    QVERIFY(mine.startsWith(QStringLiteral("runlens-")));
    QCOMPARE(SingleInstance::defaultServerName(), mine);
    const QByteArray user = qgetenv("USER");
    qputenv("USER", user + "-someone-else");
    const QString theirs = SingleInstance::defaultServerName();
    qputenv("USER", user);
    QVERIFY(theirs != mine);
    QVERIFY(!mine.contains(QString::fromLocal8Bit(user)) || user.isEmpty());
}

QTEST_GUILESS_MAIN(TestSingleInstance)
#include "tst_singleinstance.moc"
