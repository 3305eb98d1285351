#include "models/graph/graphvizlock.h"

namespace runlens::models::graph {

std::mutex& graphvizMutex()
{
    static std::mutex mutex;
    return mutex;
}

} // namespace runlens::models::graph
