#include "importers/cluster/rankdigestpassstate.h"

#include "importers/memory/tracememory.h"
#include "importers/trace/traceinput.h"
#include "models/cluster/kinetocluster.h"
#include "models/memory/memoryanalysis.h"
#include "models/trace/stepbreakdown.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <tuple>
#include <unordered_map>

// The single-pass digest's figures, on the slices and joins its pass kept: the step breakdown, the
// operator statistics, the collectives and the memory peak, as computeRankDigest makes them from a store.

namespace runlens::importers::cluster::digestpass {

namespace {

void mergeIntervals(std::vector<Interval>& intervals)
{
    // The intervals come track by track, each track in start order: merging those runs beats sorting anew.
    // (Which of equal starts comes first does not change the union.)
    const auto byStart = [](const Interval& a, const Interval& b) { return a.start < b.start; };
    std::vector<std::size_t> runs { 0 };
    for (std::size_t i = 1; i < intervals.size(); ++i) {
        if (intervals[i].start < intervals[i - 1].start)
            runs.push_back(i);
    }
    if (runs.size() > 64) {
        std::sort(intervals.begin(), intervals.end(), byStart);
    } else {
        runs.push_back(intervals.size());
        while (runs.size() > 2) {
            std::size_t kept = 0;
            for (std::size_t r = 0; r + 2 < runs.size(); r += 2) {
                std::inplace_merge(intervals.begin() + std::ptrdiff_t(runs[r]),
                                   intervals.begin() + std::ptrdiff_t(runs[r + 1]),
                                   intervals.begin() + std::ptrdiff_t(runs[r + 2]), byStart);
                runs[kept++] = runs[r];
            }
            if (runs.size() % 2 == 0) // an odd run count: the last run waits for the next round
                runs[kept++] = runs[runs.size() - 2];
            runs[kept++] = runs.back();
            runs.resize(kept);
        }
    }
    std::size_t out = 0;
    for (const Interval& iv : intervals) {
        if (out > 0 && iv.start <= intervals[out - 1].end)
            intervals[out - 1].end = std::max(intervals[out - 1].end, iv.end);
        else
            intervals[out++] = iv;
    }
    intervals.resize(out);
}

/// Length of a merged list within [t0, t1).
std::int64_t lengthWithin(const std::vector<Interval>& merged, std::int64_t t0, std::int64_t t1)
{
    auto it = std::upper_bound(merged.begin(), merged.end(), t0,
                               [](std::int64_t t, const Interval& iv) { return t < iv.end; });
    std::int64_t sum = 0;
    for (; it != merged.end() && it->start < t1; ++it)
        sum += std::min(it->end, t1) - std::max(it->start, t0);
    return sum;
}

/// `a` minus `b`, both merged.
std::vector<Interval> subtract(const std::vector<Interval>& a, const std::vector<Interval>& b)
{
    std::vector<Interval> out;
    std::size_t j = 0;
    for (const Interval& iv : a) {
        std::int64_t from = iv.start;
        while (j < b.size() && b[j].end <= from)
            ++j;
        std::size_t k = j;
        for (; k < b.size() && b[k].start < iv.end; ++k) {
            if (b[k].start > from)
                out.push_back({ from, b[k].start });
            from = std::max(from, b[k].end);
            if (from >= iv.end)
                break;
        }
        if (from < iv.end)
            out.push_back({ from, iv.end });
    }
    return out;
}

/// The part of a collective's args that digestCollective reads: its keys' fields, in order and as written,
/// as one small object. Empty when the args are not plainly valid JSON (anything but printable ASCII, an
/// escape, an exponent, deep nesting): those are read whole, as before. Collectives of a rank differ mostly
/// in ids digestCollective ignores, so the part repeats and its digest is made once.
class CollectiveArgs
{
public:
    explicit CollectiveArgs(std::string_view text)
        : m_p(text.data())
        , m_end(text.data() + text.size())
    {
        for (const char c : text) {
            if (c < 0x20 || c > 0x7E || c == '\\')
                return;
        }
        m_part = "{";
        skipSpace();
        if (!object(0))
            return;
        skipSpace();
        if (m_p != m_end)
            return;
        m_part += '}';
        m_valid = true;
    }
    bool valid() const { return m_valid; }
    const std::string& part() const { return m_part; }

private:
    static constexpr int kMaxDepth = 32;

    void skipSpace()
    {
        while (m_p < m_end && *m_p == ' ')
            ++m_p;
    }
    bool string()
    {
        if (m_p >= m_end || *m_p != '"')
            return false;
        const void* close = std::memchr(m_p + 1, '"', std::size_t(m_end - m_p - 1));
        if (!close)
            return false;
        m_p = static_cast<const char*>(close) + 1;
        return true;
    }
    bool digits()
    {
        const char* first = m_p;
        while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
            ++m_p;
        return m_p > first;
    }
    bool number()
    {
        const char* first = m_p;
        if (m_p < m_end && *m_p == '-')
            ++m_p;
        if (m_p < m_end && *m_p == '0')
            ++m_p;
        else if (!digits())
            return false;
        if (m_p < m_end && *m_p == '.') {
            ++m_p;
            if (!digits())
                return false;
        }
        // Exponents (a double may overflow, which readers take differently) and long numbers are left whole.
        return m_p - first <= 20 && !(m_p < m_end && (*m_p == 'e' || *m_p == 'E'));
    }
    bool literal(std::string_view word)
    {
        if (std::size_t(m_end - m_p) < word.size() || std::string_view(m_p, word.size()) != word)
            return false;
        m_p += word.size();
        return true;
    }
    bool value(int depth)
    {
        if (m_p >= m_end)
            return false;
        switch (*m_p) {
        case '{':
            return object(depth + 1);
        case '[':
            return array(depth + 1);
        case '"':
            return string();
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default:
            return number();
        }
    }
    bool array(int depth)
    {
        if (depth > kMaxDepth || m_p >= m_end || *m_p != '[')
            return false;
        ++m_p;
        skipSpace();
        if (m_p < m_end && *m_p == ']') {
            ++m_p;
            return true;
        }
        for (;;) {
            skipSpace();
            if (!value(depth))
                return false;
            skipSpace();
            if (m_p < m_end && *m_p == ',') {
                ++m_p;
                continue;
            }
            if (m_p < m_end && *m_p == ']') {
                ++m_p;
                return true;
            }
            return false;
        }
    }
    bool object(int depth)
    {
        if (depth > kMaxDepth || m_p >= m_end || *m_p != '{')
            return false;
        ++m_p;
        skipSpace();
        if (m_p < m_end && *m_p == '}') {
            ++m_p;
            return true;
        }
        for (;;) {
            skipSpace();
            const char* keyStart = m_p;
            if (!string())
                return false;
            const std::string_view key(keyStart + 1, std::size_t(m_p - keyStart - 2));
            skipSpace();
            if (m_p >= m_end || *m_p != ':')
                return false;
            ++m_p;
            skipSpace();
            const char* valueStart = m_p;
            if (!value(depth))
                return false;
            if (depth == 0 && isRead(key)) {
                if (m_part.size() > 1)
                    m_part += ',';
                m_part.append(keyStart, std::size_t(m_p - keyStart) - std::size_t(m_p - valueStart));
                m_part.append(valueStart, std::size_t(m_p - valueStart));
            }
            skipSpace();
            if (m_p < m_end && *m_p == ',') {
                ++m_p;
                continue;
            }
            if (m_p < m_end && *m_p == '}') {
                ++m_p;
                return true;
            }
            return false;
        }
    }
    static bool isRead(std::string_view key) // the keys digestCollective looks up
    {
        return key == "Collective name" || key == "In msg nelems" || key == "dtype" || key == "Process Group Name"
            || key == "Process Group Description" || key == "Group size" || key == "Process Group Ranks";
    }

    const char* m_p;
    const char* m_end;
    std::string m_part;
    bool m_valid = false;
};

} // namespace

bool SinglePass::run(const models::cluster::RankDigestOptions& options, const trace::TraceInput& input,
                     const QString& path, models::cluster::RankDigest& digest)
{
    if (!parse())
        return false;
    sortTracks();

    std::vector<models::trace::StepTimes> steps;
    if (!findSteps(steps))
        return false;
    std::vector<Launch> launched;
    if (!launches(launched))
        return false;

    // Device steps: stretched to the device work launched inside each CPU step (the step breakdown's rule).
    {
        std::vector<std::int64_t> devMin(steps.size(), std::numeric_limits<std::int64_t>::max());
        std::vector<std::int64_t> devMax(steps.size(), std::numeric_limits<std::int64_t>::min());
        for (const Launch& l : launched) {
            const Slice& host = m_tracks[std::size_t(l.hostTrack)].slices[l.hostSlice];
            const Slice& device = m_tracks[std::size_t(l.deviceTrack)].slices[l.deviceSlice];
            if (!countsForStatistics(device))
                continue;
            auto it
                = std::upper_bound(steps.begin(), steps.end(), host.start,
                                   [](std::int64_t t, const models::trace::StepTimes& st) { return t < st.cpuStart; });
            if (it == steps.begin())
                continue;
            --it;
            if (host.end() > it->cpuEnd)
                continue;
            const std::size_t k = std::size_t(it - steps.begin());
            devMin[k] = std::min(devMin[k], device.start);
            devMax[k] = std::max(devMax[k], device.end());
        }
        std::int64_t previousEnd = std::numeric_limits<std::int64_t>::min();
        for (std::size_t k = 0; k < steps.size(); ++k) {
            models::trace::StepTimes& st = steps[k];
            st.start = std::max(previousEnd, std::min(st.cpuStart, devMin[k]));
            st.end = std::max(st.cpuEnd, devMax[k]);
            st.end = std::max(st.end, st.start);
            previousEnd = st.end;
        }
    }

    // Data loading per step: the data loader's time where nothing of a higher category (kernels, copies,
    // sets, communication, runtime) is active, as the step breakdown's sweep attributes it.
    std::vector<Interval> loader;
    std::vector<Interval> higher;
    models::cluster::KinetoDeviceWork work;
    std::vector<std::int64_t> devicePids;
    std::vector<std::pair<int, std::uint32_t>> collectives;
    for (std::size_t t = 0; t < m_tracks.size(); ++t) {
        const Track& track = m_tracks[t];
        for (std::size_t i = 0; i < track.slices.size(); ++i) {
            const Slice& s = track.slices[i];
            if (!countsForStatistics(s))
                continue;
            const std::string_view name = m_names.view(s.name);
            if (!s.stepMarker) {
                const int c = models::trace::stepCategoryOf(s.kind, name);
                if (c == int(models::trace::StepCategory::DataLoader))
                    loader.push_back({ s.start, s.end() });
                else if (c >= 0 && c < int(models::trace::StepCategory::DataLoader))
                    higher.push_back({ s.start, s.end() });
            }
            if (!track.device)
                continue;
            const bool communication = s.kind == EventKind::Communication
                || (s.kind == EventKind::Kernel && models::cluster::isCommunicationKernel(name));
            const bool compute = s.kind == EventKind::Kernel && !communication;
            if (!communication && !compute && s.kind != EventKind::Memcpy && s.kind != EventKind::Memset)
                continue;
            const models::cluster::KinetoDeviceWork::Interval iv { s.start, s.end() };
            work.all.push_back(iv);
            if (compute)
                work.compute.push_back(iv);
            if (communication) {
                work.communication.push_back(iv);
                work.communicationStarts.push_back(iv.start);
                collectives.push_back({ int(t), std::uint32_t(i) });
            }
            if (std::find(devicePids.begin(), devicePids.end(), track.pid) == devicePids.end())
                devicePids.push_back(track.pid);
        }
    }
    if (devicePids.size() > 1)
        return decline("device work in several processes");
    work.devicePid = devicePids.empty() ? -1 : devicePids.front();
    work.finish();
    mergeIntervals(loader);
    mergeIntervals(higher);
    const std::vector<Interval> loading = subtract(loader, higher);

    std::vector<models::cluster::KinetoStepWindow> windows;
    for (const models::trace::StepTimes& st : steps) {
        if (st.end <= st.start)
            continue;
        windows.push_back({ st.number, st.start, st.end });
        digest.steps.push_back({ st.number, st.start, st.end, toMs(lengthWithin(loading, st.start, st.end)) });
    }
    models::cluster::KinetoEnvelope envelope;
    envelope.source = 0;
    envelope.rank = m_rank;
    envelope.path = path;
    if (!m_metadata.empty())
        envelope.metadataJson = QByteArray(m_metadata.data(), qsizetype(m_metadata.size())) + '}';
    digest.figures = models::cluster::kinetoRankFiguresFrom(work, windows, envelope, &digest.worldSize);
    digest.file = digest.figures.path;

    // Collectives in start order; equal starts would keep the store's track order.
    std::sort(collectives.begin(), collectives.end(), [this](const auto& a, const auto& b) {
        const Slice& x = m_tracks[std::size_t(a.first)].slices[a.second];
        const Slice& y = m_tracks[std::size_t(b.first)].slices[b.second];
        return x.start < y.start;
    });
    for (std::size_t k = 1; k < collectives.size(); ++k) {
        if (m_tracks[std::size_t(collectives[k].first)].slices[collectives[k].second].start
            == m_tracks[std::size_t(collectives[k - 1].first)].slices[collectives[k - 1].second].start)
            return decline("two collectives start together");
    }
    digest.collectives.reserve(collectives.size());
    std::unordered_map<std::string, models::cluster::DigestCollective> digested; // by name and args part
    for (const auto& [t, i] : collectives) {
        const Slice& s = m_tracks[std::size_t(t)].slices[i];
        const std::string_view name = m_names.view(s.name);
        const CollectiveArgs args(s.argsText());
        if (s.argsText().empty() || !args.valid()) {
            digest.collectives.push_back(models::cluster::digestCollective(name, s.start, s.end(), s.argsText()));
            continue;
        }
        std::string key = args.part();
        key += '\0';
        key += name;
        auto it = digested.find(key);
        if (it == digested.end())
            it = digested.emplace(std::move(key), models::cluster::digestCollective(name, 0, 0, args.part())).first;
        models::cluster::DigestCollective c = it->second;
        c.start = s.start;
        c.end = s.end();
        digest.collectives.push_back(std::move(c));
    }

    const std::size_t top = std::size_t(std::max(0, options.topCount));
    // Kernels by name: the operator statistics' kernel table (device work on streams, instants left out).
    {
        struct KernelRow
        {
            std::uint32_t name;
            std::uint64_t calls = 0;
            std::int64_t total = 0;
            std::int64_t max = 0;
        };
        std::vector<std::int32_t> rowOf(m_names.size(), -1);
        std::vector<KernelRow> rows;
        for (const Track& track : m_tracks) {
            if (!track.device)
                continue;
            for (const Slice& s : track.slices) {
                if (!usable(s) || !models::trace::LaunchIndex::isDeviceWork(s.kind))
                    continue;
                std::int32_t& row = rowOf[s.name];
                if (row < 0) {
                    row = std::int32_t(rows.size());
                    rows.push_back({ s.name });
                }
                KernelRow& k = rows[std::size_t(row)];
                ++k.calls;
                k.total += s.duration;
                k.max = std::max(k.max, s.duration);
            }
        }
        std::sort(rows.begin(), rows.end(), [](const KernelRow& a, const KernelRow& b) {
            return a.total != b.total ? a.total > b.total : a.name < b.name;
        });
        for (std::size_t k = 0; k < rows.size() && k < top; ++k) {
            const std::string_view name = m_names.view(rows[k].name);
            digest.kernels.push_back({ QString::fromUtf8(name.data(), qsizetype(name.size())), rows[k].calls,
                                       toMs(rows[k].total), toMs(rows[k].max) });
        }
    }
    // Operators: CPU ops on CPU threads with the nesting stack of the operator statistics (self time orders
    // the table before the digest re-sorts it by total).
    {
        struct OpRow
        {
            std::uint32_t name;
            std::uint64_t calls = 0;
            std::int64_t hostTotal = 0;
            std::int64_t hostSelf = 0;
            std::int64_t hostMax = 0;
        };
        struct Frame
        {
            std::int64_t end;
            std::uint32_t slice;
            bool isOp;
            int parentOp;
            std::int64_t childOpTime;
        };
        std::vector<std::int32_t> rowOf(m_names.size(), -1);
        std::vector<OpRow> rows;
        std::vector<Frame> stack;
        for (const Track& track : m_tracks) {
            if (track.device)
                continue;
            stack.clear();
            const auto finish = [&](const Frame& f) {
                if (!f.isOp)
                    return;
                const Slice& s = track.slices[f.slice];
                std::int32_t& row = rowOf[s.name];
                if (row < 0) {
                    row = std::int32_t(rows.size());
                    rows.push_back({ s.name });
                }
                OpRow& op = rows[std::size_t(row)];
                ++op.calls;
                op.hostTotal += s.duration;
                op.hostSelf += std::max<std::int64_t>(0, s.duration - f.childOpTime);
                op.hostMax = std::max(op.hostMax, s.duration);
                if (f.parentOp >= 0)
                    stack[std::size_t(f.parentOp)].childOpTime += s.duration;
            };
            for (std::size_t i = 0; i < track.slices.size(); ++i) {
                const Slice& s = track.slices[i];
                if (!usable(s))
                    continue;
                while (!stack.empty() && stack.back().end <= s.start) {
                    const Frame f = stack.back();
                    stack.pop_back();
                    finish(f);
                }
                Frame frame { s.end(), std::uint32_t(i), s.kind == EventKind::CpuOp, -1, 0 };
                if (!stack.empty())
                    frame.parentOp = stack.back().isOp ? int(stack.size()) - 1 : stack.back().parentOp;
                stack.push_back(frame);
            }
            while (!stack.empty()) {
                const Frame f = stack.back();
                stack.pop_back();
                finish(f);
            }
        }
        std::sort(rows.begin(), rows.end(), [](const OpRow& a, const OpRow& b) {
            return a.hostSelf != b.hostSelf ? a.hostSelf > b.hostSelf : a.name < b.name;
        });
        std::stable_sort(rows.begin(), rows.end(),
                         [](const OpRow& a, const OpRow& b) { return a.hostTotal > b.hostTotal; });
        for (std::size_t k = 0; k < rows.size() && k < top; ++k) {
            const std::string_view name = m_names.view(rows[k].name);
            digest.operators.push_back({ QString::fromUtf8(name.data(), qsizetype(name.size())), rows[k].calls,
                                         toMs(rows[k].hostTotal), toMs(rows[k].hostMax) });
        }
    }

    // The memory peak: the memory model of the store path, run on a store of the memory instants alone.
    {
        models::trace::TraceStoreBuilder builder;
        const int source = builder.addSource(path, input.buffer);
        builder.source(source).rank = m_rank;
        bool any = false;
        for (const Track& track : m_tracks) {
            int target = -1;
            for (const Slice& s : track.slices) {
                if (s.kind != EventKind::Memory || !(s.flags & models::trace::SliceFlag::Instant))
                    continue;
                const std::string_view name = m_names.view(s.name);
                if (name != "[memory]" && name != "[OutOfMemory]")
                    continue;
                // Without "Ev Idx" the model orders equal times by the store's track and slice numbers.
                std::uint64_t index = 0;
                if (name == "[memory]" && !trace::findUnsignedArg(s.argsText(), "\"Ev Idx\"", index))
                    return decline("memory events without Ev Idx");
                if (target < 0)
                    target = builder.threadTrack(builder.process(source, track.pid), track.tid);
                const models::trace::ArgsRef ref = s.args
                    ? models::trace::ArgsRef { std::uint64_t(s.args - m_data), s.argsLength }
                    : models::trace::ArgsRef {};
                builder.addSlice(target, s.start, 0, builder.strings().intern(name), 0, s.kind, ref,
                                 models::trace::SliceFlag::Instant);
                any = true;
            }
        }
        if (any) {
            const auto store = builder.finish();
            const memory::MemoryReadResult memory = memory::memoryFromTrace(*store);
            if (memory.profile) {
                for (const models::memory::MemoryDevice& device : memory.profile->devices) {
                    if (device.deviceId < 0 || device.relative)
                        continue;
                    const models::memory::MemoryPeak peak = models::memory::devicePeak(device);
                    if (peak.valid && !(peak.bytes <= digest.figures.peakMemoryBytes))
                        digest.figures.peakMemoryBytes = peak.bytes;
                }
            }
        }
    }
    return true;
}

} // namespace runlens::importers::cluster::digestpass
