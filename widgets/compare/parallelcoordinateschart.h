#pragma once

#include "widgets/common/chartdata.h"

#include <QList>
#include <QPointF>
#include <QStringList>

#include <functional>

#include <qcustomplot.h>

#include <vector>

namespace runlens::widgets {
class ChartExportMenu;
}

namespace runlens {

namespace widgets::compare {

/// A parallel-coordinates chart: one vertical axis per hyper-parameter and, last, the metric; each run is a
/// polyline through its values, coloured by its metric value (viridis, low to high). Numeric axes span
/// the runs' range (logarithmic when all values are positive over two decades or more, as learning rates
/// are); text values get a categorical axis with one position per distinct value. A missing value breaks
/// the run's line at that axis. Hovering a line highlights its run and tells its values; clicking it emits
/// runClicked. Exports PNG/SVG/PDF and CSV (one row per run, category positions for text values).
class ParallelCoordinatesChart final : public QCustomPlot
{
    Q_OBJECT
public:
    struct Axis
    {
        QString key;
        QString title;
        bool categorical = false;
        /// Numeric axes: the raw value per run (NaN when missing). Categorical axes: the text per run
        /// (empty when missing); `values` is then ignored.
        std::vector<double> values;
        QStringList texts;
    };

    explicit ParallelCoordinatesChart(QWidget* parent = nullptr);
    ~ParallelCoordinatesChart() override;

    /// Replaces the chart: `runs` are the polylines, `axes` their values (each indexed like `runs`); the
    /// last axis is the metric that colours the lines. Fewer than one axis or no runs shows `emptyText`.
    void setData(const QStringList& runs, const QList<Axis>& axes, const QString& emptyText = {});

    QStringList runs() const { return m_runs; }
    /// How a run is named in tooltips and exports (the run as users see it); the run itself by default.
    void setRunNamer(std::function<QString(const QString&)> namer) { m_runNamer = std::move(namer); }
    QString runName(const QString& run) const { return m_runNamer ? m_runNamer(run) : run; }
    /// The tooltip of a run's line: its name and its value on every axis.
    QString runToolTip(const QString& run) const;
    int lineCount() const { return int(m_lines.size()); }
    int axisCount() const { return int(m_axes.size()); }
    QStringList axisTitles() const;
    /// The line of a run, or nullptr.
    QCPGraph* line(const QString& run) const;
    /// Where a run's line crosses an axis, in widget pixels (NaN when the value is missing).
    QPointF pointOf(const QString& run, int axis) const;
    /// The axis position (0..1 from bottom to top) of a run's value, NaN when missing.
    double positionOf(const QString& run, int axis) const;
    bool isLogarithmic(int axis) const;
    /// The run whose line is nearest to `pos` within a few pixels, or an empty string.
    QString runAt(const QPointF& pos) const;

    QString highlightedRun() const { return m_highlighted; }
    void setHighlightedRun(const QString& run);
    /// Runs drawn in front and bold (the table's selection); the others stay visible, paler.
    void setEmphasizedRuns(const QStringList& runs);

    ChartExportMenu* exportMenu() const { return m_exportMenu; }
    ChartData chartData() const;

    static constexpr int kHoverDistance = 6;

signals:
    void runHovered(const QString& run);
    void runClicked(const QString& run);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct AxisScale
    {
        QStringList categories;
        double min = 0.0;
        double max = 1.0;
        bool log = false;
    };

    void rebuild();
    void applyTheme();
    void updatePens();
    double normalized(int axis, int run) const;
    QString valueText(int axis, int run) const;
    void showTip(const QPoint& globalPos, const QString& run);

    QStringList m_runs;
    std::function<QString(const QString&)> m_runNamer;
    QList<Axis> m_axes;
    std::vector<AxisScale> m_scales;
    std::vector<QCPGraph*> m_lines;
    std::vector<QColor> m_colors;
    QList<QCPAbstractItem*> m_items;
    QStringList m_emphasized;
    QString m_highlighted;
    QString m_emptyText;
    int m_builtWidth = 0;
    QCPTextElement* m_title = nullptr;
    QCPItemText* m_emptyItem = nullptr;
    ChartExportMenu* m_exportMenu = nullptr;
};

} // namespace widgets::compare
} // namespace runlens
