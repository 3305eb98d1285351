#!/bin/sh
# Builds and runs the benchmarks in a Release build directory (default: build/bench next to the sources).
# Extra arguments go to bench_eventfile, e.g. --records 500000 --repeat 3.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build_dir=${RUNLENS_BENCH_BUILD_DIR:-$source_dir/build/bench}
cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build_dir" --target bench_eventfile
exec "$build_dir/tests/bench/bench_eventfile" "$@"
