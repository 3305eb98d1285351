#include "app/appsettings.h"

#include "app/summarylimitsdialog.h"
#include "importers/trace/tracecache.h"

#include <QDir>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace runlens::app {

namespace {

const QString kGroup = QStringLiteral("preferences/");

} // namespace

QList<QPair<QString, QString>> AppSettings::languages()
{
    return { { QStringLiteral("en"), QStringLiteral("English") },
             { QStringLiteral("zh_CN"), QStringLiteral("\u7b80\u4f53\u4e2d\u6587") } };
}

QString AppSettings::defaultRulesFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)).filePath(QStringLiteral("rules"));
}

bool AppSettings::operator==(const AppSettings& other) const
{
    const auto limitsTuple = [](const models::summary::SummaryLimits& l) {
        return std::tie(l.scalars, l.histograms, l.images, l.texts, l.prCurves, l.tensors);
    };
    return language == other.language && theme == other.theme && smoothing == other.smoothing && xAxis == other.xAxis
        && limitsTuple(limits) == limitsTuple(other.limits) && graphDirection == other.graphDirection
        && numbers == other.numbers && rulesFolder == other.rulesFolder && restoreSession == other.restoreSession
        && traceCacheLimit == other.traceCacheLimit;
}

AppSettings AppSettings::load()
{
    const QSettings settings;
    AppSettings s;
    const QString language = settings.value(kGroup + QStringLiteral("language")).toString();
    for (const auto& offered : languages()) {
        if (offered.first == language)
            s.language = language;
    }
    s.theme = widgets::themeFromKey(settings.value(kGroup + QStringLiteral("theme")).toString());
    bool ok = false;
    const double smoothing = settings.value(kGroup + QStringLiteral("smoothing"), s.smoothing).toDouble(&ok);
    if (ok && std::isfinite(smoothing))
        s.smoothing = std::clamp(smoothing, 0.0, kMaxSmoothing);
    s.xAxis
        = widgets::scalars::scalarformat::axisModeFromKey(settings.value(kGroup + QStringLiteral("xAxis")).toString());
    s.limits = SummaryLimitsDialog::load();
    const QString direction = settings.value(kGroup + QStringLiteral("graphDirection")).toString();
    if (direction == QLatin1String("LR"))
        s.graphDirection = direction;
    s.numbers.useLocale = settings.value(kGroup + QStringLiteral("localeNumbers"), false).toBool();
    const int digits
        = settings.value(kGroup + QStringLiteral("significantDigits"), s.numbers.significantDigits).toInt(&ok);
    if (ok)
        s.numbers.significantDigits
            = std::clamp(digits, widgets::NumberFormat::kMinDigits, widgets::NumberFormat::kMaxDigits);
    s.rulesFolder = settings.value(kGroup + QStringLiteral("rulesFolder")).toString();
    if (s.rulesFolder.isEmpty())
        s.rulesFolder = defaultRulesFolder();
    s.restoreSession = settings.value(kGroup + QStringLiteral("restoreSession"), true).toBool();
    const qint64 limit = settings.value(kGroup + QStringLiteral("traceCacheLimit"), s.traceCacheLimit).toLongLong(&ok);
    if (ok && limit >= 0)
        s.traceCacheLimit = limit;
    return s;
}

void AppSettings::save() const
{
    QSettings settings;
    settings.setValue(kGroup + QStringLiteral("language"), language);
    settings.setValue(kGroup + QStringLiteral("theme"), widgets::themeKey(theme));
    settings.setValue(kGroup + QStringLiteral("smoothing"), smoothing);
    settings.setValue(kGroup + QStringLiteral("xAxis"), widgets::scalars::scalarformat::axisModeKey(xAxis));
    SummaryLimitsDialog::save(limits);
    settings.setValue(kGroup + QStringLiteral("graphDirection"), graphDirection);
    settings.setValue(kGroup + QStringLiteral("localeNumbers"), numbers.useLocale);
    settings.setValue(kGroup + QStringLiteral("significantDigits"), numbers.significantDigits);
    // The default folder is stored as "unset", so it follows the configuration folder if that moves.
    settings.setValue(kGroup + QStringLiteral("rulesFolder"),
                      rulesFolder == defaultRulesFolder() ? QString() : rulesFolder);
    settings.setValue(kGroup + QStringLiteral("restoreSession"), restoreSession);
    settings.setValue(kGroup + QStringLiteral("traceCacheLimit"), traceCacheLimit);
}

void AppSettings::apply() const
{
    if (theme != widgets::currentTheme())
        widgets::applyTheme(theme);
    widgets::NumberFormat::setCurrent(numbers);
    applyTraceCache();
}

void AppSettings::applyTraceCache() const
{
    importers::trace::TraceCache::setSizeLimit(traceCacheLimit);
    importers::trace::TraceCache::setEnabled(traceCacheLimit > 0);
}

} // namespace runlens::app
