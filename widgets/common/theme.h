#pragma once

#include <QColor>
#include <QPalette>

namespace runlens::widgets {

/// The application's colour scheme: the desktop's, or RunLens's own light or dark one.
enum class Theme {
    System,
    Light,
    Dark,
};

/// "system", "light" or "dark": the form kept in the settings.
QString themeKey(Theme theme);
/// The theme named by `key`; System for anything else.
Theme themeFromKey(const QString& key);

/// A dark palette for the Fusion style: dark grey windows, a slightly darker base for views and charts,
/// light text, and disabled text that stays readable.
QPalette darkPalette();
/// A light palette for the Fusion style, independent of the desktop's colours.
QPalette lightPalette();

/// Applies a theme to the running application: Fusion and its palette for Light and Dark, the style and
/// palette the application started with for System. Every widget gets a PaletteChange, so charts that
/// take their colours from chartTheme() follow at once.
void applyTheme(Theme theme);
/// The theme last given to applyTheme() (System before any call).
Theme currentTheme();

/// Whether a palette is a dark one (light text on dark views), as a desktop's dark theme would be too.
bool isDark(const QPalette& palette);

/// The colours of a chart's chrome derived from a palette: every chart takes them from here, so charts stay
/// readable in light and dark themes alike.
struct ChartTheme
{
    QColor background; ///< behind the plot (the palette's Base)
    QColor text; ///< titles
    QColor muted; ///< tick and axis labels, legend text
    QColor axisLine;
    QColor gridLine;
    QColor panel; ///< boxes drawn on the chart (legends, minimaps), a little apart from the background
};

ChartTheme chartTheme(const QPalette& palette);

} // namespace runlens::widgets
