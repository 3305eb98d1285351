#pragma once

#include "models/summary/summarydata.h"

#include <QString>

#include <vector>

namespace runlens::widgets::prcurves {

/// Whether entry `i` of a PR curve has a defined point. Precision is TP / (TP + FP), undefined where
/// nothing is predicted positive (TP + FP == 0); writers store 0 there (torch and TensorBoard divide by a
/// tiny minimum count), which would pull the curve down to a false (0, 0) at the high-threshold end.
/// TensorBoard trims those entries from the tail before drawing; as thresholds rise TP + FP can only
/// shrink, so such entries only ever form that tail, and skipping every one of them is the same rule
/// that also holds for hand-written data out of order. Non-finite precision or recall is skipped too.
bool isDefinedEntry(const models::summary::PrCurve& curve, int i);

/// The entries drawn for a curve, in threshold order (see isDefinedEntry).
std::vector<int> definedEntries(const models::summary::PrCurve& curve);

/// Whether entry `i` has a point on the ROC curve: the four counts are there and finite, and the data has
/// both classes (TP + FN > 0 and FP + TN > 0), so both rates are defined. Rates come from the counts, never
/// from stored ratios: VisualDL stores TP / (TN + FP) as its "tpr".
bool isRocEntry(const models::summary::PrCurve& curve, int i);

/// The entries drawn on the ROC curve, in threshold order (see isRocEntry).
std::vector<int> rocEntries(const models::summary::PrCurve& curve);

/// TP / (TP + FN) and FP / (FP + TN) of entry `i`; NaN where isRocEntry is false.
double truePositiveRate(const models::summary::PrCurve& curve, int i);
double falsePositiveRate(const models::summary::PrCurve& curve, int i);

/// The area under the ROC curve: the trapezoid rule over FPR of the entries' (FPR, TPR) points sorted by
/// FPR then TPR, closed with (0, 0) and (1, 1) as a threshold above and below every score give them
/// (scikit-learn's roc_curve closes the curve the same way). NaN when the curve has no ROC entry.
double rocAuc(const models::summary::PrCurve& curve);

/// The curve a run shows when the chart is at `step`: the latest one written at or before it (runs write
/// at their own steps), or nullptr when the run has none that early. `items` are in step order.
const models::summary::PrCurve* curveAtStep(const std::vector<models::summary::PrCurve>& items, qint64 step);

/// A count (TP, FP, TN, FN) as text: whole numbers without a fraction, weighted counts with up to six
/// significant digits.
QString formatCount(double value);

/// A ratio (threshold, precision, recall) as text with four decimals.
QString formatRatio(double value);

/// An element of one of the curve's vectors, NaN when the writer left that vector short.
inline double entryValue(const std::vector<double>& values, int i)
{
    return i >= 0 && std::size_t(i) < values.size() ? values[std::size_t(i)] : models::summary::Histogram::kUnknown;
}

} // namespace runlens::widgets::prcurves
