#!/usr/bin/env bash
# Stands in for tilec in the lit and malformed suites (run-lit.sh, malformed/run.sh), for
# the diagnostics survey (check-names.js): runs the real tilec ($REAL_TILEC) with the same
# arguments, standard input and output, and keeps a record of the run in a new file in
# $SURVEY_DIR: an `arg VALUE` line per argument, `input PATH` for a copy of each file the
# run reads as source (the .tile and .tir arguments, a txn-run --stream file, and standard
# input when the input is `-`; copies, since a lit test's files are gone when the check
# reads them), a `---` line, then everything tilec wrote to standard error (and to standard
# output, when both go to one place: their order is kept).
set -uo pipefail
record=$(mktemp "$SURVEY_DIR/run.XXXXXX")
stdin_input=0 previous= copies=0
for arg in "$@"; do
  printf 'arg %s\n' "${arg//$'\n'/ }" >> "$record"
  if [[ ($arg == *.tile || $arg == *.tir || $previous == --stream) && -f $arg ]]; then
    copies=$((copies + 1))
    cp "$arg" "$record.input$copies"
    printf 'input %s\n' "$record.input$copies" >> "$record"
  fi
  # `-` is the input unless it is the value of an option that names a file
  [[ $arg == - && $previous != -o && $previous != -MF && $previous != --depfile ]] && stdin_input=1
  previous=$arg
done
if ((stdin_input)); then
  cat > "$record.input0"
  printf 'input %s\n' "$record.input0" >> "$record"
  exec < "$record.input0"
fi
printf -- '---\n' >> "$record"
rc=0
if [[ /dev/stdout -ef /dev/stderr ]]; then
  # One destination (`2>&1`): both streams go through one file, which keeps their order.
  "$REAL_TILEC" "$@" > "$record.both" 2>&1 || rc=$?
  cat "$record.both" >> "$record"
  cat "$record.both"
  rm "$record.both"
else
  "$REAL_TILEC" "$@" 2> "$record.stderr" || rc=$?
  tee -a "$record" < "$record.stderr" >&2
  rm "$record.stderr"
fi
exit $rc
