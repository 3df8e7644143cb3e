#!/usr/bin/env bash
# Runs tilec's PTO output through the real PTOAS assembler, outside CTest (PTOAS is not part
# of the project: docs/pto-backend.md says how to get it). Compiles every samples/*.tile,
# samples/linx/*.tile and every .tile/.tir under tests/lit with build/tilec for a2a3 and for
# a5, then runs PTOAS's verifier (`--emit-pto-ir`) and its whole pipeline
# (`--enable-insert-sync`, to C++) on each output, with `--pto-arch=a3` or `a5` to match, and
# `--pto-level=level3` when the output's first line asks for it (plan-addresses placed every tile).
#
# Usage: scripts/check-ptoas.sh [--require] [-j N] [--keep DIR]
#   --require   fail (exit 2) instead of skipping when no `ptoas` is on PATH
#   -j N        run N inputs at a time (default 2)
#   --keep DIR  keep the .pto outputs and PTOAS's messages in DIR (default: a removed temp dir)
#
# A file of several kernels is compiled once per kernel (--kernel). An input tilec refuses
# (exit 1: a diagnostic, e.g. a target rule or a -D it needs) is "skipped: tilec refuses";
# when its own RUN lines compile it with -D NAME=VALUE, it is tried once more with those.
# Any other tilec exit, and any PTOAS error, is a failure: one line each (target, input,
# stage, first error line), then the counts. A test input that builds a kernel PTOAS must
# refuse carries a line `PTOAS-XFAIL: <target> [--kernel=NAME]`: PTOAS refusing it counts as
# expected, accepting it as a failure. Exit 1 if anything failed. The order of the lines does
# not depend on -j.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
require=0
jobs=2
keep=
while [[ $# -gt 0 ]]; do
  case $1 in
    --require) require=1 ;;
    -j) jobs=${2:?-j needs a number}; shift ;;
    -j*) jobs=${1#-j} ;;
    --keep) keep=${2:?--keep needs a directory}; shift ;;
    -h|--help) sed -n '2,19s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "check-ptoas: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "check-ptoas: -j needs a positive number, not '$jobs'" >&2; exit 2; }

if ! command -v ptoas > /dev/null; then
  if [[ $require -eq 1 ]]; then
    echo "check-ptoas: no ptoas on PATH (--require given); see docs/pto-backend.md, 'Checking the output'" >&2
    exit 2
  fi
  echo "check-ptoas: skipped: no ptoas on PATH (see docs/pto-backend.md, 'Checking the output')"
  exit 0
fi
tilec=$root/build/tilec
if [[ ! -x $tilec ]]; then
  echo "check-ptoas: $tilec is missing; build it first:" >&2
  echo "  scripts/configure.sh release && cmake --build build --target tilec" >&2
  exit 2
fi

if [[ -n $keep ]]; then
  mkdir -p "$keep"
  work=$(cd "$keep" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# The -D NAME=VALUE flags (unquoted values only) of the first RUN line that compiles the
# input itself with some.
run_defines() {
  awk '/RUN:/ && /%tilec %s/ && !/expect_exit/ {
         out = ""
         for (i = 1; i <= NF; ++i) {
           if ($i == "-D" && i < NF && $(i + 1) ~ /^[A-Za-z_][A-Za-z0-9_]*=[^\047"]+$/) out = out " -D " $(i + 1)
           else if ($i ~ /^-D[A-Za-z_][A-Za-z0-9_]*=[^\047"]+$/) out = out " " $i
         }
         if (out != "") { print out; exit }
       }' "$1"
}

# The first error line of a message file; PTOAS's location prefix becomes "line L:C".
first_error() {
  local line
  line=$(grep -m1 -i 'error' "$1" || head -n1 "$1")
  line=$(sed -E 's/^loc\("[^"]*":([0-9]+):([0-9]+)\): /line \1:\2: /' <<< "$line")
  printf '%s' "${line:-(no message)}"
}

# The kernels an input defines, one a line: the AST's for .tile, the functions for .tir
# (the names come from the compiler, not from the wording of E0006).
kernels_of() {
  case $1 in
    *.tir) sed -n 's/^func @\([A-Za-z_0-9]*\)(.*/\1/p' "$1" ;;
    *) "$tilec" "$1" --emit=ast -o - 2> /dev/null | sed -n 's/^  Kernel \([A-Za-z_0-9]*\) @.*/\1/p' ;;
  esac
}

# tilec ARGS -o BASE.pto, again with the input's RUN-line defines when it refuses without
# them (not for E0006, which is answered by --kernel). Sets rc.
compile() {
  local base=$1
  shift
  rc=0
  timeout 120 "$tilec" "$@" -o "$base.pto" 2> "$base.tilec.err" || rc=$?
  if [[ $rc -eq 1 && -n $defines ]] && ! grep -q 'error\[E0006\]' "$base.tilec.err"; then
    rc=0
    # shellcheck disable=SC2086 # the defines are words
    timeout 120 "$tilec" "$@" $defines -o "$base.pto" 2> "$base.tilec.err" || rc=$?
  fi
}

# Appends the result of one output (tilec's exit in rc, then PTOAS's two runs) to $result:
# "<target> pass|skip|fail <label>[: <stage>: <first error line>]".
record() {
  local target=$1 label=$2 base=$3 arch=${1/a2a3/a3}
  local stage=tilec level=()
  # tilec's first line asks for level3 when it placed every tile itself (plan-addresses).
  if [[ $rc -eq 0 ]] && head -n 1 "$base.pto" | grep -q -- '--pto-level=level3'; then
    level=(--pto-level=level3)
  fi
  if [[ $rc -eq 1 ]]; then
    echo "$target skip $label" >> "$result"
    return
  elif [[ $rc -eq 0 ]]; then
    stage=verify
    timeout 120 ptoas "$base.pto" --pto-arch="$arch" "${level[@]}" --emit-pto-ir -o /dev/null > /dev/null 2> "$base.$stage.err" || rc=$?
  fi
  if [[ $rc -eq 0 ]]; then
    stage=pipeline
    timeout 120 ptoas "$base.pto" --pto-arch="$arch" "${level[@]}" --enable-insert-sync -o "$base.cpp" > /dev/null 2> "$base.$stage.err" || rc=$?
  fi
  # A test that builds a kernel PTOAS must refuse says so: `PTOAS-XFAIL: <target> <flags>`.
  local input=${label%% *} flags=${label#* }
  [[ $flags == "$label" ]] && flags=
  if [[ $stage != tilec ]] && grep -qF -- "PTOAS-XFAIL: $target $flags" "$input"; then
    if [[ $rc -eq 0 ]]; then
      echo "$target fail $label: PTOAS accepts it, but the test says PTOAS-XFAIL" >> "$result"
    else
      echo "$target xfail $label" >> "$result"
    fi
    return
  fi
  if [[ $rc -eq 0 ]]; then
    echo "$target pass $label" >> "$result"
  elif [[ $stage == tilec ]]; then
    echo "$target fail $label: tilec (exit $rc): $(first_error "$base.tilec.err")" >> "$result"
  else
    echo "$target fail $label: $stage: $(first_error "$base.$stage.err")" >> "$result"
  fi
}

# One input, for both targets; a file of several kernels is compiled once per kernel.
check_one() {
  local index=$1 input=$2 target kernel base kernels
  result=$work/results/$index
  defines=$(run_defines "$input")
  : > "$result"
  for target in a2a3 a5; do
    base=$work/out/$index-$target
    compile "$base" "$input" --target="$target"
    if [[ $rc -ne 1 ]] || ! grep -q 'error\[E0006\]' "$base.tilec.err"; then
      record "$target" "$input" "$base"
      continue
    fi
    mapfile -t kernels < <(kernels_of "$input")
    [[ ${#kernels[@]} -gt 0 ]] || record "$target" "$input" "$base"  # names not found: refused
    for kernel in "${kernels[@]}"; do
      compile "$base-$kernel" "$input" --target="$target" --kernel="$kernel"
      record "$target" "$input --kernel=$kernel" "$base-$kernel"
    done
  done
}

cd "$root"  # inputs are named relative to the repository
mapfile -t inputs < <({ find samples samples/linx -maxdepth 1 -type f -name '*.tile' | LC_ALL=C sort
                        find tests/lit -type f \( -name '*.tile' -o -name '*.tir' \) | LC_ALL=C sort; })
mkdir -p "$work/results" "$work/out"
export -f check_one compile record kernels_of run_defines first_error
export work tilec
# shellcheck disable=SC2016 # the inner shell expands $1 and $2
for i in "${!inputs[@]}"; do printf '%s\0%s\0' "$i" "${inputs[$i]}"; done |
  xargs -0 -n 2 -P "$jobs" bash -c 'check_one "$1" "$2"' _

declare -A passed=([a2a3]=0 [a5]=0) failed=([a2a3]=0 [a5]=0) skipped=([a2a3]=0 [a5]=0) xfailed=([a2a3]=0 [a5]=0)
for i in "${!inputs[@]}"; do
  while read -r target status detail; do
    case $status in
      pass) passed[$target]=$((passed[$target] + 1)) ;;
      skip) skipped[$target]=$((skipped[$target] + 1)) ;;
      xfail) xfailed[$target]=$((xfailed[$target] + 1)) ;;
      fail)
        failed[$target]=$((failed[$target] + 1))
        echo "FAIL [$target] $detail"
        ;;
    esac
  done < "$work/results/$i"
done

total_failed=$((failed[a2a3] + failed[a5]))
echo "check-ptoas: ${#inputs[@]} inputs, $(ptoas --version 2> /dev/null | head -n1)"
for target in a2a3 a5; do
  echo "  $target: ${passed[$target]} passed, ${failed[$target]} failed, ${xfailed[$target]} refused by PTOAS as their tests expect, ${skipped[$target]} skipped: tilec refuses"
done
[[ -n $keep ]] && echo "  outputs and messages: $work/out"
[[ $total_failed -eq 0 ]]
