#include "widgets/timeline/timelineformat.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace runlens::widgets::timeline {

namespace {

constexpr std::int64_t kMinute = std::int64_t(60) * 1'000'000'000;
constexpr std::int64_t kHour = 60 * kMinute;
constexpr std::int64_t kDay = 24 * kHour;

} // namespace

QString TimelineFormat::duration(std::int64_t ns)
{
    const double a = std::abs(double(ns));
    auto fmt = [](double v) { return QString::number(v, 'g', v >= 100 ? 4 : 3); };
    if (a < 1e3)
        return tr("%1 ns").arg(ns);
    if (a < 1e6)
        return tr("%1 µs").arg(fmt(double(ns) / 1e3));
    if (a < 1e9)
        return tr("%1 ms").arg(fmt(double(ns) / 1e6));
    if (a < double(kMinute) * 10)
        return tr("%1 s").arg(fmt(double(ns) / 1e9));
    if (a < double(kHour) * 10)
        return tr("%1 min").arg(fmt(double(ns) / double(kMinute)));
    if (a < double(kDay) * 3)
        return tr("%1 h").arg(fmt(double(ns) / double(kHour)));
    return tr("%1 d").arg(fmt(double(ns) / double(kDay)));
}

QString TimelineFormat::tick(std::int64_t ns, std::int64_t step)
{
    double unit = 1;
    QString suffix;
    // A unit lets its labels carry one decimal: 200 µs steps read 0.2 ms, 0.4 ms ...
    if (step >= kDay) {
        unit = double(kDay);
        suffix = tr("d");
    } else if (step >= kHour) {
        unit = double(kHour);
        suffix = tr("h");
    } else if (step >= kMinute) {
        unit = double(kMinute);
        suffix = tr("min");
    } else if (step >= 100'000'000) {
        unit = 1e9;
        suffix = tr("s");
    } else if (step >= 100'000) {
        unit = 1e6;
        suffix = tr("ms");
    } else if (step >= 1'000) {
        unit = 1e3;
        suffix = tr("µs");
    } else {
        suffix = tr("ns");
    }
    // Decimals needed so that the step itself shows: step 2e5 ns in ms needs 1 decimal.
    const double stepInUnit = double(step) / unit;
    int decimals = 0;
    while (decimals < 6
           && std::abs(stepInUnit * std::pow(10.0, decimals) - std::round(stepInUnit * std::pow(10.0, decimals)))
               > 1e-6)
        ++decimals;
    return tr("%1 %2").arg(QString::number(double(ns) / unit, 'f', decimals), suffix);
}

std::int64_t TimelineFormat::tickStep(double nsPerPixel, double minPixels)
{
    const double minStep = std::max(1.0, nsPerPixel * minPixels);
    // Beyond a minute, steps follow the clock (1, 2, 5, 10, 15, 30 min; 1, 2, 3, 6, 12 h) and then days.
    if (minStep > 30e9) {
        for (const std::int64_t step : { kMinute, 2 * kMinute, 5 * kMinute, 10 * kMinute, 15 * kMinute, 30 * kMinute,
                                         kHour, 2 * kHour, 3 * kHour, 6 * kHour, 12 * kHour, kDay }) {
            if (double(step) >= minStep)
                return step;
        }
        double days = std::pow(10.0, std::floor(std::log10(minStep / double(kDay))));
        for (;;) {
            for (double m : { 1.0, 2.0, 5.0 }) {
                if (m * days * double(kDay) >= minStep)
                    return std::int64_t(std::llround(m * days)) * kDay;
            }
            days *= 10;
        }
    }
    double power = std::pow(10.0, std::floor(std::log10(minStep)));
    for (;;) {
        for (double m : { 1.0, 2.0, 5.0 }) {
            if (m * power >= minStep)
                return std::int64_t(std::llround(m * power));
        }
        power *= 10;
    }
}

} // namespace runlens::widgets::timeline
