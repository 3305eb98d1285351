#include "importers/graph/uniqueids.h"

namespace runlens::importers::graph {

std::string UniqueIds::take(const std::string& wanted)
{
    // One lookup for a free id; a taken one keeps, beside it, the next suffix to try for it as a base.
    const auto [it, fresh] = m_ids.try_emplace(wanted, 2);
    if (fresh)
        return wanted;
    // A candidate "base#k" names its base and k unambiguously, so each taken id fails at most one probe
    // over the whole graph: the total work stays linear in the number of ids.
    long long& next = it->second;
    for (;;) {
        std::string id = wanted + '#' + std::to_string(next++);
        if (m_ids.try_emplace(id, 2).second)
            return id;
    }
}

} // namespace runlens::importers::graph
