#pragma once

// The generated Kineto job of bench_clusterdigest: one trace per rank, written to disk as it is made (never
// held in memory), reused between runs while its size and this generator's version stay the same.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace runlens::bench {

/// Bumped whenever the traces below change, so an older job on disk is not taken for this one.
constexpr int kKinetoJobVersion = 1;

/// One rank's Kineto trace of about `targetBytes`: per step a data-loader op, then 100 launches of GEMM kernels
/// (CPU op, runtime call, flow, kernel with Kineto's args) and every 25th launch an NCCL collective on a
/// stream of its own (Kineto's collective args: name, size, dtype, process group), which overlaps the compute
/// stream; [memory] instants. Rank `slowRank` computes and loads data more slowly.
inline bool writeKinetoRankTrace(const QString& path, int rank, int ranks, std::uint64_t targetBytes, int slowRank)
{
    FILE* out = std::fopen(QFile::encodeName(path).constData(), "wb");
    if (!out)
        return false;
    std::string buf;
    buf.reserve(std::size_t(1) << 21);
    std::uint64_t bytes = 0;
    bool ok = true;
    auto flush = [&] {
        ok = ok && std::fwrite(buf.data(), 1, buf.size(), out) == buf.size();
        bytes += buf.size();
        buf.clear();
    };
    char line[1536];
    std::snprintf(line, sizeof line,
                  "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": %d, \"name\": \"NVIDIA H100\", "
                  "\"totalGlobalMem\": 85520809984, \"computeMajor\": 9, \"computeMinor\": 0, \"numSms\": 132}],\n"
                  "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %d, \"world_size\": %d},\n"
                  "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": 1759276800000000000,\n"
                  "  \"traceEvents\": [\n",
                  rank % 8, rank, ranks);
    buf += line;
    // The two process groups of the collectives: every rank, and the rank's node of 8.
    std::string world = "[";
    for (int r = 0; r < ranks; ++r)
        world += (r ? ", " : "") + std::to_string(r);
    world += "]";
    const int node = rank / 8;
    std::string nodeRanks = "[";
    for (int r = node * 8; r < std::min(ranks, node * 8 + 8); ++r)
        nodeRanks += (r > node * 8 ? ", " : "") + std::to_string(r);
    nodeRanks += "]";

    bool first = true;
    auto put = [&](int n) {
        if (!first)
            buf += ",\n";
        first = false;
        buf.append(line, std::size_t(std::min<int>(n, int(sizeof line) - 1)));
        if (buf.size() > (std::size_t(1) << 20))
            flush();
    };
    const bool slow = rank == slowRank;
    const double kernelUs = slow ? 26.0 : 20.0;
    const double loaderUs = slow ? 900.0 : 300.0 + (rank % 5) * 10.0;
    const int device = rank % 8;
    std::uint64_t correlation = 1;
    std::uint64_t externalId = 1;
    std::uint64_t allocated = 1ULL << 30;
    double ts = 1000.0;
    for (int step = 0; bytes + buf.size() < targetBytes; ++step) {
        const double stepStart = ts;
        const double cpuEnd = ts + 1.0 + loaderUs + 5.0 + 100 * 30.0 + 10.0;
        int n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\", "
                              "\"pid\": 10, \"tid\": 10, \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"External id\": "
                              "%llu, \"Record function id\": 0, \"Ev Idx\": %llu}}",
                              step, stepStart, cpuEnd - stepStart, (unsigned long long)externalId,
                              (unsigned long long)externalId);
        ++externalId;
        put(n);
        double t = ts + 1.0;
        n = std::snprintf(line, sizeof line,
                          "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
                          "\"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__\", \"pid\": 10, "
                          "\"tid\": 10, \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"External id\": %llu, "
                          "\"Record function id\": 0, \"Ev Idx\": %llu}}",
                          t, loaderUs, (unsigned long long)externalId, (unsigned long long)externalId);
        ++externalId;
        put(n);
        t += loaderUs + 5.0;
        double gpu = t;
        double commEnd = t;
        for (int k = 0; k < 100; ++k) {
            const bool collective = k % 25 == 24;
            const bool worldGroup = (k / 25) % 2 == 1;
            n = std::snprintf(
                line, sizeof line,
                "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 10, \"tid\": 10, \"ts\": %.3f, "
                "\"dur\": 8.000, \"args\": {\"External id\": %llu, \"Record function id\": 0, \"Ev Idx\": %llu, "
                "\"Input Dims\": [[64, 1024], [1024, 4096]], \"Input type\": [\"c10::Half\", \"c10::Half\"], "
                "\"Sequence number\": %llu, \"Fwd thread id\": 0}}",
                collective ? "nccl:all_reduce" : "aten::mm", t, (unsigned long long)externalId,
                (unsigned long long)externalId, (unsigned long long)externalId);
            put(n);
            const double launch = t + 2.0;
            n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": "
                              "10, \"tid\": 10, \"ts\": %.3f, \"dur\": 4.125, \"args\": {\"External id\": %llu, "
                              "\"cbid\": 211, \"correlation\": %llu}}",
                              launch, (unsigned long long)externalId, (unsigned long long)correlation);
            put(n);
            n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"s\", \"id\": %llu, \"pid\": 10, \"tid\": 10, \"ts\": %.3f, \"cat\": "
                              "\"ac2g\", \"name\": \"ac2g\"}",
                              (unsigned long long)correlation, launch);
            put(n);
            const int stream = collective ? 20 : 7;
            double start;
            double dur;
            if (collective) {
                start = std::max(commEnd, launch + 6.0);
                dur = 150.0 + (rank % 7) * 3.0;
                commEnd = start + dur;
                n = std::snprintf(
                    line, sizeof line,
                    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": "
                    "\"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, "
                    "unsigned long, ncclWork*)\", \"pid\": %d, \"tid\": %d, \"ts\": %.3f, \"dur\": %.3f, \"args\": "
                    "{\"External id\": %llu, \"queued\": 0, \"device\": %d, \"context\": 1, \"stream\": %d, "
                    "\"correlation\": %llu, \"registers per thread\": 96, \"shared memory\": 0, \"grid\": [2, 1, 1], "
                    "\"block\": [640, 1, 1], \"Collective name\": \"allreduce\", \"In msg nelems\": %d, "
                    "\"Out msg nelems\": %d, \"Group size\": %d, \"dtype\": \"Float\", \"In split size\": \"[]\", "
                    "\"Out split size\": \"[]\", \"Process Group Name\": \"%d\", \"Process Group Description\": "
                    "\"%s\", \"Process Group Ranks\": \"%s\"}}",
                    device, stream, start, dur, (unsigned long long)externalId, device, stream,
                    (unsigned long long)correlation, 1 << 20, 1 << 20,
                    worldGroup ? ranks : std::min(8, ranks - node * 8), worldGroup ? 0 : 1 + node,
                    worldGroup ? "default_pg" : "tensor_parallel", worldGroup ? world.c_str() : nodeRanks.c_str());
            } else {
                start = std::max(gpu, launch + 5.0);
                dur = kernelUs;
                gpu = start + dur;
                n = std::snprintf(
                    line, sizeof line,
                    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": "
                    "\"sm90_xmma_gemm_f16f16_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1\", \"pid\": %d, "
                    "\"tid\": %d, \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"External id\": %llu, \"queued\": 0, "
                    "\"device\": %d, \"context\": 1, \"stream\": %d, \"correlation\": %llu, "
                    "\"registers per thread\": 168, \"shared memory\": 196608, \"blocks per SM\": 0.5, "
                    "\"warps per SM\": 2.0, \"grid\": [66, 1, 1], \"block\": [384, 1, 1], "
                    "\"est. achieved occupancy %%\": 6}}",
                    device, stream, start, dur, (unsigned long long)externalId, device, stream,
                    (unsigned long long)correlation);
            }
            put(n);
            n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"f\", \"id\": %llu, \"pid\": %d, \"tid\": %d, \"ts\": %.3f, \"cat\": "
                              "\"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}",
                              (unsigned long long)correlation, device, stream, start);
            put(n);
            if (k % 10 == 0) {
                allocated = (allocated + 4096 * 1024 * std::uint64_t(k % 3 + 1)) % (std::uint64_t(60) << 30);
                n = std::snprintf(line, sizeof line,
                                  "  {\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": "
                                  "\"[memory]\", \"pid\": 10, \"tid\": 10, \"ts\": %.3f, \"args\": {\"Total "
                                  "Reserved\": %llu, \"Total Allocated\": %llu, \"Bytes\": 4194304, \"Addr\": "
                                  "139823861170176, \"Device Id\": %d, \"Device Type\": 1, \"Ev Idx\": %llu}}",
                                  t + 1.0, (unsigned long long)(allocated + (1ULL << 30)),
                                  (unsigned long long)allocated, device, (unsigned long long)externalId);
                put(n);
            }
            ++externalId;
            ++correlation;
            t += 30.0;
        }
        ts = std::max({ cpuEnd, gpu, commEnd }) + 20.0;
    }
    buf += "\n  ],\n  \"traceName\": \"rank.pt.trace.json\"\n}\n";
    flush();
    return std::fclose(out) == 0 && ok;
}

/// The folder of a generated job of `ranks` × `mbPerRank` MB under `parent`.
inline QString kinetoJobDir(const QString& parent, int ranks, int mbPerRank)
{
    return QDir(parent).filePath(
        QStringLiteral("runlens-bench-kineto-job-v%1-%2x%3MB").arg(kKinetoJobVersion).arg(ranks).arg(mbPerRank));
}

/// The traces of the job in `dir` (rank order), generating them with `threads` writers unless a complete job
/// of this size is already there (a `complete` marker is written last). Empty on a write error.
inline QStringList ensureKinetoJob(const QString& dir, int ranks, int mbPerRank, int threads, bool* generated)
{
    QStringList paths;
    for (int r = 0; r < ranks; ++r)
        paths << QDir(dir).filePath(QStringLiteral("worker%1.%2.pt.trace.json").arg(r).arg(1759276800000LL + r));
    const QString marker = QDir(dir).filePath(QStringLiteral("complete"));
    *generated = false;
    if (QFileInfo::exists(marker))
        return paths;
    if (!QDir().mkpath(dir))
        return {};
    *generated = true;
    std::atomic<int> next { 0 };
    std::atomic<bool> ok { true };
    auto work = [&] {
        for (int r = next++; r < ranks; r = next++) {
            if (!writeKinetoRankTrace(paths[r], r, ranks, std::uint64_t(mbPerRank) * 1000 * 1000, ranks / 3 + 1))
                ok = false;
        }
    };
    std::vector<std::thread> writers;
    for (int w = 1; w < threads; ++w)
        writers.emplace_back(work);
    work();
    for (auto& w : writers)
        w.join();
    if (!ok)
        return {};
    QFile done(marker);
    if (!done.open(QIODevice::WriteOnly))
        return {};
    return paths;
}

} // namespace runlens::bench
