#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace runlens::fuzz {

/// Feeds one input to a parsing entry point. Must not keep state between calls beyond caches that do not
/// change what the next call does, and must bound its own work (the readers bound the rest).
using FuzzFunction = void (*)(const std::uint8_t* data, std::size_t size);

/// One fuzz target: a parsing entry point of the importers, named after the format it reads.
struct FuzzTarget
{
    const char* name;
    FuzzFunction run;
    const char* what; ///< one line for the replay program's usage and the README
};

/// Every target, in a stable order. The libFuzzer harnesses and the replay program share this table, so
/// the inputs a fuzzer finds replay through exactly the same code in the normal build.
std::span<const FuzzTarget> fuzzTargets();
const FuzzTarget* findFuzzTarget(std::string_view name);

/// Silences the importers' logging (a fuzzer calls them millions of times) unless RUNLENS_FUZZ_VERBOSE is
/// set. Call once before the first input.
void initializeFuzzing();

} // namespace runlens::fuzz
