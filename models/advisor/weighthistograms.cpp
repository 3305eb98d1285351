#include "models/advisor/evidence.h"
#include "models/advisor/weightanalyser.h"

namespace runlens::models::advisor {

namespace {

bool sameHistogram(const summary::Histogram& a, const summary::Histogram& b)
{
    auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
    if (!same(a.min, b.min) || !same(a.max, b.max) || !same(a.count, b.count) || !same(a.sum, b.sum)
        || !same(a.sumSquares, b.sumSquares) || a.buckets.size() != b.buckets.size())
        return false;
    for (std::size_t i = 0; i < a.buckets.size(); ++i) {
        if (a.buckets[i].left != b.buckets[i].left || a.buckets[i].right != b.buckets[i].right
            || a.buckets[i].count != b.buckets[i].count)
            return false;
    }
    return true;
}

/// Mean |x| estimated from the buckets (each bucket's values at its centre).
double bucketMeanAbs(const summary::Histogram& h)
{
    double total = 0;
    double weighted = 0;
    for (const summary::HistogramBucket& b : h.buckets) {
        total += b.count;
        weighted += b.count * std::abs((b.left + b.right) / 2.0);
    }
    return total > 0 ? weighted / total : std::nan("");
}

} // namespace

void WeightAnalyser::analyseHistogram(const HistogramTrack& track, const TensorClass& cls)
{
    const bool weight = cls.role == TensorRole::Weight || cls.role == TensorRole::Bias;
    if (cls.role == TensorRole::Other || track.items.empty())
        return;
    m_sawTensors = true;
    m_sawWeights = m_sawWeights || weight;
    const Scope scope = tensorScope(track.run, -1, std::nullopt, cls.layer, track.tag);
    StepSeries gradientAbsMean;
    ZeroGradientCount zeroGradient;
    PendingUnchanged unchanged;
    unchanged.key = parameterKey(track.run, -1, track.tag);
    unchanged.scope = scope;
    unchanged.tensor = track.tag;
    unchanged.histogram = true;
    // What a histogram shows after its run's first overflow follows from it.
    const qint64 last = cutoff(track.run);
    bool overflowSeen = false;
    ZeroInitialisation zeroInit;
    for (std::size_t i = 0; i < track.items.size(); ++i) {
        const summary::Histogram& h = track.items[i];
        const QString evidence = histogramEvidence(track.run, track.tag, h.step);
        const qint64 bad = h.nanCount + h.posInfCount + h.negInfCount;
        if (bad > 0 && !overflowSeen) {
            overflowSeen = true;
            Overflow o;
            o.run = track.run;
            o.step = h.step;
            o.tensor = track.tag;
            o.layer = cls.layer;
            o.evidence = evidence;
            o.gradient = cls.role == TensorRole::Gradient;
            o.phase = weight ? 0 : (o.gradient ? 2 : 1);
            o.nan = h.nanCount;
            o.posInf = h.posInfCount;
            o.negInf = h.negInfCount;
            o.count = qint64(std::isnan(h.count) ? h.bucketTotal() : h.count) + bad;
            addOverflow(std::move(o));
        }
        if (h.step > last)
            continue;
        if (weight && h.step == 0 && std::isfinite(h.min) && std::isfinite(h.max)) {
            m_sawWeightAtStepZero = true;
            Scope at = scope;
            at.step = h.step;
            if (cls.role == TensorRole::Weight) {
                zeroInit.worst.offer(h.min == 0 && h.max == 0 ? 100.0 : 0.0, h.step, true);
                zeroInit.scope = at;
                zeroInit.evidence = evidence;
            }
            Worst range;
            range.offer(std::max(std::abs(h.min), std::abs(h.max)), h.step, true);
            emitWorst(kInitAbsMax, range, at, evidence,
                      { { QStringLiteral("min"), h.min }, { QStringLiteral("max"), h.max } });
        }
        if (weight && h.step > 0 && std::isfinite(h.min) && std::isfinite(h.max))
            zeroInit.seeLater(h.min != h.max);
        if (weight && i > 0) {
            m_sawWeightPair = true;
            ++unchanged.compared;
            unchanged.lastTo = h.step;
            if (sameHistogram(track.items[i - 1], h)) {
                SeriesRecord::Pair pair;
                pair.from = track.items[i - 1].step;
                pair.to = h.step;
                pair.unchanged = true;
                pair.magnitude = bucketMeanAbs(track.items[i - 1]);
                pair.epsilon = std::numeric_limits<float>::epsilon(); // summaries hold float32 weights
                unchanged.pairs.push_back(pair);
            }
        }
        if (cls.role == TensorRole::Gradient && std::isfinite(h.sumSquares) && h.count > 0) {
            gradientAbsMean.add(bucketMeanAbs(h), h.step);
            const bool zero = bad == 0 && h.min == 0 && h.max == 0;
            zeroGradient.add(zero, h.step);
            addGradientStep(track.run, -1, track.tag, h.step, zero ? 0.0 : bucketMeanAbs(h));
            if (bad == 0)
                addGradient(track.run, -1, h.step, track.tag, cls, h.sumSquares, std::sqrt(h.sumSquares / h.count),
                            evidence);
        }
    }
    emitZeroInit(zeroInit);
    if (cls.role == TensorRole::Gradient) {
        emitZeroGradient(zeroGradient, scope, gradientTarget(track.tag),
                         histogramEvidence(track.run, track.tag, zeroGradient.lastStep));
        if (!zeroGradient.never()) {
            const Worst typical = gradientAbsMean.median();
            emitWorst(kGradientAbsMean, typical, scope, histogramEvidence(track.run, track.tag, typical.step),
                      { { QStringLiteral("steps"), int(gradientAbsMean.values.size()) },
                        { QStringLiteral("from_step"), zeroGradient.firstStep },
                        { QStringLiteral("to_step"), zeroGradient.lastStep } });
        }
    }
    if (unchanged.compared > 0)
        m_unchanged.push_back(std::move(unchanged));
}

} // namespace runlens::models::advisor
