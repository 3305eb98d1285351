#pragma once

#include <QStringList>

namespace runlens::app::cli {

/// Subcommands that run without a window: `scan`, `info`, `advise`, `compare`, `record`, `digest`, `demo`,
/// `export`. Returns the process exit code, or -1 when `arguments` is not a subcommand (then the GUI starts).
int runSubcommand(const QStringList& arguments);

/// `runlens advise PATH [--json] [--rules FILE]... [--fail-on warning|error]` (advise.cpp); `args` start with
/// the program name.
int advise(const QStringList& args);

/// `runlens compare BENCH TARGET [--json|--csv|--md] [--mapping FILE] [--fail-on warning|error]` (compare.cpp).
int compare(const QStringList& args);

/// `runlens record [--interval 1s] [--out OUT] [--rank N] -- COMMAND [ARGS…]` (record.cpp): runs COMMAND and
/// samples the machine under it into OUT/system/; returns COMMAND's exit code.
int record(const QStringList& args);

/// `runlens digest PATH --out DIR [--ranks A-B] [--jobs N]` (digest.cpp): one rank digest per rank of a job.
int digest(const QStringList& args);

/// True when `arguments` names a subcommand (decided before any QApplication exists).
bool isSubcommand(const QStringList& arguments);
/// True when the subcommand needs QtGui/QtWidgets (chart export).
bool subcommandNeedsGui(const QStringList& arguments);

} // namespace runlens::app::cli
