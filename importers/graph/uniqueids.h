#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>

namespace runlens::graph {

/// Hands out the node ids of one graph: a wanted id that is free is kept, a taken one gets the first free
/// suffix `#2`, `#3` … Each base name remembers where its search stopped, so a file whose 300k nodes share
/// one name costs linear time instead of probing every suffix again for each node. One per graph being built.
class UniqueIds
{
public:
    std::string take(const std::string& wanted);
    /// True when `id` was handed out.
    bool contains(const std::string& id) const { return m_ids.count(id) > 0; }

private:
    std::unordered_set<std::string> m_ids;
    std::unordered_map<std::string, long long> m_nextSuffix;
};

} // namespace runlens::graph
