#pragma once

#include "importers/memory/memoryread.h"
#include "models/trace/tracestore.h"

#include <functional>

namespace runlens::importers::memory {

/// Memory curves of the `[memory]` and `[OutOfMemory]` instants of a trace (PyTorch profiler with
/// profile_memory=True). One MemoryDevice per (source, Device Type, Device Id), labelled "cpu",
/// "cuda:N", ...: `allocated`/`reserved` from `Total Allocated`/`Total Reserved`, every event with its
/// address and signed size (its track and slice kept for op attribution), OOMs as markers, capacity and
/// rank from the source's metadata. Old traces that carry only `Bytes` give a running sum marked
/// `relative`. Args are parsed here from the store's retained input; a bad one is skipped with a
/// diagnostic naming the file. `cancelled` is polled now and then; when it returns true the result is
/// Canceled and holds what was read.
MemoryReadResult memoryFromTrace(const models::trace::TraceStore& store, const std::function<bool()>& cancelled = {});

} // namespace runlens::importers::memory
