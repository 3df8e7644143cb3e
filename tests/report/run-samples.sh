#!/usr/bin/env bash
# Writes the --emit=report page of every sample (samples/*.tile for a2a3, samples/aie for
# npu1 at the sizes of their `// static:` line, samples/linx for linx), and of the lit
# inputs for a section no sample reaches (tests/lit/report/Inputs/blocks-*.tile, with the
# flags of their `// report-flags:` line), twice: the two must be byte-identical. Then one
# headless Chromium renders and checks them all (check-report.js): every section drawn and
# not blank, nothing fetched, and the SVG's windows and transfers agreeing with the
# compiler's final IR, counted here from --emit-ir; no name only the final IR has (a value
# name of --emit-ir with a `_` that no identifier of the source spells) in the page's text.
# Screenshots of every section stay in
# WORKDIR/<sample>-shots/ for a person to look at.
#   run-samples.sh TILEC SOURCE_DIR WORKDIR
set -euo pipefail
tilec=$1 root=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
cd "$root"  # relative paths, as a user would type them, in the pages' listings

checks=()
report() {  # SAMPLE TARGET
  local sample=$1 target=$2 name sizes
  name=$(basename "$(dirname "$sample")")-$(basename "$sample" .tile)
  # A runtime sequence's `// static:` line gives the sizes its TXN stream is written for.
  # A lit input's `// report-flags:` line gives the flags its section is drawn with.
  read -r -a sizes <<< "$(sed -n -e 's|^// static: ||p' -e 's|^// report-flags: ||p' "$sample")"
  "$tilec" "$sample" --target="$target" "${sizes[@]}" --emit=report -o "$work/$name.html"
  "$tilec" "$sample" --target="$target" "${sizes[@]}" --emit=report -o "$work/$name.again.html"
  cmp "$work/$name.html" "$work/$name.again.html"
  "$tilec" "$sample" --target="$target" "${sizes[@]}" --emit-ir -o "$work/$name.tir"
  local stores loads transfers
  stores=$(grep -cE '^ *tile\.store ' "$work/$name.tir" || true)
  loads=$(grep -cE '= tile\.load ' "$work/$name.tir" || true)
  transfers=$(grep -cE '^ *dma\.(fill|drain) ' "$work/$name.tir" || true)
  grep -oE '%[A-Za-z_][A-Za-z0-9_]*' "$work/$name.tir" | cut -c2- | { grep _ || true; } | sort -u > "$work/$name.ir-names"
  grep -ohE '[A-Za-z_][A-Za-z0-9_]*' "$sample" | sort -u > "$work/$name.source-names"
  comm -23 "$work/$name.ir-names" "$work/$name.source-names" > "$work/$name.ir-only"
  checks+=("$work/$name.html" --shots "$work/$name-shots" --expect "stores=$stores" --expect "loads=$loads"
           --expect "transfers=$transfers" --ir-names "$work/$name.ir-only")
}

for sample in samples/*.tile; do report "$sample" a2a3; done
for sample in samples/aie/*.tile; do report "$sample" npu1; done
for sample in samples/linx/*.tile; do report "$sample" linx; done
for sample in tests/lit/report/Inputs/blocks-*.tile; do report "$sample" a2a3; done
node "$here/check-report.js" "${checks[@]}"
