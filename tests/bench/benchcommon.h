#pragma once

// Shared by the benchmarks: every ratio is taken from the median of N timed runs on each side, over the
// same input, and printed on one final line in the same form, so that a README row can quote it as is.

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace runlens::bench {

/// Median of the values (the upper one of the middle two for an even count); 0 when there are none.
inline double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

/// Hardware threads of this machine, as the multi-threaded parts of RunLens see them.
inline int hardwareThreads()
{
    return int(std::max(1u, std::thread::hardware_concurrency()));
}

/// One side of a comparison: a median time in milliseconds and how it was measured.
struct Side
{
    std::string name;
    double medianMs = 0.0;
    int runs = 0;
    std::string threads; ///< "1 thread", "2 threads (reader + parser)" ...
};

/// The final line of a benchmark: both medians and the ratio peer / RunLens (above 1: RunLens is faster).
/// `what` names the comparison; `note` states exclusions, or is empty.
inline std::string ratioLine(const std::string& what, const Side& runlens, const Side& peer,
                             const std::string& note = {})
{
    const double ratio = runlens.medianMs > 0.0 ? peer.medianMs / runlens.medianMs : 0.0;
    char line[1024];
    std::snprintf(line, sizeof line,
                  "RESULT %s: RunLens %.3f ms (median of %d, %s) | %s %.3f ms (median of %d, %s) | ratio %.2fx%s%s",
                  what.c_str(), runlens.medianMs, runlens.runs, runlens.threads.c_str(), peer.name.c_str(),
                  peer.medianMs, peer.runs, peer.threads.c_str(), ratio, note.empty() ? "" : "; ", note.c_str());
    return line;
}

/// The final line of a benchmark whose peer did not run (not installed, failed, or no peer exists).
inline std::string noRatioLine(const std::string& what, const Side& runlens, const std::string& why)
{
    char line[1024];
    std::snprintf(line, sizeof line, "RESULT %s: RunLens %.3f ms (median of %d, %s) | ratio n/a (%s)", what.c_str(),
                  runlens.medianMs, runlens.runs, runlens.threads.c_str(), why.c_str());
    return line;
}

inline void printRatio(const std::string& what, const Side& runlens, const Side& peer, const std::string& note = {})
{
    std::printf("%s\n", ratioLine(what, runlens, peer, note).c_str());
}

inline void printNoRatio(const std::string& what, const Side& runlens, const std::string& why)
{
    std::printf("%s\n", noRatioLine(what, runlens, why).c_str());
}

inline std::string threadsText(int threads)
{
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

} // namespace runlens::bench
