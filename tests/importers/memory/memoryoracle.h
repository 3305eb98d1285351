#pragma once

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>

namespace runlens::test {

/// Figures of a memory file computed independently by tests/data/memory/memory_oracle.py (python3 with
/// the standard library only): `mode` is "kineto" or "timeline". Empty when python failed.
inline QJsonObject memoryOracle(const QString& mode, const QString& path)
{
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"),
                 { QStringLiteral(RUNLENS_TEST_DATA_DIR "/memory/memory_oracle.py"), mode, path });
    if (!python.waitForFinished(300000) || python.exitCode() != 0)
        return {};
    return QJsonDocument::fromJson(python.readAllStandardOutput()).object();
}

} // namespace runlens::test
