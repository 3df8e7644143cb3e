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
runs=20
tilec=$root/build/tilec
while getopts "n:t:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    t) tilec=$OPTARG ;;
    *) echo "usage: $0 [-n RUNS] [-t TILEC] [SAMPLE.tile...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
samples=("$@")
[[ ${#samples[@]} -gt 0 ]] || samples=("$root"/samples/*.tile)
[[ -x $tilec ]] || { echo "interp-bench: no tilec at $tilec (build it first: scripts/build-samples.sh)" >&2; exit 1; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "interp-bench: -n needs a positive count" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Median wall milliseconds of running the command line N times.
median_ms() {
  for ((i = 0; i < runs; i++)); do
    start=$EPOCHREALTIME
    "$@" >/dev/null 2>"$work/stderr" || { echo "interp-bench: failed: $*" >&2; cat "$work/stderr" >&2; exit 1; }
    end=$EPOCHREALTIME
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }'
  done | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%-16s %6s %16s %16s %12s\n' "sample" "runs" "run ms (med)" "compile ms (med)" "run - compile"
for sample in "${samples[@]}"; do
  name=$(basename "$sample" .tile)
  run=$(median_ms "$tilec" "$sample" --run --random-inputs)
  compile=$(median_ms "$tilec" "$sample" -o "$work/out.pto")
  printf '%-16s %6d %16s %16s %12.3f\n' "$name" "$runs" "$run" "$compile" "$(awk -v a="$run" -v b="$compile" 'BEGIN { print a - b }')"
done
