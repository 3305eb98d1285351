#include "models/advisor/advisor.h"
#include "models/advisor/evidence.h"
#include "models/advisor/weightanalyser.h"
#include "models/tensor/tensorstatistics.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cstring>

namespace runlens::models::advisor {

namespace {

using tensor::Tensor;
using tensor::TensorSeries;

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::advisor)
};

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

/// `{op_type}.{op_name}.{task}.{stream}.{timestamp}.{input|output}.{slot}...` -> timestamp.
std::optional<double> dumpTimestamp(const QString& path)
{
    static const QRegularExpression pattern(QStringLiteral("\\.(\\d+)\\.(\\d+)\\.(\\d+)\\.(?:input|output)\\.\\d+\\."));
    const QRegularExpressionMatch m = pattern.match(QFileInfo(path).fileName());
    if (!m.hasMatch())
        return std::nullopt;
    return m.captured(3).toDouble();
}

double machineEpsilon(tensor::DType type)
{
    switch (type) {
    case tensor::DType::Float16:
        return 0x1p-10;
    case tensor::DType::BFloat16:
        return 0x1p-7;
    case tensor::DType::Float64:
        return std::numeric_limits<double>::epsilon();
    default:
        return std::numeric_limits<float>::epsilon();
    }
}

} // namespace

SeriesRecord WeightAnalyser::collectSeries(const TensorSeries& series, const TensorClass& cls)
{
    SeriesRecord record;
    const bool weight = cls.role == TensorRole::Weight || cls.role == TensorRole::Bias;
    const bool floating = !series.versions.isEmpty() && tensor::isFloating(series.versions.first().dtype);
    if (!floating)
        return record;
    m_sawTensors = true;
    m_sawWeights = m_sawWeights || weight;

    std::optional<Overflow> firstOverflow;
    std::optional<Tensor> previous;
    qint64 previousStep = -1;
    const tensor::TensorInfo* firstInfo = series.versions.isEmpty() ? nullptr : &series.versions.first();
    for (const tensor::TensorInfo& info : series.versions) {
        if (m_context.isCanceled())
            return record;
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
        SeriesRecord::At at;
        at.step = step;

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
            at.zeroShare = percent(stats.zeros, stats.count);

        if (weight && step == 0) {
            m_sawWeightAtStepZero = true;
            Scope scope = tensorScope(series.run, series.rank, step, cls.layer, series.name);
            if (cls.role == TensorRole::Weight) {
                record.zeroInit.worst.offer(percent(stats.zeros, stats.count), step, true);
                record.zeroInit.scope = scope;
                record.zeroInit.evidence = evidence;
            }
            // Step 0 comes before any overflow, so this is measured at once.
            Worst range;
            range.offer(std::max(std::abs(stats.finiteMin), std::abs(stats.finiteMax)), step, true);
            emitWorst(kInitAbsMax, range, scope, evidence,
                      { { QStringLiteral("min"), stats.finiteMin }, { QStringLiteral("max"), stats.finiteMax } });
        }

        if (weight && previous && step > previousStep) {
            if (const auto change = compareVersions(*previous, t, m_rtol, m_atol)) {
                m_sawWeightPair = true;
                m_sawWeightTensorPair = true;
                SeriesRecord::Pair pair;
                pair.from = previousStep;
                pair.to = step;
                pair.unchanged = change->unchanged;
                pair.magnitude = change->meanAbsPrevious;
                pair.epsilon = machineEpsilon(t.dtype);
                if (!change->unchanged && change->finite && change->meanAbsPrevious > 0) {
                    // Per step, so dumps taken every N steps measure the same thing as consecutive ones; a
                    // mean over the gap never exceeds the largest single step (triangle inequality).
                    const double gap = double(step - previousStep);
                    pair.ratio = change->meanAbsDiff / (change->meanAbsPrevious + m_epsilon) / gap;
                }
                record.pairs.push_back(pair);
            }
        }

        if (cls.role == TensorRole::Gradient) {
            at.gradientAbsMean = stats.meanAbs;
            at.gradientZero = stats.zeros == stats.count ? 1 : 0;
            addGradientStep(series.run, series.rank, series.name, step, stats.meanAbs);
            if (stats.finite == stats.count)
                addGradient(series.run, series.rank, step, series.name, cls, stats.l2 * stats.l2,
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
                at.deadShare = percent(dead, stats.count);
            } else if (cls.activation == ActivationKind::Sigmoid || cls.activation == ActivationKind::Tanh) {
                m_sawSaturating = true;
                at.saturation = percent(saturated, stats.count);
            }
            if (cls.halfPrecision) {
                m_sawHalf = true;
                at.fp16Risk = percent(outOfHalf, nonzero);
                // Values that underflowed to zero are not among the half copy's non-zero values: its
                // full-precision copy shows them, and they are below the float16 range as much as the others.
                if (const std::optional<Underflow> lost = underflowOf(series, t, step)) {
                    at.underflow = percent(lost->zeroed, lost->nonzero);
                    at.master = lost->master;
                    at.fp16Risk = percent(outOfHalf + lost->zeroed, nonzero + lost->zeroed);
                }
            }
        }

        if (weight) {
            if (step > 0)
                at.varied = stats.zeros < stats.count && stats.finiteMin != stats.finiteMax ? 1 : 0;
            previous = t;
            previousStep = step;
        }
        record.steps.push_back(std::move(at));
    }
    if (firstOverflow)
        addOverflow(std::move(*firstOverflow));
    return record;
}

std::optional<Underflow> WeightAnalyser::underflowOf(const TensorSeries& series, const Tensor& half, qint64 step) const
{
    const QString base = withoutPrecisionMark(series.name);
    if (base == series.name)
        return std::nullopt;
    const TensorSeries* full = m_seriesByName.value(parameterKey(series.run, series.rank, base));
    if (!full || step > std::numeric_limits<int>::max())
        return std::nullopt;
    const tensor::TensorInfo* info = full->atStep(int(step));
    if (!info || !info->source || info->dtype == tensor::DType::Float16 || !tensor::isFloating(info->dtype))
        return std::nullopt;
    tensor::TensorResult opened = info->source->open();
    if (!opened.tensor || opened.tensor->elementCount() != half.elementCount())
        return std::nullopt;
    const auto a = cursorOf(*opened.tensor);
    const auto b = cursorOf(half);
    if (!a || !b)
        return std::nullopt;
    std::int64_t nonzero = 0;
    std::int64_t lost = 0;
    for (std::int64_t i = 0, n = half.elementCount(); i < n; ++i) {
        const double x = a->at(i);
        if (!std::isfinite(x) || x == 0)
            continue;
        ++nonzero;
        lost += b->at(i) == 0;
    }
    if (nonzero == 0)
        return std::nullopt;
    return Underflow { lost, nonzero, full->name };
}

void WeightAnalyser::finishSeries(const TensorSeries& series, const TensorClass& cls, SeriesRecord& record)
{
    const qint64 last = cutoff(series.run);
    Worst zeroShare;
    Worst deadShare;
    Worst saturation;
    Worst fp16Risk;
    StepSeries gradientAbsMean;
    ZeroGradientCount zeroGradient;
    for (const SeriesRecord::At& at : record.steps) {
        if (at.step > last)
            break;
        zeroShare.offer(at.zeroShare, at.step, true);
        deadShare.offer(at.deadShare, at.step, true);
        saturation.offer(at.saturation, at.step, true);
        fp16Risk.offer(at.fp16Risk, at.step, true);
        if (at.gradientZero >= 0) {
            gradientAbsMean.add(at.gradientAbsMean, at.step);
            zeroGradient.add(at.gradientZero == 1, at.step);
        }
        if (at.varied >= 0)
            record.zeroInit.seeLater(at.varied == 1);
    }
    emitZeroInit(record.zeroInit);

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
    if (fp16Risk.has()) {
        QString note;
        for (const SeriesRecord::At& at : record.steps) {
            if (at.step == fp16Risk.step && std::isfinite(at.underflow) && at.underflow > 0)
                note = Text::tr(" (%1 of its values that are non-zero in %2 are exactly zero here: they underflowed)")
                           .arg(formatValue(at.underflow, Unit::Percent), at.master);
        }
        emitWorst(kFp16Risk, fp16Risk, scope, tensorEvidence(series.name, series.run, fp16Risk.step),
                  { { QStringLiteral("underflow"), note } });
    }

    PendingUnchanged unchanged;
    unchanged.key = parameterKey(series.run, series.rank, series.name);
    unchanged.scope = scope;
    unchanged.tensor = series.name;
    double ratioSum = 0;
    int ratioCount = 0;
    Worst largestRatio;
    qint64 firstStep = -1;
    qint64 lastStep = -1;
    for (const SeriesRecord::Pair& pair : record.pairs) {
        if (pair.to > last)
            break;
        ++unchanged.compared;
        unchanged.lastTo = pair.to;
        if (pair.unchanged) {
            unchanged.pairs.push_back(pair);
        } else if (std::isfinite(pair.ratio)) {
            ratioSum += pair.ratio;
            ++ratioCount;
            largestRatio.offer(pair.ratio, pair.to, true);
            if (firstStep < 0)
                firstStep = pair.from;
            lastStep = pair.to;
        }
    }
    if (unchanged.compared > 0)
        m_unchanged.push_back(std::move(unchanged));
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
}

} // namespace runlens::models::advisor
