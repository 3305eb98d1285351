#pragma once

#include "summary/summarydata.h"
#include "tensor/tensor.h"

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
namespace runlens::summary::values {

/// Tensors larger than this are not kept (MindInsight drops those above 10 million elements too).
constexpr qint64 kMaxTensorElements = 10'000'000;

/// A numeric TensorBoard tensor as a tensor::Tensor over a copy of its bytes (little-endian
/// `tensor_content`, or the typed value fields, where a shorter list repeats its last value as
/// TensorFlow does). Strings, complex numbers and resources are refused.
QString numericTensor(const tb::TensorProto& proto, tensor::Tensor* out);
/// The elements of a tensor in row-major order as doubles.
std::vector<double> tensorValues(const tensor::Tensor& tensor);

/// The single number of a one-element numeric tensor (TF2 scalars). False when it is not one.
bool tensorScalar(const tb::TensorProto& proto, double* value);

/// TensorBoard's legacy HistogramProto: bucket i holds (bucket_limit[i-1], bucket_limit[i]]. Empty
/// buckets at either end are dropped and `min`/`max` bound the outermost buckets (writers put ±DBL_MAX
/// limits there).
QString histogramFromProto(const tb::HistogramProto& proto, Histogram* out);
/// TF2 histogram tensors: `[k, 3]` rows (left, right, count).
QString histogramFromTensor(const tb::TensorProto& proto, Histogram* out);
/// MindSpore's Histogram: buckets (left, width, count) with NaN and infinity counts.
QString histogramFromMindSpore(const ms::Summary_Histogram& proto, Histogram* out);

/// TF2 image tensors: a rank-1 string tensor `[width, height, image, image, ...]` (sizes as text).
QString imagesFromTensor(const tb::TensorProto& proto, SummaryImage* out);
/// The text plugin: a string tensor of any rank, row-major.
QString textFromTensor(const tb::TensorProto& proto, SummaryText* out);
/// The pr_curves plugin: a `[6, N]` float tensor (TP, FP, TN, FN, precision, recall).
QString prCurveFromTensor(const tb::TensorProto& proto, PrCurve* out);
/// The hparams plugin's `plugin_data.content`: merges the experiment, session start or session end it
/// holds into `out`.
QString hparamsFromPluginData(const std::string& content, HParams* out);
/// MindSpore's TensorSummary: `dims` and `float_data` (MindSpore writes every dtype as float32 values).
QString mindSporeTensor(const ms::TensorProto& proto, tensor::Tensor* out);

} // namespace runlens::summary::values
