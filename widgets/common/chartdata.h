#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace runlens::widgets {

/// One series of a chart as numbers: parallel columns named by ChartData::columns.
struct ChartSeriesData
{
    QString name; ///< e.g. the run
    std::vector<std::vector<double>> columns; ///< one vector per ChartData::columns entry, all the same length

    std::size_t rowCount() const { return columns.empty() ? 0 : columns.front().size(); }
};

/// What a chart shows, as data: the panel that owns a chart fills it so that "Export as CSV" writes the
/// numbers behind the curves (all points, not the downsampled ones that are drawn).
struct ChartData
{
    QString title; ///< chart title, e.g. the tag
    QString xLabel;
    QString yLabel;
    QString seriesColumn = QStringLiteral("series"); ///< CSV header of the column holding the series name
    QStringList columns; ///< CSV headers of the numeric columns, e.g. step, wall_time, value
    std::vector<ChartSeriesData> series;

    std::size_t rowCount() const
    {
        std::size_t n = 0;
        for (const auto& s : series)
            n += s.rowCount();
        return n;
    }
};

} // namespace runlens::widgets
