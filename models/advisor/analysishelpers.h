#pragma once

#include "models/advisor/advisortypes.h"

#include <QString>

#include <cstdint>

namespace runlens::models::advisor {

/// Bytes as a message shows them ("1.5 GiB"): facts carry text so that the engine's number formatting
/// does not turn sizes into raw byte counts.
QString formatByteSize(double bytes);

/// Nanoseconds as milliseconds, the unit messages quote times in.
double nsToMs(std::int64_t ns);

/// A scope for one run (and rank, when known).
Scope runScope(const QString& run, int rank);

/// Sets a measurement's scope and its "where" fact: " (rank 3)" when the scope has a rank, else empty,
/// so that messages of single-process runs do not show a rank placeholder.
void placeIn(Measurement& measurement, const Scope& scope);

} // namespace runlens::models::advisor
