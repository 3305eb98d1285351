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
ctest --preset "$preset" --output-on-failure -j "$(nproc)"
