#pragma once

// What the three source files of the Cluster panel share (clusterpanel.cpp: the panel, its table and summary;
// clusterpanelcharts.cpp: the per-rank bars and the link matrix; clusterpanelviews.cpp: the rank × step
// heatmap, the slowest ranks and the communication groups).

#include "widgets/common/chartstyle.h"

#include <QLocale>
#include <QString>
#include <QWidget>

#include <qcustomplot.h>

namespace runlens::widgets::cluster::clusterparts {

constexpr double kBarWidth = 0.7;
constexpr int kMaxTickLabels = 32;
/// Rows a table's column widths are measured on.
constexpr int kSizedRows = 100;
constexpr int kMaxColumnWidth = 360;
/// Ranks from which the heatmap starts with its rows by mean.
constexpr int kHeatmapRanksByMean = 256;

inline void styleAxes(QCustomPlot* plot, const QWidget* owner)
{
    styleChartAxes(plot, owner->font());
    plot->xAxis->grid()->setVisible(false);
}

inline QString formatPercent(double fraction)
{
    return QStringLiteral("%1%2 %")
        .arg(fraction >= 0 ? QStringLiteral("+") : QString())
        .arg(QLocale().toString(fraction * 100.0, 'f', 1));
}

} // namespace runlens::widgets::cluster::clusterparts
