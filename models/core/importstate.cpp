#include "models/core/importstate.h"

#include <QCoreApplication>

namespace runlens::models {

QString importStatusId(ImportStatus status)
{
    switch (status) {
    case ImportStatus::Pending:
        return QStringLiteral("pending");
    case ImportStatus::Importing:
        return QStringLiteral("importing");
    case ImportStatus::Ok:
        return QStringLiteral("ok");
    case ImportStatus::Partial:
        return QStringLiteral("partial");
    case ImportStatus::Failed:
        return QStringLiteral("failed");
    case ImportStatus::Unsupported:
        return QStringLiteral("unsupported");
    case ImportStatus::Canceled:
        return QStringLiteral("canceled");
    case ImportStatus::Deferred:
        return QStringLiteral("deferred");
    }
    return QStringLiteral("failed");
}

QString importStatusName(ImportStatus status)
{
    switch (status) {
    case ImportStatus::Pending:
        return QCoreApplication::translate("runlens::ImportStatus", "Waiting");
    case ImportStatus::Importing:
        return QCoreApplication::translate("runlens::ImportStatus", "Importing");
    case ImportStatus::Ok:
        return QCoreApplication::translate("runlens::ImportStatus", "Imported");
    case ImportStatus::Partial:
        return QCoreApplication::translate("runlens::ImportStatus", "Imported with problems");
    case ImportStatus::Failed:
        return QCoreApplication::translate("runlens::ImportStatus", "Failed");
    case ImportStatus::Unsupported:
        return QCoreApplication::translate("runlens::ImportStatus", "Not read yet");
    case ImportStatus::Canceled:
        return QCoreApplication::translate("runlens::ImportStatus", "Canceled");
    case ImportStatus::Deferred:
        return QCoreApplication::translate("runlens::ImportStatus", "Double-click to open");
    }
    return {};
}

qint64 ArtifactState::scalarPoints() const
{
    qint64 n = 0;
    for (const TagStatistics& t : scalarTags)
        n += t.points;
    return n;
}

Severity ArtifactState::worstSeverity() const
{
    Severity worst = Severity::Info;
    for (const Diagnostic& d : diagnostics) {
        if (int(d.severity) > int(worst))
            worst = d.severity;
    }
    return worst;
}

} // namespace runlens::models
