#!/usr/bin/env bash
# Builds RunLens (Release), writes the demo run and opens RunLens on it.
# Without a display it says so and writes a screenshot instead.
set -euo pipefail
cd "$(dirname "$0")/.."

bash packaging/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target runlens

demo="build/release/demo-run"
./build/release/app/runlens demo "$demo"
exec ./build/release/app/runlens "$demo" "$@"
