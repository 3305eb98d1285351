#include "models/advisor/evidence.h"
#include "models/advisor/weightanalyser.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>

namespace runlens::models::advisor {

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

void WeightAnalyser::addGradient(const QString& run, int rank, qint64 step, const QString& name, const TensorClass& cls,
                                 double sumSquares, double rms, const QString& evidence)
{
    m_sawGradients = true;
    StepGradients& g = m_gradients[GradientKey { run, rank, step }];
    // A copy named as such, or a float16 tensor, gives way to the full-precision gradient of the same parameter.
    const bool copy = cls.halfPrecision || withoutPrecisionMark(name) != name;
    StepGradients::Part part { sumSquares, rms, copy, cls.biasGradient, cls.layer, evidence };
    if (g.evidence.isEmpty())
        g.evidence = evidence;
    const QString parameter = gradientTarget(name);
    const auto known = g.parameters.find(parameter);
    if (known == g.parameters.end())
        g.parameters.emplace(parameter, std::move(part));
    else if (known->second.half && !part.half)
        known->second = std::move(part); // the full-precision gradient over its half copy
}

void WeightAnalyser::addGradientStep(const QString& run, int rank, const QString& name, qint64 step, double meanAbs)
{
    if (!std::isfinite(meanAbs))
        return;
    double& seen = m_gradientSteps[parameterKey(run, rank, gradientTarget(name))][step];
    seen = std::max(seen, meanAbs);
}

bool WeightAnalyser::gradientTooSmallToMove(const QString& key, const SeriesRecord::Pair& pair) const
{
    const auto gradients = m_gradientSteps.constFind(key);
    if (gradients == m_gradientSteps.cend() || !std::isfinite(pair.magnitude))
        return false;
    const double bound = pair.magnitude * pair.epsilon / kSmallestLearningRate;
    bool small = false;
    for (auto it = gradients->lower_bound(pair.from); it != gradients->end() && it->first < pair.to; ++it) {
        if (!(it->second > 0) || it->second > bound)
            return false; // zero (nothing to apply) or large enough to move it: frozen
        small = true;
    }
    return small;
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
    for (PendingUnchanged& pending : m_unchanged) {
        // A weight that receives no gradient at all has its own finding, which says why it does not change.
        if (m_noGradient.contains(pending.key))
            continue;
        // A pair whose gradient was non-zero but too small to move the weight within its precision did not
        // change for that reason: vanishing gradients, which the gradient's findings report, not a frozen
        // layer. Frozen is unchanged with the gradient zero, not recorded, or large enough to have moved it.
        std::vector<std::pair<qint64, qint64>> frozen;
        for (const SeriesRecord::Pair& pair : pending.pairs) {
            if (!gradientTooSmallToMove(pending.key, pair))
                frozen.emplace_back(pair.from, pair.to);
        }
        // Unchanged pairs followed by changes were a pause, not a frozen layer: the weight learns afterwards.
        if (!frozen.empty() && frozen.back().second != pending.lastTo)
            frozen.clear();
        const qint64 from = frozen.empty() ? -1 : frozen.front().first;
        const qint64 to = frozen.empty() ? -1 : frozen.front().second;
        Worst unchanged;
        unchanged.offer(double(frozen.size()), to, true);
        const QString evidence = pending.histogram ? histogramEvidence(pending.scope.run, pending.tensor, to)
                                                   : tensorEvidence(pending.tensor, pending.scope.run, to);
        emitWorst(kUnchanged, unchanged, pending.scope, evidence,
                  { { QStringLiteral("pairs"), pending.compared },
                    { QStringLiteral("from_step"), from },
                    { QStringLiteral("to_step"), to } });
    }
    m_unchanged.clear();
}

QString WeightAnalyser::consequences(const Overflow& overflow) const
{
    const FirstOverflow first = m_firstOverflow.value(overflow.run);
    // A tensor without a step (a checkpoint member) comes after nothing.
    if (!first.known() || first.step < 0)
        return {};
    const QString where = first.tensor + QCoreApplication::translate("runlens::advisor", " at step %1").arg(first.step);
    return QCoreApplication::translate("runlens::advisor",
                                       " The run's first overflow is %1; what weights and gradients show after it "
                                       "follows from it and is not reported again.")
        .arg(where);
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
            m.facts.insert(QStringLiteral("consequences"), consequences(o));
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
        // After the run's first overflow the gradients show its consequences.
        if (key.step > cutoff(key.run) || g.parameters.empty())
            continue;
        double sumSquares = 0;
        std::map<QString, double> layerRms;
        for (const auto& [parameter, part] : g.parameters) {
            sumSquares += part.sumSquares;
            // A layer whose gradient is zero here is disconnected, not a point on the depth pattern.
            if (!part.biasGradient && !part.layer.isEmpty() && std::isfinite(part.rms) && part.rms > 0)
                layerRms[part.layer] = part.rms;
        }
        Measurement norm;
        norm.metric = kGradientNorm;
        norm.value = std::sqrt(sumSquares);
        norm.scope = tensorScope(key.run, key.rank, key.step, {}, {});
        norm.order = double(key.step);
        norm.facts.insert(QStringLiteral("tensors"), int(g.parameters.size()));
        norm.evidence << g.evidence;
        m_context.add(std::move(norm));

        if (int(layerRms.size()) < kMinDepthLayers)
            continue;
        std::vector<std::pair<double, QString>> layers;
        for (const auto& [layer, rms] : layerRms)
            layers.emplace_back(m_order.position(layer), layer);
        std::sort(layers.begin(), layers.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : naturalLess(a.second, b.second);
        });
        const QString& first = layers.front().second;
        const QString& last = layers.back().second;
        const double firstRms = layerRms.at(first);
        const double lastRms = layerRms.at(last);
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

} // namespace runlens::models::advisor
