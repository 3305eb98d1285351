#include "widgets/common/numberformat.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace runlens::widgets {

namespace {

NumberFormat& currentFormat()
{
    static NumberFormat format;
    return format;
}

} // namespace

NumberFormat NumberFormat::current()
{
    return currentFormat();
}

void NumberFormat::setCurrent(const NumberFormat& format)
{
    NumberFormat& f = currentFormat();
    f = format;
    f.significantDigits = std::clamp(format.significantDigits, kMinDigits, kMaxDigits);
}

QString NumberFormat::format(double value) const
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("+Inf") : QStringLiteral("\u2212Inf");
    const int digits = std::clamp(significantDigits, kMinDigits, kMaxDigits);
    if (!useLocale)
        return QString::number(value, 'g', digits);
    QLocale locale;
    // Grouping would make "12 345.6" and a list of such numbers hard to scan; the separator is what matters.
    locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator);
    return locale.toString(value, 'g', digits);
}

QString formatNumber(double value)
{
    return currentFormat().format(value);
}

} // namespace runlens::widgets
