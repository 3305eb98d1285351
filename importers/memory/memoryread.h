#pragma once

#include "models/core/diagnostic.h"
#include "models/core/importstate.h"
#include "models/memory/memoryprofile.h"

#include <memory>

namespace runlens::importers::memory {

/// What reading memory data produced: the profile (never null, possibly empty), every problem found, and
/// how far the reading got (Ok, Partial when something was skipped, Failed when nothing could be read,
/// Canceled when asked to stop; the profile then holds what was read).
struct MemoryReadResult
{
    std::shared_ptr<const models::memory::MemoryProfile> profile;
    models::Diagnostics diagnostics;
    models::ImportStatus status = models::ImportStatus::Ok;
};

} // namespace runlens::importers::memory
