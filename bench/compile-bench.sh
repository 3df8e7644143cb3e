#!/usr/bin/env bash
# Compile-time benchmark: for every sample, runs the whole tilec process N times and
# reports the median wall time, the median peak RSS, and the median time of every
# pass (from --time-passes). Never run as a test: timings depend on the machine.
#
#   bench/compile-bench.sh [-n RUNS] [-t TILEC] [SAMPLE.tile...]
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
if [[ ${#samples[@]} -eq 0 ]]; then
  shopt -s nullglob
  samples=("$root"/samples/*.tile)
fi
[[ -x $tilec ]] || { echo "compile-bench: no tilec at $tilec (build it first: scripts/build-samples.sh)" >&2; exit 1; }
[[ ${#samples[@]} -gt 0 ]] || { echo "compile-bench: no samples to run" >&2; exit 1; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "compile-bench: -n needs a positive count" >&2; exit 2; }

have_gnu_time=0
[[ -x /usr/bin/time ]] && have_gnu_time=1  # peak RSS needs it; without it the column shows "-"


work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Median of the numbers on stdin, one per line.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }


printf '%-24s %6s %14s %16s\n' "sample" "runs" "wall ms (med)" "peak RSS KiB"
for sample in "${samples[@]}"; do
  name=$(basename "$sample" .tile)
  : >"$work/wall"; : >"$work/rss_all"; : >"$work/passes"
  for ((i = 0; i < runs; i++)); do
    start=$EPOCHREALTIME
    if [[ $have_gnu_time -eq 1 ]]; then
      /usr/bin/time -f "%M" -o "$work/rss" "$tilec" "$sample" --time-passes -o "$work/out.pto" 2>"$work/stderr" ||
        { echo "compile-bench: tilec failed on $sample:" >&2; cat "$work/stderr" >&2; exit 1; }
    else
      "$tilec" "$sample" --time-passes -o "$work/out.pto" 2>"$work/stderr" ||
        { echo "compile-bench: tilec failed on $sample:" >&2; cat "$work/stderr" >&2; exit 1; }
    fi
    end=$EPOCHREALTIME
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }' >>"$work/wall"
    if [[ $have_gnu_time -eq 1 ]]; then cat "$work/rss" >>"$work/rss_all"; fi
    # Rows of the --time-passes table: "  <pass> <ms> <percent>%", except header and total.
    awk '/^  [^ ]+ +[0-9.]+ +[0-9.]+%$/ && $1 != "total" { print $1, $2 }' "$work/stderr" >>"$work/passes"
  done
  printf '%-24s %6d %14s %16s\n' "$name" "$runs" "$(median <"$work/wall")" "$(median <"$work/rss_all")"
  # Per-pass medians, in pipeline order (the order of the first run's table).
  awk '!seen[$1]++ { print $1 }' "$work/passes" | while read -r pass; do
    printf '    %-32s %10s ms\n' "$pass" "$(awk -v p="$pass" '$1 == p { print $2 }' "$work/passes" | median)"
  done
done
