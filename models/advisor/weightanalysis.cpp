#include "models/advisor/evidence.h"
#include "models/advisor/weightanalyser.h"

#include <QCoreApplication>

#include <algorithm>

namespace runlens::models::advisor {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::advisor)
};

} // namespace

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
        for (const tensor::TensorSeries& series : m_input.tensors->series())
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

void WeightAnalyser::markAll()
{
    const QString noTensors = Text::tr("no tensor dumps, tensor files or weight/gradient histograms are loaded");
    auto mark = [&](const QString& metric, bool evaluated, const QString& reason) {
        if (evaluated)
            m_context.markEvaluated(metric);
        else
            m_context.markMissing(metric, m_sawTensors ? reason : noTensors);
    };
    mark(kTensorNonfinite, m_sawTensors, noTensors);
    mark(kZeroShare, m_sawTensorValues, Text::tr("no tensor values could be read"));
    mark(kInitZero, m_sawWeightAtStepZero, Text::tr("no weight is recorded at step 0"));
    mark(kInitAbsMax, m_sawWeightAtStepZero, Text::tr("no weight is recorded at step 0"));
    mark(kUnchanged, m_sawWeightPair, Text::tr("no weight is recorded at two steps"));
    mark(kUpdateRatio, m_sawWeightTensorPair,
         Text::tr("no weight tensor is dumped at two steps (histograms do not give the update ratio)"));
    mark(kGradientNonfinite, m_sawGradients, Text::tr("no gradient tensors or histograms are loaded"));
    mark(kGradientAbsMean, m_sawGradients, Text::tr("no gradient tensors or histograms are loaded"));
    mark(kGradientZeroSteps, m_sawGradientSteps, Text::tr("no gradient is recorded at two steps or more"));
    mark(kGradientNorm, m_sawGradients, Text::tr("no gradient tensors or histograms are loaded"));
    mark(kGradientDepth, m_sawDepth,
         Text::tr("fewer than three layers have finite weight gradients recorded at the same step"));
    mark(kDeadRelu, m_sawRelu, Text::tr("no ReLU activation is dumped"));
    mark(kSaturation, m_sawSaturating, Text::tr("no sigmoid or tanh activation is dumped"));
    mark(kFp16Risk, m_sawHalf, Text::tr("no float16 tensor or fp16 copy is dumped"));
}

void WeightAnalyser::findFirstOverflows()
{
    auto offer = [this](const QString& run, qint64 step, const QString& tensor) {
        if (step < 0)
            return; // a checkpoint member has no place in the order of the steps
        FirstOverflow& first = m_firstOverflow[run];
        if (step < first.step)
            first = { step, tensor };
    };
    // The loss is computed after the forward pass of its step: a tensor of the same step that overflows comes
    // first in execution order.
    for (const ScalarTrack& track : m_input.scalars) {
        if (!track.tag.contains(QLatin1String("loss"), Qt::CaseInsensitive))
            continue;
        const std::size_t n = std::min(track.steps.size(), track.values.size());
        for (std::size_t i = 0; i < n; ++i) {
            if (!std::isfinite(track.values[i])) {
                offer(track.run, track.steps[i], track.tag);
                break;
            }
        }
    }
    std::vector<Overflow> tensors = m_overflows;
    std::sort(tensors.begin(), tensors.end(), executesBefore);
    QSet<QString> runs;
    for (const Overflow& o : tensors) {
        if (o.step < 0 || runs.contains(o.run))
            continue; // the run's first tensor in execution order is the one
        runs.insert(o.run);
        FirstOverflow& first = m_firstOverflow[o.run];
        if (o.step <= first.step) // at the loss's step, the tensor ran before the loss was computed
            first = { o.step, o.tensor };
    }
    for (const HistogramTrack& track : m_input.histograms) {
        for (const summary::Histogram& h : track.items) {
            if (h.nanCount + h.posInfCount + h.negInfCount > 0) {
                offer(track.run, h.step, track.tag);
                break;
            }
        }
    }
}

qint64 WeightAnalyser::cutoff(const QString& run) const
{
    return m_firstOverflow.value(run).step;
}

void WeightAnalyser::run()
{
    buildLayerOrder();
    struct Collected
    {
        const tensor::TensorSeries* series;
        TensorClass cls;
        SeriesRecord record;
    };
    std::vector<Collected> collected;
    if (m_input.tensors) {
        for (const tensor::TensorSeries& series : m_input.tensors->series())
            m_seriesByName.insert(parameterKey(series.run, series.rank, series.name), &series);
        for (const tensor::TensorSeries& series : m_input.tensors->series()) {
            if (m_context.isCanceled())
                return;
            const TensorClass cls = classifySeries(series);
            collected.push_back({ &series, cls, collectSeries(series, cls) });
        }
    }
    // What every tensor shows after its run's first overflow follows from it: the overflow is reported, and
    // the figures are taken up to its step.
    findFirstOverflows();
    for (Collected& c : collected)
        finishSeries(*c.series, c.cls, c.record);
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

void analyseWeights(const AdvisorInput& input, AnalysisContext& context)
{
    WeightAnalyser(input, context).run();
}

} // namespace runlens::models::advisor
