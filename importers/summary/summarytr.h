#pragma once

#include <QCoreApplication>

namespace runlens::importers::summary {

/// The translation context ("runlens::summary") of the user-visible messages of the summary importer.
struct SummaryTr
{
    Q_DECLARE_TR_FUNCTIONS(runlens::summary)
};

} // namespace runlens::importers::summary
