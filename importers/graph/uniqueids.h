#pragma once

#include <string>
#include <unordered_map>

namespace runlens::importers::graph {

/// Hands out the node ids of one graph: a wanted id that is free is kept, a taken one gets the first free
/// suffix `#2`, `#3` … Each base name remembers where its search stopped, so a file whose 300k nodes share
/// one name costs linear time instead of probing every suffix again for each node. One per graph being built.
class UniqueIds
{
public:
    std::string take(const std::string& wanted);
    /// Makes room for `count` ids up front: a graph of a million nodes then never rehashes.
    void reserve(std::size_t count) { m_ids.reserve(count); }
    /// True when `id` was handed out.
    bool contains(const std::string& id) const { return m_ids.count(id) > 0; }

private:
    /// Every id handed out, with the next suffix to try when it is wanted again: one lookup per free id,
    /// which matters when a file makes a million of them.
    std::unordered_map<std::string, long long> m_ids;
};

} // namespace runlens::importers::graph
