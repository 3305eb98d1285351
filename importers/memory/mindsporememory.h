#pragma once

#include "importers/core/importcontrol.h"
#include "importers/memory/memoryread.h"

#include <QString>

namespace runlens::importers::memory {

/// Reads one of MindSpore's memory files, chosen by its name:
/// - `memory_usage_summary_{id}.json`: device capacity, peak and static memory (Ascend, 1.x profiler);
/// - `memory_usage_details_{id}.json`: per graph a device ("graph N") on the node-index axis with the
///   allocated curve, the nodes and the tensors' lifetimes (`breakdowns`) linked to their nodes;
/// - `cpu_ms_memory_record_{id}.txt` and `memory_record.csv` (2.x): allocated/reserved/active over time;
/// - `operator_memory_{id}.csv` and `operator_memory.csv` (2.x): per-operator allocations.
/// Columns are found by their header names; missing or bad columns and rows become diagnostics naming
/// the file (and the column or line); what could be read is kept. Runs on any thread.
MemoryReadResult readMindSporeMemory(const QString& path, const ImportControl& control = {});

/// Whether readMindSporeMemory() knows the base name `fileName` (case-insensitive).
bool isMindSporeMemoryFileName(const QString& fileName);

} // namespace runlens::importers::memory
