#include "advisor/analysis.h"
#include "advisor/evidence.h"
#include "advisor/tensorroles.h"
#include "tensor/tensorstatistics.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <vector>

namespace runlens::advisor {

namespace {

using tensor::Tensor;
using tensor::TensorSeries;

const QString kTensorNonfinite = QStringLiteral("tensor.nonfinite");
const QString kGradientNonfinite = QStringLiteral("gradient.nonfinite");
const QString kInitZero = QStringLiteral("weight.init_zero_share");
const QString kInitAbsMax = QStringLiteral("weight.init_abs_max");
const QString kUnchanged = QStringLiteral("weight.unchanged_steps");
const QString kUpdateRatio = QStringLiteral("weight.update_ratio");
const QString kGradientAbsMean = QStringLiteral("gradient.abs_mean");
const QString kGradientZeroSteps = QStringLiteral("gradient.zero_step_share");
const QString kGradientDepth = QStringLiteral("gradient.depth_ratio");
const QString kGradientNorm = QStringLiteral("gradient.global_norm");
const QString kZeroShare = QStringLiteral("tensor.zero_share");
const QString kDeadRelu = QStringLiteral("activation.dead_share");
const QString kSaturation = QStringLiteral("activation.saturation_share");
const QString kFp16Risk = QStringLiteral("tensor.fp16_out_of_range");

constexpr double kFp16MinNormal = 6.103515625e-05;
constexpr double kFp16Max = 65504.0;
// The depth pattern needs a first, a middle and a last layer.
constexpr int kMinDepthLayers = 3;
// A gradient that is zero at one recorded step may be chance (every ReLU of a small batch off); zero at every
// one of at least this many steps, it is zero by construction.
constexpr int kMinNoGradientSteps = 2;

QString tr(const char* text)
{
    return QCoreApplication::translate("runlens::advisor", text);
}

double percent(std::int64_t part, std::int64_t whole)
{
    return whole > 0 ? 100.0 * double(part) / double(whole) : 0.0;
}

/// Calls `visit(value)` for every element of a tensor in any layout; false when the view reaches outside
/// its data (then nothing is visited).
template<typename Visit> bool forEachElement(const Tensor& t, Visit&& visit)
{
    if (!t.data)
        return false;
    const std::int64_t n = t.elementCount();
    if (n == 0)
        return true;
    const int item = tensor::itemSize(t.dtype);
    const std::byte* base = t.data->data();
    const std::int64_t size = t.data->size();
    if (t.isContiguous()) {
        if (t.offset < 0 || t.offset + n * item > size)
            return false;
        const std::byte* p = base + t.offset;
        if (t.dtype == tensor::DType::Float32 && !t.swap) {
            for (std::int64_t i = 0; i < n; ++i) {
                float v;
                std::memcpy(&v, p + i * 4, 4);
                visit(double(v));
            }
        } else {
            for (std::int64_t i = 0; i < n; ++i)
                visit(tensor::loadElement(p + i * item, t.dtype, t.swap));
        }
        return true;
    }
    // Any other layout: walk the index like an odometer and check every address.
    std::vector<std::int64_t> index(t.shape.size(), 0);
    for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t at = t.offset;
        for (std::size_t d = 0; d < index.size(); ++d)
            at += index[d] * t.strides[d];
        if (at < 0 || at + item > size)
            return false;
        visit(tensor::loadElement(base + at, t.dtype, t.swap));
        for (int d = int(index.size()) - 1; d >= 0; --d) {
            if (++index[d] < t.shape[d])
                break;
            index[d] = 0;
        }
    }
    return true;
}

/// One element reader over a contiguous tensor, for walking two tensors side by side.
struct Cursor
{
    const std::byte* p = nullptr;
    int item = 0;
    tensor::DType type = tensor::DType::Float32;
    bool swap = false;

    double at(std::int64_t i) const { return tensor::loadElement(p + i * item, type, swap); }
};

std::optional<Cursor> cursorOf(const Tensor& t)
{
    const int item = tensor::itemSize(t.dtype);
    if (!t.data || !t.isContiguous() || t.offset < 0
        || tensor::byteCount(t.elementCount(), item) > t.data->size() - t.offset)
        return std::nullopt;
    return Cursor { t.data->data() + t.offset, item, t.dtype, t.swap };
}

/// How one weight moved between two versions: numpy.allclose(previous, current, rtol, atol) with
/// equal_nan false, and MindInsight's update ratio mean|current - previous| / (mean|previous| + epsilon).
struct WeightChange
{
    bool unchanged = true;
    double meanAbsDiff = 0;
    double meanAbsPrevious = 0;
    bool finite = true;
};

std::optional<WeightChange> compareVersions(const Tensor& previous, const Tensor& current, double rtol, double atol)
{
    const std::int64_t n = previous.elementCount();
    if (n == 0 || current.elementCount() != n)
        return std::nullopt;
    const auto a = cursorOf(previous);
    const auto b = cursorOf(current);
    if (!a || !b)
        return std::nullopt;
    WeightChange change;
    double diff = 0;
    double magnitude = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        const double x = a->at(i);
        const double y = b->at(i);
        const double d = std::abs(y - x);
        if (!(d <= atol + rtol * std::abs(y)))
            change.unchanged = false; // NaN anywhere also fails, as allclose with equal_nan=False
        diff += d;
        magnitude += std::abs(x);
    }
    change.meanAbsDiff = diff / double(n);
    change.meanAbsPrevious = magnitude / double(n);
    change.finite = std::isfinite(change.meanAbsDiff) && std::isfinite(change.meanAbsPrevious);
    return change;
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

bool executesBefore(const Overflow& a, const Overflow& b)
{
    if (a.step != b.step)
        return a.step < b.step;
    if (a.timestamp && b.timestamp && *a.timestamp != *b.timestamp)
        return *a.timestamp < *b.timestamp;
    if (a.phase != b.phase)
        return a.phase < b.phase;
    if (a.position != b.position)
        return a.position < b.position;
    return naturalLess(a.tensor, b.tensor);
}

/// `{op_type}.{op_name}.{task}.{stream}.{timestamp}.{input|output}.{slot}...` -> timestamp.
std::optional<double> dumpTimestamp(const QString& path)
{
    static const QRegularExpression pattern(QStringLiteral("\\.(\\d+)\\.(\\d+)\\.(\\d+)\\.(?:input|output)\\.\\d+\\."));
    const QRegularExpressionMatch m = pattern.match(QFileInfo(path).fileName());
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(3).toDouble();
}

Scope tensorScope(const QString& run, int rank, std::optional<qint64> step, const QString& layer, const QString& name)
{
    Scope scope;
    scope.run = run;
    if (rank >= 0)
        scope.rank = rank;
    if (step && *step >= 0) // -1: a tensor without a step (a checkpoint member)
        scope.step = step;
    scope.layer = layer;
    scope.tensor = name;
    return scope;
}

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
QString parameterKey(const QString& run, int rank, const QString& parameter)
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
    void analyseSeries(const TensorSeries& series, const TensorClass& cls);
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

void WeightAnalyser::buildLayerOrder()
{
    for (const GraphInput& graph : m_input.graphs) {
        if (!graph.graph)
            continue;
        QStringList keys;
        for (const graph::Node& node : graph.graph->nodes) {
            const QString scope = QString::fromStdString(node.scope);
            // A node's module comes first in its scope: every prefix of it is a layer position.
            QString prefix;
            for (const QString& part : scope.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
                prefix = prefix.isEmpty() ? part : prefix + QLatin1Char('/') + part;
                keys << prefix;
            }
            keys << QString::fromStdString(node.fullName()) << QString::fromStdString(node.name);
        }
        m_order.addGraphKeys(keys);
    }
    if (m_input.tensors) {
        for (const TensorSeries& series : m_input.tensors->series())
            m_order.addLayer(classifySeries(series).layer);
    }
    for (const HistogramTrack& track : m_input.histograms)
        m_order.addLayer(classifyTag(track.tag).layer);
    m_order.finish();
}

QString WeightAnalyser::graphEvidenceOf(const QString& layer) const
{
    bool fromGraph = false;
    m_order.position(layer, &fromGraph);
    if (!fromGraph || m_input.graphs.empty())
        return {};
    return graphEvidence(LayerOrder::normalized(layer), m_input.graphs.front().path);
}

void WeightAnalyser::addOverflow(Overflow overflow)
{
    bool fromGraph = false;
    overflow.position = m_order.position(overflow.layer, &fromGraph);
    if (overflow.phase == 2)
        overflow.position = -overflow.position;
    if (fromGraph)
        overflow.graphEvidence = graphEvidence(LayerOrder::normalized(overflow.layer), m_input.graphs.front().path);
    m_overflows.push_back(std::move(overflow));
}

void WeightAnalyser::addGradient(const QString& run, int rank, qint64 step, const TensorClass& cls, double sumSquares,
                                 double rms, const QString& evidence)
{
    m_sawGradients = true;
    StepGradients& g = m_gradients[GradientKey { run, rank, step }];
    g.sumSquares += sumSquares;
    ++g.tensors;
    if (g.evidence.isEmpty())
        g.evidence = evidence;
    // A layer whose gradient is zero here is disconnected, not a point on the depth pattern.
    if (!cls.biasGradient && !cls.layer.isEmpty() && std::isfinite(rms) && rms > 0)
        g.layerRms[cls.layer] = rms;
}

void WeightAnalyser::emitZeroInit(const ZeroInitialisation& init)
{
    if (init.report())
        emitWorst(kInitZero, init.worst, init.scope, init.evidence, {});
}

void WeightAnalyser::emitWorst(const QString& metric, const Worst& worst, const Scope& base, const QString& evidence,
                               const QVariantMap& facts)
{
    if (std::optional<Measurement> m = makeWorst(metric, worst, base, evidence, facts))
        m_context.add(std::move(*m));
}

std::optional<Measurement> WeightAnalyser::makeWorst(const QString& metric, const Worst& worst, const Scope& base,
                                                     const QString& evidence, const QVariantMap& facts) const
{
    if (!worst.has())
        return std::nullopt;
    Measurement m;
    m.metric = metric;
    m.value = worst.value;
    m.scope = base;
    m.scope.step = worst.step >= 0 ? std::optional<qint64>(worst.step) : std::nullopt;
    m.facts = facts;
    m.facts.insert(QStringLiteral("tensor"), base.tensor);
    m.facts.insert(QStringLiteral("layer"), base.layer.isEmpty() ? base.tensor : base.layer);
    m.evidence << evidence;
    const QString graph = graphEvidenceOf(base.layer);
    if (!graph.isEmpty())
        m.evidence << graph;
    m.order = double(std::max<qint64>(worst.step, 0));
    return m;
}

void WeightAnalyser::emitZeroGradient(const ZeroGradientCount& count, const Scope& scope, const QString& parameter,
                                      const QString& evidence)
{
    if (count.steps < kMinNoGradientSteps)
        return;
    m_sawGradientSteps = true;
    // A pattern over every recorded step: no one step is where it is.
    Worst share;
    share.offer(percent(count.zeroSteps, count.steps), -1, true);
    emitWorst(kGradientZeroSteps, share, scope, evidence,
              { { QStringLiteral("parameter"), parameter },
                { QStringLiteral("steps"), count.steps },
                { QStringLiteral("zero_steps"), count.zeroSteps },
                { QStringLiteral("from_step"), count.firstStep },
                { QStringLiteral("to_step"), count.lastStep } });
    if (count.never())
        m_noGradient.insert(parameterKey(scope.run, scope.rank.value_or(-1), parameter));
}

void WeightAnalyser::emitUnchanged()
{
    for (auto& [key, measurement] : m_unchanged) {
        if (!m_noGradient.contains(key))
            m_context.add(std::move(measurement));
    }
    m_unchanged.clear();
}

void WeightAnalyser::analyseSeries(const TensorSeries& series, const TensorClass& cls)
{
    const bool weight = cls.role == TensorRole::Weight || cls.role == TensorRole::Bias;
    const bool floating = !series.versions.isEmpty() && tensor::isFloating(series.versions.first().dtype);
    if (!floating)
        return;
    m_sawTensors = true;
    m_sawWeights = m_sawWeights || weight;

    Worst zeroShare;
    Worst deadShare;
    Worst saturation;
    Worst fp16Risk;
    StepSeries gradientAbsMean;
    ZeroGradientCount zeroGradient;
    std::optional<Overflow> firstOverflow;
    int unchangedPairs = 0;
    int comparedPairs = 0;
    qint64 firstUnchangedFrom = -1;
    qint64 firstUnchangedTo = -1;
    double ratioSum = 0;
    int ratioCount = 0;
    Worst largestRatio;
    qint64 firstStep = -1;
    qint64 lastStep = -1;
    ZeroInitialisation zeroInit;

    std::optional<Tensor> previous;
    qint64 previousStep = -1;
    const tensor::TensorInfo* firstInfo = series.versions.isEmpty() ? nullptr : &series.versions.first();
    for (const tensor::TensorInfo& info : series.versions) {
        if (m_context.isCanceled())
            return;
        if (!info.source)
            continue;
        tensor::TensorResult opened = info.source->open();
        if (!opened.tensor)
            continue;
        const Tensor& t = *opened.tensor;
        const qint64 step = info.step;
        const QString evidence = tensorEvidence(series.name, series.run, step);
        tensor::StatisticsOptions options;
        options.threads = 1; // the analysers already run on a worker; other imports share the machine
        options.cancel = [this] { return m_context.isCanceled(); };
        const tensor::TensorStatistics stats = tensor::computeStatistics(t, options);
        if (stats.cancelled || stats.count == 0)
            continue;
        m_sawTensorValues = true;

        const std::int64_t bad = stats.nan + stats.posInf + stats.negInf;
        if (bad > 0 && !firstOverflow) {
            Overflow o;
            o.run = series.run;
            o.rank = series.rank;
            o.step = step;
            o.tensor = series.name;
            o.layer = cls.layer;
            o.evidence = evidence;
            o.gradient = cls.role == TensorRole::Gradient;
            o.phase = weight ? 0 : (o.gradient ? 2 : 1);
            o.timestamp = dumpTimestamp(info.path);
            o.nan = stats.nan;
            o.posInf = stats.posInf;
            o.negInf = stats.negInf;
            o.count = stats.count;
            firstOverflow = o;
        }

        // A freshly initialised bias is often all zero on purpose; the initialisation rule covers weights. A
        // checkpoint's buffers (masks, gates, running statistics) are set by the program, not learned: zero
        // says nothing about training there.
        const bool initialWeight = weight && &info == firstInfo && step <= 0;
        const bool checkpointBuffer = cls.role == TensorRole::Other && step < 0;
        if (!initialWeight && !checkpointBuffer)
            zeroShare.offer(percent(stats.zeros, stats.count), step, true);

        if (weight && step == 0) {
            m_sawWeightAtStepZero = true;
            Scope scope = tensorScope(series.run, series.rank, step, cls.layer, series.name);
            if (cls.role == TensorRole::Weight) {
                zeroInit.worst.offer(percent(stats.zeros, stats.count), step, true);
                zeroInit.scope = scope;
                zeroInit.evidence = evidence;
            }
            Worst range;
            range.offer(std::max(std::abs(stats.finiteMin), std::abs(stats.finiteMax)), step, true);
            emitWorst(kInitAbsMax, range, scope, evidence,
                      { { QStringLiteral("min"), stats.finiteMin }, { QStringLiteral("max"), stats.finiteMax } });
        }

        if (weight && previous && step > previousStep) {
            if (const auto change = compareVersions(*previous, t, m_rtol, m_atol)) {
                m_sawWeightPair = true;
                m_sawWeightTensorPair = true;
                ++comparedPairs;
                if (change->unchanged) {
                    if (++unchangedPairs == 1) {
                        firstUnchangedFrom = previousStep;
                        firstUnchangedTo = step;
                    }
                } else if (change->finite && change->meanAbsPrevious > 0) {
                    // Per step, so dumps taken every N steps measure the same thing as consecutive ones; a
                    // mean over the gap never exceeds the largest single step (triangle inequality).
                    const double gap = double(step - previousStep);
                    const double ratio = change->meanAbsDiff / (change->meanAbsPrevious + m_epsilon) / gap;
                    ratioSum += ratio;
                    ++ratioCount;
                    largestRatio.offer(ratio, step, true);
                    if (firstStep < 0)
                        firstStep = previousStep;
                    lastStep = step;
                }
            }
        }

        if (cls.role == TensorRole::Gradient) {
            gradientAbsMean.add(stats.meanAbs, step);
            zeroGradient.add(stats.zeros == stats.count, step);
            if (stats.finite == stats.count)
                addGradient(series.run, series.rank, step, cls, stats.l2 * stats.l2,
                            stats.l2 / std::sqrt(double(stats.count)), evidence);
        }

        if (cls.role == TensorRole::Activation || cls.halfPrecision) {
            std::int64_t dead = 0;
            std::int64_t saturated = 0;
            std::int64_t outOfHalf = 0;
            std::int64_t nonzero = 0;
            const double low = m_saturationLow[int(cls.activation)];
            const double high = m_saturationHigh[int(cls.activation)];
            forEachElement(t, [&](double v) {
                dead += v >= -1.0 && v <= 0.0;
                saturated += v <= low || v >= high;
                const double a = std::abs(v);
                nonzero += a > 0;
                outOfHalf += std::isinf(v) || (a > 0 && (a < kFp16MinNormal || a > kFp16Max));
            });
            if (cls.activation == ActivationKind::Relu) {
                m_sawRelu = true;
                deadShare.offer(percent(dead, stats.count), step, true);
            } else if (cls.activation == ActivationKind::Sigmoid || cls.activation == ActivationKind::Tanh) {
                m_sawSaturating = true;
                saturation.offer(percent(saturated, stats.count), step, true);
            }
            if (cls.halfPrecision) {
                m_sawHalf = true;
                fp16Risk.offer(percent(outOfHalf, nonzero), step, true);
            }
        }

        if (weight) {
            if (step > 0)
                zeroInit.seeLater(stats.zeros < stats.count && stats.finiteMin != stats.finiteMax);
            previous = t;
            previousStep = step;
        }
    }
    emitZeroInit(zeroInit);

    const Scope scope = tensorScope(series.run, series.rank, std::nullopt, cls.layer, series.name);
    const QString evidence = tensorEvidence(series.name, series.run, -1);
    // A gradient that is zero at every step is not vanishing, nor a tensor gone to zero: the parameter receives
    // no gradient at all, and that finding says so.
    const bool noGradient = cls.role == TensorRole::Gradient && zeroGradient.never();
    if (cls.role == TensorRole::Gradient)
        emitZeroGradient(zeroGradient, scope, gradientTarget(series.name),
                         tensorEvidence(series.name, series.run, zeroGradient.lastStep));
    if (!noGradient) {
        emitWorst(kZeroShare, zeroShare, scope, tensorEvidence(series.name, series.run, zeroShare.step), {});
        const Worst typical = gradientAbsMean.median();
        emitWorst(kGradientAbsMean, typical, scope, tensorEvidence(series.name, series.run, typical.step),
                  { { QStringLiteral("steps"), int(gradientAbsMean.values.size()) },
                    { QStringLiteral("from_step"), zeroGradient.firstStep },
                    { QStringLiteral("to_step"), zeroGradient.lastStep } });
    }
    emitWorst(kDeadRelu, deadShare, scope, tensorEvidence(series.name, series.run, deadShare.step), {});
    emitWorst(kSaturation, saturation, scope, tensorEvidence(series.name, series.run, saturation.step), {});
    emitWorst(kFp16Risk, fp16Risk, scope, tensorEvidence(series.name, series.run, fp16Risk.step), {});
    if (comparedPairs > 0) {
        Worst unchanged;
        unchanged.offer(unchangedPairs, firstUnchangedTo, true);
        if (std::optional<Measurement> m
            = makeWorst(kUnchanged, unchanged, scope, tensorEvidence(series.name, series.run, firstUnchangedTo),
                        { { QStringLiteral("pairs"), comparedPairs },
                          { QStringLiteral("from_step"), firstUnchangedFrom },
                          { QStringLiteral("to_step"), firstUnchangedTo } }))
            m_unchanged.emplace_back(parameterKey(series.run, series.rank, series.name), std::move(*m));
    }
    if (ratioCount > 0) {
        Worst mean;
        mean.offer(ratioSum / ratioCount, lastStep, true);
        emitWorst(kUpdateRatio, mean, scope, evidence,
                  { { QStringLiteral("largest"), largestRatio.value },
                    { QStringLiteral("largest_step"), largestRatio.step },
                    { QStringLiteral("from_step"), firstStep },
                    { QStringLiteral("to_step"), lastStep },
                    { QStringLiteral("pairs"), ratioCount } });
    }
    if (firstOverflow)
        addOverflow(std::move(*firstOverflow));
}

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
    int unchangedPairs = 0;
    int comparedPairs = 0;
    qint64 firstUnchangedFrom = -1;
    qint64 firstUnchangedTo = -1;
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
            ++comparedPairs;
            if (sameHistogram(track.items[i - 1], h) && ++unchangedPairs == 1) {
                firstUnchangedFrom = track.items[i - 1].step;
                firstUnchangedTo = h.step;
            }
        }
        if (cls.role == TensorRole::Gradient && std::isfinite(h.sumSquares) && h.count > 0) {
            gradientAbsMean.add(bucketMeanAbs(h), h.step);
            zeroGradient.add(bad == 0 && h.min == 0 && h.max == 0, h.step);
            if (bad == 0)
                addGradient(track.run, -1, h.step, cls, h.sumSquares, std::sqrt(h.sumSquares / h.count), evidence);
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
    if (comparedPairs > 0) {
        Worst unchanged;
        unchanged.offer(unchangedPairs, firstUnchangedTo, true);
        if (std::optional<Measurement> m
            = makeWorst(kUnchanged, unchanged, scope, histogramEvidence(track.run, track.tag, firstUnchangedTo),
                        { { QStringLiteral("pairs"), comparedPairs },
                          { QStringLiteral("from_step"), firstUnchangedFrom },
                          { QStringLiteral("to_step"), firstUnchangedTo } }))
            m_unchanged.emplace_back(parameterKey(track.run, -1, track.tag), std::move(*m));
    }
}

void WeightAnalyser::emitOverflows()
{
    std::sort(m_overflows.begin(), m_overflows.end(), executesBefore);
    QHash<QString, int> perRun; // how many tensors overflow in each run, for the message
    for (const Overflow& o : m_overflows)
        ++perRun[o.run];
    for (std::size_t i = 0; i < m_overflows.size(); ++i) {
        const Overflow& o = m_overflows[i];
        for (const bool gradientMetric : { false, true }) {
            if (gradientMetric && !o.gradient)
                continue;
            Measurement m;
            m.metric = gradientMetric ? kGradientNonfinite : kTensorNonfinite;
            m.value = double(o.nan + o.posInf + o.negInf);
            m.scope = tensorScope(o.run, o.rank, o.step, o.layer, o.tensor);
            m.order = double(i);
            m.facts.insert(QStringLiteral("tensor"), o.tensor);
            m.facts.insert(QStringLiteral("layer"), o.layer.isEmpty() ? o.tensor : o.layer);
            m.facts.insert(QStringLiteral("nan"), qint64(o.nan));
            m.facts.insert(QStringLiteral("inf"), qint64(o.posInf + o.negInf));
            m.facts.insert(QStringLiteral("elements"), qint64(o.count));
            m.facts.insert(QStringLiteral("overflowing"), perRun.value(o.run));
            m.evidence << o.evidence;
            if (!o.graphEvidence.isEmpty())
                m.evidence << o.graphEvidence;
            m_context.add(std::move(m));
        }
    }
}

void WeightAnalyser::emitGradientPatterns()
{
    // Per run and rank, the depth pattern of every step; the typical step is reported, so that one step's
    // noise neither raises nor hides it.
    std::map<std::pair<QString, int>, std::vector<DepthAtStep>> depths;
    for (const auto& [key, g] : m_gradients) {
        Measurement norm;
        norm.metric = kGradientNorm;
        norm.value = std::sqrt(g.sumSquares);
        norm.scope = tensorScope(key.run, key.rank, key.step, {}, {});
        norm.order = double(key.step);
        norm.facts.insert(QStringLiteral("tensors"), g.tensors);
        norm.evidence << g.evidence;
        m_context.add(std::move(norm));

        if (int(g.layerRms.size()) < kMinDepthLayers)
            continue;
        std::vector<std::pair<double, QString>> layers;
        for (const auto& [layer, rms] : g.layerRms)
            layers.emplace_back(m_order.position(layer), layer);
        std::sort(layers.begin(), layers.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : naturalLess(a.second, b.second);
        });
        const QString& first = layers.front().second;
        const QString& last = layers.back().second;
        const double firstRms = g.layerRms.at(first);
        const double lastRms = g.layerRms.at(last);
        if (!(lastRms > 0))
            continue;
        m_sawDepth = true;
        depths[{ key.run, key.rank }].push_back(
            { key.step, firstRms / lastRms, first, last, firstRms, lastRms, int(layers.size()), g.evidence });
    }
    for (auto& [where, steps] : depths) {
        std::sort(steps.begin(), steps.end(),
                  [](const DepthAtStep& a, const DepthAtStep& b) { return a.ratio < b.ratio; });
        const DepthAtStep& typical = steps[(steps.size() - 1) / 2];
        Measurement depth;
        depth.metric = kGradientDepth;
        depth.value = typical.ratio;
        depth.scope = tensorScope(where.first, where.second, typical.step, typical.first, {});
        depth.order = double(std::max<qint64>(typical.step, 0));
        depth.facts.insert(QStringLiteral("first_layer"), typical.first);
        depth.facts.insert(QStringLiteral("last_layer"), typical.last);
        depth.facts.insert(QStringLiteral("first_rms"), typical.firstRms);
        depth.facts.insert(QStringLiteral("last_rms"), typical.lastRms);
        depth.facts.insert(QStringLiteral("layers"), typical.layers);
        depth.facts.insert(QStringLiteral("steps"), int(steps.size()));
        depth.facts.insert(QStringLiteral("lowest"), steps.front().ratio);
        depth.facts.insert(QStringLiteral("lowest_step"), steps.front().step);
        depth.evidence << typical.evidence;
        m_context.add(std::move(depth));
    }
}

void WeightAnalyser::markAll()
{
    const QString noTensors = tr("no tensor dumps, tensor files or weight/gradient histograms are loaded");
    auto mark = [&](const QString& metric, bool evaluated, const QString& reason) {
        if (evaluated)
            m_context.markEvaluated(metric);
        else
            m_context.markMissing(metric, m_sawTensors ? reason : noTensors);
    };
    mark(kTensorNonfinite, m_sawTensors, noTensors);
    mark(kZeroShare, m_sawTensorValues, tr("no tensor values could be read"));
    mark(kInitZero, m_sawWeightAtStepZero, tr("no weight is recorded at step 0"));
    mark(kInitAbsMax, m_sawWeightAtStepZero, tr("no weight is recorded at step 0"));
    mark(kUnchanged, m_sawWeightPair, tr("no weight is recorded at two steps"));
    mark(kUpdateRatio, m_sawWeightTensorPair,
         tr("no weight tensor is dumped at two steps (histograms do not give the update ratio)"));
    mark(kGradientNonfinite, m_sawGradients, tr("no gradient tensors or histograms are loaded"));
    mark(kGradientAbsMean, m_sawGradients, tr("no gradient tensors or histograms are loaded"));
    mark(kGradientZeroSteps, m_sawGradientSteps, tr("no gradient is recorded at two steps or more"));
    mark(kGradientNorm, m_sawGradients, tr("no gradient tensors or histograms are loaded"));
    mark(kGradientDepth, m_sawDepth,
         tr("fewer than three layers have finite weight gradients recorded at the same step"));
    mark(kDeadRelu, m_sawRelu, tr("no ReLU activation is dumped"));
    mark(kSaturation, m_sawSaturating, tr("no sigmoid or tanh activation is dumped"));
    mark(kFp16Risk, m_sawHalf, tr("no float16 tensor or fp16 copy is dumped"));
}

void WeightAnalyser::run()
{
    buildLayerOrder();
    if (m_input.tensors) {
        for (const TensorSeries& series : m_input.tensors->series()) {
            if (m_context.isCanceled())
                return;
            analyseSeries(series, classifySeries(series));
        }
    }
    for (const HistogramTrack& track : m_input.histograms) {
        if (m_context.isCanceled())
            return;
        analyseHistogram(track, classifyTag(track.tag));
    }
    emitOverflows();
    emitGradientPatterns();
    emitUnchanged();
    markAll();
}

} // namespace

void analyseWeights(const AdvisorInput& input, AnalysisContext& context)
{
    WeightAnalyser(input, context).run();
}

} // namespace runlens::advisor
