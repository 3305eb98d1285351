#pragma once

#include <QStringList>

namespace runlens::cli {

/// Subcommands that run without a window: `scan`, `info`, `advise`, `compare`, `demo`, `export`,
/// `digest`. Returns the process
/// exit code, or -1 when `arguments` is not a subcommand (then the GUI starts).
int runSubcommand(const QStringList& arguments);

/// `runlens advise PATH [--json] [--rules FILE]... [--fail-on warning|error]` (advise.cpp); `args` start with
/// the program name.
int advise(const QStringList& args);

/// `runlens compare BENCH TARGET [--json|--csv|--md] [--mapping FILE] [--fail-on warning|error]` (compare.cpp).
int compare(const QStringList& args);

/// `runlens digest PATH --out DIR [--ranks A-B] [--jobs N]` (digest.cpp): one rank digest per rank of a job.
int digest(const QStringList& args);

/// True when `arguments` names a subcommand (decided before any QApplication exists).
bool isSubcommand(const QStringList& arguments);
/// True when the subcommand needs QtGui/QtWidgets (chart export).
bool subcommandNeedsGui(const QStringList& arguments);

} // namespace runlens::cli
