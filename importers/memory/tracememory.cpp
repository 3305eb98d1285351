#include "tracememory.h"

namespace runlens::memory {

MemoryReadResult memoryFromTrace(const trace::TraceStore& store, const std::function<bool()>& cancelled)
{
    Q_UNUSED(store);
    Q_UNUSED(cancelled);
    MemoryReadResult result;
    auto profile = std::make_shared<MemoryProfile>();
    result.profile = profile;
    return result;
}

} // namespace runlens::memory
