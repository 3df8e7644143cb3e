#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/, clang with ASan and UBSan, in build-sanitize/) and
# runs each for SECONDS (default 60), as many at once as the machine has cores
# (TILEC_FUZZ_JOBS), from a corpus seeded with every sample and test input (for linx: the
# .linxl listings under tests/ and the linx sample goldens) and a dictionary made from the
# grammar's tokens, the built-in names, the IR's op names and the codecs' words. Fails on
# any crash, leak, timeout (10 s per input), out-of-memory (2 GiB) or sanitizer report; the
# input that caused it is left in build-sanitize/crashes/. The corpus grows in
# build-sanitize/corpus/ across runs.
#   scripts/fuzz.sh [SECONDS] [HARNESS ...]     harnesses: frontend tir pipeline txn txn_run aie linx lsp perf_trace
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
harnesses=("$@")
[[ ${#harnesses[@]} -gt 0 ]] || harnesses=(frontend tir pipeline txn txn_run aie linx lsp perf_trace)
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: SECONDS must be a positive number" >&2; exit 2; }
build=$root/build-sanitize

"$root/scripts/configure.sh" sanitize > /dev/null
cmake --build "$build" --target "${harnesses[@]/#/fuzz_}"

# The dictionary: quoted literals of the grammar, built-in function names, IR op names.
dict=$build/tile.dict
{
  grep -o "'[^']*'" "$root/grammar/Tile.g4" | sort -u | sed "s/^'\(.*\)'$/\1/"
  grep -o '{"[a-z_0-9]*", K::' "$root/src/frontend/LowerBuiltins.cpp" | sed 's/{"\([^"]*\)".*/\1/'
  # the built-ins with no row there: an op's .tile spelling (the third column of Ops.def)
  sed -n 's/^TILEC_OP([^"]*"[^"]*", *"\([a-z_][a-z_0-9]*\)".*/\1/p' "$root/src/ir/Ops.def"
  grep -o '"\(tile\|scf\|arith\|tensor\|core\|pipe\)\.[a-z_]*"' "$root/src/ir/Ops.def" | tr -d '"'
  # words the parsers take as names: parallel schedules and loop clauses, the IR's launch,
  # loop modes and loop and buffer attributes (rolled: a peeled loop's MIDDLE, linx-peel)
  printf '%s\n' blocked cyclic blocks parallel_cyclic buffers buffering copies addrs rolled
  # tile arrays in Shared space (scope = shared, pes = 1100) and the IR attribute pes
  printf '%s\n' scope shared local pes 1100
  grep -o '"[a-z][a-z0-9_]*"' "$root/src/backend/aie/TxnFormat.cpp" | tr -d '"'
  grep -oh '"[A-Za-z][A-Za-z0-9_.#=-]*"' "$root/src/backend/linx/"*.cpp | tr -d '"'
  printf '%s\n' in out inout where dyn space valid init vec mat left right acc f32 f16 bf16 i8 i32 index incore \
    column channel bd packet packet_type burst token pushes split spare_bds sequence
} | grep -v '^$' | grep -v '\\' | sort -u | sed 's/"/\\"/g; s/.*/"&"/' > "$dict"

seed() {  # HARNESS CORPUS
  local h=$1 corpus=$2
  case $h in
    tir) find "$root/tests" -name '*.tir' -o -name '*.tir.txt' | while read -r f; do cp "$f" "$corpus/"; done ;;
    txn) find "$root/tests" -name '*.txnl' | while read -r f; do cp "$f" "$corpus/"; done ;;
    txn_run) find "$root/tests" -name '*.txnl' -o -name '*.npu[12].txt' | while read -r f; do cp "$f" "$corpus/"; done ;;
    linx) find "$root/tests" -name '*.linxl' -o -path '*/Expected/linx_*.s' | while read -r f; do cp "$f" "$corpus/"; done ;;
    perf_trace) cp "$root"/tests/lit/report/Inputs/*.json "$corpus/" ;;
    # The client's side of each scripted session, framed as it goes down the pipe.
    lsp) for f in "$root"/tests/lsp/sessions/*.json; do
           node "$root/tests/lsp/lsp-session.js" --client-stream "$f" "$build/lsp-files/$(basename "$f" .json)" \
             > "$corpus/seed-$(basename "$f" .json).lsp"
         done ;;
    *) find "$root/samples" "$root/tests" -name '*.tile' | while read -r f; do cp "$f" "$corpus/seed-$(basename "$f")"; done ;;
  esac
}

run() {  # HARNESS: its verdict in $build/fuzz_HARNESS.verdict, its output in .log
  local h=$1 corpus=$build/corpus/$1
  mkdir -p "$corpus" "$build/crashes"
  seed "$h" "$corpus"
  echo "== fuzz_$h: $seconds s, corpus $(ls "$corpus" | wc -l) inputs"
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "$build/fuzz_$h" "$corpus" -dict="$dict" -max_total_time="$seconds" -timeout="${TILEC_FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 \
      -max_len=65536 -artifact_prefix="$build/crashes/$h-" -print_final_stats=1 2> "$build/fuzz_$h.log"; then
    echo ok > "$build/fuzz_$h.verdict"
  else
    echo failed > "$build/fuzz_$h.verdict"
  fi
}

# One harness per core at a time: each still gets SECONDS of a core to itself.
jobs=${TILEC_FUZZ_JOBS:-$(nproc)}
running=0
for h in "${harnesses[@]}"; do
  rm -f "$build/fuzz_$h.verdict"
  if ((running >= jobs)); then wait -n || true; running=$((running - 1)); fi
  run "$h" &
  running=$((running + 1))
done
wait

status=0
for h in "${harnesses[@]}"; do
  if [[ $(cat "$build/fuzz_$h.verdict" 2>/dev/null) != ok ]]; then
    status=1
    echo "fuzz_$h FAILED; see $build/fuzz_$h.log and $build/crashes/" >&2
    grep -m1 -B40 -A30 'ERROR\|==.*deadly\|tilec fuzz' "$build/fuzz_$h.log" >&2 || true
  fi
  echo "== fuzz_$h:"
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)|cov: ' "$build/fuzz_$h.log" | tail -3
done
exit $status
