#include "models/trace/tracestorebuilder.h"

#include "models/trace/tracestorebuilderprivate.h"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace runlens::models::trace {

namespace {

Step stepAt(const Track& track, int trackIndex, std::size_t slice, std::int64_t number)
{
    Step step;
    step.number = number;
    step.start = track.start[slice];
    step.end = track.end(slice);
    step.source = track.source;
    step.track = trackIndex;
    step.slice = std::uint32_t(slice);
    return step;
}

bool containsStep(std::string_view text)
{
    // "Steps" (MindInsight timelines), "Step Trace" (CANN msprof), "step_trace" ...
    for (std::size_t i = 0; i + 4 <= text.size(); ++i) {
        if ((text[i] == 's' || text[i] == 'S') && text.substr(i + 1, 3) == "tep")
            return true;
    }
    return false;
}

// The step number of a marker slice: "12", "Iteration 12", "Step 12", "step#12"; -1 otherwise.
std::int64_t markerStepNumber(std::string_view name)
{
    for (const std::string_view prefix : { "Iteration", "iteration", "Step", "step" }) {
        if (name.starts_with(prefix)) {
            name.remove_prefix(prefix.size());
            while (!name.empty() && (name.front() == ' ' || name.front() == '_' || name.front() == '#'))
                name.remove_prefix(1);
            break;
        }
    }
    std::int64_t number = -1;
    const auto result = std::from_chars(name.data(), name.data() + name.size(), number);
    if (result.ec != std::errc() || result.ptr != name.data() + name.size() || name.empty())
        return -1;
    return number;
}

} // namespace

void TraceStoreBuilder::Private::addMarkerSteps()
{
    // Traces without ProfilerStep#N mark steps on a track of their own: MindInsight timelines have a
    // "Steps" thread whose slices are named by the step number, CANN msprof timelines a "Step Trace"
    // process with "Iteration N" slices. Used only for sources that have no ProfilerStep#N.
    TraceStore& s = *store;
    std::vector<bool> hasSteps(s.m_sources.size(), false);
    for (const Step& step : s.m_steps) {
        if (step.source >= 0 && std::size_t(step.source) < hasSteps.size())
            hasSteps[std::size_t(step.source)] = true;
    }
    for (std::size_t t = 0; t < s.m_tracks.size(); ++t) {
        const Track& track = s.m_tracks[t];
        if (track.type == TrackType::Counter || std::size_t(track.source) >= hasSteps.size()
            || hasSteps[std::size_t(track.source)])
            continue;
        const Process* process = track.process >= 0 && std::size_t(track.process) < s.m_processes.size()
            ? &s.m_processes[std::size_t(track.process)]
            : nullptr;
        if (!containsStep(s.m_strings.view(track.name)) && !(process && containsStep(s.m_strings.view(process->name))))
            continue;
        for (std::size_t i = 0; i < track.size(); ++i) {
            if (track.depth[i] != 0 || track.duration[i] <= 0)
                continue;
            const std::int64_t number = markerStepNumber(s.m_strings.view(track.name_[i]));
            if (number >= 0)
                s.m_steps.push_back(stepAt(track, int(t), i, number));
        }
    }
}

void TraceStoreBuilder::Private::findSteps()
{
    TraceStore& s = *store;
    constexpr std::string_view kPrefix = "ProfilerStep#";
    // Per name id: -2 unknown, -1 not a step, else the step number.
    std::vector<std::int64_t> stepOfName(s.m_strings.size(), -2);
    auto stepNumber = [&](StringId id) -> std::int64_t {
        if (id >= stepOfName.size())
            return -1;
        std::int64_t& cached = stepOfName[id];
        if (cached == -2) {
            cached = -1;
            const std::string_view name = s.m_strings.view(id);
            if (name.starts_with(kPrefix)) {
                std::int64_t number = 0;
                const char* first = name.data() + kPrefix.size();
                const auto result = std::from_chars(first, name.data() + name.size(), number);
                if (result.ec == std::errc() && result.ptr != first && number >= 0)
                    cached = number;
            }
        }
        return cached;
    };

    for (std::size_t t = 0; t < s.m_tracks.size(); ++t) {
        const Track& track = s.m_tracks[t];
        if (track.type != TrackType::Thread)
            continue;
        for (std::size_t i = 0; i < track.size(); ++i) {
            if (track.kind[i] == EventKind::Kernel || track.kind[i] == EventKind::GpuAnnotation)
                continue;
            const std::int64_t number = stepNumber(track.name_[i]);
            if (number >= 0)
                s.m_steps.push_back(stepAt(track, int(t), i, number));
        }
    }
    addMarkerSteps();
    std::stable_sort(s.m_steps.begin(), s.m_steps.end(), [](const Step& a, const Step& b) {
        if (a.source != b.source)
            return a.source < b.source;
        if (a.number != b.number)
            return a.number < b.number;
        return a.start < b.start;
    });
    // The same step on several CPU threads counts once per source.
    s.m_steps.erase(
        std::unique(s.m_steps.begin(), s.m_steps.end(),
                    [](const Step& a, const Step& b) { return a.source == b.source && a.number == b.number; }),
        s.m_steps.end());
    std::stable_sort(s.m_steps.begin(), s.m_steps.end(), [](const Step& a, const Step& b) {
        if (a.source != b.source)
            return a.source < b.source;
        return a.start < b.start;
    });
}

} // namespace runlens::models::trace
