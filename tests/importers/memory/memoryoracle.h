#pragma once

#include "tests/pythonoracle.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace runlens::test {

/// Figures of a memory file computed independently by tests/data/memory/memory_oracle.py (python3 with
/// the standard library only): `mode` is "kineto" or "timeline". Empty when python failed (its stderr is logged).
inline QJsonObject memoryOracle(const QString& mode, const QString& path)
{
    const PythonRun run = runPythonScript(QStringLiteral("memory/memory_oracle.py"), { mode, path });
    if (!run.ok()) {
        qWarning("%s", qPrintable(run.message));
        return {};
    }
    return QJsonDocument::fromJson(run.output.toUtf8()).object();
}

} // namespace runlens::test
