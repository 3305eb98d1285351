#include "widgets/scalars/scalarformat.h"

#include "widgets/common/numberformat.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>

#include <cmath>

namespace runlens::widgets::scalars::scalarformat {

namespace {

QString trimZeros(QString s)
{
    if (s.contains(QLatin1Char('.')) && !s.contains(QLatin1Char('e'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
    }
    return s;
}

} // namespace

QString value(double v)
{
    return formatNumber(v);
}

QString compactNumber(double v)
{
    if (!std::isfinite(v))
        return value(v);
    const double a = std::abs(v);
    struct Unit
    {
        double scale;
        const char* suffix;
    };
    static constexpr Unit kUnits[] = { { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
    for (const Unit& unit : kUnits) {
        if (a >= unit.scale)
            return trimZeros(QString::number(v / unit.scale, 'f', 2)) + QLatin1String(unit.suffix);
    }
    if (a == 0.0)
        return QStringLiteral("0");
    if (a < 1e-3)
        return QString::number(v, 'g', 3);
    return trimZeros(QString::number(v, 'f', 3));
}

QString duration(double seconds)
{
    if (!std::isfinite(seconds))
        return value(seconds);
    const QString sign = seconds < 0 ? QStringLiteral("\u2212") : QString();
    double s = std::abs(seconds);
    if (s < 1.0)
        return s == 0.0 ? QStringLiteral("0s") : sign + trimZeros(QString::number(s, 'f', 2)) + QLatin1Char('s');
    if (s < 60.0)
        return sign + trimZeros(QString::number(s, 'f', s < 10 ? 1 : 0)) + QLatin1Char('s');
    const qint64 total = qint64(std::llround(s));
    const qint64 days = total / 86400;
    const qint64 hours = (total % 86400) / 3600;
    const qint64 minutes = (total % 3600) / 60;
    const qint64 secs = total % 60;
    auto part = [](qint64 n, char unit) { return QString::number(n) + QLatin1Char(unit); };
    if (days > 0)
        return sign + part(days, 'd') + (hours ? QLatin1Char(' ') + part(hours, 'h') : QString());
    if (hours > 0)
        return sign + part(hours, 'h') + (minutes ? QLatin1Char(' ') + part(minutes, 'm') : QString());
    return sign + part(minutes, 'm') + (secs ? QLatin1Char(' ') + part(secs, 's') : QString());
}

QString wallTime(double secondsSinceEpoch)
{
    if (!std::isfinite(secondsSinceEpoch))
        return value(secondsSinceEpoch);
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(qint64(std::llround(secondsSinceEpoch * 1000.0)));
    return t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString axisTitle(XAxisMode mode)
{
    switch (mode) {
    case XAxisMode::Step:
        return QCoreApplication::translate("runlens::widgets::scalars::ScalarChart", "Step");
    case XAxisMode::RelativeTime:
        return QCoreApplication::translate("runlens::widgets::scalars::ScalarChart", "Relative time");
    case XAxisMode::WallTime:
        return QCoreApplication::translate("runlens::widgets::scalars::ScalarChart", "Wall time");
    }
    return {};
}

QString axisModeKey(XAxisMode mode)
{
    switch (mode) {
    case XAxisMode::RelativeTime:
        return QStringLiteral("relative");
    case XAxisMode::WallTime:
        return QStringLiteral("wall");
    case XAxisMode::Step:
        break;
    }
    return QStringLiteral("step");
}

XAxisMode axisModeFromKey(const QString& key)
{
    if (key == QLatin1String("relative"))
        return XAxisMode::RelativeTime;
    if (key == QLatin1String("wall"))
        return XAxisMode::WallTime;
    return XAxisMode::Step;
}

} // namespace runlens::widgets::scalars::scalarformat
