#pragma once

#include <QCoreApplication>

namespace runlens::importers::loggers {

/// The translation context ("runlens::loggers") of the user-visible messages of the loggers importer.
struct LoggersTr
{
    Q_DECLARE_TR_FUNCTIONS(runlens::loggers)
};

} // namespace runlens::importers::loggers
