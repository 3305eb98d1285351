#pragma once

#include "models/cluster/rankdigest.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace runlens::importers::trace {
struct TraceInput;
}

namespace runlens::importers::cluster {

/// The rank digest of one Kineto trace made in a single simdjson On Demand pass over its bytes, keeping
/// only what computeRankDigest reads (the slices' spans, names and kinds, the launch joins, the step
/// markers, the collectives' args, the memory instants) instead of a whole trace store. It produces the
/// digest the store path makes, field by field, and declines (nullopt, `why` set) whatever it does not
/// cover: damaged JSON, a top-level array, begin/end, counter and async events, string pids or tids,
/// absurd durations, traces without ProfilerStep#N, and the rare ties that only the store's track order
/// would settle. The caller then takes the store path, so results never differ.
/// `input` is a complete input (mapped or inflated) followed by its padding; `path` names the source as the
/// store path does. The memory peak is filled; the file's size and time are left for the caller.
std::optional<models::cluster::RankDigest> digestTraceSinglePass(const trace::TraceInput& input, const QString& path,
                                                                 const models::cluster::RankDigestOptions& options,
                                                                 QString* why = nullptr);

/// How many digests the single pass made, and how many traces it handed to the store path, since the
/// program started (all threads).
struct SinglePassCounts
{
    std::uint64_t taken = 0;
    std::uint64_t declined = 0;
};
SinglePassCounts singlePassCounts();

} // namespace runlens::importers::cluster
