#pragma once

#include <QString>

namespace runlens::widgets {

/// How panels write plain numbers (values in tooltips, tables and labels): with the C decimal point or the
/// user's locale's separator, to a number of significant digits. One application-wide setting, kept by the
/// application's settings and applied at start and whenever the user changes it.
struct NumberFormat
{
    bool useLocale = false; ///< the locale's decimal separator (and digit grouping) instead of "1234.5"
    int significantDigits = 6;

    static constexpr int kMinDigits = 2;
    static constexpr int kMaxDigits = 17;

    bool operator==(const NumberFormat&) const = default;

    /// The format in effect.
    static NumberFormat current();
    /// Sets the format in effect (digits clamped to kMinDigits..kMaxDigits). GUI thread only.
    static void setCurrent(const NumberFormat& format);

    /// A finite value with this format's digits; NaN, +Inf and −Inf spelled out.
    QString format(double value) const;
};

/// A value in the format in effect.
QString formatNumber(double value);

} // namespace runlens::widgets
