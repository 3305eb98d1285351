#pragma once

#include "importers/core/importbudget.h"
#include "models/summary/summarydata.h"
#include "models/tensor/tensor.h"

#include <QString>

#include <string>

namespace runlens::tb {
class HistogramProto;
class TensorProto;
} // namespace runlens::tb

namespace runlens::ms {
class Summary_Histogram;
class TensorProto;
} // namespace runlens::ms

/// Decoding of summary values beyond scalars into the shared summary types. Every function fills its
/// output and returns an empty string, or returns why the value cannot be read (a sentence that a
/// diagnostic names the file and tag around) and leaves the output unspecified.
///
/// A value may declare a shape far larger than its bytes (one value repeated to the whole shape), so the
/// declared size is checked before anything is made: against the per-value caps below, and against
/// `budget` when one is given (the bytes the value will take are spent on it; a value past it is refused).
namespace runlens::importers::summary::values {

/// Tensors larger than this are not kept (MindInsight drops those above 10 million elements too).
constexpr qint64 kMaxTensorElements = 10'000'000;
/// Buckets of one histogram: writers use 30 (TensorBoard) to a few hundred; up to 500 are kept per tag.
constexpr qint64 kMaxHistogramBuckets = 10'000;
/// Cells of one text value; the text dashboard shows tables far smaller.
constexpr qint64 kMaxTextCells = 100'000;
/// UTF-8 bytes of one text value once repeated strings are expanded to its shape.
constexpr qint64 kMaxTextBytes = qint64(16) << 20;
/// Thresholds of one PR curve (TensorBoard's default is 127).
constexpr qint64 kMaxPrCurveThresholds = 10'000;

/// A numeric TensorBoard tensor as a tensor::Tensor over a copy of its bytes (little-endian
/// `tensor_content`, or the typed value fields, where a shorter list repeats its last value as
/// TensorFlow does). Strings, complex numbers and resources are refused.
QString numericTensor(const tb::TensorProto& proto, models::tensor::Tensor* out, ImportBudget* budget = nullptr);
/// The elements of a tensor in row-major order as doubles.
std::vector<double> tensorValues(const models::tensor::Tensor& tensor);

/// The single number of a one-element numeric tensor (TF2 scalars). False when it is not one.
bool tensorScalar(const tb::TensorProto& proto, double* value);

/// TensorBoard's legacy HistogramProto: bucket i holds (bucket_limit[i-1], bucket_limit[i]]. Empty
/// buckets at either end are dropped and `min`/`max` bound the outermost buckets (writers put ±DBL_MAX
/// limits there).
QString histogramFromProto(const tb::HistogramProto& proto, models::summary::Histogram* out,
                           ImportBudget* budget = nullptr);
/// TF2 histogram tensors: `[k, 3]` rows (left, right, count).
QString histogramFromTensor(const tb::TensorProto& proto, models::summary::Histogram* out,
                            ImportBudget* budget = nullptr);
/// MindSpore's Histogram: buckets (left, width, count) with NaN and infinity counts.
QString histogramFromMindSpore(const ms::Summary_Histogram& proto, models::summary::Histogram* out,
                               ImportBudget* budget = nullptr);

/// TF2 image tensors: a rank-1 string tensor `[width, height, image, image, ...]` (sizes as text).
QString imagesFromTensor(const tb::TensorProto& proto, models::summary::SummaryImage* out,
                         ImportBudget* budget = nullptr);
/// The TF2 audio plugin: a string tensor of shape `[k, 2]` (WAV bytes, label) or `[k]` (WAV bytes).
QString audioFromTensor(const tb::TensorProto& proto, models::summary::SummaryAudio* out,
                        ImportBudget* budget = nullptr);
/// Fills the sample rate, channels, frames and content type of `audio` from its first clip's WAV header
/// when that can be read (writers' declared values are kept otherwise).
void completeAudioFormat(models::summary::SummaryAudio* audio);
/// The text plugin: a string tensor of any rank, row-major.
QString textFromTensor(const tb::TensorProto& proto, models::summary::SummaryText* out, ImportBudget* budget = nullptr);
/// The pr_curves plugin: a `[6, N]` float tensor (TP, FP, TN, FN, precision, recall).
QString prCurveFromTensor(const tb::TensorProto& proto, models::summary::PrCurve* out, ImportBudget* budget = nullptr);
/// The hparams plugin's `plugin_data.content`: merges the experiment, session start or session end it
/// holds into `out`.
QString hparamsFromPluginData(const std::string& content, models::summary::HParams* out);
/// MindSpore's TensorSummary: `dims` and `float_data` (MindSpore writes every dtype as float32 values).
QString mindSporeTensor(const ms::TensorProto& proto, models::tensor::Tensor* out, ImportBudget* budget = nullptr);

} // namespace runlens::importers::summary::values
