#!/usr/bin/env bash
# Builds RunLens and runs the whole test suite with CTest (widgets offscreen).
# RUNLENS_PRESET=asan runs it with AddressSanitizer and UndefinedBehaviorSanitizer instead.
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
