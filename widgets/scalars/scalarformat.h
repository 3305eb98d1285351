#pragma once

#include <QString>

namespace runlens::widgets::scalars {

/// How the x axis of scalar charts is measured.
enum class XAxisMode {
    Step, ///< the training step
    RelativeTime, ///< seconds since the run's first point
    WallTime, ///< seconds since the Unix epoch, shown as local date and time
};

/// Text helpers shared by the scalar charts (axis labels, tooltips).
namespace scalarformat {

/// A scalar value for a tooltip in the number format in effect (6 significant digits unless the user chose
/// otherwise); NaN, +Inf and −Inf spelled out.
QString value(double v);
/// Axis text for a step or other count: 950, 12.5k, 3M.
QString compactNumber(double v);
/// A duration such as 45s, 12m 5s, 3h 20m, 2d 4h (negative durations get a leading minus).
QString duration(double seconds);
/// Local date and time of a Unix timestamp in seconds, to the second.
QString wallTime(double secondsSinceEpoch);
/// The axis title for a mode, translated.
QString axisTitle(XAxisMode mode);
/// "step", "relative" or "wall": how a mode is kept in settings.
QString axisModeKey(XAxisMode mode);
/// The mode named by `key`; Step for anything else.
XAxisMode axisModeFromKey(const QString& key);

} // namespace scalarformat
} // namespace runlens::widgets::scalars
