#pragma once

#include "models/core/importstate.h"
#include "models/memory/memoryprofile.h"

#include <QList>

namespace runlens::models::trace {
class TraceStore;
}

namespace runlens::importers::memory {

/// The per-device figures `runlens info` reports: the peak (of allocated memory, else of the category sum,
/// else of reserved), where it is, the operator and step running then (when `store` holds the trace the
/// profile was read from), the capacity and the out-of-memory count.
QList<models::MemoryDeviceSummary> summarizeMemory(const models::memory::MemoryProfile& profile,
                                                   const models::trace::TraceStore* store = nullptr);

} // namespace runlens::importers::memory
