#pragma once

#include "models/summary/summarystore.h"
#include "widgets/common/chartdata.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/distributions/distributiondata.h"
#include "widgets/scalars/scalarformat.h"

#include <QPointer>
#include <QSize>

#include <qcustomplot.h>

#include <array>

class QMenu;

namespace runlens::widgets::distributions {

namespace detail {
class RidgelineLayer;
class NonFiniteMarks;
class DistributionHover;
} // namespace detail

/// How a distribution chart draws; the panel applies the same options to all its charts.
struct DistributionChartOptions
{
    DistributionMode mode = DistributionMode::Bands;
    scalars::XAxisMode xAxisMode = scalars::XAxisMode::Step;
};

/// One run's histograms of one tag. In Bands mode (TensorBoard's distributions) the nine basis-point
/// percentiles over steps as nested filled bands, darker toward the median, with the median as a line. In
/// Offset mode (TensorBoard's offset histograms, MindInsight's ridgeline) one outline per kept step stacked
/// down the step axis, newest in front and older steps lighter. Hovering shows the histogram of the nearest
/// step (buckets, statistics, percentiles); steps with NaN or ±Inf values are marked in red and named in a
/// note under the title. The context menu exports PNG/SVG/PDF/CSV.
///
/// The chart copies what it draws from the store and does not own it. Data is prepared only when the chart
/// is on screen (or exported), so charts scrolled away cost nothing when the store changes.
class DistributionChart final : public QCustomPlot
{
    Q_OBJECT
public:
    DistributionChart(const models::summary::SummaryStore* store, const QString& run, const QString& tag,
                      const DistributionChartOptions& options = {}, QWidget* parent = nullptr);
    ~DistributionChart() override;

    QString run() const { return m_run; }
    QString tag() const { return m_tag; }

    /// Re-reads the series from the store (at once when on screen, else when next painted).
    void refreshData();
    /// Prepares the data now if a refresh is waiting.
    void ensureData();
    const DistributionSeries& series() const { return m_series; }

    void setOptions(const DistributionChartOptions& options);
    DistributionChartOptions options() const { return m_options; }
    void setMode(DistributionMode mode);
    DistributionMode mode() const { return m_options.mode; }
    void setXAxisMode(scalars::XAxisMode mode);
    scalars::XAxisMode xAxisMode() const { return m_options.xAxisMode; }
    void setColor(const QColor& color);
    QColor color() const { return m_color; }

    /// Fits the axes to the data (also on double-click).
    void fitToData();

    /// The histogram under `pos` (widget coordinates): in Bands mode the step nearest the x position, in
    /// Offset mode the outline nearest the y position. -1 outside the plot area or without data.
    std::ptrdiff_t indexAt(const QPointF& pos) const;
    /// Where the mouse selects histogram `index`, in widget coordinates (the middle of the plot area across).
    QPointF positionOfIndex(std::size_t index) const;
    /// The index of a step, or -1.
    std::ptrdiff_t indexOfStep(qint64 step) const;
    /// The histogram the mouse is over (-1 when none) and the hover text shown for it.
    std::ptrdiff_t hoveredIndex() const { return m_hoverIndex; }
    qint64 hoveredStep() const;
    QString hoverText() const { return m_hoverText; }

    /// Steps with NaN or infinite values and where their markers are drawn (widget coordinates).
    QList<qint64> nonFiniteSteps() const;
    QList<QPointF> nonFiniteMarkerPositions() const;
    QString nonFiniteNote() const { return m_nonFiniteNote; }

    /// Graphs of the Bands mode: the percentile at basis point `index` (0..8); the median is index 4.
    QCPGraph* percentileGraph(std::size_t index) const;
    /// How many outlines Offset mode draws (at most kMaxOutlines, evenly sampled, the latest always).
    int outlineCount() const;

    ChartData chartData();
    ChartExportMenu* exportMenu() const { return m_exportMenu; }
    /// The context menu as it would pop up (the caller owns it).
    QMenu* createContextMenu(QWidget* parent);

    /// Replots now if something changed; normally this happens on the next paint.
    void replotIfNeeded();
    /// Thin frame on screen (not in exports); on in the panel.
    void setFramed(bool framed);

    QSize sizeHint() const override { return { 420, 280 }; }
    QSize minimumSizeHint() const override { return { 260, 180 }; }

    static constexpr int kMaxOutlines = 80;
    static constexpr int kOutlineBins = 48; ///< at most; coarser writers get as many bins as they wrote

signals:
    /// The mouse moved onto another histogram (-1: off the chart).
    void hoveredStepChanged(qint64 step);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void buildData();
    void applyTheme();
    void applyMode();
    void applyAxisTickers();
    void updateBands();
    void updateOutlines();
    void updateTitle();
    void scheduleReplot();
    void setHoverIndex(std::ptrdiff_t index, const QPointF& pos);
    void clearHover();
    QCPAxis* keyAxis() const;
    QCPAxis* valueAxis() const;

    QPointer<const models::summary::SummaryStore> m_store;
    QString m_run;
    QString m_tag;
    DistributionChartOptions m_options;
    DistributionSeries m_series;
    QColor m_color;
    std::array<QCPGraph*, 9> m_graphs {};
    QCPTextElement* m_title = nullptr;
    QCPTextElement* m_note = nullptr;
    detail::RidgelineLayer* m_ridges = nullptr;
    detail::NonFiniteMarks* m_marks = nullptr;
    detail::DistributionHover* m_hover = nullptr;
    ChartExportMenu* m_exportMenu = nullptr;
    QString m_nonFiniteNote;
    QString m_hoverText;
    std::ptrdiff_t m_hoverIndex = -1;
    bool m_stale = true;
    bool m_replotPending = true;
    bool m_framed = false;
    bool m_exporting = false;
};

/// A chart not part of a panel, sized `size`, with its data loaded and drawn; for the command line
/// (`runlens export PATH --chart distributions:RUN/TAG`), works offscreen.
std::unique_ptr<DistributionChart> createDistributionChart(const models::summary::SummaryStore& store,
                                                           const QString& run, const QString& tag,
                                                           const DistributionChartOptions& options = {},
                                                           QSize size = { 800, 500 });

/// Creates the chart as above and writes it to `fileName` (.png, .svg, .pdf or .csv by suffix). Fails with a
/// message listing what there is when the run has no such histogram tag.
bool exportDistributionChart(const models::summary::SummaryStore& store, const QString& run, const QString& tag,
                             const QString& fileName, const DistributionChartOptions& options = {},
                             QSize size = { 800, 500 }, QString* errorMessage = nullptr);

} // namespace runlens::widgets::distributions
