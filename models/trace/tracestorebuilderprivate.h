#pragma once

#include "models/trace/tracestorebuilder.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace runlens::models::trace {

// The builder's working state, shared by the files of its stages: intake (tracestorebuilder.cpp), track
// order and nesting (tracestorebuildertracks.cpp), flows and correlations (tracestorebuilderflows.cpp) and
// steps (tracestorebuildersteps.cpp).
struct TraceStoreBuilder::Private
{
    struct KeyHash
    {
        std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& key) const
        {
            std::uint64_t h = std::uint64_t(key.first) * 0x9e3779b97f4a7c15ull;
            h ^= std::uint64_t(key.second) + 0x7f4a7c159e3779b9ull + (h << 6) + (h >> 2);
            h ^= h >> 31;
            return std::size_t(h * 0xbf58476d1ce4e5b9ull);
        }
    };

    using KeyMap = std::unordered_map<std::pair<std::int64_t, std::int64_t>, int, KeyHash>;

    struct FlowPoint
    {
        int track;
        std::int64_t time;
        std::uint64_t id;
        StringId category;
        char phase;
        bool bindEnclosing;
        std::uint32_t sequence;
    };

    struct Correlation
    {
        int track;
        std::int64_t start;
        std::uint64_t correlation;
    };

    template<typename T> static void shrink(std::vector<T>& values)
    {
        if (values.capacity() != values.size())
            std::vector<T>(values.begin(), values.end()).swap(values);
    }

    std::unique_ptr<TraceStore> store = std::make_unique<TraceStore>();
    KeyMap processes; ///< (source, pid) -> process
    KeyMap threads; ///< (process, tid) -> track
    KeyMap counters; ///< (process, name id) -> track
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, KeyMap, KeyHash>
        asyncs; ///< (process, cat) -> id -> track
    std::vector<FlowPoint> flowPoints;
    std::vector<Correlation> correlations;
    std::vector<Correlation> externalIds;
    std::vector<std::uint8_t> explicitSortIndex; ///< per track: sort index came from metadata

    int newTrack(int process, std::int64_t tid, TrackType type)
    {
        TraceStore& s = *store;
        Track track;
        track.type = type;
        track.process = process;
        track.tid = tid;
        track.source = s.m_processes[std::size_t(process)].source;
        track.sortIndex = int(
            std::clamp<std::int64_t>(tid, std::numeric_limits<int>::min() / 2, std::numeric_limits<int>::max() / 2));
        s.m_tracks.push_back(std::move(track));
        explicitSortIndex.push_back(0);
        return int(s.m_tracks.size() - 1);
    }

    void sortTracks();
    void computeDepths(Track& track);
    void orderProcessesAndTracks();
    std::int64_t enclosingSlice(const Track& track, std::int64_t time) const;
    std::int64_t sliceAtOrAfter(const Track& track, std::int64_t time) const;
    std::int64_t sliceStartingAt(const Track& track, std::int64_t time) const;
    void resolveFlows();
    void resolveCorrelations();
    void resolveExternalIds();
    void findSteps();
    void addMarkerSteps();
};

} // namespace runlens::models::trace
