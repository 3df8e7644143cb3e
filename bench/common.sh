# Shared by the benchmarks: options -n RUNS and -t TILEC, samples from the arguments (default
# samples/*.tile), and the median of numbers. Sourced, not run.

# Sets runs, tilec and samples from "$@"; $1 names the calling script for messages.
bench_options() {
  local name=$1
  shift
  runs=20
  tilec=$root/build/tilec
  local OPTIND opt
  while getopts "n:t:" opt; do
    case $opt in
      n) runs=$OPTARG ;;
      t) tilec=$OPTARG ;;
      *) echo "usage: $name [-n RUNS] [-t TILEC] [SAMPLE.tile...]" >&2; exit 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  samples=("$@")
  [[ ${#samples[@]} -gt 0 ]] || samples=("$root"/samples/*.tile)
  [[ -x $tilec ]] || { echo "$name: no tilec at $tilec (build it first: scripts/build-samples.sh)" >&2; exit 1; }
  [[ -e ${samples[0]} ]] || { echo "$name: no samples to run" >&2; exit 1; }
  [[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "$name: -n needs a positive count" >&2; exit 2; }
}

# Median of the numbers on stdin, one per line.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
