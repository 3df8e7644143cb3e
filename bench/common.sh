# Shared by the benchmarks: options -n RUNS and -t TILEC, the operands after them, and the
# median of numbers. Sourced, not run.

# bench_options NAME OPERANDS DEFAULT_RUNS "$@": sets runs, tilec and operands (the rest);
# NAME and OPERANDS (e.g. "[SAMPLE.tile...]") are for the usage message.
bench_options() {
  local name=$1 usage=$2
  runs=$3
  shift 3
  tilec=$root/build/tilec
  local OPTIND opt
  while getopts "n:t:" opt; do
    case $opt in
      n) runs=$OPTARG ;;
      t) tilec=$OPTARG ;;
      *) echo "usage: $name [-n RUNS] [-t TILEC] $usage" >&2; exit 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  operands=("$@")
  [[ -x $tilec ]] || { echo "$name: no tilec at $tilec (build it first: scripts/build-samples.sh)" >&2; exit 1; }
  [[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "$name: -n needs a positive count" >&2; exit 2; }
}

# The samples named by the operands, or every sample.
bench_samples() {
  samples=("${operands[@]}")
  [[ ${#samples[@]} -gt 0 ]] || samples=("$root"/samples/*.tile)
}

# Median of the numbers on stdin, one per line.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
