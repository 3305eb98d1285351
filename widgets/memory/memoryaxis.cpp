#include "widgets/memory/memoryaxis.h"

#include <QCoreApplication>

#include <array>
#include <cmath>

namespace runlens::widgets::memory {

namespace {

constexpr std::array<const char*, 5> kUnitNames { "B", "KB", "MB", "GB", "TB" };

int unitIndex(double unit)
{
    int index = 0;
    for (double u = 1.0; u < unit && index + 1 < int(kUnitNames.size()); u *= 1000.0)
        ++index;
    return index;
}

QString numberText(double value)
{
    // Three significant digits without trailing zeros: 1.5, 12, 512, 0.25.
    const double magnitude = std::abs(value);
    const int decimals = magnitude >= 100 || magnitude == 0 ? 0 : magnitude >= 10 ? 1 : 2;
    QString text = QString::number(value, 'f', decimals);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text;
}

} // namespace

MemoryByteTicker::MemoryByteTicker()
{
    setTickCount(5);
}

double MemoryByteTicker::unitFor(double magnitude)
{
    double unit = 1.0;
    for (std::size_t i = 1; i < kUnitNames.size() && magnitude >= unit * 1000.0; ++i)
        unit *= 1000.0;
    return unit;
}

QString MemoryByteTicker::text(double bytes)
{
    if (!std::isfinite(bytes))
        return QString::number(bytes);
    const double unit = unitFor(std::abs(bytes));
    return QStringLiteral("%1 %2").arg(numberText(bytes / unit),
                                       QLatin1String(kUnitNames[std::size_t(unitIndex(unit))]));
}

double MemoryByteTicker::getTickStep(const QCPRange& range)
{
    m_unit = unitFor(std::max(std::abs(range.lower), std::abs(range.upper)));
    const double span = range.size() / m_unit;
    if (!(span > 0))
        return m_unit;
    const double raw = span / std::max(1, tickCount());
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    const double mantissa = raw / power;
    const double nice = mantissa < 1.5 ? 1.0 : mantissa < 3.5 ? 2.0 : mantissa < 7.5 ? 5.0 : 10.0;
    return nice * power * m_unit;
}

QString MemoryByteTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    if (std::abs(tick) < m_unit * 1e-9)
        tick = 0;
    return QStringLiteral("%1 %2").arg(numberText(tick / m_unit),
                                       QLatin1String(kUnitNames[std::size_t(unitIndex(m_unit))]));
}

} // namespace runlens::widgets::memory
