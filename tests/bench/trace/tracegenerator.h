#pragma once

// The Kineto-like trace the trace benchmarks import (bench_traceimport, bench_tracecache).

#include <QString>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace runlens::bench {

/// Writes `events` Kineto-like events: per iteration a ProfilerStep, CPU ops nested 4 deep, a runtime
/// launch per leaf with its kernel on one of 4 streams, an ac2g flow, and [memory] instants. Streams
/// to the file so the generator does not inflate the importer's peak RSS.
inline std::uint64_t writeTrace(const QString& path, std::uint64_t events)
{
    FILE* out = std::fopen(path.toLocal8Bit().constData(), "wb");
    if (!out)
        return 0;
    std::string buf;
    buf.reserve(1 << 21);
    auto flush = [&] {
        std::fwrite(buf.data(), 1, buf.size(), out);
        buf.clear();
    };
    buf += "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100\", "
           "\"totalGlobalMem\": 85520809984, \"computeMajor\": 9, \"computeMinor\": 0, \"numSms\": 132}],\n"
           "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 8},\n"
           "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": 1759276800000000000,\n  \"traceEvents\": [\n";
    const char* ops[4] = { "aten::linear", "aten::addmm", "aten::mm", "aten::_mm_impl" };
    const char* kernels[3] = { "sm90_xmma_gemm_f16f16_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1",
                               "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>",
                               "void cutlass::Kernel2<cutlass_80_tensorop_s16816gemm_relu_f16_64x64_64x4>" };
    std::uint64_t written = 0;
    std::uint64_t correlation = 1;
    std::uint64_t externalId = 1;
    double ts = 1000.0;
    char line[1024];
    bool first = true;
    auto put = [&](int n) {
        if (!first)
            buf += ",\n";
        first = false;
        buf.append(line, std::size_t(n));
        ++written;
        if (buf.size() > (1 << 20))
            flush();
    };
    int step = 0;
    while (written < events) {
        const double stepStart = ts;
        int n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\", "
                              "\"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, \"dur\": %.3f, \"args\": "
                              "{\"External id\": %llu, \"Record function id\": 0, \"Ev Idx\": %llu}}",
                              step++, stepStart, 2000.0, (unsigned long long)externalId++, (unsigned long long)written);
        put(n);
        for (int iter = 0; iter < 40 && written < events; ++iter) {
            double t = ts + 1.0;
            for (int depth = 0; depth < 4; ++depth) {
                n = std::snprintf(
                    line, sizeof line,
                    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 4242, \"tid\": 4242, "
                    "\"ts\": %.3f, \"dur\": %.3f, \"args\": {\"External id\": %llu, \"Record function id\": 0, "
                    "\"Ev Idx\": %llu, \"Input Dims\": [[64, 1024], [1024, 4096]], "
                    "\"Input type\": [\"c10::Half\", \"c10::Half\"], \"Sequence number\": %llu, "
                    "\"Fwd thread id\": 0}}",
                    ops[depth], t + depth * 0.5, 40.0 - depth * 2.0, (unsigned long long)externalId++,
                    (unsigned long long)written, (unsigned long long)written);
                put(n);
            }
            const double launch = t + 2.5;
            const int stream = 7 + iter % 4;
            n = std::snprintf(
                line, sizeof line,
                "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 4242, "
                "\"tid\": 4242, \"ts\": %.3f, \"dur\": 4.125, \"args\": {\"External id\": %llu, "
                "\"cbid\": 211, \"correlation\": %llu}}",
                launch, (unsigned long long)(externalId - 1), (unsigned long long)correlation);
            put(n);
            n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"s\", \"id\": %llu, \"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, "
                              "\"cat\": \"ac2g\", \"name\": \"ac2g\"}",
                              (unsigned long long)correlation, launch);
            put(n);
            const double kernelStart = launch + 8.0 + (iter % 4) * 0.25;
            n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": %d, "
                              "\"ts\": %.3f, \"dur\": 20.333, \"args\": {\"External id\": %llu, \"queued\": 0, "
                              "\"device\": 0, \"context\": 1, \"stream\": %d, \"correlation\": %llu, "
                              "\"registers per thread\": 168, \"shared memory\": 196608, \"blocks per SM\": 0.5, "
                              "\"warps per SM\": 2.0, \"grid\": [66, 1, 1], \"block\": [384, 1, 1], "
                              "\"est. achieved occupancy %%\": 6}}",
                              kernels[iter % 3], stream, kernelStart, (unsigned long long)(externalId - 1), stream,
                              (unsigned long long)correlation);
            put(n);
            n = std::snprintf(line, sizeof line,
                              "  {\"ph\": \"f\", \"id\": %llu, \"pid\": 0, \"tid\": %d, \"ts\": %.3f, "
                              "\"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}",
                              (unsigned long long)correlation, stream, kernelStart);
            put(n);
            ++correlation;
            if (iter % 2 == 0) {
                n = std::snprintf(
                    line, sizeof line,
                    "  {\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
                    "\"pid\": 4242, \"tid\": 4242, \"ts\": %.3f, \"args\": {\"Total Reserved\": 2097152, "
                    "\"Total Allocated\": %llu, \"Bytes\": 512, \"Addr\": 139823861170176, "
                    "\"Device Id\": 0, \"Device Type\": 1, \"Ev Idx\": %llu}}",
                    t + 1.0, (unsigned long long)(written * 512 % 100000000), (unsigned long long)written);
                put(n);
            }
            ts += 45.0;
        }
        ts = std::max(ts, stepStart + 2000.0) + 10.0;
    }
    buf += "\n  ],\n  \"traceName\": \"bench.pt.trace.json\"\n}\n";
    flush();
    std::fclose(out);
    return written;
}

} // namespace runlens::bench
