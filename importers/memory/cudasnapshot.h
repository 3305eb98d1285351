#pragma once

#include "importers/core/importcontrol.h"
#include "importers/memory/memoryread.h"

#include <QString>

#include <string_view>

namespace runlens::importers::memory {

/// Reads a PyTorch CUDA memory snapshot (the pickle `torch.cuda.memory._dump_snapshot()` writes) through
/// the data-only pickle decoder, so nothing in the file is ever executed. Per device it builds the
/// allocated, active and reserved curves by replaying `device_traces`, the allocations and frees as
/// events, the out-of-memory reports, and the blocks alive at snapshot time as TensorLifetime entries.
/// Problems become diagnostics naming the file; what could be read is kept. Runs on any thread.
MemoryReadResult readCudaSnapshot(const QString& path, const ImportControl& control = {});

/// The same for snapshot bytes already in memory; `path` is used in diagnostics and `profile->paths`.
MemoryReadResult readCudaSnapshotBytes(std::string_view bytes, const QString& path, const ImportControl& control = {});

/// True when `head` (the first bytes of a file) looks like a snapshot pickle: the PROTO opcode and one
/// of the snapshot's top-level keys (`segments`, `device_traces`) near the start.
bool looksLikeCudaSnapshot(std::string_view head);

} // namespace runlens::importers::memory
