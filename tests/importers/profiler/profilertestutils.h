#pragma once

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QtTest>

namespace runlens::test {

/// Runs a python3 script (an independent reader of the same files) and returns its standard output, or a null
/// string when python3 is not there or the script failed (`error` then says why).
inline QString runPython(const QString& script, const QStringList& arguments, QString* error = nullptr)
{
    QProcess python;
    python.start(QStringLiteral("python3"), QStringList { QStringLiteral("-c"), script } + arguments);
    if (!python.waitForFinished(60000) || python.exitStatus() != QProcess::NormalExit || python.exitCode() != 0) {
        if (error)
            *error = QString::fromUtf8(python.readAllStandardError()) + python.errorString();
        return {};
    }
    return QString::fromUtf8(python.readAllStandardOutput());
}

/// Writes a fixture file, creating its folders.
inline void writeFile(const QString& path, const QByteArray& data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly), qPrintable(path));
    file.write(data);
}

} // namespace runlens::test
