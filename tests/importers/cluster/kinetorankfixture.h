#pragma once

// A small Kineto trace of one rank of a data-parallel job, written to disk: per step a ProfilerStep CPU
// span, a data loader op, GEMM launches and an NCCL all-reduce whose kernel carries the profiler's
// collective args (name, element count, dtype, process group). Rank `slowRank` computes longer and so
// reaches the all-reduce late: it is the straggler of every step.

#include <QFile>
#include <QString>

#include <cstdio>
#include <string>

namespace runlens::test {

inline bool writeKinetoRankFixture(const QString& path, int rank, int ranks, int steps = 4, int slowRank = -1)
{
    std::string out;
    char line[900];
    std::snprintf(line, sizeof line,
                  "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100\", "
                  "\"totalGlobalMem\": 85520809984}], \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %d, "
                  "\"world_size\": %d}, \"baseTimeNanoseconds\": 1759276800000000000, \"traceEvents\": [\n",
                  rank, ranks);
    out += line;
    bool first = true;
    auto put = [&](int n) {
        if (!first)
            out += ",\n";
        first = false;
        out.append(line, std::size_t(n));
    };
    const double kernelUs = rank == slowRank ? 500.0 : 200.0;
    long long correlation = 1;
    for (int step = 0; step < steps; ++step) {
        const double s = 1000.0 + step * 2000.0;
        put(std::snprintf(line, sizeof line,
                          "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\", \"pid\": 10, "
                          "\"tid\": 10, \"ts\": %.3f, \"dur\": 1900.0}",
                          step + 1, s));
        put(std::snprintf(line, sizeof line,
                          "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
                          "\"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__\", "
                          "\"pid\": 10, \"tid\": 10, \"ts\": %.3f, \"dur\": 100.0}",
                          s + 1));
        double gpu = s + 150;
        for (int k = 0; k < 3; ++k, ++correlation) {
            const double t = s + 110 + k * 20;
            put(std::snprintf(line, sizeof line,
                              "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 10, \"tid\": 10, "
                              "\"ts\": %.3f, \"dur\": 10.0, \"args\": {\"External id\": %lld}}",
                              t, correlation));
            put(std::snprintf(line, sizeof line,
                              "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, "
                              "\"tid\": 10, \"ts\": %.3f, \"dur\": 5.0, \"args\": {\"correlation\": %lld}}",
                              t + 2, correlation));
            put(std::snprintf(
                line, sizeof line,
                "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sm90_xmma_gemm_f16f16_f32\", \"pid\": 0, "
                "\"tid\": 7, \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"correlation\": %lld, \"stream\": 7}}",
                gpu, kernelUs, correlation));
            gpu += kernelUs + 5;
        }
        const double t = s + 200;
        put(std::snprintf(
            line, sizeof line,
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"nccl:all_reduce\", \"pid\": 10, \"tid\": 10, "
            "\"ts\": %.3f, \"dur\": 10.0, \"args\": {\"External id\": %lld}}",
            t, correlation));
        put(std::snprintf(line, sizeof line,
                          "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, "
                          "\"tid\": 10, \"ts\": %.3f, \"dur\": 5.0, \"args\": {\"correlation\": %lld}}",
                          t + 2, correlation));
        put(std::snprintf(line, sizeof line,
                          "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_AllReduce_Sum_f32_RING_LL\", "
                          "\"pid\": 0, \"tid\": 20, \"ts\": %.3f, \"dur\": %.3f, \"args\": {\"correlation\": %lld, "
                          "\"stream\": 20, \"Collective name\": \"allreduce\", \"In msg nelems\": 1048576, "
                          "\"Out msg nelems\": 1048576, \"Group size\": %d, \"dtype\": \"Float\", "
                          "\"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\", "
                          "\"Process Group Ranks\": \"[0, 1]\"}}",
                          gpu - 50, 1850.0 - (gpu - 50 - s), correlation, ranks));
        ++correlation;
    }
    out += "\n]}\n";
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(out.data(), qint64(out.size())) == qint64(out.size());
}

} // namespace runlens::test
