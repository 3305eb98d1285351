#include "models/advisor/analysishelpers.h"

#include <QCoreApplication>

#include <array>
#include <cmath>

namespace runlens::models::advisor {

QString formatByteSize(double bytes)
{
    static constexpr std::array kUnits { "B", "KiB", "MiB", "GiB", "TiB" };
    double value = std::abs(bytes);
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < kUnits.size()) {
        value /= 1024.0;
        ++unit;
    }
    const QString number = unit == 0 ? QString::number(qint64(value)) : QString::number(value, 'f', 1);
    return (bytes < 0 ? QStringLiteral("-") : QString()) + number + QLatin1Char(' ') + QLatin1String(kUnits[unit]);
}

double nsToMs(std::int64_t ns)
{
    return double(ns) / 1e6;
}

Scope runScope(const QString& run, int rank)
{
    Scope scope;
    scope.run = run;
    if (rank >= 0)
        scope.rank = rank;
    return scope;
}

void placeIn(Measurement& measurement, const Scope& scope)
{
    measurement.scope = scope;
    measurement.facts.insert(QStringLiteral("where"),
                             scope.rank ? QCoreApplication::translate("runlens::advisor", " (rank %1)").arg(*scope.rank)
                                        : QString());
}

} // namespace runlens::models::advisor
