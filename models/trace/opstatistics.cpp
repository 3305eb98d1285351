#include "models/trace/opstatistics.h"

#include "models/trace/launchindex.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <unordered_map>

namespace runlens::models::trace {

namespace {

constexpr std::size_t kCancelCheckInterval = 4096;

struct Frame
{
    std::int64_t end = 0;
    std::uint32_t slice = 0;
    bool isOp = false;
    int parentOp = -1; ///< stack position of the nearest CPU op below, or -1
    std::int64_t childOpTime = 0;
    std::int64_t deviceSelf = 0;
    std::int64_t deviceTotal = 0;
    std::uint64_t kernels = 0;
};

bool usable(const Track& track, std::size_t i)
{
    return !(track.flags[i] & (SliceFlag::Instant | SliceFlag::AbsurdDuration));
}

void skipString(std::string_view text, std::size_t& i)
{
    // i is at the opening quote
    for (++i; i < text.size(); ++i) {
        if (text[i] == '\\')
            ++i;
        else if (text[i] == '"')
            return;
    }
}

/// Aggregation of op instances into groups keyed by name (and dims).
class OperatorGroups
{
public:
    explicit OperatorGroups(bool byDims)
        : m_byDims(byDims)
    { }

    OperatorStats& group(StringId name, std::string_view dims)
    {
        if (!m_byDims) {
            auto [it, inserted] = m_byName.try_emplace(name, m_rows.size());
            if (inserted) {
                m_rows.emplace_back();
                m_rows.back().name = name;
            }
            return m_rows[it->second];
        }
        std::string key = std::to_string(name);
        key += '\x1f';
        key += dims;
        auto [it, inserted] = m_byKey.try_emplace(std::move(key), m_rows.size());
        if (inserted) {
            m_rows.emplace_back();
            m_rows.back().name = name;
            m_rows.back().inputDims = std::string(dims);
        }
        return m_rows[it->second];
    }

    std::vector<OperatorStats> take() { return std::move(m_rows); }

private:
    bool m_byDims;
    std::unordered_map<StringId, std::size_t> m_byName;
    std::unordered_map<std::string, std::size_t> m_byKey;
    std::vector<OperatorStats> m_rows;
};

struct KernelOpTime
{
    StringId kernel;
    StringId op;
    std::int64_t time;
};

} // namespace

std::string extractInputDims(std::string_view args)
{
    static constexpr std::string_view kKey = "\"Input Dims\"";
    std::size_t pos = 0;
    for (;;) {
        pos = args.find(kKey, pos);
        if (pos == std::string_view::npos)
            return {};
        pos += kKey.size();
        while (pos < args.size() && std::isspace(static_cast<unsigned char>(args[pos])))
            ++pos;
        if (pos < args.size() && args[pos] == ':')
            break; // a key, not a string value that happens to read "Input Dims"
    }
    ++pos;
    while (pos < args.size() && std::isspace(static_cast<unsigned char>(args[pos])))
        ++pos;
    std::string out;
    int depth = 0;
    for (std::size_t i = pos; i < args.size(); ++i) {
        const char c = args[i];
        if (c == '"') {
            const std::size_t begin = i;
            skipString(args, i);
            out.append(args.substr(begin, std::min(i, args.size() - 1) - begin + 1));
        } else if (c == '[' || c == '{') {
            ++depth;
            out += c;
        } else if (c == ']' || c == '}') {
            --depth;
            if (depth < 0)
                break;
            out += c;
        } else if (c == ',' && depth == 0) {
            break;
        } else if (!std::isspace(static_cast<unsigned char>(c))) {
            out += c;
        }
        if (depth == 0 && !out.empty() && (c == ']' || c == '}' || c == '"'))
            break;
    }
    return out;
}

OperatorStatistics computeOperatorStatistics(const TraceStore& store, const OperatorStatisticsOptions& options)
{
    OperatorStatistics result;
    result.groupedByInputDims = options.groupByInputDims;
    const auto& tracks = store.tracks();
    std::optional<LaunchIndex> built;
    const LaunchIndex& launches = options.launches ? *options.launches : built.emplace(store);
    OperatorGroups groups(options.groupByInputDims);
    std::vector<KernelOpTime> kernelOps;
    std::size_t visited = 0;
    const auto cancelled
        = [&] { return options.cancelled && ++visited % kCancelCheckInterval == 0 && options.cancelled(); };

    std::vector<Frame> stack;
    for (int ti = 0; ti < int(tracks.size()); ++ti) {
        const Track& track = tracks[std::size_t(ti)];
        if (track.type != TrackType::Thread || (options.source >= 0 && track.source != options.source))
            continue;
        stack.clear();

        const auto finish = [&](const Frame& f) {
            if (!f.isOp)
                return;
            const std::int64_t duration = track.duration[f.slice];
            const std::string dims
                = options.groupByInputDims ? extractInputDims(store.argsJson(ti, f.slice)) : std::string();
            OperatorStats& op = groups.group(track.name_[f.slice], dims);
            ++op.calls;
            op.hostTotal += duration;
            op.hostSelf += std::max<std::int64_t>(0, duration - f.childOpTime);
            op.hostMin = std::min(op.hostMin, duration);
            if (duration > op.hostMax || op.longestTrack < 0) {
                op.hostMax = std::max(op.hostMax, duration);
                op.longestTrack = ti;
                op.longestSlice = f.slice;
            }
            op.deviceSelf += f.deviceSelf;
            op.deviceTotal += f.deviceTotal;
            op.kernels += f.kernels;
            if (f.parentOp >= 0) {
                Frame& parent = stack[std::size_t(f.parentOp)];
                parent.childOpTime += duration;
                parent.deviceTotal += f.deviceTotal;
            }
        };

        for (std::size_t i = 0; i < track.size(); ++i) {
            if (cancelled())
                break;
            if (!usable(track, i))
                continue;
            const std::int64_t start = track.start[i];
            while (!stack.empty() && stack.back().end <= start) {
                const Frame f = stack.back();
                stack.pop_back();
                finish(f);
            }
            Frame frame;
            frame.end = track.end(i);
            frame.slice = std::uint32_t(i);
            if (!stack.empty())
                frame.parentOp = stack.back().isOp ? int(stack.size()) - 1 : stack.back().parentOp;
            const EventKind kind = track.kind[i];
            frame.isOp = kind == EventKind::CpuOp;
            // Device work is charged to the op: launched by the op itself (joined by External id when
            // no runtime call carries it) or by a runtime call below the op.
            Frame* op = frame.isOp ? &frame
                : (kind == EventKind::Runtime || kind == EventKind::Driver) && frame.parentOp >= 0
                ? &stack[std::size_t(frame.parentOp)]
                : nullptr;
            if (op) {
                for (const LaunchIndex::Launch& l : launches.launchesOf(ti, std::uint32_t(i))) {
                    const Track& device = tracks[std::size_t(l.deviceTrack)];
                    if (!usable(device, l.deviceSlice))
                        continue;
                    const std::int64_t d = device.duration[l.deviceSlice];
                    op->deviceSelf += d;
                    op->deviceTotal += d;
                    ++op->kernels;
                    kernelOps.push_back({ device.name_[l.deviceSlice], track.name_[op->slice], d });
                }
            }
            stack.push_back(frame);
        }
        while (!stack.empty()) {
            const Frame f = stack.back();
            stack.pop_back();
            finish(f);
        }
    }

    result.operators = groups.take();
    for (const OperatorStats& op : result.operators) {
        result.hostSelfSum += op.hostSelf;
        result.deviceSelfSum += op.deviceSelf;
        result.opCalls += op.calls;
    }
    std::sort(result.operators.begin(), result.operators.end(), [](const OperatorStats& a, const OperatorStats& b) {
        if (a.hostSelf != b.hostSelf)
            return a.hostSelf > b.hostSelf;
        return a.name != b.name ? a.name < b.name : a.inputDims < b.inputDims;
    });

    // Kernels by name.
    std::unordered_map<StringId, std::size_t> kernelIndex;
    for (int ti = 0; ti < int(tracks.size()); ++ti) {
        const Track& track = tracks[std::size_t(ti)];
        if (track.type != TrackType::GpuStream || (options.source >= 0 && track.source != options.source))
            continue;
        for (std::size_t i = 0; i < track.size(); ++i) {
            if (cancelled())
                break;
            if (!usable(track, i) || !LaunchIndex::isDeviceWork(track.kind[i]))
                continue;
            auto [it, inserted] = kernelIndex.try_emplace(track.name_[i], result.kernels.size());
            if (inserted) {
                result.kernels.emplace_back();
                result.kernels.back().name = track.name_[i];
                result.kernels.back().kind = track.kind[i];
            }
            KernelStats& k = result.kernels[it->second];
            const std::int64_t d = track.duration[i];
            ++k.calls;
            k.total += d;
            k.min = std::min(k.min, d);
            if (d > k.max || k.longestTrack < 0) {
                k.max = std::max(k.max, d);
                k.longestTrack = ti;
                k.longestSlice = std::uint32_t(i);
            }
            result.kernelSum += d;
        }
    }

    // The op that launched most of each kernel's time.
    std::sort(kernelOps.begin(), kernelOps.end(), [](const KernelOpTime& a, const KernelOpTime& b) {
        return a.kernel != b.kernel ? a.kernel < b.kernel : a.op < b.op;
    });
    std::vector<std::int64_t> bestTime(result.kernels.size(), 0);
    for (std::size_t i = 0; i < kernelOps.size();) {
        std::size_t j = i;
        std::int64_t sum = 0;
        for (; j < kernelOps.size() && kernelOps[j].kernel == kernelOps[i].kernel && kernelOps[j].op == kernelOps[i].op;
             ++j)
            sum += kernelOps[j].time;
        const auto it = kernelIndex.find(kernelOps[i].kernel);
        if (it != kernelIndex.end() && sum > bestTime[it->second]) {
            bestTime[it->second] = sum;
            result.kernels[it->second].topOperator = kernelOps[i].op;
        }
        i = j;
    }
    std::sort(result.kernels.begin(), result.kernels.end(), [](const KernelStats& a, const KernelStats& b) {
        return a.total != b.total ? a.total > b.total : a.name < b.name;
    });
    return result;
}

} // namespace runlens::models::trace
