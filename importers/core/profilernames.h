#pragma once

#include <optional>
#include <string_view>

// The documented file names of MindSpore profiler output, which FileSniffer trusts for profiler tables and JSON
// documents whose content alone does not tell what they are. Names are matched lower-cased.

namespace runlens::importers::sniff {

/// Name patterns: '#' matches one or more digits (the last one is captured into `number`), '*' anything.
bool globMatch(std::string_view pattern, std::string_view name, std::optional<int>& number);

/// A MindSpore/Ascend profiler output folder: `profiler*`, `ASCEND_PROFILER_OUTPUT`, `PROF_*`,
/// `{host}_{pid}_{ts}_ascend_ms` anywhere above the file.
bool inProfilerFolder(std::string_view lowerDirectory);

/// A MindSpore profiler table (CSV and space/comma separated TXT); `rank` gets the `_{rank}` of the name.
/// Generic names (`kernel_details.csv`) only count inside a profiler folder.
bool matchProfilerTableName(std::string_view lowerName, bool profilerFolder, std::optional<int>& rank);

/// A MindSpore profiler JSON document that is not a Chrome trace; `rank` as for matchProfilerTableName().
bool matchProfilerJsonName(std::string_view lowerName, bool profilerFolder, std::optional<int>& rank);

} // namespace runlens::importers::sniff
