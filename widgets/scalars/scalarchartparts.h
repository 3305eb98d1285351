#pragma once

// Building blocks of ScalarChart that are not part of its public interface.

#include "widgets/scalars/scalarformat.h"

#include <QColor>
#include <QPointF>
#include <QString>

#include <qcustomplot.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace runlens::widgets::scalars::detail {

/// One run's series of one tag as the chart uses it: the store's points copied (the chart never keeps
/// pointers into the store, so coalesced updates are safe), smoothed, with x values for the current mode.
struct ScalarCurve
{
    QString run;
    QString label; ///< the run as users see it
    QColor color;
    bool visible = true;
    std::vector<qint64> steps; ///< point order (step order after preemption)
    std::vector<double> wallTimes;
    std::vector<double> values;
    std::vector<double> smoothed;
    std::vector<double> x; ///< x of each point for the current mode, point order
    double firstWallTime = 0.0;
    std::size_t nonFiniteCount = 0;
    QCPGraph* raw = nullptr;
    QCPGraph* smooth = nullptr;

    /// Ascending-x view. Empty unless `x` is not ascending (wall time going backwards), in which case
    /// `order` maps a sorted position to a point index and the sorted* arrays hold the permuted data.
    std::vector<std::uint32_t> order;
    std::vector<double> sortedX;
    std::vector<double> sortedValues;
    std::vector<double> sortedSmoothed;

    std::size_t size() const { return values.size(); }
    std::span<const double> xAscending() const { return order.empty() ? x : sortedX; }
    std::span<const double> valuesAscending() const { return order.empty() ? values : sortedValues; }
    std::span<const double> smoothedAscending() const { return order.empty() ? smoothed : sortedSmoothed; }
    std::size_t pointIndex(std::size_t sortedPos) const { return order.empty() ? sortedPos : order[sortedPos]; }

    /// Recomputes x for `mode` and the ascending view.
    void updateX(XAxisMode mode);
    /// Recomputes the smoothed values (and their ascending copy).
    void updateSmoothing(double weight);
    /// The sorted position whose x is nearest to `key`, or -1 when empty.
    std::ptrdiff_t nearest(double key) const;
};

/// Whether a value can be drawn as a line point: finite, and positive on a log axis.
inline bool isDrawable(double y, bool logY)
{
    return std::isfinite(y) && (!logY || y > 0.0);
}

/// The ranges that show all visible curves. With ignoreOutliers the y range covers the 5th..95th percentile
/// widened by half that spread, clamped to the data. On a log axis the work happens in log10 space.
struct FitRanges
{
    QCPRange x;
    QCPRange y;
};
FitRanges fitRanges(const std::vector<std::unique_ptr<ScalarCurve>>& curves, bool logY, bool ignoreOutliers);

/// The hover tooltip (HTML): for each visible curve the point nearest to `key` with step, value, smoothed
/// value, wall time and relative time.
QString hoverTable(const std::vector<std::unique_ptr<ScalarCurve>>& curves, double key, const QString& tag);

/// Marks NaN and ±Inf values at the top (NaN, +Inf) or bottom (−Inf) edge of the plot area, in the run's
/// colour with a red outline, so that a loss that became NaN is visible although it cannot be drawn.
class NonFiniteMarkers final : public QCPLayerable
{
public:
    NonFiniteMarkers(QCustomPlot* plot, const std::vector<std::unique_ptr<ScalarCurve>>* curves);

    /// Screen positions (plot widget coordinates) of the markers currently drawn, for hit tests.
    struct Hit
    {
        QPointF pos;
        const ScalarCurve* curve = nullptr;
        std::size_t pointIndex = 0;
    };
    std::vector<Hit> markerPositions() const;

    static constexpr double kSize = 7.0;
    static constexpr double kSpacing = 10.0; ///< minimum distance between markers of one run and edge, pixels

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) override;
    QRect clipRect() const override;

private:
    const std::vector<std::unique_ptr<ScalarCurve>>* m_curves;
};

/// The hover decoration: a vertical line at the hovered x, a dot on every run's nearest point, and an
/// optional hint text. Lives on a buffered layer so that hovering repaints only this layer.
class HoverOverlay final : public QCPLayerable
{
public:
    explicit HoverOverlay(QCustomPlot* plot);

    struct Dot
    {
        double key = 0.0;
        double value = 0.0;
        QColor color;
    };
    void setHover(double key, std::vector<Dot> dots);
    void clearHover();
    bool hasHover() const { return m_active; }
    void setHint(const QString& hint) { m_hint = hint; }
    QString hint() const { return m_hint; }
    void setColors(const QColor& line, const QColor& background, const QColor& text);

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) override;
    QRect clipRect() const override;

private:
    bool m_active = false;
    double m_key = 0.0;
    std::vector<Dot> m_dots;
    QString m_hint;
    QColor m_lineColor;
    QColor m_background;
    QColor m_textColor;
};

/// Step axis labels: 950, 12.5k, 3M, never a fractional step between ticks.
class CompactNumberTicker final : public QCPAxisTicker
{
protected:
    double getTickStep(const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

/// Relative time labels with nice steps: 30s, 5m, 1h 30m, 2d.
class DurationTicker final : public QCPAxisTickerTime
{
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

} // namespace runlens::widgets::scalars::detail
