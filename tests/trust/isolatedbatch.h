#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace runlens::test {

/// A case of a batch that did not survive: what happened and, for a crash or a hang, the top of the stack.
struct CaseFailure
{
    int index = -1; ///< -1: the child died before its first case
    QString what; ///< "crashed: SIGSEGV", "hung (killed after 20 s)", or the check that failed
    QStringList stack; ///< demangled frames, innermost first, C library and signal frames left out
};

struct BatchResult
{
    QList<CaseFailure> failures;
    int notRun = 0; ///< cases left after a hang or after too many crashes
};

/// What a child may use: address space (0 = no limit, as under AddressSanitizer) and wall-clock seconds per
/// case (a small legitimate input takes milliseconds; the margin is for a loaded machine, never a measurement).
struct ChildLimits
{
    quint64 addressSpaceBytes = quint64(4) << 30;
    unsigned seconds = 10;
};

/// The limits for this build: none on address space under AddressSanitizer (its shadow memory needs terabytes of
/// it) and more time there.
ChildLimits defaultChildLimits();

/// Runs cases [0, count) in forked children: `runCase(i)` returns an empty string when case i is fine and says
/// what is wrong otherwise. A case that crashes (a fatal signal, std::terminate) or hangs past the limit ends its
/// child; the parent records it with the child's stack dump, and starts a new child after it (up to
/// `maxCrashes` times, then the rest is not run). The parent must not have started worker threads that
/// the cases need: the child has only the forking thread.
BatchResult runIsolated(int count, const std::function<QString(int)>& runCase, const ChildLimits& limits,
                        int maxCrashes = 6);

} // namespace runlens::test
