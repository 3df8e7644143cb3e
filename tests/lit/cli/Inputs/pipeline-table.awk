# Prints "TARGET: PASS PASS ..." for each target of the table of default pipelines in
# docs/architecture.md, whose rows read "| `a2a3`, `a5` | `verify` → `unroll-loops` → ... |".
/^\| targets \| default pipeline \|/ { inTable = 1; next }
inTable && /^\| ---/ { next }
inTable && !/^\|/ { inTable = 0 }
inTable {
  split($0, cell, "|")
  passes = cell[3]
  gsub(/`/, "", passes)
  gsub(/ → /, " ", passes)
  gsub(/^ +| +$/, "", passes)
  targets = cell[2]
  gsub(/[` ]/, "", targets)
  n = split(targets, name, ",")
  for (i = 1; i <= n; ++i) print name[i] ": " passes
}
