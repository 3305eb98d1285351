#include "models/graph/graphvizlock.h"

namespace runlens::graph {

std::mutex& graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

} // namespace runlens::graph
