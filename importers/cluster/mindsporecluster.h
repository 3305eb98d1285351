#pragma once

#include "importers/core/importcontrol.h"
#include "models/cluster/cluster.h"

#include <QString>
#include <QStringList>

namespace runlens::importers::cluster {

/// Reads the cluster files of MindSpore profiler output into a Cluster (analysed, diagnostics included):
/// - `ascend_cluster_analyse_{mode}_{stages}_{ranks}_{rank}.csv`: per-step computation, communication
///   alone and, for pipeline parallel, stage, receive and collective times (ms); the last row is the
///   average;
/// - `step_trace_raw_{id}_detail_time.csv`: per-step interval, fp+bp, tail and total in 10 ns ticks; the
///   last row (step `-`) is the average. The only per-rank source when the cluster files are absent;
/// - `hccl_raw_{id}.csv`: per-step link_info `{"src-dst": {type: [cost ms, size MB, bandwidth GB/s]}}`; the
///   average row `-` gives the links;
/// - `flops_summary_{id}.json` (FLOPs, FLOPS or their cube_/vec_ halves), `parallel_strategy*.json`
///   (stage of each rank), `profiler_info_{id}.json` (rank size, parallel mode, stage count).
/// `paths` are files or folders; folders are walked a few levels deep (one `profiler/` folder holding every
/// rank's files, `rank_N/` folders, `profiler*/` and `*_ascend_ms/ASCEND_PROFILER_OUTPUT/`). Inside a
/// `rank_N` folder the rank is N, else the file's `_{id}`. Columns are found by header name. A bad file gives
/// a diagnostic naming it and the other files still count.
class MindSporeClusterReader
{
public:
    static models::cluster::Cluster read(const QStringList& paths, const ImportControl& control = {});
    /// True when `folder` (walked as read() does) holds step-trace, cluster-analyse or HCCL files of at
    /// least one rank: worth offering a cluster view.
    static bool containsClusterFiles(const QString& folder);
};

} // namespace runlens::importers::cluster
