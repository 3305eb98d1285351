#pragma once

#include "models/advisor/analysis.h"
#include "models/advisor/tensorroles.h"
#include "models/tensor/tensor.h"

#include <QHash>
#include <QSet>
#include <QString>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

// The weight, gradient and activation analyser (analyseWeights), shared by its parts: weightanalysis.cpp
// (the driver and the findings it emits), weightseries.cpp (tensor dumps over steps), weighthistograms.cpp
// (weight and gradient histograms) and gradientpatterns.cpp (overflow order, global norm, depth pattern).

namespace runlens::models::advisor {

inline const QString kTensorNonfinite = QStringLiteral("tensor.nonfinite");
inline const QString kGradientNonfinite = QStringLiteral("gradient.nonfinite");
inline const QString kInitZero = QStringLiteral("weight.init_zero_share");
inline const QString kInitAbsMax = QStringLiteral("weight.init_abs_max");
inline const QString kUnchanged = QStringLiteral("weight.unchanged_steps");
inline const QString kUpdateRatio = QStringLiteral("weight.update_ratio");
inline const QString kGradientAbsMean = QStringLiteral("gradient.abs_mean");
inline const QString kGradientZeroSteps = QStringLiteral("gradient.zero_step_share");
inline const QString kGradientDepth = QStringLiteral("gradient.depth_ratio");
inline const QString kGradientNorm = QStringLiteral("gradient.global_norm");
inline const QString kZeroShare = QStringLiteral("tensor.zero_share");
inline const QString kDeadRelu = QStringLiteral("activation.dead_share");
inline const QString kSaturation = QStringLiteral("activation.saturation_share");
inline const QString kFp16Risk = QStringLiteral("tensor.fp16_out_of_range");

inline constexpr double kFp16MinNormal = 6.103515625e-05;
inline constexpr double kFp16Max = 65504.0;
// The depth pattern needs a first, a middle and a last layer.
inline constexpr int kMinDepthLayers = 3;
// A gradient that is zero at one recorded step may be chance (every ReLU of a small batch off); zero at every
// one of at least this many steps, it is zero by construction.
inline constexpr int kMinNoGradientSteps = 2;
// An SGD step moves a weight w by lr * g and leaves it unchanged when that is below half its precision,
// eps * |w| / 2. With learning rates down to this one, a gradient below eps * |w| / kSmallestLearningRate is
// too small to move the weight: it vanishes, the weight is not frozen.
inline constexpr double kSmallestLearningRate = 1e-3;

inline double percent(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? 100.0 * double(part) / double(whole) : 0.0;
}

/// A tensor that has NaN or infinite values at a step, and where it sits in the order of execution.
struct Overflow
{
    QString run;
    int rank = -1;
    qint64 step = 0;
    QString tensor;
    QString layer;
    QString evidence;
    QString graphEvidence;
    bool gradient = false;
    int phase = 1; ///< 0: weights as the step starts, 1: forward values, 2: gradients (backward)
    double position = 0; ///< layer position; gradients run backwards, so their position is negated
    std::optional<double> timestamp; ///< MindSpore dump timestamp, the real execution order when known
    std::int64_t nan = 0;
    std::int64_t posInf = 0;
    std::int64_t negInf = 0;
    std::int64_t count = 0;
};

/// Whether overflow `a` runs before `b`: earlier step, dump timestamp, phase (weights, forward, backward),
/// then layer position.
bool executesBefore(const Overflow& a, const Overflow& b);

Scope tensorScope(const QString& run, int rank, std::optional<qint64> step, const QString& layer, const QString& name);

/// The worst value of one per-tensor figure over the steps, kept while the steps stream past.
struct Worst
{
    double value = std::numeric_limits<double>::quiet_NaN();
    qint64 step = -1;

    void offer(double candidate, qint64 at, bool higherIsWorse)
    {
        if (!std::isfinite(candidate))
            return;
        if (std::isnan(value) || (higherIsWorse ? candidate > value : candidate < value)) {
            value = candidate;
            step = at;
        }
    }
    bool has() const { return !std::isnan(value); }
};

/// A figure of one tensor at each recorded step, for the value it typically has: a pattern over the steps
/// rather than one step's dip.
struct StepSeries
{
    std::vector<std::pair<double, qint64>> values; ///< (value, step)

    void add(double value, qint64 step)
    {
        if (std::isfinite(value))
            values.emplace_back(value, step);
    }
    /// The lower median (a value some step really had) and its step.
    Worst median() const
    {
        Worst out;
        if (values.empty())
            return out;
        std::vector<std::pair<double, qint64>> sorted = values;
        const auto middle = sorted.begin() + std::ptrdiff_t((sorted.size() - 1) / 2);
        std::nth_element(sorted.begin(), middle, sorted.end());
        out.value = middle->first;
        out.step = middle->second;
        return out;
    }
};

/// Per run and step: the gradients' sum of squares (for the global norm) and each layer's gradient RMS
/// (for the depth pattern).
struct StepGradients
{
    /// One parameter's gradient at the step. A half-precision shadow copy of a gradient ("fc1.weight_grad_fp16"
    /// beside "fc1.weight_grad") is the same gradient: each parameter counts once, at full precision when
    /// both are recorded.
    struct Part
    {
        double sumSquares = 0;
        double rms = 0;
        bool half = false;
        bool biasGradient = false;
        QString layer;
        QString evidence;
    };
    std::map<QString, Part> parameters; ///< by the parameter the gradient is of
    QString evidence; ///< the first gradient recorded at the step
};

struct GradientKey
{
    QString run;
    int rank = -1;
    qint64 step = 0;
    bool operator<(const GradientKey& o) const { return std::tie(run, rank, step) < std::tie(o.run, o.rank, o.step); }
};

/// The depth pattern of one step: the first layer's gradient RMS against the last one's.
struct DepthAtStep
{
    qint64 step = 0;
    double ratio = 0;
    QString first;
    QString last;
    double firstRms = 0;
    double lastRms = 0;
    int layers = 0;
    QString evidence;
};

/// A weight's share of zeros at step 0, reported only when the weight stays where zeros leave it. All-zero
/// weights are a fault when they keep a layer's units identical; zero by design (LoRA's B, a residual
/// branch's last norm, a zero-initialised head) is left as soon as training moves the weight, and a
/// recorded later step that is no longer constant shows it learnt apart.
struct ZeroInitialisation
{
    Worst worst;
    Scope scope;
    QString evidence;
    bool leftZero = false;
    bool sawLater = false;

    /// A version after step 0; `varied`: its values are not all one number.
    void seeLater(bool varied)
    {
        sawLater = true;
        leftZero = leftZero || varied;
    }
    /// Zeros are a fault only while they last: with step 0 alone recorded, nothing tells whether they do.
    bool report() const { return worst.has() && sawLater && !leftZero; }
};

/// How often a gradient was zero everywhere, over the steps it was recorded at.
struct ZeroGradientCount
{
    int steps = 0;
    int zeroSteps = 0;
    qint64 firstStep = -1;
    qint64 lastStep = -1;

    void add(bool zero, qint64 step)
    {
        ++steps;
        zeroSteps += zero ? 1 : 0;
        if (firstStep < 0 || step < firstStep)
            firstStep = step;
        lastStep = std::max(lastStep, step);
    }
    /// Zero at every one of enough recorded steps: the parameter receives no gradient by construction.
    bool never() const { return steps >= kMinNoGradientSteps && zeroSteps == steps; }
};

/// Key of a parameter within its run and rank, to meet a weight with its gradient.
inline QString parameterKey(const QString& run, int rank, const QString& parameter)
{
    return run + QLatin1Char('\n') + QString::number(rank) + QLatin1Char('\n') + parameter;
}

/// What one tensor series measured at each step, kept until the run's first overflow is known: what a
/// tensor shows after it follows from the overflow and is left out.
struct SeriesRecord
{
    struct At
    {
        qint64 step = 0;
        double zeroShare = std::numeric_limits<double>::quiet_NaN();
        double deadShare = std::numeric_limits<double>::quiet_NaN();
        double saturation = std::numeric_limits<double>::quiet_NaN();
        double fp16Risk = std::numeric_limits<double>::quiet_NaN();
        /// Share of the values that are non-zero in the full-precision copy and exactly zero in this one.
        double underflow = std::numeric_limits<double>::quiet_NaN();
        QString master; ///< the full-precision copy `underflow` was measured against
        double gradientAbsMean = std::numeric_limits<double>::quiet_NaN();
        int gradientZero = -1; ///< 1: zero everywhere, 0: not, -1: not a gradient
        int varied = -1; ///< a weight after step 0: 1 when its values are not all one number
    };
    /// Two versions of a weight: unchanged as numpy.allclose says, else the update ratio per step.
    struct Pair
    {
        qint64 from = 0;
        qint64 to = 0;
        bool unchanged = false;
        double ratio = std::numeric_limits<double>::quiet_NaN();
        double magnitude = 0; ///< mean |w| of the earlier version
        double epsilon = 0; ///< machine epsilon of the weight's dtype
    };
    std::vector<At> steps;
    std::vector<Pair> pairs;
    ZeroInitialisation zeroInit;
};

/// A half-precision copy against its full-precision one at a step: values non-zero there and exactly zero
/// here underflowed in the cast.
struct Underflow
{
    std::int64_t zeroed = 0;
    std::int64_t nonzero = 0; ///< non-zero finite values of the full-precision copy
    QString master; ///< the full-precision copy's name
};

/// A weight's unchanged step pairs, held until every gradient is known: a weight that does not change while
/// its gradient is zero or absent is frozen; one whose gradient is non-zero but too small to move it within
/// its precision has vanishing gradients, which the gradient's own findings say. Only a weight that is still
/// unchanged at its last compared pair is frozen: one that moves again afterwards was held for a step (a head
/// zeroed on purpose leaves the layers before it without gradient at step 0 only).
struct PendingUnchanged
{
    QString key; ///< parameterKey()
    Scope scope;
    QString tensor;
    bool histogram = false;
    int compared = 0;
    qint64 lastTo = -1; ///< the later step of the last pair compared
    std::vector<SeriesRecord::Pair> pairs; ///< the unchanged ones
};

/// The first non-finite value of a run (loss, weight, gradient or activation), after which the other rules
/// see its consequences rather than new causes.
struct FirstOverflow
{
    qint64 step = std::numeric_limits<qint64>::max();
    QString tensor;
    bool known() const { return step != std::numeric_limits<qint64>::max(); }
};

class WeightAnalyser
{
public:
    WeightAnalyser(const AdvisorInput& input, AnalysisContext& context)
        : m_input(input)
        , m_context(context)
    {
        m_rtol = context.parameter(QStringLiteral("weight-not-changed"), QStringLiteral("rtol"), 1e-5);
        m_atol = context.parameter(QStringLiteral("weight-not-changed"), QStringLiteral("atol"), 1e-8);
        m_epsilon = context.parameter(QStringLiteral("weight-change-too-large"), QStringLiteral("epsilon"), 1e-9);
        m_saturationLow[int(ActivationKind::Tanh)] = std::tanh(-8.8);
        m_saturationHigh[int(ActivationKind::Tanh)] = std::tanh(8.8);
        m_saturationLow[int(ActivationKind::Sigmoid)] = 1.0 / (1.0 + std::exp(16.2));
        m_saturationHigh[int(ActivationKind::Sigmoid)] = 1.0 / (1.0 + std::exp(-16.2));
    }

    void run();

private:
    void buildLayerOrder();
    SeriesRecord collectSeries(const tensor::TensorSeries& series, const TensorClass& cls);
    void finishSeries(const tensor::TensorSeries& series, const TensorClass& cls, SeriesRecord& record);
    std::optional<Underflow> underflowOf(const tensor::TensorSeries& series, const tensor::Tensor& half,
                                         qint64 step) const;
    void analyseHistogram(const HistogramTrack& track, const TensorClass& cls);
    void findFirstOverflows();
    /// The last step whose measurements count in `run`: its first overflow's, or every step.
    qint64 cutoff(const QString& run) const;
    void addOverflow(Overflow overflow);
    void addGradient(const QString& run, int rank, qint64 step, const QString& name, const TensorClass& cls,
                     double sumSquares, double rms, const QString& evidence);
    void addGradientStep(const QString& run, int rank, const QString& name, qint64 step, double meanAbs);
    /// Whether a weight's gradient explains that it did not change between the pair's steps: non-zero, but too
    /// small against the weight's magnitude and precision to move it.
    bool gradientTooSmallToMove(const QString& key, const SeriesRecord::Pair& pair) const;
    void emitOverflows();
    /// The sentence an overflow's finding ends with: the run's first overflow, whose consequences the other
    /// rules leave out.
    QString consequences(const Overflow& overflow) const;
    void emitGradientPatterns();
    void emitWorst(const QString& metric, const Worst& worst, const Scope& base, const QString& evidence,
                   const QVariantMap& facts);
    std::optional<Measurement> makeWorst(const QString& metric, const Worst& worst, const Scope& base,
                                         const QString& evidence, const QVariantMap& facts) const;
    void emitZeroGradient(const ZeroGradientCount& count, const Scope& scope, const QString& parameter,
                          const QString& evidence);
    void emitZeroInit(const ZeroInitialisation& init);
    void emitUnchanged();
    void markAll();

    QString graphEvidenceOf(const QString& layer) const;

    const AdvisorInput& m_input;
    AnalysisContext& m_context;
    double m_rtol = 1e-5;
    double m_atol = 1e-8;
    double m_epsilon = 1e-9;
    double m_saturationLow[4] = {};
    double m_saturationHigh[4] = {};
    LayerOrder m_order;
    std::vector<Overflow> m_overflows;
    std::map<GradientKey, StepGradients> m_gradients;
    /// Parameters whose gradient is zero at every recorded step (parameterKey()).
    QSet<QString> m_noGradient;
    /// "Weight not changed" pairs, held until every gradient is known (PendingUnchanged).
    std::vector<PendingUnchanged> m_unchanged;
    /// Per parameter (parameterKey()), the steps its gradient was recorded at and its mean |g| there.
    QHash<QString, std::map<qint64, double>> m_gradientSteps;
    /// Per run, its first overflow.
    QHash<QString, FirstOverflow> m_firstOverflow;
    /// Series by parameterKey(run, rank, name), to meet a half-precision copy with its full-precision one.
    QHash<QString, const tensor::TensorSeries*> m_seriesByName;
    // What the data allowed: a metric with no source stays missing with the reason set in markAll().
    bool m_sawTensors = false;
    bool m_sawWeights = false;
    bool m_sawWeightAtStepZero = false;
    bool m_sawWeightPair = false;
    bool m_sawWeightTensorPair = false; ///< the update ratio needs values, not histograms
    bool m_sawGradients = false;
    bool m_sawGradientSteps = false; ///< a gradient recorded at enough steps to tell "never" from "once"
    bool m_sawDepth = false;
    bool m_sawRelu = false;
    bool m_sawSaturating = false;
    bool m_sawHalf = false;
    bool m_sawTensorValues = false;
};

} // namespace runlens::models::advisor
