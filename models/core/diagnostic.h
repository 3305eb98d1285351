#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace runlens::models {

enum class Severity { Info, Warning, Error };

/// One problem found while scanning or importing a file. `file` is the path as the user knows it
/// (absolute), `offset` a byte offset into it (or -1), `line` a 1-based line number (or -1).
struct Diagnostic
{
    Severity severity = Severity::Warning;
    QString file;
    qint64 offset = -1;
    qint64 line = -1;
    QString message;

    /// "file: offset 123: message", the form shown in the status bar and on the command line.
    QString toString() const;
};

using Diagnostics = QList<Diagnostic>;

/// Stable identifier used in the JSON contract: "info", "warning", "error".
QString severityId(Severity severity);
/// Translated name for display.
QString severityName(Severity severity);

} // namespace runlens::models
