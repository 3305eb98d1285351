#include "importers/core/profilernames.h"

#include "importers/core/sniffstrings.h"

#include <cstddef>

namespace runlens::importers::sniff {

namespace {

struct NamePattern
{
    const char* pattern;
    bool needsProfilerFolder; ///< a generic name, only trusted inside a profiler output folder
};

// MindSpore profiler tables (CSV and space/comma separated TXT), MindInsight and MindSpore 2.3+ layouts.
constexpr NamePattern kProfilerTables[] = {
    { "aicore_intermediate_#_type.csv", false },
    { "aicore_intermediate_#_detail.csv", false },
    { "aicpu_intermediate_#.csv", false },
    { "framework_raw_#.csv", false },
    { "step_trace_raw_#_detail_time.csv", false },
    { "minddata_pipeline_raw_#.csv", false },
    { "minddata_pipeline_summary_#.csv", false },
    { "hccl_raw_#.csv", false },
    { "ascend_cluster_analyse_*_#.csv", false },
    { "cpu_op_type_info_#.csv", false },
    { "cpu_op_detail_info_#.csv", false },
    { "gpu_op_type_info_#.csv", false },
    { "gpu_op_detail_info_#.csv", false },
    { "gpu_activity_data_#.csv", false },
    { "operator_memory_#.csv", false },
    { "flops_#.txt", false },
    { "output_timeline_data_#.txt", false },
    { "output_op_compute_time_#.txt", false },
    { "output_op_compute_time_detail_#.txt", false },
    { "min_cycle_counter_#.txt", false },
    { "device_queue_profiling_#.txt", false },
    { "dataset_iterator_profiling_#.txt", false },
    { "minddata_aicpu_#.txt", false },
    { "minddata_getnext_profiling_#.txt", false },
    { "cpu_ms_memory_record_#.txt", false },
    { "kernel_details.csv", true },
    { "op_statistic.csv", true },
    { "op_summary*.csv", true },
    { "step_trace_time.csv", true },
    { "memory_record.csv", true },
    { "operator_memory.csv", true },
    { "npu_module_mem.csv", true },
    { "dataset.csv", true },
    { "api_statistic.csv", true },
};

// MindSpore profiler JSON documents that are not Chrome traces (traces are recognised by content).
constexpr NamePattern kProfilerJson[] = {
    { "flops_summary_#.json", false },
    { "flops_scope_#.json", false },
    { "ascend_timeline_summary_#.json", false },
    { "gpu_timeline_summary_#.json", false },
    { "timeline_summary_#.json", false },
    { "step_trace_point_info.json", false },
    { "step_trace_point_info_#.json", false },
    { "pipeline_profiling_#.json", false },
    { "minddata_cpu_utilization_#.json", false },
    { "minddata_pipeline_summary_#.json", false },
    { "memory_usage_summary_#.json", false },
    { "memory_usage_details_#.json", false },
    { "dynamic_shape_info_#.json", false },
    { "profiler_info_#.json", false },
    { "parallel_strategy*.json", false },
    { "profiler_metadata.json", true },
    { "communication.json", true },
    { "communication_matrix.json", true },
};

template<std::size_t N>
bool matchNames(const NamePattern (&patterns)[N], std::string_view lowerName, bool profilerFolder,
                std::optional<int>& rank)
{
    for (const NamePattern& entry : patterns) {
        if (entry.needsProfilerFolder && !profilerFolder)
            continue;
        std::optional<int> number;
        if (globMatch(entry.pattern, lowerName, number)) {
            rank = number;
            return true;
        }
    }
    return false;
}

} // namespace

bool globMatch(std::string_view pattern, std::string_view name, std::optional<int>& number)
{
    if (pattern.empty())
        return name.empty();
    const char p = pattern.front();
    if (p == '*') {
        for (std::size_t skip = 0; skip <= name.size(); ++skip) {
            if (globMatch(pattern.substr(1), name.substr(skip), number))
                return true;
        }
        return false;
    }
    if (p == '#') {
        std::size_t digits = 0;
        while (digits < name.size() && isDigit(name[digits]))
            ++digits;
        for (std::size_t take = digits; take >= 1; --take) {
            std::optional<int> inner;
            if (globMatch(pattern.substr(1), name.substr(take), inner)) {
                if (inner) {
                    number = inner;
                } else if (take <= 9) {
                    int value = 0;
                    for (std::size_t i = 0; i < take; ++i)
                        value = value * 10 + (name[i] - '0');
                    number = value;
                }
                return true;
            }
        }
        return false;
    }
    if (name.empty() || name.front() != p)
        return false;
    return globMatch(pattern.substr(1), name.substr(1), number);
}

bool inProfilerFolder(std::string_view lowerDirectory)
{
    std::size_t start = 0;
    while (start <= lowerDirectory.size()) {
        std::size_t end = lowerDirectory.find('/', start);
        if (end == std::string_view::npos)
            end = lowerDirectory.size();
        const std::string_view part = lowerDirectory.substr(start, end - start);
        if (contains(part, "profiler") || startsWith(part, "prof_") || endsWith(part, "_ascend_ms"))
            return true;
        start = end + 1;
    }
    return false;
}

bool matchProfilerTableName(std::string_view lowerName, bool profilerFolder, std::optional<int>& rank)
{
    return matchNames(kProfilerTables, lowerName, profilerFolder, rank);
}

bool matchProfilerJsonName(std::string_view lowerName, bool profilerFolder, std::optional<int>& rank)
{
    return matchNames(kProfilerJson, lowerName, profilerFolder, rank);
}

} // namespace runlens::importers::sniff
