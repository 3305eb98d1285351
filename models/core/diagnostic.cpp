#include "models/core/diagnostic.h"

namespace runlens::models {

QString Diagnostic::toString() const
{
    QString where = file;
    if (offset >= 0)
        where += QCoreApplication::translate("runlens::models::Diagnostic", ": offset %1").arg(offset);
    else if (line >= 0)
        where += QCoreApplication::translate("runlens::models::Diagnostic", ": line %1").arg(line);
    return where.isEmpty() ? message : where + QStringLiteral(": ") + message;
}

QString severityId(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return QStringLiteral("info");
    case Severity::Warning:
        return QStringLiteral("warning");
    case Severity::Error:
        return QStringLiteral("error");
    }
    return QStringLiteral("error");
}

QString severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return QCoreApplication::translate("runlens::models::Diagnostic", "Information");
    case Severity::Warning:
        return QCoreApplication::translate("runlens::models::Diagnostic", "Warning");
    case Severity::Error:
        return QCoreApplication::translate("runlens::models::Diagnostic", "Error");
    }
    return {};
}

} // namespace runlens::models
