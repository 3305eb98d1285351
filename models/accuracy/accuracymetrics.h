#pragma once

#include "models/tensor/tensor.h"

#include <QJsonObject>
#include <QString>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>

namespace runlens::models::accuracy {

/// The judgement on one compared pair. None: nothing could be compared (empty tensor, missing file, a
/// scalar); Unmatched: the row exists on one side only.
enum class Verdict { Pass, Warning, Error, None, Unmatched };

/// "pass", "warning", "error", "none", "unmatched" (stable ids of the JSON output).
QString verdictId(Verdict verdict);
/// The worse of two verdicts (Error > Warning > Pass > None > Unmatched).
Verdict worse(Verdict a, Verdict b);
/// True when `verdict` is at least `level` (Warning or Error).
bool reaches(Verdict verdict, Verdict level);

/// Real-data metrics of one tensor pair, bench B against target N, over elements flattened in C order and
/// accumulated in float64. Absent values could not be computed (see the members); they print as null.
///
/// Elements non-finite on both sides in the same way (NaN and NaN, or the same infinity) are set to 0 on
/// both sides first, as msprobe does; elements where only one side is NaN (or infinite, or the infinities
/// differ) are counted in nanMismatch/infMismatch and left out of every other metric.
struct TensorMetrics
{
    bool compared = false; ///< element-wise metrics were computed (same shape, both readable, not empty)
    QString note; ///< why not, or what to know (dtypes differ, shapes differ, all zero on one side)
    std::int64_t elements = 0;
    /// N·B / (|N| |B|); 1 when both norms are 0, absent when exactly one is 0 or the tensor has one element.
    std::optional<double> cosine;
    std::optional<double> maxAbs; ///< max |N - B|
    /// max |N - B| / |B|; where B is 0, |N| / 2.22e-16 (0 when N is 0 too).
    std::optional<double> maxRel;
    std::optional<double> meanAbs; ///< mean |N - B|
    std::optional<double> rmse; ///< sqrt(mean (N - B)^2)
    /// |N - B| / |B| (Euclidean norms); absent when |B| is 0 and N differs.
    std::optional<double> relEuclidean;
    std::optional<double> within1e3; ///< share of elements with relative error < 0.001
    std::optional<double> within5e3; ///< share of elements with relative error < 0.005
    std::int64_t nanMismatch = 0; ///< NaN on exactly one side
    std::int64_t infMismatch = 0; ///< infinite on one side only, or infinities of opposite sign
    /// Half-precision target (float16, bfloat16): bench non-zero and finite, target 0 or below the smallest
    /// normal number of its dtype.
    std::int64_t underflow = 0;
    /// Half-precision target: bench finite, target infinite.
    std::int64_t overflow = 0;
};

/// Computes TensorMetrics in one streaming pass over both tensors (one run of each in memory at a time).
/// Shapes that differ are reported in `note` and not compared. `cancelled` is polled between runs; a
/// cancelled computation returns nullopt.
std::optional<TensorMetrics> computeTensorMetrics(const tensor::Tensor& bench, const tensor::Tensor& target,
                                                  const std::function<bool()>& cancelled = {});

/// The four statistics msprobe records per tensor.
struct TensorStats
{
    std::optional<double> max, min, mean, norm;
};

/// Statistics mode: per statistic (Max, Min, Mean, Norm in that order) the difference target - bench and
/// the relative difference |diff / bench| (absent when the bench value is 0 or either side is missing).
struct StatisticsMetrics
{
    std::array<std::optional<double>, 4> diff;
    std::array<std::optional<double>, 4> rel;
    /// msprobe's warning ratio |diff| / (|max(target, bench)| + 1e-10), per statistic.
    std::array<std::optional<double>, 4> ratio;
    bool targetNonFinite = false; ///< target Max or Min is NaN or infinite while the bench's are finite
};
StatisticsMetrics computeStatisticsMetrics(const TensorStats& bench, const TensorStats& target);

/// Thresholds of the verdicts, read from a rule file (models/accuracy/comparethresholds.json, compiled in as
/// :/accuracy/comparethresholds.json); the defaults are msprobe's.
struct CompareThresholds
{
    // Tensor mode, error (msprobe's "Accuracy Reached or Not" = No): cosine < errorCosine, or cosine <
    // errorCosineWithAbs while max_abs > errorCosineAbs, or max_abs > errorMaxAbs, or any NaN/Inf mismatch.
    double errorCosine = 0.9;
    double errorCosineWithAbs = 0.99;
    double errorCosineAbs = 0.001;
    double errorMaxAbs = 1.0;
    // Tensor mode, warning: cosine < warningCosine, or within_1e-3 < warningWithin1e3, or half-precision
    // underflow/overflow share above warningUnderflowShare.
    double warningCosine = 0.9999;
    double warningWithin1e3 = 0.99;
    double warningUnderflowShare = 0.0;
    // Statistics mode: warning when a statistic's ratio exceeds statisticsWarningRatio (msprobe's 0.5);
    // error when it exceeds statisticsErrorRatio or the target's Max/Min is not finite while the bench's is.
    double statisticsWarningRatio = 0.5;
    double statisticsErrorRatio = 1.0;

    /// The built-in thresholds (the compiled-in file; msprobe's defaults when it cannot be read).
    static CompareThresholds builtIn();
    /// Thresholds from a rule file's JSON; keys missing keep `base`'s values.
    static CompareThresholds fromJson(const QJsonObject& json, const CompareThresholds& base);
};

Verdict tensorVerdict(const TensorMetrics& metrics, const CompareThresholds& thresholds);
Verdict statisticsVerdict(const StatisticsMetrics& metrics, const CompareThresholds& thresholds);
/// md5 mode: equal CRC strings pass, different ones are an error, an absent one gives None.
Verdict md5Verdict(const QString& bench, const QString& target);

} // namespace runlens::models::accuracy
