#include "models/trace/tracesummary.h"

#include "models/trace/opstatistics.h"
#include "models/trace/tracestore.h"

#include <algorithm>

namespace runlens::models::trace {

TraceSummary summarizeTrace(const TraceStore& store, const std::function<bool()>& cancelled)
{
    TraceSummary summary;
    for (const TraceSource& source : store.sources()) {
        summary.events += source.events;
        summary.memoryEvents += source.memoryEvents;
        for (int phase = 0; phase < 128; ++phase) {
            if (source.eventsByPhase[phase] > 0)
                summary.byPhase[QString(QChar(phase))] += source.eventsByPhase[phase];
        }
        if (source.rank >= 0)
            summary.rank = source.rank;
    }
    quint64 kinds[kEventKindCount] = {};
    for (const Track& track : store.tracks()) {
        for (EventKind kind : track.kind)
            ++kinds[int(kind)];
    }
    for (int k = 0; k < kEventKindCount; ++k) {
        if (kinds[k] > 0)
            summary.byKind.insert(QString::fromLatin1(eventKindId(EventKind(k))), kinds[k]);
    }
    summary.tracks = int(store.tracks().size());
    summary.processes = int(store.processes().size());
    summary.steps = int(store.steps().size());
    summary.flows = store.flows().size();
    summary.spanNs = store.eventCount() > 0 ? store.endTime() - store.startTime() : 0;

    OperatorStatisticsOptions options;
    options.cancelled = cancelled;
    OperatorStatistics stats = computeOperatorStatistics(store, options);
    std::sort(stats.operators.begin(), stats.operators.end(),
              [](const OperatorStats& a, const OperatorStats& b) { return a.hostTotal > b.hostTotal; });
    for (const OperatorStats& op : stats.operators) {
        if (summary.topOperators.size() == 10)
            break;
        summary.topOperators.append({ store.strings().text(op.name), op.hostTotal, op.hostSelf, op.calls });
    }
    return summary;
}

} // namespace runlens::models::trace
