#pragma once

#include <QCoreApplication>
#include <QString>

#include <cstdint>

namespace runlens::widgets::timeline {

/// Text for times and durations on the timeline, with units chosen by magnitude (ns, µs, ms, s).
class TimelineFormat
{
    Q_DECLARE_TR_FUNCTIONS(runlens::widgets::timeline::TimelineFormat)
public:
    /// "1.25 ms", "830 ns", "2.5 s"; three significant digits.
    static QString duration(std::int64_t ns);
    /// A ruler label for a time `ns` (relative to the trace start) on a grid of `step` ns: enough
    /// decimals to tell neighbouring ticks apart, in the unit of the step.
    static QString tick(std::int64_t ns, std::int64_t step);
    /// The ruler tick spacing (1, 2 or 5 times a power of ten ns) giving at least `minPixels` between
    /// ticks at `nsPerPixel`.
    static std::int64_t tickStep(double nsPerPixel, double minPixels);
};

} // namespace runlens::widgets::timeline
