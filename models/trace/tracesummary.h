#pragma once

#include <QList>
#include <QMap>
#include <QString>

#include <functional>

namespace runlens::models::trace {

class TraceStore;

/// What one trace imported to, in numbers: the `trace` section of `runlens info` and the Run Browser's
/// tooltip. Small and copyable, unlike the store it was computed from.
struct TraceSummary
{
    struct Operator
    {
        QString name;
        qint64 totalNs = 0; ///< host time including ops below it
        qint64 selfNs = 0;
        quint64 calls = 0;
    };

    quint64 events = 0;
    QMap<QString, quint64> byPhase; ///< "X", "i", "M", ...
    QMap<QString, quint64> byKind; ///< eventKindId() of slices: "cpu_op", "kernel", ...
    int tracks = 0;
    int processes = 0;
    int steps = 0;
    quint64 memoryEvents = 0;
    quint64 flows = 0;
    qint64 spanNs = 0;
    int rank = -1;
    QList<Operator> topOperators; ///< at most 10, by total host time
};

/// Summarises a store; `cancelled` is polled by the operator statistics.
TraceSummary summarizeTrace(const TraceStore& store, const std::function<bool()>& cancelled = {});

} // namespace runlens::models::trace
