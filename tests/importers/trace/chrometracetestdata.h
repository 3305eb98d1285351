#pragma once

// What the Chrome trace reader's tests share: a small Kineto-like trace and ways to look at what was read.

#include "models/core/diagnostic.h"
#include "models/trace/tracestore.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace runlens::test::chrometrace {

inline bool hasError(const models::Diagnostics& diagnostics)
{
    for (const models::Diagnostic& d : diagnostics) {
        if (d.severity == models::Severity::Error)
            return true;
    }
    return false;
}
inline QString describe(const models::Diagnostics& diagnostics)
{
    QStringList lines;
    for (const models::Diagnostic& d : diagnostics)
        lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}
inline std::uint64_t slices(const models::trace::TraceStore& store)
{
    std::uint64_t n = 0;
    for (const models::trace::Track& t : store.tracks())
        n += t.size();
    return n;
}

// A small Kineto-like trace: one op launching one kernel, with a flow and a memory event.
inline const char* const kSmall = R"({"schemaVersion": 1, "deviceProperties": [{"id": 0}],
  "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 4},
  "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 10, "ts": 100, "dur": 50, "args": {"External id": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 110, "dur": 10, "args": {"correlation": 77, "External id": 1}},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 130, "dur": 40, "args": {"correlation": 77, "stream": 7}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 10, "tid": 10, "ts": 105, "args": {"Bytes": 512}},
  {"ph": "M", "name": "process_name", "pid": 10, "args": {"name": "python"}},
  {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
  {"ph": "M", "name": "process_labels", "pid": 0, "args": {"labels": "GPU 0"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 10, "tid": 10, "ts": 90, "dur": 200},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#4", "pid": 0, "tid": 7, "ts": 125, "dur": 60}
  ],
  "traceName": "x.json"})";

} // namespace runlens::test::chrometrace
