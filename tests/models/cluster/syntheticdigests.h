#pragma once

// Rank digests of a made-up data + tensor parallel training job, for the cluster view's tests and its
// 1,024-rank benchmark: per step realistic compute / communication / idle figures with a little noise,
// a few slow ranks, and collectives in two kinds of process groups (tensor parallel inside a node of 8,
// data parallel across nodes) whose durations say who arrived last.

#include "models/cluster/rankdigest.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

namespace runlens::models::cluster::synthetic {

struct JobShape
{
    int worldSize = 16;
    int steps = 20;
    int ranksPerNode = 8;
    /// Steps (the last ones) whose collectives are kept; -1: all.
    int collectiveSteps = -1;
    /// Ranks whose computation is slower by `slowFactor`.
    std::set<int> slowRanks { 5 };
    double slowFactor = 1.25;
    /// Write process groups into the collectives (else the groups must be inferred from sequences).
    bool namedGroups = true;
};

/// Deterministic noise in [-1, 1) from a rank and a step.
inline double noise(int rank, std::int64_t step, int salt = 0)
{
    std::uint64_t x = std::uint64_t(rank) * 0x9E3779B97F4A7C15ull ^ std::uint64_t(step) * 0xC2B2AE3D27D4EB4Full
        ^ std::uint64_t(salt) * 0x165667B19E3779F9ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    return double(x >> 11) / double(1ull << 52) - 1.0;
}

inline QString rankList(const std::vector<int>& ranks)
{
    QStringList parts;
    for (int r : ranks)
        parts << QString::number(r);
    return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

/// Computation of `rank` in step `step`, ms: the slow ranks take longer.
inline double computationMs(const JobShape& job, int rank, std::int64_t step)
{
    const double base = 180.0 * (1.0 + 0.02 * noise(rank, step, 1));
    return job.slowRanks.count(rank) ? base * job.slowFactor : base;
}

inline models::cluster::RankDigest makeDigest(const JobShape& job, int rank)
{
    models::cluster::RankDigest d;
    d.worldSize = job.worldSize;
    models::cluster::RankFigures& f = d.figures;
    f.rank = rank;
    f.host = QStringLiteral("node%1").arg(rank / job.ranksPerNode, 3, 10, QLatin1Char('0'));
    f.device = QStringLiteral("NVIDIA H100 80GB HBM3");
    f.path = QStringLiteral("/data/job/rank-%1.json").arg(rank);
    d.file = f.path;
    const int node = rank / job.ranksPerNode;
    const int local = rank % job.ranksPerNode;
    const int nodes = std::max(1, job.worldSize / job.ranksPerNode);
    std::vector<int> tpRanks;
    for (int k = 0; k < job.ranksPerNode; ++k)
        tpRanks.push_back(node * job.ranksPerNode + k);
    std::vector<int> dpRanks;
    for (int n = 0; n < nodes; ++n)
        dpRanks.push_back(n * job.ranksPerNode + local);
    const QString tpName = QStringLiteral("%1").arg(1 + node);
    const QString dpName = QStringLiteral("%1").arg(1 + nodes + local);
    const QString tpList = rankList(tpRanks);
    const QString dpList = rankList(dpRanks);

    // Every rank waits in its step's collectives for the slowest member: the step takes what the slowest
    // rank's computation takes, the rest is communication not overlapped (and a little idle).
    double slowestTp = 0;
    double sums[6] = {};
    std::int64_t clock = 1'700'000'000'000'000'000;
    for (int s = 0; s < job.steps; ++s) {
        const std::int64_t step = s + 1;
        const double compute = computationMs(job, rank, step);
        slowestTp = 0;
        for (int r : tpRanks)
            slowestTp = std::max(slowestTp, computationMs(job, r, step));
        double slowestDp = 0;
        for (int r : dpRanks)
            slowestDp = std::max(slowestDp, computationMs(job, r, step));
        const double slowest = std::max(slowestTp, slowestDp);
        const double tpTime = 6.0 + 0.3 * noise(rank, step, 2);
        const double dpTime = 14.0 + 0.8 * noise(rank, step, 3);
        const double idle = 2.0 + 0.5 * noise(rank, step, 4) + (rank == 3 && step % 50 == 7 ? 40.0 : 0.0);
        const double waitTp = slowestTp - compute;
        const double waitDp = slowest - std::max(compute, slowestTp);
        models::cluster::RankStep rs;
        rs.step = step;
        rs.computation = compute;
        rs.overlapped = 20.0 + noise(rank, step, 5);
        rs.communication = tpTime + dpTime + waitTp + waitDp;
        rs.idle = idle;
        rs.stepTime = compute + rs.communication + idle;
        rs.communicationShare = (rs.communication + rs.overlapped) / rs.stepTime;
        rs.lastCommunicationOffset = rs.stepTime - dpTime - waitDp - idle;
        f.steps.push_back(rs);
        const double values[6]
            = { rs.stepTime, rs.computation, rs.communication, rs.overlapped, rs.idle, rs.communicationShare };
        for (int k = 0; k < 6; ++k)
            sums[k] += values[k];
        const auto ns = [](double ms) { return std::int64_t(ms * 1e6); };
        models::cluster::DigestStep ds { step, clock, clock + ns(rs.stepTime), s % 97 == 11 ? 12.5 : 0.4 };
        d.steps.push_back(ds);
        if (job.collectiveSteps < 0 || s >= job.steps - job.collectiveSteps) {
            // The tensor parallel all-reduce starts when this rank's computation is done and ends when the
            // slowest member's is: its duration holds the wait.
            models::cluster::DigestCollective tp;
            tp.name = QStringLiteral("allreduce");
            tp.start = clock + ns(compute);
            tp.end = clock + ns(slowestTp + tpTime);
            tp.bytes = 64.0 * 1024 * 1024;
            if (job.namedGroups) {
                tp.group = tpName;
                tp.groupSize = int(tpRanks.size());
                tp.groupRanks = tpList;
            }
            models::cluster::DigestCollective dp;
            dp.name = job.namedGroups ? QStringLiteral("allreduce") : QStringLiteral("reduce_scatter");
            dp.start = tp.end;
            dp.end = clock + ns(slowest + tpTime + dpTime);
            dp.bytes = 512.0 * 1024 * 1024;
            if (job.namedGroups) {
                dp.group = dpName;
                dp.groupSize = int(dpRanks.size());
                dp.groupRanks = dpList;
            } else if (nodes > 1) {
                // Unnamed: told apart by the sizes each node's ranks send.
                dp.bytes += 1024.0 * local;
            }
            d.collectives.push_back(tp);
            if (nodes > 1)
                d.collectives.push_back(dp);
        }
        clock += ns(rs.stepTime) + 1000;
    }
    const double n = std::max(1, job.steps);
    f.stepTime = sums[0] / n;
    f.computation = sums[1] / n;
    f.communication = sums[2] / n;
    f.overlapped = sums[3] / n;
    f.idle = sums[4] / n;
    f.communicationShare = sums[5] / n;
    d.kernels = { { QStringLiteral("sm90_xmma_gemm_bf16bf16_bf16f32"), std::uint64_t(job.steps) * 96,
                    f.computation * 0.6 * n, 4.1 },
                  { QStringLiteral("ncclDevKernel_AllReduce_Sum_bf16_RING_LL"), std::uint64_t(job.steps) * 2,
                    f.communication * n, 30.0 } };
    d.operators = { { QStringLiteral("aten::mm"), std::uint64_t(job.steps) * 96, f.computation * 0.5 * n, 3.0 } };
    return d;
}

} // namespace runlens::models::cluster::synthetic
