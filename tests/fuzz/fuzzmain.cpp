// The libFuzzer entry of one target, compiled once per target with RUNLENS_FUZZ_TARGET naming it.
#include "tests/fuzz/fuzztargets.h"

#include <cstdio>
#include <cstdlib>

#ifndef RUNLENS_FUZZ_TARGET
#error "RUNLENS_FUZZ_TARGET must name the target this harness runs"
#endif

namespace {
const runlens::fuzz::FuzzTarget* g_target = nullptr;
}

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    runlens::fuzz::initializeFuzzing();
    g_target = runlens::fuzz::findFuzzTarget(RUNLENS_FUZZ_TARGET);
    if (!g_target) {
        std::fprintf(stderr, "unknown fuzz target %s\n", RUNLENS_FUZZ_TARGET);
        std::abort();
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    g_target->run(data, size);
    return 0;
}
