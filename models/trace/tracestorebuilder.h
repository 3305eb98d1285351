#pragma once

#include "models/trace/tracestore.h"

#include <QString>

#include <memory>
#include <string_view>

namespace runlens::models::trace {

/// Collects events in any order (as a trace file lists them) and turns them into a TraceStore: sorts
/// every track, computes nesting depths, resolves flows and correlations, finds steps. Used by the trace
/// importer and by tests that need a store without a file. Not thread-safe; one builder per import.
class TraceStoreBuilder
{
public:
    TraceStoreBuilder();
    ~TraceStoreBuilder();

    /// A new input file; `input` is kept for lazy args parsing. Returns its source index.
    int addSource(const QString& path, std::shared_ptr<const TraceBuffer> input);
    TraceSource& source(int index);
    StringTable& strings();

    /// Finds or creates the process `pid` of a source.
    int process(int source, std::int64_t pid);
    void setProcessName(int process, std::string_view name);
    /// The process's id was written as a string: its number is a key only, labels show the name.
    void setProcessIdIsName(int process);
    void setProcessLabels(int process, std::string_view labels);
    void setProcessSortIndex(int process, int sortIndex);

    /// Finds or creates the track of thread/stream `tid` in a process.
    int threadTrack(int process, std::int64_t tid, TrackType type = TrackType::Thread);
    void setTrackName(int track, std::string_view name);
    /// The track's tid was written as a string: its number is a key only, labels show the name.
    void setTrackIdIsName(int track);
    void setTrackSortIndex(int track, int sortIndex);
    /// Finds or creates the counter track `name` (one per series) in a process.
    int counterTrack(int process, std::string_view name);
    /// Finds or creates the async track of (category, id) in a process.
    int asyncTrack(int process, std::string_view category, std::uint64_t id);

    /// A complete slice (X, matched B/E, instants with duration 0 and SliceFlag::Instant).
    void addSlice(int track, std::int64_t startNs, std::int64_t durationNs, StringId name, StringId category,
                  EventKind kind, ArgsRef args = {}, std::uint8_t flags = 0);
    void addCounter(int track, std::int64_t timeNs, double value);
    /// One end of a flow (`s` start, `t` step, `f` finish); `bindEnclosing` for `bp:"e"`.
    void addFlowPoint(int track, std::int64_t timeNs, std::uint64_t id, StringId category, char phase,
                      bool bindEnclosing);
    /// The `correlation` (or `External id`) of a slice, for joining runtime calls to their kernels.
    void setCorrelation(int track, std::int64_t startNs, std::uint64_t correlation);
    /// The `External id` of a CPU op or of a device slice: joins kernels that no flow or correlation
    /// ties to a runtime call directly to the op that launched them.
    void setExternalId(int track, std::int64_t startNs, std::uint64_t externalId);
    /// Moves every event of a source by `deltaNs` (a time base found after the events it applies to).
    void shiftSource(int source, std::int64_t deltaNs);

    /// An immutable store of what was added so far, for painting while an import goes on: at most about
    /// `maxEvents` slices and counter values (the first of each track, in the order they were added),
    /// tracks sorted, nested and ordered as finish() does; no flows, correlations or steps. Shares nothing
    /// with the builder, which is unchanged.
    std::shared_ptr<const TraceStore> snapshot(std::size_t maxEvents) const;
    /// Slices and counter values added so far.
    std::size_t eventCount() const;

    /// Builds the store; the builder is empty afterwards.
    std::shared_ptr<const TraceStore> finish();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace runlens::models::trace
