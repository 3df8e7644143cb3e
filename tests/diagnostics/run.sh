#!/usr/bin/env bash
# The diagnostics survey: runs every tilec command of the lit suite (tests/lit, through
# run-lit.sh in its survey mode) and every input of the malformed corpus (tests/malformed),
# keeps the standard error of each run, and checks every diagnostic message, note and fix
# in it against the rule of docs/diagnostics.md, "Names in messages" (check-names.js).
#   run.sh TILEC TILEC_CHECK SOURCE_DIR WORK_DIR
set -euo pipefail
tilec=$1 check=$2 src=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work/survey" "$work/tmp"
export REAL_TILEC=$tilec SURVEY_DIR=$work/survey
export TILEC=$here/tee-tilec.sh TILEC_CHECK=$check TILEC_TEST_TMP=$work/tmp TILEC_LIT_SURVEY=1
find "$src/tests/lit" -type f \( -name '*.tile' -o -name '*.tir' -o -name '*.test' \) |
  grep -Ev '/(Inputs|Expected)/' | sort |
  xargs -P 2 -I{} bash "$src/tests/tools/run-lit.sh" {} > "$work/lit.log" 2>&1
# The corpus runner's own verdict is malformed/corpus's test; here only its diagnostics
# count, so its time limits are loose.
bash "$src/tests/malformed/run.sh" "$TILEC" "$work/malformed" 20 2048 40 > "$work/malformed.log" 2>&1 || true
node "$here/check-names.js" "$work/survey" "$src/src/ir/Ops.def" "$src/grammar/Tile.g4"
