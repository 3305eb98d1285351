#pragma once

// The state the single-pass rank digest shares between its parts: the event pass (rankdigestpass.cpp), the
// joins after it (rankdigestjoins.cpp) and the figures (rankdigestfigures.cpp). Private to those files.

#include "importers/trace/tracevalues.h"
#include "models/cluster/rankdigest.h"
#include "models/trace/launchindex.h"
#include "models/trace/tracestorebuilder.h"

#include <simdjson.h>

#include <QString>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace runlens::importers::trace {
struct TraceInput;
}

namespace runlens::importers::cluster::digestpass {

namespace od = simdjson::ondemand;
using models::trace::EventKind;

inline constexpr std::int64_t kAbsurdNs = std::int64_t(7) * 24 * 3600 * 1000'000'000; // as the trace reader
inline constexpr std::int64_t kTimeBound = std::int64_t(1) << 61; // ts and base each: their sum stays in range
inline constexpr std::int64_t kDurationLimitNs = std::int64_t(1) << 60;
inline constexpr double kNsPerMs = 1e6;
inline constexpr std::size_t kReservedTracks = 4;
inline constexpr std::size_t kReserveBytesPerSlice = 256;

inline double toMs(std::int64_t ns)
{
    return double(ns) / kNsPerMs;
}

/// std::sort, skipped when the range is in order already: the pass reads most of its arrays in, or nearly in,
/// the order they are sorted to. Only for orders under which equal elements are alike, as std::sort may swap
/// them.
template<typename It, typename Less> void sortUnlessSorted(It first, It last, Less less)
{
    if (!std::is_sorted(first, last, less))
        std::sort(first, last, less);
}

template<typename It> void sortUnlessSorted(It first, It last)
{
    if (!std::is_sorted(first, last))
        std::sort(first, last);
}

struct Slice
{
    std::int64_t start;
    std::int64_t duration;
    const char* args; ///< the args object's text, or null
    std::uint32_t argsLength;
    std::uint32_t name; ///< index into Names, in first-seen order (the store's string id order)
    EventKind kind;
    std::uint8_t flags;
    bool stepMarker; ///< a kept ProfilerStep#N slice (left out of the step breakdown's categories)

    std::int64_t end() const { return start + duration; }
    std::string_view argsText() const { return args ? std::string_view(args, argsLength) : std::string_view(); }
};

inline bool countsForStatistics(const Slice& s)
{
    return s.duration > 0
        && !(s.flags & (models::trace::SliceFlag::Instant | models::trace::SliceFlag::AbsurdDuration));
}

inline bool usable(const Slice& s)
{
    return !(s.flags & (models::trace::SliceFlag::Instant | models::trace::SliceFlag::AbsurdDuration));
}

struct Track
{
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    bool device = false; ///< a GPU stream: some device event lies on it
    bool named = false; ///< a name was interned for it (its string tid, its thread_name)
    std::vector<Slice> slices;
    std::int64_t maxDuration = 0;
    bool fileOrder = true; ///< the slices needed no sorting: indices read in file order still hold
};

/// Names in the order the store would intern them, so ties broken by string id break the same way.
/// Views into the trace (or the pass's parser, which lives as long) are kept as they are; text from a
/// parser that is reused for the next document is copied first.
class Names
{
public:
    std::uint32_t intern(std::string_view text)
    {
        auto [it, inserted] = m_index.try_emplace(text, std::uint32_t(m_texts.size()));
        if (inserted)
            m_texts.push_back(text);
        return it->second;
    }
    std::uint32_t internCopy(std::string_view text)
    {
        if (const auto it = m_index.find(text); it != m_index.end())
            return it->second;
        return intern(m_owned.emplace_back(text));
    }
    std::string_view view(std::uint32_t id) const { return m_texts[id]; }
    std::size_t size() const { return m_texts.size(); }

private:
    std::unordered_map<std::string_view, std::uint32_t> m_index;
    std::vector<std::string_view> m_texts;
    std::deque<std::string> m_owned; ///< a deque: its strings never move
};

struct FlowPoint
{
    int track;
    std::int64_t time;
    std::uint64_t id;
    std::uint32_t category;
    char phase;
    bool bindEnclosing;
    std::uint32_t sequence;
    std::uint32_t hint; ///< the track's slice count when the point was read: where its slice likely is
};

struct IdPoint
{
    int track;
    std::int64_t start;
    std::uint64_t id;
    std::uint32_t hint; ///< the index of the slice that carried it, in file order
};

struct Launch
{
    int hostTrack;
    std::uint32_t hostSlice;
    int deviceTrack;
    std::uint32_t deviceSlice;
};

struct Interval
{
    std::int64_t start;
    std::int64_t end;
};

/// The fields of one event the pass reads, as the trace reader reads them.
struct EventFields
{
    std::string_view ph, name, cat, bp, args;
    trace::Ident pid, tid;
    std::int64_t ts = 0, dur = 0;
    bool hasTs = false, hasDur = false, hasId = false;
    std::uint64_t id = 0;
    int fields = 0;
};

class SinglePass
{
public:
    SinglePass(const char* data, std::size_t size, std::size_t capacity);
    ~SinglePass();
    SinglePass(const SinglePass&) = delete;
    SinglePass& operator=(const SinglePass&) = delete;

    bool run(const models::cluster::RankDigestOptions& options, const trace::TraceInput& input, const QString& path,
             models::cluster::RankDigest& digest);
    QString why;

private:
    bool decline(const char* reason)
    {
        if (why.isEmpty())
            why = QString::fromLatin1(reason);
        return false;
    }
    bool parse();
    bool readEvent(od::object& object, EventFields& e);
    bool handleEvent(const EventFields& e);
    bool handleMeta(std::string_view key, std::string_view value);
    bool applyMetadata(const EventFields& e);
    int trackFor(const trace::Ident& pid, const trace::Ident& tid);
    void processFor(const trace::Ident& pid);

    // After the pass, on the slices kept.
    void sortTracks();
    static std::int64_t enclosingSlice(const Track& track, std::int64_t time, std::size_t hint);
    static std::int64_t sliceAtOrAfter(const Track& track, std::int64_t time, std::size_t hint);
    static std::int64_t sliceStartingAt(const Track& track, std::int64_t time, std::size_t hint);
    bool launches(std::vector<Launch>& out);
    bool findSteps(std::vector<models::trace::StepTimes>& steps);

    const char* m_data;
    std::size_t m_size;
    const char* m_bufferEnd;
    od::parser m_argsParser;

    Names m_names;
    struct KindCache
    {
        std::uint32_t category = 0;
        EventKind kind = EventKind::Other;
        bool device = false;
        bool valid = false;
    };
    std::vector<KindCache> m_kinds;
    std::vector<Track> m_tracks;
    std::unordered_map<std::int64_t, std::unordered_map<std::int64_t, int>> m_trackIndex;
    std::unordered_map<std::int64_t, bool> m_processNamed; ///< per pid: a name was interned for it
    trace::NamedIds m_namedIds;
    int m_lastTrack = -1;
    std::vector<FlowPoint> m_flowPoints;
    std::vector<IdPoint> m_correlations;
    std::vector<IdPoint> m_externalIds;
    std::string m_metadata;
    std::int64_t m_base = 0;
    bool m_baseSeen = false;
    int m_rank = -1;
};

} // namespace runlens::importers::cluster::digestpass
