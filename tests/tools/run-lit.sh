#!/usr/bin/env bash
# Runs one lit-style test file: every line containing "RUN:" (after a //, # or ;
# comment marker) is a shell command; a line ending in '\' continues on the next.
# Substitutions: %tilec %check %s %S %t %% (see docs/cli.md, "Testing").
# Each command runs with `bash -o pipefail -c` in a fresh temporary directory shared
# by the file's commands; `expect_exit N cmd...` succeeds only if cmd exits with N.
# Environment: TILEC, TILEC_CHECK (binaries), TILEC_TEST_TMP (temp root). With
# TILEC_SURVEY_ROOT set, every tilec run is recorded (tests/diagnostics/tee-tilec.sh) in
# TILEC_SURVEY_ROOT/<this file's path>/, emptied first, for the diagnostics survey
# (tests/diagnostics/check-names.js) to read once the whole suite has run.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: run-lit.sh TEST_FILE" >&2
  exit 2
fi
test_file=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
: "${TILEC:?set TILEC to the tilec binary}"
: "${TILEC_CHECK:?set TILEC_CHECK to the tilec-check binary}"
[[ -r $test_file ]] || { echo "run-lit: cannot read $test_file" >&2; exit 2; }

if [[ -n ${TILEC_SURVEY_ROOT:-} ]]; then
  export SURVEY_DIR=$TILEC_SURVEY_ROOT$test_file REAL_TILEC=$TILEC
  rm -rf "$SURVEY_DIR"
  mkdir -p "$SURVEY_DIR"
  TILEC=$(cd "$(dirname "$0")/../diagnostics" && pwd)/tee-tilec.sh
fi

tmp_root=${TILEC_TEST_TMP:-${TMPDIR:-/tmp}}
mkdir -p "$tmp_root"
work_dir=$(mktemp -d "$tmp_root/lit.XXXXXX")
test_name=$(basename "$test_file")

# Collect RUN commands with the line each starts on.
commands=()
lines=()
pending=""
pending_line=0
line_no=0
while IFS= read -r line || [[ -n $line ]]; do
  line_no=$((line_no + 1))
  if [[ -z $pending ]]; then
    [[ $line =~ ^[[:space:]]*(//|#|\;)+[[:space:]]*RUN:[[:space:]]?(.*)$ ]] || continue
    text=${BASH_REMATCH[2]}
    pending_line=$line_no
  else
    # A continuation line: drop its comment marker.
    [[ $line =~ ^[[:space:]]*(//|#|\;)+[[:space:]]*(RUN:)?[[:space:]]?(.*)$ ]] && text=${BASH_REMATCH[3]} || text=$line
  fi
  if [[ $text == *\\ ]]; then
    pending+="${text%\\} "
    continue
  fi
  commands+=("$pending$text")
  lines+=("$pending_line")
  pending=""
done <"$test_file"
if [[ -n $pending ]]; then
  echo "run-lit: $test_file:$pending_line: RUN line ends with '\\' but nothing follows" >&2
  exit 1
fi
if [[ ${#commands[@]} -eq 0 ]]; then
  echo "run-lit: $test_file has no RUN: line; a test without commands cannot fail" >&2
  exit 1
fi

shopt -u patsub_replacement 2>/dev/null || true  # bash 5.2 would expand '&' in replacements
quote() { printf '%q' "$1"; }
substitute() {
  local cmd=$1
  cmd=${cmd//%%/$'\x01'}  # keep a literal % out of the way of the substitutions below
  cmd=${cmd//%tilec/$(quote "$TILEC")}
  cmd=${cmd//%check/$(quote "$TILEC_CHECK")}
  cmd=${cmd//%s/$(quote "$test_file")}
  cmd=${cmd//%S/$(quote "$(dirname "$test_file")")}
  cmd=${cmd//%t/$(quote "$work_dir/$test_name.tmp")}
  cmd=${cmd//$'\x01'/%}
  printf '%s' "$cmd"
}

# Defined in every command's shell. Reports on fd 3 (the real stderr) because the
# command's own stderr is often piped into tilec-check.
prelude='expect_exit() {
  local want=$1; shift
  local rc=0
  "$@" || rc=$?
  if [[ $rc -ne $want ]]; then
    echo "expect_exit: \"$*\" exited with $rc, expected $want" >&3
    return 1
  fi
}'

for i in "${!commands[@]}"; do
  cmd=$(substitute "${commands[$i]}")
  rc=0
  (cd "$work_dir" && TMPDIR=$work_dir bash -o pipefail -c "$prelude
$cmd" 3>&2) || rc=$?
  if [[ $rc -ne 0 ]]; then
    {
      echo "FAIL: $test_file:${lines[$i]}: RUN: ${commands[$i]}"
      echo "  expanded: $cmd"
      echo "  exit status: $rc"
      echo "  temp dir kept: $work_dir"
    } >&2
    exit 1
  fi
done
rm -rf "$work_dir"
echo "PASS: $test_file (${#commands[@]} RUN lines)"
