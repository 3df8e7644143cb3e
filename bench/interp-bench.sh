#!/usr/bin/env bash
# Interpreter benchmark: for every sample, the median whole-process wall time of
# `tilec SAMPLE --run --random-inputs` (compile, then run the kernel on the host) next to
# the median of compiling alone; the difference is what running costs. Never a test.
#
#   bench/interp-bench.sh [-n RUNS] [-t TILEC] [SAMPLE.tile...]
#
# Defaults: 20 runs, build/tilec, samples/*.tile.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/bench/common.sh"
bench_options interp-bench "[SAMPLE.tile...]" 20 "$@"
bench_samples
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Median wall milliseconds of running the command line N times.
median_ms() {
  for ((i = 0; i < runs; i++)); do
    start=$EPOCHREALTIME
    "$@" >/dev/null 2>"$work/stderr" || { echo "interp-bench: failed: $*" >&2; cat "$work/stderr" >&2; exit 1; }
    end=$EPOCHREALTIME
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }'
  done | median
}

printf '%-16s %6s %16s %16s %12s\n' "sample" "runs" "run ms (med)" "compile ms (med)" "run - compile"
for sample in "${samples[@]}"; do
  name=$(basename "$sample" .tile)
  run=$(median_ms "$tilec" "$sample" --run --random-inputs)
  compile=$(median_ms "$tilec" "$sample" -o "$work/out.pto")
  printf '%-16s %6d %16s %16s %12.3f\n' "$name" "$runs" "$run" "$compile" "$(awk -v a="$run" -v b="$compile" 'BEGIN { print a - b }')"
done
