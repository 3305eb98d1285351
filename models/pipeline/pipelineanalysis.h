#pragma once

#include "models/pipeline/datapipeline.h"

#include <QString>

#include <vector>

namespace runlens::models::pipeline {

/// The queue-usage thresholds of MindInsight's pipeline analysis (usage rates 0..1).
struct BottleneckThresholds
{
    double high = 0.8; ///< every non-root queue at least this full: the pipeline keeps up
    double low = 0.6; ///< a source whose queue is used less than this is slow
    double childMargin = 0.1; ///< a child's queue fuller than the op's own by more than this: the op is slow
};

/// Host queue empty in more than this share of steps: the data pipeline is the problem.
constexpr double kHostQueueEmptyWarning = 0.3;
/// Average busy CPU (100 - idle) above this percentage may limit data processing.
constexpr double kCpuBusyWarning = 80.0;

/// The ops whose queues show them as bottlenecks, ordered: ops slower than their child (largest gap
/// first), then slow sources (emptiest first). `keepsUp` (when given) is set when every non-root queue is
/// at least `high` full; the list is then empty. Ops without queue data count as empty queues, the root
/// (whose output is the host queue) is never compared, and a pipeline without any queue data gives
/// nothing.
std::vector<Bottleneck> findBottlenecks(const DataPipeline& pipeline, const BottleneckThresholds& thresholds = {},
                                        bool* keepsUp = nullptr);

/// Fills `bottlenecks` and `pipelineKeepsUp` from the ops, then appends ops named by a 2.x summary's
/// warnings that the queues did not already point at.
void analysePipeline(DataPipeline& pipeline, const BottleneckThresholds& thresholds = {});

QueueVerdict queueVerdict(const DataPipeline& pipeline);

/// One sentence saying why the op is a bottleneck (translated).
QString bottleneckReasonText(const DataPipeline& pipeline, const Bottleneck& bottleneck);
/// What to try for an op of this kind (translated): sources, generators, maps, batches.
QString bottleneckAdvice(const PipelineOp& op);
/// The verdict as a sentence with the ratios (translated); empty for Unknown.
QString queueVerdictText(const DataPipeline& pipeline);

} // namespace runlens::models::pipeline
