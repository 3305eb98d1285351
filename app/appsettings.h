#pragma once

#include "models/summary/summarydata.h"
#include "widgets/common/numberformat.h"
#include "widgets/common/theme.h"
#include "widgets/scalars/scalarformat.h"

#include <QList>
#include <QPair>
#include <QString>

namespace runlens::app {

/// The user's preferences, as the Preferences dialog edits them. Kept with QSettings in the user's
/// configuration (never in a run folder); load() falls back to the defaults for anything missing or invalid.
/// apply() puts the parts that act application-wide (theme, number format) into effect; the main window
/// hands the panel defaults to its panels and main() picks the language before any window exists.
struct AppSettings
{
    QString language; ///< empty: the system's; else "en" or "zh_CN". Used from the next start.
    widgets::Theme theme = widgets::Theme::System;
    double smoothing = 0.6; ///< the Scalars panel's smoothing weight, 0 .. kMaxSmoothing
    widgets::scalars::XAxisMode xAxis = widgets::scalars::XAxisMode::Step;
    models::summary::SummaryLimits limits; ///< how many values per tag the summary readers keep
    QString graphDirection = QStringLiteral("TB"); ///< "TB" (top down) or "LR" (left to right)
    widgets::NumberFormat numbers;
    QString rulesFolder; ///< the folder of the user's rule threshold files
    bool restoreSession = true; ///< reopen the last session when RunLens starts without a path
    /// Bytes the trace cache (inflated gzip traces, index caches) may hold; 0 turns the cache off.
    qint64 traceCacheLimit = qint64(4) << 30;

    static constexpr double kMaxSmoothing = 0.999;

    bool operator==(const AppSettings& other) const;

    static AppSettings load();
    void save() const;
    /// Theme, number format and trace cache limit into effect now.
    void apply() const;
    /// The trace cache limit into effect (also for the command line, which has no theme to apply).
    void applyTraceCache() const;

    /// The languages offered besides the system's: code and name in that language.
    static QList<QPair<QString, QString>> languages();
    /// Where rule files live unless the user picks another folder: <configuration>/rules.
    static QString defaultRulesFolder();
};

} // namespace runlens::app
