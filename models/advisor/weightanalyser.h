#pragma once

#include "advisor/analysis.h"
#include "advisor/tensorroles.h"

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

namespace runlens::advisor {

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
    double sumSquares = 0;
    int tensors = 0;
    QString evidence;
    std::map<QString, double> layerRms;
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

    /// A version after step 0; `varied`: its values are not all one number.
    void seeLater(bool varied) { leftZero = leftZero || varied; }
    bool report() const { return worst.has() && !leftZero; }
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
    void analyseSeries(const tensor::TensorSeries& series, const TensorClass& cls);
    void analyseHistogram(const HistogramTrack& track, const TensorClass& cls);
    void addOverflow(Overflow overflow);
    void addGradient(const QString& run, int rank, qint64 step, const TensorClass& cls, double sumSquares, double rms,
                     const QString& evidence);
    void emitOverflows();
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
    /// "Weight not changed" measurements, held until every gradient is known: a weight that receives no
    /// gradient does not change for that reason, which its own finding says.
    std::vector<std::pair<QString, Measurement>> m_unchanged;
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

} // namespace runlens::advisor
