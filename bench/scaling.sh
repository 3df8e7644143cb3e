#!/usr/bin/env bash
# Compile time against kernel size: generates kernels with STEPS chained elementwise steps
# inside a loop (500, 1000, 2000, 4000 by default) and reports the median wall time of the
# whole tilec process over RUNS runs (default 5) and the time per step. A linear compiler
# keeps the per-step column flat. Never run as a test.
#   ./bench/scaling.sh [-n RUNS] [-t TILEC] [STEPS ...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/bench/common.sh"
bench_options scaling "[STEPS ...]" 5 "$@"
sizes=("${operands[@]}")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(500 1000 2000 4000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

generate() {  # N -> a kernel with N steps alternating add, mul by a scalar and exp
  local n=$1
  echo "kernel chain(x: in f32[64, 128], y: out f32[64, 128]) {"
  echo "  for r in 0 .. 64 step 16 {"
  echo "    var t = load(x, [r, 0], [16, 128]);"
  for ((i = 0; i < n; i++)); do
    case $((i % 3)) in
      0) echo "    t = t + t;" ;;
      1) echo "    t = t * 0.5;" ;;
      2) echo "    t = exp(t);" ;;
    esac
  done
  echo "    store(y, [r, 0], t);"
  echo "  }"
  echo "}"
}

printf '%8s %14s %14s\n' "steps" "wall ms (med)" "us per step"
for n in "${sizes[@]}"; do
  generate "$n" > "$work/k$n.tile"
  for ((r = 0; r < runs; r++)); do
    start=$EPOCHREALTIME
    "$tilec" "$work/k$n.tile" -o "$work/k$n.pto"
    end=$EPOCHREALTIME
    awk -v s="$start" -v e="$end" 'BEGIN {printf "%.3f\n", (e - s) * 1000}'
  done | median > "$work/ms"
  awk -v n="$n" -v ms="$(cat "$work/ms")" 'BEGIN {printf "%8d %14.1f %14.2f\n", n, ms, ms * 1000 / n}'
done
