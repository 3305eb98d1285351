#include "models/trace/tracestorecodec.h"

#include "models/core/crc32c.h"
#include "models/trace/tracelod.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <future>
#include <limits>
#include <string>
#include <type_traits>

#ifndef RUNLENS_VERSION
#define RUNLENS_VERSION "unknown"
#endif

namespace runlens::models::trace {

namespace {

constexpr char kMagic[8] = { 'R', 'L', 'T', 'R', 'C', 'I', 'D', 'X' };

enum Section : std::uint32_t {
    Summary = 1,
    Strings,
    Sources,
    Processes,
    Tracks,
    Flows,
    Steps,
    DiagnosticList,
    Lod,
};
constexpr std::uint32_t kSectionCount = Lod;

// ---- writing: every section is serialised twice, once to count its bytes for the table, once for real.

class Sink
{
public:
    explicit Sink(QIODevice* out = nullptr)
        : m_out(out)
    { }
    void put(const void* data, std::size_t size)
    {
        m_bytes += size;
        if (!m_out || size == 0)
            return;
        m_crc = models::crc32cExtend(m_crc, data, size);
        // Large arrays go straight out; small fields are gathered first.
        if (size >= kBuffer) {
            flush();
            m_ok = m_ok && m_out->write(static_cast<const char*>(data), qint64(size)) == qint64(size);
            return;
        }
        if (m_buffer.size() + size > kBuffer)
            flush();
        m_buffer.append(static_cast<const char*>(data), size);
    }
    template<typename T> void pod(const T& value)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        put(&value, sizeof value);
    }
    template<typename T> void vec(const std::vector<T>& values)
    {
        pod(std::uint64_t(values.size()));
        put(values.data(), values.size() * sizeof(T));
    }
    void str(std::string_view text)
    {
        pod(std::uint32_t(text.size()));
        put(text.data(), text.size());
    }
    void qstr(const QString& text) { str(text.toStdString()); }
    void flush()
    {
        if (m_out && !m_buffer.empty())
            m_ok = m_ok && m_out->write(m_buffer.data(), qint64(m_buffer.size())) == qint64(m_buffer.size());
        m_buffer.clear();
    }
    std::uint64_t bytes() const { return m_bytes; }
    std::uint32_t crc() const { return m_crc; }
    bool ok() const { return m_ok; }

private:
    static constexpr std::size_t kBuffer = 1 << 16;
    QIODevice* m_out;
    std::string m_buffer;
    std::uint64_t m_bytes = 0;
    std::uint32_t m_crc = 0;
    bool m_ok = true;
};

void writeLod(Sink& s, const TraceLod& lod)
{
    s.pod(lod.origin());
    s.pod(std::uint64_t(lod.trackCount()));
    for (std::size_t i = 0; i < lod.trackCount(); ++i) {
        const TraceLod::TrackRows& t = lod.track(int(i));
        s.pod(t.counterMin);
        s.pod(t.counterMax);
        s.pod(std::uint64_t(t.rows.size()));
        for (std::size_t d = 0; d < t.rows.size(); ++d) {
            s.vec(t.rows[d]);
            const std::vector<TraceLod::Level>& levels
                = d < t.levels.size() ? t.levels[d] : std::vector<TraceLod::Level> {};
            s.pod(std::uint64_t(levels.size()));
            for (const TraceLod::Level& level : levels) {
                s.pod(level.bucket);
                s.vec(level.position);
                s.vec(level.name);
            }
        }
    }
}

void writeSection(Sink& s, std::uint32_t section, const TraceStore& store, const TraceLod& lod,
                  const Diagnostics& diagnostics)
{
    switch (section) {
    case Summary:
        s.pod(store.startTime());
        s.pod(store.endTime());
        break;
    case Strings:
        s.pod(std::uint64_t(store.strings().size()));
        for (std::size_t i = 0; i < store.strings().size(); ++i)
            s.str(store.strings().view(StringId(i)));
        break;
    case Sources:
        s.pod(std::uint64_t(store.sources().size()));
        for (const TraceSource& source : store.sources()) {
            s.qstr(source.path);
            s.str(std::string_view(source.metadataJson.constData(), std::size_t(source.metadataJson.size())));
            s.pod(source.baseTimeNs);
            s.pod(std::int32_t(source.rank));
            s.put(source.eventsByPhase, sizeof source.eventsByPhase);
            s.pod(source.events);
            s.pod(source.memoryEvents);
            s.pod(source.sentinelEvents);
            s.pod(std::uint64_t(source.input ? source.input->size() : 0));
        }
        break;
    case Processes:
        s.pod(std::uint64_t(store.processes().size()));
        for (const Process& p : store.processes()) {
            s.pod(p.pid);
            s.pod(p.name);
            s.pod(p.labels);
            s.pod(std::int32_t(p.sortIndex));
            s.pod(std::int32_t(p.source));
            s.pod(std::int32_t(p.rank));
            s.pod(std::uint8_t(p.device));
            s.pod(std::uint8_t(p.namedId));
            s.vec(p.tracks);
        }
        break;
    case Tracks:
        s.pod(std::uint64_t(store.tracks().size()));
        for (const Track& t : store.tracks()) {
            s.pod(std::uint8_t(t.type));
            s.pod(std::int32_t(t.process));
            s.pod(t.tid);
            s.pod(t.name);
            s.pod(std::uint8_t(t.namedId));
            s.pod(std::int32_t(t.sortIndex));
            s.pod(std::int32_t(t.source));
            s.pod(t.maxDuration);
            s.pod(std::int32_t(t.maxDepth));
            s.vec(t.start);
            s.vec(t.duration);
            s.vec(t.name_);
            s.vec(t.category);
            s.vec(t.kind);
            s.vec(t.depth);
            s.vec(t.flags);
            s.vec(t.args);
            s.vec(t.counterTime);
            s.vec(t.counterValue);
        }
        break;
    case Flows:
        s.vec(store.flows());
        break;
    case Steps:
        s.vec(store.steps());
        break;
    case DiagnosticList:
        s.pod(std::uint64_t(diagnostics.size()));
        for (const Diagnostic& d : diagnostics) {
            s.pod(std::uint8_t(d.severity));
            s.qstr(d.file);
            s.pod(std::int64_t(d.offset));
            s.pod(std::int64_t(d.line));
            s.qstr(d.message);
        }
        break;
    case Lod:
        writeLod(s, lod);
        break;
    default:
        break;
    }
}

void writeHeader(Sink& s, const TraceCacheKey& key, const std::array<std::uint64_t, kSectionCount>& sizes)
{
    s.put(kMagic, sizeof kMagic);
    s.pod(TraceStoreCodec::kFormatVersion);
    s.str(RUNLENS_VERSION);
    s.pod(std::uint32_t(key.size()));
    for (const TraceSourceKey& k : key) {
        s.qstr(k.path);
        s.pod(k.size);
        s.pod(k.mtimeNs);
    }
    s.pod(kSectionCount);
    for (std::uint32_t i = 0; i < kSectionCount; ++i) {
        s.pod(i + 1);
        s.pod(sizes[i]);
    }
}

// ---- reading: a cursor that refuses to go past the end of its bytes; every failure sticks.

class Cursor
{
public:
    /// `copied` (optional) is told where reading got after each array is copied out.
    explicit Cursor(std::span<const std::byte> bytes, std::function<void(const std::byte*)> copied = {})
        : m_p(bytes.data())
        , m_end(bytes.data() + bytes.size())
        , m_copied(std::move(copied))
    { }
    bool ok() const { return m_ok; }
    std::size_t left() const { return std::size_t(m_end - m_p); }
    const std::byte* position() const { return m_p; }
    bool get(void* out, std::size_t size)
    {
        if (!m_ok || size > left())
            return m_ok = false;
        if (size > 0)
            std::memcpy(out, m_p, size);
        m_p += size;
        return true;
    }
    template<typename T> T pod()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        T value {};
        get(&value, sizeof value);
        return value;
    }
    /// A count of items of `itemBytes` each that must fit in what is left.
    std::uint64_t count(std::size_t itemBytes)
    {
        const auto n = pod<std::uint64_t>();
        if (!m_ok || n > left() / std::max<std::size_t>(itemBytes, 1)) {
            m_ok = false;
            return 0;
        }
        return n;
    }
    template<typename T> void vec(std::vector<T>& out)
    {
        const std::uint64_t n = count(sizeof(T));
        if (!m_ok)
            return;
        out.resize(std::size_t(n));
        get(out.data(), std::size_t(n) * sizeof(T));
        if (m_copied)
            m_copied(m_p);
    }
    std::string_view str()
    {
        const auto n = pod<std::uint32_t>();
        if (!m_ok || n > left()) {
            m_ok = false;
            return {};
        }
        std::string_view text(reinterpret_cast<const char*>(m_p), n);
        m_p += n;
        return text;
    }
    QString qstr()
    {
        const std::string_view text = str();
        return QString::fromUtf8(text.data(), qsizetype(text.size()));
    }

private:
    const std::byte* m_p;
    const std::byte* m_end;
    std::function<void(const std::byte*)> m_copied;
    bool m_ok = true;
};

bool readHeader(Cursor& c, TraceCacheKey& key, std::string& version, std::uint32_t& format,
                std::array<std::uint64_t, kSectionCount>& sizes)
{
    char magic[sizeof kMagic] = {};
    if (!c.get(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
        return false;
    format = c.pod<std::uint32_t>();
    if (format != TraceStoreCodec::kFormatVersion)
        return c.ok();
    version = std::string(c.str());
    const auto sources = c.pod<std::uint32_t>();
    if (!c.ok() || sources > c.left() / 20)
        return false;
    key.clear();
    for (std::uint32_t i = 0; i < sources && c.ok(); ++i) {
        TraceSourceKey k;
        k.path = c.qstr();
        k.size = c.pod<std::int64_t>();
        k.mtimeNs = c.pod<std::int64_t>();
        key.push_back(k);
    }
    if (c.pod<std::uint32_t>() != kSectionCount)
        return false;
    for (std::uint32_t i = 0; i < kSectionCount; ++i) {
        if (c.pod<std::uint32_t>() != i + 1)
            return false;
        sizes[i] = c.pod<std::uint64_t>();
    }
    return c.ok();
}

// Times the trace reader accepts (about the year 2116 either side of the epoch, plus the longest duration).
constexpr std::int64_t kTimeBound = (std::int64_t(1) << 62) + (std::int64_t(1) << 60);

class Decoder
{
public:
    Decoder(TraceStoreCodec::Decoded& out, StringTable& strings, std::vector<Track>& tracks,
            std::vector<Process>& processes, std::vector<Flow>& flows, std::vector<Step>& steps,
            std::vector<TraceSource>& sources)
        : m_out(out)
        , m_strings(strings)
        , m_tracks(tracks)
        , m_processes(processes)
        , m_flows(flows)
        , m_steps(steps)
        , m_sources(sources)
    { }

    QString why;
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::int64_t lodOrigin = 0;
    std::vector<TraceLod::TrackRows> lodTracks;

    bool section(std::uint32_t id, Cursor& c)
    {
        switch (id) {
        case Summary:
            start = c.pod<std::int64_t>();
            end = c.pod<std::int64_t>();
            // The range the reader accepts times in, and a span that fits in 64 bits.
            if (c.ok()
                && (start < -kTimeBound || end > kTimeBound || start > end
                    || (start < 0 && end > std::numeric_limits<std::int64_t>::max() + start)))
                return bad("time range");
            return c.ok();
        case Strings:
            return strings(c);
        case Sources:
            return sources(c);
        case Processes:
            return processes(c);
        case Tracks:
            return tracks(c);
        case Flows:
            c.vec(m_flows);
            return c.ok() && flows();
        case Steps:
            c.vec(m_steps);
            return c.ok() && steps();
        case DiagnosticList:
            return diagnostics(c);
        case Lod:
            return lod(c);
        default:
            return false;
        }
    }
    /// Checks that need every section: process track lists.
    bool finish()
    {
        for (const Process& p : m_processes) {
            for (int t : p.tracks) {
                if (t < 0 || std::size_t(t) >= m_tracks.size())
                    return bad("process track");
            }
        }
        return true;
    }

private:
    bool bad(const char* what)
    {
        why = QStringLiteral("inconsistent %1").arg(QLatin1String(what));
        return false;
    }
    bool validString(StringId id) const { return id < m_strings.size(); }

    bool strings(Cursor& c)
    {
        const std::uint64_t n = c.count(4);
        if (!c.ok() || n == 0)
            return bad("string table");
        // Interning in order gives every string back its id; a duplicate would not.
        if (!c.str().empty())
            return bad("string table");
        for (std::uint64_t i = 1; i < n; ++i) {
            const std::string_view text = c.str();
            if (!c.ok() || m_strings.intern(text) != StringId(i))
                return bad("string table");
        }
        return c.ok();
    }
    bool sources(Cursor& c)
    {
        const std::uint64_t n = c.count(64);
        if (!c.ok())
            return false;
        m_sources.resize(std::size_t(n));
        m_out.inputSizes.resize(std::size_t(n));
        for (std::size_t i = 0; i < n && c.ok(); ++i) {
            TraceSource& s = m_sources[i];
            s.path = c.qstr();
            const std::string_view meta = c.str();
            s.metadataJson = QByteArray(meta.data(), qsizetype(meta.size()));
            s.baseTimeNs = c.pod<std::int64_t>();
            s.rank = c.pod<std::int32_t>();
            c.get(s.eventsByPhase, sizeof s.eventsByPhase);
            s.events = c.pod<std::uint64_t>();
            s.memoryEvents = c.pod<std::uint64_t>();
            s.sentinelEvents = c.pod<std::uint64_t>();
            m_out.inputSizes[i] = c.pod<std::uint64_t>();
        }
        return c.ok();
    }
    bool processes(Cursor& c)
    {
        const std::uint64_t n = c.count(38);
        if (!c.ok())
            return false;
        m_processes.resize(std::size_t(n));
        for (std::size_t i = 0; i < n && c.ok(); ++i) {
            Process& p = m_processes[i];
            p.pid = c.pod<std::int64_t>();
            p.name = c.pod<StringId>();
            p.labels = c.pod<StringId>();
            p.sortIndex = c.pod<std::int32_t>();
            p.source = c.pod<std::int32_t>();
            p.rank = c.pod<std::int32_t>();
            p.device = c.pod<std::uint8_t>() != 0;
            p.namedId = c.pod<std::uint8_t>() != 0;
            c.vec(p.tracks);
            if (c.ok()
                && (!validString(p.name) || !validString(p.labels) || p.source < 0
                    || std::size_t(p.source) >= m_sources.size()))
                return bad("process");
        }
        return c.ok();
    }
    bool tracks(Cursor& c)
    {
        const std::uint64_t n = c.count(64);
        if (!c.ok())
            return false;
        m_tracks.resize(std::size_t(n));
        for (std::size_t i = 0; i < n && c.ok(); ++i) {
            Track& t = m_tracks[i];
            const auto type = c.pod<std::uint8_t>();
            t.type = TrackType(type);
            t.process = c.pod<std::int32_t>();
            t.tid = c.pod<std::int64_t>();
            t.name = c.pod<StringId>();
            t.namedId = c.pod<std::uint8_t>() != 0;
            t.sortIndex = c.pod<std::int32_t>();
            t.source = c.pod<std::int32_t>();
            t.maxDuration = c.pod<std::int64_t>();
            t.maxDepth = c.pod<std::int32_t>();
            c.vec(t.start);
            c.vec(t.duration);
            c.vec(t.name_);
            c.vec(t.category);
            c.vec(t.kind);
            c.vec(t.depth);
            c.vec(t.flags);
            c.vec(t.args);
            c.vec(t.counterTime);
            c.vec(t.counterValue);
            if (!c.ok())
                return false;
            if (type > std::uint8_t(TrackType::Async) || t.process < 0 || std::size_t(t.process) >= m_processes.size()
                || t.source < 0 || std::size_t(t.source) >= m_sources.size() || !validString(t.name) || t.maxDepth < 0
                || t.maxDepth > 0xffff || t.maxDuration < 0)
                return bad("track");
            const std::size_t size = t.start.size();
            if (t.duration.size() != size || t.name_.size() != size || t.category.size() != size
                || t.kind.size() != size || t.depth.size() != size || t.flags.size() != size || t.args.size() != size
                || t.counterTime.size() != t.counterValue.size())
                return bad("track arrays");
            const std::uint64_t inputSize = m_out.inputSizes[std::size_t(t.source)];
            for (std::size_t k = 0; k < t.counterTime.size(); ++k) {
                if (t.counterTime[k] < start || t.counterTime[k] > end)
                    return bad("counter");
            }
            for (std::size_t k = 0; k < size; ++k) {
                if (t.start[k] < start || t.start[k] > end || t.duration[k] > end - t.start[k]
                    || !validString(t.name_[k]) || !validString(t.category[k])
                    || std::uint8_t(t.kind[k]) >= kEventKindCount || t.depth[k] > t.maxDepth || t.duration[k] < 0
                    || t.duration[k] > t.maxDuration || t.args[k].offset > inputSize
                    || t.args[k].length > inputSize - t.args[k].offset)
                    return bad("slice");
            }
        }
        return c.ok();
    }
    bool flows()
    {
        for (const Flow& f : m_flows) {
            if (f.fromTrack < 0 || std::size_t(f.fromTrack) >= m_tracks.size() || f.toTrack < 0
                || std::size_t(f.toTrack) >= m_tracks.size() || f.fromSlice >= m_tracks[std::size_t(f.fromTrack)].size()
                || f.toSlice >= m_tracks[std::size_t(f.toTrack)].size() || !validString(f.category))
                return bad("flow");
        }
        return true;
    }
    bool steps()
    {
        for (const Step& s : m_steps) {
            if (s.source < 0 || std::size_t(s.source) >= m_sources.size())
                return bad("step");
            if (s.track >= 0
                && (std::size_t(s.track) >= m_tracks.size() || s.slice >= m_tracks[std::size_t(s.track)].size()))
                return bad("step");
            if (s.track < -1)
                return bad("step");
            if (s.start < -kTimeBound || s.end > kTimeBound || s.start > s.end
                || (s.start < 0 && s.end > std::numeric_limits<std::int64_t>::max() + s.start))
                return bad("step time");
        }
        return true;
    }
    bool diagnostics(Cursor& c)
    {
        const std::uint64_t n = c.count(25);
        for (std::uint64_t i = 0; i < n && c.ok(); ++i) {
            Diagnostic d;
            const auto severity = c.pod<std::uint8_t>();
            if (severity > std::uint8_t(Severity::Error))
                return bad("diagnostic");
            d.severity = Severity(severity);
            d.file = c.qstr();
            d.offset = c.pod<std::int64_t>();
            d.line = c.pod<std::int64_t>();
            d.message = c.qstr();
            m_out.diagnostics.append(d);
        }
        return c.ok();
    }

    // The painting index is checked against the tracks it indexes as tightly as the painter relies on it:
    // every slice in exactly one row, the row of its depth, in start order; levels shaped as buildLevels()
    // makes them, pointing at positions of their row and at known strings.
    bool lod(Cursor& c)
    {
        lodOrigin = c.pod<std::int64_t>();
        const std::uint64_t n = c.count(24);
        if (!c.ok())
            return false;
        if (lodOrigin != start || n != m_tracks.size())
            return bad("painting index");
        const std::int64_t span = end - start;
        lodTracks.resize(std::size_t(n));
        for (std::size_t t = 0; t < n && c.ok(); ++t) {
            const Track& track = m_tracks[t];
            TraceLod::TrackRows& out = lodTracks[t];
            out.counterMin = c.pod<double>();
            out.counterMax = c.pod<double>();
            const std::uint64_t rows = c.count(16);
            if (!c.ok())
                return false;
            if (!(out.counterMin <= 0.0) || !(out.counterMax >= 0.0) || !std::isfinite(out.counterMin)
                || !std::isfinite(out.counterMax) || rows > std::uint64_t(track.maxDepth) + 1
                || (track.size() > 0 && rows == 0))
                return bad("painting index track");
            out.rows.resize(std::size_t(rows));
            out.levels.resize(std::size_t(rows));
            std::size_t slices = 0;
            for (std::size_t d = 0; d < rows && c.ok(); ++d) {
                std::vector<std::uint32_t>& row = out.rows[d];
                c.vec(row);
                if (!c.ok())
                    return false;
                for (std::size_t p = 0; p < row.size(); ++p) {
                    if (row[p] >= track.size() || track.depth[row[p]] != d || (p > 0 && row[p] <= row[p - 1]))
                        return bad("painting index row");
                }
                slices += row.size();
                const std::uint64_t levels = c.count(24);
                if (!c.ok())
                    return false;
                out.levels[d].resize(std::size_t(levels));
                std::int64_t bucket = 0;
                std::size_t buckets = 0;
                for (std::size_t l = 0; l < levels && c.ok(); ++l) {
                    TraceLod::Level& level = out.levels[d][l];
                    level.bucket = c.pod<std::int64_t>();
                    c.vec(level.position);
                    c.vec(level.name);
                    if (!c.ok())
                        return false;
                    const bool shape = l == 0 ? level.bucket > 0 && span > 0
                            && std::uint64_t(level.position.size()) == std::uint64_t(span / level.bucket) + 1
                                              : bucket <= std::numeric_limits<std::int64_t>::max() / 4
                            && level.bucket == bucket * 4 && level.position.size() == (buckets + 3) / 4;
                    if (!shape || level.name.size() != level.position.size())
                        return bad("painting index level");
                    for (std::size_t b = 0; b < level.position.size(); ++b) {
                        if ((level.position[b] != TraceLod::kEmpty && level.position[b] >= row.size())
                            || !validString(level.name[b]))
                            return bad("painting index level");
                    }
                    bucket = level.bucket;
                    buckets = level.position.size();
                }
            }
            if (slices != track.size())
                return bad("painting index rows");
        }
        return c.ok();
    }

    TraceStoreCodec::Decoded& m_out;
    StringTable& m_strings;
    std::vector<Track>& m_tracks;
    std::vector<Process>& m_processes;
    std::vector<Flow>& m_flows;
    std::vector<Step>& m_steps;
    std::vector<TraceSource>& m_sources;
};

} // namespace

bool TraceStoreCodec::write(const TraceStore& store, const Diagnostics& diagnostics, const TraceCacheKey& key,
                            QIODevice& out)
{
    std::shared_ptr<const TraceLod> lod = store.lod();
    if (!lod)
        lod = std::make_shared<const TraceLod>(store);
    std::array<std::uint64_t, kSectionCount> sizes {};
    for (std::uint32_t i = 0; i < kSectionCount; ++i) {
        Sink counter;
        writeSection(counter, i + 1, store, *lod, diagnostics);
        sizes[i] = counter.bytes();
    }
    Sink header(&out);
    writeHeader(header, key, sizes);
    header.flush();
    Sink body(&out);
    for (std::uint32_t i = 0; i < kSectionCount; ++i)
        writeSection(body, i + 1, store, *lod, diagnostics);
    body.flush();
    const std::uint32_t crc = body.crc();
    return header.ok() && body.ok() && out.write(reinterpret_cast<const char*>(&crc), sizeof crc) == sizeof crc;
}

TraceStoreCodec::Decoded TraceStoreCodec::read(std::span<const std::byte> bytes, const TraceCacheKey* expected,
                                               bool strict, QString& why,
                                               const std::function<void(std::size_t)>& consumed)
{
    Decoded result;
    Cursor c(bytes);
    TraceCacheKey key;
    std::string version;
    std::uint32_t format = 0;
    std::array<std::uint64_t, kSectionCount> sizes {};
    if (!readHeader(c, key, version, format, sizes)) {
        why = QStringLiteral("not an index cache file, or its header is damaged");
        return result;
    }
    if (format != kFormatVersion || (strict && version != RUNLENS_VERSION)) {
        why = QStringLiteral("written by another version of RunLens");
        return result;
    }
    if (expected && key != *expected) {
        why = QStringLiteral("the trace changed since the cache was written");
        return result;
    }
    // Every section must fit in what is left after the ones before it: a hostile size that does not would
    // make a section span past the end of the bytes.
    std::uint64_t total = 0;
    bool fits = true;
    for (std::uint64_t size : sizes) {
        if (size > c.left() - std::min<std::uint64_t>(total, c.left())) {
            fits = false;
            break;
        }
        total += size;
    }
    if (!fits || total + sizeof(std::uint32_t) != c.left()) {
        why = QStringLiteral("the section sizes do not match the file size (truncated?)");
        return result;
    }
    const std::byte* body = c.position();
    // The checksum is computed on a second thread while the sections are decoded: nothing decoded is handed
    // out before it matches, and a mismatch is the reason given even when decoding fails first.
    std::future<bool> checksum;
    if (strict) {
        std::uint32_t stored = 0;
        std::memcpy(&stored, body + total, sizeof stored);
        checksum = std::async(std::launch::async,
                              [body, total, stored] { return models::crc32c(body, std::size_t(total)) == stored; });
    }
    const auto checksumMismatch = [&] {
        if (!checksum.valid() || checksum.get())
            return false;
        why = QStringLiteral("checksum mismatch");
        return true;
    };
    auto store = std::make_shared<TraceStore>();
    Decoder decoder(result, store->m_strings, store->m_tracks, store->m_processes, store->m_flows, store->m_steps,
                    store->m_sources);
    std::size_t offset = std::size_t(body - bytes.data());
    for (std::uint32_t i = 0; i < kSectionCount; ++i) {
        std::function<void(const std::byte*)> copied;
        if (consumed)
            copied = [&](const std::byte* at) { consumed(std::size_t(at - bytes.data())); };
        Cursor section(bytes.subspan(offset, std::size_t(sizes[i])), copied);
        if (!decoder.section(i + 1, section) || section.left() != 0) {
            if (!checksumMismatch())
                why = decoder.why.isEmpty() ? QStringLiteral("section %1 is damaged").arg(i + 1) : decoder.why;
            result.diagnostics.clear();
            return result;
        }
        offset += std::size_t(sizes[i]);
        if (consumed)
            consumed(offset);
    }
    const bool mismatch = checksumMismatch();
    if (mismatch || !decoder.finish()) {
        if (!mismatch)
            why = decoder.why;
        result.diagnostics.clear();
        return result;
    }
    store->m_start = decoder.start;
    store->m_end = decoder.end;
    store->m_lod = std::make_shared<const TraceLod>(decoder.lodOrigin, std::move(decoder.lodTracks));
    result.store = std::move(store);
    return result;
}

void TraceStoreCodec::attachInput(TraceStore& store, int source, std::shared_ptr<const TraceBuffer> input)
{
    if (source >= 0 && std::size_t(source) < store.m_sources.size())
        store.m_sources[std::size_t(source)].input = std::move(input);
}

void TraceStoreCodec::attachLod(TraceStore& store, std::shared_ptr<const TraceLod> lod)
{
    store.m_lod = std::move(lod);
}

void TraceStoreCodec::renameSource(TraceStore& store, int source, const QString& path)
{
    if (source >= 0 && std::size_t(source) < store.m_sources.size())
        store.m_sources[std::size_t(source)].path = path;
}

} // namespace runlens::models::trace
