#pragma once

#include "models/core/stepcolumns.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QVector>

#include <vector>

class QCPBars;
class QCPBarsData;
class QCPGraph;
class QCPGraphData;
class QCustomPlot;

namespace runlens::widgets {

/// The bars of a stacked step chart: one QCPBars per category (bottom first), one bar per step at x = step
/// index and an "Average" bar after the last step. The x axis zooms and pans (wheel, drag; a double click
/// shows every step again).
///
/// A run of thousands of steps has more steps than the chart has pixel columns: drawn one bar each, several
/// bars share a pixel (moiré) and every replot pays for each bar. Then the bars are drawn per column of
/// StepColumns::stepsPerColumn steps (each category's mean, so the stack reaches the mean step time; the axis
/// label says so), re-grouped within the replot that shows a new x range or width so no frame draws stale
/// bars. A mean hides a straggler, so a line over the columns marks the slowest step of each (its whole
/// time). Zoomed in to fewer steps than columns, every visible step gets its own bar again.
class StackedStepBars final : public QObject
{
    Q_OBJECT
public:
    static constexpr double kBarWidth = 0.7;
    static constexpr double kAverageGap = 0.6; ///< extra space between the last step and the average bar

    explicit StackedStepBars(QCustomPlot* plot, QObject* parent = nullptr);

    /// The bars to fill, one per category, bottom first (the chart's plottables, which stay the caller's). The
    /// line of the slowest steps is added to the chart after them when it has none.
    void setBars(QList<QCPBars*> bars);
    /// The steps: `values` is steps × categories (row-major, axis units), `labels` the tick text of each step,
    /// `average` per category (empty: no average bar). Shows every step.
    void setSteps(std::vector<double> values, std::vector<double> average, QStringList labels,
                  const QString& averageLabel, const QString& axisLabel);

    int stepCount() const { return int(m_labels.size()); }
    std::size_t categoryCount() const { return std::size_t(m_bars.size()); }
    /// A step's time in one category (axis units).
    double value(int step, std::size_t category) const;
    double averageX() const { return double(stepCount()) + kAverageGap; }
    /// The x range that shows every step and the average.
    double fullLower() const { return -0.6; }
    double fullUpper() const;
    void showAll();

    /// What is drawn at plot x coordinate `x`.
    struct Hit
    {
        bool average = false;
        int column = -1; ///< index into columns() when the chart draws columns of several steps
        int first = -1; ///< the step (or the first of the column's steps); -1 when nothing is there
        int count = 0;
        int slowest = -1; ///< the step with the largest total among them
        bool isNone() const { return !average && first < 0; }
    };
    Hit hitAt(double x) const;

    /// Steps per drawn bar (1: every step its own bar).
    std::size_t stepsPerColumn() const { return m_columns.stepsPerColumn; }
    const models::StepColumns& columns() const { return m_columns; }
    /// The line over the columns through each one's slowest step (empty and hidden while every step has its bar).
    QCPGraph* slowestLine() const;

    /// Fills the bars for the current x range and axis width; nothing when neither changed what is drawn. The
    /// plot calls it after its layout in every replot; call it to fill the bars before the first replot.
    void refresh();

private:
    void clampRange();

    QCustomPlot* m_plot = nullptr;
    QList<QCPBars*> m_bars;
    QPointer<QCPGraph> m_slowest; ///< the chart deletes it with its plottables
    std::vector<double> m_values;
    std::vector<double> m_average;
    QStringList m_labels;
    QString m_averageLabel;
    QString m_axisLabel;
    models::StepColumns m_columns;
    QVector<QCPBarsData> m_scratch;
    QVector<QCPGraphData> m_scratchGraph;
    // What the bars hold now: refresh() skips the work when the same would be drawn again.
    bool m_laidOut = false;
    bool m_dirty = true;
    int m_drawnFirst = -1;
    int m_drawnLast = -1;
    std::size_t m_drawnStepsPerColumn = 0;
    bool m_drawnAverage = false;
    int m_drawnTickStride = 0;
};

} // namespace runlens::widgets
