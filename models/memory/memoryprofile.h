#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <vector>

namespace runlens::models::memory {

/// Where a memory profile was read from; decides how its curves are labelled.
enum class MemorySourceKind : std::uint8_t {
    KinetoTrace, ///< `[memory]` / `[OutOfMemory]` instants of a Chrome trace (PyTorch profiler)
    MemoryTimeline, ///< torch `export_memory_timeline` raw tuples (categories)
    MindSporeSummary, ///< `memory_usage_summary/details_{id}.json` (per graph node, Ascend)
    MindSporeRecord, ///< 2.x `cpu_ms_memory_record_{id}.txt`, `memory_record.csv`, `operator_memory_*.csv`
    CudaSnapshot, ///< `torch.cuda.memory._dump_snapshot` pickle
};

/// The axis the samples of a profile lie on. Traces, memory timelines, records and snapshots are on
/// time (ns, the same clock as the TraceStore when they come from a trace); MindSpore's per-graph
/// curves are on the execution order of the graph's nodes.
enum class MemoryAxis : std::uint8_t {
    TimeNs,
    NodeIndex,
};

/// torch memory profiler categories (the index is the category id of a raw memory timeline tuple).
enum class MemoryCategory : std::uint8_t {
    Parameter,
    OptimizerState,
    Input,
    Temporary,
    Activation,
    Gradient,
    AutogradDetail,
    Unknown,
};
constexpr int kMemoryCategoryCount = int(MemoryCategory::Unknown) + 1;
/// Stable id for JSON reports and CSV columns ("parameter", "optimizer_state", ...).
const char* memoryCategoryId(MemoryCategory category);
/// Translated name for legends ("Parameter", "Optimizer state", ...).
QString memoryCategoryName(MemoryCategory category);

/// One curve: bytes in use at each sample, a step function (the value holds until the next sample).
/// `x` is ascending; ns or node index by the profile's axis.
struct MemorySeries
{
    QString name; ///< "Allocated", "Reserved", "Active", a category name ...
    std::vector<std::int64_t> x;
    std::vector<double> bytes;
    std::size_t size() const { return x.size(); }
    bool empty() const { return x.empty(); }
};

/// One allocation (bytes > 0) or free (bytes < 0): Kineto `[memory]` events with `Addr`, snapshot trace
/// entries, memory timeline tuples.
struct MemoryEvent
{
    std::int64_t x = 0; ///< ns (or node index)
    std::int64_t bytes = 0; ///< signed: + allocation, - free
    std::uint64_t address = 0; ///< 0 when unknown
    int track = -1; ///< TraceStore track of the thread that allocated (Kineto), for op attribution; -1 none
    std::uint32_t slice = 0; ///< the `[memory]` instant on that track
    std::int8_t category = -1; ///< MemoryCategory, -1 unknown
};

/// An out-of-memory report (`[OutOfMemory]` instant, snapshot `oom` entry).
struct OomMarker
{
    std::int64_t x = 0;
    std::int64_t bytes = 0; ///< the allocation that failed, 0 unknown
    std::int64_t deviceFree = -1; ///< bytes free on the device at that moment, -1 unknown
    int track = -1;
    std::uint32_t slice = 0;
};

/// A tensor's life in a MindSpore graph (`memory_usage_details` breakdowns), or a block of a snapshot.
struct TensorLifetime
{
    QString name;
    std::int64_t bytes = 0;
    std::int64_t start = 0; ///< first node index (or ns) it is alive at
    std::int64_t end = 0; ///< last one, inclusive
    QString type; ///< "output", "workspace", ... as the file says
    QString shape;
    QString format;
    QString dataType;
    int node = -1; ///< index into MemoryDevice::nodes of the node it was created at, -1 unknown
};

/// A graph node of a MindSpore memory details file (its x is its position in `nodes`).
struct MemoryNode
{
    QString name;
    QString fullName;
    std::int64_t bytes = 0; ///< memory in use after the node
    std::int64_t allocations = 0;
    std::int64_t deallocations = 0;
    std::int64_t change = 0; ///< mem_change
    std::vector<int> lifetimes; ///< indices into MemoryDevice::lifetimes
};

/// Per-operator memory of 2.x `operator_memory_*.csv` (sizes in bytes, times in ns).
struct OperatorMemoryRecord
{
    QString name;
    std::int64_t bytes = 0;
    std::int64_t allocationTime = 0;
    std::int64_t duration = 0; ///< -1 still alive at the end
    QString device;
};

/// One device's memory. Curves that a source does not have stay empty.
struct MemoryDevice
{
    QString label; ///< "cuda:0", "cpu", "Ascend 0", "graph 3" ...
    int deviceType = -1; ///< Kineto Device Type (0 CPU, 1 CUDA, ...), -1 unknown
    int deviceId = -1; ///< -1 for the CPU
    int source = 0; ///< trace source (input file) the device belongs to
    int rank = -1; ///< distributed rank of that source, -1 unknown
    /// True when the curves are a running sum of allocation sizes from an unknown baseline (old traces
    /// with `Bytes` only): only their shape and differences mean something.
    bool relative = false;
    std::int64_t capacity = 0; ///< device memory in bytes, 0 unknown
    std::int64_t staticBytes = 0; ///< MindSpore static memory (weights, ...), 0 unknown
    /// The peak a file states without curves (MindSpore `memory_usage_summary` `peak_mem`), 0 unknown.
    std::int64_t reportedPeak = 0;

    MemorySeries allocated;
    MemorySeries reserved;
    MemorySeries active;
    /// Memory timelines: one curve per MemoryCategory (index = category), each the bytes of that category;
    /// stacked in the panel. Empty otherwise.
    std::vector<MemorySeries> categories;

    std::vector<MemoryEvent> events; ///< sorted by x
    std::vector<OomMarker> ooms;
    std::vector<MemoryNode> nodes; ///< MindSpore details
    std::vector<TensorLifetime> lifetimes; ///< MindSpore details, snapshot blocks
    std::vector<OperatorMemoryRecord> operators; ///< MindSpore 2.x operator_memory
};

/// Everything one input says about memory. Immutable once published (shared as
/// std::shared_ptr<const MemoryProfile>).
struct MemoryProfile
{
    MemorySourceKind kind = MemorySourceKind::KinetoTrace;
    MemoryAxis axis = MemoryAxis::TimeNs;
    QStringList paths; ///< the files it was read from
    std::vector<MemoryDevice> devices;

    bool empty() const { return devices.empty(); }
};

} // namespace runlens::models::memory
