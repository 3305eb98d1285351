#pragma once

#include "importers/core/importcontrol.h"
#include "importers/memory/memoryread.h"

#include <QString>

#include <string>

namespace runlens::importers::memory {

/// Reads torch `export_memory_timeline` output: the raw form (`.raw.json.gz`, `.raw.gz` or plain JSON: an
/// array of `[ts_ns, action, bytes, category]` tuples) and the plain `.json` form (`[times, sizes]` with
/// one size list per category). The profile has one device whose `categories` hold one curve per
/// MemoryCategory (index = category) and whose `allocated` is their sum; raw tuples are also kept as
/// events. Pre-existing tensors (ts -1) are placed at the first real time. Gzip is detected by content.
/// Bad input gives diagnostics naming the file and keeps what was read before the damage.
MemoryReadResult readMemoryTimeline(const QString& path, const ImportControl& control = {});
/// The same over bytes held in memory (plain or gzip); `name` labels the profile and the diagnostics.
MemoryReadResult readMemoryTimelineBytes(const std::string& bytes, const QString& name,
                                         const ImportControl& control = {});

} // namespace runlens::importers::memory
