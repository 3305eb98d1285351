#pragma once

#include "models/cluster/cluster.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace runlens::models::cluster {

/// The step numbers of many ranks as columns: their sorted union, and a step's column in it. Ranks nearly
/// always share their steps, in the same order, and the numbers are nearly always consecutive: each step is
/// then checked against where the previous rank had it, and its column is an offset, so a thousand ranks
/// of a thousand steps cost a pass, not a million searches.
class StepColumns
{
public:
    /// The steps of `ranks` for which `keep(step)` holds.
    template<typename Keep> StepColumns(const std::vector<RankFigures>& ranks, Keep keep)
    {
        for (const RankFigures& r : ranks) {
            const std::size_t known = m_steps.size();
            std::size_t hint = 0;
            for (const RankStep& s : r.steps) {
                if (!keep(s))
                    continue;
                if (hint < known && m_steps[hint] == s.step) {
                    ++hint;
                    continue;
                }
                const auto end = m_steps.begin() + std::ptrdiff_t(known);
                const auto at = std::lower_bound(m_steps.begin(), end, s.step);
                if (at != end && *at == s.step)
                    hint = std::size_t(at - m_steps.begin()) + 1;
                else
                    m_steps.push_back(s.step);
            }
            if (m_steps.size() != known) {
                std::sort(m_steps.begin(), m_steps.end());
                m_steps.erase(std::unique(m_steps.begin(), m_steps.end()), m_steps.end());
            }
        }
        m_consecutive = !m_steps.empty() && m_steps.back() - m_steps.front() == std::int64_t(m_steps.size()) - 1;
    }

    const std::vector<std::int64_t>& steps() const { return m_steps; }
    std::size_t size() const { return m_steps.size(); }
    /// The column of `step`, which must be one of steps().
    std::size_t columnOf(std::int64_t step) const
    {
        return m_consecutive ? std::size_t(step - m_steps.front())
                             : std::size_t(std::lower_bound(m_steps.begin(), m_steps.end(), step) - m_steps.begin());
    }

private:
    std::vector<std::int64_t> m_steps;
    bool m_consecutive = false;
};

} // namespace runlens::models::cluster
