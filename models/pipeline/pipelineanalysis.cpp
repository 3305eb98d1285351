#include "models/pipeline/pipelineanalysis.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace runlens::models::pipeline {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::pipeline)
};

QString percent(double ratio)
{
    return QString::number(ratio * 100.0, 'f', 1);
}

/// MindInsight reads a missing usage rate as an empty queue.
double usageOrZero(const PipelineOp* op)
{
    return op && op->hasQueue() ? op->queueUsage : 0.0;
}

} // namespace

std::vector<Bottleneck> findBottlenecks(const DataPipeline& pipeline, const BottleneckThresholds& thresholds,
                                        bool* keepsUp)
{
    if (keepsUp)
        *keepsUp = false;
    const bool anyQueue
        = std::any_of(pipeline.ops.begin(), pipeline.ops.end(), [](const PipelineOp& op) { return op.hasQueue(); });
    if (!anyQueue)
        return {};

    std::vector<Bottleneck> slower;
    std::vector<Bottleneck> sources;
    bool allHigh = true;
    int nonRoot = 0;
    for (const PipelineOp& op : pipeline.ops) {
        if (op.parent < 0)
            continue;
        ++nonRoot;
        const double usage = usageOrZero(&op);
        if (usage < thresholds.high)
            allHigh = false;
        if (op.isSource()) {
            if (usage < thresholds.low) {
                Bottleneck b;
                b.opId = op.id;
                b.reason = BottleneckReason::SlowSource;
                b.usage = usage;
                sources.push_back(b);
            }
            continue;
        }
        Bottleneck worst;
        for (int childId : op.children) {
            const double childUsage = usageOrZero(pipeline.op(childId));
            if (childUsage - usage > thresholds.childMargin && (worst.opId < 0 || childUsage > worst.childUsage)) {
                worst.opId = op.id;
                worst.reason = BottleneckReason::SlowerThanChild;
                worst.usage = usage;
                worst.childId = childId;
                worst.childUsage = childUsage;
            }
        }
        if (worst.opId >= 0)
            slower.push_back(worst);
    }
    if (nonRoot > 0 && allHigh) {
        if (keepsUp)
            *keepsUp = true;
        return {};
    }
    std::stable_sort(slower.begin(), slower.end(), [](const Bottleneck& a, const Bottleneck& b) {
        return a.childUsage - a.usage > b.childUsage - b.usage;
    });
    std::stable_sort(sources.begin(), sources.end(),
                     [](const Bottleneck& a, const Bottleneck& b) { return a.usage < b.usage; });
    slower.insert(slower.end(), sources.begin(), sources.end());
    return slower;
}

void analysePipeline(DataPipeline& pipeline, const BottleneckThresholds& thresholds)
{
    pipeline.bottlenecks = findBottlenecks(pipeline, thresholds, &pipeline.pipelineKeepsUp);
    // MindSpore's own analyser names ops as "Type(id=N)" in its warnings.
    static const QRegularExpression idPattern(QStringLiteral("\\(id=(\\d+)\\)"));
    for (const QString& warning : pipeline.summaryWarnings) {
        const QRegularExpressionMatch match = idPattern.match(warning);
        if (!match.hasMatch())
            continue;
        const int id = match.captured(1).toInt();
        if (!pipeline.op(id) || pipeline.isBottleneck(id))
            continue;
        Bottleneck b;
        b.opId = id;
        b.reason = BottleneckReason::ReportedBySummary;
        b.usage = pipeline.op(id)->queueUsage;
        b.text = warning;
        pipeline.bottlenecks.push_back(b);
    }
}

QueueVerdict queueVerdict(const DataPipeline& pipeline)
{
    const HostQueue& host = pipeline.hostQueue;
    if (host.empty())
        return QueueVerdict::Unknown;
    if (double(host.emptyCount()) > double(host.samples.size()) * kHostQueueEmptyWarning)
        return QueueVerdict::DataProcessing;
    if (!pipeline.deviceQueue.empty() && pipeline.deviceQueue.emptyCount() > 0)
        return QueueVerdict::DataTransmission;
    return QueueVerdict::Fine;
}

QString bottleneckReasonText(const DataPipeline& pipeline, const Bottleneck& bottleneck)
{
    const PipelineOp* op = pipeline.op(bottleneck.opId);
    const QString name = op ? op->label() : QString::number(bottleneck.opId);
    switch (bottleneck.reason) {
    case BottleneckReason::SlowerThanChild: {
        const PipelineOp* child = pipeline.op(bottleneck.childId);
        return Text::tr("%1: its output queue is %2% full while its input from %3 is %4% full, so it cannot keep up "
                        "with what it is given.")
            .arg(name, percent(bottleneck.usage), child ? child->label() : QString::number(bottleneck.childId),
                 percent(bottleneck.childUsage));
    }
    case BottleneckReason::SlowSource:
        return Text::tr("%1: this source's output queue is only %2% full (below %3%), so reading the data is slow.")
            .arg(name, percent(bottleneck.usage), percent(BottleneckThresholds {}.low));
    case BottleneckReason::ReportedBySummary:
        return Text::tr("%1: named by MindSpore's pipeline analysis: %2").arg(name, bottleneck.text);
    }
    return {};
}

QString bottleneckAdvice(const PipelineOp& op)
{
    const QString type = op.displayType();
    if (op.isSource())
        return Text::tr("Tune num_parallel_workers of the dataset (more workers, or fewer if the disk is the limit).");
    if (type == QLatin1String("Generator"))
        return Text::tr("Raise num_parallel_workers or speed up the generator's Python code; failing that, convert the "
                        "data to MindRecord.");
    if (type == QLatin1String("Map"))
        return Text::tr("Raise num_parallel_workers of the map, and prefer C++ transforms to Python ones.");
    if (type == QLatin1String("Batch"))
        return Text::tr("Raise the prefetch size (mindspore.dataset.config.set_prefetch_size).");
    return Text::tr("Raise num_parallel_workers where the op has them, or move work out of this op.");
}

QString queueVerdictText(const DataPipeline& pipeline)
{
    const HostQueue& host = pipeline.hostQueue;
    switch (queueVerdict(pipeline)) {
    case QueueVerdict::Unknown:
        return {};
    case QueueVerdict::DataProcessing:
        return Text::tr("The host queue was empty in %1% of steps (more than %2%): the data pipeline is too slow; "
                        "optimise data processing.")
            .arg(percent(host.emptyRatio()), percent(kHostQueueEmptyWarning));
    case QueueVerdict::DataTransmission:
        return Text::tr("The host queue is fine (empty in %1% of steps) but the device queue ran empty in %2 of %3 "
                        "GetNext calls: sending data to the device is slow.")
            .arg(percent(host.emptyRatio()))
            .arg(pipeline.deviceQueue.emptyCount())
            .arg(pipeline.deviceQueue.sizedCount());
    case QueueVerdict::Fine:
        return Text::tr("The host queue was empty in %1% of steps and full in %2%: the input keeps up with training.")
            .arg(percent(host.emptyRatio()), percent(host.fullRatio()));
    }
    return {};
}

} // namespace runlens::models::pipeline
