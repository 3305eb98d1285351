#pragma once

// Building blocks of DistributionChart that are not part of its public interface.

#include "widgets/distributions/distributiondata.h"

#include <QColor>
#include <QPolygonF>

#include <qcustomplot.h>

#include <vector>

namespace runlens::widgets::distributions::detail {

/// Outline height in Offset mode as a share of the plot height: outlines overlap like TensorBoard's.
inline constexpr double kRidgeShare = 0.24;

/// The histograms of Offset mode after rebinning to one scale: which histograms are drawn and their bins.
struct Ridges
{
    std::vector<std::size_t> indices; ///< into the series, step order
    std::vector<std::vector<double>> bins; ///< per drawn histogram
    double lo = 0.0;
    double hi = 1.0;
    double maxCount = 1.0; ///< tallest bin over all drawn histograms
};

/// Picks at most `maxOutlines` histograms evenly (the latest always) and rebins them to `bins` bins over
/// the series' value range.
Ridges buildRidges(const DistributionSeries& series, int maxOutlines, int bins);

/// The outline of one histogram in pixels: a polyline through the bin centres that starts and ends on the
/// baseline at `key`, peaking `height` pixels above it for the tallest bin of the chart.
QPolygonF ridgePolygon(const QCPAxis* keyAxis, const QCPAxis* valueAxis, double key, const std::vector<double>& bins,
                       const Ridges& ridges, double height);

/// Draws the Offset-mode outlines, oldest first so newer steps cover older ones; older ones are lighter.
class RidgelineLayer final : public QCPLayerable
{
public:
    explicit RidgelineLayer(QCustomPlot* plot);

    void setData(const DistributionSeries* series, scalars::XAxisMode mode, Ridges ridges);
    const Ridges& ridges() const { return m_ridges; }
    void setColors(const QColor& color, const QColor& background);
    /// Outline height in pixels for the current plot size.
    double ridgeHeight() const;

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) override;
    QRect clipRect() const override;

private:
    const DistributionSeries* m_series = nullptr;
    scalars::XAxisMode m_mode = scalars::XAxisMode::Step;
    Ridges m_ridges;
    QColor m_color;
    QColor m_background;
};

/// Red marks at the steps whose histogram counted NaN or ±Inf values: along the top edge in Bands mode, along
/// the left edge at the outline's baseline in Offset mode.
class NonFiniteMarks final : public QCPLayerable
{
public:
    explicit NonFiniteMarks(QCustomPlot* plot);

    void setData(const DistributionSeries* series, DistributionMode mode, scalars::XAxisMode xMode);
    QList<QPointF> positions() const;

    static constexpr double kSize = 7.0;

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) override;
    QRect clipRect() const override;

private:
    const DistributionSeries* m_series = nullptr;
    DistributionMode m_mode = DistributionMode::Bands;
    scalars::XAxisMode m_xMode = scalars::XAxisMode::Step;
};

/// The hovered step: a guide line at its key and, in Bands mode, a dot on the median; in Offset mode the
/// step's outline drawn strongly. Lives on a buffered layer so that hovering repaints only this layer.
class DistributionHover final : public QCPLayerable
{
public:
    DistributionHover(QCustomPlot* plot, const RidgelineLayer* ridges);

    void setHover(const DistributionSeries* series, DistributionMode mode, scalars::XAxisMode xMode,
                  std::ptrdiff_t index);
    void clear() { m_index = -1; }
    bool hasHover() const { return m_index >= 0; }
    void setColors(const QColor& line, const QColor& accent);

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) override;
    QRect clipRect() const override;

private:
    const RidgelineLayer* m_ridges;
    const DistributionSeries* m_series = nullptr;
    DistributionMode m_mode = DistributionMode::Bands;
    scalars::XAxisMode m_xMode = scalars::XAxisMode::Step;
    std::ptrdiff_t m_index = -1;
    QColor m_line;
    QColor m_accent;
};

/// Wraps another ticker and drops the ticks outside a range: the step axis of Offset mode reaches above the
/// first step to make room for the oldest outline, where step labels would mean nothing.
class ClampedTicker final : public QCPAxisTicker
{
public:
    ClampedTicker(QSharedPointer<QCPAxisTicker> inner, double lower, double upper);

    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision, QVector<double>& ticks,
                  QVector<double>* subTicks, QVector<QString>* tickLabels) override;

private:
    QSharedPointer<QCPAxisTicker> m_inner;
    double m_lower;
    double m_upper;
};

/// How many equal bins Offset mode redistributes a series into: about as many as its writer used (so coarse
/// histograms keep their shape instead of turning into staircases), within sane bounds.
int outlineBinCount(const DistributionSeries& series, int maximum);

} // namespace runlens::widgets::distributions::detail
