#include "models/advisor/analysis.h"
#include "models/advisor/evidence.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace runlens::models::advisor {

namespace {

const QString kNonfinite = QStringLiteral("loss.nonfinite");
const QString kWindowDecrease = QStringLiteral("loss.window_decrease");
const QString kSpike = QStringLiteral("loss.spike_ratio");

// Fewer points than this per half-window say nothing about a trend.
constexpr int kMinHalfWindow = 5;
// A spike needs a baseline of at least this many earlier finite values.
constexpr int kMinSpikeBaseline = 5;
// Above this many spikes per tag only the largest ones are measured, so a wildly noisy run stays readable.
constexpr std::size_t kMaxSpikesPerTag = 200;
// The level a loss starts from: the median of this many first finite values (one batch may be odd).
constexpr std::size_t kStartPoints = 10;

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::advisor)
};

bool isLossTag(const QString& tag)
{
    return tag.contains(QLatin1String("loss"), Qt::CaseInsensitive);
}

Scope scopeOf(const ScalarTrack& track, std::optional<qint64> step)
{
    Scope scope;
    scope.run = track.run;
    scope.step = step;
    scope.tensor = track.tag;
    return scope;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return std::nan("");
    const auto middle = values.begin() + values.size() / 2;
    std::nth_element(values.begin(), middle, values.end());
    if (values.size() % 2)
        return *middle;
    const double upper = *middle;
    const double lower = *std::max_element(values.begin(), middle);
    return (lower + upper) / 2.0;
}

// The first non-finite value is the one to look at: everything after it is contaminated by it.
void measureNonfinite(const ScalarTrack& track, AnalysisContext& context)
{
    const std::size_t n = std::min(track.steps.size(), track.values.size());
    int count = 0;
    std::size_t first = n;
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(track.values[i])) {
            ++count;
            if (first == n)
                first = i;
        }
    }
    Measurement m;
    m.metric = kNonfinite;
    m.value = count;
    m.facts.insert(QStringLiteral("tag"), track.tag);
    if (first == n) {
        m.scope = scopeOf(track, std::nullopt);
        m.order = n ? double(track.steps.back()) : 0.0;
        m.evidence << scalarEvidence(track.run, track.tag, -1);
        context.add(std::move(m));
        return;
    }
    const double bad = track.values[first];
    const qint64 step = track.steps[first];
    m.scope = scopeOf(track, step);
    m.order = double(step);
    m.facts.insert(QStringLiteral("kind"), std::isnan(bad) ? QStringLiteral("NaN") : Text::tr("infinite"));
    m.facts.insert(QStringLiteral("count"), count);
    if (first > 0) {
        m.facts.insert(QStringLiteral("last_finite"), track.values[first - 1]);
        m.facts.insert(QStringLiteral("last_finite_step"), track.steps[first - 1]);
    } else {
        m.facts.insert(QStringLiteral("last_finite"), Text::tr("none"));
        m.facts.insert(QStringLiteral("last_finite_step"), Text::tr("none"));
    }
    m.evidence << scalarEvidence(track.run, track.tag, step);
    if (first > 0)
        m.evidence << scalarEvidence(track.run, track.tag, track.steps[first - 1]);
    context.add(std::move(m));
}

struct FinitePoint
{
    qint64 step = 0;
    double value = 0.0;
};

/// The level a loss starts from.
double startLevel(const std::vector<FinitePoint>& points, std::size_t count)
{
    std::vector<double> first;
    for (std::size_t i = 0; i < std::min(count, points.size()); ++i)
        first.push_back(points[i].value);
    return median(std::move(first));
}

/// Mean and variance of the values of points[begin, end).
std::pair<double, double> meanAndVariance(const std::vector<FinitePoint>& points, std::size_t begin, std::size_t end)
{
    const double n = double(end - begin);
    double sum = 0.0;
    for (std::size_t i = begin; i < end; ++i)
        sum += points[i].value;
    const double mean = sum / n;
    double squares = 0.0;
    for (std::size_t i = begin; i < end; ++i)
        squares += (points[i].value - mean) * (points[i].value - mean);
    return { mean, n > 1 ? squares / (n - 1) : 0.0 };
}

std::vector<FinitePoint> finitePoints(const ScalarTrack& track)
{
    std::vector<FinitePoint> points;
    const std::size_t n = std::min(track.steps.size(), track.values.size());
    points.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (std::isfinite(track.values[i]))
            points.push_back({ track.steps[i], track.values[i] });
    }
    return points;
}

/// Relative decrease (percent) of the mean loss over the last window against the window before it. Means,
/// not minima, so batch noise neither hides a stall nor fakes progress. A loss that has fallen far from where
/// it started and no longer rises has converged: its flat end is a plateau, not a stall, and is not measured.
bool measureWindowDecrease(const ScalarTrack& track, const std::vector<FinitePoint>& points, AnalysisContext& context)
{
    const QString rule = QStringLiteral("loss-not-decreasing");
    const int requested = std::max(2, int(context.parameter(rule, QStringLiteral("window"), 50)));
    const double convergedFall = context.parameter(rule, QStringLiteral("converged_fall"), 50.0);
    const int half = std::min<int>(requested, int(points.size() / 2));
    if (half < kMinHalfWindow)
        return false;
    const std::size_t lastBegin = points.size() - std::size_t(half);
    const std::size_t previousBegin = lastBegin - std::size_t(half);
    const auto [previous, previousVariance] = meanAndVariance(points, previousBegin, lastBegin);
    const auto [last, lastVariance] = meanAndVariance(points, lastBegin, points.size());

    const double scale = std::abs(previous);
    const double decrease = scale > 0 ? 100.0 * (previous - last) / scale : (last < previous ? 100.0 : 0.0);

    const double start = startLevel(points, std::min<std::size_t>(kStartPoints, std::size_t(half)));
    const double fall = start != 0 ? 100.0 * (start - last) / std::abs(start) : 0.0;
    // Two standard errors of the difference of the window means: a rise within it is batch noise.
    const double noise = 2.0 * std::sqrt((previousVariance + lastVariance) / half);
    const bool flat = decrease < context.threshold(rule, 1.0);
    if (flat && fall >= convergedFall && last - previous <= noise)
        return true;

    Measurement m;
    m.metric = kWindowDecrease;
    m.value = decrease;
    m.scope = scopeOf(track, points.back().step);
    m.order = double(points.back().step);
    m.facts.insert(QStringLiteral("tag"), track.tag);
    m.facts.insert(QStringLiteral("window"), half);
    m.facts.insert(QStringLiteral("previous_mean"), previous);
    m.facts.insert(QStringLiteral("last_mean"), last);
    m.facts.insert(QStringLiteral("from_step"), points[previousBegin].step);
    m.facts.insert(QStringLiteral("window_start"), points[lastBegin].step);
    m.facts.insert(QStringLiteral("to_step"), points.back().step);
    m.facts.insert(QStringLiteral("start"), start);
    m.evidence << scalarEvidence(track.run, track.tag, points[lastBegin].step);
    context.add(std::move(m));
    return true;
}

/// Ratio of each loss value to the median of the finite values before it (a trailing window); a jump to
/// several times the recent level is a spike. Medians keep an earlier spike from hiding the next one. The
/// level is taken as at least a fraction of where the loss started: near zero, a converged loss's batch noise
/// is several times its tiny median without anything going wrong.
bool measureSpikes(const ScalarTrack& track, const std::vector<FinitePoint>& points, AnalysisContext& context)
{
    const QString rule = QStringLiteral("loss-spike");
    const int window = std::max(kMinSpikeBaseline, int(context.parameter(rule, QStringLiteral("window"), 20)));
    const double threshold = context.threshold(rule, 3.0);
    if (int(points.size()) <= kMinSpikeBaseline)
        return false;
    const double start = startLevel(points, std::size_t(window));
    const double floorPercent = context.parameter(rule, QStringLiteral("baseline_floor"), 10.0);
    const double baselineFloor = start > 0 ? start * floorPercent / 100.0 : 0.0;

    struct Spike
    {
        std::size_t index;
        double ratio;
        double baseline;
    };
    std::vector<Spike> spikes;
    Spike largest { 0, -std::numeric_limits<double>::infinity(), 0.0 };
    std::vector<double> recent;
    for (std::size_t i = kMinSpikeBaseline; i < points.size(); ++i) {
        const std::size_t begin = i > std::size_t(window) ? i - std::size_t(window) : 0;
        recent.clear();
        for (std::size_t j = begin; j < i; ++j)
            recent.push_back(points[j].value);
        const double recentMedian = median(recent);
        // Ratios only mean something for a positive level (losses are; a log-likelihood may not be).
        if (!(recentMedian > 0))
            continue;
        const double baseline = std::max(recentMedian, baselineFloor);
        const double ratio = points[i].value / baseline;
        const Spike spike { i, ratio, baseline };
        if (ratio > largest.ratio)
            largest = spike;
        if (ratio > threshold)
            spikes.push_back(spike);
    }
    if (!std::isfinite(largest.ratio))
        return false;
    if (spikes.size() > kMaxSpikesPerTag) {
        std::partial_sort(spikes.begin(), spikes.begin() + kMaxSpikesPerTag, spikes.end(),
                          [](const Spike& a, const Spike& b) { return a.ratio > b.ratio; });
        spikes.resize(kMaxSpikesPerTag);
    }
    // The largest ratio is measured even below the threshold, so the rule reports what it saw.
    if (std::none_of(spikes.begin(), spikes.end(), [&](const Spike& s) { return s.index == largest.index; }))
        spikes.push_back(largest);
    for (const Spike& spike : spikes) {
        const FinitePoint& point = points[spike.index];
        Measurement m;
        m.metric = kSpike;
        m.value = spike.ratio;
        m.scope = scopeOf(track, point.step);
        m.order = double(point.step);
        m.facts.insert(QStringLiteral("tag"), track.tag);
        m.facts.insert(QStringLiteral("loss"), point.value);
        m.facts.insert(QStringLiteral("baseline"), spike.baseline);
        m.facts.insert(QStringLiteral("floor"), QStringLiteral("%1 %").arg(floorPercent));
        m.facts.insert(QStringLiteral("window"), window);
        m.evidence << scalarEvidence(track.run, track.tag, point.step);
        context.add(std::move(m));
    }
    return true;
}

} // namespace

void analyseScalars(const AdvisorInput& input, AnalysisContext& context)
{
    bool anyLoss = false;
    bool trend = false;
    bool spikes = false;
    for (const ScalarTrack& track : input.scalars) {
        if (context.isCanceled())
            return;
        if (!isLossTag(track.tag))
            continue;
        anyLoss = true;
        measureNonfinite(track, context);
        const std::vector<FinitePoint> points = finitePoints(track);
        trend = measureWindowDecrease(track, points, context) || trend;
        spikes = measureSpikes(track, points, context) || spikes;
    }
    if (!anyLoss) {
        const QString reason = input.scalars.empty()
            ? Text::tr("no scalar series is loaded")
            : Text::tr("no scalar tag looks like a loss (none contains \"loss\")");
        for (const QString& metric : { kNonfinite, kWindowDecrease, kSpike })
            context.markMissing(metric, reason);
        return;
    }
    context.markEvaluated(kNonfinite);
    if (trend)
        context.markEvaluated(kWindowDecrease); // a converged loss is evaluated without a measurement
    else
        context.markMissing(kWindowDecrease,
                            Text::tr("no loss series has enough finite points to compare two windows"));
    if (!spikes)
        context.markMissing(kSpike, Text::tr("no loss series has enough positive finite points for a spike baseline"));
}

} // namespace runlens::models::advisor
