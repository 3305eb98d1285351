#pragma once

#include "advisor/advisortypes.h"

#include <QString>

#include <cstdint>

namespace runlens::advisor {

/// Bytes as a message shows them ("1.5 GiB"): facts carry text so that the engine's number formatting
/// does not turn sizes into raw byte counts.
QString formatByteSize(double bytes);

/// Nanoseconds as milliseconds, the unit messages quote times in.
double nsToMs(std::int64_t ns);

/// A scope for one run (and rank, when known).
Scope runScope(const QString& run, int rank);

} // namespace runlens::advisor
