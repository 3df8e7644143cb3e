#!/usr/bin/env bash
# One SARIF test: runs tilec with --diagnostics-format=sarif, then
#   1. the SARIF Multitool validates the log: any error or warning it reports fails the test;
#   2. check-log.js compares its content with EXPECTED and with the source it points to;
#   3. a second run gives the same bytes.
# usage: run.sh TILEC NODE_MODULES WORK_DIR NAME EXPECTED TILEC_ARGS...
# Runs in the source directory, so input names are relative to it (%SRCROOT%).
set -euo pipefail
tilec=$1 modules=$2 work=$3 name=$4 expected=$5
shift 5
multitool=$modules/.bin/sarif-multitool
if [[ ! -x $multitool ]]; then
  echo "sarif: $multitool is missing; run scripts/setup.sh to install the npm test tools" >&2
  exit 1
fi
mkdir -p "$work"
log=$work/$name.sarif

status=0
"$tilec" --diagnostics-format=sarif "$@" 2>"$log" >/dev/null || status=$?

# The Multitool is a .NET program; without libicu it needs the invariant globalization mode.
report=$work/$name.validate.txt
validate_status=0
DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 "$multitool" validate "$log" >"$report" 2>&1 || validate_status=$?
if [[ $validate_status -ne 0 ]] || grep -Eiq '\b(error|warning)\b' "$report"; then
  echo "sarif: the SARIF Multitool rejects $log (exit $validate_status):" >&2
  cat "$report" >&2
  exit 1
fi

node "$(dirname "$0")/check-log.js" "$log" "$expected" "$status"

"$tilec" --diagnostics-format=sarif "$@" 2>"$log.again" >/dev/null || true
if ! cmp -s "$log" "$log.again"; then
  echo "sarif: a second run wrote a different log:" >&2
  diff "$log" "$log.again" >&2 || true
  exit 1
fi
