#!/usr/bin/env bash
# Runs the fuzz targets one after another for SECONDS each (default 60) and prints one Markdown table row per
# target: executions, coverage (cov: edges, ft: features), corpus growth and the crash file if any.
# New inputs go to WORK/<target>/ (default /tmp/runlens-fuzz), never into the committed corpus; crash, leak,
# OOM and timeout files go to WORK/artifacts/<target>/. Build the fuzz preset first.
#
# usage: tests/fuzz/run_fuzzers.sh [SECONDS] [TARGET...]
set -uo pipefail
cd "$(dirname "$0")/../.."

seconds="${1:-60}"
shift || true
bin=build/fuzz/tests/fuzz
work="${RUNLENS_FUZZ_WORK:-/tmp/runlens-fuzz}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(sed -n '/^set(RUNLENS_FUZZ_TARGETS/,/)/p' tests/fuzz/CMakeLists.txt \
        | sed 's/set(RUNLENS_FUZZ_TARGETS//; s/)//' | tr ' ' '\n' | sed '/^$/d')
fi

echo "| target | seconds | executions | exec/s | cov | ft | corpus | result |"
echo "|---|---|---|---|---|---|---|---|"
for target in "${targets[@]}"; do
    mkdir -p "$work/$target" "$work/artifacts/$target"
    dict=()
    if [ -f "tests/fuzz/dict/$target.dict" ]; then
        dict=("-dict=tests/fuzz/dict/$target.dict")
    fi
    log="$work/$target.log"
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" "$bin/runlens_fuzz_$target" "$work/$target" "tests/fuzz/corpus/$target" "${dict[@]}" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/$target/" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$last")
    result="ok"
    if [ $rc -ne 0 ]; then
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        kind=$(grep -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer|UndefinedBehaviorSanitizer)[^(]*' "$log" \
            || grep -m1 -oE 'runtime error: .*' "$log" || echo "exit $rc")
        result="${kind} → ${artifact:-no artifact}"
    fi
    echo "| $target | $seconds | ${runs:-?} | ${rate:-?} | ${cov:-?} | ${ft:-?} | ${corp:-?} | $result |"
done
