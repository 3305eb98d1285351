#include "importers/graph/uniqueids.h"

namespace runlens::graph {

std::string UniqueIds::take(const std::string& wanted)
{
    if (m_ids.insert(wanted).second)
        return wanted;
    // A candidate "base#k" names its base and k unambiguously, so each taken id fails at most one probe
    // over the whole graph: the total work stays linear in the number of ids.
    long long& next = m_nextSuffix.try_emplace(wanted, 2).first->second;
    for (;;) {
        std::string id = wanted + '#' + std::to_string(next++);
        if (m_ids.insert(id).second)
            return id;
    }
}

} // namespace runlens::graph
