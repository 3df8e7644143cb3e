#!/usr/bin/env bash
# Compile-time benchmark: for every sample, runs the whole tilec process N times and
# reports the median wall time, its ratio to the process-start floor (the median of
# `tilec --version`: the same binary and libraries, loaded, initialised and exited), the
# median peak RSS, and the median time of every pass (from --time-passes). Never run as a
# test: timings depend on the machine.
#
#   bench/compile-bench.sh [-n RUNS] [-t TILEC] [SAMPLE.tile...]
#
# Defaults: 20 runs, build/tilec, samples/*.tile.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/bench/common.sh"
bench_options compile-bench "[SAMPLE.tile...]" 20 "$@"
bench_samples

have_gnu_time=0
[[ -x /usr/bin/time ]] && have_gnu_time=1  # peak RSS needs it; without it the column shows "-"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

: >"$work/wall"; : >"$work/rss_all"

# timed WHAT COMMAND...: runs COMMAND (stderr to $work/stderr), appending its wall time in
# ms to $work/wall and its peak RSS in KiB to $work/rss_all; exits naming WHAT if it fails.
timed() {
  local what=$1 start end
  shift
  start=$EPOCHREALTIME
  if [[ $have_gnu_time -eq 1 ]]; then
    /usr/bin/time -f "%M" -o "$work/rss" "$@" 2>"$work/stderr" >/dev/null ||
      { echo "compile-bench: tilec failed on $what:" >&2; cat "$work/stderr" >&2; exit 1; }
    cat "$work/rss" >>"$work/rss_all"
  else
    "$@" 2>"$work/stderr" >/dev/null || { echo "compile-bench: tilec failed on $what:" >&2; cat "$work/stderr" >&2; exit 1; }
  fi
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }' >>"$work/wall"
}

for ((i = 0; i < runs; i++)); do timed "--version" "$tilec" --version; done
floor=$(median <"$work/wall")

printf '%-24s %6s %14s %8s %16s\n' "sample" "runs" "wall ms (med)" "x floor" "peak RSS KiB"
printf '%-24s %6d %14s %8s %16s\n' "(floor: tilec --version)" "$runs" "$floor" "1.00" "-"
for sample in "${samples[@]}"; do
  name=$(basename "$sample" .tile)
  : >"$work/wall"; : >"$work/rss_all"; : >"$work/passes"
  for ((i = 0; i < runs; i++)); do
    timed "$sample" "$tilec" "$sample" --time-passes -o "$work/out.pto"
    # Rows of the --time-passes table: "  <pass> <ms> <percent>% <peak MiB>", except header and total.
    awk '/^  [^ ]+ +[0-9.]+ +[0-9.]+% +([0-9.]+|-)$/ && $1 != "total" { print $1, $2 }' "$work/stderr" >>"$work/passes"
  done
  wall=$(median <"$work/wall")
  printf '%-24s %6d %14s %8s %16s\n' "$name" "$runs" "$wall" "$(awk -v w="$wall" -v f="$floor" 'BEGIN { printf "%.2f", w / f }')" \
    "$(median <"$work/rss_all")"
  # Per-pass medians, in pipeline order (the order of the first run's table).
  awk '!seen[$1]++ { print $1 }' "$work/passes" | while read -r pass; do
    printf '    %-32s %10s ms\n' "$pass" "$(awk -v p="$pass" '$1 == p { print $2 }' "$work/passes" | median)"
  done
done
