#pragma once

#include "core/runmanifest.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

namespace runlens::test {

/// A .npy file (version `major`): magic, the dict padded to a multiple of 64 bytes with a newline, then `data` bytes.
inline QByteArray npyFile(const QByteArray& dict, qsizetype dataBytes, char major = 1)
{
    QByteArray header = dict;
    const qsizetype prefix = major == 1 ? 10 : 12;
    while ((prefix + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray out("\x93NUMPY", 6);
    out += major;
    out += char(0);
    const quint32 length = quint32(header.size());
    out += char(length & 0xff);
    out += char((length >> 8) & 0xff);
    if (major != 1) {
        out += char((length >> 16) & 0xff);
        out += char((length >> 24) & 0xff);
    }
    return out + header + QByteArray(dataBytes, '\0');
}

/// A python3 with numpy, the oracle for tensor files, or an empty string when there is none.
inline QString pythonWithNumpy()
{
    for (const QString& candidate : { QStringLiteral("/usr/bin/python3"), QStringLiteral("python3") }) {
        QProcess process;
        process.start(candidate, { QStringLiteral("-c"), QStringLiteral("import numpy") });
        if (process.waitForFinished(60000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0)
            return candidate;
    }
    return {};
}

/// Runs tests/data/tensor/npy_oracle.py with `arguments`; its standard output, or a null string on failure.
inline QString runNpyOracle(const QString& python, const QStringList& arguments)
{
    QProcess process;
    process.start(python, QStringList { QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/npy_oracle.py") } + arguments);
    if (!process.waitForFinished(120000) || process.exitCode() != 0)
        return {};
    const QString out = QString::fromUtf8(process.readAllStandardOutput());
    return out.isNull() ? QStringLiteral("") : out;
}

/// Writes `bytes` to `path`, making its folders.
inline void writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

/// A manifest listing the .npy files at `relativePaths` below `root` as one run, the way RunScanner would
/// list a folder that is a single run.
inline RunManifest npyManifest(const QString& root, const QStringList& relativePaths)
{
    RunManifest manifest;
    manifest.root = root;
    for (const QString& relative : relativePaths) {
        Artifact artifact;
        artifact.path = QDir(root).filePath(relative);
        artifact.relativePath = relative;
        artifact.kind = ArtifactKind::TensorNpy;
        artifact.run = QStringLiteral(".");
        manifest.artifacts << artifact;
    }
    return manifest;
}

} // namespace runlens::test
