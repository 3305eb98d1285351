#include "models/accuracy/accuracymetrics.h"

#include "models/tensor/tensorcompare.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>

#include <cmath>
#include <limits>

namespace runlens::models::accuracy {

namespace {

// msprobe's epsilon (numpy float64 eps): norms at or below it count as zero, and it stands in for a zero
// bench value in the relative error.
constexpr double kEpsilon = 2.220446049250313e-16;
// Smallest normal numbers of the half-precision types.
constexpr double kFloat16SmallestNormal = 6.103515625e-05;
constexpr double kBFloat16SmallestNormal = 1.1754943508222875e-38;
constexpr double kLargest = std::numeric_limits<double>::max();

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::accuracy)
};

QString dtypeText(tensor::DType type)
{
    const std::string_view name = tensor::dtypeName(type);
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

int verdictRank(Verdict v)
{
    switch (v) {
    case Verdict::Error:
        return 4;
    case Verdict::Warning:
        return 3;
    case Verdict::Pass:
        return 2;
    case Verdict::None:
        return 1;
    case Verdict::Unmatched:
        return 0;
    }
    return 0;
}

std::optional<double> finiteOrNull(double v)
{
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

} // namespace

QString verdictId(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Pass:
        return QStringLiteral("pass");
    case Verdict::Warning:
        return QStringLiteral("warning");
    case Verdict::Error:
        return QStringLiteral("error");
    case Verdict::None:
        return QStringLiteral("none");
    case Verdict::Unmatched:
        return QStringLiteral("unmatched");
    }
    return {};
}

Verdict worse(Verdict a, Verdict b)
{
    return verdictRank(a) >= verdictRank(b) ? a : b;
}

bool reaches(Verdict verdict, Verdict level)
{
    return verdictRank(verdict) >= verdictRank(level) && verdictRank(verdict) >= verdictRank(Verdict::Warning);
}

std::optional<TensorMetrics> computeTensorMetrics(const tensor::Tensor& bench, const tensor::Tensor& target,
                                                  const std::function<bool()>& cancelled)
{
    TensorMetrics m;
    if (bench.dtype != target.dtype)
        m.note = Text::tr("The dtypes differ (%1 and %2).").arg(dtypeText(bench.dtype), dtypeText(target.dtype));
    if (bench.shape != target.shape) {
        m.note = Text::tr("The shapes differ (%1 and %2): not compared element by element.")
                     .arg(tensor::shapeText(bench.shape), tensor::shapeText(target.shape));
        return m;
    }
    if (!tensor::viewInsideData(bench) || !tensor::viewInsideData(target)) {
        m.note = Text::tr("The data is shorter than the shape needs.");
        return m;
    }
    m.elements = bench.elementCount();
    if (m.elements == 0) {
        m.note = Text::tr("The tensors are empty.");
        return m;
    }

    const bool half = target.dtype == tensor::DType::Float16 || target.dtype == tensor::DType::BFloat16;
    const double smallestNormal
        = target.dtype == tensor::DType::BFloat16 ? kBFloat16SmallestNormal : kFloat16SmallestNormal;
    double dot = 0, benchSquares = 0, targetSquares = 0, sumAbs = 0, sumSquares = 0;
    double maxAbs = 0, maxRel = 0;
    std::int64_t counted = 0, within1 = 0, within5 = 0;
    const bool completed = tensor::forEachElementRun(
        bench, target,
        [&](const double* b, const double* n, std::int64_t count, std::int64_t) {
            // Most runs are finite on both sides: they take a loop without branches that computes exactly what
            // the general loop below does (the same operations, the sums in the same order). A NaN or infinity
            // on either side leaves its sum of squares not finite (a sum of non-negative terms cannot come
            // back), and then the run is done again by the general loop from the totals before it.
            {
                // Local copies: the captured totals could alias the inputs, which would keep every update in
                // memory.
                double runDot = dot, runBenchSquares = benchSquares, runTargetSquares = targetSquares;
                double runSumAbs = sumAbs, runSumSquares = sumSquares, runMaxAbs = maxAbs, runMaxRel = maxRel;
                std::int64_t underflow = 0, runWithin1 = 0, runWithin5 = 0;
                for (std::int64_t i = 0; i < count; ++i) {
                    const double vb = b[i];
                    const double vn = n[i];
                    underflow += (vb != 0) & (std::abs(vn) < smallestNormal);
                    const double d = vn - vb;
                    const double ad = std::abs(d);
                    runDot += vn * vb;
                    runBenchSquares += vb * vb;
                    runTargetSquares += vn * vn;
                    runSumAbs += ad;
                    runSumSquares += d * d;
                    runMaxAbs = std::max(runMaxAbs, ad);
                    // Where B is 0, |N - B| is |N|: dividing by the epsilon gives |N| / epsilon as below.
                    const double re = ad / (vb == 0 ? kEpsilon : std::abs(vb));
                    runMaxRel = std::max(runMaxRel, re);
                    runWithin1 += re < 0.001;
                    runWithin5 += re < 0.005;
                }
                if (std::isfinite(runBenchSquares) && std::isfinite(runTargetSquares)) {
                    dot = runDot;
                    benchSquares = runBenchSquares;
                    targetSquares = runTargetSquares;
                    sumAbs = runSumAbs;
                    sumSquares = runSumSquares;
                    maxAbs = runMaxAbs;
                    maxRel = runMaxRel;
                    within1 += runWithin1;
                    within5 += runWithin5;
                    if (half)
                        m.underflow += underflow;
                    counted += count;
                    return;
                }
            }
            for (std::int64_t i = 0; i < count; ++i) {
                double vb = b[i];
                double vn = n[i];
                if (half && std::isfinite(vb)) {
                    if (vb != 0 && std::isfinite(vn) && std::abs(vn) < smallestNormal)
                        ++m.underflow;
                    else if (std::isinf(vn))
                        ++m.overflow;
                }
                const bool finiteB = std::isfinite(vb);
                const bool finiteN = std::isfinite(vn);
                if (!finiteB || !finiteN) {
                    const bool same = (!finiteB && !finiteN)
                        && ((std::isnan(vb) && std::isnan(vn)) || (std::isinf(vb) && vb == vn));
                    if (!same) {
                        if (std::isnan(vb) || std::isnan(vn))
                            ++m.nanMismatch;
                        else
                            ++m.infMismatch;
                        continue;
                    }
                    // Non-finite at the same place on both sides agrees: compared as zeros, as msprobe does.
                    vb = 0;
                    vn = 0;
                }
                const double d = vn - vb;
                const double ad = std::abs(d);
                dot += vn * vb;
                benchSquares += vb * vb;
                targetSquares += vn * vn;
                sumAbs += ad;
                sumSquares += d * d;
                maxAbs = std::max(maxAbs, ad);
                const double re = vb == 0 ? std::abs(vn) / kEpsilon : ad / std::abs(vb);
                maxRel = std::max(maxRel, re);
                within1 += re < 0.001;
                within5 += re < 0.005;
                ++counted;
            }
        },
        cancelled);
    if (!completed)
        return std::nullopt;

    m.compared = true;
    const double total = double(m.elements);
    m.within1e3 = double(within1) / total;
    m.within5e3 = double(within5) / total;
    if (counted == 0) {
        m.note = Text::tr("No element is finite on both sides.");
        return m;
    }
    m.maxAbs = finiteOrNull(maxAbs);
    m.maxRel = finiteOrNull(maxRel);
    m.meanAbs = finiteOrNull(sumAbs / double(counted));
    m.rmse = finiteOrNull(std::sqrt(sumSquares / double(counted)));
    const double benchNorm = std::sqrt(benchSquares);
    const double targetNorm = std::sqrt(targetSquares);
    if (benchNorm > 0)
        m.relEuclidean = finiteOrNull(std::sqrt(sumSquares) / benchNorm);
    else if (sumSquares == 0)
        m.relEuclidean = 0.0;
    if (m.elements > 1) {
        if (benchNorm <= kEpsilon && targetNorm <= kEpsilon)
            m.cosine = 1.0;
        else if (benchNorm <= kEpsilon || targetNorm <= kEpsilon)
            m.note = benchNorm <= kEpsilon ? Text::tr("Every bench value is zero: no cosine similarity.")
                                           : Text::tr("Every target value is zero: no cosine similarity.");
        else
            m.cosine = finiteOrNull(dot / (benchNorm * targetNorm));
    }
    return m;
}

StatisticsMetrics computeStatisticsMetrics(const TensorStats& bench, const TensorStats& target)
{
    StatisticsMetrics m;
    const std::array<std::optional<double>, 4> b { bench.max, bench.min, bench.mean, bench.norm };
    const std::array<std::optional<double>, 4> n { target.max, target.min, target.mean, target.norm };
    for (size_t i = 0; i < 4; ++i) {
        if (!b[i] || !n[i])
            continue;
        const double diff = *n[i] - *b[i];
        m.diff[i] = diff;
        if (*b[i] != 0)
            m.rel[i] = std::abs(diff / *b[i]);
        m.ratio[i] = std::abs(diff) / (std::abs(std::max(*n[i], *b[i])) + 1e-10);
    }
    for (size_t i = 0; i < 2; ++i) {
        if (b[i] && n[i] && std::isfinite(*b[i]) && !std::isfinite(*n[i]))
            m.targetNonFinite = true;
    }
    return m;
}

CompareThresholds CompareThresholds::fromJson(const QJsonObject& json, const CompareThresholds& base)
{
    CompareThresholds t = base;
    const QJsonObject tensorRules = json.value(QLatin1String("tensor")).toObject();
    const QJsonObject statistics = json.value(QLatin1String("statistics")).toObject();
    auto read = [](const QJsonObject& o, const char* key, double& into) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isDouble())
            into = v.toDouble();
    };
    read(tensorRules, "error_cosine", t.errorCosine);
    read(tensorRules, "error_cosine_with_abs", t.errorCosineWithAbs);
    read(tensorRules, "error_cosine_abs", t.errorCosineAbs);
    read(tensorRules, "error_max_abs", t.errorMaxAbs);
    read(tensorRules, "warning_cosine", t.warningCosine);
    read(tensorRules, "warning_within_1e-3", t.warningWithin1e3);
    read(tensorRules, "warning_underflow_share", t.warningUnderflowShare);
    read(statistics, "warning_ratio", t.statisticsWarningRatio);
    read(statistics, "error_ratio", t.statisticsErrorRatio);
    return t;
}

CompareThresholds CompareThresholds::builtIn()
{
    QFile file(QStringLiteral(":/accuracy/comparethresholds.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return fromJson(QJsonDocument::fromJson(file.readAll()).object(), CompareThresholds());
}

Verdict tensorVerdict(const TensorMetrics& m, const CompareThresholds& t)
{
    if (!m.compared)
        return Verdict::None;
    if (m.nanMismatch > 0 || m.infMismatch > 0)
        return Verdict::Error;
    const double maxAbs = m.maxAbs.value_or(0);
    if (m.cosine && (*m.cosine < t.errorCosine || (*m.cosine < t.errorCosineWithAbs && maxAbs > t.errorCosineAbs)))
        return Verdict::Error;
    if (maxAbs > t.errorMaxAbs)
        return Verdict::Error;
    // One side all zero and the other not: no cosine, but certainly not the same tensor.
    if (!m.cosine && m.elements > 1 && maxAbs > t.errorCosineAbs)
        return Verdict::Error;
    if (m.cosine && *m.cosine < t.warningCosine)
        return Verdict::Warning;
    if (m.within1e3 && *m.within1e3 < t.warningWithin1e3)
        return Verdict::Warning;
    if (m.elements > 0 && double(m.underflow + m.overflow) / double(m.elements) > t.warningUnderflowShare)
        return Verdict::Warning;
    return Verdict::Pass;
}

Verdict statisticsVerdict(const StatisticsMetrics& m, const CompareThresholds& t)
{
    bool any = false;
    Verdict verdict = Verdict::Pass;
    if (m.targetNonFinite)
        return Verdict::Error;
    for (size_t i = 0; i < 4; ++i) {
        if (!m.diff[i])
            continue;
        any = true;
        const std::optional<double>& r = m.ratio[i];
        if (r && std::isfinite(*r)) {
            if (*r > t.statisticsErrorRatio)
                return Verdict::Error;
            if (*r > t.statisticsWarningRatio)
                verdict = Verdict::Warning;
        }
    }
    return any ? verdict : Verdict::None;
}

Verdict md5Verdict(const QString& bench, const QString& target)
{
    if (bench.isEmpty() || target.isEmpty())
        return Verdict::None;
    return bench == target ? Verdict::Pass : Verdict::Error;
}

} // namespace runlens::models::accuracy
