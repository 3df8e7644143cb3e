#!/usr/bin/env bash
# Runs tilec on every malformed input: the committed cases (cases/, written by
# make-corpus.py) and large ones generated here. A case named ok-* must compile (exit 0);
# every other one must exit 1 with a located diagnostic that has a code
# (`file:line:col: error[Ennnn]`) and leave no output file. Every run must use at most
# SECONDS of CPU time (user + system: robust to other jobs on the machine; a run is also
# killed after 10x that in wall time) and MIB of memory (peak RSS); the large generated
# inputs get BIG_SECONDS (the 10^5-statement one needs 1.0 to 1.9 s of CPU depending on
# the machine, most of it ANTLR's tokens and parse tree, and 2.5 s in a loaded CI root). Prints one line per
# failing case; exits 1 if any. With SURVEY_DIR, every run is also recorded there (emptied
# first) for the diagnostics survey (tests/diagnostics/tee-tilec.sh, check-names.js).
#   run.sh TILEC WORKDIR SECONDS MIB BIG_SECONDS [SURVEY_DIR]
set -uo pipefail
tilec=$1 work=$2 small_seconds=$3 mib=$4 big_seconds=$5
here=$(cd "$(dirname "$0")" && pwd)
if [[ -n ${6:-} ]]; then
  export SURVEY_DIR=$6 REAL_TILEC=$tilec
  rm -rf "$SURVEY_DIR"
  mkdir -p "$SURVEY_DIR"
  tilec=$here/../diagnostics/tee-tilec.sh
fi
mkdir -p "$work/big"

repeat() {  # N TEXT: TEXT N times, no separator
  local n=$1 text=$2
  local out=$text
  while ((${#out} < n * ${#text})); do out=$out$out; done
  printf '%s' "${out:0:n*${#text}}"
}

# Large inputs: sizes that must be handled in time, whether legal or not.
big=$work/big
{ printf 'kernel k(y: out f32[16, 16]) {\n  let a = '; repeat 1048576 x; printf ';\n}\n'; } > "$big/long-line-name.tile"
{ printf 'kernel k(y: out f32[16, 16]) {\n  let a = 1'; repeat 200000 ' + 1'; printf ' + q;\n}\n'; } > "$big/long-line-sum.tile"
{ printf 'kernel k(y: out f32[16, 16]) {\n'; for ((i = 0; i < 100000; i++)); do printf '  let a%d = %d;\n' $i $i; done
  printf '  store(y, [0, 0], missing);\n}\n'; } > "$big/many-statements.tile"
{ for ((i = 0; i < 10000; i++)); do printf 'kernel k%d(y: out f32[16, 16]) {\n}\n' $i; done
  printf 'kernel k17(y: out f32[16, 16]) {\n}\n'; } > "$big/many-kernels.tile"
{ printf 'kernel k(y: out f32[16, 16]) {\n'; repeat 5000 'for i in 0 .. 2 { '; repeat 5000 '} '; printf '\n}\n'; } > "$big/deep-loops.tile"
{ printf 'kernel k(y: out f32[16, 16]) {\n'; repeat 5000 'if true { '; repeat 5000 '} '; printf '\n}\n'; } > "$big/deep-ifs.tile"
{ printf 'kernel k(x: in f32[16, 16], y: out f32[16, 16]) {\n  store(y, [0, 0], '; repeat 10000 'exp('
  printf 'load(x, [0, 0], [16, 16])'; repeat 10000 ')'; printf ');\n}\n'; } > "$big/call-chain.tile"
{ printf 'kernel k(y: out f32[16, 16]) {\n  let a = '; repeat 100000 '('; printf '1'; repeat 100000 ')'; printf ';\n}\n'; } > "$big/deep-parens.tile"
{ repeat 20000 'func @k() incore {'; } > "$big/deep-tir.tir"

failed=0
fail() { echo "FAIL $1: $2"; failed=1; }
for input in "$here"/cases/* "$big"/*; do
  name=$(basename "$input")
  seconds=$small_seconds
  [[ $input == "$big"/* ]] && seconds=$big_seconds
  out=$work/out.pto
  rm -f "$out"
  /usr/bin/time -f '%M %U %S' -o "$work/usage" timeout "$((seconds * 10))" "$tilec" "$input" -o "$out" \
    > /dev/null 2> "$work/err"
  rc=$?
  read -r rss user sys < <(tail -n 1 "$work/usage")
  ms=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
  if [[ $name == ok-* ]]; then
    [[ $rc -eq 0 ]] || fail "$name" "exit $rc, expected 0: $(head -c 300 "$work/err")"
  else
    [[ $rc -eq 1 ]] || fail "$name" "exit $rc, expected 1: $(head -c 300 "$work/err")"
    grep -qE ':[0-9]+:[0-9]+: error\[E[0-9]{4}\]' "$work/err" || fail "$name" "no located diagnostic with a code"
    [[ ! -e $out ]] || fail "$name" "left an output file"
  fi
  ((ms <= seconds * 1000)) || fail "$name" "took $ms ms of CPU time (limit $((seconds * 1000)))"
  [[ $rss =~ ^[0-9]+$ ]] && ((rss <= mib * 1024)) || fail "$name" "peak RSS ${rss} KiB (limit $mib MiB)"
done
exit $failed
