#pragma once

// What the tests of the `runlens` command line share: running the real executable with a clean environment,
// and reading its output.

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QString>
#include <QStringList>

namespace runlens::test::cli {

struct Result
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline QSet<QString> keySet(const QJsonObject& object)
{
    const QStringList keys = object.keys();
    return QSet<QString>(keys.begin(), keys.end());
}

inline Result run(const QStringList& arguments, int timeoutMs = 120000)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), QDir::tempPath() + QStringLiteral("/runlens-test-config"));
    // The trace index cache goes to a test folder, never the user's cache.
    env.insert(QStringLiteral("XDG_CACHE_HOME"), QDir::tempPath() + QStringLiteral("/runlens-test-cache"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(RUNLENS_EXECUTABLE), arguments);
    Result r;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        return r;
    }
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    r.out = process.readAllStandardOutput();
    r.err = process.readAllStandardError();
    return r;
}

/// Names and modification times of everything below `dir`, to prove nothing was written there.
inline QStringList listing(const QString& dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        out << it.filePath() + QLatin1Char(' ') + QString::number(it.fileInfo().size()) + QLatin1Char(' ')
                + QString::number(it.fileInfo().lastModified().toMSecsSinceEpoch());
    }
    out.sort();
    return out;
}

/// The "embeddings" of the one artifact `runlens info --json FOLDER` lists, when that artifact is a projector
/// read without trouble; empty otherwise (the caller's comparisons then fail).
inline QJsonObject projectorEmbeddings(const QString& folder)
{
    const Result r = run({ QStringLiteral("info"), folder, QStringLiteral("--json") });
    const QJsonArray artifacts = QJsonDocument::fromJson(r.out).object()[QStringLiteral("artifacts")].toArray();
    if (r.exitCode != 0 || artifacts.size() != 1)
        return {};
    const QJsonObject artifact = artifacts[0].toObject();
    if (artifact[QStringLiteral("kind")].toString() != QLatin1String("tensorboard-projector")
        || artifact[QStringLiteral("status")].toString() != QLatin1String("ok"))
        return {};
    return artifact[QStringLiteral("embeddings")].toObject();
}

} // namespace runlens::test::cli
