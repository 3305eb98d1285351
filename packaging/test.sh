#!/usr/bin/env bash
# Builds RunLens and runs the whole test suite with CTest (widgets offscreen).
# RUNLENS_PRESET=asan runs it with AddressSanitizer and UndefinedBehaviorSanitizer instead. After a Release run,
# the model, importer, trust and fuzz-replay tests run again under the sanitizers (the `asan` preset), which is
# where a file that crashes, overflows or leaks past a limit is caught; RUNLENS_SANITIZER_PASS=0 leaves that out.
set -euo pipefail
cd "$(dirname "$0")/.."

preset="${RUNLENS_PRESET:-release}"
bash packaging/install-deps.sh
cmake --preset "$preset"
cmake --build --preset "$preset"
export QT_QPA_PLATFORM=offscreen
# With the sample corpus beside the checkout (always in CI) a missing sample, manifest, python or oracle module
# fails the suite instead of skipping the test that needed it.
if [ -d ../shared/samples ]; then
    export RUNLENS_REQUIRE_SAMPLES=1
fi
ctest --preset "$preset" --output-on-failure -j "$(nproc)"

if [ "$preset" = release ] && [ "${RUNLENS_SANITIZER_PASS:-1}" = 1 ]; then
    cmake --preset asan
    cmake --build --preset asan --target runlens_core_tests
    ctest --preset asan --output-on-failure -j "$(nproc)" -L '^(models|importers|trust|fuzz)$' -E '^tst_readonlyrun$'
fi
