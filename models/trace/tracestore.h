#pragma once

#include "models/trace/tracebuffer.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::models::trace {

/// Canonical event kinds; categories of every era (2020 `Operator`/`Runtime`, 2022 `cpu_op`/`cuda_runtime`,
/// Paddle's `Operator`/`CudaRuntime`, MindSpore timelines ...) map onto these.
enum class EventKind : std::uint8_t {
    CpuOp,
    Python,
    UserAnnotation,
    Runtime,
    Driver,
    Kernel,
    Memcpy,
    Memset,
    GpuAnnotation,
    Memory,
    Communication,
    Other,
};
constexpr int kEventKindCount = int(EventKind::Other) + 1;
/// Stable id for JSON reports ("cpu_op", "kernel", ...).
const char* eventKindId(EventKind kind);
/// Maps a category (case-insensitive) and, where categories are missing or ambiguous, the event name.
EventKind eventKindFrom(std::string_view category, std::string_view name);

using StringId = std::uint32_t;
constexpr StringId kNoString = 0; ///< id 0 is always the empty string

/// Interned strings: every distinct name, category and track name stored once.
class StringTable
{
public:
    StringTable();
    StringId intern(std::string_view text);
    std::string_view view(StringId id) const { return m_strings[id]; }
    QString text(StringId id) const;
    std::size_t size() const { return m_strings.size(); }
    /// Bytes held by the table (strings + index), for memory reports.
    std::size_t memoryBytes() const;

private:
    struct Index;
    std::vector<std::string> m_strings;
    std::shared_ptr<Index> m_index;
};

enum class TrackType : std::uint8_t {
    Thread, ///< CPU thread (pid/tid)
    GpuStream, ///< device stream (pid = device, tid = stream)
    Counter, ///< `C` events: one track per (process, counter name, series)
    Async, ///< `b`/`e`/`n` events of one (category, id) group
};

/// Where an event's `args` object lies in the retained input of its file: parsed only when looked at.
/// Packed to 12 bytes: it is stored once per slice.
#pragma pack(push, 4)
struct ArgsRef
{
    std::uint64_t offset = 0;
    std::uint32_t length = 0; ///< 0: no args
};
#pragma pack(pop)
static_assert(sizeof(ArgsRef) == 12);

/// One timeline row group. Slices are a struct-of-arrays sorted by (start, then longer first), so that
/// nesting can be walked in order; `depth` is the nesting level (0 = top). Instants have duration 0 and
/// are flagged in `flags`. Counter tracks use `counterTime`/`counterValue` instead of the slice arrays.
struct Track
{
    TrackType type = TrackType::Thread;
    int process = -1; ///< index into TraceStore::processes()
    std::int64_t tid = 0; ///< numeric thread/stream id (string tids are hashed to a stable number)
    StringId name = kNoString; ///< thread_name metadata, or "stream 7", or counter name
    bool namedId = false; ///< the tid was a string: `tid` is only a key and never shown
    int sortIndex = 0; ///< thread_sort_index metadata, else tid order
    int source = 0; ///< index of the input file (rank) the events came from

    std::vector<std::int64_t> start; ///< ns, absolute (baseTimeNanoseconds applied)
    std::vector<std::int64_t> duration; ///< ns; 0 for instants
    std::vector<StringId> name_; ///< event names (`name_` to keep `name` for the track)
    std::vector<StringId> category;
    std::vector<EventKind> kind;
    std::vector<std::uint16_t> depth;
    std::vector<std::uint8_t> flags; ///< SliceFlag bits
    std::vector<ArgsRef> args;
    std::int64_t maxDuration = 0; ///< longest slice, for range queries
    int maxDepth = 0;

    std::vector<std::int64_t> counterTime; ///< counter tracks only
    std::vector<double> counterValue;

    std::size_t size() const { return start.size(); }
    std::int64_t end(std::size_t i) const { return start[i] + duration[i]; }
    /// Indices [first, last) holding every slice that overlaps [t0, t1]; O(log n + k) with maxDuration.
    /// Slices inside the range that end before t0 (short ones next to a long one) must still be skipped.
    std::pair<std::size_t, std::size_t> overlapping(std::int64_t t0, std::int64_t t1) const;
};

enum SliceFlag : std::uint8_t {
    Instant = 1, ///< `i`/`I`/`R`/`n` event
    Unterminated = 2, ///< `B` without `E`: ends at the end of the trace
    AbsurdDuration = 4, ///< longer than 7 days: kept, flagged, excluded from statistics
};

struct Process
{
    std::int64_t pid = 0;
    StringId name = kNoString; ///< process_name metadata
    StringId labels = kNoString; ///< process_labels metadata ("CPU", "GPU 0")
    int sortIndex = 0;
    int source = 0; ///< input file
    int rank = -1; ///< distributedInfo.rank of its file, or -1
    bool device = false; ///< holds GPU/NPU streams
    bool namedId = false; ///< the pid was a string ("CPU functions", "Spans"): `pid` is only a key, never shown
    std::vector<int> tracks; ///< indices into TraceStore::tracks(), in display order
};

/// A flow arrow (`s`/`t`/`f`, or a correlation id joining a runtime call to its kernel).
struct Flow
{
    int fromTrack = -1;
    std::uint32_t fromSlice = 0;
    int toTrack = -1;
    std::uint32_t toSlice = 0;
    StringId category = kNoString; ///< "ac2g", "fwdbwd", "async", "correlation" ...
    std::uint64_t id = 0;
};

/// One profiler step (`ProfilerStep#N` on a CPU track, or a MindSpore step marker).
struct Step
{
    std::int64_t number = 0;
    std::int64_t start = 0; ///< ns
    std::int64_t end = 0; ///< ns
    int source = 0;
    int track = -1;
    std::uint32_t slice = 0;
};

/// One imported input file (a rank's trace): its retained bytes (args are parsed from here lazily),
/// its envelope metadata (every top-level key but traceEvents, raw JSON) and what was counted.
struct TraceSource
{
    QString path;
    std::shared_ptr<const TraceBuffer> input; ///< the (inflated) file content, retained for args
    QByteArray metadataJson; ///< {"deviceProperties": ..., "distributedInfo": ..., ...}
    std::int64_t baseTimeNs = 0;
    int rank = -1;
    std::uint64_t eventsByPhase[128] = {}; ///< indexed by the phase character
    std::uint64_t events = 0;
    std::uint64_t memoryEvents = 0; ///< `[memory]` instants
    std::uint64_t sentinelEvents = 0; ///< `{}` events skipped
};

/// Every event of one or more Chrome traces, ready for the timeline and the analyses. Immutable once
/// published (shared as std::shared_ptr<const TraceStore>); built by TraceStoreBuilder.
class TraceLod;

class TraceStore
{
public:
    const StringTable& strings() const { return m_strings; }
    const std::vector<Track>& tracks() const { return m_tracks; }
    const std::vector<Process>& processes() const { return m_processes; }
    const std::vector<Flow>& flows() const { return m_flows; }
    const std::vector<Step>& steps() const { return m_steps; }
    const std::vector<TraceSource>& sources() const { return m_sources; }

    std::int64_t startTime() const { return m_start; } ///< ns, earliest event
    std::int64_t endTime() const { return m_end; } ///< ns, latest event end
    std::uint64_t eventCount() const;
    /// Bytes used by the store beyond the retained input (for the <= 48 bytes/event budget).
    std::size_t memoryBytes() const;

    /// The `args` object of a slice as JSON text (raw, from the retained input); empty when none.
    std::string_view argsJson(int track, std::size_t slice) const;

    /// The painting index that came with the store (read back from the index cache, or built when the
    /// cache was written); null when the timeline has to build it.
    const std::shared_ptr<const TraceLod>& lod() const { return m_lod; }

private:
    friend class TraceStoreBuilder;
    friend class TraceStoreCodec;
    StringTable m_strings;
    std::vector<Track> m_tracks;
    std::vector<Process> m_processes;
    std::vector<Flow> m_flows;
    std::vector<Step> m_steps;
    std::vector<TraceSource> m_sources;
    std::int64_t m_start = 0;
    std::int64_t m_end = 0;
    std::shared_ptr<const TraceLod> m_lod;
};

} // namespace runlens::models::trace
