#include "importers/memory/cudasnapshot.h"

#include "importers/memory/safepickle.h"

#include "importers/core/filemapping.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

namespace runlens::importers::memory {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::memory)
};

constexpr int kCudaDeviceType = 1; // Kineto's Device Type of CUDA, so snapshot devices match trace devices

enum class Action : std::uint8_t {
    Alloc,
    FreeRequested,
    FreeCompleted,
    SegmentAlloc,
    SegmentFree,
    Oom,
    Snapshot,
    Other,
};

Action actionOf(std::string_view name)
{
    if (name == "alloc")
        return Action::Alloc;
    if (name == "free_requested")
        return Action::FreeRequested;
    if (name == "free_completed")
        return Action::FreeCompleted;
    // Expandable segments map and unmap pages instead of allocating segments; for reserved memory it is the same.
    if (name == "segment_alloc" || name == "segment_map")
        return Action::SegmentAlloc;
    if (name == "segment_free" || name == "segment_unmap")
        return Action::SegmentFree;
    if (name == "oom")
        return Action::Oom;
    if (name == "snapshot")
        return Action::Snapshot;
    return Action::Other;
}

struct TraceEntry
{
    Action action = Action::Other;
    std::uint64_t address = 0;
    std::int64_t size = 0;
    std::int64_t deviceFree = -1;
    std::int64_t x = 0;
};

struct LiveBlock
{
    std::uint64_t address = 0;
    std::int64_t size = 0;
    QString state;
    QString name;
};

/// What the segments say about one device at snapshot time, and its trace.
struct DeviceState
{
    std::int64_t allocated = 0;
    std::int64_t active = 0;
    std::int64_t reserved = 0;
    std::vector<LiveBlock> blocks;
    std::vector<TraceEntry> trace;
};

/// What walking one value costs: itself and the items a lookup in it may scan. A pickle stores a value it
/// references many times once (memo), so walking the values it refers to, not its bytes, is what must be
/// budgeted: lists sharing one list a thousand times each, three deep, are 10^9 blocks in a few kilobytes.
std::int64_t visitCost(const PickleValue& value)
{
    return 1 + std::int64_t(value.size());
}

/// Memory a kept trace entry or live block costs once it is turned into samples, events and lifetimes.
constexpr std::int64_t kEntryBytes = std::int64_t(sizeof(TraceEntry)) + 3 * 16 + 24;
constexpr std::int64_t kBlockBytes
    = std::int64_t(sizeof(LiveBlock)) + std::int64_t(sizeof(models::memory::TensorLifetime));

/// "file.py:123 forward" of the frame a user recognises: the innermost Python frame when there is one
/// (C++ frames of the allocator come first when the snapshot recorded them), else the innermost frame.
/// False when the budget ran out on the way.
bool frameName(const PickleValue& frames, ImportBudget& budget, QString& name)
{
    name.clear();
    if (!frames.isSequence() || frames.size() == 0)
        return true;
    if (!budget.spendElements(visitCost(frames)))
        return false;
    PickleValue chosen = frames.at(0);
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const PickleValue frame = frames.at(i);
        if (!budget.spendElements(visitCost(frame)))
            return false;
        if (frame.value("filename").bytes().ends_with(".py")) {
            chosen = frame;
            break;
        }
    }
    const QString file = QFileInfo(chosen.value("filename").toString()).fileName();
    const QString function = chosen.value("name").toString();
    name = file.isEmpty()
        ? function
        : QStringLiteral("%1:%2 %3").arg(file).arg(chosen.value("line").toInt()).arg(function).trimmed();
    return budget.spendBytes(2 * std::int64_t(name.size()));
}

/// Frames of a block: `frames` (PyTorch >= 2.1) or the newest `history` entry (older snapshots).
PickleValue blockFrames(const PickleValue& block)
{
    const PickleValue frames = block.value("frames");
    if (frames.isSequence())
        return frames;
    const PickleValue history = block.value("history");
    if (history.isSequence() && history.size() > 0)
        return history.at(history.size() - 1).value("frames");
    return {};
}

class SnapshotReader
{
public:
    /// `complete`: the pickle was read to its end, so the traces end where the segments were taken.
    SnapshotReader(const QString& path, bool complete, ImportBudget& budget, MemoryReadResult& result,
                   models::memory::MemoryProfile& profile)
        : m_path(path)
        , m_complete(complete)
        , m_budget(budget)
        , m_result(result)
        , m_profile(profile)
    { }

    void read(const PickleValue& root);

private:
    void warn(const QString& message, models::Severity severity = models::Severity::Warning)
    {
        models::Diagnostic diagnostic;
        diagnostic.severity = severity;
        diagnostic.file = m_path;
        diagnostic.message = message;
        m_result.diagnostics.append(diagnostic);
    }

    void readSegments(const PickleValue& segments);
    void readTraces(const PickleValue& traces);
    void buildDevice(int id, DeviceState& state);
    /// Spends the cost of walking `value`; false (and the walk stops) once the budget is passed.
    bool visit(const PickleValue& value) { return m_budget.spendElements(visitCost(value)); }

    const QString& m_path;
    bool m_complete = true;
    ImportBudget& m_budget;
    MemoryReadResult& m_result;
    models::memory::MemoryProfile& m_profile;
    std::map<int, DeviceState> m_devices;
    bool m_timed = false;
};

void SnapshotReader::readSegments(const PickleValue& segments)
{
    if (!segments.isValid())
        return;
    if (!segments.isSequence()) {
        warn(Text::tr("'segments' is not a list; the memory held at snapshot time is unknown"));
        return;
    }
    std::size_t skipped = 0;
    if (!visit(segments))
        return;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const PickleValue segment = segments.at(i);
        if (!segment.isDict()) {
            ++skipped;
            continue;
        }
        if (!visit(segment))
            break;
        // Snapshots of one device did not always say which; MemoryViz takes device 0 then too.
        DeviceState& device = m_devices[int(segment.value("device").toInt(0))];
        device.reserved += segment.value("total_size").toInt();
        const PickleValue blocks = segment.value("blocks");
        std::int64_t allocated = 0;
        std::int64_t active = 0;
        if (!visit(blocks))
            break;
        for (std::size_t b = 0; b < blocks.size(); ++b) {
            const PickleValue block = blocks.at(b);
            if (!visit(block))
                break;
            const std::string_view state = block.value("state").bytes();
            const std::int64_t size = block.value("size").toInt();
            if (state == "active_allocated")
                allocated += size;
            if (state == "active_allocated" || state == "active_awaiting_free")
                active += size;
            if (state != "active_allocated" && state != "active_awaiting_free")
                continue;
            if (!m_budget.spendBytes(kBlockBytes))
                break;
            LiveBlock live;
            live.address = std::uint64_t(block.value("address").toInt());
            live.size = size;
            live.state = block.value("state").toString();
            if (!frameName(blockFrames(block), m_budget, live.name))
                break;
            if (live.name.isEmpty())
                live.name = QStringLiteral("0x%1").arg(live.address, 0, 16);
            device.blocks.push_back(std::move(live));
        }
        // The segment's own totals win over the blocks' sums: blocks may be left out of small snapshots.
        if (m_budget.exceeded())
            break;
        device.allocated += segment.contains("allocated_size") ? segment.value("allocated_size").toInt() : allocated;
        device.active += segment.contains("active_size") ? segment.value("active_size").toInt() : active;
    }
    if (skipped > 0)
        warn(Text::tr("%1 entries of 'segments' are not dicts and were skipped").arg(skipped));
}

void SnapshotReader::readTraces(const PickleValue& traces)
{
    if (!traces.isValid())
        return;
    if (!traces.isSequence()) {
        warn(Text::tr("'device_traces' is not a list; no allocation history was read"));
        return;
    }
    std::size_t entries = 0;
    std::size_t untimed = 0;
    std::size_t skipped = 0;
    std::size_t unknown = 0;
    if (!visit(traces))
        return;
    for (std::size_t d = 0; d < traces.size() && !m_budget.exceeded(); ++d) {
        const PickleValue trace = traces.at(d);
        if (!trace.isSequence() || trace.size() == 0)
            continue;
        // Spent before the reserve: a trace shared by every device would otherwise be sized once per device.
        if (!visit(trace) || !m_budget.spendBytes(std::int64_t(trace.size()) * kEntryBytes))
            break;
        DeviceState& device = m_devices[int(d)];
        device.trace.reserve(trace.size());
        for (std::size_t i = 0; i < trace.size(); ++i) {
            const PickleValue entry = trace.at(i);
            if (!entry.isDict()) {
                ++skipped;
                continue;
            }
            if (!visit(entry))
                break;
            TraceEntry parsed;
            parsed.action = actionOf(entry.value("action").bytes());
            if (parsed.action == Action::Other) {
                ++unknown;
                continue;
            }
            parsed.address = std::uint64_t(entry.value("addr").toInt());
            parsed.size = entry.value("size").toInt();
            parsed.deviceFree = entry.value("device_free").toInt(-1);
            const PickleValue time = entry.value("time_us");
            std::int64_t timeNs = 0;
            if (time.isNumber() && !__builtin_mul_overflow(time.toInt(), std::int64_t(1000), &timeNs))
                parsed.x = timeNs;
            else
                ++untimed;
            device.trace.push_back(parsed);
            ++entries;
        }
    }
    // One axis for the whole profile: time when every entry has one, else the entries' order.
    m_timed = entries > 0 && untimed == 0;
    if (skipped > 0)
        warn(Text::tr("%1 entries of 'device_traces' are not dicts and were skipped").arg(skipped));
    if (unknown > 0)
        warn(Text::tr("%1 trace entries have an action this version does not know; they were ignored").arg(unknown),
             models::Severity::Info);
}

void SnapshotReader::buildDevice(int id, DeviceState& state)
{
    models::memory::MemoryDevice device;
    device.label = QStringLiteral("cuda:%1").arg(id);
    device.deviceType = kCudaDeviceType;
    device.deviceId = id;
    device.allocated.name = QStringLiteral("Allocated");
    device.active.name = QStringLiteral("Active");
    device.reserved.name = QStringLiteral("Reserved");

    std::vector<TraceEntry>& trace = state.trace;
    if (m_timed) {
        std::stable_sort(trace.begin(), trace.end(),
                         [](const TraceEntry& a, const TraceEntry& b) { return a.x < b.x; });
    } else {
        for (std::size_t i = 0; i < trace.size(); ++i)
            trace[i].x = std::int64_t(i);
    }

    // The trace is a ring buffer that keeps only the end of the history, and it ends when the snapshot was
    // taken. So the curves end at what the segments hold and start at that minus the trace's net change;
    // the memory allocated before the first entry is known in total, not by whom.
    // Allocated is torch's memory_allocated() (down at free_requested); active also counts blocks whose free
    // waits for another stream (down at free_completed); reserved follows the segments.
    std::int64_t netAllocated = 0;
    std::int64_t netActive = 0;
    std::int64_t netReserved = 0;
    for (const TraceEntry& entry : trace) {
        switch (entry.action) {
        case Action::Alloc:
            netAllocated += entry.size;
            netActive += entry.size;
            break;
        case Action::FreeRequested:
            netAllocated -= entry.size;
            break;
        case Action::FreeCompleted:
            netActive -= entry.size;
            break;
        case Action::SegmentAlloc:
            netReserved += entry.size;
            break;
        case Action::SegmentFree:
            netReserved -= entry.size;
            break;
        default:
            break;
        }
    }
    std::int64_t allocated = state.allocated - netAllocated;
    std::int64_t active = state.active - netActive;
    std::int64_t reserved = state.reserved - netReserved;
    if (!m_complete && !trace.empty()) {
        // A cut file holds the start of the trace only: its end is not the snapshot, so the baseline is unknown.
        device.relative = true;
        allocated = active = reserved = 0;
    } else if (allocated < 0 || active < 0 || reserved < 0) {
        warn(
            Text::tr("the trace of %1 frees more than its segments account for (the snapshot may be inconsistent); its "
                     "curves start at zero")
                .arg(device.label));
        allocated = std::max<std::int64_t>(allocated, 0);
        active = std::max<std::int64_t>(active, 0);
        reserved = std::max<std::int64_t>(reserved, 0);
    }

    const std::int64_t first = trace.empty() ? 0 : trace.front().x;
    const std::int64_t last = trace.empty() ? 0 : trace.back().x;
    auto sample = [](models::memory::MemorySeries& series, std::int64_t x, std::int64_t bytes) {
        series.x.push_back(x);
        series.bytes.push_back(double(bytes));
    };
    sample(device.allocated, first, allocated);
    sample(device.active, first, active);
    sample(device.reserved, first, reserved);

    std::unordered_map<std::uint64_t, std::int64_t> allocatedAt;
    for (const TraceEntry& entry : trace) {
        switch (entry.action) {
        case Action::Alloc:
            allocated += entry.size;
            active += entry.size;
            sample(device.allocated, entry.x, allocated);
            sample(device.active, entry.x, active);
            device.events.push_back({ entry.x, entry.size, entry.address });
            allocatedAt[entry.address] = entry.x;
            break;
        case Action::FreeRequested:
            allocated -= entry.size;
            sample(device.allocated, entry.x, allocated);
            device.events.push_back({ entry.x, -entry.size, entry.address });
            break;
        case Action::FreeCompleted:
            active -= entry.size;
            sample(device.active, entry.x, active);
            break;
        case Action::SegmentAlloc:
            reserved += entry.size;
            sample(device.reserved, entry.x, reserved);
            break;
        case Action::SegmentFree:
            reserved -= entry.size;
            sample(device.reserved, entry.x, reserved);
            break;
        case Action::Oom: {
            models::memory::OomMarker oom;
            oom.x = entry.x;
            oom.bytes = entry.size;
            oom.deviceFree = entry.deviceFree;
            device.ooms.push_back(oom);
            break;
        }
        default:
            break;
        }
    }

    for (LiveBlock& block : state.blocks) {
        models::memory::TensorLifetime lifetime;
        lifetime.name = std::move(block.name);
        lifetime.bytes = block.size;
        const auto found = allocatedAt.find(block.address);
        lifetime.start = found != allocatedAt.end() ? found->second : first;
        lifetime.end = last;
        lifetime.type = std::move(block.state);
        device.lifetimes.push_back(std::move(lifetime));
    }
    m_profile.devices.push_back(std::move(device));
}

void SnapshotReader::read(const PickleValue& root)
{
    if (!root.isDict()) {
        warn(Text::tr("the pickle holds no dict; a CUDA memory snapshot is a dict with 'segments' and 'device_traces'"),
             models::Severity::Error);
        return;
    }
    const PickleValue segments = root.value("segments");
    const PickleValue traces = root.value("device_traces");
    if (!segments.isValid() && !traces.isValid()) {
        warn(Text::tr("the pickle has neither 'segments' nor 'device_traces'; it is not a CUDA memory snapshot"),
             models::Severity::Error);
        return;
    }
    readSegments(segments);
    if (!m_budget.exceeded())
        readTraces(traces);
    if (m_budget.exceeded()) {
        // The pickle's values carry no offsets: the limit is reported for the file as a whole.
        m_result.diagnostics.append(m_budget.diagnostic(m_path, -1));
    }
    m_profile.axis = m_timed ? models::memory::MemoryAxis::TimeNs : models::memory::MemoryAxis::NodeIndex;
    for (auto& [id, state] : m_devices)
        buildDevice(id, state);
    if (!m_complete
        && std::any_of(m_profile.devices.cbegin(), m_profile.devices.cend(),
                       [](const models::memory::MemoryDevice& device) { return device.relative; }))
        warn(Text::tr("the file ends before its allocation history does; the curves show changes from zero, not the "
                      "memory in use"));
}

} // namespace

MemoryReadResult readCudaSnapshotBytes(std::string_view bytes, const QString& path, const ImportControl& control)
{
    MemoryReadResult result;
    auto profile = std::make_shared<models::memory::MemoryProfile>();
    profile->kind = models::memory::MemorySourceKind::CudaSnapshot;
    profile->paths << path;

    ImportBudget budget { std::int64_t(bytes.size()) };
    PickleResult pickle = decodePickle(bytes, path, budget, control);
    result.diagnostics = std::move(pickle.diagnostics);
    if (control.canceled()) {
        result.status = models::ImportStatus::Canceled;
        result.profile = std::move(profile);
        return result;
    }
    if (pickle.document.root().isValid() && !budget.exceeded()) {
        SnapshotReader reader(path, pickle.ok, budget, result, *profile);
        reader.read(pickle.document.root());
    }

    const bool problems = std::any_of(result.diagnostics.cbegin(), result.diagnostics.cend(),
                                      [](const models::Diagnostic& d) { return d.severity != models::Severity::Info; });
    if (profile->empty() && (problems || !pickle.ok))
        result.status = models::ImportStatus::Failed;
    else if (problems || !pickle.ok)
        result.status = models::ImportStatus::Partial;
    result.profile = std::move(profile);
    return result;
}

MemoryReadResult readCudaSnapshot(const QString& path, const ImportControl& control)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        MemoryReadResult result;
        auto profile = std::make_shared<models::memory::MemoryProfile>();
        profile->kind = models::memory::MemorySourceKind::CudaSnapshot;
        profile->paths << path;
        result.profile = std::move(profile);
        result.status = models::ImportStatus::Failed;
        models::Diagnostic diagnostic;
        diagnostic.severity = models::Severity::Error;
        diagnostic.file = path;
        diagnostic.message = Text::tr("cannot open the file: %1").arg(file.errorString());
        result.diagnostics.append(diagnostic);
        return result;
    }
    // Mapped, not read: snapshots reach gigabytes and the decoder only needs to look at each byte once.
    const qint64 size = file.size();
    if (size > 0) {
        QString error;
        if (const std::unique_ptr<FileMapping> mapping = FileMapping::map(path, 0, size, error)) {
            MemoryReadResult result = readCudaSnapshotBytes(
                std::string_view(reinterpret_cast<const char*>(mapping->data()), std::size_t(mapping->size())), path,
                control);
            if (mapping->damaged()) {
                models::Diagnostic diagnostic;
                diagnostic.severity = models::Severity::Error;
                diagnostic.file = path;
                diagnostic.message = mapping->damageMessage();
                result.diagnostics.append(diagnostic);
                if (result.status == models::ImportStatus::Ok)
                    result.status = models::ImportStatus::Partial;
            }
            return result;
        }
    }
    const QByteArray bytes = file.readAll();
    return readCudaSnapshotBytes(std::string_view(bytes.constData(), std::size_t(bytes.size())), path, control);
}

bool looksLikeCudaSnapshot(std::string_view head)
{
    if (!looksLikePickle(head))
        return false;
    const std::string_view start = head.substr(0, 256);
    return start.find("segments") != std::string_view::npos || start.find("device_traces") != std::string_view::npos;
}

} // namespace runlens::importers::memory
