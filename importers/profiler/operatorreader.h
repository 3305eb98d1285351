#pragma once

#include "models/core/diagnostic.h"
#include "models/profiler/profilerdata.h"

#include <QString>

namespace runlens::importers::profiler {

struct ProfilerRank;

/// Factor from a time column's unit to microseconds, read from the header ("Total Time(us)", "total_time(ms)");
/// `fallback` when the header names no unit.
double unitToMicroseconds(const QString& header, double fallback);

/// Reads the operator tables of one rank into an OperatorTable: Ascend AI Core type/detail CSVs joined with
/// framework_raw (types, shapes, formats, streams) and flops_{id}.txt, AI CPU rows, GPU and CPU op CSVs, and the
/// 2.x op_statistic.csv / kernel_details.csv. Every column is found by its header name. Missing files are skipped;
/// broken rows are reported in `diagnostics` and left out, the rest is kept.
models::profiler::OperatorTable readOperatorTable(const ProfilerRank& rank, models::Diagnostics& diagnostics);

} // namespace runlens::importers::profiler
