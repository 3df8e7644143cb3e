#!/usr/bin/env bash
# Compile time and peak memory against kernel size, for generated kernels of four families:
#   chain   STEPS chained elementwise steps inside a loop (PTO, a2a3)
#   batch   one stored batch_matmul of PAGES pages of 16x32 by 32x16, which
#           expand-batch-matmul unrolls into PAGES matmuls, loads and stores (PTO, a2a3)
#   aie     a runtime sequence of TRANSFERS fills and as many drains of 16x64 tiles over
#           four shim columns (AIE, npu1, TXN binary)
#   region  STEPS additions of a partition view's row bands into one tile, written to every
#           slot of a tile array that is stored assembled (Linx block headers)
# For each size it reports the median over RUNS runs (default 3) of the whole tilec
# process: wall time, time per unit, user and system CPU time, peak resident memory, and
# how wall time, user time and memory grow per decade of size (time(10N)/time(N), at the
# rate between neighbouring sizes however far apart): 10 is linear; memory grows by less
# while the process's fixed part dominates. System time is mostly the kernel handing the
# process fresh pages (heap, and the output's page cache); on a virtual machine that cost
# per page can rise with the footprint, so user time is the measure of tilec's own code.
# Never run as a test.
#   ./bench/scaling.sh [-n RUNS] [-t TILEC] [chain|batch|aie|region|all] [SIZE ...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/bench/common.sh"
bench_options scaling "[chain|batch|aie|region|all] [SIZE ...]" 3 "$@"
[[ -x /usr/bin/time ]] || { echo "scaling: needs GNU time (/usr/bin/time; scripts/setup.sh installs it)" >&2; exit 1; }
families=(chain)
case ${operands[0]:-} in
  chain|batch|aie|region) families=("${operands[0]}"); operands=("${operands[@]:1}") ;;
  all) families=(chain batch aie region); operands=("${operands[@]:1}") ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

default_sizes() {
  case $1 in
    chain) echo 1000 10000 100000 ;;
    batch) echo 16 160 1600 ;;
    aie) echo 100 1000 10000 ;;
    region) echo 100 1000 10000 ;;
  esac
}

unit_of() {
  case $1 in chain|region) echo step ;; batch) echo page ;; aie) echo transfer ;; esac
}

flags_of() {
  case $1 in
    chain) echo "--target=a2a3" ;;
    batch) echo "--target=a2a3 --max-unroll=1000000" ;;  # past the default 4096 pages
    aie) echo "--target=npu1 --emit=txn" ;;
    region) echo "--target=linx" ;;
  esac
}

generate_chain() {  # N steps alternating add, mul by a scalar and exp
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

generate_batch() {  # one stored batch_matmul of N pages
  local n=$1
  echo "kernel batched(a: in f16[$n, 16, 32], b: in f16[$n, 32, 16], c: out f32[$n, 16, 16]) {"
  echo "  store(c, [0, 0, 0], batch_matmul(load(a, [0, 0, 0], [$n, 16, 32]), load(b, [0, 0, 0], [$n, 32, 16])));"
  echo "}"
}

generate_aie() {  # N fills and N drains, round-robin over four columns
  local n=$1
  echo "sequence kernel transfers(x: in i32[$((n * 16)), 64], y: out i32[$((n * 16)), 64]) {"
  echo "  let tiles = simple_tiler(x, [16, 64]);"
  echo "  let slots = simple_tiler(y, [16, 64]);"
  for ((i = 0; i < n; i++)); do
    echo "  fill(tile_at(tiles, $i), column = $((i % 4)), channel = 0);"
    echo "  drain(tile_at(slots, $i), column = $((i % 4)), channel = 0);"
  done
  echo "}"
}

generate_region() {  # N additions of row bands of a partition view, then a tile array
  local n=$1
  echo "kernel regions(x: in f32[64, 32], y: out f32[64, 32]) {"
  echo "  let bands = partview(load(x, [0, 0], [64, 32]), [4, 1]);"
  echo "  let outs = tile_array<f32>([4, 1], [16, 32]);"
  echo "  var acc = bands[0, 0];"
  for ((i = 1; i < n; i++)); do echo "  acc = acc + bands[$((i % 4)), 0];"; done
  for j in 0 1 2 3; do echo "  outs[$j, 0] = acc;"; done
  echo "  store(y, [0, 0], assembly(outs));"
  echo "}"
}

# per_decade N1 N2 V1 V2: how much V grows when N grows tenfold, at the rate from N1 to N2
# ("-" when a value is 0: CPU times are counted in hundredths of a second).
per_decade() {
  awk -v n1="$1" -v n2="$2" -v v1="$3" -v v2="$4" \
    'BEGIN { if (v1 <= 0 || v2 <= 0) print "-"; else printf "%.1f", exp(log(v2 / v1) * log(10) / log(n2 / n1)) }'
}

for family in "${families[@]}"; do
  sizes=("${operands[@]}")
  [[ ${#sizes[@]} -gt 0 ]] || read -r -a sizes <<< "$(default_sizes "$family")"
  unit=$(unit_of "$family")
  read -r -a flags <<< "$(flags_of "$family")"
  echo "$family (${flags[*]}), median of $runs runs"
  printf '%10s %10s %10s %11s %8s %8s %11s %9s %10s\n' "${unit}s" "wall ms" "us/$unit" "wall/decade" \
    "user s" "sys s" "user/decade" "peak MiB" "mem/decade"
  previous_n='' previous_ms='' previous_user='' previous_kib=''
  for n in "${sizes[@]}"; do
    "generate_$family" "$n" > "$work/k.tile"
    : > "$work/runs"
    for ((r = 0; r < runs; r++)); do
      start=$EPOCHREALTIME
      /usr/bin/time -f "%M %U %S" -o "$work/kib" "$tilec" "$work/k.tile" "${flags[@]}" -o "$work/out" 2> "$work/stderr" ||
        { echo "scaling: tilec failed on $family $n:" >&2; cat "$work/stderr" >&2; exit 1; }
      end=$EPOCHREALTIME
      echo "$start $end $(cat "$work/kib")" >> "$work/runs"
    done
    ms=$(awk '{ print ($2 - $1) * 1000 }' "$work/runs" | median)
    kib=$(awk '{ print $3 }' "$work/runs" | median)
    user=$(awk '{ print $4 }' "$work/runs" | median)
    sys=$(awk '{ print $5 }' "$work/runs" | median)
    time_decade=- user_decade=- mem_decade=-
    if [[ -n $previous_n ]]; then
      time_decade=$(per_decade "$previous_n" "$n" "$previous_ms" "$ms")
      user_decade=$(per_decade "$previous_n" "$n" "$previous_user" "$user")
      mem_decade=$(per_decade "$previous_n" "$n" "$previous_kib" "$kib")
    fi
    awk -v n="$n" -v ms="$ms" -v user="$user" -v sys="$sys" -v kib="$kib" -v td="$time_decade" \
      -v ud="$user_decade" -v md="$mem_decade" \
      'BEGIN { printf "%10d %10.0f %10.2f %11s %8.2f %8.2f %11s %9.1f %10s\n", n, ms, ms * 1000 / n, td, user, sys, ud, kib / 1024, md }'
    previous_n=$n previous_ms=$ms previous_user=$user previous_kib=$kib
  done
done
