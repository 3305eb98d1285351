#pragma once

#include "models/core/runmanifest.h"
#include "tests/pythonoracle.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
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

/// Runs tests/data/tensor/npy_oracle.py (numpy, the oracle for tensor files) with `arguments`.
inline PythonRun runNpyOracle(const QStringList& arguments)
{
    return runPythonScript(QStringLiteral("tensor/npy_oracle.py"), arguments);
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
inline models::RunManifest npyManifest(const QString& root, const QStringList& relativePaths)
{
    models::RunManifest manifest;
    manifest.root = root;
    for (const QString& relative : relativePaths) {
        models::Artifact artifact;
        artifact.path = QDir(root).filePath(relative);
        artifact.relativePath = relative;
        artifact.kind = models::ArtifactKind::TensorNpy;
        artifact.run = QStringLiteral(".");
        manifest.artifacts << artifact;
    }
    return manifest;
}

} // namespace runlens::test
