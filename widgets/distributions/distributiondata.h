#pragma once

#include "models/summary/summarydata.h"
#include "widgets/common/chartdata.h"
#include "widgets/scalars/scalarformat.h"

#include <QColor>
#include <QString>

#include <array>
#include <vector>

namespace runlens::widgets::distributions {

/// The two ways the Distributions panel draws a histogram series.
enum class DistributionMode {
    Bands, ///< TensorBoard's distributions: percentile bands over steps
    Offset, ///< TensorBoard's offset histograms / MindInsight's ridgeline: one outline per step
};

/// TensorBoard's compressed-histogram basis points, as fractions: minimum, ±1.5, ±1, ±0.5 standard
/// deviations of a normal distribution, median, maximum.
inline constexpr std::array<double, 9> kBasisPoints = { 0.0, 0.0668, 0.1587, 0.3085, 0.5, 0.6915, 0.8413, 0.9332, 1.0 };
inline constexpr std::size_t kMedianIndex = 4;

/// One run's histogram series of one tag prepared for drawing: the histograms copied out of the store
/// (charts never keep pointers into it), their percentiles at the basis points, and what the x axis needs.
struct DistributionSeries
{
    QString run;
    QString runLabel; ///< the run as users see it (runDisplayName); empty: run
    QString tag;
    std::vector<models::summary::Histogram> histograms; ///< step order
    std::vector<std::array<double, 9>> percentiles; ///< per histogram, NaN when it is empty
    double firstWallTime = 0.0;
    double lowestEdge = 0.0; ///< over all histograms; 0..1 when there are no counted values
    double highestEdge = 1.0;
    qint64 seen = 0;

    std::size_t size() const { return histograms.size(); }
    bool isEmpty() const { return histograms.empty(); }
    /// The coordinate of histogram `i` on the step axis for `mode`.
    double key(std::size_t i, scalars::XAxisMode mode) const;
    /// The histogram whose key is nearest to `key` (ties go to the later one), or -1 when empty.
    std::ptrdiff_t nearest(double key, scalars::XAxisMode mode) const;
    /// Indices of the histograms with NaN or infinite values.
    std::vector<std::size_t> nonFiniteIndices() const;
};

/// Copies and prepares a series (percentiles are computed here, once per refresh).
DistributionSeries prepareSeries(const QString& run, const models::summary::HistogramSeries& series);

/// Redistributes a histogram's counts over `bins` equal bins between `lo` and `hi`, spreading each bucket
/// uniformly over its width (a zero-width bucket falls into the bin that holds it). Lets histograms whose
/// writers chose different bucket edges be drawn on one scale.
std::vector<double> rebin(const models::summary::Histogram& histogram, double lo, double hi, int bins);

/// "0%", "6.68%", … "100%": the label of a basis point.
QString basisPointLabel(std::size_t index);

/// Short note naming the steps with NaN or ±Inf values ("NaN at steps 10, 20; +Inf at step 30"), empty when
/// there are none. Lists at most `maxSteps` steps per kind.
QString nonFiniteNote(const DistributionSeries& series, int maxSteps = 6);

/// The hover text (HTML) of histogram `index`: run, tag, step, times, statistics, non-finite counts, the
/// percentiles and the buckets as a small bar table in `color`.
QString histogramTooltip(const DistributionSeries& series, std::size_t index, const QColor& color);

/// The numbers behind a chart: in Bands mode one row per step with the nine percentiles, in Offset mode one
/// row per bucket (step, left, right, count). Non-finite counts are columns in both.
ChartData chartData(const DistributionSeries& series, DistributionMode mode);

} // namespace runlens::widgets::distributions
