#pragma once

#include "models/scalars/scalarseries.h"
#include "models/tensor/tensor.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVariantMap>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace runlens::models::summary {

/// One bucket of a histogram: the values in (left, right], or [left, right] for the last bucket.
struct HistogramBucket
{
    double left = 0.0;
    double right = 0.0;
    double count = 0.0;
};

/// The distribution of a tensor's values at one step. TensorBoard's HistogramProto, TF2's `[k, 3]`
/// histogram tensors, MindSpore's Histogram and VisualDL's histogram all arrive in this form.
/// Statistics a source does not record are NaN (TF2 tensors carry only buckets).
struct Histogram
{
    static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

    qint64 step = 0;
    double wallTime = 0.0;
    double min = kUnknown; ///< of the finite values
    double max = kUnknown;
    double count = kUnknown; ///< number of finite values (TensorBoard's `num`)
    double sum = kUnknown;
    double sumSquares = kUnknown;
    std::vector<HistogramBucket> buckets; ///< in increasing order of `left`
    qint64 nanCount = 0; ///< MindSpore records these; TensorBoard cannot
    qint64 posInfCount = 0;
    qint64 negInfCount = 0;

    /// Sum of the bucket counts.
    double bucketTotal() const;
    /// The value below which `fraction` (0..1) of the counted values lie, interpolating linearly inside
    /// the bucket that holds it (TensorBoard's compressed-histogram rule). NaN for an empty histogram.
    double percentile(double fraction) const;
    /// The lowest left and highest right edge over the buckets with a non-zero count (NaN when empty).
    double lowestEdge() const;
    double highestEdge() const;
};

/// The images of a tag at one step, encoded as they were written (PNG, JPEG or GIF). Most writers put
/// one image per step (MindSpore tiles its batch into one); TF2 image tensors and VisualDL may hold
/// several.
struct SummaryImage
{
    qint64 step = 0;
    double wallTime = 0.0;
    int width = 0; ///< as the writer declared it; 0 when unknown
    int height = 0;
    int colorspace = 0; ///< channels (1 grey, 3 RGB, 4 RGBA), 0 when unknown
    QList<QByteArray> encoded; ///< one entry per image
};

/// One audio clip as it was written (WAV for every writer RunLens reads), with its label when the writer
/// gave one (the TF2 audio plugin's second column).
struct AudioClip
{
    QByteArray encoded;
    QString label;
};

/// The audio clips of a tag at one step, encoded as they were written. TensorBoard's Summary.Audio and
/// VisualDL hold one clip; TF2 audio tensors may hold several. The format fields are as the writer declared
/// them, or read from the first clip's WAV header when it declared none; 0 when unknown.
struct SummaryAudio
{
    qint64 step = 0;
    double wallTime = 0.0;
    double sampleRate = 0.0;
    int channels = 0;
    qint64 frames = 0; ///< of the first clip
    QString contentType; ///< "audio/wav" for the writers known
    QList<AudioClip> clips;
};

/// A text value at one step: a string tensor of rank 0 (one text), 1 (a list) or 2 (a table, row-major).
/// Texts are Markdown in TensorBoard's text plugin.
struct SummaryText
{
    qint64 step = 0;
    double wallTime = 0.0;
    std::vector<qint64> shape; ///< empty for a single text
    QStringList cells;
};

/// A precision-recall curve at one step: TensorBoard's `[6, N]` pr_curves tensor. Entry i belongs to the
/// threshold i / (N - 1). VisualDL ROC records use the same shape: their counts are what the ROC view
/// draws, and precision and recall are derived from those counts.
struct PrCurve
{
    qint64 step = 0;
    double wallTime = 0.0;
    std::vector<double> truePositives;
    std::vector<double> falsePositives;
    std::vector<double> trueNegatives;
    std::vector<double> falseNegatives;
    std::vector<double> precision;
    std::vector<double> recall;

    int thresholdCount() const { return int(precision.size()); }
    double threshold(int i) const { return thresholdCount() > 1 ? double(i) / (thresholdCount() - 1) : 0.0; }
};

/// A tensor recorded in a summary at one step (TensorBoard tensors of no known plugin, MindSpore
/// TensorSummary): the recorded dtype and shape over bytes held in memory (`tensor.data`, shared, so a
/// series is cheap to copy per poll).
struct SummaryTensor
{
    qint64 step = 0;
    double wallTime = 0.0;
    tensor::Tensor tensor;
};

/// A value series of one tag, with what TensorBoard's reservoir sampling left of it: `items` in step
/// order, `seen` the number of values the tag had (an estimate after preemption), `preempted` the
/// values removed because a later value went back to an earlier step.
template<typename Item> struct SummarySeries
{
    QString tag;
    scalars::TagMetadata metadata;
    std::vector<Item> items;
    qint64 seen = 0;
    qint64 preempted = 0;
};

using HistogramSeries = SummarySeries<Histogram>;
using ImageSeries = SummarySeries<SummaryImage>;
using TextSeries = SummarySeries<SummaryText>;
using AudioSeries = SummarySeries<SummaryAudio>;
using PrCurveSeries = SummarySeries<PrCurve>;
using TensorSeries = SummarySeries<SummaryTensor>;

/// A hyper-parameter the experiment declares (TensorBoard hparams plugin `HParamInfo`).
struct HParamInfo
{
    QString name;
    QString displayName;
    QString description;
    QString type; ///< "string", "bool", "float64" or empty
    QVariantList domainValues; ///< a discrete domain, when declared
    double domainMin = std::numeric_limits<double>::quiet_NaN(); ///< an interval domain, when declared
    double domainMax = std::numeric_limits<double>::quiet_NaN();
};

/// A metric the experiment declares: a scalar tag, in the session's run or a sub-folder (`group`) of it.
struct MetricInfo
{
    QString tag;
    QString group;
    QString displayName;
    QString description;
};

/// The hyper-parameters plugin data of one run: the experiment declaration (`_hparams_/experiment`),
/// the session's values (`session_start_info`) and its end (`session_end_info`). Absent parts are empty.
struct HParams
{
    QString experimentName;
    QString experimentDescription;
    QList<HParamInfo> hparamInfos;
    QList<MetricInfo> metricInfos;
    QVariantMap values; ///< hyper-parameter name -> double, QString or bool
    QString groupName;
    QString modelUri;
    double startTime = std::numeric_limits<double>::quiet_NaN();
    double endTime = std::numeric_limits<double>::quiet_NaN();
    QString status; ///< "success", "failure", "running", "unknown" or empty when no end was written

    bool isEmpty() const
    {
        return hparamInfos.isEmpty() && metricInfos.isEmpty() && values.isEmpty() && status.isEmpty();
    }
};

/// What one poll of a summary file adds beyond scalars. Each series holds everything currently kept of
/// that tag **in that file** (it replaces what an earlier poll delivered for the same file and tag), so
/// the reader's reservoir alone bounds memory. `hparams` replaces the file's earlier hparams when set.
struct SummaryBatch
{
    std::vector<HistogramSeries> histograms;
    std::vector<ImageSeries> images;
    std::vector<TextSeries> texts;
    std::vector<AudioSeries> audio;
    std::vector<PrCurveSeries> prCurves;
    std::vector<PrCurveSeries> rocCurves; ///< ROC-only records (VisualDL `add_roc_curve`)
    std::vector<TensorSeries> tensors;
    std::optional<HParams> hparams;

    bool isEmpty() const
    {
        return histograms.empty() && images.empty() && texts.empty() && audio.empty() && prCurves.empty()
            && rocCurves.empty() && tensors.empty() && !hparams;
    }
};

/// How many values per series the readers keep (0 = all). TensorBoard's rules: the latest value is
/// always kept, the others are a uniform sample.
struct SummaryLimits
{
    int scalars = 0; ///< points per scalar series, applied by the ScalarStore
    int histograms = 500;
    int images = 100;
    int texts = 100;
    int audio = 10; ///< steps with audio per tag: clips are large (a second of 16-bit stereo is 176 kB)
    int prCurves = 100; ///< also ROC curves
    int tensors = 20;
};

} // namespace runlens::models::summary
