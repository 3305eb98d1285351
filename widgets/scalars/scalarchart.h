#pragma once

#include "models/scalars/scalarstore.h"
#include "widgets/common/chartdata.h"
#include "widgets/common/chartexportmenu.h"
#include "widgets/scalars/scalarformat.h"

#include <QPointer>
#include <QSet>
#include <QSize>
#include <QStringList>

#include <qcustomplot.h>

#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace runlens::widgets::scalars {

namespace detail {
struct ScalarCurve;
class NonFiniteMarkers;
class HoverOverlay;
} // namespace detail

/// How a scalar chart draws; the panel applies the same options to all its charts.
struct ScalarChartOptions
{
    double smoothing = 0.6; ///< TensorBoard's debiased EMA weight, 0 (off) .. 0.999
    XAxisMode xAxisMode = XAxisMode::Step;
    bool logY = false;
    bool ignoreOutliers = true; ///< fit the y range to the bulk of the values (see ScalarChart::fitToData)
    QSet<QString> hiddenRuns;
};

/// One chart of one tag: every run that has the tag as a coloured curve. With smoothing the raw curve is
/// drawn faint behind the smoothed one. NaN/Inf values are skipped by the line and marked at the top or
/// bottom edge. Curves are downsampled (min/max per pixel column) to the visible x range whenever the
/// range or the size changes, so long series stay fluid. Hovering shows the nearest point of each run;
/// dragging pans, the wheel zooms (optionally only with a modifier, see setWheelZoomModifiers), a
/// double-click fits the view to the data; the context menu exports and toggles the log scale.
///
/// The chart reads the store only in refreshData() and keeps its own copy of the points. It does not own
/// the store. Replots are deferred until the chart is actually painted, so hidden charts cost nothing.
class ScalarChart final : public QCustomPlot
{
    Q_OBJECT
public:
    ScalarChart(const models::scalars::ScalarStore* store, const QString& tag, QWidget* parent = nullptr);
    ScalarChart(const models::scalars::ScalarStore* store, const QString& tag, const ScalarChartOptions& options,
                QWidget* parent = nullptr);
    ~ScalarChart() override;

    QString tag() const { return m_tag; }
    /// The tag's display name and description from the writer's metadata, when there are any.
    QString displayName() const { return m_displayName; }
    QString description() const { return m_description; }

    /// Re-reads this tag of every run from the store (runs that appeared or disappeared included).
    void refreshData();
    void setStore(const models::scalars::ScalarStore* store);

    void setOptions(const ScalarChartOptions& options);
    ScalarChartOptions options() const { return m_options; }
    void setSmoothing(double weight);
    double smoothing() const { return m_options.smoothing; }
    void setXAxisMode(XAxisMode mode);
    XAxisMode xAxisMode() const { return m_options.xAxisMode; }
    void setLogY(bool enabled);
    bool logY() const { return m_options.logY; }
    void setIgnoreOutliers(bool enabled);
    bool ignoreOutliers() const { return m_options.ignoreOutliers; }
    void setRunVisible(const QString& run, bool visible);
    bool isRunVisible(const QString& run) const { return !m_options.hiddenRuns.contains(run); }

    /// Wheel zooming needs these modifiers held (none: the plain wheel zooms). Inside a scrolling page the
    /// panel asks for Ctrl so that the wheel keeps scrolling the page; a short hint says so.
    void setWheelZoomModifiers(Qt::KeyboardModifiers modifiers) { m_wheelZoomModifiers = modifiers; }
    Qt::KeyboardModifiers wheelZoomModifiers() const { return m_wheelZoomModifiers; }

    /// Fits both axes to the visible runs' data and follows new data again until the user zooms or pans.
    /// With ignoreOutliers the y range covers the 5th..95th percentile widened by half that spread, clamped
    /// to the data: isolated spikes and the first steep steps of a loss no longer squash the rest.
    void fitToData();
    /// Whether the view follows the data (true until the user zooms or pans, and again after a fit).
    bool isAutoFit() const { return m_autoFit; }
    /// Shows this x range (in the units of the x axis mode) with the y axis fitted to the data, and stops
    /// following the data, as a zoom by the user would; a saved view is restored this way.
    void setXRange(double lower, double upper);
    QCPRange xRange() const { return xAxis->range(); }

    /// Marks a step with a dashed vertical line (the evidence of a finding); nullopt removes it.
    void setMarkedStep(std::optional<qint64> step);
    std::optional<qint64> markedStep() const { return m_markedStep; }
    /// Where the marker is drawn on the x axis (in the current mode), or nullopt when it is not shown.
    std::optional<double> markerX() const;

    /// Runs that have this tag, in the store's run order.
    QStringList runs() const;
    /// The graphs of a run (nullptr when the run has no such tag), for tests and styling.
    QCPGraph* rawGraph(const QString& run) const;
    QCPGraph* smoothedGraph(const QString& run) const;
    /// Number of values of `run`, and how many of them are NaN or infinite.
    int pointCount(const QString& run) const;
    int nonFiniteCount(const QString& run) const;
    /// Positions (widget coordinates) where NaN/Inf markers are drawn at the current view.
    QList<QPointF> nonFiniteMarkerPositions() const;

    /// The hover text (HTML) for the x value under `pos` in widget coordinates; empty outside the plot area.
    QString hoverTextAt(const QPointF& pos) const;
    /// The same for an x value: the nearest point of each visible run with step, value, smoothed value,
    /// wall time and relative time.
    QString hoverTextForKey(double key) const;

    /// The numbers behind the chart (all points of the visible runs) for CSV export.
    ChartData chartData() const;
    ChartExportMenu* exportMenu() const { return m_exportMenu; }
    /// The context menu as it would pop up (the caller owns it).
    QMenu* createContextMenu(QWidget* parent);

    /// Replots now if something changed; normally this happens on the next paint.
    void replotIfNeeded();
    /// Whether a thin frame is painted around the chart on screen (not in exports); on in the panel.
    void setFramed(bool framed);
    /// Run names with their colours next to the title. Off in the panel (its runs list does that) but
    /// always drawn into exported pictures; on for standalone charts.
    void setLegendVisible(bool visible);
    bool isLegendVisible() const { return m_legendVisible; }

    QSize sizeHint() const override { return { 420, 280 }; }
    /// Small enough for the panel's small cards, whose width the grid does not let fall below this.
    QSize minimumSizeHint() const override { return { kMinimumWidth, kMinimumHeight }; }
    static constexpr int kMinimumWidth = 200;
    static constexpr int kMinimumHeight = 150;

signals:
    /// The user toggled the log scale from the context menu.
    void logYToggled(bool enabled);
    /// The user zoomed, panned or fitted the view.
    void viewChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    detail::ScalarCurve* curve(const QString& run) const;
    void applyTheme();
    void applyXAxisMode();
    void applyCurveStyle(detail::ScalarCurve& curve);
    void updateTitle();
    void updateLegend();
    /// Rebuilds the drawn (downsampled) data of every curve for the visible x range.
    void resample();
    void resampleCurve(detail::ScalarCurve& curve, const QCPRange& range, int buckets);
    void scheduleReplot();
    void onXRangeChanged(const QCPRange& range);
    void setHoverPosition(const QPointF& pos);
    void clearHover();
    void showHint(const QString& text);

    QPointer<const models::scalars::ScalarStore> m_store;
    QString m_tag;
    QString m_displayName;
    QString m_description;
    ScalarChartOptions m_options;
    std::vector<std::unique_ptr<detail::ScalarCurve>> m_curves;
    std::optional<qint64> m_markedStep;
    QCPItemStraightLine* m_marker = nullptr;
    void updateMarker();
    QCPLayoutGrid* m_header = nullptr;
    QCPTextElement* m_title = nullptr;
    detail::NonFiniteMarkers* m_markers = nullptr;
    detail::HoverOverlay* m_overlay = nullptr;
    ChartExportMenu* m_exportMenu = nullptr;
    QTimer* m_hintTimer = nullptr;
    Qt::KeyboardModifiers m_wheelZoomModifiers = Qt::NoModifier;
    bool m_autoFit = true;
    bool m_replotPending = true;
    bool m_resampling = false;
    bool m_dragging = false;
    bool m_framed = false;
    bool m_legendVisible = false;
    bool m_exporting = false;
};

/// A chart for `tag` that is not part of a panel, sized `size`, with its data loaded, fitted and drawn;
/// for the command line (`runlens export PATH --chart scalars:TAG --out FILE`, works offscreen).
std::unique_ptr<ScalarChart> createScalarChart(const models::scalars::ScalarStore& store, const QString& tag,
                                               const ScalarChartOptions& options = {}, QSize size = { 800, 500 });

/// Creates the chart as above and writes it to `fileName` (.png, .svg, .pdf or .csv by suffix).
bool exportScalarChart(const models::scalars::ScalarStore& store, const QString& tag, const QString& fileName,
                       const ScalarChartOptions& options = {}, QSize size = { 800, 500 },
                       QString* errorMessage = nullptr);

} // namespace runlens::widgets::scalars
