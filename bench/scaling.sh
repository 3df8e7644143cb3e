#!/usr/bin/env bash
# Compile time against kernel size, for one family of generated kernels:
#   chain  STEPS chained elementwise steps inside a loop (500, 1000, 2000, 4000 by default)
#   batch  one stored batch_matmul of PAGES pages of 16x32 by 32x16 (64 .. 4096 by default),
#          which expand-batch-matmul unrolls into PAGES matmuls, loads and stores
# and reports the median wall time of the whole tilec process over RUNS runs (default 5)
# and the time per step or page. A linear compiler keeps that column flat. Never run as a test.
#   ./bench/scaling.sh [-n RUNS] [-t TILEC] [chain|batch] [SIZE ...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/bench/common.sh"
bench_options scaling "[chain|batch] [SIZE ...]" 5 "$@"
family=chain
if [[ ${operands[0]:-} == chain || ${operands[0]:-} == batch ]]; then
  family=${operands[0]}
  operands=("${operands[@]:1}")
fi
sizes=("${operands[@]}")
if [[ ${#sizes[@]} -eq 0 ]]; then
  if [[ $family == chain ]]; then sizes=(500 1000 2000 4000); else sizes=(64 256 1024 4096); fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

generate() { "generate_$family" "$1"; }

generate_batch() {  # N -> one stored batch_matmul of N pages
  local n=$1
  echo "kernel batched(a: in f16[$n, 16, 32], b: in f16[$n, 32, 16], c: out f32[$n, 16, 16]) {"
  echo "  store(c, [0, 0, 0], batch_matmul(load(a, [0, 0, 0], [$n, 16, 32]), load(b, [0, 0, 0], [$n, 32, 16])));"
  echo "}"
}

generate_chain() {  # N -> a kernel with N steps alternating add, mul by a scalar and exp
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

unit=$([[ $family == chain ]] && echo step || echo page)
printf '%8s %14s %14s\n' "${unit}s" "wall ms (med)" "us per $unit"
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
