#include "models/trace/tracestore.h"

#include <algorithm>
#include <cstring>

namespace runlens::models::trace {

namespace {

bool equalsNoCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i];
        char y = b[i];
        if (x >= 'A' && x <= 'Z')
            x = char(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = char(y - 'A' + 'a');
        if (x != y)
            return false;
    }
    return true;
}

bool containsNoCase(std::string_view text, std::string_view needle)
{
    if (needle.size() > text.size())
        return false;
    for (std::size_t i = 0; i + needle.size() <= text.size(); ++i) {
        if (equalsNoCase(text.substr(i, needle.size()), needle))
            return true;
    }
    return false;
}

std::uint64_t hashText(std::string_view text)
{
    // FNV-1a over 8-byte words: strings here are short names, this is fast and spreads well enough
    // for the power-of-two table below once mixed.
    std::uint64_t h = 0xcbf29ce484222325ull ^ text.size();
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, text.data() + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < text.size(); ++i)
        h = (h ^ std::uint8_t(text[i])) * 0x100000001b3ull;
    h ^= h >> 32;
    h *= 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
    return h;
}

} // namespace

const char* eventKindId(EventKind kind)
{
    switch (kind) {
    case EventKind::CpuOp:
        return "cpu_op";
    case EventKind::Python:
        return "python";
    case EventKind::UserAnnotation:
        return "user_annotation";
    case EventKind::Runtime:
        return "runtime";
    case EventKind::Driver:
        return "driver";
    case EventKind::Kernel:
        return "kernel";
    case EventKind::Memcpy:
        return "memcpy";
    case EventKind::Memset:
        return "memset";
    case EventKind::GpuAnnotation:
        return "gpu_annotation";
    case EventKind::Memory:
        return "memory";
    case EventKind::Communication:
        return "communication";
    case EventKind::Other:
        return "other";
    }
    return "other";
}

EventKind eventKindFrom(std::string_view category, std::string_view name)
{
    struct Entry
    {
        const char* category;
        EventKind kind;
    };
    // Kineto 2020-21, 2022, 2023+, ROCm, MTIA, Paddle and MindSpore category names.
    static const Entry kTable[] = {
        { "cpu_op", EventKind::CpuOp },
        { "operator", EventKind::CpuOp },
        { "operatorinner", EventKind::CpuOp },
        { "forward", EventKind::CpuOp },
        { "backward", EventKind::CpuOp },
        { "optimization", EventKind::CpuOp },
        { "dataloader", EventKind::CpuOp },
        { "python_function", EventKind::Python },
        { "python", EventKind::Python },
        { "pythonop", EventKind::Python },
        { "user_annotation", EventKind::UserAnnotation },
        { "userdefined", EventKind::UserAnnotation },
        { "pythonuserdefined", EventKind::UserAnnotation },
        { "profilestep", EventKind::UserAnnotation },
        { "cuda_runtime", EventKind::Runtime },
        { "runtime", EventKind::Runtime },
        { "cudaruntime", EventKind::Runtime },
        { "hip_runtime", EventKind::Runtime },
        { "mtia_runtime", EventKind::Runtime },
        { "privateuse1_runtime", EventKind::Runtime },
        { "mluruntime", EventKind::Runtime },
        { "cuda_sync", EventKind::Runtime },
        { "cuda_driver", EventKind::Driver },
        { "driver", EventKind::Driver },
        { "kernel", EventKind::Kernel },
        { "gpu_op", EventKind::Kernel },
        { "mtia_ccp_events", EventKind::Kernel },
        { "gpu_memcpy", EventKind::Memcpy },
        { "memcpy", EventKind::Memcpy },
        { "gpu_memset", EventKind::Memset },
        { "memset", EventKind::Memset },
        { "gpu_user_annotation", EventKind::GpuAnnotation },
        { "allocate", EventKind::Memory },
        { "free", EventKind::Memory },
        { "reservedallocate", EventKind::Memory },
        { "reservedfree", EventKind::Memory },
        { "communication", EventKind::Communication },
    };

    if (name == "[memory]" || name == "[OutOfMemory]")
        return EventKind::Memory;

    EventKind kind = EventKind::Other;
    bool known = false;
    if (!category.empty()) {
        for (const Entry& entry : kTable) {
            if (equalsNoCase(category, entry.category)) {
                kind = entry.kind;
                known = true;
                break;
            }
        }
    }
    if (known) {
        // Collective kernels count as communication in the step breakdown.
        if (kind == EventKind::Kernel && name.size() >= 4 && equalsNoCase(name.substr(0, 4), "nccl"))
            return EventKind::Communication;
        return kind;
    }

    // Missing or unknown category: fall back on well-known names.
    if (name.starts_with("ProfilerStep#"))
        return EventKind::UserAnnotation;
    if (name.starts_with("aten::") || name.starts_with("autograd::"))
        return EventKind::CpuOp;
    if (name.starts_with("cuda") || name.starts_with("hip")) {
        if (name.starts_with("cuLaunch"))
            return EventKind::Driver;
        return EventKind::Runtime;
    }
    if (name.starts_with("cuLaunch") || name.starts_with("cuMem"))
        return EventKind::Driver;
    if (containsNoCase(category, "memcpy"))
        return EventKind::Memcpy;
    if (containsNoCase(category, "memset"))
        return EventKind::Memset;
    if (containsNoCase(category, "nccl") || containsNoCase(category, "hccl") || containsNoCase(category, "comm"))
        return EventKind::Communication;
    return EventKind::Other;
}

// Open addressing over string ids; the id list is the single owner of the text.
struct StringTable::Index
{
    std::vector<std::uint32_t> cells; ///< id + 1, 0 = empty
    std::vector<std::uint32_t> hashes; ///< low 32 bits of the hash per id, to skip compares
    std::size_t mask = 0;
};

StringTable::StringTable()
    : m_index(std::make_shared<Index>())
{
    m_index->cells.assign(1024, 0);
    m_index->mask = 1023;
    intern(std::string_view());
}

StringId StringTable::intern(std::string_view text)
{
    Index& index = *m_index;
    const std::uint64_t h = hashText(text);
    const auto h32 = std::uint32_t(h);
    std::size_t pos = h & index.mask;
    while (true) {
        const std::uint32_t slot = index.cells[pos];
        if (slot == 0)
            break;
        const std::uint32_t id = slot - 1;
        if (index.hashes[id] == h32 && m_strings[id] == text)
            return id;
        pos = (pos + 1) & index.mask;
    }
    const auto id = StringId(m_strings.size());
    m_strings.emplace_back(text);
    index.hashes.push_back(h32);
    index.cells[pos] = id + 1;
    if (m_strings.size() * 2 > index.cells.size()) {
        // Grow and rehash; the full hash is recomputed since only 32 bits are kept.
        std::vector<std::uint32_t> cells(index.cells.size() * 2, 0);
        const std::size_t mask = cells.size() - 1;
        for (std::uint32_t i = 0; i < m_strings.size(); ++i) {
            std::size_t p = hashText(m_strings[i]) & mask;
            while (cells[p] != 0)
                p = (p + 1) & mask;
            cells[p] = i + 1;
        }
        index.cells = std::move(cells);
        index.mask = mask;
    }
    return id;
}

QString StringTable::text(StringId id) const
{
    if (id >= m_strings.size())
        return {};
    const std::string& s = m_strings[id];
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

std::size_t StringTable::memoryBytes() const
{
    std::size_t bytes = m_strings.capacity() * sizeof(std::string);
    for (const std::string& s : m_strings) {
        if (s.capacity() > 15)
            bytes += s.capacity() + 1;
    }
    bytes += m_index->cells.capacity() * sizeof(std::uint32_t);
    bytes += m_index->hashes.capacity() * sizeof(std::uint32_t);
    return bytes;
}

std::pair<std::size_t, std::size_t> Track::overlapping(std::int64_t t0, std::int64_t t1) const
{
    // Every slice that can overlap [t0, t1] starts in [t0 - maxDuration, t1].
    const auto last = std::upper_bound(start.begin(), start.end(), t1);
    const std::int64_t from = t0 - maxDuration;
    auto first = std::lower_bound(start.begin(), last, from);
    // Trim leading slices that end before t0 (cheap when most slices are short).
    std::size_t i = std::size_t(first - start.begin());
    const std::size_t j = std::size_t(last - start.begin());
    while (i < j && start[i] + duration[i] < t0)
        ++i;
    return { i, j };
}

std::uint64_t TraceStore::eventCount() const
{
    std::uint64_t n = 0;
    for (const Track& track : m_tracks)
        n += track.size() + track.counterTime.size();
    return n;
}

std::size_t TraceStore::memoryBytes() const
{
    std::size_t bytes = sizeof(*this) + m_strings.memoryBytes();
    for (const Track& t : m_tracks) {
        bytes += sizeof(Track);
        bytes += t.start.capacity() * sizeof(std::int64_t) + t.duration.capacity() * sizeof(std::int64_t);
        bytes += t.name_.capacity() * sizeof(StringId) + t.category.capacity() * sizeof(StringId);
        bytes += t.kind.capacity() * sizeof(EventKind) + t.depth.capacity() * sizeof(std::uint16_t);
        bytes += t.flags.capacity() + t.args.capacity() * sizeof(ArgsRef);
        bytes += t.counterTime.capacity() * sizeof(std::int64_t) + t.counterValue.capacity() * sizeof(double);
    }
    for (const Process& p : m_processes)
        bytes += sizeof(Process) + p.tracks.capacity() * sizeof(int);
    bytes += m_flows.capacity() * sizeof(Flow) + m_steps.capacity() * sizeof(Step);
    for (const TraceSource& s : m_sources)
        bytes += sizeof(TraceSource) + std::size_t(s.metadataJson.capacity());
    return bytes;
}

std::string_view TraceStore::argsJson(int track, std::size_t slice) const
{
    if (track < 0 || std::size_t(track) >= m_tracks.size())
        return {};
    const Track& t = m_tracks[std::size_t(track)];
    if (slice >= t.args.size())
        return {};
    const ArgsRef ref = t.args[slice];
    if (ref.length == 0 || t.source < 0 || std::size_t(t.source) >= m_sources.size())
        return {};
    const auto& input = m_sources[std::size_t(t.source)].input;
    if (!input || ref.offset + ref.length > input->size())
        return {};
    return std::string_view(input->data() + ref.offset, ref.length);
}

} // namespace runlens::models::trace
