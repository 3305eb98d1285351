#pragma once

#include <QColor>
#include <QFont>
#include <QString>

#include <functional>

class QCustomPlot;
class QWidget;

namespace runlens::widgets {

/// The colours and tick font of a chart's axes, derived from the widget's palette and font.
struct ChartChrome
{
    QColor background;
    QColor muted; ///< tick and axis labels, legend text
    QColor axisLine;
    QColor gridLine;
    QFont tickFont; ///< the widget's font, a little smaller
};

/// The house look of the bottom and left axes of a chart: thin axis lines, short outside ticks and no sub
/// ticks, muted labels in a smaller font, a light grid without sub grid (not antialiased, so one pixel
/// stays one pixel). With `bareValueAxis` the left axis has neither line nor ticks, only its grid, as the
/// time-series charts draw it. Returns what it used, for the caller's own touches (legend, notes).
ChartChrome styleChartAxes(QCustomPlot* plot, const QFont& font, bool bareValueAxis = false);

/// The export hook of a chart shown under a panel heading: while a picture is exported, a title row
/// (`title()`, in `owner`'s font made demi-bold and its text colour) stands above the plot, since the
/// picture is seen without the panel; it is removed again afterwards. For ChartExportMenu::setExportHook.
std::function<void(bool exporting)> exportTitleHook(QCustomPlot* plot, const QWidget* owner,
                                                    std::function<QString()> title);

} // namespace runlens::widgets
