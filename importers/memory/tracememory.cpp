#include "importers/memory/tracememory.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <climits>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <thread>

namespace runlens::importers::memory {

namespace {

namespace od = simdjson::ondemand;
using models::trace::EventKind;
using models::trace::TraceBuffer;
using models::trace::Track;

static_assert(TraceBuffer::kPadding >= simdjson::SIMDJSON_PADDING);

/// Kineto's Device Type is c10::DeviceType; these are the names torch prints for them ("cuda:0").
QString deviceLabel(int type, int id)
{
    static const char* const kNames[]
        = { "cpu",   "cuda", "mkldnn", "opengl", "opencl", "ideep", "hip",  "fpga", "maia", "xla",          "vulkan",
            "metal", "xpu",  "mps",    "meta",   "hpu",    "ve",    "lazy", "ipu",  "mtia", "privateuseone" };
    const QString name = type >= 0 && type < int(std::size(kNames)) ? QString::fromLatin1(kNames[type])
                                                                    : QStringLiteral("device%1").arg(type);
    if (type == 0 || id < 0)
        return name;
    return QStringLiteral("%1:%2").arg(name).arg(id);
}

/// What a `[memory]` / `[OutOfMemory]` args object says; absent fields stay empty.
struct MemoryArgs
{
    int deviceType = 0;
    int deviceId = -1;
    std::uint64_t address = 0;
    std::optional<std::int64_t> bytes;
    std::optional<std::int64_t> totalAllocated;
    std::optional<std::int64_t> totalReserved;
    std::optional<std::int64_t> eventIndex;
};

simdjson::error_code readInteger(od::value value, std::int64_t& out)
{
    od::number number;
    if (const auto error = value.get_number().get(number))
        return error;
    switch (number.get_number_type()) {
    case od::number_type::signed_integer:
        out = number.get_int64();
        break;
    case od::number_type::unsigned_integer:
        out = std::int64_t(std::min<std::uint64_t>(number.get_uint64(), std::numeric_limits<std::int64_t>::max()));
        break;
    default: {
        const double d = number.get_double();
        if (!(d > -9.2e18 && d < 9.2e18))
            return simdjson::NUMBER_OUT_OF_RANGE;
        out = std::int64_t(d);
        break;
    }
    }
    return simdjson::SUCCESS;
}

simdjson::error_code parseArgs(od::parser& parser, std::string_view json, std::size_t capacity, MemoryArgs& args)
{
    od::document doc;
    if (const auto error = parser.iterate(json.data(), json.size(), capacity).get(doc))
        return error;
    od::object object;
    if (const auto error = doc.get_object().get(object))
        return error;
    for (auto field : object) {
        std::string_view key;
        if (const auto error = field.unescaped_key().get(key))
            return error;
        std::int64_t* target = nullptr;
        std::int64_t scratch = 0;
        if (key == "Bytes") {
            args.bytes.emplace();
            target = &*args.bytes;
        } else if (key == "Total Allocated") {
            args.totalAllocated.emplace();
            target = &*args.totalAllocated;
        } else if (key == "Total Reserved") {
            args.totalReserved.emplace();
            target = &*args.totalReserved;
        } else if (key == "Ev Idx") {
            args.eventIndex.emplace();
            target = &*args.eventIndex;
        } else if (key == "Device Type" || key == "Device Id" || key == "Addr") {
            target = &scratch;
        } else {
            continue; // skipped by the iteration
        }
        if (const auto error = readInteger(field.value(), *target))
            return error;
        if (key == "Device Type")
            args.deviceType = int(std::clamp<std::int64_t>(scratch, -1, 1 << 16));
        else if (key == "Device Id")
            args.deviceId = int(std::clamp<std::int64_t>(scratch, -1, 1 << 16));
        else if (key == "Addr")
            args.address = std::uint64_t(scratch);
    }
    return simdjson::SUCCESS;
}

/// The usual args object (flat, keys without escapes, integer values) read without a full parser:
/// Kineto writes millions of them. Returns false on anything else, and the caller asks simdjson.
bool scanArgsFast(std::string_view json, MemoryArgs& args)
{
    const char* p = json.data();
    const char* const end = p + json.size();
    auto skipSpace = [&] {
        while (p != end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
            ++p;
    };
    skipSpace();
    if (p == end || *p != '{')
        return false;
    ++p;
    skipSpace();
    if (p != end && *p == '}')
        return true;
    while (true) {
        skipSpace();
        if (p == end || *p != '"')
            return false;
        const char* keyBegin = ++p;
        const char* keyEnd = static_cast<const char*>(std::memchr(p, '"', std::size_t(end - p)));
        if (!keyEnd || std::memchr(keyBegin, '\\', std::size_t(keyEnd - keyBegin)))
            return false;
        const std::string_view key(keyBegin, std::size_t(keyEnd - keyBegin));
        p = keyEnd + 1;
        skipSpace();
        if (p == end || *p != ':')
            return false;
        ++p;
        skipSpace();
        // The keys of interest all differ in length: one comparison each.
        std::int64_t* target = nullptr;
        std::int64_t scratch = 0;
        enum { Other, Type, Id, Address } field = Other;
        switch (key.size()) {
        case 4:
            if (key == "Addr") {
                target = &scratch;
                field = Address;
            }
            break;
        case 5:
            if (key == "Bytes")
                target = &args.bytes.emplace();
            break;
        case 6:
            if (key == "Ev Idx")
                target = &args.eventIndex.emplace();
            break;
        case 9:
            if (key == "Device Id") {
                target = &scratch;
                field = Id;
            }
            break;
        case 11:
            if (key == "Device Type") {
                target = &scratch;
                field = Type;
            }
            break;
        case 14:
            if (key == "Total Reserved")
                target = &args.totalReserved.emplace();
            break;
        case 15:
            if (key == "Total Allocated")
                target = &args.totalAllocated.emplace();
            break;
        default:
            break;
        }
        if (target) {
            const auto [next, ec] = std::from_chars(p, end, *target);
            if (ec != std::errc() || next == end || *next == '.' || *next == 'e' || *next == 'E')
                return false;
            p = next;
            if (field == Type)
                args.deviceType = int(std::clamp<std::int64_t>(scratch, -1, 1 << 16));
            else if (field == Id)
                args.deviceId = int(std::clamp<std::int64_t>(scratch, -1, 1 << 16));
            else if (field == Address)
                args.address = std::uint64_t(scratch);
        } else if (p != end && (*p == '"' || *p == '{' || *p == '[')) {
            return false; // strings and nested values of other keys: rare, left to simdjson
        } else {
            while (p != end && *p != ',' && *p != '}' && *p != ' ' && *p != '\n')
                ++p;
        }
        skipSpace();
        if (p == end)
            return false;
        if (*p == '}')
            return true;
        if (*p != ',')
            return false;
        ++p;
    }
}

/// One memory instant as read, before the events of all threads are put in time order.
struct RawEvent
{
    std::int64_t x;
    std::int64_t order; ///< `Ev Idx` when present (allocation order), else reading order
    std::int64_t bytes;
    std::int64_t totalAllocated; ///< -1 absent
    std::int64_t totalReserved; ///< -1 absent
    std::uint64_t address;
    int track;
    std::uint32_t slice;
    bool hasBytes;
};

struct DeviceBuild
{
    int source = 0;
    int type = 0;
    int id = -1;
    std::vector<RawEvent> events;
    std::vector<std::size_t> runs; ///< where the events of each unit begin (each run is in time order)
    std::vector<models::memory::OomMarker> ooms;
};

bool rawBefore(const RawEvent& a, const RawEvent& b)
{
    return a.x != b.x ? a.x < b.x : a.order < b.order;
}

/// Puts the events of all threads in time order: each track's run is sorted already, so merging the
/// runs (bottom-up) costs O(n log runs) instead of a full sort.
void mergeRuns(DeviceBuild& build)
{
    std::vector<std::size_t> bounds = build.runs;
    bounds.push_back(build.events.size());
    for (std::size_t r = 0; r + 1 < bounds.size(); ++r) {
        const auto first = build.events.begin() + std::ptrdiff_t(bounds[r]);
        const auto last = build.events.begin() + std::ptrdiff_t(bounds[r + 1]);
        if (!std::is_sorted(first, last, rawBefore))
            std::sort(first, last, rawBefore);
    }
    while (bounds.size() > 2) {
        std::vector<std::size_t> merged;
        merged.reserve(bounds.size() / 2 + 2);
        std::size_t r = 0;
        for (; r + 2 < bounds.size(); r += 2) {
            std::inplace_merge(build.events.begin() + std::ptrdiff_t(bounds[r]),
                               build.events.begin() + std::ptrdiff_t(bounds[r + 1]),
                               build.events.begin() + std::ptrdiff_t(bounds[r + 2]), rawBefore);
            merged.push_back(bounds[r]);
        }
        for (; r < bounds.size(); ++r)
            merged.push_back(bounds[r]);
        bounds = std::move(merged);
    }
}

/// Slices per unit of work, and the number of slices below which one thread does it all.
constexpr std::size_t kUnitSlices = 1 << 16;
constexpr std::size_t kParallelSlices = 1 << 17;

struct ScanUnit
{
    int track;
    std::size_t begin;
    std::size_t end;
};

/// What one unit found: per device its events (in slice order, so in time order) and OOMs.
struct UnitResult
{
    std::vector<DeviceBuild> devices;
    int source = 0;
    std::uint64_t badArgs = 0;
    std::uint64_t firstBadOffset = 0;
};

void scanUnit(const models::trace::TraceStore& store, const ScanUnit& unit, od::parser& parser, UnitResult& out)
{
    const Track& track = store.tracks()[std::size_t(unit.track)];
    out.source = track.source;
    const TraceBuffer* input = store.sources()[std::size_t(track.source)].input.get();
    const std::string_view memoryName = "[memory]";
    const std::string_view oomName = "[OutOfMemory]";
    DeviceBuild* last = nullptr;
    for (std::size_t i = unit.begin; i < unit.end; ++i) {
        if (track.kind[i] != EventKind::Memory || !(track.flags[i] & models::trace::Instant))
            continue;
        const std::string_view name = store.strings().view(track.name_[i]);
        const bool oom = name == oomName;
        if (!oom && name != memoryName)
            continue;
        const std::string_view json = store.argsJson(unit.track, i);
        MemoryArgs args;
        bool ok = false;
        if (!json.empty() && input && json.data() >= input->data()
            && json.data() + json.size() <= input->data() + input->size()) {
            ok = scanArgsFast(json, args);
            if (!ok) {
                // The args lie inside the retained input, which is followed by its padding.
                const std::size_t capacity
                    = std::size_t(input->data() + input->size() - json.data()) + TraceBuffer::kPadding;
                args = {};
                ok = parseArgs(parser, json, capacity, args) == simdjson::SUCCESS;
            }
        }
        ok = ok && (args.bytes || args.totalAllocated || args.totalReserved);
        if (!ok) {
            if (out.badArgs++ == 0)
                out.firstBadOffset = track.args[i].offset;
            continue;
        }
        if (!last || last->type != args.deviceType || last->id != args.deviceId) {
            last = nullptr;
            for (DeviceBuild& d : out.devices) {
                if (d.type == args.deviceType && d.id == args.deviceId)
                    last = &d;
            }
            if (!last) {
                out.devices.push_back({});
                last = &out.devices.back();
                last->source = track.source;
                last->type = args.deviceType;
                last->id = args.deviceId;
            }
        }
        if (oom) {
            models::memory::OomMarker marker;
            marker.x = track.start[i];
            marker.bytes = args.bytes.value_or(0);
            marker.track = unit.track;
            marker.slice = std::uint32_t(i);
            last->ooms.push_back(marker);
            continue;
        }
        RawEvent event;
        event.x = track.start[i];
        // Without `Ev Idx`, reading order (track, then slice) breaks ties.
        event.order = args.eventIndex.value_or((std::int64_t(unit.track) << 32) | std::int64_t(i));
        event.bytes = args.bytes.value_or(0);
        event.hasBytes = args.bytes.has_value();
        event.totalAllocated = args.totalAllocated.value_or(-1);
        event.totalReserved = args.totalReserved.value_or(-1);
        event.address = args.address;
        event.track = unit.track;
        event.slice = std::uint32_t(i);
        last->events.push_back(event);
    }
}

/// Memory of the device `id` from `deviceProperties` (or the older `computeProperties`), 0 unknown.
std::int64_t deviceCapacity(const QJsonObject& metadata, int id)
{
    for (const char* key : { "deviceProperties", "computeProperties" }) {
        const QJsonArray devices = metadata.value(QLatin1String(key)).toArray();
        for (const QJsonValue& device : devices) {
            const QJsonObject properties = device.toObject();
            if (properties.value(QLatin1String("id")).toInt(-1) == id) {
                const double bytes = properties.value(QLatin1String("totalGlobalMem")).toDouble();
                if (bytes > 0)
                    return std::int64_t(bytes);
            }
        }
    }
    return 0;
}

QString message(const char* text)
{
    return QCoreApplication::translate("runlens::memory", text);
}

} // namespace

MemoryReadResult memoryFromTrace(const models::trace::TraceStore& store, const std::function<bool()>& cancelled)
{
    MemoryReadResult result;
    auto profile = std::make_shared<models::memory::MemoryProfile>();
    profile->kind = models::memory::MemorySourceKind::KinetoTrace;
    profile->axis = models::memory::MemoryAxis::TimeNs;
    for (const models::trace::TraceSource& source : store.sources())
        profile->paths.append(source.path);

    // The tracks are cut into units of consecutive slices, read on several threads (the args of millions
    // of events are the cost); each unit gives one time-ordered run per device, merged afterwards.
    const std::vector<Track>& tracks = store.tracks();
    std::vector<ScanUnit> units;
    std::size_t slices = 0;
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        const Track& track = tracks[t];
        if (track.type == models::trace::TrackType::Counter || track.source < 0
            || std::size_t(track.source) >= store.sources().size())
            continue;
        for (std::size_t begin = 0; begin < track.size(); begin += kUnitSlices)
            units.push_back({ int(t), begin, std::min(track.size(), begin + kUnitSlices) });
        slices += track.size();
    }
    std::vector<UnitResult> results(units.size());
    std::atomic_size_t next { 0 };
    std::atomic_bool stop { false };
    auto work = [&](bool polling) {
        od::parser parser;
        while (!stop.load(std::memory_order_relaxed)) {
            if (polling && cancelled && cancelled()) {
                stop = true;
                break;
            }
            const std::size_t u = next.fetch_add(1);
            if (u >= units.size())
                break;
            scanUnit(store, units[u], parser, results[u]);
        }
    };
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t helpers
        = slices < kParallelSlices ? 0 : std::min<std::size_t>(std::min(hardware, 8u) - 1, units.size());
    std::vector<std::thread> threads;
    threads.reserve(helpers);
    for (std::size_t h = 0; h < helpers; ++h)
        threads.emplace_back(work, false);
    work(true); // only the calling thread asks `cancelled`: it may not be safe to call from elsewhere
    for (std::thread& thread : threads)
        thread.join();
    const bool canceled = stop.load();

    std::vector<DeviceBuild> devices;
    std::vector<std::uint64_t> badArgs(store.sources().size(), 0);
    std::vector<std::uint64_t> firstBadOffset(store.sources().size(), 0);
    for (UnitResult& unit : results) {
        if (unit.badArgs > 0) {
            if (badArgs[std::size_t(unit.source)] == 0)
                firstBadOffset[std::size_t(unit.source)] = unit.firstBadOffset;
            badArgs[std::size_t(unit.source)] += unit.badArgs;
        }
        for (DeviceBuild& part : unit.devices) {
            auto it = std::find_if(devices.begin(), devices.end(), [&](const DeviceBuild& d) {
                return d.source == part.source && d.type == part.type && d.id == part.id;
            });
            if (it == devices.end()) {
                devices.push_back({});
                it = devices.end() - 1;
                it->source = part.source;
                it->type = part.type;
                it->id = part.id;
            }
            if (!part.events.empty()) {
                it->runs.push_back(it->events.size());
                it->events.insert(it->events.end(), part.events.begin(), part.events.end());
            }
            it->ooms.insert(it->ooms.end(), part.ooms.begin(), part.ooms.end());
        }
        unit = {};
    }

    for (std::size_t s = 0; s < badArgs.size(); ++s) {
        if (badArgs[s] == 0)
            continue;
        models::Diagnostic d;
        d.severity = models::Severity::Warning;
        d.file = store.sources()[s].path;
        d.offset = qint64(firstBadOffset[s]);
        const int skipped = int(std::min(badArgs[s], std::uint64_t(INT_MAX)));
        d.message = QCoreApplication::translate(
            "runlens::memory", "%n memory event(s) without readable args were skipped", nullptr, skipped);
        result.diagnostics.append(d);
    }

    // Devices in a stable order: by source, CPU first, then by type and id.
    std::sort(devices.begin(), devices.end(), [](const DeviceBuild& a, const DeviceBuild& b) {
        return std::tie(a.source, a.type, a.id) < std::tie(b.source, b.type, b.id);
    });
    std::vector<QJsonObject> metadata(store.sources().size());
    std::vector<bool> metadataRead(store.sources().size(), false);
    for (DeviceBuild& build : devices) {
        models::memory::MemoryDevice device;
        device.deviceType = build.type;
        device.deviceId = build.type == 0 ? -1 : build.id;
        device.source = build.source;
        device.label = deviceLabel(build.type, build.id);
        const models::trace::TraceSource& source = store.sources()[std::size_t(build.source)];
        device.rank = source.rank;
        if (build.type != 0 && build.id >= 0) {
            if (!metadataRead[std::size_t(build.source)]) {
                metadataRead[std::size_t(build.source)] = true;
                metadata[std::size_t(build.source)] = QJsonDocument::fromJson(source.metadataJson).object();
            }
            device.capacity = deviceCapacity(metadata[std::size_t(build.source)], build.id);
        }

        // Threads interleave: order by time, then by the allocator's own event index.
        mergeRuns(build);
        bool hasAllocated = false;
        bool hasReserved = false;
        for (const RawEvent& event : build.events) {
            hasAllocated = hasAllocated || event.totalAllocated >= 0;
            hasReserved = hasReserved || event.totalReserved >= 0;
        }
        device.relative = !hasAllocated;
        device.allocated.name = message("Allocated");
        device.reserved.name = message("Reserved");
        device.events.reserve(build.events.size());
        device.allocated.x.reserve(build.events.size());
        device.allocated.bytes.reserve(build.events.size());
        if (hasReserved) {
            device.reserved.x.reserve(build.events.size());
            device.reserved.bytes.reserve(build.events.size());
        }
        double runningSum = 0;
        for (const RawEvent& event : build.events) {
            models::memory::MemoryEvent out;
            out.x = event.x;
            out.bytes = event.bytes;
            out.address = event.address;
            out.track = event.track;
            out.slice = event.slice;
            device.events.push_back(out);
            if (hasAllocated) {
                if (event.totalAllocated >= 0) {
                    device.allocated.x.push_back(event.x);
                    device.allocated.bytes.push_back(double(event.totalAllocated));
                }
            } else if (event.hasBytes) {
                runningSum += double(event.bytes);
                device.allocated.x.push_back(event.x);
                device.allocated.bytes.push_back(runningSum);
            }
            if (event.totalReserved >= 0) {
                device.reserved.x.push_back(event.x);
                device.reserved.bytes.push_back(double(event.totalReserved));
            }
        }
        std::sort(build.ooms.begin(), build.ooms.end(),
                  [](const models::memory::OomMarker& a, const models::memory::OomMarker& b) { return a.x < b.x; });
        device.ooms = std::move(build.ooms);
        build.events = {};
        profile->devices.push_back(std::move(device));
    }

    if (canceled)
        result.status = models::ImportStatus::Canceled;
    else if (!result.diagnostics.isEmpty())
        result.status = profile->devices.empty() ? models::ImportStatus::Failed : models::ImportStatus::Partial;
    result.profile = std::move(profile);
    return result;
}

} // namespace runlens::importers::memory
